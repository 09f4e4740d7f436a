"""Before and around play: lobbies, seats, starting, abandoning, handing a seat to the AI."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine import core, search
from engine.core import IllegalAction
from store import Conflict, GameRow, SeatRow
from tables.base import TablesBase
from tables.hints import hints_on
from tables.results import Lobby, TableError, Update
from tables.settings import check_settings


def check_level(level: str) -> None:
    if level not in search.LEVELS:
        raise TableError(f"'{level}' is not a strength of computer players; choose easy, normal or hard.")


def lobby_of(row: GameRow, waiting: list[int] | None = None) -> Lobby:
    """``waiting``: people seated by Play again who have not confirmed yet."""
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
        list(waiting or []),
        hints_on(row),
    )


class LobbyMixin(TablesBase):
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
    ) -> Lobby:
        """A new lobby; ``ai_players`` computer players of strength ``ai_level``
        (None: the server's default) sit down at once."""
        game_settings = check_settings(settings or {})
        try:
            game = core.get(game_key)
            if "setup" in (options or {}):  # stacking decks is for the engine's tests, never for players
                raise IllegalAction(f"{game.title} has no option called 'setup'.")
            opts = game.resolve_options(dict(options or {}))
        except IllegalAction as exc:
            raise TableError(str(exc)) from None
        seats = 1 if take_seat else 0
        if ai_players < 0 or seats + ai_players > game.max_players:
            raise TableError(
                f"{game.title} seats at most {game.max_players} players; "
                f"that is {game.max_players - seats} computer players at most."
            )
        if ai_players:
            level = ai_level or (await self.guild_settings(guild_id))["ai_level"]
            check_level(level)
        seed = secrets.randbits(31) if seed is None else seed
        gid = await self.store.create_game(game_key, opts, seed, user_id, guild_id, channel_id, game_settings)
        people = [SeatRow(0, user_id, name, False)] if take_seat else []
        bots = [SeatRow(0, None, f"Bot {i + 1}", True, level) for i in range(ai_players)]
        if people or bots:
            await self.store.set_seats(gid, 0, [replace(s, seat=i) for i, s in enumerate(people + bots)])
        return lobby_of(await self._load(gid))

    async def lobby(self, game_id: int) -> Lobby:
        row = await self._load(game_id)
        return lobby_of(row, await self.waiting_in(row))

    async def _change_seats(self, game_id: int, change: Callable[[GameRow, list[SeatRow]], None]) -> Lobby:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status == "abandoned":
                raise TableError("This lobby was closed; open a new one with /game new.")
            if row.status != "lobby":
                raise TableError("This game has already started; seats can no longer change.")
            seats = list(row.seats)
            change(row, seats)
            try:
                await self.store.set_seats(game_id, row.version, seats)
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
            new = await self._load(game_id)
            return lobby_of(new, await self.waiting_in(new))

    async def join(self, game_id: int, user_id: int, name: str) -> Lobby:
        if user_id in await self.waiting_in(await self._load(game_id)):
            return await self.confirm(game_id, user_id)  # Join on a seat Play again kept: "I'm in"

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

    async def add_ai(self, game_id: int, user_id: int, level: str | None = None) -> Lobby:
        """A computer player of strength ``level`` (None: the server's default) sits down."""
        if level is None:
            level = (await self.settings_for(await self._load(game_id)))["ai_level"]
        check_level(level)

        def change(row: GameRow, seats: list[SeatRow]) -> None:
            game = core.get(row.game_key)
            if row.seat_of(user_id) is None and user_id != row.host_id:
                raise TableError("Only a seated player can add an AI player.")
            if len(seats) >= game.max_players:
                raise TableError(f"This game is full ({game.max_players} players).")
            n = sum(1 for s in seats if s.is_ai) + 1
            seats.append(SeatRow(len(seats), None, f"Bot {n}", True, level))

        return await self._change_seats(game_id, change)

    async def switch_hints(self, game_id: int, user_id: int) -> Lobby:
        """The host turns the game's "Hint" button off, or back on, before the start."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("Hints can only be switched in the lobby, before the game starts.")
            if user_id != row.host_id:
                raise TableError("Only the host can switch hints on or off.")
            try:
                await self.store.set_lobby_settings(
                    game_id, row.version, {**row.settings, "hints": not hints_on(row)}
                )
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
            new = await self._load(game_id)
            return lobby_of(new, await self.waiting_in(new))

    async def set_refs(self, game_id: int, **refs: int | None) -> None:
        await self.store.set_refs(game_id, **refs)

    async def start(
        self, game_id: int, user_id: int | None, run_ai: bool = True, think: bool = True
    ) -> Update:
        """Start the lobby's game; computer players to move first move (``think``
        False: only those that answer at once; the Update says ``thinking`` when
        others are still to move, as after ``act``)."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("This game has already started.")
            if user_id is not None and user_id != row.host_id:
                raise TableError("Only the host can start the game.")
            row = await self.drop_unconfirmed(row)
            game = core.get(row.game_key)
            n = len(row.seats)
            if n < game.min_players:
                raise TableError(
                    f"{game.title} needs at least {game.min_players} players; {n} seated. Add an AI or wait."
                )
            state = await asyncio.to_thread(game.new, n, row.options, row.seed)
            arm, _ = await self._timer_changes(row, set(), game.to_act(state))
            try:
                await self.store.start(game_id, row.version, state, arm)
            except Conflict:
                raise TableError("The lobby changed at the same moment; please try again.") from None
        events = await self._run_ai(game_id, think) if run_ai else []
        update = await self.board(game_id, events=events, intro=f"**{game.title}** begins!")
        update.thinking = run_ai and not think and await self._thinker_to_move(game_id)
        return update

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

    async def take_over(
        self,
        game_id: int,
        user_id: int,
        seat_user: int | None = None,
        is_admin: bool = False,
        think: bool = True,
    ) -> Update:
        """A running game's seat goes to the AI: the player leaves (``seat_user`` is
        None or themselves), or the host / a Manage Server member hands over
        another player's seat. The AI then moves whenever that seat must act.
        ``think`` False: computer players that think in the pool do not move here (the
        last person to leave would wait for the whole rest of the game); the Update
        says ``thinking`` and the caller lets them move after answering."""
        target = user_id if seat_user is None else seat_user
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "active":
                raise TableError("Only a running game's seats can be handed to the AI; in a lobby use Leave.")
            if target != user_id and user_id != row.host_id and not is_admin:
                raise TableError(
                    "Only the host or a member with Manage Server can hand another player's seat to the AI."
                )
            seat = row.seat_of(target)
            if seat is None:
                raise TableError("That player holds no seat in this game.")
            level = (await self.settings_for(row))["ai_level"]
            try:
                await self.store.hand_to_ai(game_id, row.version, seat, level)
            except Conflict:
                raise TableError("The game changed at the same moment; please try again.") from None
            name = row.seats[seat].name
        events = await self._run_ai(game_id, think)
        intro = f"{name} left; the AI plays their seat from now on."
        update = await self.board(game_id, events=events, intro=intro)
        if not think and await self._thinker_to_move(game_id):  # type: ignore[attr-defined]
            # The board comes after the computers' moves; the thread is told this now.
            update.thinking, update.post, update.text = True, False, intro
        return update

    async def open_games(self, guild_id: int | None) -> list[dict[str, Any]]:
        """Games open or running in a server, oldest first (for ``/game list``)."""
        rows = [r for s in ("lobby", "active") for r in await self.store.games(guild_id, s)]
        return [
            {
                "game_id": r.id,
                "title": core.get(r.game_key).title,
                "status": r.status,
                "players": len(r.seats),
                "thread_id": r.thread_id,
            }
            for r in rows
        ]
