"""The typed notation of Dungeon Decorators moves (see docs/rules/dungeon-decorators.md).

Placing a tile: ``<tile> <side> <square> [<degrees>] [f]`` - e.g. ``171 D H7``,
``210 X G8 90``, ``G R F7 270 f``. Sides: D (dungeon side) or X (decoration side)
of a numbered tile; R (room) or H (hallway) of a generic tile. Degrees turn the
tile clockwise from how it is printed; ``f`` mirrors it (east and west swap)
before turning.
"""

from __future__ import annotations

from typing import Any

from legacy.r1.engine.core import IllegalAction

from . import rules as R

HELP = (
    "Type e.g. 'draft 171', 'exchange S', '171 D H7 90', 'store 171', 'score S12', 'draw D', "
    "'move H7 J7 90', 'turn H7 90' or 'done'."
)
DEGREES = {"0": 0, "90": 1, "180": 2, "270": 3}


def _tile(tok: str) -> Any:
    if tok.upper() == "G":
        return "G"
    # isascii: '①'.isdigit() is True but int('①') raises; the length bounds int()'s work.
    if tok.isascii() and tok.isdigit() and len(tok) <= 6 and int(tok) in R.TILES:
        return int(tok)
    raise IllegalAction(f"There is no tile {tok}. Tiles are numbers like 171, or G for a generic tile.")


def _goal(tok: str) -> str:
    g = tok.upper()
    if g not in R.GOALS:
        raise IllegalAction(f"There is no goal card {tok}. Goal cards are named like S12 or D7.")
    return g


def _coord(tok: str) -> str:
    p = R.parse_coord(tok)
    if p is None:
        raise IllegalAction(f"{tok} is not a square of your dungeon (A1 to M13).")
    return R.coord(p)


def _deg(tok: str) -> int:
    if tok not in DEGREES:
        raise IllegalAction(f"{tok} is not a turn: use 0, 90, 180 or 270 (degrees clockwise).")
    return DEGREES[tok]


def _deck(tok: str) -> str:
    d = tok.upper()
    if d not in ("S", "D"):
        raise IllegalAction("The decks are S (Shape Goals) and D (Decoration Goals).")
    return d


def parse(text: str) -> Any:
    toks = str(text).replace(",", " ").split()
    if not toks:
        raise IllegalAction(HELP)
    head = toks[0].lower()
    args = toks[1:]
    try:
        if head == "discard" and 1 <= len(args) <= 2:
            return {"a": "discard", "cards": [_goal(t) for t in args]}
        if head == "draft" and len(args) == 1:
            return {"a": "draft", "tile": _tile(args[0])}
        if head == "exchange" and len(args) == 1:
            return {"a": "exchange", "deck": _deck(args[0])}
        if head in ("keep", "store", "box") and len(args) == 1:
            return {"a": head, "tile": _tile(args[0])}
        if head == "turn" and len(args) == 2:
            c = _coord(args[0])
            return {"a": "arch", "from": c, "to": c, "rot": _deg(args[1])}
        if head == "move" and len(args) in (2, 3):
            return {
                "a": "arch",
                "from": _coord(args[0]),
                "to": _coord(args[1]),
                "rot": _deg(args[2]) if len(args) == 3 else 0,
            }
        if head in ("reset", "done") and not args:
            return {"a": head}
        if head == "score" and len(args) == 1:
            return {"a": "score", "goal": _goal(args[0])}
        if head == "draw" and len(args) == 1:
            return {"a": "draw", "deck": _deck(args[0])}
        if head == "place":
            toks = args
        if 3 <= len(toks) <= 5:
            tile = _tile(toks[0])
            side = toks[1].upper()
            if side not in R.sides_of(tile):
                a, b = R.sides_of(tile)
                raise IllegalAction(f"The side must be {a} or {b} for that tile.")
            at = _coord(toks[2])
            rest = [t.lower() for t in toks[3:]]
            flip = "f" in rest
            if flip:
                rest.remove("f")
            if len(rest) > 1:
                raise IllegalAction(HELP)
            rot = _deg(rest[0]) if rest else 0
            return {"a": "place", "tile": tile, "side": side, "at": at, "rot": rot, "flip": flip}
    except IllegalAction:
        raise
    raise IllegalAction(HELP)


def format_action(a: dict[str, Any]) -> str:
    k = a["a"]
    if k == "discard":
        return "discard " + " ".join(a["cards"])
    if k in ("draft", "keep", "store", "box"):
        return f"{k} {a['tile']}"
    if k == "exchange":
        return f"exchange {a['deck']}"
    if k == "arch":
        deg = "" if not a["rot"] else f" {a['rot'] * 90}"
        if a["from"] == a["to"]:
            return f"turn {a['from']}{deg}"
        return f"move {a['from']} {a['to']}{deg}"
    if k in ("reset", "done"):
        return k
    if k == "score":
        return f"score {a['goal']}"
    if k == "draw":
        return f"draw {a['deck']}"
    if k == "place":
        out = f"{a['tile']} {a['side']} {a['at']}"
        if a["rot"]:
            out += f" {a['rot'] * 90}"
        if a["flip"]:
            out += " f"
        return out
    raise ValueError(a)


SIDES = {"D": "dungeon side", "X": "decoration side", "R": "room side", "H": "hallway side"}


def describe(a: dict[str, Any]) -> str:
    k = a["a"]
    if k == "discard":
        return "Discard " + " and ".join(f"{g} {R.GOALS[g]['name']}" for g in a["cards"])[:70]
    if k == "draft":
        return f"Draft tile {a['tile']}"
    if k == "exchange":
        return f"Draw/Exchange: random tile + a {'Shape' if a['deck'] == 'S' else 'Decoration'} goal"
    if k == "keep":
        return f"Keep tile {a['tile']}"
    if k == "store":
        return f"Store {'a generic tile' if a['tile'] == 'G' else 'tile ' + str(a['tile'])}"
    if k == "box":
        return f"Discard {a['tile']} into the box"
    if k == "arch":
        if a["from"] == a["to"]:
            return f"Architect: turn {a['from']} by {a['rot'] * 90} degrees"
        return f"Architect: move {a['from']} to {a['to']}" + (f", turn {a['rot'] * 90}" if a["rot"] else "")
    if k == "reset":
        return "Undo this build and start it again"
    if k == "done":
        return "Done"
    if k == "score":
        g = R.GOALS[a["goal"]]
        return f"Score {a['goal']} {g['name']} ({g['points']})"
    if k == "draw":
        return f"Draw a {'Shape' if a['deck'] == 'S' else 'Decoration'} goal"
    if k == "place":
        turn = f", turned {a['rot'] * 90}" if a["rot"] else ""
        flip = ", flipped" if a["flip"] else ""
        return f"Place {a['tile']} {SIDES[a['side']]} at {a['at']}{turn}{flip}"
    return format_action(a)
