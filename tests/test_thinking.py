"""Where computer players think (tables/thinking.py, issue 30): a process pool that
never holds a game's lock while thinking, and a crash that never stalls a game."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from engine import core
from render import register
from store import Store
from tables import Tables, thinking

ALICE = 11


def crash(job: thinking.Job) -> Any:
    os._exit(3)  # a worker dies mid-thought (killed, out of memory)


def slow(job: thinking.Job) -> Any:
    """A computer player that thinks for 1.5 s, burning CPU, then plays the easy move."""
    from tests import fakegame

    fakegame.install()
    end = time.perf_counter() + 1.5
    while time.perf_counter() < end:
        pass
    return thinking.easy(job)


# Tables whose computer players think in a thread, and the total each decision saw.
Recording = tuple[Tables, list[int]]


@pytest.fixture
async def recording(tmp_path: Path) -> AsyncIterator[Recording]:
    """Computer players that think in a thread (no pool), note the total of the test
    game each decision saw, and play the easy move."""
    store = await Store(str(tmp_path / "t.db")).open()
    totals: list[int] = []

    def run(job: thinking.Job) -> Any:
        totals.append(job.view["total"])
        return thinking.easy(job)

    t = Tables(store, thinker=thinking.Thinker(0, run=run))
    try:
        yield t, totals
    finally:
        t.close()
        await store.close()


def meanwhile(t: Tables, totals: list[int], move: Callable[[], Awaitable[Any]]) -> None:
    """``move`` lands while the first decision recorded in ``totals`` is out: after it
    was thought, before the game hears of it."""
    real = t.thinker.decide

    async def decide(job: thinking.Job) -> Any:
        action = await real(job)
        if len(totals) == 1:
            await move()
        return action

    t.thinker.decide = decide  # type: ignore[method-assign]


def with_fake(job: thinking.Job) -> Any:
    from tests import fakegame

    fakegame.install()
    return thinking.decide(job)


async def test_a_crashed_worker_is_replaced_by_the_easy_player(tmp_path: Path, caplog: Any) -> None:
    store = await Store(str(tmp_path / "t.db")).open()
    t = Tables(store, thinker=thinking.Thinker(1, run=crash))
    try:
        lobby = await t.create(0, "host", "test-race", seed=5, take_seat=False)
        for _ in range(2):
            await t.add_ai(lobby.game_id, 0, "hard")
        await t.start(lobby.game_id, None)
        row = await store.get(lobby.game_id)
        assert row is not None and row.status == "over", "the game went on to its end without its workers"
        assert t.thinker.fallbacks == row.moves > 0
        assert "the easy player moves instead" in caplog.text
    finally:
        t.close()
        await store.close()


async def test_a_real_pool_plays_a_searched_game(tmp_path: Path) -> None:
    """Normal players in worker processes (spawned) play a whole game of the test game."""
    store = await Store(str(tmp_path / "t.db")).open()
    t = Tables(store, thinker=thinking.Thinker(2, run=with_fake))
    try:
        lobby = await t.create(
            0, "host", "test-race", seed=5, take_seat=False, ai_players=2, ai_level="normal"
        )
        await t.start(lobby.game_id, None)
        row = await store.get(lobby.game_id)
        assert row is not None and row.status == "over" and t.thinker.fallbacks == 0
        assert [s.ai_level for s in row.seats] == ["normal", "normal"]
    finally:
        t.close()
        await store.close()


async def test_a_person_is_not_held_while_a_computer_player_thinks(tmp_path: Path) -> None:
    """A computer seat thinking 1.5 s in the pool holds no lock: a person's move in
    another game, and any read of this one, is answered meanwhile."""
    store = await Store(str(tmp_path / "t.db")).open()
    t = Tables(store, thinker=thinking.Thinker(1, run=slow))
    try:
        bot_game = await t.create(
            0, "host", "test-race", seed=1, take_seat=False, ai_players=2, ai_level="hard"
        )
        person = await t.create(ALICE, "alice", "test-race", seed=2)
        await t.add_ai(person.game_id, ALICE, "easy")
        await t.start(person.game_id, ALICE, run_ai=False)
        await t.start(bot_game.game_id, None, run_ai=False)
        thinking_task = asyncio.create_task(t.step_ai(bot_game.game_id))
        await asyncio.sleep(0.3)
        t0 = time.perf_counter()
        async with t._lock(bot_game.game_id):  # the thinking game's lock is free
            pass
        row = await store.get(person.game_id)
        assert row is not None and row.state is not None
        if row.seats[row.state["turn"] % 2].user_id == ALICE:
            await t.act(person.game_id, ALICE, "1")
        waited = time.perf_counter() - t0
        assert not thinking_task.done(), "the computer player was still thinking"
        assert waited < 0.5, f"a person waited {waited:.2f} s for a computer player"
        assert await thinking_task is not None
    finally:
        t.close()
        await store.close()


async def test_a_decision_overtaken_by_a_move_is_thought_again(recording: Recording) -> None:
    """The game moved on while the player thought: its decision is not applied on
    the new position; it thinks again from there."""
    t, seen = recording
    lobby = await t.create(0, "host", "test-race", seed=1, take_seat=False, ai_players=2, ai_level="hard")
    await t.start(lobby.game_id, None, run_ai=False)
    meanwhile(t, seen, lambda: t.step_ai(lobby.game_id))  # the other computer player moves
    await t.step_ai(lobby.game_id)
    row = await t.store.get(lobby.game_id)
    assert row is not None and row.moves == 2
    assert seen[0] == 0 and seen[-1] > 0, "the overtaken decision was made again on the new total"


async def test_a_stuck_worker_is_given_up_and_the_easy_player_moves(monkeypatch: Any) -> None:
    monkeypatch.setattr(thinking, "THINK_LIMIT", 0.3)

    def stuck(job: thinking.Job) -> Any:
        time.sleep(1.0)
        return 99  # never played: given up

    thinker = thinking.Thinker(0, run=stuck)
    try:
        from tests import fakegame

        fakegame.install()
        job = thinking.Job("test-race", {"total": 8}, [1, 2, 3], "s", "hard")
        assert await thinker.decide(job) == 3, "the easy player's move (total 8: add 3)"
        assert thinker.fallbacks == 1
    finally:
        thinker.close()


def two(job: thinking.Job) -> Any:
    return 2


def hang(job: thinking.Job) -> Any:
    time.sleep(120)  # a search that never returns (a bug, a deadlock)


async def test_a_stuck_worker_process_is_stopped_and_a_fresh_pool_thinks_next(monkeypatch: Any) -> None:
    monkeypatch.setattr(thinking, "THINK_LIMIT", 2.0)
    from tests import fakegame

    fakegame.install()
    thinker = thinking.Thinker(1, run=hang)
    try:
        job = thinking.Job("test-race", {"total": 8}, [1, 2, 3], "s", "hard")
        assert await thinker.decide(job) == 3, "given up: the easy player's move (total 8: add 3)"
        assert thinker.fallbacks == 1
        assert thinker._pool is None, "the pool with the stuck worker is dropped"
        # the stuck process is stopped, not left running its search
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _children_alive():
            await asyncio.sleep(0.05)
        assert not _children_alive()
        thinker.run = two
        assert await thinker.decide(job) == 2, "a fresh pool answers the next decision"
        assert thinker.fallbacks == 1
    finally:
        thinker.close()


def _children_alive() -> bool:
    import multiprocessing

    return any(p.is_alive() for p in multiprocessing.active_children())


async def test_a_computer_player_never_moves_in_a_game_abandoned_while_it_thought(tmp_path: Path) -> None:
    """The host abandons the game while a computer player is thinking: its decision is
    dropped; the abandoned game gets no move. (Found by mutation testing.)"""
    store = await Store(str(tmp_path / "t.db")).open()
    t = Tables(store, thinker=thinking.Thinker(0, run=thinking.easy))
    try:
        lobby = await t.create(0, "host", "test-race", seed=1, take_seat=False, ai_players=2, ai_level="hard")
        await t.start(lobby.game_id, None, run_ai=False)
        real = t.thinker.decide

        async def abandoned_meanwhile(job: thinking.Job) -> Any:
            action = await real(job)
            await t.abandon(lobby.game_id, 0, is_admin=False)
            return action

        t.thinker.decide = abandoned_meanwhile  # type: ignore[method-assign]
        assert await t.step_ai(lobby.game_id) is None
        row = await store.get(lobby.game_id)
        assert row is not None and row.status == "abandoned" and row.moves == 0
        assert await store.log(lobby.game_id) == []
    finally:
        t.close()
        await store.close()


async def test_a_decision_stands_when_the_game_moved_on_only_where_the_player_cannot_see(
    recording: Recording,
) -> None:
    """In a secret vote, a person votes while the computer player thinks: what the computer
    sees and may do is unchanged, so its decision is played, not thought again (a hard
    player would make everyone wait twice). (Found by mutation testing.)"""
    from tests import fakegame

    class SecretVote(fakegame.Turns):
        key = "test-secret-vote"

        def view(self, state: Any, seat: int | None) -> dict[str, Any]:
            return {k: v for k, v in super().view(state, seat).items() if k != "voted"}

    fakegame.install_turns()
    core._loaded[SecretVote.key] = SecretVote()
    core.MODULES.setdefault(SecretVote.key, "fakegame")
    register(SecretVote.key, fakegame.RENDERER)
    t, thoughts = recording
    lobby = await t.create(ALICE, "alice", SecretVote.key, seed=1)
    await t.add_ai(lobby.game_id, ALICE, "hard")
    await t.start(lobby.game_id, ALICE, run_ai=False)
    gid = lobby.game_id
    for _ in range(40):  # play to the vote: Alice adds/marks, the computer too
        row = await t.store.get(gid)
        assert row is not None and row.state is not None
        if row.state["stage"] == "vote":
            break
        if row.seats[row.state["turn"] % 2].user_id == ALICE:
            legal = SecretVote().legal_actions(row.state, row.state["turn"] % 2)
            await t.act(gid, ALICE, str(legal[0]), think=False)
        else:
            await t.step_ai(gid)
    assert row.state["stage"] == "vote"
    thoughts.clear()
    meanwhile(t, thoughts, lambda: t.act(gid, ALICE, "7", think=False))  # Alice votes
    done = await t.step_ai(gid)
    assert done is not None
    assert len(thoughts) == 1, "the computer player thought again on what it had already seen"
    row = await t.store.get(gid)
    assert row is not None and row.state is not None and row.state["stage"] == "add"
