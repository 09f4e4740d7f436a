"""What the last turn changed, kept in the state so every board can mark it (issue 28).

A turn is one Remain or Leave decision with the humanoid bonus or the support that
follows it (``turn_id``). After each move the state's ``last`` holds the seat that
played, the public lines of what happened, and the cards that turn added to a
dungeon or supported: all of it public (events with a seat are left out)."""

from __future__ import annotations

from typing import Any

from engine.core import Event, State

Snapshot = list[tuple[int, int, tuple[Any, ...]]]


def snapshot(state: State) -> Snapshot:
    """Each dungeon's size and its monsters' support before a move."""
    return [
        (len(p["monsters"]), len(p["humanoids"]), tuple(m.get("support") for m in p["monsters"]))
        for p in state["players"]
    ]


def record(state: State, seat: int, before: Snapshot, events: list[Event], follow_up: bool) -> None:
    """Store the move's public lines and changed cards; a bonus or support choice
    continues the turn of the Leave before it, so it adds to that record."""
    marks: list[list[Any]] = []
    for s, (p, (nm, nh, sup)) in enumerate(zip(state["players"], before, strict=True)):
        for i, m in enumerate(p["monsters"]):
            if i >= nm or m.get("support") != (sup[i] if i < len(sup) else None):
                marks.append([s, "monsters", i])
        marks += [[s, "humanoids", i] for i in range(nh, len(p["humanoids"]))]
    lines = [e.text for e in events if e.seat is None]
    # The scoring that ends the game has its own part of the final board: the turn's
    # words stop where the game's end begins (both of _end_words' openings).
    end = [i for i, t in enumerate(lines) if t.startswith(("The game is over", "The deck is exhausted"))]
    lines = lines[: end[0]] if end else lines
    last = state.get("last")
    if follow_up and last and last["seat"] == seat:
        state["last"] = {"seat": seat, "lines": last["lines"] + lines, "cards": last["cards"] + marks}
    else:
        state["last"] = {"seat": seat, "lines": lines, "cards": marks}


def public(state: State) -> dict[str, Any] | None:
    """The view's "last" part: who played the last turn, what it did in words, and
    which dungeon cards it placed or supported."""
    last = state.get("last")
    if not last:
        return None
    return {"seat": last["seat"], "lines": list(last["lines"]), "cards": [list(c) for c in last["cards"]]}
