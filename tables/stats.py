"""Statistics of a server's games (``/stats``, issue 41): the rating leaderboard per
game and overall, one player's rating over time and record against each computer
strength, tonight's table (``since``), and how a finished game moved its players'
ratings (the final board).

The ratings (tables/ratings.py) are derived from the games table in the order the
games ended; each process keeps the result per server and adds the games that ended
since, so a final board costs one game's update, and rebuilding gives the same."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any

from engine import core
from engine.core import IllegalAction
from store import GameRow
from tables import ratings
from tables.base import TablesBase
from tables.ratings import OVERALL, Book, Played, Rating
from tables.results import HOUR, TableError
from tables.text import plural

log = logging.getLogger("lairkeeper.stats")

LEADERBOARD_ROWS = 15
# The kept ratings are written to the store after this many games (and after every
# rebuild): a restart then adds at most this many games to them, not every game.
SAVE_EVERY = 20
# Games a "was a person replaced" query reads the moves of (a rebuild reads them all).
CHUNK = 500
# Seconds a final board waits for its players' new ratings.
BOARD_WAIT = 3.0


@dataclass
class Kept:
    """A server's ratings as this process keeps them."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    book: Book | None = None
    unsaved: int = 0  # games added since the store's copy was written
    saving: asyncio.Task[None] | None = None


SINCE = re.compile(r"\s*(\d{1,4}(?:\.\d+)?)\s*([hd]?)\s*")


def since_hours(text: str) -> float:
    """'12h', '2d', '6' (hours) -> hours; anything else is one sentence."""
    m = SINCE.fullmatch(text or "")
    hours = float(m[1]) * (24 if m[2] == "d" else 1) if m else 0.0
    if not m or not 0 < hours <= 24 * 365:
        raise TableError(f"'{text}' is not a time span; write hours like 12h or days like 2d.")
    return hours


def signed(x: float) -> str:
    return f"+{x:.1f}" if x >= 0 else f"{x:.1f}"


def rating_words(r: Rating) -> str:
    return f"{r.shown:.1f}" + (" (provisional)" if r.provisional else "")


def ranking_of(
    key: str, result: dict[str, Any] | None, state: dict[str, Any] | None
) -> list[list[int]] | None:
    """A game's places: its stored result, or for an abandoned game the standings its
    snapshot gives when it stopped (only read when the server rates such games)."""
    if result is not None:
        return [list(g) for g in result["ranking"]]
    if state is None:
        return None
    try:
        return core.get(key).result(state).ranking
    except Exception:  # a half-set-up or unreadable snapshot ranks nobody
        return None


