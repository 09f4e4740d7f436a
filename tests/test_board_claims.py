"""Issue 37 on several processes: the process making a move claims the board it will
post (``board_claims``), so the poster of owed boards of another process does not post
that turn's board first and deliver its turns without knowing who clicked (which
notified the mover once more, or left a turn to "Your move"). The claim lapses when
its process stops; then the others post the board, as before.
Through the real bot: tests/e2e/test_e2e_shards.py."""

from __future__ import annotations

import time
from typing import Any

import pytest

from store import Store
from store.db import BOARD_CLAIM
from tables import Tables, thinking

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
    # Two processes on one database: each claims as its shards.
    stores = [await Store(db_target, shards=([i], 2)).open() for i in range(2)]
    a, b = (Tables(s, thinker=thinking.Thinker(0, run=two)) for s in stores)
    try:
        gid = await _game(a)
        mover = ALICE if ALICE in (await a.owed_board(gid) or await a.board(gid)).ping else BOB
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
        later = time.time() + BOARD_CLAIM + 1
        monkeypatch.setattr("tables.upkeep.time.time", lambda: later)
        assert await b.owed() == [gid]
        # A process never waits on its own claim: a board it failed to post is its own
        # to post again at once (Discord back).
        monkeypatch.undo()
        assert await a.owed() == [gid]
        # So does the same process after a restart (the same shards, the same owner).
        restarted = await Store(db_target, shards=([0], 2)).open()
        try:
            assert await Tables(restarted).owed() == [gid]
        finally:
            await restarted.close()
    finally:
        for t, s in zip((a, b), stores, strict=True):
            t.close()
            await s.close()


async def test_each_saved_move_renews_the_claim_in_its_own_transaction(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Computer players thinking move after move may outlast one claim: each move saved
    renews it, inside the move's own transaction (no write more a move, nothing to wait
    for on a slow database)."""
    store = await Store(db_target).open()
    t = Tables(store, thinker=thinking.Thinker(0, run=two))
    try:
        gid = await _game(t)
        mover = ALICE if ALICE in (await t.board(gid)).ping else BOB
        await t.act(gid, mover, "1")
        (first,) = await store._fetch("SELECT owner, until FROM board_claims WHERE game_id=?", gid)
        assert first[0] == store.owner == "bot"
        later = time.time() + 50
        monkeypatch.setattr("store.db.time.time", lambda: later)
        await t.act(gid, BOB if mover == ALICE else ALICE, "1")
        rows = await store._fetch("SELECT owner, until FROM board_claims WHERE game_id=?", gid)
        assert len(rows) == 1 and rows[0][1] >= first[1] + 49, rows
    finally:
        t.close()
        await store.close()


async def test_the_start_claims_its_opening_board_and_a_lobby_claims_none(db_target: str) -> None:
    """The opening board is claimed too: the process that started the game posts it
    (before, the other process's poster of owed boards posted it at the same moment and
    both put the first turn into the player's place: notified twice). A lobby's changes
    and an abandoned game post no board and claim none."""
    store = await Store(db_target).open()
    t = Tables(store, thinker=thinking.Thinker(0, run=two))
    claims = "SELECT game_id FROM board_claims"
    try:
        lobby = await t.create(ALICE, "alice", "test-race", seed=4)
        await t.join(lobby.game_id, BOB, "bob")
        assert await store._fetch(claims) == [], "a lobby posts no board"
        await t.start(lobby.game_id, ALICE)
        assert [tuple(r) for r in await store._fetch(claims)] == [(lobby.game_id,)]
        other = await t.create(BOB, "bob", "test-race", seed=5)
        await t.abandon(other.game_id, BOB, False)
        assert [tuple(r) for r in await store._fetch(claims)] == [(lobby.game_id,)]
    finally:
        t.close()
        await store.close()
