"""Dungeon geometry: tiles, orientation, placement legality, decorations on
walls, rooms and the hallway, shape and decoration goals, boss metrics.

A dungeon is a dict ``coordinate -> cell`` ("G7" style coordinates: columns A..M,
rows 1..13, row 1 at the top). A cell records the tile, the side shown, its
rotation (quarter turns clockwise) and flip, its kind ("dungeon" or "deco") and
its oriented edges ``e`` in the order N, E, S, W: for a dungeon tile 1 is a
passageway and 0 a wall; for a decoration tile a decoration letter, "*" (green
wild icon) or "-" (nothing).
"""

from __future__ import annotations

from collections import Counter, deque
from itertools import combinations
from typing import Any

from .data import DATA, shape_cells

TILES: dict[int, dict[str, Any]] = {t["n"]: t for t in DATA["tiles"]["tiles"]}
DECOS: dict[str, str] = DATA["tiles"]["decorations"]
COLOURS: list[str] = DATA["tiles"]["colours"]
GENERIC = DATA["tiles"]["generic"]
SIZE: int = DATA["tiles"]["grid"]["size"]
START: str = DATA["tiles"]["grid"]["start"]
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W
DIR_NAMES = "NESW"

Pos = tuple[int, int]
Grid = dict[Pos, dict[str, Any]]


# ---- coordinates ---------------------------------------------------------------


def col_label(x: int) -> str:
    return chr(65 + x)


def coord(p: Pos) -> str:
    return f"{col_label(p[0])}{p[1] + 1}"


def parse_coord(text: str) -> Pos | None:
    t = text.strip().upper()
    # isascii: '①'.isdigit() is True but int('①') raises.
    if not 2 <= len(t) <= 3 or not t.isascii() or not t[0].isalpha() or not t[1:].isdigit():
        return None
    x, y = ord(t[0]) - 65, int(t[1:]) - 1
    if not (0 <= x < SIZE and 0 <= y < SIZE):
        return None
    return (x, y)


def in_grid(p: Pos) -> bool:
    return 0 <= p[0] < SIZE and 0 <= p[1] < SIZE


def step(p: Pos, d: int) -> Pos:
    return (p[0] + DIRS[d][0], p[1] + DIRS[d][1])


def copy_dungeon(dungeon: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c: {**cell, "e": list(cell["e"])} for c, cell in dungeon.items()}


def to_grid(dungeon: dict[str, dict[str, Any]]) -> Grid:
    out: Grid = {}
    for c, cell in dungeon.items():
        p = parse_coord(c)
        assert p is not None
        out[p] = cell
    return out


def from_grid(grid: Grid) -> dict[str, dict[str, Any]]:
    return {coord(p): cell for p, cell in sorted(grid.items(), key=lambda kv: (kv[0][1], kv[0][0]))}


# ---- tiles and orientation -----------------------------------------------------


def orient(edges: list[Any], rot: int, flip: bool) -> list[Any]:
    """Edges N,E,S,W after an optional mirror (east<->west) and then ``rot``
    quarter turns clockwise."""
    e = [edges[0], edges[3], edges[2], edges[1]] if flip else list(edges)
    return [e[(i - rot) % 4] for i in range(4)]


def sides_of(tile: int | str) -> tuple[str, str]:
    return ("R", "H") if tile == "G" else ("D", "X")


def make_cell(tile: int | str, side: str, rot: int, flip: bool) -> dict[str, Any]:
    """The cell a tile makes when placed with ``side`` up, turned and flipped."""
    if tile == "G":
        base = GENERIC["room"] if side == "R" else GENERIC["hallway"]
        return {
            "t": "G",
            "side": side,
            "rot": rot,
            "flip": flip,
            "kind": "dungeon",
            "e": orient(base, rot, flip),
            "floor": GENERIC["floor"],
        }
    spec = TILES[int(tile)]
    if side == "D":
        # The dungeon side has a passage wherever the decoration side shows a (white) icon.
        base = [0 if x in "-*" else 1 for x in spec["edges"]]
        return {
            "t": tile,
            "side": "D",
            "rot": rot,
            "flip": flip,
            "kind": "dungeon",
            "e": orient(base, rot, flip),
            "floor": spec["floor"],
        }
    return {
        "t": tile,
        "side": "X",
        "rot": rot,
        "flip": flip,
        "kind": "deco",
        "e": orient(spec["edges"], rot, flip),
        "floor": spec["floor"],
    }


