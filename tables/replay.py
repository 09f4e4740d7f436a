"""The one replay of a stored game (issue 27): seed + log, each move on the rules it
was played under.

A game records the rules revision it was begun under (``games.revision``) and its
upgrade points (``games.upgrades``: after ``at`` logged moves the state was carried
from revision ``from`` to ``to``). Replaying starts a new game under the begun-under
revision, applies the log, and at each upgrade point carries the state exactly as
the live game was carried. Revision 1 is release f63664e, whose rules only its
frozen engine (``legacy/r1``) still plays: its moves replay there, and at the
upgrade point ``STEPS[2]`` of ``engine/<game>/upgrade.py`` carries the state to
today's engine. Every replay (``/history``, ``/replay``, ``/undo``, owed-board
summaries, ``bot.py migrate``'s check) goes through :class:`Replay`.

Pure and CPU-bound: callers run it off the event loop.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from engine import core
from engine.core import FIRST_CARRIED_REVISION

if TYPE_CHECKING:
    from store import GameRow

# The revision only the frozen engine of release f63664e plays.
FROZEN = 1


def frozen_game(key: str) -> Any:
    """Release f63664e's engine of ``key`` (legacy/r1, imported on first use)."""
    legacy = importlib.import_module("legacy.r1.engine.core")
    return legacy.get(key)


def carry(game: core.Game, state: dict[str, Any], frm: int, to: int) -> dict[str, Any]:
    """``state`` of revision ``frm`` carried to revision ``to`` (``Game.upgrade``). A
    revision-1 state has no ``revision`` field, so the starting revision is given."""
    return game.upgrade(state, frm=frm, to=to)


def begun_under(row: GameRow) -> int:
    """The revision ``row``'s game was begun under (schema 5 records it for every
    started game; a row read before then counts as the first carried revision)."""
    return FIRST_CARRIED_REVISION if row.revision is None else int(row.revision)


def current_revision(row: GameRow) -> int:
    """The revision ``row``'s snapshot is at: the last upgrade point's, else begun-under."""
    return int(row.upgrades[-1]["to"]) if row.upgrades else begun_under(row)


class Replay:
    """Steps ``row``'s game from its seed through moves (seat, notation).

    ``engine`` is the engine the next move is played on and ``state`` its state
    (a frozen-engine state until the first upgrade point of a revision-1 game)."""

    def __init__(self, row: GameRow) -> None:
        self.game = core.get(row.game_key)
        self.points = sorted(row.upgrades, key=lambda p: int(p["at"]))
        self.rev = begun_under(row)
        n = len(row.seats)
        if self.rev == FROZEN:
            self.engine: Any = frozen_game(row.game_key)
            self.state = self.engine.new(n, row.options, row.seed)
        else:
            self.engine = self.game
            self.state = self.game.new(n, row.options, row.seed, revision=self.rev)
        self.n = 0
        self._carry_due()

    @property
    def frozen(self) -> bool:
        return self.engine is not self.game

    def _carry_due(self) -> None:
        for p in self.points:
            if int(p["at"]) == self.n and int(p["from"]) == self.rev:
                self.state = carry(self.game, self.state, self.rev, int(p["to"]))
                self.rev, self.engine = int(p["to"]), self.game

    def parse(self, note: str) -> Any:
        return self.engine.parse(note)

    def public_format(self, seat: int, note: str) -> str:
        """The move as the public history shows it, by the rules it was played under.
        A move of the frozen engine that it shows in full is also read by today's
        engine, whose idea of what the table may see wins where it hides more (Dungeon
        Lords' battle plans became secret in the history after release f63664e)."""
        action = self.engine.parse(note)
        shown = str(self.engine.public_format(self.state, seat, action))
        if not self.frozen or shown != str(self.engine.format(action)):
            return shown
        try:
            now = self.game.parse(note)
            hidden = str(self.game.public_format(self.carried(), seat, now))
        except Exception:  # notation today's engine does not read: the frozen text stands
            return shown
        return hidden if hidden != str(self.game.format(now)) else shown

    def step(self, seat: int, note: str) -> list[Any]:
        """Apply one logged move; returns its events (``text``, ``seat``)."""
        self.state, events = self.engine.apply(self.state, seat, self.engine.parse(note))
        self.n += 1
        self._carry_due()
        return list(events)

    def run(self, moves: list[tuple[int, str]]) -> Replay:
        for seat, note in moves:
            self.step(seat, note)
        return self

    def carried(self) -> dict[str, Any]:
        """The state now, on today's engine: a frozen-engine state goes through the
        carry (so today's views and renderers draw it)."""
        if not self.frozen:
            return self.state
        return self.game.upgrade(self.state, frm=self.rev)


def same_state(replay: dict[str, Any], snapshot: dict[str, Any]) -> bool:
    """Whether a replay ends on the stored snapshot. A snapshot saved before rules
    revisions were recorded has no ``revision`` field, which means revision 2
    (``Game.rules_revision``); a replay begun under revision 2 carries the field."""
    if replay.get("revision") == snapshot.get("revision"):
        return replay == snapshot
    first = {"revision": FIRST_CARRIED_REVISION}
    return {**first, **replay} == {**first, **snapshot}


def replayed(row: GameRow, moves: list[tuple[int, str]]) -> dict[str, Any]:
    """The state after ``moves`` (seat, notation) from the game's seed, as the
    snapshot would hold it (a finished revision-1 game never carried: the frozen
    engine's state). CPU-bound for a long game, so callers run it off the event loop."""
    return Replay(row).run(moves).state
