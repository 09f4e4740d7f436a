"""The build turn, the refill and the hero's path routes in the move chooser (issue 26):
each pick that completes a move plays it, so a build turn is the card, one pick per
element (two when a place is not among the first select's places, three for a wall
formation in a crowded quarter), and turning the card over.

A place is chosen on a picture of the seat's own dungeon whose candidate spaces carry
the names the options give them. Up to 24 candidates are offered at once; with more, the
first select offers 20 suggested spaces and the four quarters of the dungeon, each of
which lists all of its candidates (at most 20: a quarter is 4 columns by 5 rows). A wall
formation is picked whole, "W1".., on small pictures of the dungeon: every placement
when they fit, else the 20 most useful and the quarters (by the formation's first space),
a quarter listing its placements whole when they fit, else its first spaces and then the
ways the formation lies from the one chosen.

Tokens: ``take_12``; a space ``C5``; a quarter ``q:TL``; a wall formation ``w:C5C6D6``
(in a crowded quarter, its first space ``at:C5`` before it); ``imp_orc``; ``erase``;
``done``. Refill: ``refill``, one card ``u12``, or ``under`` then ``u12`` ... (the order
the cards go under the deck).
"""

from __future__ import annotations

from typing import Any

from engine.core import STALE_CHOICE, Choice, IllegalAction, State, seat_ref

from . import board, build, paths
from .data import ACTIONS, CARDS, TRACKS, card_name, element_label, level, track_size
from .notation import describe, fit
from .rules import MONSTERS, active_kind

AT_ONCE = 24  # candidates offered in one select (a slot is left for Erase)
SUGGESTED = 20  # with more candidates: suggested spaces, then the quarters
QUARTERS = {  # the tag the picture shows in the quarter's corner, and where it lies
    "TL": ("Q1", "top left, A-D rows 1-5"),
    "TR": ("Q2", "top right, E-H rows 1-5"),
    "BL": ("Q3", "bottom left, A-D rows 6-10"),
    "BR": ("Q4", "bottom right, E-H rows 6-10"),
}


def quarter_of(cell: str) -> str:
    return ("T" if int(cell[1:]) <= 5 else "B") + ("L" if cell[0] in "ABCD" else "R")


def _spread(first: list[str], rest: list[str], k: int) -> list[str]:
    """``first`` (the useful places), then an even sample of ``rest`` over the dungeon."""
    out = first[:k]
    left = [c for c in rest if c not in out]
    need = k - len(out)
    if need > 0 and left:
        step = len(left) / need
        out += [left[int(i * step)] for i in range(min(need, len(left)))]
    return board.sort_cells(out)


# ---- what each element may be placed on -------------------------------------------------------


def cell_candidates(sheet: dict, el: str) -> tuple[list[str], list[str]]:
    """(every space offered for a monster, trap or treasure; the useful ones to suggest first).
    A treasure is offered where it can score: under a monster of yours or where a monster may
    still go (a treasure on a wall, a trap or next to a monster is certain to be lost; it can
    still be typed)."""
    hidden = set(sheet["treasures"])
    free = board.blocker_cells(sheet)
    if el in board.BLOCKER_KINDS:
        useful = [c for c in free if c in hidden] if el != "trap" else []
        return free, useful
    mine = [c for c in board.ALL_CELLS if active_kind(sheet, c) in MONSTERS and c not in hidden]
    cands = board.sort_cells(mine + [c for c in free if c not in hidden])
    if not cands:
        cands = [c for c in board.ALL_CELLS if c not in hidden]
    return cands, mine


# ---- the steps of one element ------------------------------------------------------------------


def _cell_note(sheet: dict, cell: str, el: str) -> str:
    if el == "treasure" and active_kind(sheet, cell) in MONSTERS:
        return f"{cell}: under your {sheet['grid'][cell]}"
    if el in MONSTERS and cell in sheet["treasures"]:
        return f"{cell}: guards your treasure"
    return cell


