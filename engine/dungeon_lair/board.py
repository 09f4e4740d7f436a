"""The shared map: coordinates, rotated tiles, placement checks, zones and scores.

The map has no edge. A cell is named by two signed whole numbers, column then row,
"x,y": the first tile of the game lies on 0,0, columns grow to the east (right on
the board), rows grow to the south (down on the board), and a tile keeps its name
for the whole game, however far the dungeon grows in any direction ("-3,2").
An *area* is one room or corridor on a tile: a one-area tile's area is named by
its cell ("0,0"), each room of a two-room tile by its cell plus the (turned) side
it lies on ("0,0n", "0,0s")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from typing import Any

from .data import EDGE_CODES, RULES, TILES, Tile

SIDE_LETTERS = "nesw"
SIDE_WORDS = ("north", "east", "south", "west")
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W as (dx, dy)
ROTATIONS = (0, 90, 180, 270)
WALL = "wall"
START = "0,0"
# Far beyond any dungeon (103 tiles reach at most 102 cells from the first one); it only
# bounds what parse accepts, so a hostile number stays a short sentence.
LIMIT = 999

# [0-9], not \d: \d also matches other scripts' digits (Arabic-Indic, full-width), and \Z, not $,
# which also matches before a trailing newline.
_CELL = re.compile(r"^([+-]?[0-9]{1,3}),([+-]?[0-9]{1,3})\Z")
_AREA = re.compile(r"^([+-]?[0-9]{1,3},[+-]?[0-9]{1,3})([nesw])?\Z", re.IGNORECASE)
# Kinds whose rooms lie on the catacombs (Catacomb extra rules).
CATACOMB_KINDS = ("catacomb-entrance", "catacomb")


def cell_name(x: int, y: int) -> str:
    return f"{x},{y}"


@cache
def cell_pos(cell: str) -> tuple[int, int]:
    m = _CELL.match(cell)
    assert m, cell
    return int(m.group(1)), int(m.group(2))


def parse_cell(text: str) -> str | None:
    """'+2,-01' -> '2,-1'; None if it is not a cell."""
    m = _CELL.match(text)
    if not m:
        return None
    return cell_name(int(m.group(1)), int(m.group(2)))


def parse_area(text: str) -> str | None:
    """'2,-1N' -> '2,-1n', '2,-1' -> '2,-1'; None if it is not a place."""
    m = _AREA.match(text)
    if not m:
        return None
    cell = parse_cell(m.group(1))
    return None if cell is None else cell + (m.group(2) or "").lower()


# Before the map lost its edge, cells were a letter and a number on a 15 x 15 grid whose
# first tile lay on H8. Games begun then, and their logs, are read with this mapping.
_OLD_CELL = re.compile(r"^([A-Oa-o])(1[0-5]|[1-9])([nesw]?)\Z")


def legacy_area(text: str) -> str | None:
    """'H8' -> '0,0', 'g7n' -> '-1,-1n' (an old grid name); None if it is not one."""
    m = _OLD_CELL.match(text)
    if not m:
        return None
    return cell_name(ord(m.group(1).upper()) - ord("H"), int(m.group(2)) - 8) + m.group(3)


def upgrade(state: dict[str, Any]) -> None:
    """Rename, in place, the cells of a game saved with the old grid names."""
    if state.get("cells") == "xy":
        return
    state["board"] = {legacy_area(c) or c: e for c, e in state["board"].items()}
    state["placed"] = [legacy_area(c) or c for c in state["placed"]]
    if state.get("chain"):
        state["chain"] = legacy_area(state["chain"]) or state["chain"]
    for ms in state["monsters"]:
        for m in ms:
            if m["at"] is not None:
                m["at"] = legacy_area(m["at"]) or m["at"]
    state["cells"] = "xy"


def area_cell(label: str) -> str:
    return label[:-1] if label[-1] in SIDE_LETTERS else label


@cache
def sort_key(cell: str) -> tuple[int, int]:
    """Reading order on the board: row by row from the north, west to east."""
    x, y = cell_pos(area_cell(cell))
    return y, x


@cache
def neighbour(cell: str, side: int) -> str:
    x, y = cell_pos(cell)
    dx, dy = STEP[side]
    return cell_name(x + dx, y + dy)


@dataclass(frozen=True)
class Placed:
    """A tile as it lies on the map (rotation applied)."""

    cell: str
    tile: Tile
    rot: int
    edges: tuple[str, ...]  # by side N E S W
    areas: tuple[tuple[str, bool, tuple[int, ...]], ...]  # (label, room, sides)


@cache
def rotate(tile: Tile, rot: int) -> tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]:
    """Edges by side and each area's sides after turning the tile ``rot`` degrees clockwise."""
    k = rot // 90
    edges = [WALL] * 4
    for i, e in enumerate(tile.edges):
        edges[(i + k) % 4] = e
    areas = tuple(tuple(sorted((s + k) % 4 for s in a.sides)) for a in tile.areas)
    return tuple(edges), areas


