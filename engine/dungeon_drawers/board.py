"""Geometry of a dungeon sheet: coordinates, the build laws and the path laws.

A sheet is a dict ``{"grid": {cell: kind}, "crossed": [cell, ...], ...}`` with
cells named like "C5" (columns A-H left to right, rows 1-10 top to bottom). The
entrance lies above A1 and the exit below H10.

Reachability is computed on 80-bit integers (one bit a space) because wall
placements are enumerated for every legal-move list and every random playout.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any

from engine.core import IllegalAction

from .data import SHEET

COLS = "ABCDEFGH"
NC = 8
NR = 10
N = NC * NR
ENTRANCE = "A1"
EXIT = "H10"
ALL_CELLS = [f"{COLS[i % NC]}{i // NC + 1}" for i in range(N)]
INDEX = {c: i for i, c in enumerate(ALL_CELLS)}
MONSTER_KINDS = ("goblin", "orc", "dragon")
BLOCKER_KINDS = ("goblin", "orc", "dragon", "trap")  # never orthogonally next to each other

FULL = (1 << N) - 1
_COL_A = sum(1 << (r * NC) for r in range(NR))
_COL_H = sum(1 << (r * NC + NC - 1) for r in range(NR))
NOT_A = FULL & ~_COL_A
NOT_H = FULL & ~_COL_H

# Entries each memo below keeps before it starts afresh (search plays thousands of dungeons).
_MEMO_SIZE = 1024
_MISSING = object()


def remembered(memo: dict[Any, Any], key: Any, make: Callable[[], Any], size: int = _MEMO_SIZE) -> Any:
    """``memo[key]``, made by ``make()`` the first time it is asked for; a memo that holds
    ``size`` entries starts afresh, so memory stays bounded however many dungeons search plays."""
    got = memo.get(key, _MISSING)
    if got is _MISSING:
        if len(memo) >= size:
            memo.clear()
        got = memo[key] = make()
    return got


def parse_cell(token: str) -> str | None:
    t = token.strip().upper()
    # isascii: '①'.isdigit() is True but int('①') raises.
    if not 2 <= len(t) <= 3 or not t.isascii() or t[0] not in COLS or not t[1:].isdigit():
        return None
    r = int(t[1:])
    return f"{t[0]}{r}" if 1 <= r <= NR and t[1:] == str(r) else None


def xy(cell: str) -> tuple[int, int]:
    i = INDEX[cell]
    return i % NC, i // NC


def at(x: int, y: int) -> str | None:
    return ALL_CELLS[y * NC + x] if 0 <= x < NC and 0 <= y < NR else None


NEIGHBOURS: dict[str, list[str]] = {}
for _c in ALL_CELLS:
    _x, _y = xy(_c)
    NEIGHBOURS[_c] = [n for n in (at(_x, _y - 1), at(_x + 1, _y), at(_x, _y + 1), at(_x - 1, _y)) if n]


def bit(cell: str) -> int:
    return 1 << INDEX[cell]


def mask(cells: Iterable[str]) -> int:
    m = 0
    for c in cells:
        m |= 1 << INDEX[c]
    return m


def flood(start: int, free: int) -> int:
    reach = start & free
    while True:
        nxt = reach | ((reach << 1) & NOT_A) | ((reach >> 1) & NOT_H) | (reach << NC) | (reach >> NC)
        nxt &= free
        if nxt == reach:
            return reach
        reach = nxt


def wall_mask(sheet: dict) -> int:
    return mask(c for c, k in sheet["grid"].items() if k == "wall")


def all_accessible(walls: int) -> bool:
    """DuBuL §4(1): every space without a wall is reachable from the entrance and
    the exit. The entrance touches only A1 and the exit only H10."""
    if walls & (bit(ENTRANCE) | bit(EXIT)):
        return False
    free = FULL & ~walls
    return flood(bit(ENTRANCE), free) == free


# ---- wall formations ----------------------------------------------------------


def orientations(shape: list[list[int]]) -> list[tuple[tuple[int, int], ...]]:
    """Every rotation and mirror image of a formation, normalised and deduplicated."""
    out: list[tuple[tuple[int, int], ...]] = []
    seen: set[frozenset[tuple[int, int]]] = set()
    pts = [(int(a), int(b)) for a, b in shape]
    for mirror in (False, True):
        cur = [(-x, y) if mirror else (x, y) for x, y in pts]
        for _ in range(4):
            cur = [(-y, x) for x, y in cur]
            mx = min(x for x, _ in cur)
            my = min(y for _, y in cur)
            norm = tuple(sorted((x - mx, y - my) for x, y in cur))
            key = frozenset(norm)
            if key not in seen:
                seen.add(key)
                out.append(norm)
    return out


_SHAPES = {name: orientations(cells) for name, cells in SHEET["walls"].items()}


def same_shape(shape: str, cells: list[str]) -> bool:
    if len(cells) != len(SHEET["walls"][shape]):
        return False
    pts = [xy(c) for c in cells]
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    norm = tuple(sorted((x - mx, y - my) for x, y in pts))
    return norm in _SHAPES[shape]


def sort_cells(cells: Iterable[str]) -> list[str]:
    return sorted(set(cells), key=INDEX.__getitem__)


def wall_problem(sheet: dict, shape: str, cells: list[str]) -> str | None:
    """Why this formation may not be drawn here, or None if it may."""
    if not same_shape(shape, cells):
        return (
            f"Those spaces are not the {shape} wall formation (it may be rotated or mirrored, never changed)."
        )
    taken = [c for c in cells if c in sheet["grid"]]
    if taken:
        return f"{taken[0]} is not empty; walls are drawn only on empty spaces."
    walls = wall_mask(sheet) | mask(cells)
    if not all_accessible(walls):
        return (
            "Walls there would cut spaces off: every space without a wall must stay reachable "
            "from the entrance and the exit."
        )
    return None


def _dilate(m: int) -> int:
    """``m`` and every space orthogonally next to one of its spaces."""
    return (m | ((m << 1) & NOT_A) | ((m >> 1) & NOT_H) | (m << NC) | (m >> NC)) & FULL


def _formation_places(shape: str) -> list[tuple[int, tuple[str, ...], int, int]]:
    """Every placement of the formation on the empty sheet, once each, in reading order of
    its cells: (mask, cells, the spaces next to it, the spaces within two steps of it)."""
    seen: set[int] = set()
    for orient in _SHAPES[shape]:
        w = max(x for x, _ in orient) + 1
        h = max(y for _, y in orient) + 1
        for y0 in range(NR - h + 1):
            for x0 in range(NC - w + 1):
                seen.add(sum(1 << ((y0 + y) * NC + x0 + x) for x, y in orient))
    places = []
    for m in seen:
        cells = tuple(ALL_CELLS[i] for i in range(N) if m >> i & 1)
        places.append((m, cells, _dilate(m) & ~m, _dilate(_dilate(m)) & ~m))
    places.sort(key=lambda p: [INDEX[c] for c in p[1]])
    return places


# Wall placements are enumerated for every legal-move list, every element skipped as lost
# and every install of the heuristic player, often on the same sheet: the formations'
# placements are laid out once; those that keep every space reachable are remembered per
# walls (monsters, traps and treasures do not change them), and the legal ones per spaces taken.
_PLACES = {name: _formation_places(name) for name in SHEET["walls"]}
_OPEN_PLACES: dict[tuple[str, int], tuple[tuple[int, tuple[str, ...]], ...]] = {}
_LEGAL_PLACES: dict[tuple[str, int, int], tuple[tuple[str, ...], ...]] = {}
_ENDS = (1 << INDEX[ENTRANCE]) | (1 << INDEX[EXIT])


def _legal_places(sheet: dict, shape: str) -> tuple[tuple[str, ...], ...]:
    occupied = walls = 0
    for c, k in sheet["grid"].items():
        b = 1 << INDEX[c]
        occupied |= b
        if k == "wall":
            walls |= b

    def legal() -> tuple[tuple[str, ...], ...]:
        fit = remembered(_OPEN_PLACES, (shape, walls), lambda: _open_places(shape, walls))
        return tuple(cells for m, cells in fit if not m & occupied)

    return remembered(_LEGAL_PLACES, (shape, occupied, walls), legal)  # type: ignore[no-any-return]


def _open_places(shape: str, walls: int) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The placements off the walls that leave every space reachable (:func:`all_accessible`).
    When the sheet is connected now, a placement keeps it so if the free spaces next to it
    still reach each other within two steps of it (any way through its spaces goes round
    them): one small flood instead of one over the sheet; the whole flood decides the rest."""
    free = FULL & ~walls
    connected = all_accessible(walls)
    out = []
    for m, cells, ring, near in _PLACES[shape]:
        if m & walls or m & _ENDS:
            continue
        rest = free & ~m
        touch = ring & rest
        if connected and touch and flood(touch & -touch, near & rest) & touch == touch:
            out.append((m, cells))
        elif all_accessible(walls | m):
            out.append((m, cells))
    return tuple(out)


