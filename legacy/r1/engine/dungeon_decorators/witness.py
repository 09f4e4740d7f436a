"""Proof that every goal can be achieved: for each goal, build an actual dungeon
from real tiles that the placement rules accept and the goal scorer counts.

Runs at import (after the component data is loaded). A goal without a witness
raises DataError naming it.

The construction: lay the goal's cells out east of the starting tile, join every
hallway (and the hallway each room opens onto) to the start with corridors found
by breadth-first search, put decoration tiles on the walls a cell needs
decorated, give every hallway at least two passageways, then check the whole
dungeon with the engine's own rules and scorer and assign a distinct real tile
(numbered or generic) to every square.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from . import rules as R
from .data import DataError, shape_cells

Need = dict[str, Any]
# A square to fill: (where, shape need, dungeon-side passage pattern, decoration icon wanted).
Square = tuple[Any, "Need | None", "tuple[int, bool] | None", "str | None"]


def _pattern(e: list[int]) -> tuple[int, bool]:
    """Passage count and whether a two-passage tile is straight (rotation/flip invariant)."""
    return sum(e), (sum(e) == 2 and e[0] == e[2])


def _tile_pool(tiles: list[dict[str, Any]], generic: int) -> list[dict[str, Any]]:
    pool = []
    for t in tiles:
        e = [0 if x in "-*" else 1 for x in t["edges"]]
        pool.append(
            {
                "n": t["n"],
                "pattern": _pattern(e),
                "floor": t["floor"],
                "icons": {x for x in t["edges"] if x not in "-*"},
            }
        )
    for i in range(generic):
        # A generic tile is a grey room or a grey straight hallway.
        pool.append({"n": f"G{i}", "pattern": None, "floor": "grey", "icons": set()})
    return pool


def _assign(cells: list[Square], pool: list[dict[str, Any]]) -> bool:
    """Give each square a distinct tile: (key, need, dungeon pattern or None, icon or None)."""
    used: set[Any] = set()

    def fits(
        tile: dict[str, Any], need: Need | None, pattern: tuple[int, bool] | None, icon: str | None
    ) -> bool:
        if icon == "any":  # every numbered tile shows at least one decoration
            return tile["pattern"] is not None
        if icon is not None:
            return icon in tile["icons"]
        assert pattern is not None
        if tile["pattern"] is None:
            ok_pattern = pattern in ((1, False), (2, True))
        else:
            ok_pattern = tile["pattern"] == pattern
        if not ok_pattern:
            return False
        if need is None:
            return True
        if need["colour"] and tile["floor"] != need["colour"]:
            return False
        if need["star"] and tile["floor"] != "star":
            return False
        return not (need["painted"] and tile["floor"] not in R.COLOURS)

    def demand(c: tuple[Any, Need | None, Any, Any]) -> int:
        need = c[1]
        if need is None:
            return 0
        return 3 * bool(need["colour"] or need["star"]) + bool(need["painted"])

    for _square, need, pattern, icon in sorted(cells, key=lambda c: -demand(c)):
        choice = next((t for t in pool if t["n"] not in used and fits(t, need, pattern, icon)), None)
        if choice is None:
            return False
        used.add(choice["n"])
    return True


def _matches(summary: dict[R.Pos, dict[str, Any]], cells: list[tuple[int, int, Need]]) -> bool:
    for form in R._transforms(cells):
        for ox in range(-R.SIZE, R.SIZE):
            for oy in range(-R.SIZE, R.SIZE):
                if all(R.cell_cost(summary.get((ox + x, oy + y)), n) == 0 for x, y, n in form):
                    return True
    return False


def shape_witness(cells: list[tuple[int, int, Need]], pool: list[dict[str, Any]]) -> R.Grid | None:
    start = R.parse_coord(R.START)
    assert start is not None
    w = max(x for x, _, _ in cells) + 1
    h = max(y for _, y, _ in cells) + 1
    for ox in range(start[0] + 2, R.SIZE - w + 1):
        for oy in range(max(0, start[1] - h), min(R.SIZE - h, start[1] + 1) + 1):
            grid = _try_layout({(ox + x, oy + y): n for x, y, n in cells}, start)
            if (
                grid is not None
                and _matches(R.summarise(grid), cells)
                and _real_tiles(grid, cells, pool, ox, oy)
            ):
                return grid
    return None


def _try_layout(at: dict[R.Pos, Need], start: R.Pos) -> R.Grid | None:
    rooms = {p for p, n in at.items() if n["kind"] == "R"}
    halls = {p for p in at if p not in rooms}  # "C" cells are laid out as hallways
    reserved: dict[R.Pos, tuple[R.Pos, int]] = {}  # deco square -> (decorated square, its wall direction)
    edges: set[frozenset[R.Pos]] = set()
    attach: dict[R.Pos, R.Pos] = {}
    near_start = {R.step(start, d) for d in range(4)}

    def free(q: R.Pos) -> bool:
        return R.in_grid(q) and q not in at and q != start and q not in reserved

    for p in sorted(rooms):
        opts = [R.step(p, d) for d in range(4) if R.step(p, d) in halls]
        opts += [R.step(p, d) for d in range(4) if free(R.step(p, d))]
        if not opts:
            return None
        attach[p] = opts[0]
    for p, need in sorted(at.items()):
        k = need["decos"]
        if not k:
            continue
        spots = [R.step(p, d) for d in range(4)]
        spots = [
            q
            for q in spots
            if free(q) and q != attach.get(p) and q not in attach.values() and q not in near_start
        ]
        if len(spots) < k:
            return None
        for q in spots[:k]:
            d = next(d for d in range(4) if R.step(p, d) == q)
            reserved[q] = (p, d)

    corridor: set[R.Pos] = set()
    for p in sorted(rooms):
        if attach[p] not in halls:
            corridor.add(attach[p])
        edges.add(frozenset((p, attach[p])))
    tree = {start}
    targets = sorted(halls | corridor, key=lambda q: abs(q[0] - start[0]) + abs(q[1] - start[1]))
    for target in targets:
        if target in tree:
            continue
        prev: dict[R.Pos, R.Pos | None] = {target: None}
        todo = deque([target])
        hit = None
        while todo and hit is None:
            q = todo.popleft()
            for d in range(4):
                n = R.step(q, d)
                if n in prev or not R.in_grid(n) or n in reserved or n in rooms:
                    continue
                prev[n] = q
                if n in tree:
                    hit = n
                    break
                todo.append(n)
        if hit is None:
            return None
        walk: R.Pos | None = hit
        while walk is not None:
            nxt = prev[walk]
            if nxt is not None:
                edges.add(frozenset((walk, nxt)))
            if walk not in at and walk != start:
                corridor.add(walk)
            tree.add(walk)
            walk = nxt
    dungeon = halls | corridor | rooms | {start}
    grid: R.Grid = {}
    for p in dungeon:
        e = [1 if frozenset((p, R.step(p, d))) in edges else 0 for d in range(4)]
        grid[p] = {"t": "w", "side": "D", "rot": 0, "flip": False, "kind": "dungeon", "e": e, "floor": "grey"}
    grid[start] = R.start_cell()
    for p in halls | corridor:
        cell = grid[p]
        walls_needed = at[p]["decos"] if p in at else 0
        for d in range(4):
            if sum(cell["e"]) >= 2:
                break
            q = R.step(p, d)
            if cell["e"][d] or q in reserved or not R.in_grid(q):
                continue
            if 4 - sum(cell["e"]) - 1 < walls_needed:
                break
            # A second passageway: into empty space, or dead-ending into a neighbour's wall.
            cell["e"][d] = 1
        if sum(cell["e"]) < 2:
            return None
    for p, need in at.items():
        grid[p]["floor"] = need["colour"] or (
            "star" if need["star"] else R.COLOURS[0] if need["painted"] else "grey"
        )
    for q, (_p, d) in reserved.items():
        icons = ["-"] * 4
        icons[(d + 2) % 4] = "X"  # the letter is fixed when real tiles are assigned
        grid[q] = {
            "t": "w",
            "side": "X",
            "rot": 0,
            "flip": False,
            "kind": "deco",
            "e": icons,
            "floor": "grey",
        }
    # A passage that now faces a decoration square or leaves nothing open is caught here.
    if R.dungeon_problem(grid) is not None:
        return None
    return grid


def _real_tiles(
    grid: R.Grid, cells: list[tuple[int, int, Need]], pool: list[dict[str, Any]], ox: int, oy: int
) -> bool:
    at = {(ox + x, oy + y): n for x, y, n in cells}
    wanted: list[Square] = []
    for p, cell in grid.items():
        if cell["t"] == "start":
            continue
        if cell["kind"] == "dungeon":
            wanted.append((p, at.get(p), _pattern(cell["e"]), None))
        else:
            wanted.append((p, None, None, "any"))
    return _assign(wanted, pool)


def deco_witness(goal: dict[str, Any], pool: list[dict[str, Any]]) -> R.Grid | None:
    """A room north of the start, or a straight hallway east of it, with the goal's decorations."""
    start = R.parse_coord(R.START)
    assert start is not None
    needs = list(goal["needs"])
    grid: R.Grid = {start: R.start_cell()}
    walls: list[tuple[R.Pos, int]] = []
    squares: list[Square] = []
    if goal["type"] == "room":
        room = R.step(start, 0)
        grid[room] = {
            "t": "w",
            "side": "D",
            "rot": 0,
            "flip": False,
            "kind": "dungeon",
            "e": [0, 0, 1, 0],
            "floor": "grey",
        }
        squares.append((room, None, (1, False), None))
        walls = [(room, d) for d in (0, 1, 3)]
    else:
        x, y = start
        length = (len(needs) + 1) // 2
        for i in range(1, length + 1):
            p = (x + i, y)
            if not R.in_grid(p):
                return None
            grid[p] = {
                "t": "w",
                "side": "D",
                "rot": 0,
                "flip": False,
                "kind": "dungeon",
                "e": [0, 1, 0, 1],
                "floor": "grey",
            }
            squares.append((p, None, (2, True), None))
            walls += [(p, 0), (p, 2)]
    if len(needs) > len(walls):
        return None
    for icon, (p, d) in zip(needs, walls, strict=False):
        q = R.step(p, d)
        e = ["-"] * 4
        e[(d + 2) % 4] = icon
        grid[q] = {"t": "w", "side": "X", "rot": 0, "flip": False, "kind": "deco", "e": e, "floor": "grey"}
        squares.append((q, None, None, icon))
    if R.dungeon_problem(grid) is not None:
        return None
    # The engine's own reading of the walls must find every decoration the goal asks for.
    summary = R.summarise(grid)
    where = [v for v in summary.values() if v["room"] == (goal["type"] == "room") and not v["start"]]
    found = sorted(d for v in where for d in v["decos"])
    if goal["type"] == "room" and len(where) != 1 or found != sorted(needs):
        return None
    return grid if _assign(squares, pool) else None


def check_goals(data: dict[str, Any]) -> None:
    """Raise DataError for any goal no real dungeon can meet."""
    t = data["tiles"]
    for goal in data["goals"]["shape"]:
        pool = _tile_pool(t["tiles"], t["generic"]["count"])
        if shape_witness(shape_cells(goal["rows"], t["colours"]), pool) is None:
            raise DataError(f"shape goal {goal['id']} {goal['name']}: no dungeon of these tiles can show it")
    for goal in data["goals"]["decoration"]:
        pool = _tile_pool(t["tiles"], t["generic"]["count"])
        if deco_witness(goal, pool) is None:
            raise DataError(
                f"decoration goal {goal['id']} {goal['name']}: no dungeon of these tiles can meet it"
            )
