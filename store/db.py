"""Storage: schema migrations, games, seats, the action log, timers, on SQLite
(aiosqlite, WAL; the default) or PostgreSQL (asyncpg), chosen by the target:
a file path or a ``postgresql://`` URL.

Every change to a game goes through :meth:`Store.commit_move` or the other
writers here, each a single transaction. A move appends its log row and writes
the new snapshot in one transaction guarded by the game's version, so two racing
clicks apply exactly once, also from two processes: the game's row is locked
for the transaction (``SELECT ... FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE``
on SQLite) and the version is checked under that lock.

Each query is written once, in the SQL both engines share (``?`` placeholders,
``ON CONFLICT ... DO UPDATE``, ``RETURNING``); the differences are in
:mod:`store.backends`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from store.backends import (
    APPLICATION_ID,
    DEFAULT_TIMEOUT,
    Body,
    CommitUnknown,
    DatabaseTimeout,
    PgBackend,
    SqliteBackend,
    StoreError,
    budget,
    check_file,
    execute,
    executemany,
    fetch,
    is_postgres,
)

log = logging.getLogger(__name__)

__all__ = [
    "APPLICATION_ID",
    "MIGRATIONS",
    "PG_MIGRATIONS",
    "Conflict",
    "GameRow",
    "PlaceRow",
    "SeatRow",
    "Store",
]
__all__ += ["StoreError", "check_file", "encode_state", "DatabaseTimeout", "CommitUnknown", "budget"]

# One schema history, numbered alike for both engines: MIGRATIONS[i] and
# PG_MIGRATIONS[i] both move the schema from version i to i+1 and leave the same
# tables and columns (tests/test_store.py compares them). Never edit a released
# entry; append a new one to BOTH lists.
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
    # 4: timers are claimed for a while (a lease) by the process that fires them,
    #    so several processes sharing a database fire each one once
    """
    ALTER TABLE timers ADD COLUMN claimed_until REAL;
    """,
    # 5: rules revisions (issue 27). ``revision``: the rules revision a game was
    #    begun under; ``upgrades``: its upgrade points, a JSON list of
    #    {"at": moves in the log before the carry, "from": n, "to": m, "told": bool}.
    #    Games stored by a schema <= 2 release (f63664e) were played under rules
    #    revision 1, by schemas 3-4 (up to 4f183ac) under revision 2; {from_schema}
    #    is the schema the database had when this step began (store/backends.py).
    """
    ALTER TABLE games ADD COLUMN revision INTEGER;
    ALTER TABLE games ADD COLUMN upgrades TEXT NOT NULL DEFAULT '[]';
    UPDATE games SET revision = CASE WHEN {from_schema} <= 2 THEN 1 ELSE 2 END WHERE state IS NOT NULL;
    """,
    # 6: a computer seat's strength (issue 30): "easy", "normal" or "hard"; NULL for
    #    people. AI seats stored by earlier releases keep NULL and play as "easy",
    #    the player their game was started with (SeatRow.level).
    """
    ALTER TABLE seats ADD COLUMN ai_level TEXT;
    """,  # 7: "Play again" (issue 41): a lobby opened from a finished game's board, and
    #    the people seated in it who have not confirmed yet (a JSON list of user ids)
    """
    CREATE TABLE rematches (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        of_game INTEGER NOT NULL REFERENCES games(id),
        waiting TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX rematches_of ON rematches(of_game);
    CREATE INDEX games_by_guild_ended ON games(guild_id, updated_at);
    CREATE TABLE rating_cache (
        guild_id INTEGER NOT NULL,
        unfinished INTEGER NOT NULL,
        book TEXT NOT NULL,
        PRIMARY KEY (guild_id, unfinished)
    );
    """,
    # 8: the hints a seat asked for (issue 40 point 7), counted for the final board.
    """
    ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
    # 9: a move's idempotency key (issue 39): the interaction that made it (a
    #    component's custom id and its user, or a typed command's interaction id),
    #    kept with the move in its transaction, so a retried click is answered with
    #    what became of the first one and never applied twice. NULL for the bot's
    #    own moves and for moves of earlier releases.
    """
    ALTER TABLE actions ADD COLUMN move_key TEXT;
    CREATE UNIQUE INDEX actions_by_move_key ON actions(game_id, move_key);
    """,
    # 10: the games to carry to newer rules are found from an index (issue 39): the
    #    columns sit after the snapshot, which a scan of the table would read through.
    """
    CREATE INDEX games_by_revision ON games(revision, game_key, upgrades);
    """,
    # 11: each seat's lasting private place (issue 37): the DM channel or private
    #    thread where the bot puts a person's turn, the turn message now there and the
    #    game version it shows (a turn is put there once), or why none could be had.
    """
    CREATE TABLE places (
        game_id INTEGER NOT NULL REFERENCES games(id),
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('dm', 'thread')),
        channel_id INTEGER,
        message_id INTEGER,
        version INTEGER NOT NULL DEFAULT 0,
        problem TEXT,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX places_by_user ON places(user_id);
    """,
    # 12: a process making a move claims the board it will post (issue 37): until the
    #    claim lapses, the poster of owed boards of other processes leaves that game
    #    alone, so one process posts a turn's board and delivers its turns.
    """
    CREATE TABLE board_claims (
        game_id INTEGER NOT NULL REFERENCES games(id),
        owner TEXT NOT NULL,
        until REAL NOT NULL,
        PRIMARY KEY (game_id, owner)
    );
    """,
]

