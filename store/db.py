"""SQLite storage (aiosqlite, WAL): schema migrations, games, seats, the action log.

Every change to a game goes through :meth:`Store.commit_move` or the other
writers here, each a single transaction. A move appends its log row and writes
the new snapshot in one transaction guarded by the game's version, so two racing
clicks apply exactly once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

# 'LKPR': marks the file as ours, so a foreign SQLite file is refused untouched.
APPLICATION_ID = 0x4C4B5052

# Each entry moves the schema from version i to i+1. Never edit a released entry;
# append a new one.
MIGRATIONS: list[str] = [
    # 1: games, seats, action log
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER,
        lobby_message_id INTEGER,
        game_key TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned')),
        version INTEGER NOT NULL DEFAULT 0,
        moves INTEGER NOT NULL DEFAULT 0,
        host_id INTEGER,
        state TEXT,
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        turn_since REAL
    );
    CREATE INDEX games_by_thread ON games(thread_id);
    CREATE INDEX games_by_guild_status ON games(guild_id, status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        name TEXT NOT NULL,
        is_ai INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_by_user ON seats(user_id);
    CREATE TABLE actions (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        notation TEXT NOT NULL,
        created_at REAL NOT NULL,
        UNIQUE (game_id, seq)
    );
    """,
    # 2: asynchronous play - server settings, per-game overrides, DM opt-in,
    #    vacations, stored timers (reminders and deadlines), undo marks
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE notify (
        user_id INTEGER PRIMARY KEY,
        dm INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE vacations (
        user_id INTEGER PRIMARY KEY,
        since REAL NOT NULL,
        until REAL NOT NULL
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline')),
        due REAL NOT NULL,
        UNIQUE (game_id, seat, kind)
    );
    CREATE INDEX timers_by_due ON timers(due);
    """,
    # 3: the move chooser's half-made moves (a hero path being drawn survives a
    #    restart), pause / one deadline extension, the last version whose board
    #    reached the thread (moves owed after a restart or an outage), "tell me
    #    when I'm next" requests, and a key-value table (the command tree's hash)
    """
    CREATE TABLE drafts (
        game_id INTEGER NOT NULL REFERENCES games(id),
        user_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        prefix TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN extended INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE watchers (
        game_id INTEGER NOT NULL REFERENCES games(id),
        user_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
]


def encode_state(state: dict[str, Any]) -> str:
    """A snapshot as stored: compact JSON (no spaces after separators: 5-10% fewer
    bytes to write and to read back, for the same dict)."""
    return json.dumps(state, separators=(",", ":"))


class StoreError(Exception):
    """The database cannot be used (foreign, corrupt or too new). One sentence."""


class Conflict(Exception):
    """The game changed between load and save (a race or a stale click)."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    is_ai: bool


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    lobby_message_id: int | None
    game_key: str
    options: dict[str, Any]
    seed: int
    status: str
    version: int
    moves: int
    host_id: int | None
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    turn_since: float | None
    seats: list[SeatRow]
    settings: dict[str, Any]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_ai:
                return s.seat
        return None


_GAME_COLS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, game_key, options, seed, status, "
    "version, moves, host_id, state, result, created_at, updated_at, turn_since, settings"
)


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


class Store:
    def __init__(self, path: str, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
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

    @property
    def db(self) -> aiosqlite.Connection:
        assert self._db is not None, "Store.open() was not awaited"
        return self._db

    async def open(self) -> Store:
        check_file(self.path)
        if os.path.dirname(self.path):
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            # Read every page once before writing anything, so a file with corrupt data
            # pages is refused now, untouched, instead of failing at some later query.
            # (About 0.4 s for 10,000 games and 1,000,000 logged moves, 115 MB.)
            (check,) = await (await self._db.execute("PRAGMA quick_check(1)")).fetchone()  # type: ignore[misc]
            if check != "ok":
                raise StoreError(f"The database file {self.path} is corrupt ({check}); refusing to use it.")
            await self._db.execute("PRAGMA journal_mode=WAL")
            await self._db.execute("PRAGMA synchronous=NORMAL")
            await self._db.execute("PRAGMA foreign_keys=ON")
            await self._db.execute("PRAGMA busy_timeout=5000")
            await self._db.execute("PRAGMA wal_autocheckpoint=0")
            await self._migrate()
        except BaseException as exc:
            await self._db.close()
            self._db = None
            if isinstance(exc, sqlite3.DatabaseError):
                raise StoreError(
                    f"The database file {self.path} is corrupt ({exc}); refusing to use it."
                ) from exc
            raise
        return self

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._write:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
        self._wrote()

    CHECKPOINT_EVERY = 50  # commits between background checkpoints (~10 WAL pages each)
    WAL_LIMIT = 4000  # pages (16 MB): past this, a checkpoint restarts the WAL

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

    async def _migrate(self) -> None:
        (version,) = await (await self.db.execute("PRAGMA user_version")).fetchone()  # type: ignore[misc]
        if version > len(MIGRATIONS):
            raise StoreError(
                f"The database file {self.path} was written by a newer Lairkeeper (schema {version}); "
                "upgrade the bot."
            )
        for i in range(version, len(MIGRATIONS)):
            async with self.transaction():
                for stmt in _split(MIGRATIONS[i]):
                    await self.db.execute(stmt)
                await self.db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                await self.db.execute(f"PRAGMA user_version={i + 1}")

    # ---- reads ---------------------------------------------------------------
    async def _seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.db.execute_fetchall(
            "SELECT seat, user_id, name, is_ai FROM seats WHERE game_id=? ORDER BY seat", (game_id,)
        )
        return [SeatRow(r[0], r[1], r[2], bool(r[3])) for r in rows]

    def _game(self, r: Any, seats: list[SeatRow]) -> GameRow:
        return GameRow(
            id=r[0],
            guild_id=r[1],
            channel_id=r[2],
            thread_id=r[3],
            lobby_message_id=r[4],
            game_key=r[5],
            options=json.loads(r[6]),
            seed=r[7],
            status=r[8],
            version=r[9],
            moves=r[10],
            host_id=r[11],
            state=json.loads(r[12]) if r[12] else None,
            result=json.loads(r[13]) if r[13] else None,
            created_at=r[14],
            updated_at=r[15],
            turn_since=r[16],
            seats=seats,
            settings=json.loads(r[17]),
        )

    async def get(self, game_id: int) -> GameRow | None:
        rows = await self.db.execute_fetchall(f"SELECT {_GAME_COLS} FROM games WHERE id=?", (game_id,))
        if not rows:
            return None
        return self._game(list(rows)[0], await self._seats(game_id))

    async def by_thread(self, thread_id: int) -> GameRow | None:
        rows = await self.db.execute_fetchall(
            f"SELECT {_GAME_COLS} FROM games WHERE thread_id=? OR lobby_message_id=? ORDER BY id DESC LIMIT 1",
            (thread_id, thread_id),
        )
        if not rows:
            return None
        r = list(rows)[0]
        return self._game(r, await self._seats(r[0]))

    async def games_of_user(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        q = (
            f"SELECT {', '.join('g.' + c.strip() for c in _GAME_COLS.split(','))} FROM games g "
            "JOIN seats s ON s.game_id = g.id WHERE s.user_id=? AND s.is_ai=0 "
            "AND g.status IN ('lobby', 'active')"
        )
        args: tuple[Any, ...] = (user_id,)
        if guild_id is not None:
            q += " AND g.guild_id=?"
            args += (guild_id,)
        rows = await self.db.execute_fetchall(q + " ORDER BY g.id", args)
        return [self._game(r, await self._seats(r[0])) for r in rows]

    async def games(self, guild_id: int | None = None, status: str | None = None) -> list[GameRow]:
        q = f"SELECT {_GAME_COLS} FROM games WHERE 1=1"
        args: list[Any] = []
        if guild_id is not None:
            q += " AND guild_id=?"
            args.append(guild_id)
        if status is not None:
            q += " AND status=?"
            args.append(status)
        rows = await self.db.execute_fetchall(q + " ORDER BY id", args)
        return [self._game(r, await self._seats(r[0])) for r in rows]

    async def log(self, game_id: int) -> list[tuple[int, int, str]]:
        rows = await self.db.execute_fetchall(
            "SELECT seq, seat, notation FROM actions WHERE game_id=? AND undone=0 ORDER BY seq", (game_id,)
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def log_full(self, game_id: int) -> list[tuple[int, int, int | None, str, float]]:
        """(seq, seat, user_id, notation, created_at) of the moves that stand."""
        rows = await self.db.execute_fetchall(
            "SELECT seq, seat, user_id, notation, created_at FROM actions WHERE game_id=? AND undone=0 ORDER BY seq",
            (game_id,),
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def count(self) -> int:
        rows = await self.db.execute_fetchall("SELECT count(*) FROM games")
        return int(list(rows)[0][0])

    async def active_with_ai(self) -> list[int]:
        """Ids of running games with an AI seat: the only ones a restart can move on.
        (One query; loading every active game's snapshot took seconds at 10,000 games.)"""
        rows = await self.db.execute_fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.status = 'active' AND s.is_ai = 1 ORDER BY g.id"
        )
        return [r[0] for r in rows]

    # ---- writes --------------------------------------------------------------
    async def create_game(
        self,
        game_key: str,
        options: dict[str, Any],
        seed: int,
        host_id: int | None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> int:
        now = self.clock()
        cur = await self.db.execute(
            "INSERT INTO games (guild_id, channel_id, game_key, options, seed, status, host_id, "
            "created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
            (
                guild_id,
                channel_id,
                game_key,
                json.dumps(options),
                seed,
                host_id,
                now,
                now,
                json.dumps(settings or {}),
            ),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def set_seats(self, game_id: int, version: int, seats: list[SeatRow]) -> int:
        """Replace the lobby's seats, guarded by version. Returns the new version."""
        async with self.transaction():
            await self._bump(game_id, version, status_in=("lobby",))
            await self.db.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
            await self.db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, is_ai) VALUES (?, ?, ?, ?, ?)",
                [(game_id, i, s.user_id, s.name, int(s.is_ai)) for i, s in enumerate(seats)],
            )
        return version + 1

    async def set_refs(self, game_id: int, **refs: int | None) -> None:
        """Discord references (thread, lobby message, channel): not game state, no version bump."""
        allowed = {"thread_id", "lobby_message_id", "channel_id", "guild_id"}
        assert set(refs) <= allowed, refs
        sets = ", ".join(f"{k}=?" for k in refs)
        await self.db.execute(f"UPDATE games SET {sets} WHERE id=?", (*refs.values(), game_id))

    async def _bump(self, game_id: int, version: int, status_in: tuple[str, ...], **cols: Any) -> None:
        now = self.clock()
        sets = "".join(f", {k}=?" for k in cols)
        marks = ",".join("?" * len(status_in))
        cur = await self.db.execute(
            f"UPDATE games SET version=version+1, updated_at=?{sets} "
            f"WHERE id=? AND version=? AND status IN ({marks})",
            (now, *cols.values(), game_id, version, *status_in),
        )
        if cur.rowcount != 1:
            raise Conflict()

    async def start(
        self,
        game_id: int,
        version: int,
        state: dict[str, Any],
        arm: list[tuple[int, str, float]] | None = None,
    ) -> int:
        async with self.transaction():
            await self._bump(
                game_id,
                version,
                ("lobby",),
                status="active",
                state=encode_state(state),
                turn_since=self.clock(),
            )
            await self._timers(game_id, arm or [], [])
        return version + 1

    async def commit_move(
        self,
        game_id: int,
        version: int,
        moves: list[tuple[int, int | None, str]],
        state: dict[str, Any] | str,
        result: dict[str, Any] | None,
        turn_changed: bool,
        arm: list[tuple[int, str, float]] | None = None,
        disarm: list[int] | None = None,
        fired_timer: int | None = None,
    ) -> int:
        """Append ``moves`` (seat, user_id, notation) and write the snapshot, in one
        transaction, only if the game is still at ``version``. Raises Conflict.
        ``state`` is the snapshot, or its text from :func:`encode_state` when the
        caller has encoded it already. In the same transaction: arm timers (seat,
        kind, due), drop the timers of ``disarm`` seats, and consume ``fired_timer``
        (so a deadline fires once)."""
        now = self.clock()
        state_json = state if isinstance(state, str) else encode_state(state)
        result_json = json.dumps(result) if result is not None else None
        async with self._write:
            # The hot path of every move: the whole transaction runs in aiosqlite's
            # worker thread in ONE hop instead of six awaited statements (each hop
            # costs a thread hand-off, which made a save 8-30x a bare SQLite commit;
            # see docs/performance.md). aiosqlite has no public call for this.
            await self.db._execute(
                self._commit_move_sync,
                game_id,
                version,
                moves,
                state_json,
                result_json,
                turn_changed,
                now,
                arm or [],
                disarm or [],
                fired_timer,
            )
        self._wrote()
        return version + 1

    def _commit_move_sync(
        self,
        game_id: int,
        version: int,
        moves: list[tuple[int, int | None, str]],
        state_json: str,
        result_json: str | None,
        turn_changed: bool,
        now: float,
        arm: list[tuple[int, str, float]],
        disarm: list[int],
        fired_timer: int | None,
    ) -> None:
        con = self.db._conn
        con.execute("BEGIN IMMEDIATE")
        try:
            row = con.execute(
                "SELECT moves FROM games WHERE id=? AND version=? AND status='active'", (game_id, version)
            ).fetchone()
            if row is None:
                raise Conflict()
            seq = int(row[0])
            con.executemany(
                "INSERT INTO actions (game_id, seq, seat, user_id, notation, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, seq + i + 1, s, u, n, now) for i, (s, u, n) in enumerate(moves)],
            )
            sets, args = "state=?, moves=?", [state_json, seq + len(moves)]
            if result_json is not None:
                sets, args = sets + ", status='over', result=?", [*args, result_json]
            if turn_changed:
                sets, args = sets + ", turn_since=?", [*args, now]
            cur = con.execute(
                f"UPDATE games SET version=version+1, updated_at=?, {sets} "
                "WHERE id=? AND version=? AND status='active'",
                (now, *args, game_id, version),
            )
            if cur.rowcount != 1:
                raise Conflict()
            if fired_timer is not None:
                if con.execute("DELETE FROM timers WHERE id=?", (fired_timer,)).rowcount != 1:
                    raise Conflict()
            if result_json is not None:
                con.execute("DELETE FROM timers WHERE game_id=?", (game_id,))
            else:
                if disarm:
                    marks = ",".join("?" * len(disarm))
                    con.execute(
                        f"DELETE FROM timers WHERE game_id=? AND seat IN ({marks})", (game_id, *disarm)
                    )
                if arm:
                    con.executemany(
                        "INSERT INTO timers (game_id, seat, kind, due) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (game_id, seat, kind) DO UPDATE SET due=excluded.due",
                        [(game_id, seat, kind, due) for seat, kind, due in arm],
                    )
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")

    async def abandon(self, game_id: int, version: int, fired_timer: int | None = None) -> int:
        async with self.transaction():
            await self._bump(game_id, version, ("lobby", "active"), status="abandoned")
            await self.db.execute("DELETE FROM timers WHERE game_id=?", (game_id,))
        return version + 1

    # ---- timers (reminders and deadlines) -------------------------------------------
    async def _timers(self, game_id: int, arm: list[tuple[int, str, float]], disarm: list[int]) -> None:
        """Inside a transaction: drop the timers of ``disarm`` seats, (re)arm ``arm``."""
        if disarm:
            marks = ",".join("?" * len(disarm))
            await self.db.execute(
                f"DELETE FROM timers WHERE game_id=? AND seat IN ({marks})", (game_id, *disarm)
            )
        if arm:
            await self.db.executemany(
                "INSERT INTO timers (game_id, seat, kind, due) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, kind) DO UPDATE SET due=excluded.due",
                [(game_id, seat, kind, due) for seat, kind, due in arm],
            )

    async def next_due(self) -> float | None:
        rows = list(await self.db.execute_fetchall("SELECT min(due) FROM timers"))
        return rows[0][0] if rows else None

    async def due_timers(self, now: float) -> list[tuple[int, int, int, str, float]]:
        """(id, game_id, seat, kind, due) of every timer due at ``now``, earliest first."""
        rows = await self.db.execute_fetchall(
            "SELECT id, game_id, seat, kind, due FROM timers WHERE due <= ? ORDER BY due, id", (now,)
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def timers_of(self, game_id: int) -> list[tuple[int, int, str, float]]:
        rows = await self.db.execute_fetchall(
            "SELECT id, seat, kind, due FROM timers WHERE game_id=? ORDER BY seat, kind", (game_id,)
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def reschedule(self, timer_id: int, due: float | None) -> bool:
        """Move a timer (or consume it when ``due`` is None). False if it was gone."""
        async with self.transaction():
            if due is None:
                cur = await self.db.execute("DELETE FROM timers WHERE id=?", (timer_id,))
            else:
                cur = await self.db.execute("UPDATE timers SET due=? WHERE id=?", (due, timer_id))
            return cur.rowcount == 1

    async def shift_deadlines(self, user_id: int, by: float, guild_id: int | None = None) -> int:
        """Push the deadlines of every seat ``user_id`` holds by ``by`` seconds."""
        q = (
            "UPDATE timers SET due = due + ? WHERE kind='deadline' AND id IN ("
            "SELECT t.id FROM timers t JOIN seats s ON s.game_id=t.game_id AND s.seat=t.seat "
            "JOIN games g ON g.id=t.game_id WHERE s.user_id=? AND s.is_ai=0"
        )
        args: list[Any] = [by, user_id]
        if guild_id is not None:
            q += " AND g.guild_id=?"
            args.append(guild_id)
        async with self.transaction():
            cur = await self.db.execute(q + ")", args)
            return cur.rowcount

    # ---- the move chooser's half-made moves ---------------------------------------
    async def get_draft(self, game_id: int, user_id: int) -> tuple[int, list[str]] | None:
        """(version, prefix tokens) of ``user_id``'s half-made move in ``game_id``."""
        rows = list(
            await self.db.execute_fetchall(
                "SELECT version, prefix FROM drafts WHERE game_id=? AND user_id=?", (game_id, user_id)
            )
        )
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    async def set_draft(self, game_id: int, user_id: int, version: int, prefix: list[str] | None) -> None:
        """Keep (or, with ``prefix`` None, drop) a half-made move. Not a move: the
        game's version and log are untouched."""
        async with self.transaction():
            if prefix is None:
                await self.db.execute("DELETE FROM drafts WHERE game_id=? AND user_id=?", (game_id, user_id))
            else:
                await self.db.execute(
                    "INSERT INTO drafts (game_id, user_id, version, prefix, updated_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id, user_id) DO UPDATE SET version=excluded.version, "
                    "prefix=excluded.prefix, updated_at=excluded.updated_at",
                    (game_id, user_id, version, json.dumps(prefix), self.clock()),
                )

    # ---- settings, notifications, vacations --------------------------------------
    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        rows = list(
            await self.db.execute_fetchall(
                "SELECT settings FROM guild_settings WHERE guild_id=?", (guild_id,)
            )
        )
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async with self.transaction():
            await self.db.execute(
                "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET settings=excluded.settings",
                (guild_id, json.dumps(settings)),
            )

    async def wants_dm(self, user_id: int) -> bool:
        rows = list(await self.db.execute_fetchall("SELECT dm FROM notify WHERE user_id=?", (user_id,)))
        return bool(rows and rows[0][0])

    async def set_dm(self, user_id: int, on: bool) -> None:
        async with self.transaction():
            await self.db.execute(
                "INSERT INTO notify (user_id, dm) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET dm=excluded.dm",
                (user_id, int(on)),
            )

    async def vacation(self, user_id: int) -> tuple[float, float] | None:
        rows = list(
            await self.db.execute_fetchall("SELECT since, until FROM vacations WHERE user_id=?", (user_id,))
        )
        return (rows[0][0], rows[0][1]) if rows else None

    async def set_vacation(self, user_id: int, since: float, until: float | None) -> None:
        async with self.transaction():
            if until is None:
                await self.db.execute("DELETE FROM vacations WHERE user_id=?", (user_id,))
            else:
                await self.db.execute(
                    "INSERT INTO vacations (user_id, since, until) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET since=excluded.since, until=excluded.until",
                    (user_id, since, until),
                )

    async def hand_to_ai(self, game_id: int, version: int, seat: int) -> int:
        """A running game's seat is taken over by the AI (the player left)."""
        async with self.transaction():
            await self._bump(game_id, version, ("active",))
            await self.db.execute(
                "UPDATE seats SET is_ai=1 WHERE game_id=? AND seat=?",
                (game_id, seat),
            )
            await self.db.execute("DELETE FROM timers WHERE game_id=? AND seat=?", (game_id, seat))
        return version + 1

    # ---- undo ---------------------------------------------------------------------
    async def undo(
        self,
        game_id: int,
        version: int,
        seq: int,
        state: dict[str, Any],
        arm: list[tuple[int, str, float]],
        disarm: list[int],
    ) -> int:
        """Mark move ``seq`` undone and restore ``state``, guarded by ``version``.
        The log row stays (append-only); replays skip undone rows."""
        async with self.transaction():
            await self._bump(
                game_id, version, ("active",), state=encode_state(state), turn_since=self.clock()
            )
            cur = await self.db.execute(
                "UPDATE actions SET undone=1 WHERE game_id=? AND seq=? AND undone=0", (game_id, seq)
            )
            if cur.rowcount != 1:
                raise Conflict()
            await self._timers(game_id, arm, disarm)
        return version + 1

    # ---- issue 22: what reached the thread, pause/extend, seat hand-over, watchers, meta ------
    # Kept together (and in plain SQL: ? placeholders, ON CONFLICT upserts) so a move
    # to another database engine is mechanical.
    async def flags(self, game_id: int) -> tuple[int, int, int]:
        """(paused, extended, posted_version) of a game: paused is the time it was
        paused (0: running), extended the turn it was extended in (0: never)."""
        rows = list(
            await self.db.execute_fetchall(
                "SELECT paused, extended, posted_version FROM games WHERE id=?", (game_id,)
            )
        )
        return (int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else (0, 0, 0)

    async def mark_posted(self, game_id: int, version: int, moves: int) -> bool:
        """The board of ``version`` (after ``moves`` moves) reached the thread. Never
        goes back. False if a newer board was already marked."""
        async with self.transaction():
            cur = await self.db.execute(
                "UPDATE games SET posted_version=? WHERE id=? AND posted_version<?",
                (version, game_id, version),
            )
            if cur.rowcount != 1:
                return False
            await self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                (f"posted_moves:{game_id}", str(moves)),
            )
        return True

    async def posted_moves(self, game_id: int) -> int:
        value = await self.get_meta(f"posted_moves:{game_id}")
        return int(value) if value is not None and value.isdecimal() else 0

    async def owed(self) -> list[int]:
        """Running or finished games whose newest board has not reached their thread."""
        rows = await self.db.execute_fetchall(
            "SELECT id FROM games WHERE status IN ('active', 'over') AND thread_id IS NOT NULL "
            "AND posted_version < version ORDER BY id"
        )
        return [r[0] for r in rows]

    async def mark_all_posted(self) -> int:
        """Once, on the first start that tracks boards: every board so far counts as posted
        (games from before schema 3 all read posted_version 0)."""
        async with self.transaction():
            cur = await self.db.execute(
                "UPDATE games SET posted_version=version WHERE posted_version<version"
            )
            return cur.rowcount

    async def set_paused(self, game_id: int, paused_at: int, shift: float) -> bool:
        """Pause (``paused_at`` > 0) or resume (0) a running game and move its timers by
        ``shift`` seconds, in one transaction. False if it was already so."""
        async with self.transaction():
            want = "paused=0" if paused_at else "paused>0"
            cur = await self.db.execute(
                f"UPDATE games SET paused=? WHERE id=? AND status='active' AND {want}", (paused_at, game_id)
            )
            if cur.rowcount != 1:
                return False
            await self.db.execute("UPDATE timers SET due=due+? WHERE game_id=?", (shift, game_id))
        return True

    async def extend(self, game_id: int, turn: int, by: float) -> int:
        """Push the game's deadlines by ``by`` seconds once for ``turn``; the number of
        deadlines moved (0: already extended this turn, or none running)."""
        async with self.transaction():
            cur = await self.db.execute(
                "UPDATE games SET extended=? WHERE id=? AND status='active' AND extended<>?",
                (turn, game_id, turn),
            )
            if cur.rowcount != 1:
                return 0
            cur = await self.db.execute(
                "UPDATE timers SET due=due+? WHERE game_id=? AND kind='deadline'", (by, game_id)
            )
            if cur.rowcount == 0:
                raise Conflict()  # nothing to extend: undo the mark
            return cur.rowcount

    async def give_seat(self, game_id: int, version: int, seat: int, user_id: int, name: str) -> int:
        """A running game's seat goes to another member (or back from the AI). The old
        holder's half-made move and the seat's timers go; the version moves on."""
        async with self.transaction():
            await self._bump(game_id, version, ("active",))
            old = list(
                await self.db.execute_fetchall(
                    "SELECT user_id FROM seats WHERE game_id=? AND seat=?", (game_id, seat)
                )
            )
            await self.db.execute(
                "UPDATE seats SET user_id=?, name=?, is_ai=0 WHERE game_id=? AND seat=?",
                (user_id, name, game_id, seat),
            )
            await self.db.execute("DELETE FROM timers WHERE game_id=? AND seat=?", (game_id, seat))
            if old and old[0][0] is not None:
                await self.db.execute(
                    "DELETE FROM drafts WHERE game_id=? AND user_id=?", (game_id, old[0][0])
                )
        return version + 1

    async def arm(self, game_id: int, arm: list[tuple[int, str, float]]) -> None:
        async with self.transaction():
            await self._timers(game_id, arm, [])

    async def set_watch(self, game_id: int, user_id: int, on: bool) -> None:
        async with self.transaction():
            if on:
                await self.db.execute(
                    "INSERT INTO watchers (game_id, user_id) VALUES (?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
                    (game_id, user_id),
                )
            else:
                await self.db.execute(
                    "DELETE FROM watchers WHERE game_id=? AND user_id=?", (game_id, user_id)
                )

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self.db.execute_fetchall(
            "SELECT user_id FROM watchers WHERE game_id=? ORDER BY user_id", (game_id,)
        )
        return [r[0] for r in rows]

    async def lobbies(self) -> list[tuple[int, int | None, int | None, float, int]]:
        """(id, guild_id, thread_id, updated_at, version) of every lobby not yet started."""
        rows = await self.db.execute_fetchall(
            "SELECT id, guild_id, thread_id, updated_at, version FROM games WHERE status='lobby' ORDER BY id"
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def get_meta(self, key: str) -> str | None:
        rows = list(await self.db.execute_fetchall("SELECT value FROM meta WHERE key=?", (key,)))
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        async with self.transaction():
            await self.db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                (key, value),
            )


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]
