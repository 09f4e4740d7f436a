"""Phase A: reveal cards, pick one in clockwise order, install its elements left to right."""

from __future__ import annotations

from typing import Any

from engine.core import Event, IllegalAction, Rng, State, rules_revision, seat_ref

from . import board
from .data import CARDS, ROUNDS, SHEET, TRACKS, card_name, card_text, element_label, track_size
from .rules import MONSTERS, active_kind, copy_sheet

WALL_OPTIONS = 40  # legal_actions offers at most this many wall placements (apply takes any)
INSTALL_ACTIONS = ("wall", "place", "treasure", "improve", "erase")


def reveal(state: State, k: int, events: list[Event]) -> None:
    got = state["deck"][:k]
    state["deck"] = state["deck"][k:]
    if len(got) < k:
        # Rulebook p.5, 4 players, round 12: the discard pile becomes the new deck.
        state["deck"] = state["discard"]
        state["discard"] = []
        Rng(state).shuffle(state["deck"])
        events.append(Event("The build deck ran out: the discard pile is shuffled into a new build deck."))
        more = k - len(got)
        got += state["deck"][:more]
        state["deck"] = state["deck"][more:]
    state["display"] = got


def start_round(state: State, events: list[Event]) -> None:
    n = state["seats"]
    state["round"] += 1
    reveal(state, SHEET["setup"]["revealed"][str(n)], events)
    state["queue"] = [(state["start"] + i) % n for i in range(n)]
    shown = ", ".join(f"#{c} {card_name(c)}" for c in state["display"])
    events.append(
        Event(f"Round {state['round']} of {ROUNDS}: {shown}. {seat_ref(state['start'])} picks first.")
    )


def current_element(state: State, seat: int) -> str | None:
    pend = state["players"][seat]["pending"]
    if pend is None:
        return None
    els = CARDS[pend["card"]].elements
    return els[pend["next"]] if pend["next"] < len(els) else None


# ---- what may be done --------------------------------------------------------------------


def wall_value(sheet: dict, cells: list[str]) -> float:
    """Walls against the border and other walls keep the middle open for monsters; never on
    a treasure (a treasure in a wall is lost). Orders the placements offered first."""
    grid, treasures = sheet["grid"], set(sheet["treasures"])
    v = 0.0
    for c in cells:
        v -= 5.0 if c in treasures else 0.0
        nb = board.NEIGHBOURS[c]
        v += 4 - len(nb)  # border spaces
        v += sum(1 for n in nb if grid.get(n) == "wall")
    return v


_BORDER = {c: 4 - len(board.NEIGHBOURS[c]) for c in board.ALL_CELLS}
_NEXT_TO = {c: board.mask(board.NEIGHBOURS[c]) for c in board.ALL_CELLS}


def wall_values(sheet: dict, placements: list[list[str]]) -> list[float]:
    """:func:`wall_value` of each placement, the walls read once (every term is a whole
    number, so the sums are the same floats)."""
    walls = board.wall_mask(sheet)
    treasures = set(sheet["treasures"])
    out = []
    for cells in placements:
        v = 0
        for c in cells:
            v += _BORDER[c] + (_NEXT_TO[c] & walls).bit_count() - (5 if c in treasures else 0)
        out.append(float(v))
    return out


