"""Asynchronous play (issue 7) on the tables layer with a controllable clock."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine import core
from store import Store
from tables import HOUR, TableError, Tables
from tests.fakegame import Race

ALICE, BOB, CAROL = 11, 22, 33
GUILD = 500


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def t(tmp_path: Path, clock: Clock):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "s.db"), clock=clock).open()
    yield Tables(store, clock=clock)
    await store.close()


async def game(
    t: Tables, settings: dict[str, Any] | None = None, key: str = "test-race", seed: int = 4
) -> int:
    lobby = await t.create(ALICE, "alice", key, seed=seed, guild_id=GUILD, settings=settings)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    return lobby.game_id


async def mover(t: Tables, gid: int) -> tuple[int, int, int]:
    """(user to act, their seat, the other user)."""
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    seat = row.state["turn"] % 2
    return row.seats[seat].user_id, seat, row.seats[1 - seat].user_id  # type: ignore[return-value]


async def test_settings_validation_and_override(t: Tables) -> None:
    with pytest.raises(TableError, match="no setting"):
        await t.set_guild_settings(GUILD, {"speed": 3})
    with pytest.raises(TableError, match="ai, skip or abandon"):
        await t.set_guild_settings(GUILD, {"on_deadline": "explode"})
    with pytest.raises(TableError, match="number of hours"):
        await t.set_guild_settings(GUILD, {"deadline_hours": -1})
    with pytest.raises(TableError, match="every 15 minutes"):
        await t.set_guild_settings(GUILD, {"reminder_hours": 0.01})
    merged = await t.set_guild_settings(GUILD, {"deadline_hours": 48, "on_deadline": "skip"})
    assert (
        merged["deadline_hours"] == 48 and merged["on_deadline"] == "skip" and merged["reminder_hours"] == 24
    )
    gid = await game(t, {"deadline_hours": 2})
    row = await t.store.get(gid)
    assert row is not None
    cfg = await t.settings_for(row)
    assert cfg["deadline_hours"] == 2 and cfg["on_deadline"] == "skip", "the game overrides the server"


async def test_timers_follow_the_turn(t: Tables, clock: Clock) -> None:
    gid = await game(t, {"deadline_hours": 10, "reminder_hours": 2})
    user, seat, other = await mover(t, gid)
    timers = await t.store.timers_of(gid)
    assert [(s, k, due - clock.now) for _i, s, k, due in timers] == [
        (seat, "deadline", 10 * HOUR),
        (seat, "reminder", 2 * HOUR),
    ]
    clock.now += 60
    await t.act(gid, user, "1")
    timers = await t.store.timers_of(gid)
    assert {(s, k) for _i, s, k, _d in timers} == {(1 - seat, "deadline"), (1 - seat, "reminder")}


async def test_reminders_repeat_until_you_act_and_fire_once(t: Tables, clock: Clock) -> None:
    gid = await game(t, {"reminder_hours": 2})
    user, _seat, _other = await mover(t, gid)
    assert await t.fire_due() == []
    clock.now += 2 * HOUR
    notices = await t.fire_due()
    assert len(notices) == 1 and notices[0].kind == "reminder" and notices[0].ping == [user]
    assert "waiting for your move" in notices[0].text
    assert await t.fire_due() == [], "a reminder fires once per interval"
    clock.now += 2 * HOUR
    assert len(await t.fire_due()) == 1
    await t.act(gid, user, "1")
    clock.now += 2 * HOUR
    again = await t.fire_due()
    assert [n.ping for n in again] != [[user]]


async def test_deadline_ai_plays_once_and_survives_restart(tmp_path: Path, clock: Clock) -> None:
    path = str(tmp_path / "r.db")
    store = await Store(path, clock=clock).open()
    t = Tables(store, clock=clock)
    gid = await game(t, {"deadline_hours": 5, "reminder_hours": 0})
    _user, seat, other = await mover(t, gid)
    await store.close()  # the bot stops; the deadline is only in the database

    clock.now += 5 * HOUR + 1
    store = await Store(path, clock=clock).open()
    t = Tables(store, clock=clock)
    notices = await t.fire_due()
    assert len(notices) == 1 and notices[0].kind == "deadline"
    assert "missed the turn deadline" in notices[0].text and notices[0].update is not None
    log = await store.log(gid)
    assert [(s, n) for _q, s, n in log] == [(seat, "1")], "the AI played the missed move once"
    assert await t.fire_due() == []
    assert notices[0].update.ping == [other]
    # Restart again: nothing fires twice.
    await store.close()
    store = await Store(path, clock=clock).open()
    t = Tables(store, clock=clock)
    assert await t.fire_due() == []
    assert len(await store.log(gid)) == 1
    await store.close()


async def test_deadline_abandon(t: Tables, clock: Clock) -> None:
    gid = await game(t, {"deadline_hours": 1, "on_deadline": "abandon", "reminder_hours": 0})
    clock.now += HOUR
    notices = await t.fire_due()
    assert notices[0].kind == "deadline" and "abandoned" in notices[0].text
    row = await t.store.get(gid)
    assert row is not None and row.status == "abandoned"
    assert await t.store.timers_of(gid) == []


class Passing(Race):
    key = "test-race-pass"

    def pass_action(self, state: dict, seat: int) -> int:
        return 1


async def test_deadline_skip_uses_the_rules_pass(t: Tables, clock: Clock) -> None:
    core._loaded[Passing.key] = Passing()
    from render import register
    from tests import fakegame

    register(Passing.key, fakegame.RENDERER)
    gid = await game(t, {"deadline_hours": 1, "on_deadline": "skip", "reminder_hours": 0}, key=Passing.key)
    clock.now += HOUR
    notices = await t.fire_due()
    assert "was skipped" in notices[0].text
    assert [n for _q, _s, n in await t.store.log(gid)] == ["1"]


async def test_skip_without_a_pass_falls_back_to_the_ai(t: Tables, clock: Clock) -> None:
    await game(t, {"deadline_hours": 1, "on_deadline": "skip", "reminder_hours": 0})
    clock.now += HOUR
    assert "had the AI play" in (await t.fire_due())[0].text


async def test_vacation_pauses_deadlines_and_shows_away(t: Tables, clock: Clock) -> None:
    gid = await game(t, {"deadline_hours": 4, "reminder_hours": 1})
    user, seat, _other = await mover(t, gid)
    text = await t.set_vacation(user, 48)
    assert "paused" in text
    deadline = [d for _i, s, k, d in await t.store.timers_of(gid) if k == "deadline"][0]
    assert deadline == pytest.approx(clock.now + 52 * HOUR)
    clock.now += 5 * HOUR
    assert await t.fire_due() == [], "no deadline and no reminder while away"
    board = await t.board(gid)
    assert "away until" in board.text
    clock.now += 43 * HOUR + 1  # back from vacation: reminded first, deadline later
    assert [n.kind for n in await t.fire_due()] == ["reminder"]
    clock.now += 4 * HOUR
    notices = await t.fire_due()
    assert [n.kind for n in notices][-1] == "deadline"
    assert len(await t.store.log(gid)) == 1, "the AI played the move at the paused deadline"
    with pytest.raises(TableError, match="not on vacation"):
        await t.set_vacation(BOB if user == ALICE else ALICE, 0)


async def test_my_games_waiting_on_you_first(t: Tables, clock: Clock) -> None:
    g1 = await game(t)
    clock.now += 10
    g2 = await game(t, seed=9)
    user1, _s, _o = await mover(t, g1)
    user2, _s2, _o2 = await mover(t, g2)
    mine = await t.my_games(ALICE, GUILD)
    assert {g["game_id"] for g in mine} == {g1, g2}
    flags = [g["waiting_on_you"] for g in mine]
    assert flags == sorted(flags, reverse=True)
    assert all(g["thread_id"] is None or isinstance(g["thread_id"], int) for g in mine)
    assert await t.my_games(CAROL, GUILD) == []


async def play_out(t: Tables, gid: int) -> None:
    while True:
        row = await t.store.get(gid)
        assert row is not None
        if row.status == "over":
            return
        user, _s, _o = await mover(t, gid)
        await t.act(gid, user, "3")


async def test_history_paged_and_replay(t: Tables) -> None:
    gid = await game(t)
    await play_out(t, gid)
    text, pages = await t.history(gid, 1, per_page=2)
    assert pages == 2 and "1. " in text and "`3`" in text and "page 1/2" in text
    with pytest.raises(TableError, match="does not exist"):
        await t.history(gid, 3, per_page=2)
    caption, png = await t.replay_png(gid, 1)
    assert "after move 1 of 4" in caption
    Image.open(io.BytesIO(png)).verify()
    with pytest.raises(TableError, match="from 0 to 4"):
        await t.replay_png(gid, 9)


async def test_replay_refused_while_running(t: Tables) -> None:
    gid = await game(t)
    with pytest.raises(TableError, match="finished games"):
        await t.replay_png(gid, 0)


async def test_history_uses_the_public_notation(t: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await game(t)
    user, _s, _o = await mover(t, gid)
    await t.act(gid, user, "2")
    monkeypatch.setattr(Race, "public_format", lambda self, state, seat, action: "(secret)")
    text, _ = await t.history(gid)
    assert "(secret)" in text and "`2`" not in text


async def test_undo_until_the_next_player_acts(t: Tables) -> None:
    gid = await game(t)
    user, seat, other = await mover(t, gid)
    with pytest.raises(TableError, match="own move"):
        await t.undo(gid, user)
    await t.act(gid, user, "3")
    before_undo = await t.store.get(gid)
    await t.undo(gid, user)
    row = await t.store.get(gid)
    assert row is not None and row.state is not None and before_undo is not None
    assert row.state["total"] == 0 and await t.store.log(gid) == []
    # The turn is back with the undoer, and the next move still works.
    await t.act(gid, user, "2")
    await t.act(gid, other, "1")
    with pytest.raises(TableError, match="own move"):
        await t.undo(gid, user)


async def test_undo_refused_when_the_move_revealed_something(
    t: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await game(t)
    user, _s, _o = await mover(t, gid)
    await t.act(gid, user, "1")
    monkeypatch.setattr(Race, "can_undo", lambda self, before, after, seat, action: False)
    with pytest.raises(TableError, match="revealed"):
        await t.undo(gid, user)
    assert len(await t.store.log(gid)) == 1


async def test_stats_and_final_image(t: Tables) -> None:
    for seed in (1, 2, 3):
        gid = await game(t, seed=seed)
        await play_out(t, gid)
    update = await t.board(gid)
    # Issue 21 item 5: the final board itself carries the scores; no separate table image.
    assert update.over and update.png is not None and "Final scores" in update.text
    Image.open(io.BytesIO(update.png)).verify()
    assert not hasattr(update, "result_png")
    text, png = await t.stats(GUILD)
    # Issue 41: the leaderboard is by rating, with games played and wins.
    assert "ratings from 3 rated games" in text and png is not None
    rows = await t.store.games(GUILD, "over")
    wins = {ALICE: 0, BOB: 0}
    for r in rows:
        for w in r.result["winners"]:  # type: ignore[index]
            wins[r.seats[w].user_id] += 1  # type: ignore[index]
    for name, uid in (("alice", ALICE), ("bob", BOB)):
        assert f"{name}: " in text and f"{wins[uid]} win{'' if wins[uid] == 1 else 's'} in 3 games" in text
    assert "Ratings: alice" in update.text or "Ratings: bob" in update.text
    assert (await t.stats(GUILD, "dungeon-lair"))[0] == "No rated games here yet."


async def test_turn_pings_go_by_dm_only_to_those_who_opted_in(t: Tables) -> None:
    gid = await game(t)
    user, _s, other = await mover(t, gid)
    await t.set_notify(other, True)
    update = await t.act(gid, user, "1")
    assert update.ping == [other] and update.dm == [other]
    await t.set_notify(other, False)
    update = await t.act(gid, other, "1")
    assert update.dm == []


async def test_ai_takes_over_a_seat_that_leaves(t: Tables) -> None:
    gid = await game(t)
    user, seat, other = await mover(t, gid)
    with pytest.raises(TableError, match="Only the host"):
        await t.take_over(gid, CAROL, seat_user=user)
    update = await t.take_over(gid, user)
    assert "AI plays their seat" in update.text
    row = await t.store.get(gid)
    assert row is not None and row.seats[seat].is_ai
    assert len(await t.store.log(gid)) == 1, "the AI made the move the leaver owed"
    assert update.ping == [other]
    with pytest.raises(TableError, match="not a player"):
        await t.act(gid, user, "1")


async def test_simultaneous_choices_ping_everyone_and_show_only_who_still_thinks(t: Tables) -> None:
    """Dungeon Lords orders are secret and simultaneous: both players are pinged at
    once; after one submits, the board names only who is still choosing."""
    lobby = await t.create(ALICE, "alice", "dungeon-lords", seed=5, guild_id=GUILD)
    await t.join(lobby.game_id, BOB, "bob")
    start = await t.start(lobby.game_id, ALICE)
    game = core.get("dungeon-lords")
    row = await t.store.get(lobby.game_id)
    assert row is not None and row.state is not None
    acting = game.to_act(row.state)
    assert acting == {0, 1}, "setup asks both lords at the same time"
    assert sorted(start.ping) == [ALICE, BOB]
    assert "Waiting for: alice, bob" in start.text
    choice = game.legal_actions(row.state, 0)[0]
    update = await t.act(lobby.game_id, ALICE, game.format(choice))
    row = await t.store.get(lobby.game_id)
    assert row is not None and row.state is not None
    assert game.to_act(row.state) == {1}
    if update.post:  # the default turn id (the seats to act) changed: a board, naming who still thinks
        assert (
            "Waiting for: bob." in update.text
            and "alice" not in update.text.split("Waiting for:")[1].split("\n")[0]
        )
    else:  # one turn id for the whole phase (issue 26): no board until all choices are in
        assert update.png is None and update.next is None
    assert game.format(choice) not in update.text, "what alice chose is not shown to the table"
    assert update.ping == [], "bob was already pinged; alice's choice pings nobody new"


# ---- issue 22: a week-long game --------------------------------------------------------


async def ai_game(t: Tables, ais: int = 1, key: str = "test-race") -> int:
    lobby = await t.create(ALICE, "alice", key, seed=4, guild_id=GUILD, take_seat=False)
    for _ in range(ais):
        await t.add_ai(lobby.game_id, ALICE)
    await t.set_refs(lobby.game_id, thread_id=9000 + lobby.game_id)
    return lobby.game_id


async def post_all(t: Tables, sink: list[tuple[int, int, str]]) -> None:
    """What cogs.posting.post_owed does, with a list for a thread."""
    for gid in await t.owed():
        update = await t.owed_board(gid)
        assert update is not None
        sink.append((gid, update.moves, update.text))
        await t.mark_posted(update)


async def test_moves_the_bot_makes_at_start_up_are_posted_once(tmp_path: Path, clock: Clock) -> None:
    """Item 1: after a restart the AI's moves (here to the game's end) get one board
    summarising them, with the final result; nothing is owed twice."""
    path = str(tmp_path / "o.db")
    store = await Store(path, clock=clock).open()
    t = Tables(store, clock=clock)
    await t.start_tracking()
    gid = await ai_game(t, ais=2)
    update = await t.start(gid, None, run_ai=False)  # only AI seats: nobody moved yet
    await t.mark_posted(update)
    assert await t.owed() == []
    await store.close()

    store = await Store(path, clock=clock).open()
    t = Tables(store, clock=clock)
    await t.start_tracking()
    assert await t.resume_all() == 1
    sink: list[tuple[int, int, str]] = []
    await post_all(t, sink)
    row = await store.get(gid)
    assert row is not None and row.status == "over"
    assert [(g, m) for g, m, _ in sink] == [(gid, row.moves)]
    text = sink[0][2]
    assert f"{row.moves} moves since the last board" in text and "Final scores" in text
    assert "adds" in text, "the AI moves are summarised"
    await post_all(t, sink)
    assert len(sink) == 1, "a board is owed once"
    await store.close()


async def test_a_deadline_or_takeover_move_is_owed_until_posted(t: Tables, clock: Clock) -> None:
    await t.start_tracking()
    gid = await game(t, {"deadline_hours": 1, "reminder_hours": 0})
    await t.set_refs(gid, thread_id=31)
    await t.mark_posted(await t.board(gid))
    clock.now += HOUR + 1
    notices = await t.fire_due()
    assert notices and notices[0].update is not None
    assert await t.owed() == [gid], "until the deadline's board reaches the thread"
    await t.mark_posted(notices[0].update)
    assert await t.owed() == []
    assert await t.posted_version(gid) == notices[0].update.version
    assert not await t.mark_posted(notices[0].update), "never marked twice"


async def test_first_start_after_the_upgrade_owes_nothing(t: Tables) -> None:
    gid = await game(t)
    await t.store.set_refs(gid, thread_id=77)
    assert await t.owed() == [gid]
    await t.start_tracking()
    assert await t.owed() == [], "boards from before the upgrade count as posted"


async def test_mygames_is_paged_without_cutting_a_line(t: Tables) -> None:
    """Item 3: 60 games do not fit in 2,000 characters; every line (and its channel
    mention) is whole on exactly one page."""
    for k in range(60):
        lobby = await t.create(ALICE, "alice", "test-race", seed=k, guild_id=GUILD)
        await t.join(lobby.game_id, BOB, "bob")
        await t.start(lobby.game_id, ALICE)
        await t.set_refs(lobby.game_id, thread_id=1_234_567_890_123_456_789 + k)
    pages = await t.my_games_pages(ALICE, GUILD)
    assert len(pages) >= 2
    lines = [line for p in pages for line in p.splitlines() if not line.startswith("(page")]
    assert len(lines) == 60 and all(len(p) <= 2000 for p in pages)
    for k in range(60):
        assert sum(f"<#{1_234_567_890_123_456_789 + k}>" in line for line in lines) == 1
    assert pages[0].endswith(f"(page 1 of {len(pages)})")


async def test_lobbies_expire_after_the_server_setting(t: Tables, clock: Clock) -> None:
    """Item 4: default 7 days without a change, then a message for the thread."""
    old = await t.create(ALICE, "alice", "test-race", guild_id=GUILD)
    await t.set_refs(old.game_id, thread_id=4242)
    clock.now += 6 * 24 * HOUR
    fresh = await t.create(BOB, "bob", "test-race", guild_id=GUILD)
    assert await t.expire_lobbies() == []
    clock.now += 24 * HOUR + 1
    notices = await t.expire_lobbies()
    assert [(n.game_id, n.thread_id, n.kind) for n in notices] == [(old.game_id, 4242, "expired")]
    assert "7 days" in notices[0].text
    assert (await t.lobby(old.game_id)).status == "abandoned"
    assert (await t.lobby(fresh.game_id)).status == "lobby"
    assert all(g["game_id"] != old.game_id for g in await t.my_games(ALICE, GUILD))
    with pytest.raises(TableError, match="lobby was closed"):
        await t.join(old.game_id, BOB, "bob")
    await t.set_guild_settings(GUILD, {"lobby_days": 1})
    with pytest.raises(TableError, match="1 to 365"):
        await t.set_guild_settings(GUILD, {"lobby_days": 0})
    assert [n.game_id for n in await t.expire_lobbies()] == [fresh.game_id]


async def test_a_seat_is_handed_to_another_member_and_back_from_the_ai(t: Tables) -> None:
    """Item 5: only the new holder sees the seat's secrets and is pinged; the host
    or Manage Server only; an AI-held seat can go back to a person."""
    gid = await game(t)
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    secret = f"Your secret card is {row.state['cards'][1]}."
    assert (await t.hand(gid, BOB))[0] == secret
    with pytest.raises(TableError, match="Only the host"):
        await t.hand_seat(gid, BOB, 1, CAROL, "carol")
    with pytest.raises(TableError, match="already plays"):
        await t.hand_seat(gid, ALICE, 1, ALICE, "alice")
    _user, seat, _other = await mover(t, gid)
    update = await t.hand_seat(gid, ALICE, 1, CAROL, "carol")
    assert f"<@{CAROL}> (carol) takes over the seat of bob" in update.text, "the new holder is pinged"
    assert (CAROL in update.ping) == (seat == 1), "and told it is their turn when it is"
    assert BOB not in update.ping
    assert (await t.hand(gid, CAROL))[0] == secret
    for outsider in (BOB, 99):
        with pytest.raises(TableError, match="not a player"):
            await t.hand(gid, outsider)
    assert secret not in update.text
    # To the AI and back to a person (by a Manage Server member, not the host).
    await t.take_over(gid, CAROL)
    back = await t.hand_seat(gid, 99, 1, BOB, "bob", is_admin=True)
    assert f"<@{BOB}>" in back.text and (await t.hand(gid, BOB))[0] == secret
    with pytest.raises(TableError, match="not a player"):
        await t.hand(gid, CAROL)


async def test_pause_resume_and_one_extension(t: Tables, clock: Clock) -> None:
    """Item 6: while paused no move, reminder or deadline; the board says so; the
    deadline gets its paused time back; the host extends a turn's deadline once."""
    gid = await game(t, {"deadline_hours": 10, "reminder_hours": 2})
    user, seat, _other = await mover(t, gid)
    with pytest.raises(TableError, match="Only the host"):
        await t.pause(gid, BOB)
    await t.pause(gid, ALICE)
    with pytest.raises(TableError, match="paused"):
        await t.act(gid, user, "1")
    board = await t.board(gid)
    assert "Paused" in board.text and not board.choose
    clock.now += 30 * HOUR
    assert await t.fire_due() == [], "nothing fires while paused"
    clock.now += 1
    resumed = await t.resume(gid, ALICE)
    assert "Paused" not in resumed.text
    deadline = [d for _i, s, k, d in await t.store.timers_of(gid) if k == "deadline"][0]
    assert abs(deadline - (clock.now + 10 * HOUR)) < 5, "the deadline got its paused time back"
    text = await t.extend(gid, ALICE)
    assert "10 hours later" in text
    with pytest.raises(TableError, match="already extended"):
        await t.extend(gid, ALICE)
    assert [d for _i, s, k, d in await t.store.timers_of(gid) if k == "deadline"][0] == deadline + 10 * HOUR
    await t.act(gid, user, "1")
    await t.act(gid, _other, "1")
    assert "later" in await t.extend(gid, ALICE), "a new turn may be extended once again"


