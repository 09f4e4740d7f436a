"""The seat's lasting private place (issue 37): where a person's turn comes to them.

Each person in a game has one place for the whole game - their DM channel with the
bot, or a private thread of their own beside the game's thread (the server's
``place`` setting) - where the bot posts and edits with its own token, at any time,
from any process: its channel and the turn message now there are stored
(``places``). When a turn of theirs begins, the turn is put there as ONE new
message (a new message is what notifies on a phone), ready to click; the message
of the turn before loses its buttons. The player who just moved and goes on sees
the turn in the message they clicked on and is not notified.

This module decides who gets what and remembers it; cogs/place.py talks to
Discord. Where no place can be had (DMs closed, a permission missing), the player
plays as before, by "Your move" on the board, told in one sentence why.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from engine import core
from store import PlaceRow
from tables.base import TablesBase
from tables.results import Panel, Update

log = logging.getLogger("lairkeeper.tables")

# The server setting ``place``: where a person's turns come to them.
PLACE_MODES = ("dm", "thread", "off")
# The server setting ``board_ping``: whether the board in the game's thread pings
# a person whose turn came to their place already ("unplaced": only the others).
BOARD_PINGS = ("unplaced", "always")

LEFT = "left"  # the person left the game: their turn message there says so, no buttons
CLOSED = "closed"  # Discord refused the DM (50007): DMs closed, or no server shared
PERMISSION = "permission"  # the bot may not create, see or post in a private thread (50001/50013)

# The picture of what changed (an animated GIF of several boards, the costliest part
# of a turn's message) comes when the player was away this long (seconds): a player
# who moved minutes ago watched the board change in the thread.
PICTURE_AFTER = 15 * 60.0

# What a player whose place could not be had is told (privately, with "Your move").
WHY = {
    CLOSED: (
        "Your turns cannot come to you by direct message: your DMs are closed to this server "
        "(Privacy Settings, Direct Messages); open them and your next turn will wait there."
    ),
    PERMISSION: (
        "Your turns cannot come to your private thread: the bot lacks the Create Private Threads "
        "or Send Messages in Threads permission here, or was removed from your thread; a server "
        "admin can fix that, and your next turn will wait in a new private thread."
    ),
}
# Said to whoever chooses private threads as the place (moderators can read them).
THREADS_READABLE = (
    "Note: members with Manage Threads (moderators) can read every private thread, "
    "so they could see the players' hands there; direct messages only the player can read."
)
# The first line of a turn put into the place, and of a turn brought up to date in it.
YOUR_TURN_HERE = "It is your turn in game #{game} ({title})."
MOVED_ON_HERE = "Another player moved meanwhile; your choices below are up to date."
STALE_CLICK = "That turn has passed; here is your turn as it is now."
# What the last turn message in a place says once the game has no more turns for it.
GAME_ENDED_HERE = "Game #{game} ({title}) has ended; the final board: {board}"
LEFT_HERE = "You left game #{game} ({title}); the AI plays your seat now. The table's board: {board}"
ABANDONED_HERE = (
    "Game #{game} ({title}) was abandoned; no more turns will come here. The table's thread: {board}"
)


@dataclass
class Delivery:
    """What to do in one person's place for one update: ``new`` puts the turn there as
    a new message (a notification), else the message there is edited in place."""

    user_id: int
    new: bool
    place: PlaceRow | None
    shown: bool = False  # the place shows this version already: nothing to do, no ping owed


def board_pings(update: Update, placed: set[int], setting: str, mover: int | None) -> list[int]:
    """Who the board in the game's thread pings: whoever's turn begins, but the mover
    who goes on (their answer shows the turn) and, unless the server wants the board
    to ping always, those whose turn came to their place."""
    out = [u for u in update.ping if u != mover]
    if setting != "always":
        out = [u for u in out if u not in placed]
    return out


class PlaceMixin(TablesBase):
    async def place_mode(self, game_id: int) -> tuple[str, str]:
        """(``place``, ``board_ping``) for a game: its server's settings."""
        row = await self._load(game_id)
        s = await self.settings_for(row)  # type: ignore[attr-defined]
        return str(s.get("place", "dm")), str(s.get("board_ping", "unplaced"))

    async def place_home(self, game_id: int, user_id: int) -> tuple[int | None, str]:
        """Where a private thread for ``user_id`` opens (the channel the game's thread
        is in) and its name: the game and the player, words a player would use."""
        row = await self._load(game_id)
        seat = row.seat_of(user_id)
        name = row.seats[seat].name if seat is not None and seat < len(row.seats) else "player"
        title = core.get(row.game_key).title
        return row.channel_id, f"{title} #{game_id}: {name}'s hand"[:100]

    async def game_title(self, game_id: int) -> str:
        return core.get((await self._load(game_id)).game_key).title

    async def place_of(self, game_id: int, user_id: int) -> PlaceRow | None:
        return await self.store.place(game_id, user_id)

    async def dm_channel_of(self, user_id: int) -> int | None:
        return await self.store.dm_channel(user_id)

    async def keep_place(self, place: PlaceRow) -> None:
        await self.store.set_place(place)

    async def deliveries(self, update: Update, mover: int | None) -> list[Delivery]:
        """The places to change for ``update``: a new message for each person whose turn
        begins (``update.ping``) and whose place does not show this version yet, but
        the mover; an edit for each other person still to act whose place shows
        choices of an older version (several choose at once). Never twice for one
        version: a place that shows it already is skipped."""
        if update.over:
            return []
        out: list[Delivery] = []
        for uid in dict.fromkeys([*update.ping, *update.acting]):
            if uid == mover:
                continue
            place = await self.store.place(update.game_id, uid)
            if place is not None and place.version >= update.version:
                if uid in update.ping and place.problem is None:
                    out.append(Delivery(uid, False, place, shown=True))
                continue
            if uid in update.ping:
                out.append(Delivery(uid, True, place))
            elif place is not None and place.message_id is not None and place.problem is None:
                out.append(Delivery(uid, False, place))
        return out

    async def places_to_close(self, update: Update) -> list[tuple[PlaceRow, str]]:
        """The turn messages in places that no turn will come to any more, each with the
        sentence it is to show instead of its buttons (where ``{board}`` goes the link
        to the board): at the game's end every one still there, the last of a person
        who left as well; before it, those of people who left the game."""
        out: list[tuple[PlaceRow, str]] = []
        row = await self._load(update.game_id)
        title = core.get(row.game_key).title
        for place in await self._open_turn_messages(update.game_id):
            if update.over:
                out.append((place, GAME_ENDED_HERE.format(game=row.id, title=title, board="{board}")))
            elif place.problem is None and row.seat_of(place.user_id) is None:
                out.append((place, LEFT_HERE.format(game=row.id, title=title, board="{board}")))
        return out

    async def places_of_abandoned(self, game_id: int) -> list[tuple[PlaceRow, str]]:
        """The turn messages still offering choices in the places of an abandoned game,
        each with the sentence it is to show instead (``{board}``: the game's thread);
        none while the game is not abandoned."""
        row = await self._load(game_id)
        if row.status != "abandoned":
            return []
        title = core.get(row.game_key).title
        sentence = ABANDONED_HERE.format(game=row.id, title=title, board="{board}")
        return [(place, sentence) for place in await self._open_turn_messages(game_id)]

    async def _open_turn_messages(self, game_id: int) -> list[PlaceRow]:
        """The places of a game whose turn message is still there to close (a working
        place, or one whose person left and is closed again at the end)."""
        return [
            place
            for place in await self.store.places(game_id)
            if place.message_id is not None and place.problem in (None, LEFT)
        ]

    async def place_closed(self, place: PlaceRow, over: bool) -> None:
        """``place``'s turn message was closed: at the game's end it is done with;
        after a person left it is edited once more when the game ends."""
        place.problem = LEFT
        if over:
            place.message_id = None
        await self.store.set_place(place)

    async def mover_of(self, update: Update) -> int | None:
        """Who moved last since the thread's last board, when their turn goes on: they
        saw it in the answer to their click. Asked when the board is posted by other
        means than that answer (another process posting it as owed meanwhile). Not
        when a computer player that thinks in the pool moved after them: their answer
        did not wait for it (issue 39), so it showed no next turn and the board pings them."""
        after = await self.store.posted_moves(update.game_id)
        uid = await self.store.last_mover(update.game_id, after)
        if uid is None or uid not in update.ping:
            return None
        return None if await self._thinker_moved_after(update.game_id, uid, after) else uid

    async def _thinker_moved_after(self, game_id: int, uid: int, after: int) -> bool:
        """Whether a computer seat that thinks in the pool (not "easy") moved after
        ``uid``'s newest move, among the moves after move ``after``."""
        row = await self._load(game_id)
        moves = [(seat, user) for seq, seat, user, _, _ in await self.store.log_full(game_id) if seq > after]
        last = max(i for i, (_, user) in enumerate(moves) if user == uid)
        return any(
            seat < len(row.seats) and row.seats[seat].is_ai and row.seats[seat].level != "easy"
            for seat, _ in moves[last + 1 :]
        )

    async def reachable(self, update: Update, mover: int | None) -> set[int]:
        """Whose turn beginning with ``update`` is expected to reach their place: not the
        mover, nor a person whose place could not be had last time (the board pings
        them; their place is tried again)."""
        out: set[int] = set()
        for uid in update.ping:
            if uid == mover:
                continue
            place = await self.store.place(update.game_id, uid)
            if place is None or place.problem is None:
                out.add(uid)
        return out

    async def mover_shown(self, game_id: int, user_id: int, message_id: int | None, version: int) -> None:
        """The mover's answer edited the message they clicked on: when that is their
        place's turn message, it shows ``version`` now (no new message is owed)."""
        place = await self.store.place(game_id, user_id)
        if place is not None and message_id is not None and place.message_id == message_id:
            place.version = max(place.version, version)
            await self.store.set_place(place)

    async def current_panel(self, game_id: int, user_id: int) -> Panel:
        """The user's turn as it is now (TableError: not theirs to play now)."""
        row = await self._load(game_id)
        return await self.panel(game_id, user_id, row.version)  # type: ignore[attr-defined, no-any-return]

    async def turn_news(self, game_id: int, user_id: int) -> tuple[str, bytes | None]:
        """What the seat's place opens its turn with: what happened since its last move,
        in words and, when the player was away (their last move more than
        ``PICTURE_AFTER`` ago), as a picture (tables/since.py), for this seat's eyes
        only. Nothing when it cannot be had: the turn itself must still come."""
        row = await self._load(game_id)
        seat = row.seat_of(user_id)
        if seat is None:
            return "", None
        try:
            report = await self.since(game_id, seat, picture=False)  # type: ignore[attr-defined]
            if report.public and (report.last_at is None or self.clock() - report.last_at > PICTURE_AFTER):
                report = await self.since(game_id, seat, picture=True)  # type: ignore[attr-defined]
        except Exception:  # a report is news; never the reason a turn does not come
            log.exception("game %s: the since-your-last-move report failed", game_id)
            return "", None
        return report.text(), report.image

    async def waiting_message(self, user_id: int) -> int | None:
        """The DM message that lists the games waiting on ``user_id`` (kept up to date)."""
        value = await self.store.get_meta(f"waiting:{user_id}")
        return int(value) if value else None

    async def keep_waiting_message(self, user_id: int, message_id: int) -> None:
        await self.store.set_meta(f"waiting:{user_id}", str(message_id))

    async def place_problem(self, game_id: int, user_id: int) -> str | None:
        """The sentence telling a player why their turns do not come to their place."""
        place = await self.store.place(game_id, user_id)
        return WHY.get(place.problem or "") if place is not None else None
