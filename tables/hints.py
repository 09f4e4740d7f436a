"""Hints on request (issue 40 point 7): the "Hint" button beside "What now?".

A hint is what the searching computer player of normal strength would weigh for
the seat now: its top three moves, each with how often it won its playouts. The
search runs in the thinking pool (tables/thinking.py), off the event loop, on a job
holding only what the seat knows (its view, its legal moves, a seed digested from
its view): never the state, so a hint cannot carry another seat's secret. Only the
moves' names are written here, from the state, by the game's ``describe``, which
shows only what the acting seat can see.

The host may switch hints off for a game (the game setting ``hints``); every hint
given is counted for its seat (``seats.hints``, store schema 8) and the final
scores say how many each player asked for.
"""

from __future__ import annotations

import random
from typing import Any

from engine import core, search
from engine.core import Action
from store import GameRow
from tables.base import TablesBase
from tables.results import TableError
from tables.settings import DEFAULT_SETTINGS
from tables.text import display_name, plural
from tables.thinking import Job, job_for

# The strength whose search a hint shows, and whose budget it answers within.
HINT_LEVEL = "normal"
# Seconds of the budget a hint's search leaves to the rest of the hint (loading the
# game, the pool's round trip, the event loop, the answer): the hint as a whole answers
# within the normal strength's budget, as issue 40 asks, not only its search (Dungeon
# Lair's hints ended at 0.51-0.54 s with the search given the whole 0.5 s).
HINT_RESERVE = 0.06
# Moves a hint lists at most.
TOP = 3
# Hints name a move in one line each; a hint fits one Discord message.
HINT_ROOM = 1900

Ranked = list[tuple[Action, int, float]]


def think_hint(job: Job) -> tuple[Action, Ranked]:
    """What a worker runs for a hint: the normal searching player's move and its
    ranking of the moves it searched (move, playouts, summed value), from the seat's
    view and legal moves only. The move is the one that player would make: the
    search is the same, only its statistics are kept."""
    game = core.get(job.game_key)
    params = search.level_params(game, job.level)
    report = search.Report()
    move = search.search(
        game,
        job.view,
        job.legal,
        random.Random(job.seed),
        seconds=max(0.05, search.level(job.level).seconds - HINT_RESERVE),
        iterations=search.level_budget(params, job.level),
        report=report,
        params=params,
    )
    return move, report.moves


def hints_on(row: GameRow) -> bool:
    """Whether the game's host left hints on (a game setting, on unless switched off)."""
    return bool(row.settings.get("hints", DEFAULT_SETTINGS["hints"]))


def hint_text(
    game: core.Game, state: dict[str, Any], move: Action, ranked: Ranked, only: bool = False
) -> str:
    """The private answer: up to three moves, best first, each with its win share
    and playouts, in the game's own words for the move (``only``: the seat has one
    legal move)."""
    if only:
        return f"You have one move here: **{game.describe(state, move)}**."
    if not ranked:  # the game left the search one move worth weighing
        return (
            f"A computer player would play **{game.describe(state, move)}**: "
            "it is the only move worth weighing here."
        )
    lines = [
        f"What a {search.level(HINT_LEVEL).name.lower()} computer player would weigh, from what you can see:"
    ]
    for place, (action, playouts, value) in enumerate(ranked[:TOP], 1):
        share = round(100 * value / playouts) if playouts else 0
        lines.append(
            f"{place}. **{game.describe(state, action)}**: won {share}% of its {plural(playouts, 'playout')}"
        )
    lines.append("It would play the first. A playout plays the game on from here by rules of thumb.")
    return "\n".join(lines)[:HINT_ROOM]


class HintsMixin(TablesBase):
    async def hint(self, game_id: int, user_id: int) -> str:
        """The private answer to "Hint": the seat's best moves by the normal search,
        worked out in the thinking pool. One clear sentence (TableError) when no hint
        can be given: hints off, not a player, not this seat's move."""
        row = await self._load(game_id)
        if row.state is None:
            raise TableError("This game has not started yet: hints come once it has.")
        game = core.get(row.game_key)
        if game.is_over(row.state):
            raise TableError("The game is over; the final scores are on the last board.")
        if not hints_on(row):
            raise TableError("The host switched hints off for this game.")
        seat = row.seat_of(user_id)
        if seat is None:
            raise TableError("Only the players of this game can ask it for a hint.")
        if seat not in game.to_act(row.state):
            raise TableError("It is not your move yet: ask for a hint when it is.")
        job = job_for(game, row.state, seat, HINT_LEVEL)
        busy: set[tuple[int, int]] = self.__dict__.setdefault("_hints_busy", set())
        if (game_id, seat) in busy:  # a second click while the first is worked out: one search
            raise TableError("Your hint is still being worked out; it comes in a moment.")
        busy.add((game_id, seat))
        try:
            move, ranked = await self.thinker.consult(think_hint, job)
        except Exception:
            raise TableError("No hint could be worked out just now; please try again in a moment.") from None
        finally:
            busy.discard((game_id, seat))
        await self._count_hint(game_id, seat, job.seed)
        return hint_text(game, row.state, move, ranked, only=len(job.legal) == 1)

    async def _count_hint(self, game_id: int, seat: int, position: str) -> None:
        """Counts the hint for the seat, once a position: asking again before moving
        (the same view, so the same seed digest) is the same hint, not another."""
        last: dict[tuple[int, int], str] = self.__dict__.setdefault("_hints_last", {})
        if last.get((game_id, seat)) == position:
            return
        await self.store.count_hint(game_id, seat)
        last[(game_id, seat)] = position


def hints_used(row: GameRow) -> str:
    """The final scores' line of the hints each player asked for ("" where hints
    were off, or nobody plays in person)."""
    people = [s for s in row.seats if not s.is_ai]
    if not hints_on(row) or not people:
        return ""
    return "Hints used: " + ", ".join(f"{display_name(row, s.seat)} {s.hints}" for s in people) + "."
