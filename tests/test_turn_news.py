"""The turn's board sums up every public move of the turn (README: "a board sums up
the turn's public moves"), after a take-back and after a restart (issue 38): the
moves since the last board are found by their numbers in the log, and a move taken
back keeps its number, so after an /undo the standing moves are fewer than the
numbers. Every game: a random game through Tables with one /undo, each move inside
a turn checked from a fresh Tables (a restart: nothing kept in memory)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import core
from store import Store
from tables import TableError, Tables
from tests.reliability._util import keys, new_table

MOVES = 30


async def _news_after_restart(store: Store, gid: int) -> list[int]:
    fresh = Tables(store)  # a restarted bot: no move kept in memory
    row = await store.get(gid)
    assert row is not None
    return [s.seat for s in await fresh.news(row)]


@pytest.mark.parametrize("key", keys())
async def test_the_turns_board_keeps_its_first_move_after_an_undo_and_a_restart(
    key: str, tmp_path: Path
) -> None:
    game = core.get(key)
    store = await Store(str(tmp_path / "news.db")).open()
    t = Tables(store)
    rnd = random.Random(f"news:{key}")
    try:
        gid, users = await new_table(t, key, seed=7, players=game.min_players)
        await t.set_refs(gid, thread_id=9000 + gid)
        await t.mark_posted(await t.board(gid))
        base = len(await store.log(gid))  # standing moves when the last board went out
        undone = checked = 0
        for _ in range(MOVES):
            row = await store.get(gid)
            assert row is not None and row.state is not None
            if game.is_over(row.state):
                break
            seat = min(game.to_act(row.state))
            action = rnd.choice(game.legal_actions(row.state, seat))
            update = await t.act(gid, users[seat], game.format(action))
            if not undone:
                try:
                    update = await t.undo(gid, users[seat])
                    undone += 1
                except TableError:
                    pass
            if update.post:
                await t.mark_posted(update)
                base = len(await store.log(gid))
                continue
            standing = [s for _q, s, _n in await store.log(gid)][base:]
            assert await _news_after_restart(store, gid) == standing, (
                f"{key}: the turn's moves since the last board are lost after a restart"
            )
            checked += 1
        assert undone, "a move was taken back"
        assert checked, "moves inside a turn were checked"
    finally:
        await store.close()