def wall_placements(sheet: dict, shape: str) -> list[list[str]]:
    """Every legal placement of the formation, in reading order of its cells."""
    return [list(cells) for cells in _legal_places(sheet, shape)]


def can_place_wall(sheet: dict, shape: str) -> bool:
    return bool(_legal_places(sheet, shape))


# ---- monsters and traps ----------------------------------------------------------


def blocker_problem(sheet: dict, cell: str) -> str | None:
    grid = sheet["grid"]
    if cell in grid:
        return f"{cell} is not empty; monsters and traps are drawn only on empty spaces."
    for n in NEIGHBOURS[cell]:
        if grid.get(n) in BLOCKER_KINDS:
            return f"{cell} is next to the {grid[n]} on {n}; monsters and traps may never be orthogonally next to monsters or traps."
    return None


def blocker_cells(sheet: dict) -> list[str]:
    """The spaces where a monster or trap may be drawn (:func:`blocker_problem` is None):
    empty and not next to a monster or trap."""
    taken = blockers = 0
    for c, k in sheet["grid"].items():
        b = 1 << INDEX[c]
        taken |= b
        if k in BLOCKER_KINDS:
            blockers |= b
    key = taken | _dilate(blockers)
    return list(
        remembered(_BLOCKER_CELLS, key, lambda: tuple(c for i, c in enumerate(ALL_CELLS) if not key >> i & 1))
    )


