"""Issue 39 item 2: a mover's answer never waits on a computer's thinking. A move
from Discord (``think=False``) is saved and answered without the computer players
that think in the pool; ``computers_move`` then lets them move and returns the
turn's one board. (Through the real bot: tests/e2e/test_e2e_stop.py.)"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from store import Store
from tables import Tables, thinking

ALICE = 11


def slow_two(job: thinking.Job) -> Any:
    time.sleep(1.0)  # a searching player's second of thought
    return 2


@pytest.fixture
async def tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "c.db")).open()
    t = Tables(store, thinker=thinking.Thinker(0, run=slow_two))
    yield t
    t.close()
    await store.close()


async def test_the_answer_comes_before_a_hard_computer_moves(tables: Tables) -> None:
    t = tables
    lobby = await t.create(ALICE, "alice", "test-race", seed=4)
    await t.add_ai(lobby.game_id, ALICE, "hard")
    opening = await t.start(lobby.game_id, ALICE, think=False)
    gid = lobby.game_id
    if opening.thinking:  # the computer opens: it moves after the host's answer
        assert await t.computers_move(gid) is not None
    t0 = time.monotonic()
    update = await t.act(gid, ALICE, "1", think=False)
    answered = time.monotonic() - t0
    assert answered < 0.8, f"the answer waited {answered:.1f} s for the computer"
    assert update.thinking and not update.post, "the turn's board waits for the computer's move"
    log = await t.store.log(gid)
    assert log[-1][2] == "1", "her move is saved"
    board = await t.computers_move(gid)
    assert board is not None and board.post and ALICE in board.ping, "then the computer moves, and pings her"
    after = await t.store.log(gid)
    assert len(after) == len(log) + 1 and after[-1][2] == "2", "the computer's move"
    assert "adds 1" in board.text and "adds 2" in board.text, "one board for her move and the computer's"


async def test_the_last_person_to_leave_is_answered_before_the_computers_play_on(tables: Tables) -> None:
    """/game leave by the last person: the AI takes the seat and, with the other computer
    player, plays the rest of the game; the answer does not wait for all of it (it once
    waited for a whole game of thinking and timed out)."""
    t = tables
    lobby = await t.create(ALICE, "alice", "test-race", seed=4)
    await t.add_ai(lobby.game_id, ALICE, "hard")
    opening = await t.start(lobby.game_id, ALICE, think=False)
    gid = lobby.game_id
    if opening.thinking:
        await t.computers_move(gid)
    t0 = time.monotonic()
    update = await t.take_over(gid, ALICE, think=False)
    answered = time.monotonic() - t0
    assert answered < 0.8, f"the answer waited {answered:.1f} s for the computers"
    assert update.thinking and not update.post, "one board, after the computers' moves"
    assert update.text == "alice left; the AI plays their seat from now on."
    board = await t.computers_move(gid)
    assert board is not None and board.over, "then the computers play the game to its end"
