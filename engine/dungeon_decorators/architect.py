"""Arcane Architect uses: which moves, turns and swaps of tiles already in a
dungeon can be offered as moves.

"To do this, discard a token, then rotate and/or move one tile in your dungeon
... you may not flip it over to its other side." - "if you wish to swap two
tiles in your dungeon, you must use two Arcane Architects." - "you may
temporarily "disconnect" your dungeon while using Arcane Architects and fill the
resulting spaces with newly-drafted tiles or tiles from storage. However, your
resulting dungeon at the end of your Build Phase must be completely legal."

Offered (one entry per distinct result):

* a turn in place, a move (with or without a turn), or a swap of two tiles
  (two tokens, each tile may be turned), after which the dungeon is legal;
* a move that leaves the dungeon broken only where one of the tiles you hold
  (new or stored) can be laid on the square it left, making it legal again
  (the "disconnect and fill" of the rulebook).

The move notation also takes any other move onto an empty square; the build
cannot end until the dungeon is legal again (or is reset).
"""

from __future__ import annotations

from typing import Any

from . import rules as R

Move = dict[str, Any]


def distinct_turns(cell: dict[str, Any]) -> list[int]:
    """Quarter turns (0-3) that give distinct edge patterns of ``cell``."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for q in range(4):
        key = tuple(R.turned(cell, q)["e"])
        if key not in seen:
            seen.add(key)
            out.append(q)
    return out


def _move(src: R.Pos, dst: R.Pos, rot: int) -> Move:
    return {"a": "arch", "from": R.coord(src), "to": R.coord(dst), "rot": rot}


def _fills(g_minus: R.Grid, src: R.Pos, held: list[Any]) -> list[R.Grid]:
    """The dungeons made legal by laying one held tile on the emptied square."""
    out = []
    seen: set[tuple[Any, ...]] = set()
    for t in dict.fromkeys(held):
        for side in R.sides_of(t):
            for rot in R.orientations(t, side):
                cell = R.make_cell(t, side, rot)
                key = (cell["kind"], tuple(cell["e"]))
                if key in seen:
                    continue
                trial = dict(g_minus)
                trial[src] = cell
                if _fits_locally(trial, src) and R.dungeon_problem(trial) is None:
                    seen.add(key)
                    out.append(trial)
    return out


def _orphan_squares(g_minus: R.Grid) -> set[R.Pos]:
    """Empty squares next to a tile cut off from the start (where a moved tile
    could join the dungeon up again)."""
    linked = R.reachable(g_minus)
    out = set()
    for p in g_minus:
        if p not in linked:
            for d in range(4):
                q = R.step(p, d)
                if q not in g_minus:
                    out.add(q)
    return out


def _moves_of(grid: R.Grid, src: R.Pos, held: list[Any]) -> list[Move]:
    cell = grid[src]
    g_minus = {p: c for p, c in grid.items() if p != src}
    out: list[Move] = []
    found: set[tuple[R.Pos, int]] = set()
    for q in distinct_turns(cell)[1:]:
        trial = dict(g_minus)
        trial[src] = R.turned(cell, q)
        if _fits_locally(trial, src) and R.dungeon_problem(trial) is None:
            out.append(_move(src, src, q))
    base_ok = R.dungeon_problem(g_minus) is None
    bases = ([g_minus] if base_ok else []) + (_fills(g_minus, src, held) if held else [])
    for rot in distinct_turns(cell):
        moved = R.turned(cell, rot)
        for base in bases:
            open_now = R.open_passages(base)
            for dst in R.candidate_cells(base):
                if (
                    dst != src
                    and (dst, rot) not in found
                    and R.check_place(base, dst, moved, open_now) is None
                ):
                    found.add((dst, rot))
                    out.append(_move(src, dst, rot))
        if not base_ok:
            # A tile that holds the dungeon together may still move where it joins it up again.
            for dst in _orphan_squares(g_minus):
                trial = dict(g_minus)
                trial[dst] = moved
                if dst == src or (dst, rot) in found or not _fits_locally(trial, dst):
                    continue
                if R.dungeon_problem(trial) is None:
                    found.add((dst, rot))
                    out.append(_move(src, dst, rot))
    return out


def _picture(cell: dict[str, Any]) -> tuple[Any, ...]:
    return (cell["kind"], tuple(cell["e"]), cell["floor"])


def _fits_locally(grid: R.Grid, p: R.Pos) -> bool:
    """The cell at ``p`` breaks no rule with its neighbours and a dungeon tile there
    is joined to one of them (a quick filter before the whole-dungeon check)."""
    cell = grid[p]
    good = False  # a decoration on a wall, or a passage joined to a neighbour's
    for d in range(4):
        n = grid.get(R.step(p, d))
        if n is None:
            continue
        if cell["kind"] == "dungeon":
            if cell["e"][d] and n["kind"] == "deco":
                return False
            good = good or bool(cell["e"][d] and n["kind"] == "dungeon" and n["e"][(d + 2) % 4])
        elif n["kind"] == "dungeon":
            if n["e"][(d + 2) % 4]:
                return False
            good = good or cell["e"][d] != "-"
    return good


def _fitting_turns(grid: R.Grid, cell: dict[str, Any], at: R.Pos) -> list[int]:
    """Turns of ``cell`` that fit its neighbours at ``at``."""
    out = []
    for q in distinct_turns(cell):
        trial = dict(grid)
        trial[at] = R.turned(cell, q)
        if _fits_locally(trial, at):
            out.append(q)
    return out


def swaps(grid: R.Grid) -> list[Move]:
    """Swaps of two tiles (each may be turned) after which the dungeon is legal."""
    tiles = sorted((p for p, c in grid.items() if c["t"] != "start"), key=lambda q: (q[1], q[0]))
    out: list[Move] = []
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            ca, cb = grid[a], grid[b]
            if _picture(ca) == _picture(cb):
                continue  # the same picture: a swap is only two turns in place
            near = abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
            # Apart, each tile's turns are judged against its new neighbours alone.
            turns_b = distinct_turns(ca) if near else _fitting_turns(grid, ca, b)
            turns_a = distinct_turns(cb) if near else _fitting_turns(grid, cb, a)
            for ra in turns_b:
                for rb in turns_a:
                    trial = dict(grid)
                    trial[b] = R.turned(ca, ra)
                    trial[a] = R.turned(cb, rb)
                    if _picture(trial[a]) == _picture(ca) and _picture(trial[b]) == _picture(cb):
                        continue  # nothing anyone can see changes
                    if not (_fits_locally(trial, a) and _fits_locally(trial, b)):
                        continue
                    if R.dungeon_problem(trial) is None:
                        out.append({"a": "swap", "at": [R.coord(a), R.coord(b)], "rot": [ra, rb]})
    return out


def uses(grid: R.Grid, held: list[Any], tokens: int) -> list[Move]:
    """Every Architect use offered with ``tokens`` tokens and ``held`` tiles in hand."""
    if tokens < 1:
        return []
    out: list[Move] = []
    for src in sorted(grid, key=lambda q: (q[1], q[0])):
        if grid[src]["t"] != "start":
            out += _moves_of(grid, src, held)
    if tokens >= 2:
        out += swaps(grid)
    return out


def apply_use(grid: R.Grid, action: Move) -> R.Grid:
    """The dungeon after an Architect use (no legality check)."""
    g = dict(grid)
    if action["a"] == "swap":
        a, b = (R.parse_coord(c) for c in action["at"])
        assert a is not None and b is not None
        ra, rb = action["rot"]
        g[a], g[b] = R.turned(grid[b], rb), R.turned(grid[a], ra)
        return g
    src, dst = R.parse_coord(action["from"]), R.parse_coord(action["to"])
    assert src is not None and dst is not None
    cell = g.pop(src)
    g[dst] = R.turned(cell, action["rot"])
    return g
