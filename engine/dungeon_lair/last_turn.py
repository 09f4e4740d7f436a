"""What the last turn changed, kept in the state so every board can mark it (issue 28).

A turn is the tile(s) placed and then one monster action or none; the next player's
turn clears ``placed``, so without a record the board a player comes back to shows
nothing of what was just done. When a turn ends, ``last`` keeps its seat, the cells
of its tiles, where a monster went (and from where), and those things in words:
all of them public, on the table for everyone."""

from __future__ import annotations

from typing import Any

from engine.core import State, seat_ref

from .data import TILES
from .notation import monster_word


def record(state: State, seat: int, action: dict[str, Any]) -> None:
    """Called as the turn ends (after its monster action or pass)."""
    cells = list(state["placed"])
    lines = [f"{seat_ref(seat)} placed a {_name(state, c)} on {c}." for c in cells]
    src, dst = action.get("from"), action.get("to")
    if action.get("a") == "monster":
        word = monster_word(action["s"])
        if src == "hand":
            lines.append(f"{seat_ref(seat)} put a {word} monster on {dst}.")
        elif dst == "hand":
            lines.append(f"{seat_ref(seat)} took the {word} monster on {src} back to hand.")
        else:
            lines.append(f"{seat_ref(seat)} moved a {word} monster from {src} to {dst}.")
    else:
        lines.append(f"{seat_ref(seat)} did no monster action.")
    if not cells:
        lines.insert(0, f"{seat_ref(seat)} placed no tile.")
    state["last"] = {
        "seat": seat,
        "cells": cells,
        "to": dst if action.get("a") == "monster" and dst != "hand" else None,
        "from": src if action.get("a") == "monster" and src != "hand" else None,
        "lines": lines,
    }


def _name(state: State, cell: str) -> str:
    """'corner corridor', 'T-junction corridor': lower case inside a sentence, but a
    letter that names a shape stays a capital."""
    name = TILES[state["board"][cell]["t"]].name
    return name[0].lower() + name[1:] if name[1:2].islower() else name


def public(state: State) -> dict[str, Any] | None:
    """The view's "last" part: the last finished turn's seat, cells, monster and words."""
    last = state.get("last")
    if not last:
        return None
    return {**last, "cells": list(last["cells"]), "lines": list(last["lines"])}