# What a square holds, in the words a square menu uses (issue 40 item 2).
_ON = {"wall": "a wall", "trap": "a trap", "goblin": "a goblin", "orc": "an orc", "dragon": "a dragon"}


def _held(sheet: dict, cell: str) -> str | None:
    """What stands on ``cell`` of the seat's dungeon ("a wall", "your treasure"), or None."""
    parts = [_ON.get(sheet["grid"].get(cell, ""), sheet["grid"].get(cell))] if cell in sheet["grid"] else []
    if cell in sheet["treasures"]:
        parts.append("your treasure")
    if cell == board.ENTRANCE:
        parts.append("the entrance")
    if cell == board.EXIT:
        parts.append("the exit")
    return " and ".join(p for p in parts if p) or None


def square_note(sheet: dict, cell: str) -> str:
    """A square menu's line under one space: what is on it and next to it ("Empty; next
    to a wall on B5, a dragon on C6"), so the options differ by more than their names."""
    here = _held(sheet, cell)
    near = [f"{what} on {n}" for n in board.NEIGHBOURS[cell] if (what := _held(sheet, n))]
    head = f"{cell} holds {here}" if here else f"{cell} is empty"
    return fit(head + ("; next to " + ", ".join(near) if near else "; nothing next to it"), 100)


def formation_note(sheet: dict, cells: list[str]) -> str:
    """A wall formation's line: what lies next to it, the spaces it closes off in words."""
    around = board.sort_cells({n for c in cells for n in board.NEIGHBOURS[c] if n not in cells})
    near = [f"{what} on {n}" for n in around if (what := _held(sheet, n))]
    head = "Walls " + " ".join(cells)
    return fit(head + ("; next to " + ", ".join(near) if near else "; nothing built next to it"), 100)


def _first_step(cands: list[str], useful: list[str], quarter: str | None) -> tuple[list[str], list[str]]:
    """(spaces offered, quarters offered) at the first pick or inside ``quarter``."""
    if quarter is not None:
        return [c for c in cands if quarter_of(c) == quarter], []
    if len(cands) <= AT_ONCE:
        return list(cands), []
    shown = _spread([c for c in useful if c in cands], cands, SUGGESTED)
    quarters = [q for q in QUARTERS if any(quarter_of(c) == q and c not in shown for c in cands)]
    return shown, quarters


def _place_options(
    sheet: dict, el: str, cells: list[str], quarters: list[str], cands: list[str]
) -> list[tuple[str, str]]:
    wall = el.startswith("wall:")
    opts = [
        (
            (f"at:{c}" if wall else c),
            (f"{c}: the formation's first space" if wall else _cell_note(sheet, c, el)),
        )
        for c in cells
    ]
    for q in quarters:
        n = sum(1 for c in cands if quarter_of(c) == q)
        tag, where = QUARTERS[q]
        opts.append((f"q:{q}", f"{tag}: {n} spaces in all, {where}"))
    return opts


def _preview(seat: int, cells: list[str], quarters: list[str], cands: list[str], what: str) -> dict[str, Any]:
    return {
        "kind": "cells",
        "owner": seat,
        "what": what,
        "labels": {c: c for c in cells},
        "quarters": [
            {"label": QUARTERS[q][0], "cells": [c for c in cands if quarter_of(c) == q]} for q in quarters
        ],
    }


def _action_for(el: str, cell: str) -> dict[str, Any]:
    if el == "treasure":
        return {"t": "treasure", "at": cell}
    return {"t": "place", "kind": el, "at": cell}


