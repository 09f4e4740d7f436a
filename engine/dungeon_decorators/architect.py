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
  (new or stored) can be laid on the square it left, making it legal again;
* (the "disconnect and fill" of the rulebook, issue 29 item 5) a move after
  which the dungeon is broken but the tiles you hold can mend it: laid, one or
  two of them, on the squares next to what is cut off (the square the tile
  left, the gap between the moved tile and the rest). While it is broken, the
  placements offered are those after which the tiles still held can finish the
  mending, and further Architect uses whose result they can mend.

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


def swaps(grid: R.Grid, start_moves: bool = False) -> list[Move]:
    """Swaps of two tiles (each may be turned) after which the dungeon is legal."""
    tiles = sorted(
        (p for p, c in grid.items() if c["t"] != "start" or start_moves), key=lambda q: (q[1], q[0])
    )
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


def uses(grid: R.Grid, held: list[Any], tokens: int, start_moves: bool = False) -> list[Move]:
    """Every Architect use offered with ``tokens`` tokens and ``held`` tiles in hand
    (``start_moves``: the starting tile may be moved too, revision 3)."""
    if tokens < 1:
        return []
    out: list[Move] = []
    for src in sorted(grid, key=lambda q: (q[1], q[0])):
        if grid[src]["t"] != "start" or start_moves:
            out += _moves_of(grid, src, held)
    if tokens >= 2:
        out += swaps(grid, start_moves)
    return out


# ---- disconnect and fill: what the tiles you hold can still mend -------------------------

MEND_DEPTH = 2  # at most two held tiles are laid to mend one broken dungeon
MOVE_DEPTH = 1  # an Architect move is offered when one held tile can mend what it breaks
MAX_SQUARES = 60  # squares a disconnecting move is tried on (the nearest first), to answer at once


def _mend_cells(tile: Any) -> list[dict[str, Any]]:
    """The dungeon-side cells a held tile can make (only a dungeon tile joins tiles up)."""
    out = []
    for side in R.sides_of(tile):
        for rot in R.orientations(tile, side):
            cell = R.make_cell(tile, side, rot)
            if cell["kind"] == "dungeon":
                out.append(cell)
    return out


def _parts(grid: R.Grid, linked: set[R.Pos]) -> list[set[R.Pos]]:
    """What is not yet legal, in pieces a laid tile must join up: each group of
    dungeon tiles cut off from the start (joined among themselves by passages),
    and each decoration tile that decorates no wall."""
    loose = {p for p, c in grid.items() if c["kind"] == "dungeon" and p not in linked}
    out: list[set[R.Pos]] = []
    while loose:
        todo = [loose.pop()]
        part = set(todo)
        while todo:
            p = todo.pop()
            for d in range(4):
                q = R.step(p, d)
                if q in loose and grid[p]["e"][d] and grid[q]["e"][(d + 2) % 4]:
                    loose.discard(q)
                    part.add(q)
                    todo.append(q)
        out.append(part)
    for p, c in grid.items():
        if c["kind"] == "deco" and not any(
            c["e"][d] != "-" and R.is_dungeon(grid.get(R.step(p, d))) for d in range(4)
        ):
            out.append({p})
    return out


def _touches(grid: R.Grid, q: R.Pos, cell: dict[str, Any], part: set[R.Pos]) -> bool:
    """A dungeon cell at ``q`` joins ``part``: a passage to a passage of one of its
    dungeon tiles, or a wall under an icon of its decoration tile."""
    for d in range(4):
        n = R.step(q, d)
        if n not in part:
            continue
        other = grid[n]
        if other["kind"] == "dungeon":
            if cell["e"][d] and other["e"][(d + 2) % 4]:
                return True
        elif not cell["e"][d] and other["e"][(d + 2) % 4] != "-":
            return True
    return False


def joins(grid: R.Grid, q: R.Pos, cell: dict[str, Any]) -> bool:
    """A dungeon cell at ``q`` sends no passage into a decoration tile and meets a
    neighbour's passage with one of its own."""
    good = False
    for d in range(4):
        n = grid.get(R.step(q, d))
        if n is None:
            continue
        if n["kind"] == "deco":
            if cell["e"][d]:
                return False
        elif cell["e"][d] and n["e"][(d + 2) % 4]:
            good = True
    return good


