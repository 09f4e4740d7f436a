"""Rules revisions of Dungeon Decorators: what changed in each, and how a stored game is
carried (the contract: ``engine.core.Game.upgrade``; how to make a change: docs/storage.md)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import State

REVISION = 4


# Release f63664e (revision 1) drew each dungeon on a 13 x 13 grid whose starting
# tile lay on G7 (column 6, row 6, 0-based), and could lay a tile mirrored ("flip").
_R1_START = (6, 6)


def _r1_square(name: str) -> str:
    """A revision-1 square ('G7') renamed on today's grid ('AO41'): the same place
    relative to the starting tile."""
    from engine.dungeon_decorators import rules as R

    x, y = ord(name[0].upper()) - 65, int(name[1:]) - 1
    return R.coord((x - _R1_START[0] + R.ORIGIN, y - _R1_START[1] + R.ORIGIN))


def _r1_dungeon(dungeon: dict[str, dict]) -> dict[str, dict]:
    # A mirrored tile keeps the passages it shows ("e"); only the flag goes.
    return {_r1_square(at): {k: v for k, v in cell.items() if k != "flip"} for at, cell in dungeon.items()}


def _from_r1(state: State) -> State:
    """Revision 1 -> 2: every square renamed from the 13 x 13 grid (start G7) to the
    edgeless one (start AO41), in every dungeon and in the copy a build keeps for
    "reset"; the mirror flag dropped (tiles are no longer mirrored)."""
    for p in state["players"]:
        p["dungeon"] = _r1_dungeon(p["dungeon"])
    if state.get("snapshot"):
        state["snapshot"]["dungeon"] = _r1_dungeon(state["snapshot"]["dungeon"])
    return state


def _to_3(state: State) -> State:
    """Revision 3 (this session): the rules that changed read the revision, and no
    field was added or renamed, so a revision-2 state from any point of a game plays
    on as it is. A build under way keeps its phase; a build that would have ended
    by itself now waits for "done" (the Score step is always offered, so declining
    a goal looks like having none); a score phase already entered plays on. The
    board's record of what the last turn changed starts empty."""
    state.setdefault("turn_mark", None)
    state.setdefault("last_turn", None)
    return state


def _to_4(state: State) -> State:
    """Revision 4 (issue 38): a goal scored face up stands (no /undo), and a tile stored
    this Build Phase waits for a later one. ``stored_now`` records the tiles stored in
    the build under way: in a build carried mid-way they are the stored tiles that were
    not in storage when it began (its snapshot); outside a build, none."""
    now: list = []
    snap = state.get("snapshot")
    if state.get("phase") == "build" and snap:
        seat = state["order"][state["turn_idx"]]
        now = list(state["players"][seat]["storage"])
        for t in snap["storage"]:
            if t in now:
                now.remove(t)
    state["stored_now"] = now
    return state


STEPS: dict[int, Callable[[State], State]] = {2: _from_r1, 3: _to_3, 4: _to_4}

CHANGES: dict[int, str] = {
    2: "Squares are now named from the starting tile at AO41 (it was G7) and the dungeon has no edge; "
    "a tile can no longer be laid mirrored; two Arcane Architects can swap two tiles; "
    "every Architect use is offered.",
    3: (
        "Every turn now ends with one click, 'Finish your turn' (or scoring a goal), whether or not "
        "you hold a goal you could score, so nobody can tell; after scoring you finish the same way. "
        "An Arcane Architect may now also move your starting tile, and Architect moves that break your "
        "dungeon for a moment are offered when the tiles you hold can mend it. A generic tile you must "
        "discard because nothing fits goes into the box, like any other tile, not back to the supply."
    ),
    4: (
        "A goal you score face up stays scored: /undo no longer takes it back, since everybody has seen "
        "the card. A tile you put into storage can be placed from storage on a later Build Phase, not "
        "in the Build Phase you stored it in."
    ),
}


def _draft_to_3(state: State, seat: int, prefix: list[str]) -> list[str]:
    """A half-made move (issue 39): revision 3's chooser picks a tile and its side in
    one step ('t17D'); revision 2's picked the tile ('t17'), then the side ('sD')."""
    out: list[str] = []
    for token in prefix:
        if token.startswith("s") and out and out[-1].startswith("t") and len(token) == 2:
            out[-1] += token[1:]
        else:
            out.append(token)
    return out


# How a half-made move's chooser tokens read under each revision (tables/drafts.py).
DRAFTS: dict[int, Callable[[State, int, list[str]], list[str] | None]] = {3: _draft_to_3}