def _shape_choice(seat: int, el: str, spots: list[list[str]], rest: list[str], prompt: str) -> Choice:
    """The formation's ways of lying from the space chosen (only when there are several)."""
    if len(spots) == 1 and not rest:
        return Choice(prompt, [], {"t": "wall", "cells": spots[0]})
    if not rest:
        shapes = [(f"w:{''.join(cs)}", f"Shape {i + 1}: {' '.join(cs)}") for i, cs in enumerate(spots)]
        preview = {
            "kind": "shapes",
            "owner": seat,
            "what": element_label(el),
            "shapes": [{"label": f"Shape {i + 1}", "cells": cs} for i, cs in enumerate(spots)],
        }
        return Choice(f"Which way does the {element_label(el)} lie?", shapes, None, preview)
    chosen = next((cs for cs in spots if f"w:{''.join(cs)}" == rest[0]), None)
    if chosen is None or len(rest) > 1:
        raise IllegalAction(STALE_CHOICE)
    return Choice(prompt, [], {"t": "wall", "cells": chosen})


def _level(track: str, sheet: dict) -> str:
    lv = level(track, sheet["imp"][track])
    return f"+{lv}" if track in MONSTERS else str(lv)


def element_choice(state: State, seat: int, el: str, prefix: list[str], erase: bool) -> Choice:
    """The steps that install one element (``prefix`` holds the tokens after the first)."""
    sheet = state["players"][seat]["sheet"]
    prompt = (
        f"Where does the {element_label(el)} go? Pick it on the small pictures of your dungeon."
        if el.startswith("wall:")
        else f"Where does the {el} go? Pick its space on your dungeon."
    )
    if el == "improvement":
        opts = [
            (
                f"imp_{t}",
                f"Improve {t}: box {sheet['imp'][t] + 1} of {track_size(t)} (level {_level(t, sheet)} now)",
            )
            for t in TRACKS
            if sheet["imp"][t] < track_size(t)
        ]
        return _final(
            prefix,
            opts,
            lambda tok: {"t": "improve", "track": tok[4:]},
            erase,
            "Choose the track to improve.",
        )
    if el.startswith("wall:"):
        return wall_choice(sheet, seat, el, prefix, erase, prompt)
    cands, useful = cell_candidates(sheet, el)
    quarter = None
    rest = list(prefix)
    if rest and rest[0].startswith("q:"):
        quarter = rest.pop(0)[2:]
        if quarter not in QUARTERS:
            raise IllegalAction(STALE_CHOICE)
    cells, quarters = _first_step(cands, useful, quarter)
    if not rest:
        opts = _place_options(sheet, el, cells, quarters, cands)
        if erase and quarter is None:
            opts.append(ERASE)
        notes = {c: square_note(sheet, c) for c in cells}
        return Choice(prompt, opts, None, _preview(seat, cells, quarters, cands, element_label(el)), notes)
    token = rest.pop(0)
    if quarter is None and token == "erase" and erase and not rest:
        return Choice(prompt, [], {"t": "erase"})
    if token not in cells or rest:
        raise IllegalAction(STALE_CHOICE)
    return Choice(prompt, [], _action_for(el, token))


ERASE = ("erase", "Erase what this card installed and start it again")


def _wall_token(cells: list[str]) -> str:
    return f"w:{''.join(cells)}"


def _wall_options(
    el: str, seat: int, shown: list[list[str]], quarters: list[str], placements: list[list[str]]
) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """Whole placements, each named "W1".. as its small picture is, and the quarters."""
    opts = [(_wall_token(cs), f"W{i + 1}: {' '.join(cs)}") for i, cs in enumerate(shown)]
    for q in quarters:
        n = sum(1 for cs in placements if quarter_of(cs[0]) == q)
        tag, where = QUARTERS[q]
        opts.append((f"q:{q}", f"{tag}: {n} ways in all, first space {where}"))
    preview = {
        "kind": "shapes",
        "owner": seat,
        "what": element_label(el),
        "shapes": [{"label": f"W{i + 1}", "cells": cs} for i, cs in enumerate(shown)],
        "quarters": [
            {"label": QUARTERS[q][0], "cells": [c for c in board.ALL_CELLS if quarter_of(c) == q]}
            for q in quarters
        ],
    }
    return opts, preview


