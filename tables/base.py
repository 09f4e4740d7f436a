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
from store import Conflict, GameRow, Store, encode_state
from tables.results import HOUR, TableError

if TYPE_CHECKING:
    from engine.core import Event
    from tables.results import Update


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


def replayed(row: GameRow, moves: list[tuple[int, str]]) -> dict[str, Any]:
    """The state after ``moves`` (seat, notation) from the game's seed. CPU-bound for a
    long game, so callers run it off the event loop."""
    game = core.get(row.game_key)
    state = game.new(len(row.seats), row.options, row.seed)
    for seat, note in moves:
        state, _ = game.apply(state, seat, game.parse(note))
    return state


class TablesBase:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        # What the moves since each game's last board said (tables/turns.py).
        self._kept_news: dict[int, Any] = {}
        # Games with a move (and the bot's moves after it) under way here: their board
        # is coming from that move, so the poster of owed boards leaves them alone (it
        # would post a board from the middle of the AI's turn).
        self._busy: dict[int, int] = {}

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

        async def _run_ai(self, game_id: int) -> list[Event]: ...

        async def _remember(
            self, row: GameRow, version: int, news: list[Any], changed: bool = True
        ) -> None: ...

        async def settings_for(self, row: GameRow) -> dict[str, Any]: ...

        async def is_paused(self, game_id: int) -> bool: ...

        async def heads_up(self, row: GameRow, before: GameRow | None) -> list[tuple[int, str]]: ...

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
    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int) -> GameRow:
        # A button's custom_id (\d+) can carry any number, and SQLite integers stop
        # at 2**63 - 1: past that, store.get would raise OverflowError.
        row = await self.store.get(game_id) if 0 < game_id < 2**63 else None
        if row is None:
            raise TableError(f"There is no game #{game_id}.")
        return row

    async def game_in(self, channel_id: int) -> GameRow:
        row = await self.store.by_thread(channel_id)
        if row is None:
            raise TableError("There is no game in this channel; use this command in a game's thread.")
        return row

    # ---- saving a move -------------------------------------------------------------
    async def _commit(
        self,
        row: GameRow,
        moves: list[tuple[int, int | None, str]],
        new: dict[str, Any],
        fired_timer: int | None = None,
        news: list[Any] | None = None,
    ) -> int:
        """Save ``moves`` (one transaction). A new turn (``Game.turn_id`` changed, or
        the end) re-arms the timers of every person who must act and owes the thread
        its board; a move inside a turn does neither. ``news``: what the moves said
        (tables/turns.py keeps it for the turn's board)."""
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
                row.id, row.version, moves, snapshot, result, changed, arm, disarm, fired_timer
            )
        except Conflict:
            raise TableError(
                "That move was already taken or the game moved on; look at the newest board."
            ) from None
        if news is not None:
            await self._remember(row, version, news, changed)
        else:
            self._kept_news.pop(row.id, None)
        return version

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
