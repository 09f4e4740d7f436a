"""The start-up carry (issue 39): the games stored under older rules are found by one
query and carried once the bot is connected, a game touched sooner is carried as it
is loaded, and a player's half-made move is carried with the game while it still
describes a legal move."""

from __future__ import annotations

import lzma
import shutil
from pathlib import Path

from engine import core
from store import Store
from tables import TableError, Tables
from tables.replay import current_revision

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NO_LONGER_FITS = "no longer fits"


async def _release_4f183ac(tmp_path: Path) -> Store:
    """A copy of the corpus written by release 4f183ac (rules revision 2 everywhere)."""
    copy = tmp_path / "corpus-4f183ac.db"
    with lzma.open(FIXTURES / "corpus-4f183ac.db.xz") as f, open(copy, "wb") as out:
        shutil.copyfileobj(f, out)
    return await Store(str(copy)).open()


async def test_the_games_to_carry_are_found_by_one_query(db_target: str) -> None:
    """Only games below today's revisions are carried: one begun under today's rules,
    one carried already and a lobby are left alone, on both backends."""
    store = await Store(db_target).open()
    t = Tables(store)
    try:
        ids = []
        for seed in (1, 2, 3):
            lobby = await t.create(0, "host", "monster-inn", seed=seed, take_seat=False)
            for _ in range(3):
                await t.add_ai(lobby.game_id, 0, "easy")
            await t.start(lobby.game_id, None, run_ai=False)
            ids.append(lobby.game_id)
        lobby = await t.create(0, "host", "dungeon-lair", seed=4, take_seat=False)
        newest = {k: core.get(k).revision for k in core.available()}
        now = newest["monster-inn"]
        async with store.transaction() as tx:  # begun under older rules; one carried since
            await tx.execute("UPDATE games SET revision=? WHERE id IN (?, ?)", now - 1, ids[0], ids[1])
            point = f'[{{"at": 0, "from": {now - 1}, "to": {now}, "told": true}}]'
            await tx.execute("UPDATE games SET upgrades=? WHERE id=?", point, ids[1])
        assert await store.stale_games(newest) == [ids[0]]
        assert await t.upgrade_games() == (1, 0)
        assert await store.stale_games(newest) == []
    finally:
        await store.close()


async def test_a_game_touched_before_its_carry_is_carried_first(tmp_path: Path) -> None:
    """A click that arrives before the start-up carry reached its game plays on the
    newest rules: the game is carried as it is loaded, once."""
    store = await _release_4f183ac(tmp_path)
    t = Tables(store)
    try:
        rows = [r for r in await store.games() if r.status == "active" and r.game_key == "dungeon-lords"]
        row = rows[0]
        game = core.get(row.game_key)
        assert row.state is not None and current_revision(row) < game.revision
        seat = sorted(s for s in game.to_act(row.state) if not row.seats[s].is_ai)[0]
        await t.panel(row.id, row.seats[seat].user_id, row.version)  # "Your move", before any carry
        now = await store.get(row.id)
        assert now is not None and current_revision(now) == game.revision
        assert [p["to"] for p in now.upgrades] == [game.revision]
        stale = len(await store.stale_games({k: core.get(k).revision for k in core.available()}))
        assert await t.upgrade_games() == (stale, 0)
        again = await store.get(row.id)
        assert again is not None and again.upgrades == now.upgrades  # carried once
    finally:
        await store.close()


async def test_half_made_moves_outlive_the_upgrade(tmp_path: Path) -> None:
    """Issue 39: "An upgrade drops half-made moves (2 Decorators, 3 Drawers: 'no longer
    fits; please choose again')". Every half-made move of two picks or more that release
    4f183ac kept comes back after the upgrade where the player left it, in Decorators
    (tile, side, square) and Drawers (row, space) too; one that no longer names a move
    (only a row, only a tile whose side is still open, a card that is no longer the
    player's to take) is refused in the old sentence."""
    store = await _release_4f183ac(tmp_path)
    t = Tables(store)
    try:
        drafts = [(r, uid, p) for r in await store.games() for uid, _v, p in await store.drafts_of(r.id)]
        assert len(drafts) >= 40
        assert {r.game_key for r, _u, p in drafts if len(p) >= 2} >= {"dungeon-decorators", "dungeon-lair"}
        await t.upgrade_games()
        back: dict[str, int] = {}
        for before, uid, prefix in drafts:
            row = await store.get(before.id)
            assert row is not None
            try:
                step = (await t.panel(row.id, uid, row.version)).step
            except TableError:  # no longer this player's turn (Drawers' Phase A, one by one)
                assert len(prefix) == 1, (row.id, prefix)
                continue
            resumed = step is not None and step.depth > 0 and not step.note
            if resumed:
                back[row.game_key] = back.get(row.game_key, 0) + 1
            elif len(prefix) >= 2:
                raise AssertionError(f"game #{row.id} ({row.game_key}): {prefix} was dropped")
            elif step is not None:
                assert NO_LONGER_FITS in (step.note or ""), (row.id, prefix, step.note)
        assert back.get("dungeon-decorators", 0) >= 3 and back.get("dungeon-drawers", 0) >= 1, back
    finally:
        await store.close()