def _wall_offer(sheet: dict, spots: list[list[str]]) -> list[list[str]]:
    """At most WALL_OPTIONS placements: the best-looking first (autocomplete shows 25),
    then an even sample of the rest so that any part of the dungeon is on offer."""
    if len(spots) <= WALL_OPTIONS:
        return spots
    values = wall_values(sheet, spots)
    ranked = [spots[i] for i in sorted(range(len(spots)), key=lambda i: -values[i])]
    best, rest = ranked[: WALL_OPTIONS // 2], ranked[WALL_OPTIONS // 2 :]
    rest.sort(key=lambda cs: [board.INDEX[c] for c in cs])
    step = len(rest) / (WALL_OPTIONS - len(best))
    return best + [rest[int(i * step)] for i in range(WALL_OPTIONS - len(best))]


def _cell_offer(sheet: dict, el: str) -> list[dict[str, Any]]:
    # Up to 80 spaces: autocomplete shows the first 25, so the useful ones come first.
    hidden = set(sheet["treasures"])
    if el in board.BLOCKER_KINDS:
        cells = board.blocker_cells(sheet)
        if el == "trap":  # a trap on a treasure's space leaves that treasure unguardable
            cells.sort(key=lambda c: c in hidden)
        else:  # a monster first guards a treasure already hidden
            cells.sort(key=lambda c: c not in hidden)
        return [{"t": "place", "kind": el, "at": c} for c in cells]
    free = [c for c in board.ALL_CELLS if c not in hidden]
    guardable = set(board.blocker_cells(sheet))

    def rank(c: str) -> int:
        # under a monster of yours, then where a monster may still go, then the rest
        return 0 if active_kind(sheet, c) in MONSTERS else 1 if c in guardable else 2

    free.sort(key=rank)
    return [{"t": "treasure", "at": c} for c in free]


def legal(state: State, seat: int, every_wall: bool = False) -> list[Any]:
    """Phase A moves of ``seat``; ``every_wall`` lists every wall placement (for the chooser)."""
    p = state["players"][seat]
    if p["pending"] is None:
        return [{"t": "take", "card": c} for c in state["display"]]
    el = current_element(state, seat)
    sheet = p["sheet"]
    if el is None:
        return [{"t": "done"}, {"t": "erase"}]
    # DuBuL ch.2 §1(3), "any elements that have been installed for this Card may be erased":
    # from revision 3 Erase is offered as soon as one element is on the sheet.
    erase = (
        [{"t": "erase"}]
        if p["pending"]["next"] > len(p["pending"]["lost"]) and rules_revision(state) >= 3
        else []
    )
    return _element_moves(sheet, el, every_wall) + erase


def _element_moves(sheet: dict, el: str, every_wall: bool) -> list[Any]:
    if el.startswith("wall:"):
        spots = board.wall_placements(sheet, el[5:])
        return [{"t": "wall", "cells": c} for c in (spots if every_wall else _wall_offer(sheet, spots))]
    if el in board.BLOCKER_KINDS or el == "treasure":
        return _cell_offer(sheet, el)
    return [{"t": "improve", "track": t} for t in TRACKS if sheet["imp"][t] < track_size(t)]


# ---- moves -------------------------------------------------------------------------------


def take(state: State, seat: int, action: dict, events: list[Event]) -> None:
    p = state["players"][seat]
    if p["pending"] is not None:
        raise IllegalAction("Finish installing your card and type done before taking another.")
    if not state["queue"] or state["queue"][0] != seat:
        nxt = (
            f": {seat_ref(state['queue'][0])} picks next"
            if state["queue"]
            else ": every card of this round is taken"
        )
        raise IllegalAction(f"It is not your turn to pick a card{nxt}.")
    cid = action.get("card")
    if type(cid) is not int or cid not in state["display"]:  # True == 1 and 12.0 == 12: refused
        raise IllegalAction(
            f"Card {cid} is not on display; pick one of: {', '.join(map(str, state['display']))}."
        )
    state["display"].remove(cid)
    state["queue"].pop(0)
    p["pending"] = {"card": cid, "next": 0, "lost": [], "log": [], "before": copy_sheet(p["sheet"])}
    events.append(Event(f"{seat_ref(seat)} takes {card_text(cid)}."))
    advance(state, seat, events)


def _installable(sheet: dict, el: str) -> bool:
    if el.startswith("wall:"):
        return board.can_place_wall(sheet, el[5:])
    if el in board.BLOCKER_KINDS:
        return bool(board.blocker_cells(sheet))
    if el == "treasure":
        return len(sheet["treasures"]) < board.N
    return any(sheet["imp"][t] < track_size(t) for t in TRACKS)


def advance(state: State, seat: int, events: list[Event]) -> None:
    """Skip elements that cannot be installed at all: they are lost (DuBuL ch.2 §1(2))."""
    p = state["players"][seat]
    pend = p["pending"]
    els = CARDS[pend["card"]].elements
    while pend["next"] < len(els) and not _installable(p["sheet"], els[pend["next"]]):
        label = element_label(els[pend["next"]])
        pend["lost"].append(pend["next"])
        pend["log"].append(f"{label} lost (no room)")
        events.append(Event(f"The {label} cannot be installed and is lost.", seat))
        pend["next"] += 1


def _want(el: str) -> str:
    return (
        "wall"
        if el.startswith("wall:")
        else {"improvement": "improve", "treasure": "treasure"}.get(el, "place")
    )


def _check_order(el: str, action: dict) -> None:
    want = _want(el)
    if action["t"] != want or (want == "place" and action.get("kind") != el):
        how = {
            "wall": f"wall formation {el[5:]} (like: wall C3 C4 D4)",
            "improve": "improvement (like: improve orc)",
            "treasure": "treasure (like: treasure C5)",
            "place": f"{el} (like: {el} C5)",
        }[want]
        raise IllegalAction(f"Elements go in left to right: next is the {how}.")
    if want == "wall" and not isinstance(action.get("cells"), list):
        raise IllegalAction("Name the spaces of the wall formation, like: wall C3 C4 D4.")
    spaces = list(action["cells"]) if want == "wall" else [action.get("at")] if want != "improve" else []
    if any(not isinstance(c, str) or board.parse_cell(c) != c for c in spaces):
        raise IllegalAction("Name spaces by a column A-H and a row 1-10, like C5.")


def _put(sheet: dict, el: str, action: dict, seat: int, events: list[Event]) -> str:
    """Draw one element on the sheet; returns the text of what was installed."""
    t = action["t"]
    if t == "wall":
        cells = board.sort_cells(action["cells"])
        if len(cells) != len(action["cells"]):
            raise IllegalAction("Name each space of the wall formation once.")
        problem = board.wall_problem(sheet, el[5:], cells)
        if problem:
            raise IllegalAction(problem)
        for c in cells:
            sheet["grid"][c] = "wall"
        return f"wall {' '.join(cells)}"
    if t == "place":
        problem = board.blocker_problem(sheet, action["at"])
        if problem:
            raise IllegalAction(problem)
        sheet["grid"][action["at"]] = el
        return f"{el} {action['at']}"
    if t == "treasure":
        cell = action["at"]
        if cell in sheet["treasures"]:
            raise IllegalAction(f"You already hid a treasure on {cell}; at most one treasure a space.")
        sheet["treasures"].append(cell)
        events.append(Event(f"You hide a treasure on {cell}.", seat))
        return "treasure (hidden)"
    track = action.get("track")
    if track not in TRACKS:
        raise IllegalAction(f"Improve one of: {', '.join(TRACKS)}.")
    if sheet["imp"][track] >= track_size(track):
        raise IllegalAction(f"Every {track} box is already checked.")
    sheet["imp"][track] += 1
    return f"improvement {track}"


def install(state: State, seat: int, action: dict, events: list[Event]) -> None:
    p = state["players"][seat]
    if p["pending"] is None:
        raise IllegalAction("Take a card first; then install its elements.")
    el = current_element(state, seat)
    if el is None:
        raise IllegalAction("Every element of your card is installed: type done (or erase to redo).")
    _check_order(el, action)
    text = _put(p["sheet"], el, action, seat, events)
    if action["t"] != "treasure":
        events.append(Event(f"You install: {text}.", seat))
    p["pending"]["log"].append(text)
    p["pending"]["next"] += 1
    advance(state, seat, events)


def erase(state: State, seat: int, action: dict, events: list[Event]) -> None:
    p = state["players"][seat]
    if p["pending"] is None:
        raise IllegalAction("Only the card still face up may be erased, and you have none.")
    pend = p["pending"]
    p["sheet"] = copy_sheet(pend["before"])
    pend.update(next=0, lost=[], log=[])
    events.append(Event(f"You erase everything installed from card {pend['card']}.", seat))
    advance(state, seat, events)


def done(state: State, seat: int, action: dict, events: list[Event]) -> bool:
    """Turn the card over. Returns True when this ends the round."""
    p = state["players"][seat]
    if p["pending"] is None:
        raise IllegalAction("You have no card to turn over.")
    if current_element(state, seat) is not None:
        raise IllegalAction("You must install every element you can before turning the card over.")
    pend = p["pending"]
    p["taken"].append(pend["card"])
    p["pending"] = None
    events.append(Event(f"{seat_ref(seat)} turns card #{pend['card']} over: {'; '.join(pend['log'])}."))
    if state["queue"] or any(q["pending"] is not None for q in state["players"]):
        return False
    state["discard"].extend(state["display"])
    state["display"] = []
    state["start"] = (state["start"] + 1) % state["seats"]
    return True
