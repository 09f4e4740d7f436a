"""The SQLite file's integrity check begun before the imports (store/integrity.py):
its clean verdict spares Store.open a second read of the file, and nothing else
changes what Store.open refuses or what it leaves on disk."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from store import Store, StoreError, integrity


async def _filled(path: Path) -> None:
    store = await Store(str(path)).open()
    for i in range(400):  # some 50 pages of rows, so one of them can be broken
        await store.set_meta(f"filler:{i}", "x" * 200)
    await store.close()


def _break_a_page(path: Path) -> None:
    """Overwrite the head of the file's last-but-one page (a leaf of the rows above)
    with junk: the header and application id stay ours, only quick_check can tell."""
    con = sqlite3.connect(path)
    size, count = (con.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_size", "page_count"))
    con.close()
    with open(path, "r+b") as f:
        f.seek((count - 2) * size)
        f.write(b"\xff" * 64)


@pytest.fixture(autouse=True)
def no_verdict_left() -> Any:
    yield
    integrity._begun.clear()


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every quick_check Store.open itself runs on its connection."""
    seen: list[str] = []
    execute = aiosqlite.Connection.execute

    def spy(self: aiosqlite.Connection, sql: str, *args: Any) -> Any:
        if "quick_check" in sql:
            seen.append(sql)
        return execute(self, sql, *args)

    monkeypatch.setattr(aiosqlite.Connection, "execute", spy)
    return seen


async def test_a_clean_verdict_begun_early_spares_the_second_read(tmp_path: Path, checks: list[str]) -> None:
    path = tmp_path / "games.db"
    await _filled(path)
    checks.clear()
    integrity.begin(str(path))
    store = await Store(str(path)).open()
    await store.close()
    assert checks == [], "Store.open read the whole file again after a clean verdict"
    store = await Store(str(path)).open()  # a verdict is taken once: the next open checks
    await store.close()
    assert len(checks) == 1


async def test_a_file_written_after_the_check_is_checked_again(tmp_path: Path, checks: list[str]) -> None:
    path = tmp_path / "games.db"
    await _filled(path)
    checks.clear()
    integrity.begin(str(path))
    integrity._begun[str(path.resolve())].result(timeout=30)  # the check has ended
    other = sqlite3.connect(path)  # another process writes meanwhile (and stays open)
    with other:
        other.execute("INSERT INTO meta (key, value) VALUES ('late', '1')")
    try:
        store = await Store(str(path)).open()
        await store.close()
    finally:
        other.close()
    assert len(checks) == 1, "the verdict on the file before the write was taken"


async def test_a_file_with_a_broken_page_is_refused_untouched_with_or_without_the_early_check(
    tmp_path: Path, checks: list[str]
) -> None:
    path = tmp_path / "games.db"
    await _filled(path)
    _break_a_page(path)
    before = path.read_bytes()
    checks.clear()
    for early in (False, True):
        if early:
            integrity.begin(str(path))
        with pytest.raises(
            StoreError, match=r"(?s)^The database file .* is corrupt \(.*Page \d+.*\); refusing to use it\.$"
        ):
            await Store(str(path)).open()
        assert path.read_bytes() == before
    assert len(checks) == 2, "Store.open did not check the file itself after the early check's finding"


async def test_no_file_yet_nothing_to_check(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    integrity.begin(str(path))
    assert not path.exists() and not integrity._begun
    store = await Store(str(path)).open()
    await store.close()


async def test_the_read_ahead_covers_the_file_and_its_failure_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checks: list[str]
) -> None:
    """The pass that brings a cold file into memory before the check (2.2 s -> 0.6 s to
    "ready" with 10,000 games after a reboot) sends every byte; where sendfile fails,
    the check still gives its verdict."""
    path = tmp_path / "games.db"
    await _filled(path)
    sent: list[int] = []
    real = integrity.os.sendfile

    def counting(out: int, src: int, at: int, n: int) -> int:
        k = real(out, src, at, min(n, 8192))  # small steps: the loop must go on to the end
        sent.append(k)
        return k

    monkeypatch.setattr(integrity.os, "sendfile", counting)
    integrity._read_ahead(str(path))
    assert sum(sent) == path.stat().st_size and len(sent) > 1

    def failing(*_args: Any) -> int:
        raise OSError("not here")

    monkeypatch.setattr(integrity.os, "sendfile", failing)
    checks.clear()
    integrity.begin(str(path))
    store = await Store(str(path)).open()
    await store.close()
    assert checks == [], "no verdict when the read-ahead could not be done"
