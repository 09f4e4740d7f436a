"""The application layer: one table is one game in one Discord thread.

Loads a game, checks who may act, applies the action, saves, renders and
returns plain results. Knows nothing of discord: cogs turn these results into
messages. Player mistakes raise :class:`TableError` with one sentence and change
nothing.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import core
from engine.core import Event, IllegalAction
from store import Conflict, GameRow, SeatRow, Store

log = logging.getLogger("lairkeeper.tables")

# Buttons are offered for the current choices when there are at most this many.
MAX_BUTTONS = 10


class TableError(Exception):
    """A player's mistake (or a refused request). ``str()`` is one sentence."""


@dataclass
class Lobby:
    game_id: int
    version: int
    game_key: str
    title: str
    host_id: int | None
    seats: list[SeatRow]
    min_players: int
    max_players: int
    options: dict[str, Any]
    status: str
    thread_id: int | None = None

    @property
    def text(self) -> str:
        names = ", ".join(s.name + (" (AI)" if s.is_ai else "") for s in self.seats) or "nobody yet"
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        lines = [
            f"**{self.title}** (game #{self.game_id}) - {self.min_players}-{self.max_players} players.",
            f"Seated ({len(self.seats)}): {names}.",
        ]
        if opts:
            lines.append(f"Options: {opts}.")
        if self.status == "lobby":
            lines.append("Press **Join** to take a seat; the host presses **Start** when ready.")
        elif self.status == "active":
            lines.append("The game has started in its thread.")
        else:
            lines.append(f"This game is {self.status}.")
        return "\n".join(lines)


@dataclass
class Update:
    """What the bot should show after a change to a game."""

    game_id: int
    version: int
    thread_id: int | None
    text: str
    png: bytes | None = None
    ping: list[int] = field(default_factory=list)
    actor_private: str | None = None
    private: dict[int, str] = field(default_factory=dict)  # user id -> private news
    buttons: list[tuple[str, int]] = field(default_factory=list)  # (label, choice index)
    over: bool = False
    moves: int = 0
    timings: dict[str, float] = field(default_factory=dict)


# Render modules by game key, filled on first use (tests may register their own).
RENDERERS: dict[str, Any] = {}


def renderer(game_key: str) -> Any:
    if game_key not in RENDERERS:
        RENDERERS[game_key] = importlib.import_module(f"render.{core.MODULES[game_key]}")
    return RENDERERS[game_key]


def display_name(row: GameRow, seat: int) -> str:
    s = row.seats[seat]
    return s.name + (" (AI)" if s.is_ai else "")