def wall_choice(sheet: dict, seat: int, el: str, prefix: list[str], erase: bool, prompt: str) -> Choice:
    """A wall formation in one pick among whole placements, each drawn on a small copy of the
    dungeon: all of them when they fit (24), else the 20 most useful and the quarters of the
    dungeon (by the formation's first space). A quarter lists its placements whole when they
    fit, else its first spaces and then the ways the formation lies from the one chosen."""
    placements = board.wall_placements(sheet, el[5:])
    rest = list(prefix)
    quarter = None
    if rest and rest[0].startswith("q:"):
        quarter = rest.pop(0)[2:]
        if quarter not in QUARTERS:
            raise IllegalAction(STALE_CHOICE)
    pool = [cs for cs in placements if quarter is None or quarter_of(cs[0]) == quarter]
    if quarter is not None and len(pool) > AT_ONCE:  # the first space, then the way it lies
        anchors: dict[str, list[list[str]]] = {}
        for cs in pool:
            anchors.setdefault(cs[0], []).append(cs)
        cells = board.sort_cells(anchors)
        if not rest:
            opts = _place_options(sheet, el, cells, [], cells)
            notes = {f"at:{c}": square_note(sheet, c) for c in cells}
            return Choice(prompt, opts, None, _preview(seat, cells, [], cells, element_label(el)), notes)
        token = rest.pop(0)
        cell = token[3:] if token.startswith("at:") else None
        if cell not in anchors:
            raise IllegalAction(STALE_CHOICE)
        return _shape_choice(seat, el, anchors[cell], rest, prompt)
    if quarter is None and len(pool) > AT_ONCE:
        best = sorted(pool, key=lambda cs: (-build.wall_value(sheet, cs), board.INDEX[cs[0]]))
        shown = sorted(best[:SUGGESTED], key=lambda cs: [board.INDEX[c] for c in cs])
        quarters = [q for q in QUARTERS if any(quarter_of(cs[0]) == q and cs not in shown for cs in pool)]
    else:
        shown, quarters = pool, []
    if not rest:
        opts, preview = _wall_options(el, seat, shown, quarters, placements)
        if erase and quarter is None:
            opts.append(ERASE)
        notes = {_wall_token(cs): formation_note(sheet, cs) for cs in shown}
        return Choice(prompt, opts, None, preview, notes)
    token = rest.pop(0)
    if quarter is None and token == "erase" and erase and not rest:
        return Choice(prompt, [], {"t": "erase"})
    chosen = next((cs for cs in shown if _wall_token(cs) == token), None)
    if chosen is None or rest:
        raise IllegalAction(STALE_CHOICE)
    return Choice(prompt, [], {"t": "wall", "cells": chosen})


def _final(prefix: list[str], opts: list[tuple[str, str]], make: Any, erase: bool, prompt: str) -> Choice:
    """A step whose every option completes a move at once."""
    if erase:
        opts = [*opts, ERASE]
    if not prefix:
        return Choice(prompt, opts)
    if len(prefix) != 1 or prefix[0] not in dict(opts):
        raise IllegalAction(STALE_CHOICE)
    return Choice(prompt, [], {"t": "erase"} if prefix[0] == "erase" else make(prefix[0]))


def build_choice(state: State, seat: int, prefix: list[str]) -> Choice:
    """Phase A: the card, then each element, then turning the card over."""
    p = state["players"][seat]
    pend = p["pending"]
    if pend is None:
        opts = [(f"take_{c}", describe({"t": "take", "card": c})) for c in state["display"]]
        return _final(
            prefix,
            opts,
            lambda tok: {"t": "take", "card": int(tok[5:])},
            False,
            "Take a card from the display.",
        )
    el = build.current_element(state, seat)
    erase = pend["next"] > len(pend["lost"])  # something of this card is on the sheet
    if el is None:
        opts = [("done", f"Turn #{pend['card']} {card_name(pend['card'])} over: its installs are final")]
        return _final(
            prefix, opts, lambda tok: {"t": "done"}, erase, "Every element is placed: turn the card over."
        )
    return element_choice(state, seat, el, prefix, erase)


