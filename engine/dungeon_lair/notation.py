"""Dungeon Lair notation: what players type in /play, the button labels, and the
chooser steps that narrow a move without typing.

Cells are "x,y" (see board.py): "T17 2,-1 90" places tile 17 on column 2, row -1,
turned 90 degrees clockwise; "S 0,0" puts a small monster on 0,0; "M 0,0 2,-1"
moves one; "L 0,0s hand" takes one back."""

from __future__ import annotations

import re
from typing import Any

from engine.core import IllegalAction

from .board import ROTATIONS, SIDE_WORDS, legacy_area, parse_area, parse_cell, rotate, sort_key
from .data import RULES, TILES

SIZES = ("S", "M", "L")
SIZE_WORDS = {"s": "S", "small": "S", "m": "M", "big": "M", "l": "L", "huge": "L"}
_TILE = re.compile(r"^(?:t|#)?([0-9]{1,3})\Z", re.IGNORECASE)
MAX_OPTIONS = 25
USAGE = (
    "Type a tile like 'T17 2,-1 90', 'T17 remove', a monster like 'S 0,0', 'M 0,0 2,-1', "
    "'L 0,0 hand', or 'draw', 'continue', 'pass'."
)


QUOTE = 40  # a refusal quotes at most this much of what was typed (a long paste stays short)


def quoted(word: str) -> str:
    """``word`` in quotes for a refusal, cut to QUOTE characters (issue 29: a refusal that
    repeated a long paste whole outgrew Discord's 2,000 characters)."""
    return f"'{word}'" if len(word) <= QUOTE else f"'{word[: QUOTE - 3]}...'"


def monster_word(size: str) -> str:
    return RULES.size_names[size]


def tile_label(tile_id: int) -> str:
    return f"T{tile_id} {TILES[tile_id].name}"


def tile_summary(tile_id: int) -> str:
    """A tile in words, unrotated: 'T23 Door room (N door, E open, S wall, W open; 1 room)'."""
    t = TILES[tile_id]
    edges = ", ".join(f"{s} {e}" for s, e in zip("NESW", t.edges, strict=True))
    rooms = {0: "no room", 1: "1 room", 2: "2 rooms"}[t.points]
    extra = {
        "bridge": ", rooms joined by a bridge",
        "chasm": ", rooms parted by a chasm",
        "catacomb": ", rooms joined through the catacombs",
    }.get(t.link or "", "")
    return f"{tile_label(tile_id)} ({edges}; {rooms}{extra})"


# ---- parse and format ---------------------------------------------------------------------------


def _normalise(text: str) -> list[str]:
    # "2, -1" and "2 ,-1" are one cell; a degree sign is decoration
    text = re.sub(r"\s*,\s*", ",", text.replace("°", " "))
    return text.split()


def _parse_tile(words: list[str], low: list[str], tile: int) -> dict[str, Any]:
    if tile not in TILES:
        raise IllegalAction(f"There is no tile T{tile}; tiles run from T1 to T{len(TILES)}.")
    if low[1:] == ["remove"]:
        return {"a": "remove", "t": tile}
    if len(words) not in (2, 3):
        raise IllegalAction("Place a tile as: tile, cell, turn; for example 'T17 2,-1 90'.")
    cell = parse_cell(words[1]) or legacy_area(words[1].upper())
    if cell is None or cell[-1] in "nesw":
        raise IllegalAction(f"{quoted(words[1])} is not a cell: name it column,row like 0,0 or -2,3.")
    rot = 0
    if len(words) == 3:
        # A string check, not int(): int() accepts other scripts' digits and refuses
        # some that str.isdigit() accepts ('①').
        if words[2] not in {str(r) for r in ROTATIONS}:
            raise IllegalAction("Turn a tile by 0, 90, 180 or 270 degrees.")
        rot = int(words[2])
    return {"a": "tile", "t": tile, "at": cell, "r": rot}


def _place(word: str) -> str | None:
    """A place in the new names, or in the old grid names of games begun before ('H8n')."""
    return parse_area(word) or legacy_area(word[:-1].upper() + word[-1].lower() if word else word)