class Tables:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int) -> GameRow:
        row = await self.store.get(game_id)
        if row is None:
            raise TableError(f"There is no game #{game_id}.")
        return row

    async def game_in(self, channel_id: int) -> GameRow:
        row = await self.store.by_thread(channel_id)
        if row is None:
            raise TableError("There is no game in this channel; use this command in a game's thread.")
        return row

    # ---- lobby -------------------------------------------------------------
    def _lobby(self, row: GameRow) -> Lobby:
        game = core.get(row.game_key)
        return Lobby(
            row.id,
            row.version,
            row.game_key,
            game.title,
            row.host_id,
            row.seats,
            game.min_players,
            game.max_players,
            row.options,
            row.status,
            row.thread_id,
        )

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
    ) -> Lobby:
        try:
            game = core.get(game_key)
            opts = game.resolve_options(dict(options or {}))
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        opts.pop("setup", None)  # stacking decks is for tests, never for players
        seed = secrets.randbits(31) if seed is None else seed
        gid = await self.store.create_game(game_key, opts, seed, user_id, guild_id, channel_id)
        if take_seat:
            await self.store.set_seats(gid, 0, [SeatRow(0, user_id, name, False)])
        return self._lobby(await self._load(gid))

    async def lobby(self, game_id: int) -> Lobby:
        return self._lobby(await self._load(game_id))

    async def _change_seats(self, game_id: int, change: Callable[[GameRow, list[SeatRow]], None]) -> Lobby:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("This game has already started; seats can no longer change.")
            seats = list(row.seats)
            change(row, seats)
            try:
                await self.store.set_seats(game_id, row.version, seats)
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
            return self._lobby(await self._load(game_id))

    async def join(self, game_id: int, user_id: int, name: str) -> Lobby:
        def change(row: GameRow, seats: list[SeatRow]) -> None:
            game = core.get(row.game_key)
            if row.seat_of(user_id) is not None:
                raise TableError("You are already seated in this game.")
            if len(seats) >= game.max_players:
                raise TableError(f"This game is full ({game.max_players} players).")
            seats.append(SeatRow(len(seats), user_id, name, False))

        return await self._change_seats(game_id, change)

    async def leave(self, game_id: int, user_id: int) -> Lobby:
        def change(row: GameRow, seats: list[SeatRow]) -> None:
            seat = row.seat_of(user_id)
            if seat is None:
                raise TableError("You are not seated in this game.")
            if user_id == row.host_id:
                raise TableError("The host cannot leave; abandon the game with /game abandon instead.")
            del seats[seat]

        return await self._change_seats(game_id, change)

    async def add_ai(self, game_id: int, user_id: int) -> Lobby:
        def change(row: GameRow, seats: list[SeatRow]) -> None:
            game = core.get(row.game_key)
            if row.seat_of(user_id) is None and user_id != row.host_id:
                raise TableError("Only a seated player can add an AI player.")
            if len(seats) >= game.max_players:
                raise TableError(f"This game is full ({game.max_players} players).")
            n = sum(1 for s in seats if s.is_ai) + 1
            seats.append(SeatRow(len(seats), None, f"Bot {n}", True))

        return await self._change_seats(game_id, change)

    async def set_refs(self, game_id: int, **refs: int | None) -> None:
        await self.store.set_refs(game_id, **refs)

    async def start(self, game_id: int, user_id: int | None, run_ai: bool = True) -> Update:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("This game has already started.")
            if user_id is not None and user_id != row.host_id:
                raise TableError("Only the host can start the game.")
            game = core.get(row.game_key)
            n = len(row.seats)
            if n < game.min_players:
                raise TableError(
                    f"{game.title} needs at least {game.min_players} players; {n} seated. Add an AI or wait."
                )
            state = await asyncio.to_thread(game.new, n, row.options, row.seed)
            try:
                await self.store.start(game_id, row.version, state)
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
        events = await self._run_ai(game_id) if run_ai else []
        return await self.board(game_id, events=events, intro=f"**{game.title}** begins!")

    async def abandon(self, game_id: int, user_id: int, is_admin: bool) -> str:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status not in ("lobby", "active"):
                raise TableError(f"This game is already {row.status}.")
            if user_id != row.host_id and not is_admin:
                raise TableError("Only the host or a member with Manage Server can abandon a game.")
            try:
                await self.store.abandon(game_id, row.version)
            except Conflict:
                raise TableError("The game changed at the same moment; please try again.") from None
        return f"Game #{game_id} was abandoned."

    # ---- play ----------------------------------------------------------------
    def _acting_seat(self, row: GameRow, user_id: int) -> int:
        if row.status == "lobby":
            raise TableError("This game has not started yet.")
        if row.status != "active":
            raise TableError(f"This game is {row.status}.")
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("You are not a player in this game.")
        assert row.state is not None
        if seat not in core.get(row.game_key).to_act(row.state):
            raise TableError("It is not your turn.")
        return seat

    async def act(
        self,
        game_id: int,
        user_id: int,
        text: str | None = None,
        button: tuple[int, int] | None = None,
    ) -> Update:
        """Apply one move of ``user_id``: typed ``text`` or a clicked ``button``
        (version, choice index). Then let AI seats move, and return the board."""
        t0 = time.perf_counter()
        async with self._lock(game_id):
            row = await self._load(game_id)
            seat = self._acting_seat(row, user_id)
            game = core.get(row.game_key)
            assert row.state is not None
            state = row.state
            if button is not None:
                version, index = button
                if version != row.version:
                    raise TableError("That button belongs to an earlier board; use the newest one.")
                options = game.legal_actions(state, seat)
                if not 0 <= index < len(options):
                    raise TableError("That choice is no longer available.")
                action = options[index]
            else:
                try:
                    action = game.parse((text or "").strip())
                except IllegalAction as exc:
                    raise TableError(str(exc)) from None
            try:
                new, events = game.apply(state, seat, action)
            except IllegalAction as exc:
                raise TableError(str(exc)) from None
            await self._commit(row, [(seat, user_id, game.format(action))], new)
        t1 = time.perf_counter()
        ai_events = await self._run_ai(game_id)
        update = await self.board(game_id, events=events + ai_events, before=row, actor=(user_id, seat))
        update.timings["apply_save"] = t1 - t0
        return update

    async def _commit(self, row: GameRow, moves: list[tuple[int, int | None, str]], new: dict[str, Any]) -> int:
        game = core.get(row.game_key)
        assert row.state is not None
        result = game.result(new).to_json() if game.is_over(new) else None
        turn_changed = game.to_act(row.state) != game.to_act(new)
        try:
            return await self.store.commit_move(row.id, row.version, moves, new, result, turn_changed)
        except Conflict:
            raise TableError("That move was already taken or the game moved on; look at the newest board.") from None

    async def step_ai(self, game_id: int) -> list[Event] | None:
        """One AI move if an AI seat is to act. Returns its events, or None."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "active" or row.state is None:
                return None
            game = core.get(row.game_key)
            ai_seats = sorted(s for s in game.to_act(row.state) if row.seats[s].is_ai)
            if not ai_seats:
                return None
            seat = ai_seats[0]
            action = await asyncio.to_thread(game.ai_action, row.state, seat)
            new, events = game.apply(row.state, seat, action)
            await self._commit(row, [(seat, None, game.format(action))], new)
            return events

    async def _run_ai(self, game_id: int) -> list[Event]:
        out: list[Event] = []
        while (events := await self.step_ai(game_id)) is not None:
            out.extend(events)
        return out

    async def resume_all(self) -> int:
        """After a restart: let AI seats that owe a move take it. Returns games touched."""
        n = 0
        for row in await self.store.games(status="active"):
            if await self._run_ai(row.id):
                n += 1
        return n

    # ---- views ---------------------------------------------------------------
    async def board(
        self,
        game_id: int,
        events: list[Event] | None = None,
        intro: str | None = None,
        before: GameRow | None = None,
        actor: tuple[int, int] | None = None,
    ) -> Update:
        row = await self._load(game_id)
        if row.state is None:
            raise TableError("This game has not started yet.")
        game = core.get(row.game_key)
        state = row.state
        view = game.view(state, None)
        t0 = time.perf_counter()
        png = None
        try:
            png = await asyncio.to_thread(renderer(row.game_key).render, view)
        except Exception:  # the move is saved; a drawing failure must not hide that
            log.exception("render failed for game %s version %s", row.id, row.version)
        render_s = time.perf_counter() - t0

        lines: list[str] = []
        if intro:
            lines.append(intro)
        for e in events or []:
            if e.seat is None:
                lines.append(e.text)
        private: dict[int, list[str]] = {}
        for e in events or []:
            if e.seat is not None and row.seats[e.seat].user_id is not None and not row.seats[e.seat].is_ai:
                private.setdefault(row.seats[e.seat].user_id, []).append(e.text)  # type: ignore[arg-type]
        over = game.is_over(state)
        ping: list[int] = []
        buttons: list[tuple[str, int]] = []
        if over:
            lines.append(self.result_text(row))
        else:
            acting = sorted(game.to_act(state))
            was = game.to_act(before.state) if before is not None and before.state is not None else set()
            names = ", ".join(display_name(row, s) for s in acting)
            status = game.status(state)
            lines.append(f"{status} Waiting for: {names}." if status else f"Waiting for: {names}.")
            for s in acting:
                uid = row.seats[s].user_id
                if uid is not None and not row.seats[s].is_ai and (s not in was or actor == (uid, s)):
                    ping.append(uid)
            humans = [s for s in acting if not row.seats[s].is_ai]
            if len(humans) == 1 and len(acting) == 1:
                options = game.legal_actions(state, humans[0])
                if 0 < len(options) <= MAX_BUTTONS:
                    buttons = [(game.describe(state, a)[:80], i) for i, a in enumerate(options)]
        actor_private = None
        if actor is not None:
            actor_private = "\n".join(private.pop(actor[0], [])) or None
        return Update(
            game_id=row.id,
            version=row.version,
            thread_id=row.thread_id,
            text="\n".join(lines)[:1900],
            png=png,
            ping=ping,
            actor_private=actor_private,
            private={u: "\n".join(t) for u, t in private.items()},
            buttons=buttons,
            over=over,
            moves=row.moves,
            timings={"render": render_s},
        )

    def result_text(self, row: GameRow) -> str:
        game = core.get(row.game_key)
        assert row.state is not None
        res = game.result(row.state)
        lines = ["**Final scores**"]
        for place, group in enumerate(res.ranking, 1):
            for s in group:
                parts = ", ".join(f"{k} {v}" for k, v in (res.breakdown[s] if res.breakdown else {}).items())
                shared = " (shared)" if len(group) > 1 else ""
                lines.append(
                    f"{place}. {display_name(row, s)}: {res.scores[s]}{shared}" + (f" ({parts})" if parts else "")
                )
        winners = " and ".join(display_name(row, s) for s in res.winners)
        lines.append(f"Winner: {winners}!")
        return "\n".join(lines)

    async def hand(self, game_id: int, user_id: int) -> tuple[str, bytes | None]:
        """Private text (and image, if the game draws one) for ``user_id``."""
        row = await self._load(game_id)
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("You are not a player in this game.")
        if row.state is None:
            raise TableError("This game has not started yet.")
        game = core.get(row.game_key)
        text = game.private_text(row.state, seat)
        png = None
        mod = renderer(row.game_key)
        if hasattr(mod, "render_private"):
            try:
                png = await asyncio.to_thread(mod.render_private, game.view(row.state, seat))
            except Exception:
                log.exception("private render failed for game %s", row.id)
        return text, png

    async def choices(self, game_id: int, user_id: int, prefix: str = "", limit: int = 25) -> list[tuple[str, str]]:
        """Autocomplete for /play: (label, notation) of legal moves matching ``prefix``."""
        row = await self.store.get(game_id)
        if row is None or row.status != "active" or row.state is None:
            return []
        seat = row.seat_of(user_id)
        game = core.get(row.game_key)
        if seat is None or seat not in game.to_act(row.state):
            return []
        out: list[tuple[str, str]] = []
        p = prefix.strip().lower()
        for a in game.legal_actions(row.state, seat):
            note = game.format(a)
            label = game.describe(row.state, a)
            if not p or note.lower().startswith(p) or p in label.lower():
                out.append((label[:100], note[:100]))
            if len(out) >= limit:
                break
        return out
