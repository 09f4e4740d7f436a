"""The two database engines behind :class:`store.Store`: SQLite (aiosqlite) and
PostgreSQL (asyncpg).

Store writes each query once, in SQLite's spelling with ``?`` placeholders; the
PostgreSQL backend turns the placeholders into ``$1, $2, ...``. The few real
differences (row locks, advisory locks, waking other processes, the schema-version
bookkeeping) live in :class:`Dialect` and in each backend's ``migrate``.

A transaction is written once too, as a generator that yields operations
(:func:`fetch`, :func:`execute`, :func:`executemany`) and receives their results.
SQLite runs the whole generator in aiosqlite's worker thread in ONE hop (a thread
hand-off per statement made a save 8-30x a bare commit, docs/performance.md);
PostgreSQL drives it statement by statement on one pooled connection inside a
transaction.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from store import integrity

log = logging.getLogger(__name__)

T = TypeVar("T")

# 'LKPR': marks a database as ours (SQLite's application_id; the PostgreSQL
# schema table's application column and the key of its migration lock).
APPLICATION_ID = 0x4C4B5052
APPLICATION = "lairkeeper"
# The channel other processes LISTEN on to hear that a timer was armed.
TIMER_CHANNEL = "lairkeeper_timers"


class StoreError(Exception):
    """The database cannot be used (foreign, corrupt or too new). One sentence."""


# ---- time limits (issue 27) ---------------------------------------------------------
# Every query has a time limit (Store.timeout, LAIRKEEPER_DB_TIMEOUT, 5 s by default).
# A caller may also set one deadline for a whole piece of work (``budget``): the
# tables layer does so while it holds a game's lock, so a stalled database never
# keeps the lock longer than the limit. Giving up is safe: a transaction that
# timed out never commits later (see SqliteBackend._run_sync and PgBackend._session).

DEFAULT_TIMEOUT = 5.0

_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "lairkeeper_db_deadline", default=None
)


class DatabaseTimeout(TimeoutError):
    """The database did not answer within the time limit; nothing was written."""


class CommitUnknown(DatabaseTimeout):
    """The database was asked to COMMIT and did not confirm it in time: the work may
    or may not have been written (it never is once this is raised, except by that
    COMMIT itself)."""


@contextmanager
def budget(seconds: float) -> Iterator[None]:
    """Every query inside shares one deadline, ``seconds`` from now (or an earlier
    one already set by an enclosing budget)."""
    end = time.monotonic() + seconds
    outer = _deadline.get()
    token = _deadline.set(end if outer is None else min(outer, end))
    try:
        yield
    finally:
        _deadline.reset(token)


def time_left(timeout: float) -> float:
    """Seconds this query may take: its own limit, or less when a budget ends sooner."""
    left = timeout
    end = _deadline.get()
    if end is not None:
        left = min(left, end - time.monotonic())
    return left


class _Abandoned(Exception):
    """Raised on the database thread for a job the event loop gave up on."""


class _Job:
    """One request to SQLite's thread that the event loop may give up on. The thread
    checks ``abandoned`` before each step and, under the lock, marks ``committing``
    just before COMMIT: a job given up before that rolls back and never commits."""

    __slots__ = ("lock", "abandoned", "committing", "end")

    def __init__(self, end: float) -> None:
        self.lock = threading.Lock()
        self.abandoned = False
        self.committing = False
        self.end = end  # time.monotonic() deadline

    def check(self) -> None:
        if self.abandoned or time.monotonic() > self.end:
            raise _Abandoned()

    def may_commit(self) -> bool:
        with self.lock:
            if self.abandoned or time.monotonic() > self.end:
                self.abandoned = True
                return False
            self.committing = True
            return True

    def abandon(self) -> bool:
        """The loop gives up. False if a COMMIT is already under way (outcome unknown)."""
        with self.lock:
            if self.committing:
                return False
            self.abandoned = True
            return True


class _TimeUp(Exception):
    """Set on a query's future when its time limit passes."""


def _time_up(fut: asyncio.Future[Any]) -> None:
    if not fut.done():
        fut.set_exception(_TimeUp())


# An operation: (kind, sql, args), kind "fetch" | "execute" | "executemany". A plain
# tuple: one is made for every statement of every save.
Op = tuple[str, str, Sequence[Any]]


