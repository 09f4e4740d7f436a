"""The SQLite file's integrity check, begun before the bot's imports.

``Store.open`` reads every page of the file (``PRAGMA quick_check``) before it
writes anything, so a file with corrupt pages is refused untouched. With 10,000
games that read takes 0.2-0.3 s, and the start-up used to wait for it after the
imports and the login. ``bot.py`` now calls :func:`begin` as soon as the file is
known to be ours, and the check runs on a thread of its own beside the imports
(sqlite3 lets go of the GIL while SQLite reads); ``Store.open`` then takes its
verdict (:func:`passed`) instead of reading the file a second time. The thread
first reads the file in one sequential pass (:func:`_read_ahead`), so that after a
reboot the check does not fetch the file from disk one page at a time.

Only a clean verdict on the very same file, unchanged since (the database file and
its write-ahead log: inode, size, modification time), is taken. Anything else - a
finding, an error, another path, a file written since - makes ``Store.open`` run
the check itself, exactly as before, so its refusals and their sentences are the
ones it always gave. The check's connection is read-only: it writes nothing, and
closing it never copies the log back into the file (a read-write connection that is
the last one to close would, before the file had been found sound). No memory map:
a read error on a mapped page kills the process with SIGBUS instead of being reported.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import sqlite3
import threading

log = logging.getLogger(__name__)

Stamp = tuple[tuple[int, int, int] | None, ...]

# The checks begun, by the file's real path: the stamp the file had when the check
# ended (None: no clean verdict) once it is done.
_begun: dict[str, concurrent.futures.Future[Stamp | None]] = {}


def _stamp(path: str) -> Stamp:
    """The database file's and its log's inode, size and time. An empty log is no log:
    reading a file whose last connection closed cleanly creates an empty one."""
    out: list[tuple[int, int, int] | None] = []
    for name in (path, path + "-wal"):
        try:
            st = os.stat(name)
        except FileNotFoundError:
            out.append(None)
        else:
            out.append((st.st_ino, st.st_size, st.st_mtime_ns) if st.st_size or name == path else None)
    return tuple(out)


def _read_ahead(path: str) -> None:
    """Bring the file into the page cache in one sequential pass first. From a cold
    cache (a restart after a reboot) quick_check's page-by-page reads in b-tree order
    took 2.2 s for the 145 MB of 10,000 games; the pass takes 0.1-0.2 s, and the check
    then reads from memory (0.2 s). Copied to /dev/null in the kernel (no copy into
    this process; 2 ms when the file is cached already). A courtesy: where sendfile
    cannot do it, quick_check reads the file itself as before."""
    try:
        with open(path, "rb") as src, open(os.devnull, "wb") as sink:
            size, at = os.fstat(src.fileno()).st_size, 0
            while at < size:
                sent = os.sendfile(sink.fileno(), src.fileno(), at, 1 << 24)
                if not sent:
                    break
                at += sent
    except OSError:
        pass


def _check(path: str) -> Stamp | None:
    """The file's stamp if quick_check found it sound and it did not change meanwhile."""
    before = _stamp(path)
    _read_ahead(path)
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        try:
            (verdict,) = con.execute("PRAGMA quick_check(1)").fetchone()
        finally:
            con.close()
    except sqlite3.Error as exc:  # Store.open checks again and says what is wrong
        log.debug("early integrity check of %s gave no verdict: %s", path, exc)
        return None
    after = _stamp(path)
    return after if verdict == "ok" and after == before else None


def begin(path: str) -> None:
    """Start checking the SQLite file at ``path`` on a thread (nothing to check when
    there is no file yet: ``Store.open`` creates it)."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    key = os.path.realpath(path)
    if key in _begun:
        return
    fut: concurrent.futures.Future[Stamp | None] = concurrent.futures.Future()

    def run() -> None:
        try:
            fut.set_result(_check(key))
        except BaseException as exc:  # an unexpected failure is no verdict, never a crash
            fut.set_result(None)
            log.debug("early integrity check of %s failed: %r", key, exc)

    _begun[key] = fut
    # A daemon: a start-up that fails early (a refused token) does not wait for it.
    threading.Thread(target=run, name="lairkeeper-integrity", daemon=True).start()


async def passed(path: str) -> bool:
    """Whether a check begun for ``path`` found it sound and the file is unchanged
    since (waiting for the check if it still runs). Each verdict is taken once."""
    fut = _begun.pop(os.path.realpath(path), None)
    if fut is None:
        return False
    stamp = await asyncio.wrap_future(fut)
    return stamp is not None and stamp == _stamp(os.path.realpath(path))


__all__ = ["begin", "passed"]