class StatsMixin(TablesBase):
    def _books(self) -> dict[tuple[int | None, bool], Kept]:
        return self.__dict__.setdefault("_rating_books", {})  # type: ignore[no-any-return]

    async def _ended(
        self, guild_id: int | None, after: tuple[float, int] | None, unfinished: bool
    ) -> list[Played]:
        rows = await self.store.ended(guild_id, after, states=unfinished)
        replaced: set[int] = set()
        ids = [r[0] for r in rows] if not unfinished else []
        for i in range(0, len(ids), CHUNK):  # each query well within the database's time limit
            replaced |= await self.store.replaced(guild_id, ids[i : i + CHUNK])
        # A game no longer installed stays in the count, unrated.
        known = {key for key in {r[1] for r in rows} if installed(key)}
        return [
            Played(
                gid,
                key,
                status,
                ended,
                seats,
                ranking_of(key, result, state) if key in known else None,
                gid in replaced,
            )
            for gid, key, status, result, ended, seats, state in rows
        ]

    async def rating_book(self, guild_id: int | None) -> Book:
        """The server's ratings: the book kept here (or in the store, after a restart)
        brought up to date with the games that ended since; rebuilt from the games
        when the games before it changed (their count differs) or none was kept."""
        unfinished = bool((await self.guild_settings(guild_id))["rate_unfinished"])
        kept = self._books().setdefault((guild_id, unfinished), Kept())
        async with kept.lock:
            book = kept.book
            if book is None:
                stored = await self.store.ratings_cached(guild_id, unfinished)
                book = await asyncio.to_thread(ratings.from_json, stored) if stored else None
            if book is not None:
                new = await self._ended(guild_id, book.last, unfinished)
                if await self.store.ended_count(guild_id) == book.count + len(new):
                    for g in new:
                        book.add(g, unfinished)
                    kept.book, kept.unsaved = book, kept.unsaved + len(new)
                    if kept.unsaved >= SAVE_EVERY and kept.saving is None:  # beside the answer
                        kept.saving = asyncio.create_task(self._save_later(guild_id, unfinished, kept))
                    return book
            games = await self._ended(guild_id, None, unfinished)
            kept.book = await asyncio.to_thread(ratings.rate_all, games, unfinished)
            await self._save_book(guild_id, unfinished, kept)
            return kept.book

    async def warm_ratings(self, guild_ids: list[int]) -> int:
        """After a start-up, beside everything else: rebuild the ratings of the servers
        whose games have none kept (the first start after ratings came, or after a change
        of their format), one server at a time, so that no one's first /stats or final
        board waits seconds for it. Returns the servers rebuilt."""
        built = 0
        for guild_id in guild_ids:
            try:
                unfinished = bool((await self.guild_settings(guild_id))["rate_unfinished"])
                head = await self.store.kept_ratings_head(guild_id, unfinished)
                if head is not None and ratings.is_current(head):
                    continue  # read when first used: a restart's check costs well under 1 s
                if not await self.store.ended_count(guild_id):
                    continue
                t0 = time.perf_counter()
                await self.rating_book(guild_id)
                built += 1
                log.info("ratings of server %s rebuilt in %.1f s", guild_id, time.perf_counter() - t0)
            except Exception:  # its first use rebuilds them instead
                log.exception("the ratings of server %s were not rebuilt at start-up", guild_id)
        return built

    async def _save_later(self, guild_id: int | None, unfinished: bool, kept: Kept) -> None:
        try:
            async with kept.lock:
                await self._save_book(guild_id, unfinished, kept)
        except Exception:  # a cache: the next save (or a rebuild) makes up for it
            log.exception("the ratings of server %s were not kept", guild_id)
        finally:
            kept.saving = None

    async def _save_book(self, guild_id: int | None, unfinished: bool, kept: Kept) -> None:
        assert kept.book is not None
        text = await asyncio.to_thread(ratings.to_json, kept.book)
        await self.store.cache_ratings(guild_id, unfinished, text)
        kept.unsaved = 0

    async def rating_moves(self, row: GameRow) -> str:
        """The final board's line: how each player's rating in this game moved. A board
        never waits long for it: the first ratings of a server with many games stored
        before ratings existed take seconds (once); it then goes out without the line."""
        # A context of its own: not the move's database time limit, so a long first
        # rebuild goes on after the board is posted, and the next board finds it.
        task = asyncio.create_task(self.rating_book(row.guild_id), context=contextvars.Context())
        running: set[asyncio.Task[Book]] = self.__dict__.setdefault("_rating_tasks", set())
        running.add(task)  # kept: tasks are weakly held
        task.add_done_callback(running.discard)
        try:
            book = await asyncio.wait_for(asyncio.shield(task), BOARD_WAIT)
        except Exception:  # the board goes out without it; /stats tells the same later
            log.warning("game %s: the ratings were not ready for its final board", row.id)
            return ""
        moves = book.moves.get(row.id)
        if not moves:
            return "This game is not rated." if row.status == "over" else ""
        parts = [
            f"{book.names.get(m.who, '?')} {m.before:.1f} → {m.after:.1f} ({signed(m.after - m.before)})"
            + (", provisional" if m.provisional else "")
            for m in moves
        ]
        return "Ratings: " + "; ".join(parts) + "."

    async def stats(self, guild_id: int | None, game_key: str | None = None) -> tuple[str, bytes | None]:
        """The rating leaderboard of a server, one game's or overall (text and picture)."""
        if game_key is not None:
            self.game_info(game_key)  # an unknown game is one sentence
        book = await self.rating_book(guild_id)
        pool = game_key or OVERALL
        board = book.board(pool)
        if not board:
            return "No rated games here yet.", None
        title = core.get(game_key).title if game_key else "All games"
        # Each rated game adds one entry a seat: seats over the pool's entries.
        games = book.games.get(pool, 0)
        lines = [f"**{title}**: ratings from {plural(games, 'rated game')}."]
        for i, (who, r) in enumerate(board[:20], 1):
            lines.append(
                f"{i}. {book.names.get(who, '?')}: {rating_words(r)} - "
                f"{plural(r.wins, 'win')} in {plural(r.games, 'game')}"
            )
        lines.append(f"A rating is provisional for a player's first {ratings.PROVISIONAL_GAMES} games.")
        from render import standings

        rows = [(book.names.get(w, "?"), r.shown, r.games, r.wins, r.provisional) for w, r in board]
        png = await asyncio.to_thread(
            standings.leaderboard, title, f"{plural(games, 'rated game')}", rows[:LEADERBOARD_ROWS]
        )
        return "\n".join(lines), png

    async def player_stats(
        self, guild_id: int | None, user_id: int, name: str, game_key: str | None = None
    ) -> tuple[str, bytes | None]:
        """One person's rating over time (a small plot) and record against each computer strength."""
        if game_key is not None:
            self.game_info(game_key)
        book = await self.rating_book(guild_id)
        pool, who = game_key or OVERALL, ratings.person(user_id)
        r = book.ratings.get((pool, who))
        title = core.get(game_key).title if game_key else "all games"
        if r is None:
            return f"{name} has no rated games here in {title} yet.", None
        name = book.names.get(who, name)
        lines = [
            f"**{name}** in {title}: rating {rating_words(r)}, "
            f"{plural(r.wins, 'win')} in {plural(r.games, 'rated game')}."
        ]
        for level in ("easy", "normal", "hard"):
            rec = book.against.get((pool, who, level))
            if rec is not None:
                lines.append(
                    f"Against the {ratings.computer_name(level)}: ahead {rec.ahead}, behind {rec.behind}"
                    + (f", shared {rec.shared}" if rec.shared else "")
                    + "."
                )
        from render import standings

        points = book.history[(pool, who)]
        png = await asyncio.to_thread(standings.rating_plot, f"{name}: {title}", points)
        return "\n".join(lines), png

    async def tonight(self, guild_id: int | None, hours: float) -> str:
        """Tonight's table: the games that ended in the last ``hours``: who played
        what and who won, and how each person did (games, wins, rating moved)."""
        book = await self.rating_book(guild_id)
        start = self.clock() - hours * HOUR
        ended = [
            g
            for g in await self._ended(guild_id, (start, 0), False)
            if g.status == "over" and installed(g.game_key)
        ]
        if not ended:
            return f"No games ended here in the last {since_words(hours)}."
        lines = [f"**The last {since_words(hours)}**: {plural(len(ended), 'game')}."]
        tally: dict[str, list[float]] = {}  # who -> games, wins, rating moved
        named: dict[str, str] = {}
        counted: set[tuple[str, int]] = set()
        for g in ended:
            names = {s.seat: seat_name(book, s) for s in g.seats}
            winners = " and ".join(names[s] for s in (g.ranking or [[]])[0])
            others = ", ".join(names[s.seat] for s in g.seats)
            lines.append(f"#{g.game_id} {core.get(g.game_key).title} ({others}): {winners} won.")
            change = {m.who: m.after - m.before for m in book.moves.get(g.game_id, [])}
            won = {ratings.holder(s) for s in g.seats if s.seat in (g.ranking or [[]])[0]}
            for s in g.seats:  # a strength with two seats in a game: one game for it
                who = ratings.holder(s)
                named[who] = names[s.seat]
                t = tally.setdefault(who, [0, 0, 0.0])
                if (who, g.game_id) not in counted:
                    counted.add((who, g.game_id))
                    t[0] += 1
                    t[1] += who in won
                    t[2] += change.get(who, 0.0)
        lines.append("**Who did what**")
        for who, (n, wins, moved) in sorted(tally.items(), key=lambda e: (-e[1][1], -e[1][2])):
            lines.append(
                f"{named[who]}: {plural(int(wins), 'win')} in {plural(int(n), 'game')}, rating {signed(moved)}"
            )
        return "\n".join(lines)


def installed(key: str) -> bool:
    """Whether the game ``key`` can be read here (a game no longer installed is left out)."""
    try:
        core.get(key)
    except IllegalAction:
        return False
    return True


def seat_name(book: Book, s: Any) -> str:
    who = ratings.holder(s)
    return book.names.get(who) or (s.name if s.user_id is not None else ratings.computer_name(s.level))


def since_words(hours: float) -> str:
    if hours >= 24 and hours % 24 == 0:
        return plural(int(hours // 24), "day")
    return plural(int(hours), "hour") if hours == int(hours) else f"{hours:g} hours"