def fetch(sql: str, *args: Any) -> Op:
    """Rows of a query (also an UPDATE/INSERT ... RETURNING)."""
    return ("fetch", sql, args)


def execute(sql: str, *args: Any) -> Op:
    """Run a statement; its result is the number of rows it changed."""
    return ("execute", sql, args)


def executemany(sql: str, rows: Sequence[Sequence[Any]]) -> Op:
    return ("executemany", sql, rows)


Body = Generator[Op, Any, T]


@dataclass(frozen=True)
class Dialect:
    name: str
    # Appended to a SELECT that reads a game row a transaction is about to change.
    for_update: str
    # Appended to the subquery that picks due timers: other claimers skip locked rows.
    skip_locked: str
    # A statement taking a transaction-scoped lock on one integer key, or "".
    lock: str
    # A statement telling other processes a timer was armed, or "".
    notify: str


SQLITE = Dialect("sqlite", for_update="", skip_locked="", lock="", notify="")
POSTGRES = Dialect(
    "postgresql",
    for_update=" FOR UPDATE",
    skip_locked=" FOR UPDATE OF t SKIP LOCKED",
    lock="SELECT pg_advisory_xact_lock(?)",
    notify=f"SELECT pg_notify('{TIMER_CHANNEL}', '')",
)


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def from_schema(script: str, version: int) -> str:
    """A migration step with ``{from_schema}`` replaced by the schema version the
    database had when this open began migrating it (schema 5 marks the games of a
    schema <= 2 database as played under rules revision 1). Released steps never
    contain the marker."""
    return script.replace("{from_schema}", str(int(version)))


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


# ---- SQLite -------------------------------------------------------------------------


def check_file(path: str) -> None:
    """Refuse a file that is not a Lairkeeper database, without writing to it."""
    p = Path(path)
    if not p.exists() or p.stat().st_size == 0:
        return
    with open(p, "rb") as f:
        head = f.read(100)
    if not head.startswith(b"SQLite format 3\x00"):
        raise StoreError(f"The database file {path} is not an SQLite database; refusing to touch it.")
    if int.from_bytes(head[68:72], "big") == APPLICATION_ID:
        return
    # The header may be stale while the write-ahead log holds newer pages, so ask
    # SQLite itself, read-only.
    try:
        con = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            n = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"The database file {path} is corrupt ({exc}); refusing to touch it.") from exc
    if app_id != APPLICATION_ID and n:
        raise StoreError(
            f"The database file {path} belongs to another program; refusing to touch it. "
            "Point LAIRKEEPER_DB at a new file."
        )