def _parse_monster(words: list[str], low: list[str]) -> dict[str, Any]:
    size = SIZE_WORDS[low[0]]
    places = [w if w == "hand" else _place(words[i + 1]) for i, w in enumerate(low[1:])]
    for w, p in zip(words[1:], places, strict=True):
        if p is None:
            raise IllegalAction(
                f"{quoted(w)} is not a place on the map (like 0,0, or 0,0n for a room of a bridge)."
            )
    if len(places) == 1:
        places.insert(0, "hand")
    src, dst = places
    if src == "hand" and dst == "hand":
        raise IllegalAction("Name where the monster goes, like 'S 0,0'.")
    return {"a": "monster", "s": size, "from": src, "to": dst}


def parse(text: str) -> dict[str, Any]:
    words = _normalise(text)
    low = [w.lower() for w in words]
    if not words:
        raise IllegalAction(USAGE)
    if low in (["draw"], ["continue"], ["pass"]):
        return {"a": low[0]}
    m = _TILE.match(words[0])
    if m:
        return _parse_tile(words, low, int(m.group(1)))
    if low[0] in SIZE_WORDS and len(words) in (2, 3):
        return _parse_monster(words, low)
    raise IllegalAction(USAGE)


def format_action(action: dict[str, Any]) -> str:
    kind = action["a"]
    if kind == "tile":
        return f"T{action['t']} {action['at']} {action['r']}"
    if kind == "remove":
        return f"T{action['t']} remove"
    if kind == "monster":
        if action["from"] == "hand":
            return f"{action['s']} {action['to']}"
        return f"{action['s']} {action['from']} {action['to']}"
    return str(kind)


# ---- labels ---------------------------------------------------------------------------------------


def describe(action: dict[str, Any], letter: str) -> str:
    """A public button label: a tile in hand is named only by its letter (``letter``)."""
    kind = action["a"]
    if kind == "remove":
        return f"Remove tile {letter}: it cannot be placed"
    if kind == "tile":
        return f"Place tile {letter} on {action['at']} turned {action['r']}°"
    if kind == "draw":
        return "Draw a tile to continue the corridor"
    if kind == "continue":
        return "Continue the corridor with your tile"
    if kind == "pass":
        return "No monster action: end the turn"
    word = monster_word(action["s"])
    if action["from"] == "hand":
        return f"Put a {word} monster on {action['to']}"
    if action["to"] == "hand":
        return f"Take the {word} monster on {action['from']} back to hand"
    return f"Move the {word} monster from {action['from']} to {action['to']}"


def turn_words(tile_id: int, rot: int) -> str:
    """'turned 90°: north door, east open, south open, west wall'."""
    edges, _ = rotate(TILES[tile_id], rot)
    sides = ", ".join(f"{w} {e}" for w, e in zip(SIDE_WORDS, edges, strict=True))
    return f"turned {rot}°: {sides}"


# ---- the chooser's steps ----------------------------------------------------------------------------

Step = tuple[str, str]


