"""Rules revisions of Dungeon Drawers: what changed in each, and how a stored game is
carried (the contract: ``engine.core.Game.upgrade``; how to make a change: docs/storage.md)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import State

REVISION = 3


def _to_3(state: State) -> State:
    """Revision 3 plays Phase A player by player: a seat takes a card only when nobody is
    installing one. A revision-2 state may hold several face-up cards at once (the next seat
    picked while the last one installed); they stay, those seats finish installing them, and
    only then does the next pick come. Revision 3 also keeps what the last turn changed, for the
    board (``last``, ``mark``): a carried game starts with nothing marked."""
    state.setdefault("last", None)
    state.setdefault("mark", None)
    return state


STEPS: dict[int, Callable[[State], State]] = {3: _to_3}

CHANGES: dict[int, str] = {
    2: "Moves are now built step by step (the hero's path square by square), cards are named by what they "
    "hold, and dice are rolled as today's bot rolls them for the rest of the game.",
    3: (
        "Phase A is now played player by player: you take your card, install it and turn it over, "
        "then the next player takes theirs; Erase is offered from your first element on. The hero's "
        "path is drawn run by run, each run going to the next junction or turn, and at refill you may "
        "put any of your cards under your action deck."
    ),
}
