"""Rules revisions of Monster Inn: what changed in each, and how a stored game is
carried (the contract: ``engine.core.Game.upgrade``; how to make a change: docs/storage.md)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import State

REVISION = 3


def _to_3(state: State) -> State:
    """Revision 3 shows the back of the deck's top card to everyone (issue 29): it is
    read from the deck as it lies. Issue 28 adds ``last`` (what the last turn changed, for the
    board's marks): a stored game has no record of it, so it starts empty."""
    state.setdefault("last", None)
    return state


STEPS: dict[int, Callable[[State], State]] = {3: _to_3}

CHANGES: dict[int, str] = {
    2: "Face-down humanoids now show the backs the rulebook gives them; moves are named and shown as in "
    "today's bot. The rules of the rest of the game are otherwise unchanged.",
    3: (
        "Everyone now sees the back of the deck's top card, as at the table: a monster, or a "
        "humanoid with its combat value range and skulls."
    ),
}