def build_segments(state: State, seat: int, action: dict) -> list[tuple[str, str]]:
    """The tokens :func:`build_choice` takes to ``action`` (for autocomplete and tests)."""
    t = action["t"]
    prefix: list[str] = []
    if t == "take":
        prefix = [f"take_{action['card']}"]
    elif t in ("erase", "done"):
        prefix = [t]
    elif t == "improve":
        prefix = [f"imp_{action['track']}"]
    elif t == "wall":
        tok, q = _wall_token(action["cells"]), f"q:{quarter_of(action['cells'][0])}"
        if tok in dict(build_choice(state, seat, []).options):
            prefix = [tok]
        elif tok in dict(build_choice(state, seat, [q]).options):
            prefix = [q, tok]
        else:
            prefix = [q, f"at:{action['cells'][0]}"]
            if build_choice(state, seat, prefix).action is None:
                prefix.append(tok)
    else:
        cell = action["at"]
        first = build_choice(state, seat, [])
        prefix = [cell] if cell in dict(first.options) else [f"q:{quarter_of(cell)}", cell]
    out = []
    for k, tok in enumerate(prefix):
        out.append((tok, dict(build_choice(state, seat, prefix[:k]).options).get(tok, tok)))
    return out


# ---- refill: any cards of the hand under the deck, in the order picked ---------------------------


def refill_options(hand: list[int]) -> list[tuple[str, str]]:
    """The refill at once: keeping every card, with one card put under the deck (one pick
    each), or with several put under in the order picked ("under", then the cards, then Done)."""
    opts = [("refill", "Refill your hand (keep every card)")]
    opts += [
        (f"u{c}", fit(f"Put #{c} {card_name(c)} ({ACTIONS[CARDS[c].action]['short']}) under, refill"))
        for c in hand
    ]
    if len(hand) > 1:
        opts.append(("under", "Put several cards under your action deck, in order, then refill"))
    return opts


def refill_choice(state: State, seat: int, prefix: list[str]) -> Choice | None:
    """The step after a refill option of :func:`refill_options` (None: not a refill prefix)."""
    hand = state["players"][seat]["hand"]
    if prefix == ["refill"]:
        return Choice("", [], {"t": "refill", "under": []})
    if len(prefix) == 1 and prefix[0] in dict(refill_options(hand)) and prefix[0][1:].isdigit():
        return Choice("", [], {"t": "refill", "under": [int(prefix[0][1:])]})
    if prefix[0] == "under" and len(hand) > 1:
        return under_choice(state, seat, prefix[1:])
    return None


def under_choice(state: State, seat: int, picked: list[str]) -> Choice:
    hand = state["players"][seat]["hand"]
    chosen = []
    for tok in picked:
        cid = int(tok[1:]) if tok[:1] == "u" and tok[1:].isdigit() else None
        if cid not in hand or cid in chosen:
            raise IllegalAction(STALE_CHOICE)
        chosen.append(cid)
    opts = [
        (f"u{c}", fit(f"Put #{c} {card_name(c)} ({ACTIONS[CARDS[c].action]['short']}) under"))
        for c in hand
        if c not in chosen
    ]
    so_far = ", ".join(f"#{c}" for c in chosen) or "none yet"
    prompt = f"Cards to put under your action deck, in order (so far: {so_far}); Done refills."
    return Choice(prompt, opts, {"t": "refill", "under": chosen} if chosen else None)


def refill_segments(action: dict) -> list[tuple[str, str]]:
    under = action["under"]
    if len(under) <= 1:
        return [
            (tok, label)
            for tok, label in refill_options(under)
            if tok == (f"u{under[0]}" if under else "refill")
        ]
    return [("under", "Put several cards under your action deck, in order, then refill")] + [
        (f"u{c}", f"Put #{c} {card_name(c)} under") for c in under
    ]