# The spaces open to a blocker, per the spaces closed to it (the heuristic player asks at
# every card it weighs and every blocker it installs).
_BLOCKER_CELLS: dict[int, tuple[str, ...]] = {}


# ---- the hero's path ---------------------------------------------------------------


def expand(waypoints: list[str]) -> list[str]:
    """Waypoints joined by straight horizontal or vertical runs -> every space in order."""
    if not waypoints:
        raise IllegalAction("A path needs at least one space.")
    out = [waypoints[0]]
    for a, b in zip(waypoints, waypoints[1:], strict=False):
        (ax, ay), (bx, by) = xy(a), xy(b)
        if a == b:
            raise IllegalAction(f"{a} is named twice in a row; name only the corners of the path.")
        if ax != bx and ay != by:
            raise IllegalAction(
                f"{a} to {b} is not a straight line: the path is one unbranched line that moves only "
                "horizontally or vertically, never diagonally."
            )
        dx = (bx > ax) - (bx < ax)
        dy = (by > ay) - (by < ay)
        x, y = ax, ay
        while (x, y) != (bx, by):
            x, y = x + dx, y + dy
            out.append(ALL_CELLS[y * NC + x])
    return out


def compress(cells: list[str]) -> list[str]:
    """The corners of a path (inverse of :func:`expand`): keep a space where the direction changes."""
    if len(cells) <= 2:
        return list(cells)
    out = [cells[0]]
    for prev, cur, nxt in zip(cells, cells[1:], cells[2:], strict=False):
        (px, py), (cx, cy), (nx, ny) = xy(prev), xy(cur), xy(nxt)
        if (cx - px, cy - py) != (nx - cx, ny - cy):
            out.append(cur)
    out.append(cells[-1])
    return out


