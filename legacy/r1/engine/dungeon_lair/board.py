"""The shared map: coordinates, rotated tiles, placement checks, zones and scores.

Cells are named like a spreadsheet: column letter, row number ("H8"). An *area*
is one room or corridor on a tile; a one-area tile's area is named by its cell
("H8"), each room of a bridge or chasm by its cell plus the (rotated) side it
lies on ("H8n", "H8s")."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .data import RULES, TILES, Tile

SIDE_LETTERS = "nesw"
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N E S W as (dcol, drow)
ROTATIONS = (0, 90, 180, 270)
WALL = "wall"

# [0-9], not \d: \d also matches other scripts' digits (Arabic-Indic, full-width), and \Z, not $,
# which also matches before a trailing newline.
_CELL = re.compile(r"^([A-Za-z])([0-9]{1,2})\Z")
_AREA = re.compile(r"^([A-Za-z])([0-9]{1,2})([nesw])?\Z", re.IGNORECASE)


def cell_name(col: int, row: int) -> str:
    return f"{chr(65 + col)}{row + 1}"


@cache
def cell_pos(cell: str) -> tuple[int, int]:
    m = _CELL.match(cell)
    assert m, cell
    return ord(m.group(1).upper()) - 65, int(m.group(2)) - 1


def parse_cell(text: str) -> str | None:
    """'h8' -> 'H8' if it is on the board, else None."""
    m = _CELL.match(text)
    if not m:
        return None
    col, row = ord(m.group(1).upper()) - 65, int(m.group(2)) - 1
    return cell_name(col, row) if on_board(col, row) else None


def parse_area(text: str) -> str | None:
    """'h8N' -> 'H8n', 'h8' -> 'H8'; None if it is not a cell of the board."""
    m = _AREA.match(text)
    if not m:
        return None
    cell = parse_cell(m.group(1) + m.group(2))
    if cell is None:
        return None
    return cell + (m.group(3) or "").lower()


def area_cell(label: str) -> str:
    return label[:-1] if label[-1] in SIDE_LETTERS else label


def on_board(col: int, row: int) -> bool:
    return 0 <= col < RULES.columns and 0 <= row < RULES.rows


@cache
def neighbour(cell: str, side: int) -> str | None:
    col, row = cell_pos(cell)
    dc, dr = STEP[side]
    return cell_name(col + dc, row + dr) if on_board(col + dc, row + dr) else None


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


def passage(a: str, b: str) -> str | None:
    """What lies between two touching edges: None (walls), 'open', 'door' or 'portcullis'."""
    if not (is_doorway(a) and is_doorway(b)):
        return None
    if "portcullis" in (a, b):
        return "portcullis"
    if "door" in (a, b):
        return "door"
    return "open"


@dataclass
class Dungeon:
    """The map built from ``state['board']`` ({cell: {"t", "r", "by"}}), with its zones.

    Two areas share a zone when a normal move links them: through open doorways,
    along corridors and across bridges; never through a door or a portcullis,
    never across a chasm."""

    board: dict[str, Any]
    tiles: dict[str, Placed] = field(default_factory=dict)
    area_at: dict[tuple[str, int], str] = field(default_factory=dict)
    room: dict[str, bool] = field(default_factory=dict)
    parent: dict[str, str] = field(default_factory=dict)
    doors: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for cell, entry in self.board.items():
            p = place(cell, entry["t"], entry["r"])
            self.tiles[cell] = p
            for label, room, sides in p.areas:
                self.room[label] = room
                self.parent[label] = label
                for s in sides:
                    self.area_at[(cell, s)] = label
        for cell, p in self.tiles.items():
            if p.tile.link == "bridge":
                self._union(p.areas[0][0], p.areas[1][0])
            for side in (1, 2):  # east and south: every touching pair once
                other = neighbour(cell, side)
                if other is None or other not in self.tiles:
                    continue
                kind = passage(p.edges[side], self.tiles[other].edges[(side + 2) % 4])
                if kind is None:
                    continue
                a, b = self.area_at[(cell, side)], self.area_at[(other, (side + 2) % 4)]
                if kind == "open":
                    self._union(a, b)
                elif kind == "door":
                    self.doors.append((a, b))

    @classmethod
    def of(cls, board: dict[str, Any]) -> Dungeon:
        """The dungeon of ``board``, reused while the map is unchanged (a legal-move list,
        a view and an apply on the same position all need it)."""
        key = tuple((cell, e["t"], e["r"]) for cell, e in board.items())
        hit = _CACHE.get(key)
        if hit is None:
            if len(_CACHE) >= 32:
                _CACHE.pop(next(iter(_CACHE)))
            hit = _CACHE[key] = cls(dict(board))
        return hit

    # ---- zones -------------------------------------------------------------------
    def _find(self, x: str) -> str:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def _union(self, a: str, b: str) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def zone(self, label: str) -> str:
        return self._find(label)

    def zones(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for label in self.room:
            out.setdefault(self.zone(label), []).append(label)
        return out

    def beyond_doors(self, zone: str) -> set[str]:
        """Areas one door away from ``zone``: where a move may end after opening a door."""
        out = set()
        for a, b in self.doors:
            if self.zone(a) == zone:
                out.add(b)
            if self.zone(b) == zone:
                out.add(a)
        return out

    # ---- placement ---------------------------------------------------------------
    def free_exits(self, cell: str) -> list[str]:
        """Empty cells on the map beyond a doorway of the tile at ``cell``."""
        p = self.tiles[cell]
        out = []
        for side in range(4):
            other = neighbour(cell, side)
            if is_doorway(p.edges[side]) and other is not None and other not in self.tiles:
                out.append(other)
        return out

    def frontier(self) -> list[str]:
        """Empty cells next to a placed tile (or the start cell on an empty map)."""
        if not self.tiles:
            return [RULES.start]
        out: set[str] = set()
        for cell in self.tiles:
            for side in range(4):
                other = neighbour(cell, side)
                if other is not None and other not in self.tiles:
                    out.add(other)
        return sorted(out, key=lambda c: cell_pos(c)[::-1])

    def placement_fault(self, tile_id: int, cell: str, rot: int) -> str | None:
        """None if the tile fits there, else the sentence that says why not."""
        if cell in self.tiles:
            return f"{cell} already holds a tile."
        if not self.tiles:
            return None if cell == RULES.start else f"The first tile goes on {RULES.start}."
        edges, _ = rotate(TILES[tile_id], rot)
        touching = False
        for side in range(4):
            other = neighbour(cell, side)
            if other is None or other not in self.tiles:
                continue
            touching = True
            theirs = self.tiles[other].edges[(side + 2) % 4]
            if is_doorway(edges[side]) != is_doorway(theirs):
                where = "NESW"[side]
                return f"Its {where} edge would put a doorway against a wall at {other}."
        if not touching:
            return f"{cell} does not touch any tile on the map."
        return None

    def fits(self, tile_id: int, cells: Iterable[str]) -> list[tuple[str, int]]:
        return [
            (cell, rot)
            for cell in cells
            for rot in distinct_rotations(tile_id)
            if self.placement_fault(tile_id, cell, rot) is None
        ]

    # ---- control and scores ------------------------------------------------------
    def control(self, monsters: list[list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
        """Per zone: its rooms, each seat's power there and who controls it (None: nobody or a tie)."""
        seats = len(monsters)
        out: dict[str, dict[str, Any]] = {}
        for z, labels in self.zones().items():
            out[z] = {
                "rooms": [lab for lab in labels if self.room[lab]],
                "power": [0] * seats,
                "owner": None,
            }
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


_CACHE: dict[tuple[tuple[str, int, int], ...], Dungeon] = {}
