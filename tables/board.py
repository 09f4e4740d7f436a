"""The board after a change: the images (board and step images, drawn at once
on worker threads), the message text, who is pinged, and each player's private
news; and the private "my area" reply (``/hand``)."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import render
from engine import core
from engine.core import Event
from engine.wording import mend_all
from store import GameRow
from tables.base import TablesBase
from tables.hints import hints_used
from tables.results import MAX_STEP_IMAGES, TableError, Update
from tables.text import display_name, fit_message, image_names, named, result_text

log = logging.getLogger("lairkeeper.tables")


@dataclass
class Drawn:
    png: bytes | None
    steps: list[bytes]
    seconds: float


@dataclass
class Words:
    """The text parts of a board message, with who is pinged and told what."""

    news: list[str]
    tail: list[str]
    ping: list[int] = field(default_factory=list)
    private: dict[int, list[str]] = field(default_factory=dict)
    choose: bool = False


def step_jobs(row: GameRow, before: GameRow | None, view: dict[str, Any]) -> list[Any]:
    """Worker-thread jobs drawing the renderer's step images between two boards."""
    rend = render.get(row.game_key)
    if rend.steps is None or before is None or before.state is None:
        return []
    view_before = mend_all(core.get(row.game_key).view(before.state, None))  # as the board before showed it
    try:
        jobs = rend.steps(view_before, view, image_names(row))[:MAX_STEP_IMAGES]
    except Exception:
        log.exception("step render failed for game %s version %s", row.id, row.version)
        return []
    return [asyncio.to_thread(job) for job in jobs]


async def draw(row: GameRow, before: GameRow | None) -> Drawn:
    """The public board and the step images since ``before``. The board and each step
    image are drawn at once on worker threads: Pillow lets go of the GIL while it
    fills, quantizes and encodes, so on two cores a battle's images no longer wait
    for the board (docs/performance.md)."""
    assert row.state is not None
    view = mend_all(core.get(row.game_key).view(row.state, None))  # the words as shown
    t0 = time.perf_counter()
    board = asyncio.to_thread(render.get(row.game_key).board, view, image_names(row))
    drawn = await asyncio.gather(board, *step_jobs(row, before, view), return_exceptions=True)
    seconds = time.perf_counter() - t0
    png = drawn[0] if isinstance(drawn[0], bytes) else None
    if isinstance(drawn[0], BaseException):  # the move is saved; a drawing failure must not hide that
        log.error("render failed for game %s version %s", row.id, row.version, exc_info=drawn[0])
    steps: list[bytes] = []
    for d in drawn[1:]:
        if isinstance(d, BaseException):
            log.error("step render failed for game %s version %s", row.id, row.version, exc_info=d)
        else:
            steps.extend(d if isinstance(d, list) else [d])
    return Drawn(png, steps[:MAX_STEP_IMAGES], seconds)


def words(row: GameRow, events: list[Event], before: GameRow | None, actor: tuple[int, int] | None) -> Words:
    """News lines, then the status (or final scores) and the seats."""
    game = core.get(row.game_key)
    assert row.state is not None
    w = Words(news=[e.text for e in events if e.seat is None], tail=[])
    for e in events:
        owner = row.seats[e.seat] if e.seat is not None else None
        if owner is not None and owner.user_id is not None and not owner.is_ai:
            w.private.setdefault(owner.user_id, []).append(e.text)
    if game.is_over(row.state):
        w.tail.append("\n".join(filter(None, (result_text(row), hints_used(row)))))
    else:
        acting = sorted(game.to_act(row.state))
        was = game.to_act(before.state) if before is not None and before.state is not None else set()
        # Pinged: whoever must act and was not already waited on before the last move,
        # and the seat whose turn just ended if it must act again (a new turn). A
        # board comes only when the turn changes, so a continuation pings nobody.
        waiting = ", ".join(display_name(row, s) for s in acting)
        status = game.status(row.state)
        w.tail.append(f"{status} Waiting for: {waiting}." if status else f"Waiting for: {waiting}.")
        # A news line the status repeats word for word is said once, in the status (issue 40).
        w.news = [n for n in w.news if not status or n.strip() != status.strip()]
        for s in acting:
            uid = row.seats[s].user_id
            if (
                uid is not None
                and not row.seats[s].is_ai
                and (s not in was or (actor is not None and actor[1] == s))
            ):
                w.ping.append(uid)
        w.choose = any(not row.seats[s].is_ai for s in acting)
    return w


async def area_png(row: GameRow, seat: int) -> bytes | None:
    """The renderer's picture of ``seat``'s own part of the game, if it draws one."""
    area = render.get(row.game_key).area
    if area is None or row.state is None:
        return None
    view = mend_all(core.get(row.game_key).view(row.state, seat))
    try:
        return await asyncio.to_thread(area, view, image_names(row))
    except Exception:  # the text answer still goes out
        log.exception("private render failed for game %s", row.id)
        return None


class BoardMixin(TablesBase):
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
        over = core.get(row.game_key).is_over(row.state)
        drawn = await draw(row, before)
        w = words(row, events or [], before, actor)
        moved = await self.rating_moves(row) if over else ""
        if moved:  # how each player's rating moved (issue 41)
            w.tail.append(moved)
        if not over:
            away = await self._away_names(row)
            if away:
                w.tail.append(away)
            if await self.is_paused(game_id):
                w.tail.append("**Paused** by the host: no moves, deadlines or reminders until /game resume.")
                w.choose = False
        actor_private = None
        if actor is not None:
            actor_private = named(row, "\n".join(w.private.pop(actor[0], []))) or None
        return Update(
            game_id=row.id,
            version=row.version,
            thread_id=row.thread_id,
            text=fit_message(
                named(row, intro or ""), [named(row, n) for n in w.news], named(row, "\n".join(w.tail))
            ),
            png=drawn.png,
            ping=w.ping,
            actor_private=actor_private,
            private={u: named(row, "\n".join(t)) for u, t in w.private.items()},
            choose=w.choose,
            dm=[u for u in w.ping if await self.store.wants_dm(u)],
            steps=drawn.steps,
            over=over,
            moves=row.moves,
            timings={"render": drawn.seconds},
            heads_up=await self.heads_up(row, before),
        )

    async def _away_names(self, row: GameRow) -> str:
        now = self.clock()
        away = []
        for s in row.seats:
            if s.user_id is not None and not s.is_ai:
                v = await self.store.vacation(s.user_id)
                if v is not None and v[1] > now:
                    away.append(f"{s.name} is away until <t:{int(v[1])}:f>")
        return ("; ".join(away) + ".") if away else ""

    async def hand(self, game_id: int, user_id: int) -> tuple[str, bytes | None]:
        """Private text and, if the game draws one, the player's own area ("my area")."""
        row = await self._load(game_id)
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("You are not a player in this game.")
        if row.state is None:
            raise TableError("This game has not started yet.")
        text = named(row, core.get(row.game_key).private_text(row.state, seat))
        return text, await area_png(row, seat)

    async def private_area(self, game_id: int, seat: int) -> bytes | None:
        """The "my area" image of ``seat`` (selfplay saves one; players get theirs by /hand)."""
        row = await self._load(game_id)
        if row.state is None or not 0 <= seat < len(row.seats):
            return None
        return await area_png(row, seat)

    @staticmethod
    def named(row: GameRow, text: str) -> str:
        """Replace the engine's "Player N" with the name of seat N-1."""
        return named(row, text)

    def result_text(self, row: GameRow) -> str:
        return result_text(row)