def path_problem(sheet: dict, cells: list[str]) -> str | None:
    """Why this path breaks the Phase B laws, or None if it is valid."""
    grid = sheet["grid"]
    if not cells or cells[0] != ENTRANCE:
        return "The path must start at A1, the space below the entrance."
    if cells[-1] != EXIT:
        return "The path must end at H10, the space above the exit."
    for a, b in zip(cells, cells[1:], strict=False):
        if b not in NEIGHBOURS[a]:
            return (
                f"{a} to {b} is not one step: the path is one continuous line without branches or diagonals."
            )
    seen: dict[str, list[int]] = {}
    for i, c in enumerate(cells):
        if grid.get(c) == "wall":
            return f"The path may never pass through a wall ({c})."
        seen.setdefault(c, []).append(i)
        if len(seen[c]) > 2:
            return f"The path may pass through a space at most twice ({c})."
    for c, idx in seen.items():
        if len(idx) == 2 and grid.get(c) in MONSTER_KINDS:
            between = cells[idx[0] + 1 : idx[1]]
            if not any(grid.get(b) in BLOCKER_KINDS and b != c for b in between):
                return (
                    f"The path may cross the monster on {c} a second time only after crossing "
                    "another monster or trap in between."
                )
    return None


_NEXT_TO = {c: frozenset(NEIGHBOURS[c]) for c in ALL_CELLS}


def path_valid(sheet: dict, cells: list[str]) -> bool:
    """Whether :func:`path_problem` finds nothing wrong (without the sentence): in one pass,
    since the tours of candidate paths try hundreds of paths a dungeon."""
    if not cells or cells[0] != ENTRANCE or cells[-1] != EXIT:
        return False
    grid = sheet["grid"]
    visits: dict[str, int] = {}
    crossed = 0  # monsters and traps entered so far
    mark: dict[str, int] = {}  # monster entered once -> ``crossed`` just after
    prev = None
    for c in cells:
        if prev is not None and c not in _NEXT_TO[prev]:
            return False
        prev = c
        k = grid.get(c)
        if k == "wall":
            return False
        n = visits.get(c, 0) + 1
        if n > 2:
            return False
        visits[c] = n
        if k in MONSTER_KINDS:
            if n == 2 and crossed == mark[c]:
                return False  # crossed again with no other monster or trap in between
            mark[c] = crossed + 1
        if k in BLOCKER_KINDS:
            crossed += 1
    return True


# Neighbours by index, in the order of NEIGHBOURS (the searches below break ties as before).
_NB: list[tuple[int, ...]] = [tuple(INDEX[n] for n in NEIGHBOURS[c]) for c in ALL_CELLS]


def _walls(grid: dict) -> list[bool]:
    wall = [False] * N
    for c, k in grid.items():
        if k == "wall":
            wall[INDEX[c]] = True
    return wall


def _wall_bits(grid: dict) -> int:
    walls = 0
    for c, k in grid.items():
        if k == "wall":
            walls |= 1 << INDEX[c]
    return walls


# Routes without extra costs and distance maps depend on the walls only; the heuristic player
# asks for the same ones at every install and every candidate path, and the samples of one
# search share most dungeons: remembered per walls (copies handed out).
_ROUTES: dict[tuple[int, int, int], tuple[str, ...] | None] = {}
_DISTANCES: dict[tuple[int, int], dict[str, int]] = {}