__all__ = ["build_choice", "build_segments", "under_choice", "refill_options", "refill_segments", "seat_ref"]


# ---- the hero's path: whole routes to the exit beside the runs -------------------------------------
#
# A path drawn run by run is a walk over the dungeon's junctions: a player who wants the hero
# through a given monster, or just out by the short way, would click a run at every junction.
# Beside the runs each step offers whole routes from where the path stands to H10 - by the
# shortest way, after each run on offer, and through each monster or trap not yet on the path -
# each one pick (then Done, or keep going from H10). A route is one run token of several
# straight stretches ('D4R3D5R4'), so the chooser's prefix, the stored move and its notation
# are what they were; the runs and "Turn earlier" still reach every legal path.

ROUTE_BUDGET = 1500  # spaces tried by one route search: a route not found in it is not offered


def _search(walk: Any, cell: str, goal: str, dist: dict[str, int], out: list[str], budget: list[int]) -> bool:
    """Depth first from ``cell`` to ``goal`` under the path laws (``walk`` holds the path so
    far), nearest to the goal first: the first route found is the shortest one unless the laws
    bend it. ``out`` collects the spaces entered."""
    if cell == goal:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return False
    for nxt in sorted(board.NEIGHBOURS[cell], key=lambda c: (dist.get(c, 999), board.INDEX[c])):
        if nxt not in dist or not walk.can_enter(nxt):
            continue
        undo = walk.enter(nxt)
        out.append(nxt)
        if _search(walk, nxt, goal, dist, out, budget):
            return True
        out.pop()
        walk.leave(undo)
    return False


def route(sheet: dict, cells: list[str], via: str | None = None) -> list[str] | None:
    """The spaces a route adds to the path ``cells`` to reach H10 (through ``via`` first), the
    path laws kept; None if none is found."""
    walk = paths._walk_of(sheet, cells)
    if walk is None:
        return None
    added: list[str] = []
    here = cells[-1]
    for goal in [via, board.EXIT] if via else [board.EXIT]:
        if goal == here:
            continue
        if not _search(walk, here, goal, board.distances(sheet, goal), added, [ROUTE_BUDGET]):
            return None
        here = goal
    full = cells + added
    return added if added and board.path_problem(sheet, full) is None else None


def path_routes(
    sheet: dict, cells: list[str], runs: list[tuple[str, list[str]]], room: int
) -> list[tuple[str, str, str, list[str]]]:
    """At most ``room`` routes to H10 from the path's end: (token, option text, the space the
    picture labels for it, the spaces it adds) - the shortest way, each run then the shortest way, then through each
    monster or trap not yet on the path, nearest first."""
    if cells[-1] == board.EXIT:
        return []
    here = cells[-1]
    out: list[tuple[str, str, str, list[str]]] = []
    seen = {tok for tok, _ in runs}

    def add(added: list[str] | None, text: str, named: str) -> None:
        if added is None or len(out) >= room:
            return
        tok = paths.run_token(here, added)
        if tok in seen:
            return
        seen.add(tok)
        met = [f"{sheet['grid'][c]} {c}" for c in added if paths._active(sheet, c)]
        over = f", meets {', '.join(met)}" if met else ", meets nothing"
        out.append((tok, fit(f"{named}: {text}, {len(added)} spaces to H10{over}"), named, added))

    add(route(sheet, cells), "to the exit by the shortest way", board.EXIT)
    for _tok, run in runs:
        if run[-1] != board.EXIT:
            rest = route(sheet, cells + run)
            add(None if rest is None else run + rest, "run there, then the shortest way out", run[-1])
    dist = board.distances(sheet, here)
    on_path = set(cells)
    vias = [c for c in board.ALL_CELLS if paths._active(sheet, c) and c not in on_path and c in dist]
    for c in sorted(vias, key=lambda c: (dist[c], board.INDEX[c])):
        add(route(sheet, cells, c), f"through the {sheet['grid'][c]}, then out", c)
    return out