def place_groups(places: list[str]) -> dict[str, Step]:
    """When more than 25 places are open, a step before the place: groups of at most
    25 places in reading order, whole rows together where they fit. place -> group step."""
    places = sorted(set(places), key=sort_key)
    if len(places) <= MAX_OPTIONS:
        return {}
    # Parts of about equal size (27 places: 14 and 13, not 25 and 2), each at most 25.
    cap = -(-len(places) // -(-len(places) // MAX_OPTIONS))
    rows: list[list[str]] = []
    for p in places:
        if rows and sort_key(rows[-1][-1])[0] == sort_key(p)[0] and len(rows[-1]) < cap:
            rows[-1].append(p)
        else:
            rows.append([p])
    groups: list[list[str]] = []
    for row in rows:
        if groups and len(groups[-1]) + len(row) <= cap:
            groups[-1] += row
        else:
            groups.append(list(row))
    out: dict[str, Step] = {}
    for i, g in enumerate(groups):
        (x0, y0), (x1, y1) = sort_key(g[0])[::-1], sort_key(g[-1])[::-1]
        where = f"row {y0}, columns {x0} to {x1}" if y0 == y1 else f"rows {y0} to {y1}"
        label = f"Part {i + 1}: {where} ({len(g)} places)"  # the preview labels its places "Part N"
        out.update({p: (f"g{i}", label) for p in g})
    return out


def tile_steps(
    action: dict[str, Any], letter: str, groups: dict[str, Step], several: bool, turns: int
) -> list[Step]:
    """A tile's steps (issue 26: fewer of them): which tile (only when she holds several),
    the place (a group of rows first when more than 25 are open), and how it is turned
    only when more than one turn fits on that place. A place is named by its cell alone,
    exactly as the preview picture labels it."""
    t = action["t"]
    steps = [(f"t{letter}", f"Tile {letter}: {TILES[t].name} (T{t})")] if several else []
    if action["a"] == "remove":
        what = "it" if several else f"tile {letter} ({TILES[t].name}, T{t})"
        return [*steps, ("remove", f"Remove {what} from the game: it fits nowhere")]
    cell = action["at"]
    if cell in groups:
        steps.append(groups[cell])
    steps.append((cell, cell))
    if turns > 1:
        steps.append((f"r{action['r']}", turn_words(t, action["r"]).capitalize()))
    return steps


def monster_steps(action: dict[str, Any], groups: dict[str, Step], targets: int) -> list[Step]:
    """A monster action in one or two steps: what (put a size / move or take back one
    monster), then where, unless only one place is open."""
    size, src, dst = action["s"], action["from"], action["to"]
    word = monster_word(size)
    if src == "hand":
        what = f"Put a {word} monster (power {RULES.power[size]})"
        if targets == 1:
            return [(f"put{size}", f"{what} on {dst}")]
        return [(f"put{size}", what), (dst, dst)]
    if dst == "hand":
        return [(f"back{size}@{src}", f"Take the {word} monster on {src} back to hand")]
    steps = [(f"move{size}@{src}", f"Move the {word} monster on {src}")]
    if dst in groups:
        steps.append(groups[dst])
    steps.append((dst, dst))
    return steps


SIMPLE_STEPS = {
    "pass": ("pass", "No monster action: end the turn"),
    "draw": ("draw", "Draw a tile to continue the corridor"),
    "continue": ("continue", "Continue the corridor with your tile"),
}


def all_steps(legal: list[dict[str, Any]], letters: dict[int, str]) -> list[list[Step]]:
    """The chooser's steps of every legal move, in the order of ``legal``."""
    tile_cells: dict[int, list[str]] = {}
    turns: dict[tuple[int, str], int] = {}
    puts: dict[str, int] = {}
    dests: dict[str, list[str]] = {}
    for a in legal:
        if a["a"] == "tile":
            tile_cells.setdefault(a["t"], []).append(a["at"])
            turns[a["t"], a["at"]] = turns.get((a["t"], a["at"]), 0) + 1
        elif a["a"] == "monster" and a["from"] == "hand":
            puts[a["s"]] = puts.get(a["s"], 0) + 1
        elif a["a"] == "monster" and a["to"] != "hand":
            dests.setdefault(f"{a['s']}@{a['from']}", []).append(a["to"])
    several = len({a["t"] for a in legal if a["a"] in ("tile", "remove")}) > 1
    tile_groups = {t: place_groups(cells) for t, cells in tile_cells.items()}
    move_groups = {k: place_groups(d) for k, d in dests.items()}
    out: list[list[Step]] = []
    for a in legal:
        if a["a"] in ("tile", "remove"):
            t = a["t"]
            n = turns.get((t, a.get("at", "")), 0)
            out.append(tile_steps(a, letters.get(t, "?"), tile_groups.get(t, {}), several, n))
        elif a["a"] == "monster":
            key = f"{a['s']}@{a['from']}"
            out.append(monster_steps(a, move_groups.get(key, {}), puts.get(a["s"], 0)))
        else:
            out.append([SIMPLE_STEPS[a["a"]]])
    return out