class SqliteBackend:
    dialect = SQLITE

    CHECKPOINT_EVERY = 50  # commits between background checkpoints (~10 WAL pages each)
    WAL_LIMIT = 4000  # pages (16 MB): past this, a checkpoint restarts the WAL

    def __init__(self, path: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.path = path
        self.timeout = timeout  # seconds a query or transaction may take
        self.where = f"The database file {path}"
        self._db: aiosqlite.Connection | None = None
        # One connection runs one transaction at a time; other connections (other
        # processes) are kept out by BEGIN IMMEDIATE and the busy timeout.
        self._write = asyncio.Lock()
        # Checkpoints (copying the WAL back into the database file) run on a second
        # connection in the background, never inside a move's commit: SQLite's own
        # automatic checkpoint made every ~100th save take 15-20 ms (docs/performance.md).
        self._ckpt: aiosqlite.Connection | None = None
        self._ckpt_task: asyncio.Task[None] | None = None
        self._writes = 0
        self._busy_ms = 5000  # the connection's busy_timeout, as last set (thread side)

    @property
    def db(self) -> aiosqlite.Connection:
        assert self._db is not None, "Store.open() was not awaited"
        return self._db

    async def open(self, migrations: Sequence[str]) -> None:
        check_file(self.path)
        if os.path.dirname(self.path):
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            # Read every page once before writing anything, so a file with corrupt data
            # pages is refused now, untouched, instead of failing at some later query.
            # (0.2-0.4 s for 10,000 games and 1,000,000 logged moves, 145 MB: bot.py
            # begins it beside its imports, and a clean verdict is taken here.)
            if not await integrity.passed(self.path):
                (check,) = await (await self._db.execute("PRAGMA quick_check(1)")).fetchone()  # type: ignore[misc]
                if check != "ok":
                    raise StoreError(
                        f"The database file {self.path} is corrupt ({check}); refusing to use it."
                    )
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA busy_timeout=5000")
            await self._db.execute("PRAGMA wal_autocheckpoint=0")
            await self._migrate(migrations)
        except BaseException as exc:
            await self._db.close()
            self._db = None
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(
                    f"The database file {self.path} is corrupt ({exc}); refusing to use it."
                ) from exc
            raise

    async def _migrate(self, migrations: Sequence[str]) -> None:
        (version,) = await (await self.db.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
        if version > len(migrations):
            raise StoreError(
                f"The database file {self.path} was written by a newer Lairkeeper (schema {version}); "
                "upgrade the bot."
            )
        for i in range(version, len(migrations)):
            async with self.transaction() as tx:
                for stmt in _split(from_schema(migrations[i], version)):
                    await tx.execute(stmt)
                await tx.execute(f"PRAGMA application_id={APPLICATION_ID}")
                await tx.execute(f"PRAGMA user_version={i + 1}")

    async def schema_version(self) -> int:
        rows = await self.fetch("PRAGMA user_version", ())
        return int(rows[0][0])

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(job, *args)`` on the connection's thread; give up at the time limit.

        A job given up on is marked abandoned: still queued, it never runs; in a
        transaction, it rolls back instead of committing (``_Job``). Only a COMMIT
        already under way when the limit passed has an unknown outcome."""
        left = time_left(self.timeout)
        if left <= 0:
            raise DatabaseTimeout(f"{self.where} did not answer in time.")
        job = _Job(time.monotonic() + left)
        db = self.db
        if not db._running or not db._connection:
            raise ValueError("Connection closed")
        # aiosqlite's own _execute, with a timer instead of the task and waiter a
        # timeout around it would need (this runs for every query of every move): at
        # the limit the timer fails the future, and the thread's late answer is dropped.
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        db._tx.put_nowait((fut, functools.partial(fn, job, *args)))
        timer = loop.call_later(left, _time_up, fut)
        try:
            return await fut  # type: ignore[no-any-return]
        except _TimeUp:
            if not job.abandon():
                raise CommitUnknown(f"{self.where} did not confirm a commit in time.") from None
            raise DatabaseTimeout(f"{self.where} did not answer in time.") from None
        except _Abandoned:
            raise DatabaseTimeout(f"{self.where} did not answer in time.") from None
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):  # another writer held it past the limit
                raise DatabaseTimeout(f"{self.where} is held by another writer.") from exc
            raise
        except BaseException:  # cancelled by the caller: the job must not run later
            job.abandon()
            raise
        finally:
            timer.cancel()

    def _fetch_sync(self, job: _Job, sql: str, args: Sequence[Any]) -> list[Any]:
        job.check()
        return self.db._conn.execute(sql, args).fetchall()

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return await self._call(self._fetch_sync, sql, args)

    def _busy(self, con: sqlite3.Connection, job: _Job) -> None:
        """On the thread: wait for another writer's lock no longer than ``job`` may take
        (set only when that differs from the last setting by more than 0.2 s: a PRAGMA
        per save would cost as much as a tenth of it)."""
        ms = max(1, int((job.end - time.monotonic()) * 1000))
        if abs(ms - self._busy_ms) > 200:
            con.execute(f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms

    def _execute_sync(self, job: _Job, sql: str, args: Sequence[Any]) -> int:
        con = self.db._conn
        self._busy(con, job)
        if not job.may_commit():
            raise _Abandoned()
        cur = con.execute(sql, args)
        n = cur.rowcount
        cur.close()
        return n

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        """One statement in autocommit (tools: VACUUM, a PRAGMA). Within the time limit;
        the store's own lone writes use :meth:`write` (a transaction of their own)."""
        async with self._write:
            n = await self._call(self._execute_sync, sql, args)
        self._wrote()
        return n

    async def write(self, sql: str, args: Sequence[Any]) -> int:
        """A lone write as a transaction of its own, so that one given up on is never
        carried out later (see _run_sync)."""

        def body() -> Body[int]:
            return int((yield ("execute", sql, args)))

        return await self.run(body)

    async def run(self, make: Callable[[], Body[T]]) -> T:
        task = self._ckpt_task
        if task is not None and self._writes >= self.CHECKPOINT_EVERY and not task.done():
            # Back-pressure: a whole batch of saves went by while the last checkpoint
            # still runs (a loaded machine starves its thread); wait for it, or the
            # WAL outruns its checkpoints and grows without bound (at most the time limit).
            await asyncio.wait({task}, timeout=max(0.0, time_left(self.timeout)))
        if self._write.locked():  # an ad-hoc transaction runs: wait for it, within the limit
            try:
                await asyncio.wait_for(self._write.acquire(), max(0.001, time_left(self.timeout)))
            except TimeoutError:
                raise DatabaseTimeout(f"{self.where} did not answer in time.") from None
        else:
            await self._write.acquire()
        try:
            result = await self._call(self._run_sync, make())
        finally:
            self._write.release()
        self._wrote()
        return result

    def _run_sync(self, job: _Job, body: Body[T]) -> T:
        # The driver loop is inlined (no closure, no helper call): it runs for every
        # statement of every save.
        con = self.db._conn
        job.check()
        self._busy(con, job)
        con.execute("BEGIN IMMEDIATE")
        try:
            send = body.send
            result: Any = None
            while True:
                try:
                    kind, sql, args = send(result)
                except StopIteration as stop:
                    result = stop.value
                    break
                if job.abandoned:
                    raise _Abandoned()
                if kind == "fetch":
                    result = con.execute(sql, args).fetchall()
                elif kind == "execute":
                    result = con.execute(sql, args).rowcount
                else:
                    con.executemany(sql, args)
                    result = None
            if not job.may_commit():  # the loop gave up: never commit behind its back
                raise _Abandoned()
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")
        return result  # type: ignore[no-any-return]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """An ad-hoc transaction (migrations, tools, tests)."""
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteTx(self.db)
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
        self._wrote()

    def _wrote(self) -> None:
        self._writes += 1
        if self._writes >= self.CHECKPOINT_EVERY and (self._ckpt_task is None or self._ckpt_task.done()):
            self._writes = 0
            self._ckpt_task = asyncio.get_running_loop().create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        """Copy the WAL into the database file on the checkpoint connection.

        PASSIVE never waits for or blocks a writer. The WAL starts again from its
        beginning at the first write after a checkpoint that caught up, which between
        moves of real games (seconds apart) is the next one. Under a steady stream of
        writes it may never catch up; past WAL_LIMIT pages a RESTART checkpoint holds
        writers back for the moment it takes to finish, so the WAL cannot grow without end."""
        try:
            if self._ckpt is None:
                self._ckpt = await aiosqlite.connect(self.path, isolation_level=None)
                await self._ckpt.execute("PRAGMA busy_timeout=5000")
            # Fetched to the end: a statement left pending would pin the WAL.
            rows = list(await self._ckpt.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)"))
            if rows and rows[0][1] > self.WAL_LIMIT:
                await self._ckpt.execute_fetchall("PRAGMA wal_checkpoint(RESTART)")
        except sqlite3.Error:  # the next one tries again; the data is safe in the WAL
            log.warning("background checkpoint of %s failed", self.path, exc_info=True)

    async def listen(self, callback: Callable[[], None]) -> None:
        """One process per file: the Store wakes its own scheduler, nothing to hear."""

    async def close(self) -> None:
        if self._ckpt_task is not None:
            await asyncio.gather(self._ckpt_task, return_exceptions=True)
            self._ckpt_task = None
        if self._ckpt is not None:
            await self._ckpt.close()
            self._ckpt = None
        if self._db is not None:
            # The last connection to close checkpoints the whole WAL and removes it.
            await self._db.close()
            self._db = None


class SqliteTx:
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, args))

    async def execute(self, sql: str, *args: Any) -> int:
        cur = await self._db.execute(sql, args)
        return cur.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)