def cost_path(sheet: dict, start: str, goal: str, cost: dict[str, float] | None = None) -> list[str] | None:
    """Cheapest wall-free route (Dijkstra; every step costs 1 plus ``cost`` of the space entered).
    On space indices rather than names (search calls it thousands of times a move); the heap
    orders by (distance, index) as by (distance, index, name), so the route is the same."""
    if cost:
        return router(sheet, cost)(start, goal)
    key = (_wall_bits(sheet["grid"]), INDEX[start], INDEX[goal])

    def route() -> tuple[str, ...] | None:
        got = _step_route(_walls(sheet["grid"]), key[1], key[2])
        return None if got is None else tuple(got)

    found = remembered(_ROUTES, key, route)
    return None if found is None else list(found)


def router(sheet: dict, cost: dict[str, float] | None) -> Callable[[str, str], list[str] | None]:
    """``cost_path(sheet, a, b, cost)`` for any ``a`` and ``b``, the walls and costs read once.
    One search from each start serves every goal: the search that stops at the goal has settled
    the same route by then (later steps only cost more), so the routes are the same."""
    wall = _walls(sheet["grid"])
    extra = [cost.get(c, 0.0) for c in ALL_CELLS] if cost else [0.0] * N
    ways = [tuple(n for n in _NB[c] if not wall[n]) for c in range(N)]
    trees: dict[int, tuple[list[float], list[int]]] = {}

    def route(a: str, b: str) -> list[str] | None:
        s, g = INDEX[a], INDEX[b]
        tree = trees.get(s)
        if tree is None:
            tree = trees[s] = _tree(ways, extra, s)
        dist, prev = tree
        if dist[g] == _INF:
            return None
        out = [g]
        while g != s:
            g = prev[g]
            out.append(g)
        return [ALL_CELLS[i] for i in reversed(out)]

    return route


def _step_route(wall: list[bool], s: int, g: int) -> list[str] | None:
    """The route :func:`_tree` finds when every step costs 1, breadth first: the heap takes the
    spaces one step further only after all nearer ones, and those of one distance by index, so
    a space is first reached (and kept) from its neighbour of smallest index one step nearer."""
    dist = [-1] * N
    dist[s] = 0
    order = [s]
    for c in order:  # the list grows as spaces are reached
        d = dist[c] + 1
        for n in _NB[c]:
            if dist[n] < 0 and not wall[n]:
                dist[n] = d
                order.append(n)
        if dist[g] >= 0:  # every space nearer than the goal is reached by now
            break
    if dist[g] < 0:
        return None
    out = [g]
    while g != s:
        g = min(n for n in _NB[g] if dist[n] == dist[g] - 1)
        out.append(g)
    return [ALL_CELLS[i] for i in reversed(out)]


_INF = float("inf")


def _tree(ways: list[tuple[int, ...]], extra: list[float], s: int) -> tuple[list[float], list[int]]:
    """Dijkstra from ``s`` over the whole sheet (``ways``: each space's neighbours without a
    wall; the heap orders by (distance, index)): the distance and previous space of each."""
    dist = [_INF] * N
    dist[s] = 0.0
    prev = [-1] * N
    heap: list[tuple[float, int]] = [(0.0, s)]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, c = pop(heap)
        if d > dist[c]:
            continue
        for n in ways[c]:
            nd = d + 1 + extra[n]
            if nd < dist[n]:
                dist[n] = nd
                prev[n] = c
                push(heap, (nd, n))
    return dist, prev


def distances(sheet: dict, start: str) -> dict[str, int]:
    """Steps from ``start`` to every space it reaches (breadth first, on space indices)."""
    key = (_wall_bits(sheet["grid"]), INDEX[start])
    return dict(remembered(_DISTANCES, key, lambda: _distances(_walls(sheet["grid"]), key[1])))


def _distances(wall: list[bool], s: int) -> dict[str, int]:
    dist = [-1] * N
    dist[s] = 0
    order = [s]
    nbs = _NB
    for c in order:  # breadth first: the list grows as spaces are reached
        d = dist[c] + 1
        for n in nbs[c]:
            if dist[n] < 0 and not wall[n]:
                dist[n] = d
                order.append(n)
    return {ALL_CELLS[i]: dist[i] for i in order}
