"""A hint on request (issue 40 point 7): "the moves the searching computer player would
consider best for this seat now, the top three with how often each won its playouts
... computed from the seat's own view only. A host can switch hints off for a game
... and the final board says how many hints each player used." """

from __future__ import annotations

import asyncio
import json
import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine import core
from store import Store
from tables import TableError, Tables, hints, thinking
from tables.board import words

ALICE, BOB = 101, 202
LINE = re.compile(r"\d\. \*\*(?P<move>.+)\*\*: won (?P<share>\d+)% of its (?P<n>\d+) playouts?")


@pytest.fixture
async def tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "h.db")).open()
    t = Tables(store, thinker=thinking.Thinker(0))  # a thread: the real hint search, in-process
    yield t
    t.close()
    await store.close()


async def race(t: Tables, settings: dict[str, Any] | None = None) -> int:
    lobby = await t.create(ALICE, "alice", "test-race", seed=987_654_321, settings=settings)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    return lobby.game_id


async def mover(t: Tables, gid: int) -> tuple[int, int]:
    """(the user to move, the other one)."""
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    seat = row.state["turn"] % row.state["seats"]
    return row.seats[seat].user_id, row.seats[1 - seat].user_id  # type: ignore[return-value]


async def to_seven(t: Tables, gid: int) -> int:
    """Plays the race to a total of 7 (3, 3, 1); returns the user to move."""
    for add in ("3", "3", "1"):
        user, _ = await mover(t, gid)
        await t.act(gid, user, add)
    user, _ = await mover(t, gid)
    return user


async def test_a_hint_lists_the_best_moves_with_their_win_shares(tables: Tables) -> None:
    """At 7 of 10, "Add 3" reaches ten and its +5: the real search ranks it first, with
    the best share of won playouts; every move says its share and playouts."""
    gid = await race(tables)
    user = await to_seven(tables, gid)
    text = await tables.hint(gid, user)
    found = [m.groupdict() for m in LINE.finditer(text)]
    assert 1 <= len(found) <= 3 and len(found) == len(text.splitlines()) - 2, text
    assert found[0]["move"] == "Add 3", text
    shares = [int(f["share"]) for f in found]
    assert shares[0] == max(shares) and shares[0] > shares[-1], text
    assert all(int(f["n"]) > 0 for f in found)
    assert "{" not in text and "_" not in text, "only words a player would say"
    row = await tables.store.get(gid)
    assert row is not None and {s.user_id: s.hints for s in row.seats}[user] == 1


async def test_a_hint_is_counted_for_the_seat_that_asked_once_a_position(tables: Tables) -> None:
    gid = await race(tables)
    user, other = await mover(tables, gid)
    first = await tables.hint(gid, user)
    assert LINE.search(await tables.hint(gid, user)) and LINE.search(first)  # asked again: the same hint
    await tables.act(gid, user, "1")
    await tables.act(gid, other, "1")
    await tables.hint(gid, user)
    row = await tables.store.get(gid)
    assert row is not None
    counts = {s.user_id: s.hints for s in row.seats}
    assert counts == {user: 2, other: 0}


async def test_a_second_click_while_a_hint_is_worked_out_waits_for_it(tables: Tables) -> None:
    gid = await race(tables)
    user, _ = await mover(tables, gid)
    answers = await asyncio.gather(tables.hint(gid, user), tables.hint(gid, user), return_exceptions=True)
    refused = [a for a in answers if isinstance(a, TableError)]
    assert len(refused) == 1 and "still being worked out" in str(refused[0])
    assert sum(isinstance(a, str) and bool(LINE.search(a)) for a in answers) == 1


async def test_hints_off_refuses_with_a_sentence_and_counts_nothing(tables: Tables) -> None:
    gid = await race(tables, {"hints": False})
    assert "Hints are off" in (await tables.lobby(gid)).text
    user, _ = await mover(tables, gid)
    with pytest.raises(TableError, match=r"^The host switched hints off for this game\.$"):
        await tables.hint(gid, user)
    row = await tables.store.get(gid)
    assert row is not None and all(s.hints == 0 for s in row.seats)


async def test_a_hint_only_for_the_seat_to_move(tables: Tables) -> None:
    gid = await race(tables)
    _, waiting = await mover(tables, gid)
    with pytest.raises(TableError, match="not your move"):
        await tables.hint(gid, waiting)
    with pytest.raises(TableError, match="Only the players"):
        await tables.hint(gid, 999)