# PostgreSQL spelling of the same history: Discord ids and seeds are BIGINT,
# times DOUBLE PRECISION, row ids identity columns (BY DEFAULT, so `bot.py migrate`
# can copy the ids of an SQLite database).
PG_MIGRATIONS: list[str] = [
    # 1
    """
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT,
        thread_id BIGINT,
        lobby_message_id BIGINT,
        game_key TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'over', 'abandoned')),
        version INTEGER NOT NULL DEFAULT 0,
        moves INTEGER NOT NULL DEFAULT 0,
        host_id BIGINT,
        state TEXT,
        result TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        turn_since DOUBLE PRECISION
    );
    CREATE INDEX games_by_thread ON games(thread_id);
    CREATE INDEX games_by_guild_status ON games(guild_id, status);
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        user_id BIGINT,
        name TEXT NOT NULL,
        is_ai INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_by_user ON seats(user_id);
    CREATE TABLE actions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id BIGINT,
        notation TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        UNIQUE (game_id, seq)
    );
    """,
    # 2
    """
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE actions ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE notify (
        user_id BIGINT PRIMARY KEY,
        dm INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE vacations (
        user_id BIGINT PRIMARY KEY,
        since DOUBLE PRECISION NOT NULL,
        until DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE timers (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('reminder', 'deadline')),
        due DOUBLE PRECISION NOT NULL,
        UNIQUE (game_id, seat, kind)
    );
    CREATE INDEX timers_by_due ON timers(due);
    """,
    # 3
    """
    CREATE TABLE drafts (
        game_id BIGINT NOT NULL REFERENCES games(id),
        user_id BIGINT NOT NULL,
        version INTEGER NOT NULL,
        prefix TEXT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN extended INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN posted_version INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE watchers (
        game_id BIGINT NOT NULL REFERENCES games(id),
        user_id BIGINT NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 4
    """
    ALTER TABLE timers ADD COLUMN claimed_until DOUBLE PRECISION;
    """,
    # 5
    """
    ALTER TABLE games ADD COLUMN revision INTEGER;
    ALTER TABLE games ADD COLUMN upgrades TEXT NOT NULL DEFAULT '[]';
    UPDATE games SET revision = CASE WHEN {from_schema} <= 2 THEN 1 ELSE 2 END WHERE state IS NOT NULL;
    """,
    # 6
    """
    ALTER TABLE seats ADD COLUMN ai_level TEXT;
    """,  # 7
    """
    CREATE TABLE rematches (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        of_game BIGINT NOT NULL REFERENCES games(id),
        waiting TEXT NOT NULL DEFAULT '[]'
    );
    CREATE INDEX rematches_of ON rematches(of_game);
    CREATE INDEX games_by_guild_ended ON games(guild_id, updated_at);
    CREATE TABLE rating_cache (
        guild_id BIGINT NOT NULL,
        unfinished INTEGER NOT NULL,
        book TEXT NOT NULL,
        PRIMARY KEY (guild_id, unfinished)
    );
    """,
    # 8
    """
    ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
    # 7
    """
    ALTER TABLE actions ADD COLUMN move_key TEXT;
    CREATE UNIQUE INDEX actions_by_move_key ON actions(game_id, move_key);
    """,
    # 7
    """
    CREATE INDEX games_by_revision ON games(revision, game_key, upgrades);
    """,
    # 7
    """
    CREATE TABLE places (
        game_id BIGINT NOT NULL REFERENCES games(id),
        user_id BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('dm', 'thread')),
        channel_id BIGINT,
        message_id BIGINT,
        version INTEGER NOT NULL DEFAULT 0,
        problem TEXT,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX places_by_user ON places(user_id);
    """,
    # 12
    """
    CREATE TABLE board_claims (
        game_id BIGINT NOT NULL REFERENCES games(id),
        owner TEXT NOT NULL,
        until DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, owner)
    );
    """,
]

# How long (seconds) a process's claim of a game's next board holds (board_claims),
# taken in each transaction that moves a game on: longer than the computer players'
# thinking after a move and the board's posting take. The poster of owed boards of
# other processes leaves the game alone meanwhile (it would post the turn's board
# without knowing who clicked: the mover notified again, or a turn delivered twice);
# a process that stops leaves the board to the others after that.
BOARD_CLAIM = 120.0

# The tables every schema version has (foreign/damaged checks, `bot.py migrate`).
TABLES: tuple[str, ...] = ("games", "seats", "actions", "guild_settings", "notify", "vacations", "timers")
TABLES += ("drafts", "watchers", "meta", "rematches", "rating_cache", "places", "board_claims")


def encode_state(state: dict[str, Any]) -> str:
    """A snapshot as stored: compact JSON (no spaces after separators: 5-10% fewer
    bytes to write and to read back, for the same dict)."""
    return json.dumps(state, separators=(",", ":"))


class Conflict(Exception):
    """The game changed between load and save (a race or a stale click)."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    name: str
    is_ai: bool
    # A computer seat's strength (schema 6): "easy", "normal", "hard"; None for
    # people, and for AI seats stored before schema 6 (they play as "easy").
    ai_level: str | None = None

    @property
    def level(self) -> str:
        """The strength this computer seat plays at: a seat stored by an earlier
        release (no level) keeps today's player, the one its game started with."""
        return self.ai_level or "easy"

    # Hints this seat asked for (schema 8, issue 40): said on the final board.
    hints: int = 0


@dataclass
class PlaceRow:
    """A person's lasting private place in one game (tables/place.py)."""

    game_id: int
    user_id: int
    kind: str  # dm | thread
    channel_id: int | None
    message_id: int | None  # the turn message there now (the only one with live buttons)
    version: int  # the game version whose turn that message shows
    # why no place could be had (closed | permission), or "left": the person left the game
    # (their message there was closed); None: it works
    problem: str | None = None


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
    # The rules revision the game was begun under (None: not started) and its
    # upgrade points (schema 5; tables/replay.py reads them).
    revision: int | None = None
    upgrades: list[dict[str, Any]] = field(default_factory=list)

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_ai:
                return s.seat
        return None


_GAME_COLS = (
    "id, guild_id, channel_id, thread_id, lobby_message_id, game_key, options, seed, status, "
    "version, moves, host_id, state, result, created_at, updated_at, turn_since, settings, "
    "revision, upgrades"
)