@cache
def place(cell: str, tile_id: int, rot: int) -> Placed:
    tile = TILES[tile_id]
    edges, sides = rotate(tile, rot)
    areas: tuple[tuple[str, bool, tuple[int, ...]], ...]
    if len(sides) == 1:
        areas = ((cell, tile.areas[0].room, sides[0]),)
    else:
        areas = tuple((cell + SIDE_LETTERS[s[0]], a.room, s) for a, s in zip(tile.areas, sides, strict=True))
    return Placed(cell, tile, rot, edges, areas)


@cache
def distinct_rotations(tile_id: int) -> tuple[int, ...]:
    """Rotations that give different tiles on the map (a crossroads has one)."""
    seen: set[Any] = set()
    out: list[int] = []
    for rot in ROTATIONS:
        edges, sides = rotate(TILES[tile_id], rot)
        key = (edges, tuple(sorted(sides)))
        if key not in seen:
            seen.add(key)
            out.append(rot)
    return tuple(out)


def is_doorway(edge: str) -> bool:
    return edge != WALL


@cache
def _door_masks(tile_id: int) -> tuple[tuple[int, int], ...]:
    """(rotation, doorway sides as bits: N 1, E 2, S 4, W 8) for each distinct rotation."""
    out = []
    for rot in distinct_rotations(tile_id):
        edges = rotate(TILES[tile_id], rot)[0]
        out.append((rot, sum(1 << side for side in range(4) if is_doorway(edges[side]))))
    return tuple(out)


def passage(a: str, b: str) -> str | None:
    """What lies between two touching edges: None (walls), 'open', 'door' or 'portcullis'."""
    if not (is_doorway(a) and is_doorway(b)):
        return None
    if "portcullis" in (a, b):
        return "portcullis"
    if "door" in (a, b):
        return "door"
    return "open"


# passage() of every pair of edges, for the what-ifs that ask it for every tile weighed.
PASSAGES = {(a, b): passage(a, b) for a in EDGE_CODES.values() for b in EDGE_CODES.values()}


