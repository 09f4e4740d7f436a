"""Rules revisions of Dungeon Lair: what changed in each, and how a stored game is
carried (the contract: ``engine.core.Game.upgrade``; how to make a change: docs/storage.md)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import State

REVISION = 3


def _from_r1(state: State) -> State:
    """Revision 1 -> 2: the 15 x 15 grid's names (first tile H8) become the edgeless
    map's x,y names (H8 -> 0,0) on the board, the tiles placed this turn, the chain
    and every monster; the Catacombs variant, which revision 1 did not have, is off."""
    from engine.dungeon_lair import board

    board.upgrade(state)
    state["options"] = {**state.get("options", {}), "catacombs": False}
    return state


def _to_3(state: State) -> State:
    """Revision 3 (issue 29, issue 26) changes what may be taken back, the move chooser and the
    turn's board, none of which is in the state or replayed: a state carries over unchanged.
    The take-back rule is not gated by revision: /undo is never replayed, and it closes a leak
    of a hidden tile that games in progress must not keep. Issue 28 adds ``last`` (what the last
    turn changed, for the board's marks): a stored game has no record of it, so it starts empty."""
    state.setdefault("last", None)
    return state


STEPS: dict[int, Callable[[State], State]] = {2: _from_r1, 3: _to_3}

CHANGES: dict[int, str] = {
    2: "The map has no edge now: squares are named by column and row counted from the first tile "
    "(H8 is now 0,0, G7 is -1,-1). The new Catacombs variant is off for this game.",
    3: (
        "A move after which the next player drew a tile, and the removal of a tile that cannot be "
        "placed, can no longer be taken back; a place is now picked on a picture of the map."
    ),
}
