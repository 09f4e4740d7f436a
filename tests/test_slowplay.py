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
    text = await t.set_vacation(user, 48, GUILD)
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
    assert "3 games played" in text and png is not None
    rows = await t.store.games(GUILD, "over")
    wins = {ALICE: 0, BOB: 0}
    for r in rows:
        for w in r.result["winners"]:  # type: ignore[index]
            wins[r.seats[w].user_id] += 1  # type: ignore[index]
    for name, uid in (("alice", ALICE), ("bob", BOB)):
        assert f"{name}: {wins[uid]} wins in 3 games" in text
    assert (await t.stats(GUILD, "dungeon-lair"))[0] == "No finished games here yet."


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
    assert (
        "Waiting for: bob." in update.text
        and "alice" not in update.text.split("Waiting for:")[1].split("\n")[0]
    )
    assert game.format(choice) not in update.text, "what alice chose is not shown to the table"
    assert update.ping == [], "bob was already pinged; alice's choice pings nobody new"