def start_cell() -> dict[str, Any]:
    return {
        "t": "start",
        "side": "D",
        "rot": 0,
        "flip": False,
        "kind": "dungeon",
        "e": [1, 1, 1, 1],
        "floor": "grey",
    }


def orientations(tile: int | str, side: str) -> list[tuple[int, bool]]:
    """One (rot, flip) per distinct resulting edge pattern, simplest first."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for flip in (False, True):
        for rot in range(4):
            key = tuple(make_cell(tile, side, rot, flip)["e"])
            if key not in seen:
                seen.add(key)
                out.append((rot, flip))
    return out


def turned(cell: dict[str, Any], quarter_turns: int) -> dict[str, Any]:
    """The cell turned further clockwise (the Arcane Architect may not flip)."""
    e = cell["e"]
    return {
        **cell,
        "rot": (cell["rot"] + quarter_turns) % 4,
        "e": [e[(i - quarter_turns) % 4] for i in range(4)],
    }


# ---- placement legality --------------------------------------------------------


def is_dungeon(cell: dict[str, Any] | None) -> bool:
    return cell is not None and cell["kind"] == "dungeon"


def open_passages(grid: Grid) -> int:
    """Passageways leading to empty, unbuilt space inside the grid."""
    n = 0
    for p, cell in grid.items():
        if cell["kind"] != "dungeon":
            continue
        for d in range(4):
            q = step(p, d)
            if cell["e"][d] and in_grid(q) and q not in grid:
                n += 1
    return n


def open_after(grid: Grid, p: Pos, cell: dict[str, Any], open_now: int) -> int:
    """Open passageways once ``cell`` (already in ``grid``) stands at ``p``."""
    n = open_now
    if cell["kind"] != "dungeon":
        return n
    for d in range(4):
        q = step(p, d)
        nb = grid.get(q)
        if nb is None:
            if cell["e"][d] and in_grid(q):
                n += 1
        elif nb["kind"] == "dungeon" and nb["e"][(d + 2) % 4]:
            n -= 1
    return n


def check_place(grid: Grid, p: Pos, cell: dict[str, Any], open_now: int | None = None) -> str | None:
    """Why placing ``cell`` at ``p`` is illegal (one sentence), or None if legal.
    Assumes the rest of the dungeon is legal (it is, outside an Architect build)."""
    if not in_grid(p):
        return "That square is off your dungeon's grid."
    if p in grid:
        return f"{coord(p)} is already built."
    nbrs = [grid.get(step(p, d)) for d in range(4)]
    if cell["kind"] == "deco":
        decorates = False
        for d, n in enumerate(nbrs):
            if is_dungeon(n):
                assert n is not None
                if n["e"][(d + 2) % 4]:
                    return "A passageway may never dead-end into a decoration tile."
                if cell["e"][d] != "-":
                    decorates = True
        if not decorates:
            return "A decoration tile must put at least one decoration against a wall of your dungeon."
        return None
    if not any(is_dungeon(n) for n in nbrs):
        return "A dungeon tile must be placed next to another dungeon tile."
    connected = False
    closes = 0
    opens = 0
    for d, n in enumerate(nbrs):
        mine = cell["e"][d]
        if n is None:
            if mine and in_grid(step(p, d)):
                opens += 1
            continue
        theirs = n["e"][(d + 2) % 4]
        if n["kind"] == "deco":
            if mine:
                return "A passageway may never dead-end into a decoration tile."
            continue
        if theirs:
            closes += 1
            if mine:
                connected = True
    if not connected:
        return "You must be able to trace a connected path from the new tile back to your starting tile."
    if open_now is None:
        open_now = open_passages(grid)
    if open_now - closes + opens <= 0:
        return "Your dungeon must keep at least one passageway leading to empty, unbuilt space."
    return None


def reachable(grid: Grid) -> set[Pos]:
    start = parse_coord(START)
    assert start is not None
    if not is_dungeon(grid.get(start)) or grid[start]["t"] != "start":
        return set()
    seen = {start}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        for d in range(4):
            q = step(p, d)
            n = grid.get(q)
            if grid[p]["e"][d] and is_dungeon(n) and q not in seen:
                assert n is not None
                if n["e"][(d + 2) % 4]:
                    seen.add(q)
                    todo.append(q)
    return seen


def dungeon_problem(grid: Grid) -> str | None:
    """Why the whole dungeon is illegal (the end-of-build check), or None."""
    start = parse_coord(START)
    if start not in grid or grid[start]["t"] != "start":
        return "Your starting tile must stay where it is."
    linked = reachable(grid)
    for p, cell in grid.items():
        if cell["kind"] == "dungeon":
            if p not in linked:
                return f"The tile at {coord(p)} has no connected path back to your starting tile."
            for d in range(4):
                n = grid.get(step(p, d))
                if cell["e"][d] and n is not None and n["kind"] == "deco":
                    return f"A passageway at {coord(p)} dead-ends into a decoration tile."
        else:
            if not any(cell["e"][d] != "-" and is_dungeon(grid.get(step(p, d))) for d in range(4)):
                return f"The decoration tile at {coord(p)} decorates no wall."
    if open_passages(grid) == 0:
        return "Your dungeon must keep at least one passageway leading to empty, unbuilt space."
    return None


def candidate_cells(grid: Grid) -> list[Pos]:
    """Empty squares next to a dungeon tile: the only places a tile can legally go."""
    out = set()
    for p, cell in grid.items():
        if cell["kind"] == "dungeon":
            for d in range(4):
                q = step(p, d)
                if in_grid(q) and q not in grid:
                    out.add(q)
    return sorted(out, key=lambda q: (q[1], q[0]))


def legal_placements(grid: Grid, tile: int | str) -> list[tuple[str, Pos, int, bool]]:
    """Every legal (side, square, rotation, flip) for ``tile``, one per distinct result."""
    out = []
    cells = candidate_cells(grid)
    open_now = open_passages(grid)
    for side in sides_of(tile):
        for rot, flip in orientations(tile, side):
            cell = make_cell(tile, side, rot, flip)
            for p in cells:
                if check_place(grid, p, cell, open_now) is None:
                    out.append((side, p, rot, flip))
    return out


def repairs(grid: Grid, tile: int | str) -> list[tuple[str, Pos, int, bool]]:
    """Placements of ``tile`` after which the whole dungeon is legal (used while an
    Arcane Architect has left it temporarily illegal)."""
    out = []
    cells = sorted(
        {step(p, d) for p in grid for d in range(4) if in_grid(step(p, d)) and step(p, d) not in grid},
        key=lambda q: (q[1], q[0]),
    )
    for side in sides_of(tile):
        for rot, flip in orientations(tile, side):
            cell = make_cell(tile, side, rot, flip)
            for p in cells:
                trial = dict(grid)
                trial[p] = cell
                if dungeon_problem(trial) is None:
                    out.append((side, p, rot, flip))
    return out


def has_placement(grid: Grid, tile: int | str) -> bool:
    cells = candidate_cells(grid)
    open_now = open_passages(grid)
    for side in sides_of(tile):
        for rot, flip in orientations(tile, side):
            cell = make_cell(tile, side, rot, flip)
            if any(check_place(grid, p, cell, open_now) is None for p in cells):
                return True
    return False


# ---- what a dungeon contains -----------------------------------------------------


def summarise_at(grid: Grid, p: Pos) -> dict[str, Any]:
    """One dungeon tile: room or hallway, floor, passages, the decorations and
    green wild icons attached to its walls, its undecorated walls and its walls
    that still face empty squares."""
    cell = grid[p]
    decos: list[str] = []
    wilds = 0
    plain = 0
    free = 0
    for d in range(4):
        if cell["e"][d]:
            continue
        q = (p[0] + DIRS[d][0], p[1] + DIRS[d][1])
        n = grid.get(q)
        icon = n["e"][(d + 2) % 4] if n is not None and n["kind"] == "deco" else "-"
        if icon == "*":
            wilds += 1
            plain += 1  # a wild icon is no decoration until a Mimic activates it
        elif icon == "-":
            plain += 1
        else:
            decos.append(icon)
        if n is None and in_grid(q):
            free += 1
    npass = sum(cell["e"])
    return {
        "room": npass == 1,
        "start": cell["t"] == "start",
        "floor": cell["floor"],
        "passages": npass,
        "decos": decos,
        "wilds": wilds,
        "plain": plain,
        "free_walls": free,
    }


def summarise(grid: Grid) -> dict[Pos, dict[str, Any]]:
    """Per dungeon tile, see :func:`summarise_at`."""
    return {p: summarise_at(grid, p) for p, cell in grid.items() if cell["kind"] == "dungeon"}


def resummarise(grid: Grid, before: dict[Pos, dict[str, Any]], p: Pos) -> dict[Pos, dict[str, Any]]:
    """The summary after one tile was added at ``p``: only it and its neighbours change."""
    out = dict(before)
    for q in [p] + [step(p, d) for d in range(4)]:
        if q in grid and grid[q]["kind"] == "dungeon":
            out[q] = summarise_at(grid, q)
    return out


def is_colour(floor: str) -> bool:
    return floor in COLOURS


# ---- goals -------------------------------------------------------------------------

GOALS: dict[str, dict[str, Any]] = {}
for _g in DATA["goals"]["shape"]:
    GOALS[_g["id"]] = {**_g, "kind": "shape", "cells": shape_cells(_g["rows"], COLOURS)}
for _g in DATA["goals"]["decoration"]:
    GOALS[_g["id"]] = {**_g, "kind": "decoration"}


def _demand(need: dict[str, Any]) -> int:
    return (
        4 * bool(need["colour"] or need["star"])
        + 2 * need["decos"]
        + bool(need["painted"])
        + (need["kind"] == "R")
    )


def _transforms(cells: list[tuple[int, int, dict[str, Any]]]) -> list[list[tuple[int, int, dict[str, Any]]]]:
    """The shape under the 4 rotations and their mirror images, normalised; duplicates removed."""
    out = []
    seen = set()
    for flip in (False, True):
        for rot in range(4):
            pts = []
            for x, y, need in cells:
                if flip:
                    x = -x
                for _ in range(rot):
                    x, y = -y, x
                pts.append((x, y, need))
            mx = min(p[0] for p in pts)
            my = min(p[1] for p in pts)
            # The most demanding cell first: matching anchors on it and fails fast.
            pts = sorted(((x - mx, y - my, n) for x, y, n in pts), key=lambda t: (-_demand(t[2]), t[1], t[0]))
            key = tuple((x, y, repr(sorted(n.items()))) for x, y, n in pts)
            if key not in seen:
                seen.add(key)
                out.append(pts)
    return out


SHAPE_FORMS = {gid: _transforms(g["cells"]) for gid, g in GOALS.items() if g["kind"] == "shape"}


def cell_cost(s: dict[str, Any] | None, need: dict[str, Any]) -> int | None:
    """Mimic tokens this dungeon tile needs to meet one shape cell, or None if it cannot."""
    if s is None:
        return None
    if need["kind"] == "H" and s["room"]:
        return None
    if need["kind"] == "R" and not s["room"]:
        return None
    if need["colour"] and s["floor"] != need["colour"]:
        return None
    if need["star"] and s["floor"] != "star":
        return None
    if need["painted"] and not is_colour(s["floor"]):
        return None
    have = len(s["decos"])
    if have >= need["decos"]:
        return 0
    if have + s["wilds"] >= need["decos"]:
        return need["decos"] - have
    return None


def shape_cost(summary: dict[Pos, dict[str, Any]], gid: str, near: list[Pos] | None = None) -> int | None:
    """Fewest Mimic tokens with which the dungeon shows the shape (rotated or
    reflected, anywhere), or None if it does not. With ``near``, only matches
    that cover one of those squares are tried (the AI's quick re-check after
    one placement)."""
    best: int | None = None
    for form in SHAPE_FORMS[gid]:
        if near is None:
            x0, y0, _ = form[0]
            anchors = [(px - x0, py - y0) for (px, py) in summary]
        else:
            anchors = [(px - x, py - y) for (px, py) in near for x, y, _ in form]
        for ox, oy in anchors:
            total = 0
            for x, y, need in form:
                c = cell_cost(summary.get((ox + x, oy + y)), need)
                if c is None:
                    total = -1
                    break
                total += c
            if total >= 0 and (best is None or total < best):
                best = total
                if best == 0:
                    return 0
    return best


NEEDS: dict[str, list[tuple[str, int]]] = {
    gid: sorted(Counter(g["needs"]).items()) for gid, g in GOALS.items() if g["kind"] == "decoration"
}


def hallway_pool(summary: dict[Pos, dict[str, Any]]) -> tuple[Counter[str], int]:
    """All decorations and wild icons on the walls of the (single) hallway."""
    pool: Counter[str] = Counter()
    wilds = 0
    for s in summary.values():
        if not s["room"]:
            for d in s["decos"]:
                pool[d] += 1
            wilds += s["wilds"]
    return pool, wilds


def deco_cost(
    summary: dict[Pos, dict[str, Any]],
    gid: str,
    near: list[Pos] | None = None,
    pool: tuple[Counter[str], int] | None = None,
) -> int | None:
    """Fewest Mimic tokens with which a decoration goal is met, or None."""
    need = NEEDS[gid]
    if GOALS[gid]["type"] == "hallway":
        have, wilds = pool if pool is not None else hallway_pool(summary)
        missing = sum(max(0, k - have[d]) for d, k in need)
        return missing if missing <= wilds else None
    best: int | None = None
    rooms = summary.values() if near is None else [summary[p] for p in near if p in summary]
    for s in rooms:
        if s["room"]:
            decos = s["decos"]
            missing = sum(max(0, k - decos.count(d)) for d, k in need)
            if missing <= s["wilds"] and (best is None or missing < best):
                best = missing
    return best


def goal_cost(
    summary: dict[Pos, dict[str, Any]],
    gid: str,
    near: list[Pos] | None = None,
    pool: tuple[Counter[str], int] | None = None,
) -> int | None:
    if GOALS[gid]["kind"] == "shape":
        return shape_cost(summary, gid, near)
    return deco_cost(summary, gid, near, pool)


# ---- boss metrics ---------------------------------------------------------------------

BOSSES: dict[str, dict[str, Any]] = {b["id"]: b for b in DATA["bosses"]["bosses"]}
BOSS_DATA = DATA["bosses"]
# Boss goals where a Decorative Mimic (turning a wild icon into a decoration) can help.
MIMIC_METRICS = ("curio", "decorations", "decorated_rooms", "webs")


def room_path(grid: Grid, summary: dict[Pos, dict[str, Any]]) -> int:
    """The Ambulatrix: the longest of the shortest hallway paths between two rooms,
    counted in hallway tiles walked through."""
    rooms = [p for p, s in summary.items() if s["room"]]
    best = 0
    for a, b in combinations(rooms, 2):
        dist = {a: 0}
        todo = deque([a])
        found = None
        while todo and found is None:
            p = todo.popleft()
            for d in range(4):
                q = step(p, d)
                n = grid.get(q)
                if not grid[p]["e"][d] or not is_dungeon(n) or q in dist:
                    continue
                assert n is not None
                if not n["e"][(d + 2) % 4]:
                    continue
                dist[q] = dist[p] + 1
                if q == b:
                    found = dist[q] - 1
                    break
                if not summary[q]["room"]:
                    todo.append(q)
        if found is not None:
            best = max(best, found)
    return best


def metric(grid: Grid, name: str, mimics: int = 0, summary: dict[Pos, dict[str, Any]] | None = None) -> int:
    """The count a boss goal looks at, with ``mimics`` Decorative Mimic tokens
    turning wild icons on the walls into the most useful decoration."""
    s = summary if summary is not None else summarise(grid)
    tiles = [v for v in s.values() if not v["start"]]
    all_decos = Counter(d for v in s.values() for d in v["decos"])
    wilds = sum(v["wilds"] for v in s.values())
    extra = min(mimics, wilds)
    if name == "rooms":
        return sum(1 for v in tiles if v["room"])
    if name == "four_way":
        return sum(1 for v in s.values() if v["passages"] == 4)
    if name == "curio":
        return (max(all_decos.values()) if all_decos else 0) + extra
    if name == "stars":
        return sum(1 for v in tiles if v["floor"] == "star")
    if name == "painted_rooms":
        return sum(1 for v in tiles if v["room"] and is_colour(v["floor"]))
    if name == "decorations":
        return sum(all_decos.values()) + extra
    if name == "decorated_rooms":
        have = sum(1 for v in tiles if v["room"] and len(v["decos"]) >= 2)
        # Cheapest rooms first: one token for a room one decoration short, two for two short.
        costs = sorted(
            2 - len(v["decos"])
            for v in tiles
            if v["room"] and len(v["decos"]) < 2 and len(v["decos"]) + v["wilds"] >= 2
        )
        budget = mimics
        for c in costs:
            if c <= budget:
                budget -= c
                have += 1
        return have
    if name == "hallways":
        return sum(1 for v in tiles if not v["room"])
    if name == "dead_ends":
        n = 0
        for p, cell in grid.items():
            if cell["kind"] != "dungeon":
                continue
            for d in range(4):
                q = grid.get(step(p, d))
                if cell["e"][d] and is_dungeon(q) and q is not None and not q["e"][(d + 2) % 4]:
                    n += 1
        return n
    if name == "webs":
        return all_decos["W"] + extra
    if name == "plain_walls":
        return sum(1 for v in s.values() if v["plain"] > 0)
    if name == "room_path":
        return room_path(grid, s)
    if name == "wilds":
        return wilds
    pairs = {
        "red_orange": ("red", "orange"),
        "blue_purple": ("blue", "purple"),
        "green_yellow": ("green", "yellow"),
    }
    if name in pairs:
        return sum(1 for v in tiles if v["floor"] in pairs[name])
    if name == "open_passages":
        return open_passages(grid)
    if name == "dungeon_tiles":
        return len(tiles)
    raise KeyError(name)


def boss_a_points(name: str, count: int) -> int:
    if name == "curio":
        table = BOSS_DATA["curio"]
        return int(table[str(min(count, 4))]) if count >= 2 else 0
    return int(BOSS_DATA["per_item"][name]) * count


def boss_b_points(counts: list[int]) -> list[int]:
    """10 for the most, 4 for the second most; ties split 14 (for the most) or 4
    (for the second), rounded down. A count of 0 wins nothing (house decision)."""
    first, second = BOSS_DATA["blue_split"]
    pts = [0] * len(counts)
    ranked = sorted({c for c in counts if c > 0}, reverse=True)
    if not ranked:
        return pts
    top = [i for i, c in enumerate(counts) if c == ranked[0]]
    if len(top) > 1:
        for i in top:
            pts[i] = (first + second) // len(top)
        return pts
    pts[top[0]] = first
    if len(ranked) > 1:
        nxt = [i for i, c in enumerate(counts) if c == ranked[1]]
        for i in nxt:
            pts[i] = second // len(nxt)
    return pts


def colour_points(grid: Grid) -> tuple[int, int, int]:
    """(stars, different colours, most common colour) points of the final scoring."""
    floors = [c["floor"] for c in grid.values() if c["kind"] == "dungeon" and c["t"] != "start"]
    stars = sum(1 for f in floors if f == "star") * int(BOSS_DATA["star_points"])
    colours = Counter(f for f in floors if is_colour(f))
    diff = BOSS_DATA["colour_table"][min(len(colours), 6)]
    common = BOSS_DATA["common_table"][min(max(colours.values(), default=0), 6)]
    return stars, int(diff), int(common)
