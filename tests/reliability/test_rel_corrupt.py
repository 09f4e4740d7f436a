"""A corrupt or foreign database file: a clear error at start-up, the file untouched
(byte for byte, and no -wal/-shm left beside it). Through Store.open and through
``python bot.py`` as a process (against the Discord stand-in where the refusal
can only come after login)."""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import sqlite3
import sys
from pathlib import Path

import pytest

from store import Store, StoreError
from store.db import MIGRATIONS
from tables import Tables
from tests.reliability._util import LONG, ROOT, clear_sentence, keys, new_table, record


async def lairkeeper_db(path: Path) -> bytes:
    """A real Lairkeeper database with a few games, checkpointed into one file."""
    store = await Store(str(path)).open()
    t = Tables(store)
    for i in range(12):
        await new_table(t, keys()[i % len(keys())], seed=i)
    await store.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    for extra in ("-wal", "-shm"):
        Path(str(path) + extra).unlink(missing_ok=True)
    return path.read_bytes()


def foreign(path: Path) -> None:
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE invoices (n INTEGER, customer TEXT)")
    con.execute("INSERT INTO invoices VALUES (1, 'acme')")
    con.commit()
    con.close()


def newer(path: Path, good: bytes) -> None:
    path.write_bytes(good)
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    con.commit()
    con.close()


def cases(tmp: Path, good: bytes) -> dict[str, Path]:
    rnd = random.Random(9)
    out: dict[str, Path] = {}

    def file(name: str, data: bytes | None = None) -> Path:
        d = tmp / name
        d.mkdir()
        p = d / "lairkeeper.db"
        if data is not None:
            p.write_bytes(data)
        out[name] = p
        return p

    file("random-bytes", bytes(rnd.randrange(256) for _ in range(8192)))
    file("text-file", b"these are my notes, not a database\n" * 50)
    file(
        "sqlite-header-then-garbage", b"SQLite format 3\x00" + bytes(rnd.randrange(256) for _ in range(8192))
    )
    foreign(file("another-programs-database"))
    file("lairkeeper-truncated-to-half", good[: len(good) // 2])
    file("lairkeeper-first-page-zeroed-after-header", good[:100] + bytes(4096 - 100) + good[4096:])
    newer(file("lairkeeper-from-a-newer-version"), good)
    return out


def digest(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def untouched(p: Path, before: str) -> None:
    assert digest(p) == before, f"{p.parent.name}: the file was modified"
    assert sorted(os.listdir(p.parent)) == [p.name], f"{p.parent.name}: files left beside it"


async def test_store_refuses_bad_files_untouched(tmp_path: Path) -> None:
    good = await lairkeeper_db(tmp_path / "good.db")
    sentences = {}
    for name, path in cases(tmp_path, good).items():
        before = digest(path)
        with pytest.raises(StoreError) as info:
            store = await Store(str(path)).open()
            await store.close()
        msg = str(info.value)
        assert clear_sentence(msg) is None and str(path) in msg, (name, msg)
        untouched(path, before)
        sentences[name] = msg.replace(str(path), "<file>")
    record(
        "corrupt_store",
        cases=len(sentences),
        refused=len(sentences),
        untouched=len(sentences),
        sentences=sentences,
    )


async def run_bot(db: Path, base: str | None) -> tuple[int, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LAIRKEEPER_"))}
    env.update(DISCORD_TOKEN="rel-dummy-token", LAIRKEEPER_DB=str(db), LAIRKEEPER_LOG_LEVEL="WARNING")
    if base:
        env["LAIRKEEPER_DISCORD_BASE"] = base
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "bot.py",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        _out, err = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError(f"bot.py kept running with {db.parent.name}") from None
    assert proc.returncode is not None
    return proc.returncode, err.decode(errors="replace")


async def test_bot_process_refuses_bad_files_untouched(tmp_path: Path) -> None:
    from tests.standin import StandIn

    good = await lairkeeper_db(tmp_path / "good.db")
    standin = await StandIn().start()
    refused = 0
    # Each start costs about a second: the fast run tries one file refused before
    # login and one only the schema check can refuse (after login); --long tries all.
    fast = ("another-programs-database", "lairkeeper-truncated-to-half")
    try:
        for name, path in cases(tmp_path, good).items():
            if not LONG and name not in fast:
                continue
            before = digest(path)
            code, err = await run_bot(path, standin.base)
            assert code == 3, f"{name}: exit status {code}, stderr:\n{err[-2000:]}"
            assert "Traceback" not in err, f"{name}: {err[-2000:]}"
            last = [line for line in err.splitlines() if line.strip()][-1]
            assert str(path) in last and clear_sentence(last) is None, (name, last)
            untouched(path, before)
            refused += 1
    finally:
        await standin.close()
    record("corrupt_bot_process", cases=refused, exit_status=3, untouched=refused)


def corrupt_games_page(path: Path) -> None:
    """Overwrite one leaf page of the games table (found with SQLite's dbstat) with garbage."""
    con = sqlite3.connect(path)
    size = con.execute("PRAGMA page_size").fetchone()[0]
    page = con.execute("SELECT max(pageno) FROM dbstat WHERE name='games' AND pagetype='leaf'").fetchone()[0]
    con.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size : page * size] = bytes(random.Random(5).randrange(256) for _ in range(size))
    path.write_bytes(bytes(data))


async def test_corrupt_data_page_refused_at_start_up(tmp_path: Path) -> None:
    await lairkeeper_db(tmp_path / "x" / "lairkeeper.db") if (tmp_path / "x").mkdir() is None else None
    path = tmp_path / "x" / "lairkeeper.db"
    corrupt_games_page(path)
    before = digest(path)
    try:
        with pytest.raises(StoreError):
            store = await Store(str(path)).open()
            try:
                await Tables(store).resume_all()
            finally:
                await store.close()
    finally:
        assert digest(path) == before
