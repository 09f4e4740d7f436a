"""A week-long game's upkeep (issue 22): boards owed to a thread (after a restart,
a deadline, a takeover or an outage), handing a seat to another member, pause,
resume and one deadline extension, lobby expiry, "tell me when I'm next", and
/mygames in pages."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from engine import core
from store import Conflict, GameRow
from tables.base import TablesBase
from tables.results import HOUR, Notice, TableError, Update
from tables.text import MESSAGE_ROOM, display_name, plural

if TYPE_CHECKING:
    from tables.turns import Said

log = logging.getLogger("lairkeeper.tables")

PAUSED = "This game is paused; the host can resume it with /game resume."
# Timers of a paused game are moved this far ahead (and back on resume), so no
# reminder or deadline fires while it is paused without another query per timer.
PAUSE_SHIFT = 10 * 365 * 24 * HOUR
DAY = 24 * HOUR
TRACKING = "posted_tracking"


def next_up(row: GameRow, log_: list[tuple[int, int, str]]) -> int | None:
    """Who is likely to act after the seats acting now, read from the public move log:
    the seat that moved after them the last time they moved. None if unknown."""
    assert row.state is not None
    acting = core.get(row.game_key).to_act(row.state)
    seats = [seat for _seq, seat, _note in log_]
    for i in range(len(seats) - 1, -1, -1):
        if seats[i] in acting:
            for later in seats[i + 1 :]:
                if later not in acting:
                    return later
            return None
    return None


def pages_of(lines: list[str], room: int = MESSAGE_ROOM) -> list[str]:
    """Lines packed into messages of at most ``room`` characters, never cutting one."""
    pages: list[str] = []
    cur = ""
    for line in lines:
        line = line[:room]
        if cur and len(cur) + 1 + len(line) > room:
            pages.append(cur)
            cur = ""
        cur = f"{cur}\n{line}" if cur else line
    if cur:
        pages.append(cur)
    return pages


# The verb of each host-only act, for "Only the host ... can pause a game."
HOST_VERBS = {
    "paused": "pause",
    "resumed": "resume",
    "extended": "extend",
    "handed over": "hand over a seat of",
}


def carried_only(row: GameRow, marked: int | None) -> bool:
    """Whether the only change since the thread's last board is the carry of the
    game to newer rules: its newest upgrade point is at its last move, and the last
    board covered every move (``marked``; None: a game whose boards were all counted
    posted when the tracking began, before the carry)."""
    if not row.upgrades:
        return False
    at = row.upgrades[-1].get("at")
    return isinstance(at, int) and at == row.moves and (marked is None or marked >= row.moves)


class UpkeepMixin(TablesBase):
    if TYPE_CHECKING:  # provided by the other parts of the facade

        async def guild_settings(self, guild_id: int | None) -> dict[str, Any]: ...

        async def my_games(self, user_id: int, guild_id: int | None) -> list[dict[str, Any]]: ...

        async def news(self, row: GameRow) -> list[Said]: ...

        def _posted(self, game_id: int, moves: int) -> None: ...

        def _covered(self, game_id: int, version: int) -> int: ...

    # ---- boards owed ------------------------------------------------------------------
    async def start_tracking(self) -> None:
        """On the first start that tracks posted boards, every earlier board counts
        as posted (a schema 3 upgrade reads posted_version 0 for every game)."""
        if await self.store.get_meta(TRACKING) is None:
            n = await self.store.mark_all_posted()
            await self.store.set_meta(TRACKING, "1")
            log.info("tracking posted boards from now on (%d games marked as posted)", n)

    async def owed(self) -> list[int]:
        """Games whose newest board has not reached their thread (but not a game whose
        move is under way here: that move posts its turn's board)."""
        owed = await self.store.owed(time.time())
        return [g for g in owed if g not in self._busy]

    async def owed_board(self, game_id: int) -> Update | None:
        """The board a thread is owed, its text summarising every move since the last
        board that reached it; None if nothing is owed."""
        row = await self._load(game_id)
        _paused, _ext, posted = await self.store.flags(game_id)
        if row.state is None or posted >= row.version:
            return None
        marked = await self.store.marked_moves(game_id)
        if carried_only(row, marked):
            # Only the rules were carried since the last board (issue 39): the same
            # position again, with buttons that work; no move to count, nobody to
            # ping again (the thread is told what changed by its upgrade notice).
            update = await self.board(game_id)
            update.ping, update.dm, update.heads_up = [], [], []
            return update
        since = marked or 0
        news = await self.news(row)
        # Counted from what the moves said: moves by number would count the ones taken
        # back; by number only where nothing could be said (a board never marked).
        n = len(news) or max(0, row.moves - since)
        intro = None
        if n:
            intro = f"{plural(n, 'move')} since the last board:"
        return await self.board(
            game_id, events=[e for s in news for e in s.events if e.seat is None], intro=intro
        )

    async def mark_posted(self, update: Update) -> bool:
        # A move inside the same turn, made while this board was on its way, must not
        # leave the thread owed a second board of that turn.
        version = self._covered(update.game_id, update.version)
        # This process's board claim is honoured, unless a move of its own is under way.
        release = update.game_id not in self._busy
        marked = await self.store.mark_posted(update.game_id, version, update.moves, release)
        if marked:
            self._posted(update.game_id, update.moves)
        return marked

    async def posted_version(self, game_id: int) -> int:
        return (await self.store.flags(game_id))[2]

    # ---- pause, resume, extend ----------------------------------------------------------
    async def _host_or_admin(self, game_id: int, user_id: int, is_admin: bool, what: str) -> GameRow:
        """The game, if ``user_id`` may do ``what`` to it (a past participle: "paused")."""
        row = await self._load(game_id)
        if row.status != "active":
            raise TableError(f"Only a running game can be {what}; this one is {row.status}.")
        if user_id != row.host_id and not is_admin:
            verb = HOST_VERBS.get(what, what)
            raise TableError(f"Only the host or a member with Manage Server can {verb} a game.")
        return row

    async def is_paused(self, game_id: int) -> bool:
        return (await self.store.flags(game_id))[0] > 0

    async def pause(self, game_id: int, user_id: int, is_admin: bool = False) -> str:
        async with self._lock(game_id):
            await self._host_or_admin(game_id, user_id, is_admin, "paused")
            now = self.clock()
            if not await self.store.set_paused(game_id, max(1, int(now)), PAUSE_SHIFT):
                raise TableError("This game is already paused.")
        return (
            f"Game #{game_id} is paused: no moves, deadlines or reminders until the host uses /game resume."
        )

    async def resume(self, game_id: int, user_id: int, is_admin: bool = False) -> Update:
        async with self._lock(game_id):
            await self._host_or_admin(game_id, user_id, is_admin, "resumed")
            paused_at = (await self.store.flags(game_id))[0]
            if not paused_at:
                raise TableError("This game is not paused.")
            # Deadlines get back the time they lost while paused.
            shift = -PAUSE_SHIFT + max(0.0, self.clock() - paused_at)
            await self.store.set_paused(game_id, 0, shift)
        events = await self._run_ai(game_id)
        return await self.board(game_id, events=events, intro=f"Game #{game_id} goes on.")

    async def extend(self, game_id: int, user_id: int, is_admin: bool = False) -> str:
        """Push the current turn's deadlines back by one deadline period, once a turn."""
        async with self._lock(game_id):
            row = await self._host_or_admin(game_id, user_id, is_admin, "extended")
            if await self.is_paused(game_id):
                raise TableError(PAUSED)
            period = (await self.settings_for(row))["deadline_hours"] * HOUR
            if not period:
                raise TableError("This game has no turn deadline to extend.")
            turn = int(row.turn_since or row.created_at) or 1
            if (await self.store.flags(game_id))[1] == turn:
                raise TableError("This turn's deadline was already extended once.")
            try:
                await self.store.extend(game_id, turn, period)
            except Conflict:
                raise TableError("No deadline is running in this game right now.") from None
        return f"The current deadline of game #{game_id} is {period / HOUR:g} hours later."

    # ---- handing a seat to another member ------------------------------------------------
    async def hand_seat(
        self, game_id: int, user_id: int, seat: int, to_user: int, to_name: str, is_admin: bool = False
    ) -> Update:
        """The host (or Manage Server) gives seat ``seat`` (0-based) of a running game to
        ``to_user``, a player's seat or one the AI took over. Only the new holder sees
        the seat's secrets from now on, and is pinged."""
        async with self._lock(game_id):
            row = await self._host_or_admin(game_id, user_id, is_admin, "handed over")
            if not 0 <= seat < len(row.seats):
                raise TableError(f"This game has seats 1 to {len(row.seats)}.")
            if row.seat_of(to_user) is not None:
                raise TableError("That member already plays a seat in this game.")
            old = display_name(row, seat)
            try:
                await self.store.give_seat(game_id, row.version, seat, to_user, to_name)
            except Conflict:
                raise TableError("The game changed at the same moment; please try again.") from None
            new = await self._load(game_id)
            assert new.state is not None
            if seat in core.get(new.game_key).to_act(new.state):
                arm, _ = await self._timer_changes(new, set(), {seat})
                await self.store.arm(game_id, arm)
        # The mention pings the new holder whether or not the seat is to act now.
        intro = f"<@{to_user}> ({to_name}) takes over the seat of {old}."
        update = await self.board(game_id, intro=intro, before=row)
        update.mentions.append(to_user)
        return update

    # ---- tell me when I'm next --------------------------------------------------------------
    async def watch(self, game_id: int, user_id: int, on: bool) -> str:
        row = await self._load(game_id)
        if row.seat_of(user_id) is None:
            raise TableError("You are not a player in this game.")
        await self.store.set_watch(game_id, user_id, on)
        if on:
            return "You will be pinged when you are likely next to act in this game (and on your turn)."
        return "You will only be pinged on your turn."

    async def heads_up(self, row: GameRow, before: GameRow | None) -> list[tuple[int, str]]:
        """(user, sentence) for watchers who are likely next now that the turn changed."""
        watchers = await self.store.watchers(row.id)
        if not watchers or row.state is None or row.status != "active":
            return []
        game = core.get(row.game_key)
        acting = game.to_act(row.state)
        if before is not None and before.state is not None and game.to_act(before.state) == acting:
            return []
        nxt = next_up(row, await self.store.log(row.id))
        if nxt is None or nxt in acting or row.seats[nxt].is_ai:
            return []
        uid = row.seats[nxt].user_id
        if uid not in watchers:
            return []
        now = ", ".join(display_name(row, s) for s in sorted(acting))
        return [(uid, f"you are likely next in game #{row.id}, after {now}.")]

    async def wants_dm(self, user_id: int) -> bool:
        return await self.store.wants_dm(user_id)

    # ---- lobbies that never started ---------------------------------------------------------
    async def expire_lobbies(self, now: float | None = None) -> list[Notice]:
        """Abandon lobbies untouched for the server's ``lobby_days``; a notice for each."""
        now = self.clock() if now is None else now
        out: list[Notice] = []
        for game_id, guild_id, thread_id, updated, version in await self.store.lobbies():
            days = (await self.guild_settings(guild_id))["lobby_days"]
            if updated + days * DAY > now:
                continue
            try:
                await self.store.abandon(game_id, version)
            except Conflict:
                continue  # someone joined or started it at the same moment
            text = (
                f"This lobby (game #{game_id}) expired: it was not started within {days:g} days. "
                "Open a new one with /game new."
            )
            out.append(Notice("expired", game_id, thread_id, text))
        return out

    # ---- /mygames in pages ----------------------------------------------------------------------
    async def my_games_pages(self, user_id: int, guild_id: int | None) -> list[str]:
        """/mygames as messages of at most 1,900 characters, one game a line, never cut."""
        lines = []
        for g in await self.my_games(user_id, guild_id):
            mark = "**your turn**" if g["waiting_on_you"] else f"waiting for {g['whose_turn']}"
            where = f" <#{g['thread_id']}>" if g["thread_id"] else ""
            lines.append(f"#{g['game_id']} {g['title']}: {mark} since <t:{int(g['since'])}:R>{where}")
        pages = pages_of(lines, MESSAGE_ROOM - 40)
        return [f"{p}\n(page {i} of {len(pages)})" if len(pages) > 1 else p for i, p in enumerate(pages, 1)]