async def test_the_final_board_says_how_many_hints_each_player_used(tables: Tables) -> None:
    gid = await race(tables)
    for _ in range(3):
        user, _ = await mover(tables, gid)
        if user == ALICE:
            await tables.hint(gid, ALICE)
        await tables.act(gid, user, "3")
    row = await tables.store.get(gid)
    assert row is not None and row.state is not None
    used = {s.name: s.hints for s in row.seats}
    assert used["alice"] >= 1 and used["bob"] == 0
    while not core.get("test-race").is_over(row.state):
        user, _ = await mover(tables, gid)
        await tables.act(gid, user, "3")
        row = await tables.store.get(gid)
        assert row is not None and row.state is not None
    tail = "\n".join(words(row, [], None, None).tail)
    assert f"Hints used: alice {used['alice']}, bob 0." in tail


async def test_a_hints_job_holds_only_the_seats_view(tables: Tables) -> None:
    """The job a hint really sends to the pool, pickled as a process pool sends it, is
    the seat's view, its legal moves, a seed from that view and the normal level: a
    twin state that differs only in the other seat's secret card sends the same bytes
    and gets the same hint."""
    sent: list[tuple[dict[str, Any], bytes]] = []
    real_job_for = hints.job_for

    def capture(g: core.Game, state: dict[str, Any], seat: int, level: str) -> thinking.Job:
        job = real_job_for(g, state, seat, level)
        sent.append((json.loads(json.dumps(state)), pickle.dumps(job)))
        return job

    gid = await race(tables)
    user, _ = await mover(tables, gid)
    hints.job_for = capture  # type: ignore[assignment]
    try:
        text = await tables.hint(gid, user)
    finally:
        hints.job_for = real_job_for  # type: ignore[assignment]
    ((state, blob),) = sent
    game = core.get("test-race")
    seat = state["turn"] % state["seats"]
    job = pickle.loads(blob)
    assert job == thinking.Job(
        "test-race",
        game.view(state, seat),
        game.legal_actions(state, seat),
        thinking.ai_seed(state, seat),
        "normal",
    )
    assert str(state["rng"]["seed"]).encode() not in blob, "the game's random seed never reaches a worker"
    twin = json.loads(json.dumps(state))
    twin["cards"][1 - seat] = next(c for c in range(1, 10) if c not in state["cards"])
    assert game.view(twin, seat) == game.view(state, seat) and twin != state
    twin_job = real_job_for(game, twin, seat, "normal")
    assert pickle.dumps(twin_job) == blob, "a secret the seat cannot see changes nothing sent"
    move, ranked = hints.think_hint(job)
    said = hints.hint_text(game, state, move, ranked)
    assert said == hints.hint_text(game, twin, move, ranked), "the words are the same for the twin"
    assert LINE.search(text) and LINE.search(said)


def test_hint_sits_beside_what_now_on_every_running_board() -> None:
    from cogs.hints import HINT_ITEMS
    from cogs.posting import board_view
    from tables import Update

    async def build() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        running = board_view(Update(game_id=5, version=3, thread_id=1, text="", choose=True))
        over = board_view(Update(game_id=5, version=3, thread_id=1, text="", over=True))
        return (
            [c for row in running.to_components() for c in row["components"]],
            [c for row in over.to_components() for c in row["components"]],
        )

    running, over = asyncio.run(build())
    labels = [c["label"] for c in running]
    assert labels.index("Hint") == labels.index("What now?") + 1
    assert "Hint" not in [c["label"] for c in over]
    (hint,) = [c for c in running if c["label"] == "Hint"]
    assert any(cls.__discord_ui_compiled_template__.fullmatch(hint["custom_id"]) for cls in HINT_ITEMS)


@pytest.mark.parametrize("key", core.available())
def test_a_hints_words_are_the_same_for_twin_states(key: str) -> None:
    """The hint's moves are named from the state (the game's describe, as its buttons
    are): in every game, a state that differs only in what the seat cannot see gives
    the same job and the same words."""
    from tests.reliability.test_rel_secrets import safe, variants

    game = core.get(key)
    pick = random.Random(40)
    state = game.new(max(game.min_players, 3), None, 987_654_321)
    checked = 0
    for _ in range(30):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        state = json.loads(json.dumps(state))  # as stored, and as its twins are built
        job = thinking.job_for(game, state, seat, hints.HINT_LEVEL)
        # The search's answer stands in for the worker's: the words are what is checked.
        ranked = [(a, 10, 5.0) for a in job.legal[:3]]
        said = hints.hint_text(game, state, job.legal[0], ranked)
        for twin in variants(state, pick, 20, key):
            twin_job = safe(thinking.job_for, game, twin, seat, hints.HINT_LEVEL)
            if safe(game.view, twin, seat) != job.view or twin_job is None:
                continue  # the seat would see the difference, or the swap broke the game
            assert pickle.dumps(twin_job) == pickle.dumps(job)
            assert safe(hints.hint_text, game, twin, job.legal[0], ranked) in (said, None)
            checked += 1
        state, _ = game.apply(state, seat, pick.choice(job.legal))
    assert checked, f"{key}: no twin state was compared"