async def test_tell_me_when_i_am_next(t: Tables) -> None:
    """Item 7: a watcher is told when the public move log says they act after the
    players acting now; someone who did not ask is not."""
    lobby = await t.create(ALICE, "alice", "test-race", seed=4, guild_id=GUILD)
    await t.join(lobby.game_id, BOB, "bob")
    await t.join(lobby.game_id, CAROL, "carol")
    gid = lobby.game_id
    await t.start(gid, ALICE)
    with pytest.raises(TableError, match="not a player"):
        await t.watch(gid, 99, True)
    await t.watch(gid, CAROL, True)
    order = [ALICE, BOB, CAROL]  # Race: seats in turn
    for k in range(3):  # one round: the log learns the order
        await t.act(gid, order[k], "1")
    update = await t.act(gid, ALICE, "1")  # Bob acts now; Carol followed Bob last time
    assert [u for u, _s in update.heads_up] == [CAROL] and "likely next" in update.heads_up[0][1]
    update = await t.act(gid, BOB, "1")  # Carol's own turn: the normal ping, no heads-up
    assert update.heads_up == [] and CAROL in update.ping
    await t.watch(gid, CAROL, False)
    await t.act(gid, CAROL, "1")
    assert (await t.act(gid, ALICE, "1")).heads_up == []