class Union:
    """Union-find over area labels."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self.parent
        up = parent.get(x)
        if up is None:
            parent[x] = x
            return x
        if up == x:  # a root (most areas are one step from theirs after halving)
            return x
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def copy(self) -> Union:
        out = Union()
        out.parent = dict(self.parent)
        return out

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


@dataclass
class Dungeon:
    """The map built from ``state['board']`` ({cell: {"t", "r", "by"}}), with its zones.

    A *control zone* is what a normal move reaches for control: through open doorways,
    along corridors and (base game) across bridges; never through a door or a
    portcullis, never across a chasm. A monster's *reach* is where a normal move may
    take it: the control zone, and with the Catacomb extra rules also across bridges
    and through the catacombs, which "is not counted when checking the monster control area"."""

    board: dict[str, Any]
    catacombs: bool = False
    tiles: dict[str, Placed] = field(default_factory=dict)
    area_at: dict[tuple[str, int], str] = field(default_factory=dict)
    room: dict[str, bool] = field(default_factory=dict)
    doors: list[tuple[str, str]] = field(default_factory=list)
    control_sets: Union = field(default_factory=Union)
    move_sets: Union = field(default_factory=Union)
    # Worked out once per map, on first use (a map serves many legal-move lists, views and
    # what-ifs while search plays on it): each empty cell's (sides touching a tile, sides
    # of those that are doorways) as bits, the empty cells next to the map, where each
    # monster's moves may end, and each zone's rooms and free exits.
    needs: dict[str, Any] = field(default_factory=dict)
    open_cells: set[str] | None = None
    front: list[str] | None = None
    dests: dict[str, tuple[str, ...]] = field(default_factory=dict)
    reach_root: dict[str, str] | None = None
    stats: list[tuple[str, int, int]] | None = None
    laid: tuple[tuple[str, tuple[int, int]], ...] | None = None  # the cache's key, for with_tile
    zone_root: dict[str, str] | None = None
    free: dict[str, int] | None = None  # each area's doorways onto empty cells
    touch: dict[str, tuple[tuple[str, str | None] | None, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        underground: list[str] = []
        for cell, entry in self.board.items():
            p = place(cell, entry["t"], entry["r"])
            self.tiles[cell] = p
            for label, room, sides in p.areas:
                self.room[label] = room
                self.control_sets.find(label)
                self.move_sets.find(label)
                for s in sides:
                    self.area_at[(cell, s)] = label
                if p.tile.kind in CATACOMB_KINDS:
                    underground.append(label)
        for cell, p in self.tiles.items():
            if p.tile.link == "bridge":
                sets = self.move_sets if self.catacombs else self.control_sets
                sets.union(p.areas[0][0], p.areas[1][0])
            for side in (1, 2):  # east and south: every touching pair once
                self._join(cell, p, side)
        if self.catacombs:
            for label in underground[1:]:
                self.move_sets.union(underground[0], label)
        for label in self.room:
            self.move_sets.union(label, self.control_sets.find(label))

    def _join(self, cell: str, p: Placed, side: int) -> None:
        other = neighbour(cell, side)
        if other not in self.tiles:
            return
        kind = passage(p.edges[side], self.tiles[other].edges[(side + 2) % 4])
        if kind is None:
            return
        a, b = self.area_at[(cell, side)], self.area_at[(other, (side + 2) % 4)]
        if kind == "open":
            self.control_sets.union(a, b)
        elif kind == "door":
            self.doors.append((a, b))

    @classmethod
    def of(cls, board: dict[str, Any], catacombs: bool = False) -> Dungeon:
        """The dungeon of ``board``, reused while the map is unchanged (a legal-move list,
        a view and an apply on the same position all need it)."""
        laid = tuple(zip(board, map(_TILE_TURN, board.values()), strict=True))
        key = (catacombs, laid)
        hit = _CACHE.get(key)
        if hit is None:
            # A tile just laid on a map already built (every placement in play and in
            # search): the zones are that map's plus the new tile's joins, not a rebuild.
            before = _CACHE.get((catacombs, laid[:-1])) if laid else None
            if before is not None:
                hit = before.plus(laid[-1][0], board[laid[-1][0]])
            else:
                hit = cls(dict(board), catacombs)
            _keep(key, hit)
        return hit

    def with_tile(self, cell: str, entry: dict[str, Any]) -> Dungeon:
        """``Dungeon.of`` the board of this map (one ``of`` gave) with ``entry`` then laid on
        the empty ``cell``: the same cached map, found without reading the whole board again."""
        if self.laid is None:
            return Dungeon.of({**self.board, cell: entry}, self.catacombs)
        key = (self.catacombs, (*self.laid, (cell, _TILE_TURN(entry))))
        hit = _CACHE.get(key)
        if hit is None:
            hit = self.plus(cell, entry)
            _keep(key, hit)
        return hit

    def plus(self, cell: str, entry: dict[str, Any]) -> Dungeon:
        """This map with one more tile on ``cell``: the same zones, reaches and doors as
        a map built from scratch (a union-find root is always its set's smallest label,
        whatever the order of the unions)."""
        d = object.__new__(Dungeon)
        d.board = {**self.board, cell: entry}
        d.catacombs = self.catacombs
        d.tiles = {**self.tiles}
        d.area_at = {**self.area_at}
        d.room = {**self.room}
        d.doors = list(self.doors)
        d.control_sets = self.control_sets.copy()
        d.move_sets = self.move_sets.copy()
        p = d.tiles[cell] = place(cell, entry["t"], entry["r"])
        d._extend_placement(self, cell)
        d.dests, d.reach_root, d.stats, d.touch, d.zone_root, d.laid = {}, None, None, {}, None, None
        d.free = self._free_after(d, cell, p) if self.free is not None else None
        underground = p.tile.kind in CATACOMB_KINDS and self.catacombs
        below = None
        if underground:  # the catacombs join every catacomb area for moves
            below = next((lab for lab, pl in self._labels() if pl.tile.kind in CATACOMB_KINDS), None)
        for label, room, sides in p.areas:
            d.room[label] = room
            d.control_sets.find(label)
            d.move_sets.find(label)
            for side in sides:
                d.area_at[(cell, side)] = label
            if underground and below is not None:
                d.move_sets.union(below, label)
            below = below if below is not None or not underground else label
        if p.tile.link == "bridge":
            a, b = p.areas[0][0], p.areas[1][0]
            d.move_sets.union(a, b)
            if not self.catacombs:
                d.control_sets.union(a, b)
        for side in range(4):
            other = neighbour(cell, side)
            if other not in d.tiles:
                continue
            kind = passage(p.edges[side], d.tiles[other].edges[(side + 2) % 4])
            if kind is None:
                continue
            a, b = d.area_at[(cell, side)], d.area_at[(other, (side + 2) % 4)]
            if kind == "open":
                d.control_sets.union(a, b)
                d.move_sets.union(a, b)
            elif kind == "door":
                d.doors.append((a, b) if side in (1, 2) else (b, a))
        return d

    def _extend_placement(self, before: Dungeon, cell: str) -> None:
        """The placement facts of ``before`` that a tile on ``cell`` leaves true: only the
        cell itself and its neighbours need or touch anything new."""
        around = [neighbour(cell, side) for side in range(4)]
        self.needs = dict(before.needs) if before.tiles else {}
        for c in (cell, *around):
            self.needs.pop(c, None)
        self.open_cells = None
        if before.tiles and before.open_cells is not None:
            self.open_cells = (before.open_cells - {cell}) | {c for c in around if c not in self.tiles}
        self.front = None

    def _free_after(self, d: Dungeon, cell: str, p: Placed) -> dict[str, int]:
        """Each area's doorways onto empty cells once ``p`` lies on ``cell`` (``d``): the
        new areas', and one fewer for each doorway facing the new tile."""
        assert self.free is not None
        free = dict(self.free)
        for label, _room, sides in p.areas:
            free[label] = sum(1 for side in sides if neighbour(cell, side) not in d.tiles)
        for side in range(4):
            facing = self.area_at.get((neighbour(cell, side), (side + 2) % 4))
            if facing is not None:
                free[facing] -= 1
        return free

    def _labels(self) -> Iterable[tuple[str, Placed]]:
        return ((lab, p) for p in self.tiles.values() for lab, _r, _s in p.areas)

    # ---- zones -------------------------------------------------------------------
    def zone(self, label: str) -> str:
        """The control zone of an area."""
        return self.control_sets.find(label)

    def reach(self, label: str) -> str:
        """The set of areas a normal move joins (equal to the zone without Catacombs)."""
        return self.move_sets.find(label)

    def zones(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for label, root in self._zone_roots().items():
            out.setdefault(root, []).append(label)
        return out

    def _zone_roots(self) -> dict[str, str]:
        if self.zone_root is None:
            find = self.control_sets.find
            self.zone_root = {lab: find(lab) for lab in self.room}
        return self.zone_root

    def reachable(self, label: str) -> list[str]:
        roots = self._reach_roots()
        r = roots[label] if label in roots else self.reach(label)
        return [lab for lab, root in roots.items() if root == r]

    def _reach_roots(self) -> dict[str, str]:
        if self.reach_root is None:
            self.reach_root = {lab: self.reach(lab) for lab in self.room}
        return self.reach_root

    def moves_from(self, label: str) -> tuple[str, ...]:
        """Where a monster on ``label`` may move and change its control zone, in order:
        what a normal move reaches and one door beyond, outside its own zone."""
        hit = self.dests.get(label)
        if hit is None:
            zones = self._zone_roots()
            zone = zones.get(label, label)  # a label off the map is its own zone, as zone() says
            dests = set(self.reachable(label)) | self.beyond_doors(label)
            hit = self.dests[label] = tuple(sorted(d for d in dests if zones[d] != zone))
        return hit

    def around(self, cell: str) -> tuple[tuple[str, str | None] | None, ...]:
        """For each side of ``cell`` (N E S W): None where no tile lies beyond it, else the
        facing edge of that tile and, if it is a doorway, the zone of the area behind it."""
        hit = self.touch.get(cell)
        if hit is None:
            out: list[tuple[str, str | None] | None] = []
            for side in range(4):
                other = neighbour(cell, side)
                p = self.tiles.get(other)
                if p is None:
                    out.append(None)
                    continue
                back = (side + 2) % 4
                edge = p.edges[back]
                out.append(
                    (edge, self._zone_roots()[self.area_at[(other, back)]] if is_doorway(edge) else None)
                )
            hit = self.touch[cell] = tuple(out)
        return hit

    def zone_stats(self) -> list[tuple[str, int, int]]:
        """(zone, rooms, free exits) for each zone, in the order of ``zones()``."""
        if self.stats is None:
            if self.free is None:
                free = self.free = dict.fromkeys(self.room, 0)
                for (cell, side), label in self.area_at.items():
                    if neighbour(cell, side) not in self.tiles:
                        free[label] += 1
            room, free = self.room, self.free
            sums: dict[str, list[int]] = {}
            for label, root in self._zone_roots().items():
                got = sums.get(root)
                if got is None:
                    got = sums[root] = [0, 0]
                got[0] += room[label]
                got[1] += free[label]
            self.stats = [(z, rooms, exits) for z, (rooms, exits) in sums.items()]
        return self.stats

    def beyond_doors(self, label: str) -> set[str]:
        """Areas one door away from what a normal move from ``label`` reaches: where a
        move may end after opening a door."""
        roots = self._reach_roots()
        r = roots[label] if label in roots else self.reach(label)
        out = set()
        for a, b in self.doors:
            if roots[a] == r:
                out.add(b)
            if roots[b] == r:
                out.add(a)
        return out

    # ---- placement ---------------------------------------------------------------
    def free_exits(self, cell: str) -> list[str]:
        """Empty cells beyond a doorway of the tile at ``cell`` (the map has no edge)."""
        p = self.tiles[cell]
        return [
            neighbour(cell, s)
            for s in range(4)
            if is_doorway(p.edges[s]) and neighbour(cell, s) not in self.tiles
        ]

    def frontier(self) -> list[str]:
        """Empty cells next to a placed tile (or the start cell on an empty map)."""
        if not self.tiles:
            return [START]
        if self.front is None:
            if self.open_cells is None:
                self.open_cells = {neighbour(c, s) for c in self.tiles for s in range(4)} - set(self.tiles)
            self.front = sorted(self.open_cells, key=sort_key)
        return list(self.front)

    def placement_fault(self, tile_id: int, cell: str, rot: int) -> str | None:
        """None if the tile fits there, else the sentence that says why not."""
        if cell in self.tiles:
            return f"{cell} already holds a tile."
        if not self.tiles:
            return None if cell == START else f"The first tile goes on {START}."
        edges, _ = rotate(TILES[tile_id], rot)
        touching = False
        for side in range(4):
            other = neighbour(cell, side)
            if other not in self.tiles:
                continue
            touching = True
            theirs = self.tiles[other].edges[(side + 2) % 4]
            if is_doorway(edges[side]) != is_doorway(theirs):
                return f"Its {SIDE_WORDS[side]} edge would put a doorway against a wall at {other}."
        if not touching:
            return f"{cell} does not touch any tile on the map."
        return None

    def fits(self, tile_id: int, cells: Iterable[str]) -> list[tuple[str, int]]:
        """Where (cell, turn) the tile fits: placement_fault's rule, with each cell's
        neighbouring edges worked out once per map (legal moves ask for every tile in hand
        and every cell, and search asks for thousands of positions)."""
        out = []
        masks = _door_masks(tile_id)
        needs = self.needs
        for cell in cells:
            need = needs.get(cell, False)
            if need is False:
                need = self._needs(cell)
            if need is None:
                continue
            touching, doorways = need
            for rot, mask in masks:
                if mask & touching == doorways:
                    out.append((cell, rot))
        return out

    def _needs(self, cell: str) -> tuple[int, int] | None:
        """(sides touching a tile, the sides of those that must be doorways), as bits N 1,
        E 2, S 4, W 8; None where no tile may go (the cell is taken, or touches nothing
        on a map that has tiles, or is not the start on an empty map)."""
        need: tuple[int, int] | None
        if cell in self.tiles:
            need = None
        elif not self.tiles:
            need = (0, 0) if cell == START else None
        else:
            touching = doorways = 0
            for side in range(4):
                other = self.tiles.get(neighbour(cell, side))
                if other is not None:
                    touching |= 1 << side
                    if is_doorway(other.edges[(side + 2) % 4]):
                        doorways |= 1 << side
            need = (touching, doorways) if touching else None
        self.needs[cell] = need
        return need

    # ---- control and scores ------------------------------------------------------
    def control(self, monsters: list[list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
        """Per zone: its rooms, each seat's power there and who controls it (None: nobody or a tie)."""
        seats = len(monsters)
        out: dict[str, dict[str, Any]] = {}
        for z, labels in self.zones().items():
            out[z] = {"rooms": [lab for lab in labels if self.room[lab]], "power": [0] * seats, "owner": None}
        for seat, ms in enumerate(monsters):
            for m in ms:
                if m["at"] is not None:
                    out[self.zone(m["at"])]["power"][seat] += RULES.power[m["s"]]
        for info in out.values():
            best = max(info["power"], default=0)
            if best > 0 and info["power"].count(best) == 1:
                info["owner"] = info["power"].index(best)
        return out

    def scores(self, monsters: list[list[dict[str, Any]]]) -> list[int]:
        scores = [0] * len(monsters)
        for info in self.control(monsters).values():
            if info["owner"] is not None:
                scores[info["owner"]] += len(info["rooms"])
        return scores


_CACHE: dict[tuple[bool, tuple[tuple[str, tuple[int, int]], ...]], Dungeon] = {}


def _keep(key: tuple[bool, tuple[tuple[str, tuple[int, int]], ...]], dungeon: Dungeon) -> None:
    if len(_CACHE) >= 32:
        _CACHE.pop(next(iter(_CACHE)))
    dungeon.laid = key[1]
    _CACHE[key] = dungeon


# A board entry's (tile, turn): with its cell, what the cache keys a map by.
_TILE_TURN = itemgetter("t", "r")