# ---- PostgreSQL -----------------------------------------------------------------------

_MARK = re.compile(r"'[^']*'|\?")
_pg_cache: dict[str, str] = {}


def pg_sql(sql: str) -> str:
    """``?`` placeholders -> ``$1, $2, ...`` (not inside quoted literals)."""
    out = _pg_cache.get(sql)
    if out is None:
        n = 0

        def sub(m: re.Match[str]) -> str:
            nonlocal n
            if m.group(0) != "?":
                return m.group(0)
            n += 1
            return f"${n}"

        out = _pg_cache[sql] = _MARK.sub(sub, sql)
    return out


def _count(tag: str) -> int:
    """The row count of a command tag: 'UPDATE 3', 'INSERT 0 1', 'DELETE 0'."""
    last = tag.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgBackend:
    dialect = POSTGRES
    # Errors where PostgreSQL asks the client to run the transaction again.
    RETRIES = 5

    def __init__(self, url: str, pool_size: int = 10, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = url
        self.timeout = timeout  # seconds a query or transaction may take
        self.where = "The PostgreSQL database " + _redact(url)
        self.pool_size = pool_size
        self._pool: Any = None
        self._listener: Any = None
        import asyncpg

        self._asyncpg = asyncpg
        self._retry = (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError)

    async def open(self, migrations: Sequence[str]) -> None:
        asyncpg = self._asyncpg
        try:
            # ``timeout`` bounds opening a connection. Queries are bounded in _session
            # (not by command_timeout, which would also cut short the schema migrations
            # at start-up and the ad-hoc transactions of tools such as `bot.py migrate`).
            self._pool = await asyncpg.create_pool(
                self.url, min_size=1, max_size=self.pool_size, timeout=max(10.0, self.timeout)
            )
        except (OSError, asyncpg.PostgresError) as exc:
            raise StoreError(f"{self.where} cannot be reached ({exc}).") from exc
        try:
            await self._migrate(migrations)
        except BaseException:
            await self.close()
            raise

    async def _migrate(self, migrations: Sequence[str]) -> None:
        async with self._pool.acquire() as con, con.transaction():
            # Two processes starting at once: one migrates, the other waits and finds it done.
            await con.execute("SELECT pg_advisory_xact_lock($1)", APPLICATION_ID)
            has = await con.fetchval("SELECT to_regclass('lairkeeper_schema') IS NOT NULL")
            if not has:
                n = await con.fetchval(
                    "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
                )
                if n:
                    raise StoreError(
                        f"{self.where} belongs to another program (it has {n} tables and no Lairkeeper "
                        "schema); refusing to touch it. Point LAIRKEEPER_DB at a new, empty database."
                    )
                await con.execute(
                    "CREATE TABLE lairkeeper_schema (application TEXT NOT NULL, version INTEGER NOT NULL)"
                )
                await con.execute("INSERT INTO lairkeeper_schema VALUES ($1, 0)", APPLICATION)
            rows = await con.fetch("SELECT application, version FROM lairkeeper_schema")
            if len(rows) != 1 or rows[0][0] != APPLICATION:
                raise StoreError(f"{self.where} has a damaged schema table; refusing to use it.")
            version = rows[0][1]
            if version > len(migrations):
                raise StoreError(
                    f"{self.where} was written by a newer Lairkeeper (schema {version}); upgrade the bot."
                )
            for i in range(version, len(migrations)):
                for stmt in _split(from_schema(migrations[i], version)):
                    await con.execute(stmt)
                await con.execute("UPDATE lairkeeper_schema SET version=$1", i + 1)

    async def schema_version(self) -> int:
        rows = await self.fetch("SELECT version FROM lairkeeper_schema", ())
        return int(rows[0][0])

    def _translate(self, exc: BaseException) -> BaseException:
        # Out-of-range integers (a hostile custom_id) fail as in SQLite: OverflowError.
        if isinstance(exc, self._asyncpg.DataError) and "out of int" in str(exc):
            return OverflowError(str(exc))
        return exc

    async def _session(self, work: Callable[[Any, list[bool]], Any]) -> Any:
        """Run ``work(con, committing)`` on a pooled connection within the time limit.

        On timeout the connection is closed at once (``terminate``): PostgreSQL rolls
        back a transaction whose client went away, and COMMIT is sent only as the
        last step, so a transaction given up on before it never commits later. Only
        a COMMIT already sent (``committing[0]``) has an unknown outcome."""
        left = time_left(self.timeout)
        if left <= 0:
            raise DatabaseTimeout(f"{self.where} did not answer in time.")
        end = time.monotonic() + left
        try:
            con = await self._pool.acquire(timeout=left)
        except TimeoutError:
            raise DatabaseTimeout(f"{self.where} did not answer in time.") from None
        except OSError as exc:  # the server went away: as unavailable as a stalled one
            raise DatabaseTimeout(f"{self.where} cannot be reached ({exc}).") from exc
        committing = [False]
        try:
            async with asyncio.timeout(max(0.001, end - time.monotonic())):
                return await work(con, committing)
        except TimeoutError:
            con.terminate()
            if committing[0]:
                raise CommitUnknown(f"{self.where} did not confirm a commit in time.") from None
            raise DatabaseTimeout(f"{self.where} did not answer in time.") from None
        except asyncio.CancelledError:
            con.terminate()
            raise
        except (OSError, self._asyncpg.exceptions.ConnectionDoesNotExistError) as exc:
            con.terminate()
            if committing[0]:
                raise CommitUnknown(f"{self.where} went away during a commit.") from exc
            raise DatabaseTimeout(f"{self.where} cannot be reached ({exc}).") from exc
        finally:
            try:
                await self._pool.release(con, timeout=max(0.05, end - time.monotonic()))
            except Exception:  # asyncpg closed it; the pool opens a new one when needed
                log.debug("a connection was dropped on release", exc_info=True)

    async def fetch(self, sql: str, args: Sequence[Any]) -> list[Any]:
        async def work(con: Any, _committing: list[bool]) -> list[Any]:
            return list(await con.fetch(pg_sql(sql), *args))

        try:
            return await self._session(work)  # type: ignore[no-any-return]
        except self._asyncpg.DataError as exc:
            raise self._translate(exc) from exc

    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        """One statement in autocommit (tools: VACUUM, CHECKPOINT), within the time
        limit; timed out, its outcome is unknown. The store's own lone writes use
        :meth:`write`."""

        async def work(con: Any, committing: list[bool]) -> int:
            committing[0] = True
            return _count(await con.execute(pg_sql(sql), *args))

        try:
            return await self._session(work)  # type: ignore[no-any-return]
        except self._asyncpg.DataError as exc:
            raise self._translate(exc) from exc

    async def write(self, sql: str, args: Sequence[Any]) -> int:
        """A lone write as a transaction of its own: one sent to a stalled server is
        never carried out when the server wakes (see _session)."""

        def body() -> Body[int]:
            return int((yield ("execute", sql, args)))

        return await self.run(body)

    async def run(self, make: Callable[[], Body[T]]) -> T:
        async def work(con: Any, committing: list[bool]) -> T:
            tr = con.transaction()
            await tr.start()
            try:
                result = await self._drive(con, make())
            except (TimeoutError, asyncio.CancelledError):
                raise  # _session closes the connection: the server rolls back
            except BaseException:
                await tr.rollback()
                raise
            committing[0] = True
            await tr.commit()
            return result

        for attempt in range(self.RETRIES):
            try:
                return await self._session(work)  # type: ignore[no-any-return]
            except self._retry:
                if attempt == self.RETRIES - 1:
                    raise
                await asyncio.sleep(0.01 * (attempt + 1))
            except self._asyncpg.DataError as exc:
                raise self._translate(exc) from exc
        raise AssertionError("unreachable")

    async def _drive(self, con: Any, body: Body[T]) -> T:
        result: Any = None
        while True:
            try:
                op = body.send(result)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            kind, sql, args = op
            if kind == "fetch":
                result = await con.fetch(pg_sql(sql), *args)
            elif kind == "execute":
                result = _count(await con.execute(pg_sql(sql), *args))
            else:
                await con.executemany(pg_sql(sql), args)
                result = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgTx]:
        async with self._pool.acquire() as con, con.transaction():
            yield PgTx(con)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        """A raw asyncpg connection from the pool (benchmarks, tools)."""
        async with self._pool.acquire() as con:
            yield con

    async def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` whenever any process arms a timer (LISTEN on a connection
        of its own, outside the pool)."""
        self._listener = await self._asyncpg.connect(self.url)
        await self._listener.add_listener(TIMER_CHANNEL, lambda *_: callback())

    async def close(self) -> None:
        if self._listener is not None:
            try:
                await self._listener.close()
            except Exception:  # already gone with the server: nothing to release
                log.debug("listener close failed", exc_info=True)
            self._listener = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None


class PgTx:
    def __init__(self, con: Any) -> None:
        self._con = con

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._con.fetch(pg_sql(sql), *args))

    async def execute(self, sql: str, *args: Any) -> int:
        return _count(await self._con.execute(pg_sql(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._con.executemany(pg_sql(sql), rows)


def _redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)
