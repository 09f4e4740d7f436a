"""What the last turn changed, kept in the state so every board can mark it (issue 28).

A turn is one Remain or Leave decision with the humanoid bonus or the support that
follows it (``turn_id``). After each move the state's ``last`` holds the seat that
played, the public lines of what happened, and the cards that turn added to a
dungeon or supported: all of it public (events with a seat are left out)."""

from __future__ import annotations

from typing import Any

from engine.core import Event, State

_END = ("The game is over", "The deck is exhausted")

# Each dungeon's monsters and humanoids before a move, and its monsters' support
# before a support move (None before any other move: no other move changes support).
Snapshot = tuple[list[tuple[int, int]], list[list[Any]] | None]


def snapshot(state: State, support_move: bool) -> Snapshot:
    """Each dungeon's size before a move and, before a support move, its monsters'
    support. (Search's states skip this; a real move pays for it, so it stays small.)"""
    players = state["players"]
    sizes = [(len(p["monsters"]), len(p["humanoids"])) for p in players]
    return sizes, [[m["support"] for m in p["monsters"]] for p in players] if support_move else None


def record(state: State, seat: int, before: Snapshot | None, events: list[Event], follow_up: bool) -> None:
    """Store the move's public lines and changed cards (``before`` None: a move that
    changes no dungeon); a bonus or support choice continues the turn of the Leave
    before it, so it adds to that record."""
    marks = [] if before is None else _marks(state["players"], before)
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


def _marks(players: list[dict[str, Any]], before: Snapshot) -> list[list[Any]]:
    """The dungeon cards placed or supported since ``before``: [seat, part, index]."""
    sizes, supports = before
    now = [(len(p["monsters"]), len(p["humanoids"])) for p in players]
    marks: list[list[Any]] = []
    if supports is None and now == sizes:
        return marks
    for s, ((nm, nh), (am, ah)) in enumerate(zip(sizes, now, strict=True)):
        if supports is not None:
            sup, mons = supports[s], players[s]["monsters"]
            marks += [[s, "monsters", i] for i in range(nm) if mons[i]["support"] != sup[i]]
        if am > nm:
            marks += [[s, "monsters", i] for i in range(nm, am)]
        if ah > nh:
            marks += [[s, "humanoids", i] for i in range(nh, ah)]
    return marks


def public(state: State) -> dict[str, Any] | None:
    """The view's "last" part: who played the last turn, what it did in words, and
    which dungeon cards it placed or supported."""
    last = state.get("last")
    if not last:
        return None
    return {"seat": last["seat"], "lines": list(last["lines"]), "cards": [list(c) for c in last["cards"]]}
