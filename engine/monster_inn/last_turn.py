"""What the last turn changed, kept in the state so every board can mark it (issue 28).

A turn is one Remain or Leave decision with the humanoid bonus or the support that
follows it (``turn_id``). After each move the state's ``last`` holds the seat that
played, the public lines of what happened, and the cards that turn added to a
dungeon or supported: all of it public (events with a seat are left out)."""

from __future__ import annotations

from typing import Any

from engine.core import Event, State

_END = ("The game is over", "The deck is exhausted")

Snapshot = list[tuple[int, int, list[Any]]]


def snapshot(state: State) -> Snapshot:
    """Each dungeon's size and its monsters' support before a move. (Lists, not
    tuples: search plays this on every move, and a list comprehension and list
    equality are what is cheapest.)"""
    return [
        (len(p["monsters"]), len(p["humanoids"]), [m["support"] for m in p["monsters"]])
        for p in state["players"]
    ]


def record(state: State, seat: int, before: Snapshot, events: list[Event], follow_up: bool) -> None:
    """Store the move's public lines and changed cards; a bonus or support choice
    continues the turn of the Leave before it, so it adds to that record."""
    marks: list[list[Any]] = []
    for s, (p, (nm, nh, sup)) in enumerate(zip(state["players"], before, strict=True)):
        if len(p["humanoids"]) == nh and [m["support"] for m in p["monsters"]] == sup:
            continue  # an untouched dungeon (most of them, every move): nothing to mark
        for i, m in enumerate(p["monsters"]):
            if i >= nm or m.get("support") != (sup[i] if i < len(sup) else None):
                marks.append([s, "monsters", i])
        marks += [[s, "humanoids", i] for i in range(nh, len(p["humanoids"]))]
    # The scoring that ends the game has its own part of the final board: the turn's
    # public words stop where the game's end begins (both of _end_words' openings).
    lines = []
    for e in events:
        if e.seat is None:
            if e.text.startswith(_END):
                break
            lines.append(e.text)
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
