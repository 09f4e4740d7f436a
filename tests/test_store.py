"""Storage: migrations, the guarded move transaction, foreign files, reopen."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from store import Conflict, SeatRow, Store, StoreError
from store.db import APPLICATION_ID, MIGRATIONS


async def started(store: Store) -> int:
    gid = await store.create_game("test-race", {}, 5, 1)
    await store.set_seats(gid, 0, [SeatRow(0, 1, "a", False), SeatRow(1, 2, "b", False)])
    await store.start(gid, 1, {"n": 0})
    return gid


async def test_schema_is_versioned_and_marked(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    store = await Store(str(path)).open()
    await store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    # Reopening an up-to-date file migrates nothing and keeps the data.
    store = await Store(str(path)).open()
    assert await store.count() == 0
    await store.close()


async def test_move_writes_log_and_snapshot_together(tmp_path: Path) -> None:
    store = await Store(str(tmp_path / "x.db")).open()
    gid = await started(store)
    v = await store.commit_move(gid, 2, [(0, 1, "2")], {"n": 2}, None, True)
    assert v == 3
    row = await store.get(gid)
    assert row is not None and row.state == {"n": 2} and row.moves == 1 and row.version == 3
    assert await store.log(gid) == [(1, 0, "2")]
    # A second commit at the old version is refused and changes nothing.
    with pytest.raises(Conflict):
        await store.commit_move(gid, 2, [(1, 2, "3")], {"n": 5}, None, True)
    row = await store.get(gid)
    assert row is not None and row.state == {"n": 2} and await store.log(gid) == [(1, 0, "2")]
    await store.close()


async def test_racing_commits_apply_once(tmp_path: Path) -> None:
    store = await Store(str(tmp_path / "x.db")).open()
    gid = await started(store)
    results = await asyncio.gather(
        *(store.commit_move(gid, 2, [(0, 1, str(i))], {"n": i}, None, True) for i in range(20)),
        return_exceptions=True,
    )
    assert sum(1 for r in results if r == 3) == 1
    assert sum(1 for r in results if isinstance(r, Conflict)) == 19
    assert len(await store.log(gid)) == 1
    await store.close()


async def test_two_connections_race_on_one_file(tmp_path: Path) -> None:
    """Two processes' worth of connections: the version guard still holds."""
    path = str(tmp_path / "x.db")
    a = await Store(path).open()
    b = await Store(path).open()
    gid = await started(a)
    results = await asyncio.gather(
        a.commit_move(gid, 2, [(0, 1, "1")], {"n": 1}, None, True),
        b.commit_move(gid, 2, [(0, 1, "2")], {"n": 2}, None, True),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "int"]
    assert len(await a.log(gid)) == 1
    await a.close()
    await b.close()


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE people (name TEXT)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        asyncio.run(Store(str(path)).open())
    assert path.read_bytes() == before


def test_corrupt_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database at all" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not an SQLite database"):
        asyncio.run(Store(str(path)).open())
    assert path.read_bytes() == before


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = await Store(str(path)).open()
    await store.close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer Lairkeeper"):
        await Store(str(path)).open()


async def test_checkpoints_run_in_the_background_and_keep_the_wal_small(tmp_path: Path) -> None:
    """A save never copies the WAL back itself (that made every ~100th save slow);
    the background checkpoint keeps the WAL small: between moves of real games it
    catches up and the WAL starts again; under a steady stream of saves, a RESTART
    checkpoint past the limit bounds it."""
    path, wal = tmp_path / "x.db", Path(str(tmp_path / "x.db") + "-wal")
    store = await Store(str(path)).open()
    store.WAL_LIMIT = 400  # pages
    assert (await store.db.execute_fetchall("PRAGMA wal_autocheckpoint"))[0][0] == 0  # type: ignore[index]
    try:
        gid = await started(store)
        big = {"n": 0, "pad": "x" * 12_000}  # 3-4 pages a snapshot
        version = 2
        for i in range(300):  # moves with pauses, as in play: ~5 MB of WAL if nothing copied it back
            version = await store.commit_move(gid, version, [(0, 1, str(i))], {**big, "n": i}, None, False)
            if store._ckpt_task is not None:
                await store._ckpt_task  # a pause long enough for the checkpoint to catch up
        assert wal.stat().st_size < 1_500_000, f"WAL grew to {wal.stat().st_size} bytes"
        for i in range(300, 900):  # back to back: ~9 MB if nothing bounded it
            version = await store.commit_move(gid, version, [(0, 1, str(i))], {**big, "n": i}, None, False)
        assert wal.stat().st_size < 4_000_000, f"WAL grew to {wal.stat().st_size} bytes"
        row = await store.get(gid)
        assert row is not None and row.state is not None and row.state["n"] == 899 and row.moves == 900
    finally:  # a failed assertion must not leave aiosqlite's threads holding the process open
        await store.close()
    assert not wal.exists()  # the last connection folded it in