_ARM = (
    "INSERT INTO timers (game_id, seat, kind, due) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (game_id, seat, kind) DO UPDATE SET due=excluded.due, claimed_until=NULL"
)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """Discord's rule: a guild's events go to shard (guild_id >> 22) % shard_count;
    events without a guild go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


class Store:
    # How long a claimed timer stays with the process that claimed it: if that
    # process dies, another fires the timer after this many seconds.
    TIMER_LEASE = 120.0
    CLAIM_BATCH = 100

    def __init__(
        self,
        target: str,
        clock: Callable[[], float] = time.time,
        shards: tuple[Sequence[int], int] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.path = target
        self.clock = clock
        self.postgres = is_postgres(target)
        self.backend: SqliteBackend | PgBackend = (
            PgBackend(target, timeout=timeout) if self.postgres else SqliteBackend(target, timeout=timeout)
        )
        self.d = self.backend.dialect
        # Set when a timer is armed, here or (PostgreSQL) in any other process: the
        # scheduler waits on it instead of polling.
        self.wake = asyncio.Event()
        self._shard_sql = ""
        # (this process's shard ids, the shard count) when it runs only some shards.
        self._shards: tuple[list[int], int] | None = None
        # This process, as the owner of the boards it claims (board_claims): the same
        # after a restart (its shards), so a board it claimed before a crash is its
        # own to post at once, not after the claim lapses.
        self.owner = "bot"
        self._claimed: dict[int, float] = {}  # when this process last wrote a game's claim
        if shards is not None:
            self.set_shards(*shards)

    def set_shards(self, shard_ids: Sequence[int], shard_count: int) -> None:
        """This process serves only the guilds of ``shard_ids`` (and, with shard 0,
        guild-less games): their timers and restart work. All shards: no filter."""
        ids = sorted({int(i) for i in shard_ids})
        if not ids or any(not 0 <= i < shard_count for i in ids):
            raise ValueError(f"shards {ids} are not within 0..{shard_count - 1}")
        self.owner = "shards " + ",".join(map(str, ids))
        self._shards = None
        if len(ids) == shard_count:
            self._shard_sql = ""
        else:
            self._shards = (ids, int(shard_count))
            self._shard_sql = self._shard_filter(ids, shard_count)

    @staticmethod
    def _shard_filter(ids: Sequence[int], shard_count: int) -> str:
        # Integers we made, inlined: the same text on both engines, no placeholders.
        return f" AND ((COALESCE(g.guild_id, 0) >> 22) % {int(shard_count)}) IN ({', '.join(map(str, ids))})"

    def _alive_key(self, shard: int) -> str:
        assert self._shards is not None
        return f"shard_alive:{self._shards[1]}:{shard}"

    def _take_over(self, now: float) -> Body[str]:
        """Inside the claiming transaction: renew this process's lease on its shards
        (a sign of life, TIMER_LEASE seconds long) and return the shard filter for
        claiming: its own shards, and every other shard whose lease ran out (its
        process died or hangs), so their due timers still fire."""
        assert self._shards is not None
        mine, count = self._shards
        until = repr(now + self.TIMER_LEASE)
        yield executemany(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
            [(self._alive_key(i), until) for i in mine],
        )
        rows = yield fetch("SELECT key, value FROM meta WHERE key LIKE ?", f"shard_alive:{count}:%")
        alive = {str(k): float(v) for k, v in rows}
        # A shard no process ever ran waits for its process (it may be starting).
        orphans = [i for i in range(count) if i not in mine and alive.get(self._alive_key(i), now + 1) <= now]
        if orphans:
            log.info("firing the due timers of shards %s: no live process holds them", orphans)
        return self._shard_filter(sorted(mine + orphans), count)

    @property
    def timeout(self) -> float:
        """Seconds any query or transaction may take before it is given up
        (:class:`DatabaseTimeout`); LAIRKEEPER_DB_TIMEOUT, 5 by default."""
        return self.backend.timeout

    @timeout.setter
    def timeout(self, seconds: float) -> None:
        self.backend.timeout = float(seconds)

    def budget(self, seconds: float | None = None) -> Any:
        """A context in which every query shares one deadline (default: the time limit)."""
        return budget(self.timeout if seconds is None else seconds)

    @property
    def db(self) -> aiosqlite.Connection:
        """The aiosqlite connection (SQLite only: benchmarks and SQLite-specific tests)."""
        assert isinstance(self.backend, SqliteBackend), "Store.db is the SQLite connection"
        return self.backend.db

    async def open(self) -> Store:
        await self.backend.open(PG_MIGRATIONS if self.postgres else MIGRATIONS)
        return self

    async def listen(self) -> None:
        """Also set ``wake`` when another process arms a timer (PostgreSQL: LISTEN on
        a connection of its own; SQLite: one process a file, nothing to hear). Only
        the process that runs the timer loop needs it."""
        await self.backend.listen(self.wake.set)

    async def close(self) -> None:
        await self.backend.close()

    async def schema_version(self) -> int:
        return await self.backend.schema_version()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:
        """An ad-hoc transaction with ``fetch``/``execute``/``executemany`` (``?``
        placeholders on both engines), for tools and tests."""
        async with self.backend.transaction() as tx:
            yield tx

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self.backend.fetch(sql, args)

    async def _tx(self, make: Callable[[], Body[Any]]) -> Any:
        try:
            return await self.backend.run(make)
        except BaseException:
            self._claimed.clear()  # a claim written in it may be rolled back: write it again
            raise

    # ---- reads ---------------------------------------------------------------
    async def _seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch(
            "SELECT seat, user_id, name, is_ai, ai_level, hints FROM seats WHERE game_id=? ORDER BY seat",
            game_id,
        )
        return [SeatRow(r[0], r[1], r[2], bool(r[3]), r[4], r[5]) for r in rows]

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
            revision=r[18],
            upgrades=json.loads(r[19]),
        )

    async def get(self, game_id: int) -> GameRow | None:
        rows = await self._fetch(f"SELECT {_GAME_COLS} FROM games WHERE id=?", game_id)
        if not rows:
            return None
        return self._game(rows[0], await self._seats(game_id))

    async def by_thread(self, thread_id: int) -> GameRow | None:
        rows = await self._fetch(
            f"SELECT {_GAME_COLS} FROM games WHERE thread_id=? OR lobby_message_id=? ORDER BY id DESC LIMIT 1",
            thread_id,
            thread_id,
        )
        if not rows:
            return None
        return self._game(rows[0], await self._seats(rows[0][0]))

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
        rows = await self._fetch(q + " ORDER BY g.id", *args)
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
        rows = await self._fetch(q + " ORDER BY id", *args)
        return [self._game(r, await self._seats(r[0])) for r in rows]

    async def log(self, game_id: int) -> list[tuple[int, int, str]]:
        rows = await self._fetch(
            "SELECT seq, seat, notation FROM actions WHERE game_id=? AND undone=0 ORDER BY seq", game_id
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def log_full(self, game_id: int) -> list[tuple[int, int, int | None, str, float]]:
        """(seq, seat, user_id, notation, created_at) of the moves that stand."""
        rows = await self._fetch(
            "SELECT seq, seat, user_id, notation, created_at FROM actions WHERE game_id=? AND undone=0 ORDER BY seq",
            game_id,
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    # ---- ended games (ratings, /stats; issue 41) ----------------------------------------
    @staticmethod
    def _ended_filter(guild_id: int | None, after: tuple[float, int] | None) -> tuple[str, list[Any]]:
        where = "g.status IN ('over', 'abandoned') AND " + (
            "g.guild_id=?" if guild_id is not None else "g.guild_id IS NULL"
        )
        args: list[Any] = [guild_id] if guild_id is not None else []
        if after is not None:
            where += " AND (g.updated_at > ? OR (g.updated_at = ? AND g.id > ?))"
            args += [after[0], after[0], after[1]]
        return where, args

    async def ended(
        self, guild_id: int | None, after: tuple[float, int] | None = None, states: bool = False
    ) -> list[tuple[int, str, str, dict[str, Any] | None, float, list[SeatRow], dict[str, Any] | None]]:
        """(id, game key, status, result, ended, seats, snapshot) of a server's games that
        are over or abandoned, in the order they ended (``updated_at``, then id), after
        ``after`` (an (ended, id) pair). No snapshots unless ``states`` (then only an
        abandoned game's): the rest of a finished game is its result."""
        where, args = self._ended_filter(guild_id, after)
        state = "CASE WHEN g.status = 'abandoned' THEN g.state END" if states else "NULL"
        rows = await self._fetch(
            f"SELECT g.id, g.game_key, g.status, g.result, g.updated_at, {state}, "
            "s.seat, s.user_id, s.name, s.is_ai, s.ai_level "
            # LEFT JOIN: a lobby closed before anyone sat down is an ended game too (the
            # count the kept ratings are checked by includes it).
            f"FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE {where} ORDER BY g.updated_at, g.id, s.seat",
            *args,
        )
        out: list[Any] = []
        for r in rows:
            if not out or out[-1][0] != r[0]:
                result = json.loads(r[3]) if r[3] else None
                out.append((r[0], r[1], r[2], result, r[4], [], json.loads(r[5]) if r[5] else None))
            if r[6] is not None:
                out[-1][5].append(SeatRow(r[6], r[7], r[8], bool(r[9]), r[10]))
        return out

    async def ended_count(self, guild_id: int | None) -> int:
        where, args = self._ended_filter(guild_id, None)
        rows = await self._fetch(f"SELECT count(*) FROM games g WHERE {where}", *args)
        return int(rows[0][0])

    async def replaced(self, guild_id: int | None, ids: list[int] | None = None) -> set[int]:
        """Ids of a server's ended games (all, or those of ``ids``) where a person's
        seat changed hands mid-game: the computer took it over (the seat still names
        its person), or a move of the seat was made by another person than its last holder."""
        where, args = self._ended_filter(guild_id, None)
        if ids is not None:
            if not ids:
                return set()
            where += f" AND g.id IN ({', '.join(str(int(i)) for i in ids)})"
        rows = await self._fetch(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE {where} AND s.is_ai = 1 AND s.user_id IS NOT NULL "
            "UNION SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "JOIN actions a ON a.game_id = s.game_id AND a.seat = s.seat "
            f"WHERE {where} AND a.user_id IS NOT NULL AND (s.user_id IS NULL OR a.user_id <> s.user_id)",
            *args,
            *args,
        )
        return {int(r[0]) for r in rows}

    # ---- "Play again" (issue 41) ------------------------------------------------------
    async def ratings_cached(self, guild_id: int | None, unfinished: bool) -> str | None:
        rows = await self._fetch(
            "SELECT book FROM rating_cache WHERE guild_id=? AND unfinished=?", guild_id or 0, int(unfinished)
        )
        return str(rows[0][0]) if rows else None

    async def kept_ratings_head(self, guild_id: int | None, unfinished: bool) -> str | None:
        """The start of a server's kept ratings (where their format is written), without
        reading a whole book: whether a start-up must rebuild them (tables/stats.py)."""
        rows = await self._fetch(
            "SELECT substr(book, 1, 24) FROM rating_cache WHERE guild_id=? AND unfinished=?",
            guild_id or 0,
            int(unfinished),
        )
        return str(rows[0][0]) if rows else None

    async def cache_ratings(self, guild_id: int | None, unfinished: bool, book: str) -> None:
        await self.backend.write(
            "INSERT INTO rating_cache (guild_id, unfinished, book) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, unfinished) DO UPDATE SET book=excluded.book",
            (guild_id or 0, int(unfinished), book),
        )

    async def add_rematch(self, game_id: int, of_game: int, waiting: list[int]) -> None:
        await self.backend.write(
            "INSERT INTO rematches (game_id, of_game, waiting) VALUES (?, ?, ?)",
            (game_id, of_game, json.dumps(waiting)),
        )

    async def newer_at_table(
        self, game_id: int, guild_id: int | None, channel_id: int | None, game_key: str
    ) -> list[int]:
        """Ids of games of ``game_key`` opened in the same channel after ``game_id`` (a
        table's later games), leaving out lobbies closed before they started."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE id > ? AND game_key = ? AND channel_id IS NOT DISTINCT FROM ? "
            "AND guild_id IS NOT DISTINCT FROM ? AND (status <> 'abandoned' OR state IS NOT NULL) ORDER BY id",
            game_id,
            game_key,
            channel_id,
            guild_id,
        )
        return [int(r[0]) for r in rows]

    async def rematch_of(self, of_game: int) -> int | None:
        """The lobby Play again opened from ``of_game``, if any."""
        rows = await self._fetch("SELECT max(game_id) FROM rematches WHERE of_game=?", of_game)
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def waiting(self, game_id: int) -> list[int]:
        """People seated by Play again in lobby ``game_id`` who have not confirmed yet."""
        rows = await self._fetch("SELECT waiting FROM rematches WHERE game_id=?", game_id)
        return [int(u) for u in json.loads(rows[0][0])] if rows else []

    async def set_waiting(self, game_id: int, waiting: list[int]) -> None:
        await self.backend.write(
            "UPDATE rematches SET waiting=? WHERE game_id=?", (json.dumps(waiting), game_id)
        )

    async def move_by_key(self, game_id: int, key: str) -> int | None:
        """The log number of the move ``key`` made in ``game_id`` (None: it made none)."""
        rows = await self._fetch("SELECT seq FROM actions WHERE game_id=? AND move_key=?", game_id, key)
        return int(rows[0][0]) if rows else None

    async def running_seats(self, user_id: int) -> list[tuple[Any, ...]]:
        """Every running game, in every server, where ``user_id`` holds a seat, in one
        query (seats_by_user, then each game and its deadline by key): (game id,
        guild id, thread id, game key, snapshot text, turn since, the seat, paused,
        the seat's deadline or None). The snapshot stays text: the caller decides
        whose turn it is (tables/waiting.py)."""
        rows = await self._fetch(
            "SELECT g.id, g.guild_id, g.thread_id, g.game_key, g.state, COALESCE(g.turn_since, g.created_at), "
            "s.seat, g.paused, t.due FROM seats s JOIN games g ON g.id = s.game_id "
            "LEFT JOIN timers t ON t.game_id = g.id AND t.seat = s.seat AND t.kind = 'deadline' "
            "WHERE s.user_id = ? AND s.is_ai = 0 AND g.status = 'active' ORDER BY g.id",
            user_id,
        )
        return [tuple(r) for r in rows]

    async def count(self) -> int:
        rows = await self._fetch("SELECT count(*) FROM games")
        return int(rows[0][0])

    async def active_with_ai(self) -> list[int]:
        """Ids of running games with an AI seat (of this process's shards): the only
        ones a restart can move on. (One query; loading every active game's snapshot
        took seconds at 10,000 games.)"""
        rows = await self._fetch(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            f"WHERE g.status = 'active' AND s.is_ai = 1{self._shard_sql} ORDER BY g.id"
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
        sql = (
            "INSERT INTO games (guild_id, channel_id, game_key, options, seed, status, host_id, "
            "created_at, updated_at, settings) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING id"
        )
        args = (guild_id, channel_id, game_key, json.dumps(options), seed, host_id, now, now)

        def body() -> Body[int]:
            rows = yield fetch(sql, *args, json.dumps(settings or {}))
            return int(rows[0][0])

        return int(await self._tx(body))

    async def set_seats(self, game_id: int, version: int, seats: list[SeatRow]) -> int:
        """Replace the lobby's seats, guarded by version. Returns the new version."""

        def body() -> Body[None]:
            yield from self._bump(game_id, version, ("lobby",))
            yield execute("DELETE FROM seats WHERE game_id=?", game_id)
            yield executemany(
                "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (game_id, i, s.user_id, s.name, int(s.is_ai), s.ai_level if s.is_ai else None)
                    for i, s in enumerate(seats)
                ],
            )

        await self._tx(body)
        return version + 1

    async def set_lobby_settings(self, game_id: int, version: int, settings: dict[str, Any]) -> int:
        """Replace a lobby's game settings (the host's choices before the start),
        guarded by version. Returns the new version."""

        def body() -> Body[None]:
            yield from self._bump(game_id, version, ("lobby",))
            yield execute("UPDATE games SET settings=? WHERE id=?", json.dumps(settings), game_id)

        await self._tx(body)
        return version + 1

    async def set_refs(self, game_id: int, **refs: int | None) -> None:
        """Discord references (thread, lobby message, channel): not game state, no version bump."""
        allowed = {"thread_id", "lobby_message_id", "channel_id", "guild_id"}
        assert set(refs) <= allowed, refs
        sets = ", ".join(f"{k}=?" for k in refs)
        await self.backend.write(f"UPDATE games SET {sets} WHERE id=?", (*refs.values(), game_id))

    def _bump(self, game_id: int, version: int, status_in: tuple[str, ...], **cols: Any) -> Body[None]:
        """Inside a transaction: the version guard. Raises Conflict."""
        now = self.clock()
        sets = "".join(f", {k}=?" for k in cols)
        marks = ",".join("?" * len(status_in))
        n = yield execute(
            f"UPDATE games SET version=version+1, updated_at=?{sets} "
            f"WHERE id=? AND version=? AND status IN ({marks})",
            now,
            *cols.values(),
            game_id,
            version,
            *status_in,
        )
        if n != 1:
            raise Conflict()
        if cols.get("status", status_in[-1]) == "active":  # a running game moved on: a board comes
            yield from self._claim(game_id)

    def _claim(self, game_id: int) -> Body[None]:
        """Inside a transaction that moved a game on: this process claims the board it
        will post (``BOARD_CLAIM``). Not again while a quarter of its own claim has not
        run out: a page more in every save (the WAL grew 20 % in a stream of saves)."""
        now = time.time()
        if now - self._claimed.get(game_id, -BOARD_CLAIM) < BOARD_CLAIM / 4:
            return
        self._claimed[game_id] = now
        yield execute(
            "INSERT INTO board_claims (game_id, owner, until) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, owner) DO UPDATE SET until=excluded.until",
            game_id,
            self.owner,
            now + BOARD_CLAIM,
        )

    def _armed(self, arm: Sequence[Any]) -> Body[None]:
        """Inside a transaction that armed timers: tell the other processes."""
        if arm and self.d.notify:
            yield fetch(self.d.notify)

    def _after(self, armed: bool) -> None:
        if armed:
            self.wake.set()

    async def start(
        self,
        game_id: int,
        version: int,
        state: dict[str, Any],
        arm: list[tuple[int, str, float]] | None = None,
    ) -> int:
        def body() -> Body[None]:
            yield from self._bump(
                game_id,
                version,
                ("lobby",),
                status="active",
                state=encode_state(state),
                turn_since=self.clock(),
                revision=state.get("revision"),
            )
            yield from self._timers(game_id, arm or [], [])

        await self._tx(body)
        self._after(bool(arm))
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
        key: str | None = None,
    ) -> int:
        """Append ``moves`` (seat, user_id, notation) and write the snapshot, in one
        transaction, only if the game is still at ``version``. Raises Conflict.
        ``state`` is the snapshot, or its text from :func:`encode_state` when the
        caller has encoded it already. ``turn_changed``: the move began a new turn
        (the thread is owed its board); a move inside a turn keeps a thread that was
        up to date so. In the same transaction: arm timers (seat,
        kind, due), drop the timers of ``disarm`` seats, and consume ``fired_timer``
        (so a deadline fires once). ``key``: the idempotency key of the interaction
        that made the first move, kept on its log row (:meth:`move_by_key`).
        The process saving the move claims the board it will post (``_claim``)."""
        now = self.clock()
        state_json = state if isinstance(state, str) else encode_state(state)
        result_json = json.dumps(result) if result is not None else None
        arm = (arm or []) if result_json is None else []
        body = self._commit_move_body
        await self._tx(
            lambda: body(
                game_id,
                version,
                moves,
                state_json,
                result_json,
                turn_changed,
                now,
                arm,
                disarm,
                fired_timer,
                key,
            )
        )
        self._after(bool(arm))
        return version + 1

    def _commit_move_body(
        self,
        game_id: int,
        version: int,
        moves: list[tuple[int, int | None, str]],
        state_json: str,
        result_json: str | None,
        turn_changed: bool,
        now: float,
        arm: list[tuple[int, str, float]],
        disarm: list[int] | None,
        fired_timer: int | None,
        key: str | None = None,
    ) -> Body[None]:
        # The row lock (PostgreSQL) holds any other process's save of this game
        # until this one commits; it then finds the version moved on.
        rows = yield fetch(
            f"SELECT moves FROM games WHERE id=? AND version=? AND status='active'{self.d.for_update}",
            game_id,
            version,
        )
        if not rows:
            raise Conflict()
        seq = int(rows[0][0])
        yield executemany(
            "INSERT INTO actions (game_id, seq, seat, user_id, notation, created_at, move_key) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, seq + i + 1, s, u, n, now, key if i == 0 else None)
                for i, (s, u, n) in enumerate(moves)
            ],
        )
        sets, args = "state=?, moves=?", [state_json, seq + len(moves)]
        if result_json is not None:
            sets, args = sets + ", status='over', result=?", [*args, result_json]
        if turn_changed:
            sets, args = sets + ", turn_since=?", [*args, now]
        else:
            # A move inside the same turn owes the thread no board (one board a turn,
            # issue 26): if the thread was up to date, it stays so. A board still owed
            # (posted_version behind) stays owed. Right-hand columns are the old row's.
            sets += ", posted_version = CASE WHEN posted_version = version THEN version + 1 ELSE posted_version END"
        n = yield execute(
            f"UPDATE games SET version=version+1, updated_at=?, {sets} WHERE id=? AND version=? AND status='active'",
            now,
            *args,
            game_id,
            version,
        )
        if n != 1:
            raise Conflict()
        yield from self._claim(game_id)
        if fired_timer is not None:
            if (yield execute("DELETE FROM timers WHERE id=?", fired_timer)) != 1:
                raise Conflict()
        if result_json is not None:
            yield execute("DELETE FROM timers WHERE game_id=?", game_id)
        elif arm or disarm:
            yield from self._timers(game_id, arm, disarm or [])

    async def abandon(self, game_id: int, version: int, fired_timer: int | None = None) -> int:
        def body() -> Body[None]:
            yield from self._bump(game_id, version, ("lobby", "active"), status="abandoned")
            yield execute("DELETE FROM timers WHERE game_id=?", game_id)

        await self._tx(body)
        return version + 1

    # ---- timers (reminders and deadlines) -------------------------------------------
    def _timers(self, game_id: int, arm: list[tuple[int, str, float]], disarm: list[int]) -> Body[None]:
        """Inside a transaction: drop the timers of ``disarm`` seats, (re)arm ``arm``."""
        if disarm:
            marks = ",".join("?" * len(disarm))
            yield execute(f"DELETE FROM timers WHERE game_id=? AND seat IN ({marks})", game_id, *disarm)
        if arm:
            yield executemany(_ARM, [(game_id, seat, kind, due) for seat, kind, due in arm])
            yield from self._armed(arm)

    # When a process may next have work: a timer someone else holds counts from
    # the end of its lease, so a process never spins on a timer it cannot claim.
    _WHEN = "CASE WHEN t.claimed_until IS NOT NULL AND t.claimed_until > t.due THEN t.claimed_until ELSE t.due END"

    async def next_due(self) -> float | None:
        """When the next timer of this process's shards is due (None: no timer). With
        only some shards, at the latest a third of the lease from now: the claim then
        renews this process's lease and picks up the timers of shards whose process died."""
        if not self._shard_sql:
            rows = await self._fetch(f"SELECT min({self._WHEN}) FROM timers t")
            return rows[0][0] if rows else None
        rows = await self._fetch(
            f"SELECT min({self._WHEN}) FROM timers t JOIN games g ON g.id = t.game_id WHERE 1=1{self._shard_sql}"
        )
        soon = self.clock() + self.TIMER_LEASE / 3
        due = rows[0][0] if rows else None
        return soon if due is None else min(due, soon)

    async def due_timers(self, now: float) -> list[tuple[int, int, int, str, float]]:
        """(id, game_id, seat, kind, due) of every timer due at ``now``, earliest first
        (a read: to fire them, :meth:`claim_due`)."""
        rows = await self._fetch(
            "SELECT id, game_id, seat, kind, due FROM timers WHERE due <= ? ORDER BY due, id", now
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def claim_due(self, now: float) -> list[tuple[int, int, int, str, float]]:
        """Claim the timers due at ``now`` (of this process's shards, and of every
        shard whose process's lease ran out: :meth:`_take_over`) for TIMER_LEASE
        seconds, in one statement: (id, game_id, seat, kind, due), earliest first.

        A timer claimed by another process is skipped until its lease ends (so a
        claimer that died releases it); rescheduling or consuming a timer ends its
        claim. On PostgreSQL the claimers skip each other's locked rows (SKIP
        LOCKED); SQLite's BEGIN IMMEDIATE runs one claim at a time."""
        until = now + self.TIMER_LEASE

        def claim(shard_sql: str) -> str:
            return (
                "UPDATE timers SET claimed_until=? WHERE id IN ("
                "SELECT t.id FROM timers t JOIN games g ON g.id = t.game_id "
                f"WHERE t.due <= ? AND (t.claimed_until IS NULL OR t.claimed_until <= ?){shard_sql} "
                f"ORDER BY t.due, t.id LIMIT {self.CLAIM_BATCH}{self.d.skip_locked}) "
                "RETURNING id, game_id, seat, kind, due"
            )

        def body() -> Body[list[Any]]:
            shard_sql = self._shard_sql
            if self._shards is not None:
                shard_sql = yield from self._take_over(now)
            return (yield fetch(claim(shard_sql), until, now, now))

        rows = await self._tx(body)
        return sorted(((r[0], r[1], r[2], r[3], r[4]) for r in rows), key=lambda t: (t[4], t[0]))

    async def timers_of(self, game_id: int) -> list[tuple[int, int, str, float]]:
        rows = await self._fetch(
            "SELECT id, seat, kind, due FROM timers WHERE game_id=? ORDER BY seat, kind", game_id
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def reschedule(self, timer_id: int, due: float | None, was: float | None = None) -> bool:
        """Move a timer (or consume it when ``due`` is None) and end its claim. With
        ``was``, only if it is still due at ``was``: of two schedulers that fired the
        same reminder, one moves it and the other gets False (and sends nothing).
        False if it was gone (or moved)."""
        cond, args = ("", ()) if was is None else (" AND due=?", (was,))
        head: tuple[Any, ...]
        if due is None:
            sql, head = "DELETE FROM timers WHERE id=?" + cond, (timer_id,)
        else:
            sql, head = "UPDATE timers SET due=?, claimed_until=NULL WHERE id=?" + cond, (due, timer_id)

        def body() -> Body[int]:
            n = yield execute(sql, *head, *args)
            if n and due is not None:
                yield from self._armed([due])
            return int(n)

        n = await self._tx(body)
        self._after(bool(n) and due is not None)
        return n == 1

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

        def body() -> Body[int]:
            n = yield execute(q + ")", *args)
            yield from self._armed([n] if n else [])
            return int(n)

        n = await self._tx(body)
        self._after(bool(n))
        return int(n)

    # ---- the move chooser's half-made moves ---------------------------------------
    async def get_draft(self, game_id: int, user_id: int) -> tuple[int, list[str]] | None:
        """(version, prefix tokens) of ``user_id``'s half-made move in ``game_id``."""
        rows = await self._fetch(
            "SELECT version, prefix FROM drafts WHERE game_id=? AND user_id=?", game_id, user_id
        )
        return (rows[0][0], json.loads(rows[0][1])) if rows else None

    async def set_draft(self, game_id: int, user_id: int, version: int, prefix: list[str] | None) -> None:
        """Keep (or, with ``prefix`` None, drop) a half-made move. Not a move: the
        game's version and log are untouched."""
        if prefix is None:
            await self.backend.write("DELETE FROM drafts WHERE game_id=? AND user_id=?", (game_id, user_id))
        else:
            await self.backend.write(
                "INSERT INTO drafts (game_id, user_id, version, prefix, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, user_id) DO UPDATE SET version=excluded.version, "
                "prefix=excluded.prefix, updated_at=excluded.updated_at",
                (game_id, user_id, version, json.dumps(prefix), self.clock()),
            )

    # ---- settings, notifications, vacations --------------------------------------
    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        if guild_id is None:
            return {}
        rows = await self._fetch("SELECT settings FROM guild_settings WHERE guild_id=?", guild_id)
        return json.loads(rows[0][0]) if rows else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self.backend.write(
            "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings=excluded.settings",
            (guild_id, json.dumps(settings)),
        )

    async def wants_dm(self, user_id: int) -> bool:
        rows = await self._fetch("SELECT dm FROM notify WHERE user_id=?", user_id)
        return bool(rows and rows[0][0])

    async def set_dm(self, user_id: int, on: bool) -> None:
        await self.backend.write(
            "INSERT INTO notify (user_id, dm) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET dm=excluded.dm",
            (user_id, int(on)),
        )

    # ---- a seat's lasting private place (issue 37) ------------------------------------

    async def place(self, game_id: int, user_id: int) -> PlaceRow | None:
        rows = await self._fetch(
            "SELECT game_id, user_id, kind, channel_id, message_id, version, problem FROM places "
            "WHERE game_id=? AND user_id=?",
            game_id,
            user_id,
        )
        return PlaceRow(*rows[0]) if rows else None

    async def places(self, game_id: int) -> list[PlaceRow]:
        """Every person's place in one game."""
        rows = await self._fetch(
            "SELECT game_id, user_id, kind, channel_id, message_id, version, problem FROM places "
            "WHERE game_id=? ORDER BY user_id",
            game_id,
        )
        return [PlaceRow(*r) for r in rows]

    async def last_mover(self, game_id: int, after: int) -> int | None:
        """The person who made the newest move after move ``after`` (None: only the AI moved)."""
        rows = await self._fetch(
            "SELECT user_id FROM actions WHERE game_id=? AND seq>? AND undone=0 AND user_id IS NOT NULL "
            "ORDER BY seq DESC LIMIT 1",
            game_id,
            after,
        )
        return int(rows[0][0]) if rows else None

    async def dm_channel(self, user_id: int) -> int | None:
        """The user's DM channel as any of their places recorded it (opened once a player)."""
        rows = await self._fetch(
            "SELECT channel_id FROM places WHERE user_id=? AND kind='dm' AND channel_id IS NOT NULL LIMIT 1",
            user_id,
        )
        return int(rows[0][0]) if rows else None

    async def set_place(self, p: PlaceRow) -> None:
        await self.backend.write(
            "INSERT INTO places (game_id, user_id, kind, channel_id, message_id, version, problem) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET "
            "kind=excluded.kind, channel_id=excluded.channel_id, message_id=excluded.message_id, "
            "version=excluded.version, problem=excluded.problem",
            (p.game_id, p.user_id, p.kind, p.channel_id, p.message_id, p.version, p.problem),
        )

    async def vacation(self, user_id: int) -> tuple[float, float] | None:
        rows = await self._fetch("SELECT since, until FROM vacations WHERE user_id=?", user_id)
        return (rows[0][0], rows[0][1]) if rows else None

    async def set_vacation(self, user_id: int, since: float, until: float | None) -> None:
        if until is None:
            await self.backend.write("DELETE FROM vacations WHERE user_id=?", (user_id,))
        else:
            await self.backend.write(
                "INSERT INTO vacations (user_id, since, until) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET since=excluded.since, until=excluded.until",
                (user_id, since, until),
            )

    async def count_hint(self, game_id: int, seat: int) -> None:
        """One more hint given to ``seat``: not game state, no version bump."""
        await self.backend.write("UPDATE seats SET hints=hints+1 WHERE game_id=? AND seat=?", (game_id, seat))

    async def go_away(self, user_id: int, since: float, until: float | None, by: float, floor: float) -> int:
        """One vacation (issue 39): in one transaction, record ``user_id`` away from
        ``since`` to ``until`` (None: back now), and move the deadlines of every seat
        they hold, in every server's games, by ``by`` seconds, none earlier than
        ``floor``. Returns how many deadlines moved."""

        def body() -> Body[int]:
            if until is None:
                yield execute("DELETE FROM vacations WHERE user_id=?", user_id)
            else:
                yield execute(
                    "INSERT INTO vacations (user_id, since, until) VALUES (?, ?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET since=excluded.since, until=excluded.until",
                    user_id,
                    since,
                    until,
                )
            n = yield execute(
                "UPDATE timers SET due = CASE WHEN due + ? < ? THEN ? ELSE due + ? END "
                "WHERE kind='deadline' AND id IN (SELECT t.id FROM timers t JOIN seats s "
                "ON s.game_id=t.game_id AND s.seat=t.seat WHERE s.user_id=? AND s.is_ai=0)",
                by,
                floor,
                floor,
                by,
                user_id,
            )
            yield from self._armed([n] if n else [])
            return int(n)

        n = await self._tx(body)
        self._after(bool(n))
        return int(n)

    async def hand_to_ai(self, game_id: int, version: int, seat: int, level: str | None = None) -> int:
        """A running game's seat is taken over by the AI (the player left), playing
        at strength ``level`` (the server's default; None: "easy")."""

        def body() -> Body[None]:
            yield from self._bump(game_id, version, ("active",))
            yield execute(
                "UPDATE seats SET is_ai=1, ai_level=? WHERE game_id=? AND seat=?", level, game_id, seat
            )
            yield execute("DELETE FROM timers WHERE game_id=? AND seat=?", game_id, seat)

        await self._tx(body)
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

        def body() -> Body[None]:
            yield from self._bump(
                game_id, version, ("active",), state=encode_state(state), turn_since=self.clock()
            )
            n = yield execute(
                "UPDATE actions SET undone=1 WHERE game_id=? AND seq=? AND undone=0", game_id, seq
            )
            if n != 1:
                raise Conflict()
            yield from self._timers(game_id, arm, disarm)

        await self._tx(body)
        self._after(bool(arm))
        return version + 1

    # ---- issue 27: rules revisions -------------------------------------------------------
    async def revisions(
        self, untold: bool = False
    ) -> list[tuple[int, str, int | None, list[dict[str, Any]]]]:
        """(id, game_key, begun-under revision, upgrade points) of every started game
        (``untold``: only games with an upgrade point whose thread was not told)."""
        told = " AND upgrades LIKE '%\"told\": false%'" if untold else ""
        rows = await self._fetch(
            f"SELECT id, game_key, revision, upgrades FROM games WHERE state IS NOT NULL{told} ORDER BY id"
        )
        return [(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    async def stale_games(self, newest: dict[str, int]) -> list[int]:
        """Started games (those with a begun-under revision: schema 5 gave every one)
        whose snapshot is at an older rules revision than ``newest`` gives for their
        game (the last upgrade point's, else the begun-under one), by id. One query
        on the ``games_by_revision`` index, so a start-up with every game up to date
        reads no game."""
        if not newest:
            return []
        last = (
            "(upgrades::jsonb -> -1 ->> 'to')::int"
            if self.postgres
            else "json_extract(upgrades, '$[#-1].to')"
        )
        now = f"CASE WHEN upgrades = '[]' THEN revision ELSE {last} END"
        keys = sorted(newest)
        # The revisions are the engines' own integers, written into the query (a bound
        # THEN value is text to PostgreSQL).
        goal = "CASE game_key " + " ".join(f"WHEN ? THEN {int(newest[k])}" for k in keys) + " END"
        rows = await self._fetch(
            f"SELECT id FROM games WHERE revision IS NOT NULL AND game_key IN ({', '.join('?' for _ in keys)}) "
            f"AND {now} < {goal}",  # no ORDER BY: SQLite would scan the table in id order
            *keys,
            *keys,
        )
        return sorted(int(r[0]) for r in rows)

    async def drafts_of(self, game_id: int) -> list[tuple[int, int, list[str]]]:
        """(user id, version, prefix tokens) of every half-made move kept in a game."""
        rows = await self._fetch("SELECT user_id, version, prefix FROM drafts WHERE game_id=?", game_id)
        return [(int(r[0]), int(r[1]), json.loads(r[2])) for r in rows]

    async def carry(
        self,
        game_id: int,
        version: int,
        state: dict[str, Any],
        upgrades: list[dict[str, Any]],
        drafts: dict[int, list[str]] | None = None,
    ) -> int:
        """Write a game's snapshot carried to a newer rules revision and its upgrade
        points, guarded by ``version`` (raises Conflict: another process carried it).
        A finished game whose last board reached its thread owes no new one (a running
        game does: the old board's buttons are stale now). ``drafts``: the half-made
        moves carried with it (user id -> prefix at the new version), in the same
        transaction."""

        def body() -> Body[None]:
            n = yield execute(
                "UPDATE games SET version=version+1, updated_at=?, state=?, upgrades=?, "
                "posted_version=CASE WHEN posted_version=version AND status<>'active' "
                "THEN version+1 ELSE posted_version END "
                "WHERE id=? AND version=? AND status IN ('active', 'over', 'abandoned')",
                self.clock(),
                encode_state(state),
                json.dumps(upgrades),
                game_id,
                version,
            )
            if n != 1:
                raise Conflict()
            for user_id, prefix in (drafts or {}).items():
                yield execute(
                    "UPDATE drafts SET version=?, prefix=? WHERE game_id=? AND user_id=?",
                    version + 1,
                    json.dumps(prefix),
                    game_id,
                    user_id,
                )

        await self._tx(body)
        return version + 1

    async def claim_told(self, game_id: int, was: list[dict[str, Any]], now: list[dict[str, Any]]) -> bool:
        """Mark upgrade points told: only if they are still ``was`` (of two processes
        telling the same thread, one wins and the other sends nothing)."""
        n = await self.backend.execute(
            "UPDATE games SET upgrades=? WHERE id=? AND upgrades=?",
            (json.dumps(now), game_id, json.dumps(was)),
        )
        return n == 1

    # ---- issue 22: what reached the thread, pause/extend, seat hand-over, watchers, meta ------
    # Kept together, in plain SQL (? placeholders, ON CONFLICT upserts) for both engines.
    async def flags(self, game_id: int) -> tuple[int, int, int]:
        """(paused, extended, posted_version) of a game: paused is the time it was
        paused (0: running), extended the turn it was extended in (0: never)."""
        rows = await self._fetch("SELECT paused, extended, posted_version FROM games WHERE id=?", game_id)
        return (int(rows[0][0]), int(rows[0][1]), int(rows[0][2])) if rows else (0, 0, 0)

    async def mark_posted(self, game_id: int, version: int, moves: int, release: bool = False) -> bool:
        """The board of ``version`` (after ``moves`` moves) reached the thread. Never
        goes back. False if a newer board was already marked. ``release``: in the same
        transaction, this process's claim of the game's board is given back."""

        def body() -> Body[bool]:
            if release:
                yield execute("DELETE FROM board_claims WHERE game_id=? AND owner=?", game_id, self.owner)
            n = yield execute(
                "UPDATE games SET posted_version=? WHERE id=? AND posted_version<?", version, game_id, version
            )
            if n != 1:
                return False
            yield execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                f"posted_moves:{game_id}",
                str(moves),
            )
            return True

        marked = bool(await self._tx(body))
        if release:
            self._claimed.pop(game_id, None)  # the next move claims again
        return marked

    async def posted_moves(self, game_id: int) -> int:
        return await self.marked_moves(game_id) or 0

    async def marked_moves(self, game_id: int) -> int | None:
        """The moves the last board marked posted covered; None when no board of the
        game was ever marked (a game from before boards were tracked)."""
        value = await self.get_meta(f"posted_moves:{game_id}")
        return int(value) if value is not None and value.isdecimal() else None

    async def owed(self, now: float | None = None) -> list[int]:
        """Running or finished games whose newest board has not reached their thread;
        with ``now``, not those whose board another process claimed until after it
        (it moved the game on and is posting the board itself)."""
        sql = (
            "SELECT id FROM games g WHERE status IN ('active', 'over') AND thread_id IS NOT NULL "
            "AND posted_version < version"
        )
        if now is None:
            return [r[0] for r in await self._fetch(sql + " ORDER BY id")]
        sql += (
            " AND NOT EXISTS (SELECT 1 FROM board_claims c WHERE c.game_id = g.id "
            "AND c.owner <> ? AND c.until > ?) ORDER BY id"
        )
        return [r[0] for r in await self._fetch(sql, self.owner, now)]

    async def mark_all_posted(self) -> int:
        """Once, on the first start that tracks boards: every board so far counts as posted
        (games from before schema 3 all read posted_version 0)."""

        def body() -> Body[int]:
            n = yield execute("UPDATE games SET posted_version=version WHERE posted_version<version")
            return int(n)

        return int(await self._tx(body))

    async def set_paused(self, game_id: int, paused_at: int, shift: float) -> bool:
        """Pause (``paused_at`` > 0) or resume (0) a running game and move its timers by
        ``shift`` seconds, in one transaction. False if it was already so."""
        want = "paused=0" if paused_at else "paused>0"

        def body() -> Body[bool]:
            n = yield execute(
                f"UPDATE games SET paused=? WHERE id=? AND status='active' AND {want}", paused_at, game_id
            )
            if n != 1:
                return False
            yield execute("UPDATE timers SET due=due+? WHERE game_id=?", shift, game_id)
            return True

        ok = bool(await self._tx(body))
        self._after(ok)
        return ok

    async def extend(self, game_id: int, turn: int, by: float) -> int:
        """Push the game's deadlines by ``by`` seconds once for ``turn``; the number of
        deadlines moved (0: already extended this turn). Conflict: no deadline runs."""

        def body() -> Body[int]:
            n = yield execute(
                "UPDATE games SET extended=? WHERE id=? AND status='active' AND extended<>?",
                turn,
                game_id,
                turn,
            )
            if n != 1:
                return 0
            moved = yield execute(
                "UPDATE timers SET due=due+? WHERE game_id=? AND kind='deadline'", by, game_id
            )
            if moved == 0:
                raise Conflict()  # nothing to extend: the mark is rolled back
            return int(moved)

        return int(await self._tx(body))

    async def give_seat(self, game_id: int, version: int, seat: int, user_id: int, name: str) -> int:
        """A running game's seat goes to another member (or back from the AI). The old
        holder's half-made move and the seat's timers go; the version moves on."""

        def body() -> Body[None]:
            yield from self._bump(game_id, version, ("active",))
            old = yield fetch("SELECT user_id FROM seats WHERE game_id=? AND seat=?", game_id, seat)
            yield execute(
                "UPDATE seats SET user_id=?, name=?, is_ai=0, ai_level=NULL WHERE game_id=? AND seat=?",
                user_id,
                name,
                game_id,
                seat,
            )
            yield execute("DELETE FROM timers WHERE game_id=? AND seat=?", game_id, seat)
            if old and old[0][0] is not None:
                yield execute("DELETE FROM drafts WHERE game_id=? AND user_id=?", game_id, old[0][0])

        await self._tx(body)
        return version + 1

    async def arm(self, game_id: int, arm: list[tuple[int, str, float]]) -> None:
        def body() -> Body[None]:
            yield from self._timers(game_id, arm, [])
            yield from self._armed(arm)

        await self._tx(body)
        self._after(bool(arm))

    async def set_watch(self, game_id: int, user_id: int, on: bool) -> None:
        if on:
            await self.backend.write(
                "INSERT INTO watchers (game_id, user_id) VALUES (?, ?) ON CONFLICT (game_id, user_id) DO NOTHING",
                (game_id, user_id),
            )
        else:
            await self.backend.write("DELETE FROM watchers WHERE game_id=? AND user_id=?", (game_id, user_id))

    async def watchers(self, game_id: int) -> list[int]:
        rows = await self._fetch("SELECT user_id FROM watchers WHERE game_id=? ORDER BY user_id", game_id)
        return [r[0] for r in rows]

    async def lobbies(self) -> list[tuple[int, int | None, int | None, float, int]]:
        """(id, guild_id, thread_id, updated_at, version) of every lobby not yet started."""
        rows = await self._fetch(
            "SELECT id, guild_id, thread_id, updated_at, version FROM games WHERE status='lobby' ORDER BY id"
        )
        return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    async def get_meta(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM meta WHERE key=?", key)
        return str(rows[0][0]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self.backend.write(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
            (key, value),
        )

    # ---- process coordination ------------------------------------------------------
    async def identify_slot(self, bucket: int, spacing: float = 5.0) -> float:
        """Reserve the next IDENTIFY time of a ``max_concurrency`` bucket, shared by
        every process on this database: Discord allows one login a bucket every 5 s.
        Returns the seconds to wait before identifying (0 when the bucket is free)."""
        key = f"identify:{bucket}"

        def body() -> Body[float]:
            if self.d.lock:  # SQLite: BEGIN IMMEDIATE already lets one writer in
                yield fetch(self.d.lock, APPLICATION_ID + 1 + bucket)
            rows = yield fetch("SELECT value FROM meta WHERE key=?", key)
            now = time.time()
            slot = max(now, float(rows[0][0]) + spacing) if rows else now
            yield execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                key,
                repr(slot),
            )
            return slot - now

        return float(await self._tx(body))