def mendable(grid: R.Grid, held: list[Any], depth: int = MEND_DEPTH) -> bool:
    """Whether laying at most ``depth`` of the ``held`` tiles makes the dungeon legal."""
    if R.dungeon_problem(grid) is None:
        return True
    if depth <= 0 or not held:
        return False
    linked = R.reachable(grid)
    parts = _parts(grid, linked)
    last = depth == 1 or len(held) == 1
    if not parts or len(parts) > 3 * min(depth, len(held)):
        return False  # nothing a tile can join (no open passage) or too many pieces
    spots = sorted(
        {R.step(p, d) for part in parts for p in part for d in range(4)} - set(grid),
        key=lambda q: (q[1], q[0]),
    )
    for t in dict.fromkeys(held):
        rest = list(held)
        rest.remove(t)
        for cell in _mend_cells(t):
            for q in spots:
                if not joins(grid, q, cell):
                    continue
                # The last tile laid must join the connected dungeon and every piece.
                if last and not (
                    _touches(grid, q, cell, linked) and all(_touches(grid, q, cell, x) for x in parts)
                ):
                    continue
                if not any(_touches(grid, q, cell, x) for x in parts):
                    continue  # a tile that joins no piece mends nothing
                trial = dict(grid)
                trial[q] = cell
                if mendable(trial, rest, depth - 1):
                    return True
    return False


def _spots(grid: R.Grid) -> list[R.Pos]:
    """Empty squares next to what is not yet legal."""
    parts = _parts(grid, R.reachable(grid))
    near = {R.step(p, d) for part in parts for p in part for d in range(4)} - set(grid)
    return sorted(near, key=lambda q: (q[1], q[0]))


def mending_placements(grid: R.Grid, tile: Any, held: list[Any]) -> list[tuple[str, R.Pos, int]]:
    """While an Architect has left the dungeon broken: the placements of ``tile``
    after which the other held tiles can finish mending it (or it is legal)."""
    rest = list(held)
    rest.remove(tile)
    out = list(R.repairs(grid, tile))
    found = set(out)
    if not rest:
        return out
    # Next to what is cut off, or next to the connected dungeon (a bridge built from either end).
    spots = sorted(set(_spots(grid)) | set(R.candidate_cells(grid)), key=lambda q: (q[1], q[0]))
    for side in R.sides_of(tile):
        for rot in R.orientations(tile, side):
            cell = R.make_cell(tile, side, rot)
            if cell["kind"] != "dungeon":
                continue
            for q in spots:
                if (side, q, rot) in found or not joins(grid, q, cell):
                    continue
                trial = dict(grid)
                trial[q] = cell
                if mendable(trial, rest, min(MEND_DEPTH, len(rest))):
                    found.add((side, q, rot))
                    out.append((side, q, rot))
    return out


def _near_squares(grid: R.Grid, reach: int) -> list[R.Pos]:
    """Empty squares within ``reach`` steps of a dungeon tile."""
    ring = {p for p, c in grid.items() if c["kind"] == "dungeon"}
    seen = set(ring)
    out: list[R.Pos] = []
    for _ in range(reach):
        nxt = set()
        for p in ring:
            for d in range(4):
                q = R.step(p, d)
                if q not in seen and q not in grid:
                    seen.add(q)
                    nxt.add(q)
        out += sorted(nxt, key=lambda q: (q[1], q[0]))
        ring = nxt
    return out


def disconnects(
    grid: R.Grid,
    held: list[Any],
    src: R.Pos,
    legal_too: bool = False,
    first: bool = False,
    depth: int = MOVE_DEPTH,
) -> list[Move]:
    """Moves of the tile at ``src`` (each with any turn) after which the dungeon is
    broken but the held tiles can mend it: "you may temporarily "disconnect" your
    dungeon while using Arcane Architects and fill the resulting spaces with
    newly-drafted tiles or tiles from storage". The tile lands next to the dungeon
    or one square out (where a held tile can bridge to it). ``legal_too``: also the
    moves whose result is legal at once (from a broken dungeon); ``first``: stop at
    the first found. Asked one tile at a time (the chooser's step after the tile):
    all tiles at once would take seconds."""
    if not held and not legal_too:
        return []
    depth = min(depth, len(held))
    cell = grid[src]
    g_minus = {p: c for p, c in grid.items() if p != src}
    out: list[Move] = []
    for dst in _near_squares(g_minus, depth + 1)[:MAX_SQUARES]:
        for rot in distinct_turns(cell):
            trial = dict(g_minus)
            trial[dst] = R.turned(cell, rot)
            if not _no_clash(trial, dst):
                continue
            broken = R.dungeon_problem(trial) is not None
            if (legal_too and not broken) or (broken and mendable(trial, held, depth)):
                out.append(_move(src, dst, rot))
                if first:
                    return out
    return out


def _no_clash(grid: R.Grid, p: R.Pos) -> bool:
    """The cell at ``p`` sends no passage into a decoration tile and no neighbour's
    passage dead-ends into it (what no later tile can mend)."""
    cell = grid[p]
    for d in range(4):
        n = grid.get(R.step(p, d))
        if n is None:
            continue
        if cell["kind"] == "dungeon" and n["kind"] == "deco" and cell["e"][d]:
            return False
        if cell["kind"] == "deco" and n["kind"] == "dungeon" and n["e"][(d + 2) % 4]:
            return False
    return True


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
