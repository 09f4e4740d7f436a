"""Play again (issue 41): from a finished game's board, a new lobby for the same game
at the same table, with the same options and computer players, each person already
seated and asked to confirm with one click; the seat order turns by one, so the
same person does not always start.

A table is a channel and a game: the games of one game opened in one channel. Play
again works from a final board while its game is the table's latest; a second click
(or one after a restart) finds the lobby the first one opened."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine import core
from store import GameRow, SeatRow
from tables.base import TablesBase
from tables.lobby import lobby_of
from tables.results import Lobby, TableError


@dataclass
class Again:
    """What Play again did: the lobby, the channel to post it in, whether it is new
    (False: the table's next game was opened already, by this button or another)."""

    lobby: Lobby
    channel_id: int | None
    new: bool


def turned(seats: list[SeatRow]) -> list[SeatRow]:
    """The seats of the next game: the old order turned by one (the second player
    starts, the first moves to the end); everyone a person again (also a seat the
    computer took over: its person is asked), computers at their strength."""
    order = seats[1:] + seats[:1]
    return [
        replace(s, seat=i, is_ai=s.user_id is None, ai_level=s.level if s.user_id is None else None)
        for i, s in enumerate(order)
    ]


class RematchMixin(TablesBase):
    async def waiting_in(self, row: GameRow) -> list[int]:
        """People Play again seated in lobby ``row`` who have not confirmed yet."""
        if row.status != "lobby":
            return []
        seated = {s.user_id for s in row.seats if not s.is_ai}
        return [u for u in await self.store.waiting(row.id) if u in seated]

    async def play_again(self, game_id: int, user_id: int, name: str) -> Again:
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "over":
                raise TableError("Only a finished game can be played again.")
            people = {s.user_id for s in row.seats if s.user_id is not None}
            if user_id not in people:
                raise TableError("Only the players of this game can open its next game; use /game new.")
            opened = await self.store.rematch_of(game_id)
            if opened is not None:
                again = await self._load(opened)
                if again.status in ("lobby", "active"):
                    return Again(lobby_of(again, await self.waiting_in(again)), again.channel_id, False)
            if await self.store.newer_at_table(game_id, row.guild_id, row.channel_id, row.game_key):
                raise TableError(
                    "This table has played a newer game since; press Play again on its last board."
                )
            seats = turned(row.seats)
            seats = [replace(s, name=name) if s.user_id == user_id else s for s in seats]
            lobby = await self.create(
                user_id,
                name,
                row.game_key,
                row.options,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                take_seat=False,
                settings=row.settings,
            )
            await self.store.set_seats(lobby.game_id, lobby.version, seats)
            waiting = [s.user_id for s in seats if s.user_id is not None and s.user_id != user_id]
            await self.store.add_rematch(lobby.game_id, game_id, waiting)
            new = await self._load(lobby.game_id)
            return Again(lobby_of(new, waiting), row.channel_id, True)

    async def confirm(self, game_id: int, user_id: int) -> Lobby:
        """A person Play again seated confirms they play ("I'm in")."""
        async with self._lock(game_id):
            row = await self._load(game_id)
            if row.status != "lobby":
                raise TableError("This game has already started; seats can no longer change.")
            waiting = await self.waiting_in(row)
            if user_id not in waiting:
                if row.seat_of(user_id) is not None:
                    raise TableError("You are in already.")
                raise TableError("No seat waits for you in this game; press Join to take one.")
            waiting.remove(user_id)
            await self.store.set_waiting(game_id, waiting)
            return lobby_of(row, waiting)

    async def drop_unconfirmed(self, row: GameRow) -> GameRow:
        """At the start of a Play again lobby: the seats of the people who did not
        confirm open again. Refused in one sentence (nothing changed) if the game
        would then have too few players."""
        waiting = await self.waiting_in(row)
        if not waiting:
            return row
        game = core.get(row.game_key)
        kept = [
            replace(s, seat=i)
            for i, s in enumerate(s for s in row.seats if s.is_ai or s.user_id not in waiting)
        ]
        if len(kept) < game.min_players:
            names = " and ".join(s.name for s in row.seats if not s.is_ai and s.user_id in waiting)
            raise TableError(
                f"{names} did not confirm yet; without them {game.title} has too few players. "
                "Wait for them, or add computer players."
            )
        await self.store.set_seats(row.id, row.version, kept)
        await self.store.set_waiting(row.id, [])
        return await self._load(row.id)
