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


def _draft_to_3(state: State, seat: int, prefix: list[str]) -> list[str] | None:
    """A half-made move (issue 39) in revision 3's chooser tokens. Revision 2 chose a
    space by its row first ('r8', then 'G8'; now the space on the picture), a hero
    action's card and dungeon in two steps ('c26', 'p2'; now 'c26p2'), and the hero's
    path square by square ('R', 'R', 'D'; now run by run)."""
    from engine.dungeon_drawers import paths

    if state.get("phase") == "path":
        owner = (seat - 1) % state["seats"]
        cells = paths.cells_of(prefix)
        return None if cells is None else paths.run_tokens(state["players"][owner]["sheet"], cells)
    out: list[str] = []
    for token in prefix:
        if state.get("phase") == "build" and token[:1] == "r" and token[1:].isdigit():
            continue
        if token[:1] == "p" and token[1:].isdigit() and out and out[-1][:1] == "c" and out[-1][1:].isdigit():
            out[-1] += token
        else:
            out.append(token)
    return out


# How a half-made move's chooser tokens read under each revision (tables/drafts.py).
DRAFTS: dict[int, Callable[[State, int, list[str]], list[str] | None]] = {3: _draft_to_3}
