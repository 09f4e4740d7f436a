""" "Since your last move" (issue 37 item 3): what happened in a game since a seat
last moved, for the top of that seat's turn: the public moves in words with the
players' names put in, the seat's own private news (from its view only, never
another seat's secrets), and a picture of the board as it changed.

It is built from the stored action log and the one replay (tables/replay.py), so
it survives restarts and works on any process; only the seat's ``Game.view(state,
None)`` (public) boards are drawn, and only events addressed to the seat
(``Event.seat``) or to everyone (``None``) are read.

The API (stable; the seat's lasting place calls it):

    await tables.since(game_id, seat, picture=True) -> Since
    Since.lines() -> list[str]       # heading, public moves, "Only you see:" and the seat's news
    Since.text(room=SINCE_ROOM) -> str   # the lines fitted to room, newest public moves kept
    Since.image -> bytes | None      # an animated GIF (render/since.py), at most 2 MB
    Since.IMAGE_NAME == "since.gif"  # the file name to attach it under
    Since.empty -> bool              # nothing happened since the seat's last move

    report(row, entries, seat, picture=True) -> Since   # the same, pure and CPU-bound

"The seat's last move" is the last logged move its current player made themself;
moves the bot made for the seat since (a turn deadline, an only possible move) are
news to the player and are told as "Played for you: ...". A seat that has not moved
yet is told everything since the game began.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

from store import GameRow
from tables.base import TablesBase
from tables.replay import Replay
from tables.results import TableError
from tables.text import image_names, named

log = logging.getLogger("lairkeeper.tables")

# Room for the report in a message that also carries the turn (Discord's 2,000
# characters, less the seat's own state and the choices).
SINCE_ROOM = 1200
# Reports kept per (game, seat, version): a turn's report is asked for by the place
# and by "Your move" alike, and each costs a replay and several boards.
MAX_CACHED = 256

LogEntry = tuple[int, int, int | None, str, float]  # Store.log_full: seq, seat, user, notation, at


@dataclass(frozen=True)
class Since:
    """What happened in game ``game_id`` since ``seat``'s last move (see the module
    docstring). ``public``: the public moves in words, oldest first; ``private``:
    the seat's own news; ``image``: the boards as they changed (GIF) or None;
    ``moves``: how many moves were made since; ``last_at``: when the seat last
    moved (None: it has not moved yet)."""

    IMAGE_NAME: ClassVar[str] = "since.gif"

    game_id: int
    seat: int
    moves: int
    public: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    image: bytes | None = None
    last_at: float | None = None

    @property
    def empty(self) -> bool:
        return self.moves == 0

    def heading(self) -> str:
        if self.last_at is None:
            return "**Since the game began:**"
        return f"**Since your last move** (<t:{int(self.last_at)}:R>):"

    def _mine(self) -> list[str]:
        return ["**Only you see:**", *(f"- {p}" for p in self.private)] if self.private else []

    def lines(self) -> list[str]:
        """The heading, a line a public move's news, then what only this seat sees."""
        if self.empty:
            return []
        public = [f"- {p}" for p in self.public] or ["- Nothing the table can see changed."]
        return [self.heading(), *public, *self._mine()]

    def text(self, room: int = SINCE_ROOM) -> str:
        """The lines in at most ``room`` characters: the heading and the seat's own
        news stay (in at most half the room); the oldest public lines give way first."""
        lines = self.lines()
        if len("\n".join(lines)) <= room:
            return "\n".join(lines)
        mine = _whole_lines(self._mine(), room // 2)
        budget = room - len(self.heading()) - len("\n".join(mine)) - 2 - len(EARLIER) - 8
        kept = _whole_lines([f"- {p}" for p in reversed(self.public)], budget)[::-1]
        dropped = len(self.public) - len(kept)
        note = [EARLIER.format(dropped)] if dropped else []
        return "\n".join([self.heading(), *note, *kept, *mine])


EARLIER = "- ... {} earlier line(s) not shown; /history has every move."


def _whole_lines(lines: list[str], room: int) -> list[str]:
    """The first of ``lines`` that fit ``room`` characters together, none cut."""
    out: list[str] = []
    for line in lines:
        room -= len(line) + 1
        if room < 0:
            break
        out.append(line)
    return out


def last_own_move(row: GameRow, entries: list[LogEntry], seat: int) -> int:
    """How many logged moves come up to and including the last move ``seat``'s
    current player made themself (0: none yet)."""
    uid = row.seats[seat].user_id
    for i in range(len(entries) - 1, -1, -1):
        if entries[i][1] == seat and uid is not None and entries[i][2] == uid:
            return i + 1
    return 0


def _turn(rep: Replay) -> str:
    """Which turn the replayed state is in (a frozen engine knows no turn ids: the
    seats to act, today's default)."""
    if rep.frozen:
        return str(sorted(rep.engine.to_act(rep.state)))
    return str(rep.game.turn_id(rep.state))


def _label(rep: Replay, note: str) -> str:
    """The seat's own words for a move about to be replayed ("Played for you: ...")."""
    try:
        return str(rep.engine.describe(rep.state, rep.parse(note)))
    except Exception:  # a label is a courtesy; the notation stands in
        return note


def _board_of(rep: Replay) -> dict[str, Any]:
    return dict(rep.game.view(rep.carried(), None))


@dataclass
class _Walk:
    """What the replay of the moves since gathers."""

    public: list[str]
    private: list[str]
    frames: list[tuple[dict[str, Any], str]]


def _walk(row: GameRow, entries: list[LogEntry], seat: int, start: int, picture: bool) -> _Walk:
    rep = Replay(row).run([(s, note) for _q, s, _u, note, _at in entries[:start]])
    names = image_names(row)
    w = _Walk([], [], [])
    if picture:
        w.frames.append((_board_of(rep), "the start" if start == 0 else "after your last move"))
    for _seq, s, uid, note, _at in entries[start:]:
        turn = _turn(rep)
        if s == seat and uid is None:
            w.private.append(named(row, f"Played for you: {_label(rep, note)}."))
        for e in rep.step(s, note):
            if e.seat is None:
                w.public.append(named(row, e.text))
            elif e.seat == seat:
                w.private.append(named(row, e.text))
        if picture and _turn(rep) != turn:
            who = "your" if s == seat else f"{names[s]}'s"
            w.frames.append((_board_of(rep), f"after {who} turn"))
    if picture:
        now = _board_of(rep)
        if now != w.frames[-1][0]:
            w.frames.append((now, "now"))
        else:
            w.frames[-1] = (now, w.frames[-1][1] + " (now)")
    return w


def _unchanged(frames: list[tuple[dict[str, Any], str]]) -> list[tuple[dict[str, Any], str]]:
    """Frames that show something new: of boards that look alike, the later stays
    (its caption is the newer news)."""
    out: list[tuple[dict[str, Any], str]] = []
    for view, caption in frames:
        if out and out[-1][0] == view:
            out[-1] = (view, caption)
        else:
            out.append((view, caption))
    return out


def report(row: GameRow, entries: list[LogEntry], seat: int, picture: bool = True) -> Since:
    """What happened since ``seat``'s last move (see the module docstring).
    ``entries``: ``Store.log_full``. Pure and CPU-bound (a replay and, with
    ``picture``, the boards): run it off the event loop."""
    if row.state is None or not 0 <= seat < len(row.seats):
        return Since(row.id, seat, 0)
    start = last_own_move(row, entries, seat)
    last_at = entries[start - 1][4] if start else None
    if start == len(entries):
        return Since(row.id, seat, 0, last_at=last_at)
    w = _walk(row, entries, seat, start, picture)
    image = None
    if picture:
        # Imported here: the drawing (Pillow, fonts) is not needed before the bot is
        # ready, and the warm-up after "ready" loads it before any player asks.
        from render import since as since_render

        try:
            image = since_render.changes(row.game_key, _unchanged(w.frames), image_names(row))
        except Exception:  # the words still go out
            log.exception("since picture failed for game %s seat %s", row.id, seat)
    return Since(row.id, seat, len(entries) - start, tuple(w.public), tuple(w.private), image, last_at)


class SinceMixin(TablesBase):
    @property
    def _since_cache(self) -> OrderedDict[tuple[int, int, int, bool], Since]:
        cache = self.__dict__.get("_since_kept")
        if cache is None:
            cache = self.__dict__["_since_kept"] = OrderedDict()
        return cache

    async def since(self, game_id: int, seat: int, picture: bool = True) -> Since:
        """What happened in ``game_id`` since ``seat``'s last move: the words, the
        seat's own news and (``picture``) the boards as they changed. For the seat's
        own eyes only: its private news are in it."""
        row = await self._load(game_id)
        if row.state is None:
            raise TableError("This game has not started yet.")
        if not 0 <= seat < len(row.seats):
            raise TableError(f"Game #{game_id} has no seat {seat + 1}.")
        key = (row.id, seat, row.version, picture)
        cache = self._since_cache
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        entries = await self.store.log_full(game_id)
        done = await asyncio.to_thread(report, row, entries, seat, picture)
        cache[key] = done
        while len(cache) > MAX_CACHED:
            cache.popitem(last=False)
        return done