def test_a_hint_searches_within_the_normal_players_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "It answers within the normal strength's budget": the normal player's time
    budget and iteration budget, the same search the normal player runs."""
    from engine import search

    seen: dict[str, Any] = {}
    real = search.search

    def spy(*a: Any, **kw: Any) -> Any:
        seen.update(kw)
        return real(*a, **kw)

    monkeypatch.setattr(search, "search", spy)
    game = core.get("dungeon-lair")
    state = game.new(2, None, 5)
    seat = min(game.to_act(state))
    move, ranked = hints.think_hint(thinking.job_for(game, state, seat, hints.HINT_LEVEL))
    params = search.level_params(game, "normal")
    # The search leaves the rest of the hint room within the 0.5 s (bench: `--only hints`).
    assert seen["seconds"] == search.LEVELS["normal"].seconds - hints.HINT_RESERVE
    assert 0.4 <= seen["seconds"] < 0.5
    assert seen["iterations"] == search.level_budget(params, "normal") and seen["params"] == params
    assert move in game.legal_actions(state, seat) and ranked and ranked[0][0] == move


async def test_a_hint_that_cannot_be_worked_out_says_so(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(job: thinking.Job) -> Any:
        raise RuntimeError("a worker died")

    monkeypatch.setattr(hints, "think_hint", broken)
    gid = await race(tables)
    user, _ = await mover(tables, gid)
    with pytest.raises(
        TableError, match=r"^No hint could be worked out just now; please try again in a moment\.$"
    ):
        await tables.hint(gid, user)
    row = await tables.store.get(gid)
    assert row is not None and all(s.hints == 0 for s in row.seats), "a hint not given is not counted"


async def test_the_host_switches_hints_in_the_lobby(tables: Tables) -> None:
    from cogs.components import DYNAMIC_ITEMS
    from cogs.lobby_view import lobby_view

    lobby = await tables.create(ALICE, "alice", "test-race", seed=987_654_321)
    await tables.join(lobby.game_id, BOB, "bob")

    async def labels(game_id: int) -> list[str]:
        view = lobby_view(await tables.lobby(game_id))
        items = [c for row in view.to_components() for c in row["components"]]
        templates = [cls.__discord_ui_compiled_template__ for cls in DYNAMIC_ITEMS]
        assert all(any(t.fullmatch(c["custom_id"]) for t in templates) for c in items)
        return [c.get("label", "") for c in items]

    assert "Turn hints off" in await labels(lobby.game_id)
    with pytest.raises(TableError, match="Only the host"):
        await tables.switch_hints(lobby.game_id, BOB)
    off = await tables.switch_hints(lobby.game_id, ALICE)
    assert "Hints are off in this game." in off.text and "Turn hints on" in await labels(lobby.game_id)
    await tables.start(lobby.game_id, ALICE)
    with pytest.raises(TableError, match="before the game starts"):
        await tables.switch_hints(lobby.game_id, ALICE)
    user, _ = await mover(tables, lobby.game_id)
    with pytest.raises(TableError, match="switched hints off"):
        await tables.hint(lobby.game_id, user)


async def test_the_count_and_the_hosts_switch_are_stored_on_both_databases(db_target: str) -> None:
    """Hints used survive a reload (schema 8) and the lobby's switch is version-guarded,
    on SQLite and PostgreSQL alike."""
    from store import Conflict

    store = await Store(db_target).open()
    t = Tables(store, thinker=thinking.Thinker(0))
    try:
        lobby = await t.create(ALICE, "alice", "test-race", seed=987_654_321)
        await t.join(lobby.game_id, BOB, "bob")
        off = await t.switch_hints(lobby.game_id, ALICE)
        assert not off.hints
        with pytest.raises(Conflict):
            await store.set_lobby_settings(lobby.game_id, off.version - 1, {"hints": True})
        await t.switch_hints(lobby.game_id, ALICE)
        on = await t.lobby(lobby.game_id)
        assert on.hints
        await t.start(lobby.game_id, ALICE)
        await store.count_hint(lobby.game_id, 1)
        await store.count_hint(lobby.game_id, 1)
        row = await store.get(lobby.game_id)
        assert row is not None and [s.hints for s in row.seats] == [0, 2]
    finally:
        t.close()
        await store.close()