async def test_a_deadline_is_at_least_one_hour(t: Tables) -> None:
    """Issue 27: a deadline of 0.0001h (0.36 s) was accepted. Under an hour is refused
    in one sentence, for the server and for one game; older stored settings are read
    as one hour."""
    from cogs.common import hours

    for text in ("0.0001h", "0.5h", "0.9", "0.04d"):
        with pytest.raises(TableError, match="at least one hour") as err:
            await t.set_guild_settings(GUILD, {"deadline_hours": hours(text)})
        assert str(err.value).count(".") == 1
        with pytest.raises(TableError, match="at least one hour"):
            await t.create(
                ALICE, "alice", "test-race", guild_id=GUILD, settings={"deadline_hours": hours(text)}
            )
    for text, want in (("1h", 1.0), ("off", 0.0), ("2d", 48.0)):
        assert (await t.set_guild_settings(GUILD, {"deadline_hours": hours(text)}))["deadline_hours"] == want
    gid = await game(t)
    await t.store.set_guild_settings(GUILD, {"deadline_hours": 0.0001})  # written before the floor
    row = await t.store.get(gid)
    assert row is not None and (await t.settings_for(row))["deadline_hours"] == 1.0


async def test_the_computer_players_strength_is_a_server_setting_said_in_words(t: Tables) -> None:
    from cogs.slowplay import describe_settings

    with pytest.raises(TableError, match="easy, normal or hard"):
        await t.set_guild_settings(GUILD, {"ai_level": "grandmaster"})
    merged = await t.set_guild_settings(GUILD, {"ai_level": "hard"})
    assert merged["ai_level"] == "hard"
    assert "Computer players: Hard (thinks about two seconds a move)." in describe_settings(merged)
    # A server that never chose one: the default strength, in words.
    assert "Computer players: Normal (" in describe_settings(
        {k: v for k, v in merged.items() if k != "ai_level"}
    )
    assert "ai_level" not in describe_settings(merged), "words a player would say"
