"""`bot.py migrate --to postgresql://...`: an SQLite database copied into PostgreSQL,
verified (counts, and every game's seed + log replays to its snapshot), refused
into a non-empty target, and rolled back whole when a game does not replay."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from store import SeatRow, Store
from tables import Tables
from tests.pgserver import fresh_database

ROOT = Path(__file__).resolve().parents[1]


async def build(path: str) -> list[int]:
    """Three real games (AI seats) a few moves in, one finished, with a timer and settings."""
    store = await Store(path).open()
    t = Tables(store)
    ids = []
    try:
        for g, moves in enumerate((5, 12, 10_000)):
            lobby = await t.create(
                0, "host", "monster-inn", guild_id=2**40 + g, seed=100 + g, take_seat=False
            )
            for _ in range(3):
                await t.add_ai(lobby.game_id, 0)
            await t.start(lobby.game_id, None, run_ai=False)
            for _ in range(moves):
                if await t.step_ai(lobby.game_id) is None:
                    break
            ids.append(lobby.game_id)
        # A lobby of computer players of every strength, one stored by an earlier
        # release (no strength): `migrate` carries seats.ai_level (schema 6).
        lobby = await t.create(0, "host", "monster-inn", seed=7, take_seat=False)
        await store.set_seats(
            lobby.game_id,
            lobby.version,
            [SeatRow(0, None, "Bot 1", True, None), SeatRow(1, None, "Bot 2", True, "normal")],
        )
        await t.add_ai(lobby.game_id, 0, "hard")
        ids.append(lobby.game_id)
        await store.set_guild_settings(2**40, {"deadline_hours": 24})
        row = await store.get(ids[0])
        assert row is not None
        await store.commit_move(ids[0], row.version, [], row.state, None, False, arm=[(0, "reminder", 5e9)])
    finally:
        await store.close()
    return ids


def migrate(src: str, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bot.py", "migrate", "--from", src, "--to", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


async def test_migrate_copies_verifies_and_refuses_a_non_empty_target(tmp_path: Path) -> None:
    src = str(tmp_path / "old.db")
    ids = await build(src)
    with fresh_database() as url:
        p = migrate(src, url)
        assert p.returncode == 0, p.stderr + p.stdout
        assert "3 games replay to their snapshots" in p.stdout
        a, b = await Store(src).open(), await Store(url).open()
        try:
            for gid in ids:
                ra, rb = await a.get(gid), await b.get(gid)
                assert ra == rb and await a.log_full(gid) == await b.log_full(gid)
                assert await a.timers_of(gid) == await b.timers_of(gid)
            assert (await b.get(ids[2])).status == "over"  # type: ignore[union-attr]
            assert [s.ai_level for s in (await b.get(ids[3])).seats] == [None, "normal", "hard"]  # type: ignore[union-attr]
            assert await b.guild_settings(2**40) == {"deadline_hours": 24}
            # New games continue after the copied ids.
            assert await b.create_game("monster-inn", {}, 1, None) == max(ids) + 1
        finally:
            await a.close()
            await b.close()
        again = migrate(src, url)
        assert again.returncode == 3 and "not empty" in again.stderr
        assert len(again.stderr.strip().splitlines()) == 1


async def test_migrate_keeps_nothing_when_a_game_does_not_replay(tmp_path: Path) -> None:
    src = str(tmp_path / "old.db")
    ids = await build(src)
    store = await Store(src).open()
    async with store.transaction() as tx:  # a snapshot its log cannot produce
        await tx.execute("UPDATE games SET state=? WHERE id=?", '{"tampered": true}', ids[1])
    await store.close()
    with fresh_database() as url:
        p = migrate(src, url)
        assert p.returncode == 3, p.stdout
        assert f"game #{ids[1]}" in p.stdout and "nothing was kept" in p.stderr
        b = await Store(url).open()
        try:
            assert await b.count() == 0
        finally:
            await b.close()


def test_migrate_refuses_the_wrong_direction(tmp_path: Path) -> None:
    p = migrate("postgresql://x@127.0.0.1/y", str(tmp_path / "a.db"))
    assert p.returncode == 2 and "SQLite file" in p.stderr
    asyncio.run(asyncio.sleep(0))
