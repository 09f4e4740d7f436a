"""The typed notation of Dungeon Decorators moves (see docs/rules/dungeon-decorators.md).

Placing a tile: ``<tile> <side> <square> [<degrees>]`` - e.g. ``171 D AP41``,
``210 X AO42 90``, ``G R AN41 270``. Sides: D (dungeon side) or X (decoration
side) of a numbered tile; R (room) or H (hallway) of a generic tile. Degrees turn
the tile clockwise from how it is printed. A tile is never mirrored.
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction

from . import rules as R

HELP = (
    "Type e.g. 'draft 171', 'exchange', '171 D AP41 90', 'store 171', 'score S12', 'draw D', "
    "'move AP41 AQ41 90', 'turn AP41 90', 'swap AP41 AO40' or 'done'."
)
NO_MIRROR = "A tile cannot be mirrored: turn it (0, 90, 180 or 270) and choose which printed side is up."
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
        raise IllegalAction(f"{tok} is not a square of a dungeon (squares are named like {R.START}).")
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
        if head == "exchange" and not args:
            return {"a": "exchange"}
        if head == "exchange":
            raise IllegalAction(
                "Type just 'exchange': you see the tile first, then choose the goal deck (draw S/D)."
            )
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
        if head == "swap" and 2 <= len(args) <= 4:
            degs = [_deg(t) for t in args[2:]] + [0, 0]
            return {"a": "swap", "at": [_coord(args[0]), _coord(args[1])], "rot": degs[:2]}
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
            if "f" in rest:
                raise IllegalAction(NO_MIRROR)
            if len(rest) > 1:
                raise IllegalAction(HELP)
            rot = _deg(rest[0]) if rest else 0
            return {"a": "place", "tile": tile, "side": side, "at": at, "rot": rot}
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
        return "exchange"
    if k == "swap":
        ra, rb = a["rot"]
        degs = f" {ra * 90} {rb * 90}" if rb else (f" {ra * 90}" if ra else "")
        return f"swap {a['at'][0]} {a['at'][1]}{degs}"
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
        return "Draw/Exchange: a tile from the bag, then a goal card, then discard one"
    if k == "swap":
        return f"2 Architects: swap {a['at'][0]} and {a['at'][1]}" + "".join(
            f", turn {c} {r * 90}" for c, r in zip(reversed(a["at"]), a["rot"], strict=True) if r
        )
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
        return f"Place {a['tile']} {SIDES[a['side']]} at {a['at']}{turn}"
    return format_action(a)


# ---- the move chooser: steps of at most 25 options, labelled in words ---------------

MAX_OPTIONS = 25
DIR_WORDS = ("north", "east", "south", "west")


def fit(label: str, limit: int = 80) -> str:
    """``label`` cut to ``limit`` characters at a word boundary."""
    if len(label) <= limit:
        return label
    cut = label[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def edges_words(cell: dict[str, Any]) -> str:
    """What a laid tile shows on its four edges, in words."""
    e = cell["e"]
    if cell["kind"] == "dungeon":
        ways = [DIR_WORDS[d] for d in range(4) if e[d]]
        what = "room, door" if len(ways) == 1 else f"{len(ways)}-way hallway, openings"
        return f"{what} {', '.join(ways)}"
    icons = [f"{'wild' if e[d] == '*' else R.DECOS[e[d]]} {DIR_WORDS[d]}" for d in range(4) if e[d] != "-"]
    return ", ".join(icons)


def _tile_words(t: Any) -> str:
    return "generic tile" if t == "G" else f"tile {t}"


def _place_path(
    a: dict[str, Any], stored: list[Any], pending: list[Any], single: bool
) -> list[tuple[str, str]]:
    """Tile and side in one pick, then the square (named as the preview labels it),
    then the turn only when more than one turn fits there."""
    t = a["tile"]
    where = "new" if t in pending else "stored" if t in stored else ""
    cell = R.make_cell(t, a["side"], a["rot"])
    first = (
        f"t{t}{a['side']}",
        fit(f"Place {where} {_tile_words(t)}, {SIDES[a['side']]} up".replace("  ", " ")),
    )
    if single:
        return [first, (a["at"], fit(f"{a['at']}: {edges_words(cell)}"))]
    return [first, (a["at"], a["at"]), (f"r{a['rot']}", fit(f"Turned {a['rot'] * 90}°: {edges_words(cell)}"))]


def _arch_path(a: dict[str, Any], cells: dict[str, Any], single: bool) -> list[tuple[str, str]]:
    src = cells[a["from"]]
    stay = a["from"] == a["to"]
    turned = R.turned(src, a["rot"])
    name = _laid_words(src["t"])
    where = f"{a['from']}: stay, turn only" if stay else a["to"]
    path = [
        ("arch", "Arcane Architect: move or turn a tile in your dungeon"),
        (f"f{a['from']}", fit(f"{a['from']}: the {name}")),
    ]
    if single:
        return path + [(f"d{a['to']}", fit(f"{where}, turned {a['rot'] * 90}°: {edges_words(turned)}"))]
    return path + [
        (f"d{a['to']}", where),
        (f"r{a['rot']}", fit(f"Turned {a['rot'] * 90}°: {edges_words(turned)}")),
    ]


def _swap_path(a: dict[str, Any], cells: dict[str, Any], single: bool) -> list[tuple[str, str]]:
    x, y = a["at"]
    ra, rb = a["rot"]
    cx, cy = cells[x], cells[y]
    path = [
        ("swap", "Two Arcane Architects: swap two tiles"),
        (f"f{x}", fit(f"{x}: the {_laid_words(cx['t'])}")),
        (f"w{y}", fit(f"{y}: swap with the {_laid_words(cy['t'])}")),
    ]
    turns = fit(f"At {y} turned {ra * 90}°, at {x} turned {rb * 90}°")
    if single:
        if ra or rb:  # the one way the two fit: say it in the pick that plays it
            path[-1] = (path[-1][0], fit(f"{path[-1][1]}; {turns[0].lower()}{turns[1:]}"))
        return path
    return path + [(f"r{ra}{rb}", turns)]


def _laid_words(t: Any) -> str:
    return "starting tile" if t == "start" else _tile_words(t)


def turn_key(a: dict[str, Any]) -> Any:
    """What a move is before its turn is chosen (moves sharing it differ only by the turn)."""
    k = a.get("a")
    if k == "place":
        return ("place", a["tile"], a["side"], a["at"])
    if k == "arch":
        return ("arch", a["from"], a["to"])
    if k == "swap":
        return ("swap", *a["at"])
    return None


HELPER_WORDS = {
    "sapper": "Goblin Sapper",
    "burrow": "Burrow Bro",
    "architect": "Arcane Architect",
    "mimic": "Decorative Mimic",
}


def tile_words(t: Any) -> str:
    """A tile as the draft board shows it, in words: its other side, decorations, floor, assistant."""
    if t == "G":
        return "generic tile: grey room or straight hallway"
    spec = R.TILES[int(t)]
    icons = [e for e in spec["edges"] if e not in "-*"]
    shape = "room" if len(icons) == 1 else f"{len(icons)}-way hallway"
    decos = ", ".join([R.DECOS[e] for e in icons] + (["wild"] if "*" in spec["edges"] else []))
    floor = "a star" if spec["floor"] == "star" else f"{spec['floor']} floor"
    helper = f", {HELPER_WORDS[spec['assistant']]}" if spec["assistant"] else ""
    return f"tile {t}: {shape}, {floor}; {decos}{helper}"


def raw_path(
    a: dict[str, Any], cells: dict[str, Any], stored: list[Any], pending: list[Any], single: bool = False
) -> list[tuple[str, str]]:
    """The chooser's steps to ``a`` before any grouping (``single``: the only turn
    that fits, so no turn step)."""
    k = a["a"]
    if k == "place":
        return _place_path(a, stored, pending, single)
    if k == "arch":
        return _arch_path(a, cells, single)
    if k == "swap":
        return _swap_path(a, cells, single)
    if k in ("draft", "keep"):
        return [(f"{k}{a['tile']}", fit(f"{k.capitalize()} {tile_words(a['tile'])}"))]
    if k == "discard" and len(a["cards"]) == 2:
        # Setup: choose the two cards one after the other.
        g1, g2 = a["cards"]
        return [
            (g1, fit(f"Discard {g1} {R.GOALS[g1]['name']}")),
            (g2, fit(f"and {g2} {R.GOALS[g2]['name']}")),
        ]
    return [(format_action(a).replace(" ", ""), fit(describe(a)))]


def _group_label(labels: list[str]) -> str:
    first, last = labels[0].split(":")[0], labels[-1].split(":")[0]
    return fit(f"{first} … {last}" if first != last else first)


def group(paths: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """Insert grouping steps wherever a step would offer more than 25 options, so
    every select menu fits Discord's limit; each group is a run of options in order."""
    paths = [list(p) for p in paths]
    depth = 0
    while any(len(p) > depth for p in paths):
        by_prefix: dict[tuple[str, ...], list[int]] = {}
        for i, p in enumerate(paths):
            if len(p) > depth:
                by_prefix.setdefault(tuple(t for t, _ in p[:depth]), []).append(i)
        for members in by_prefix.values():
            order = list(dict.fromkeys(paths[i][depth] for i in members))
            if len(order) <= MAX_OPTIONS:
                continue
            chunks = -(-len(order) // MAX_OPTIONS)
            size = -(-len(order) // chunks)
            slot = {}
            for k in range(chunks):
                part = order[k * size : (k + 1) * size]
                seg = (f"g{k + 1}", _group_label([label for _, label in part]))
                for opt in part:
                    slot[opt] = seg
            for i in members:
                paths[i].insert(depth, slot[paths[i][depth]])
        depth += 1
    return paths
