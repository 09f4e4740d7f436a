"""Issue 37 on several processes: the process making a move claims the board it will
post (``board_claims``), so the poster of owed boards of another process does not post
that turn's board first and deliver its turns without knowing who clicked (which
notified the mover once more, or left a turn to "Your move"). The claim lapses when
its process stops; then the others post the board, as before.
Through the real bot: tests/e2e/test_e2e_shards.py."""

from __future__ import annotations

from typing import Any

import pytest

from store import Store
from tables import Tables, base, thinking

ALICE, BOB = 11, 12


def two(job: thinking.Job) -> Any:
    return 2


async def _game(t: Tables) -> int:
    lobby = await t.create(ALICE, "alice", "test-race", seed=4)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    await t.store.set_refs(lobby.game_id, thread_id=900)
    opening = await t.owed_board(lobby.game_id)
    assert opening is not None
    await t.mark_posted(opening)
    return lobby.game_id


async def test_a_move_under_way_in_one_process_is_not_posted_by_another(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stores = [await Store(db_target).open() for _ in range(2)]
    a, b = (Tables(s, thinker=thinking.Thinker(0, run=two)) for s in stores)
    try:
        gid = await _game(a)
        mover = ALICE if ALICE in (await a.owed_board(gid) or await a.board(gid)).ping else BOB
        assert a.owner != b.owner
        assert await b.owed() == [] and await a.owed() == []
        # Process A takes a move: saved, its board not posted yet (it is on its way).
        update = await a.act(gid, mover, "1")
        assert update.post and await a.posted_version(gid) < update.version
        assert await b.owed() == [], "another process would post A's board and deliver its turns"
        # Once A posted and marked it, nothing is owed, and the claim is given back.
        assert await a.mark_posted(update)
        assert await b.owed() == []
        assert await stores[0]._fetch("SELECT count(*) FROM board_claims") == [(0,)]
        # A claims the next board and stops before posting it: B leaves it alone while
        # the claim holds, then posts it (the board is owed, not lost).
        nxt = ALICE if mover == BOB else BOB
        moved = await a.act(gid, nxt, "1")
        assert moved.version > update.version
        assert await b.owed() == []
        later = base.time.time() + base.BOARD_CLAIM + 1
        monkeypatch.setattr("tables.upkeep.time.time", lambda: later)
        assert await b.owed() == [gid]
        # A process never waits on its own claim: a board it failed to post is its own
        # to post again at once (Discord back).
        monkeypatch.undo()
        assert await a.owed() == [gid]
    finally:
        for t, s in zip((a, b), stores, strict=True):
            t.close()
            await s.close()


async def test_the_claim_is_renewed_while_computer_players_think(db_target: str) -> None:
    """A claim taken at the move is renewed by computer players thinking move after move
    (their thinking may outlast it), not by every move (one write more a move)."""
    store = await Store(db_target).open()
    t = Tables(store, thinker=thinking.Thinker(0, run=two))
    try:
        gid = await _game(t)
        await t._claim_board(gid)
        first = await store._fetch("SELECT until FROM board_claims WHERE game_id=?", gid)
        await t._claim_board(gid, renew=True)  # a moment later: the claim holds
        assert await store._fetch("SELECT until FROM board_claims WHERE game_id=?", gid) == first
        t._claimed[gid] -= base.BOARD_CLAIM / 2 + 1  # half of it ran out meanwhile
        await t._claim_board(gid, renew=True)
        (renewed,) = await store._fetch("SELECT until FROM board_claims WHERE game_id=?", gid)
        assert renewed[0] > first[0][0]
    finally:
        t.close()
        await store.close()
