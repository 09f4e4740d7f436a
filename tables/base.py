"""What every part of the tables layer shares: the store, the clock, one lock a
game, loading a game, saving a move, the game catalogue, and the timers a move
arms or disarms."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine import core
from engine.core import IllegalAction
from store import Conflict, DatabaseTimeout, GameRow, Store, encode_state
from store.backends import time_left
from tables.replay import replayed  # noqa: F401  (the one replay; re-exported)
from tables.results import HOUR, Lobby, TableError
from tables.thinking import Thinker

if TYPE_CHECKING:
    from engine.core import Event
    from tables.results import Update


# What a player is told when the database stalls (issue 27). A move that timed out
# was not taken and never will be (store/backends.py); only a COMMIT sent just as
# the time ran out has an unknown outcome.
NOT_TAKEN = "The database did not answer in time; your move was not taken. Try again in a minute."
UNSURE = "The database did not confirm your move in time; look at the newest board before you try again."
SLOW = "The database did not answer in time; nothing was changed. Try again in a minute."
TAKEN_NO_BOARD = "Move taken. The board will be posted when the database answers again."


class MoveTaken(Exception):
    """The move was saved, but what comes after it (the board, the AI's moves) could
    not be read: the player is told the move was taken, never to try again."""

    def __init__(self, message: str = TAKEN_NO_BOARD) -> None:
        super().__init__(message)


ALREADY = "Your move was already taken."


class AlreadyTaken(MoveTaken):
    """A retried click or command (the same idempotency key) whose first try made its
    move: the player is told so, and nothing is applied again."""

    def __init__(self) -> None:
        super().__init__(ALREADY)


class GameLock:
    """A game's lock, bounded by the database's time limit: waiting for it, and the
    work done while holding it, share one deadline (``Store.budget``), so a request
    stuck on a stalled database holds the game no longer than the limit and the
    requests behind it are refused in time instead of queueing."""

    def __init__(self, lock: asyncio.Lock, store: Store) -> None:
        self.lock, self.store = lock, store
        self._budget: Any = None

    def locked(self) -> bool:
        return self.lock.locked()

    async def __aenter__(self) -> GameLock:
        # The deadline starts now: the wait for the lock counts against it.
        self._budget = self.store.budget()
        self._budget.__enter__()
        try:
            await asyncio.wait_for(self.lock.acquire(), max(0.001, time_left(self.store.timeout)))
        except TimeoutError:
            self._budget.__exit__(None, None, None)
            raise DatabaseTimeout("another request of this game is still waiting for the database") from None
        except BaseException:
            self._budget.__exit__(None, None, None)
            raise
        return self

    async def __aexit__(self, *exc: Any) -> None:
        try:
            self._budget.__exit__(*exc)
        finally:
            self.lock.release()


@dataclass(frozen=True)
class GameInfo:
    """A game as the menus show it (``/game new``, ``/rules``, ``/stats``)."""

    key: str
    title: str
    min_players: int
    max_players: int
    blurb: str
    options: dict[str, tuple[tuple[Any, ...], str]]  # name -> (choices, help)

    @property
    def label(self) -> str:
        return f"{self.title} ({self.min_players}-{self.max_players} players)"


def game_info(game: core.Game) -> GameInfo:
    opts = {name: (tuple(o.choices), o.help) for name, o in game.options.items()}
    return GameInfo(game.key, game.title, game.min_players, game.max_players, game.blurb, opts)


class TablesBase:
    def __init__(
        self, store: Store, clock: Callable[[], float] = time.time, thinker: Thinker | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        # Where computer players think (a process pool, started on first use).
        self.thinker = thinker if thinker is not None else Thinker()
        self._locks: dict[int, asyncio.Lock] = {}
        # What the moves since each game's last board said (tables/turns.py).
        self._kept_news: dict[int, Any] = {}
        # Games with a move (and the bot's moves after it) under way here: their board
        # is coming from that move, so the poster of owed boards leaves them alone (it
        # would post a board from the middle of the AI's turn).
        self._busy: dict[int, int] = {}
        # Games whose carry to the newest rules failed this run (tables/revisions.py).
        self._uncarried: set[int] = set()

    def close(self) -> None:
        """Stop the computer players' pool (the bot is closing)."""
        self.thinker.close()

    @contextlib.contextmanager
    def _moving(self, game_id: int) -> Iterator[None]:
        self._busy[game_id] = self._busy.get(game_id, 0) + 1
        try:
            yield
        finally:
            self._busy[game_id] -= 1
            if not self._busy[game_id]:
                del self._busy[game_id]

    if TYPE_CHECKING:  # provided by the other parts of the facade

        async def board(
            self,
            game_id: int,
            events: list[Event] | None = None,
            intro: str | None = None,
            before: GameRow | None = None,
            actor: tuple[int, int] | None = None,
        ) -> Update: ...

        async def _run_ai(self, game_id: int, think: bool = True) -> list[Event]: ...

        async def _thinker_to_move(self, game_id: int) -> bool: ...

        async def _remember(
            self, row: GameRow, version: int, news: list[Any], changed: bool = True
        ) -> None: ...

        async def settings_for(self, row: GameRow) -> dict[str, Any]: ...

        async def guild_settings(self, guild_id: int | None) -> dict[str, Any]: ...

        async def is_paused(self, game_id: int) -> bool: ...

        async def heads_up(self, row: GameRow, before: GameRow | None) -> list[tuple[int, str]]: ...

        async def rating_moves(self, row: GameRow) -> str: ...

        async def waiting_in(self, row: GameRow) -> list[int]: ...

        async def create(
            self,
            user_id: int,
            name: str,
            game_key: str,
            options: dict[str, Any] | None = None,
            guild_id: int | None = None,
            channel_id: int | None = None,
            seed: int | None = None,
            take_seat: bool = True,
            settings: dict[str, Any] | None = None,
            ai_players: int = 0,
            ai_level: str | None = None,
        ) -> Lobby: ...

        async def drop_unconfirmed(self, row: GameRow) -> GameRow: ...

        async def confirm(self, game_id: int, user_id: int) -> Lobby: ...

    # ---- the catalogue ---------------------------------------------------------
    def catalogue(self) -> list[GameInfo]:
        """Every installed game, in menu order."""
        return [game_info(g) for g in core.iter_games()]

    def game_info(self, key: str) -> GameInfo:
        """One game by key; an unknown key is one sentence naming the games there are."""
        try:
            return game_info(core.get(key))
        except IllegalAction as exc:
            raise TableError(str(exc)) from None

    # ---- loading -----------------------------------------------------------------
    def _lock(self, game_id: int) -> GameLock:
        return GameLock(self._locks.setdefault(game_id, asyncio.Lock()), self.store)

    async def _load(self, game_id: int) -> GameRow:
        # A button's custom_id (\d+) can carry any number, and SQLite integers stop
        # at 2**63 - 1: past that, store.get would raise OverflowError.
        row = await self.store.get(game_id) if 0 < game_id < 2**63 else None
        if row is None:
            raise TableError(f"There is no game #{game_id}.")
        return await self._up_to_date(row)

    async def _up_to_date(self, row: GameRow) -> GameRow:
        """``row`` under its game's newest rules (tables/revisions.py carries a game
        stored under older ones when it is first touched after a start-up)."""
        return row

    async def game_in(self, channel_id: int) -> GameRow:
        row = await self.store.by_thread(channel_id)
        if row is None:
            raise TableError("There is no game in this channel; use this command in a game's thread.")
        return await self._up_to_date(row)

    # ---- saving a move -------------------------------------------------------------
    async def _commit(
        self,
        row: GameRow,
        moves: list[tuple[int, int | None, str]],
        new: dict[str, Any],
        fired_timer: int | None = None,
        news: list[Any] | None = None,
        key: str | None = None,
    ) -> int:
        """Save ``moves`` (one transaction). A new turn (``Game.turn_id`` changed, or
        the end) re-arms the timers of every person who must act and owes the thread
        its board; a move inside a turn does neither. ``news``: what the moves said
        (tables/turns.py keeps it for the turn's board). ``key``: the idempotency key
        of the interaction that made the first move."""
        game = core.get(row.game_key)
        assert row.state is not None
        over = game.is_over(new)
        result = game.result(new).to_json() if over else None
        changed = over or game.turn_id(row.state) != game.turn_id(new)
        before, after = game.to_act(row.state), set() if over else game.to_act(new)
        arm, disarm = await self._timer_changes(row, before, after, renew=changed)
        # The store is handed the snapshot as text, the bytes it writes (the benchmark
        # times the encoding and the commit apart, see docs/performance.md).
        snapshot = encode_state(new)
        try:
            version = await self.store.commit_move(
                row.id, row.version, moves, snapshot, result, changed, arm, disarm, fired_timer, key
            )
        except Conflict:
            await self._not_again(row.id, key)
            raise TableError(
                "That move was already taken or the game moved on; look at the newest board."
            ) from None
        if news is not None:
            await self._remember(row, version, news, changed)
        else:
            self._kept_news.pop(row.id, None)
        return version

    async def _not_again(self, game_id: int, key: str | None) -> None:
        """Raise AlreadyTaken if the interaction ``key`` has made its move in this game."""
        if key is not None and await self.store.move_by_key(game_id, key) is not None:
            raise AlreadyTaken()

    async def _timer_changes(
        self, row: GameRow, before: set[int], after: set[int], renew: bool = False
    ) -> tuple[list[tuple[int, str, float]], list[int]]:
        """Timers for seats that start owing a move (``renew``, a new turn: for every
        person who must act, so whoever must act always has a deadline); seats that
        stop owing lose theirs."""
        humans = {s.seat for s in row.seats if not s.is_ai}
        newly = sorted((after if renew else after - before) & humans)
        gone = sorted((before - after) & humans)
        if not newly:
            return [], gone
        cfg = await self.settings_for(row)
        now = self.clock()
        arm: list[tuple[int, str, float]] = []
        for seat in newly:
            base = now
            uid = row.seats[seat].user_id
            away = await self.store.vacation(uid) if uid is not None else None
            if away is not None and away[1] > now:
                base = away[1]
            if cfg["reminder_hours"]:
                arm.append((seat, "reminder", base + cfg["reminder_hours"] * HOUR))
            if cfg["deadline_hours"]:
                arm.append((seat, "deadline", base + cfg["deadline_hours"] * HOUR))
        return arm, gone
