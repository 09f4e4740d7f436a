"""Loads and validates data/dungeon-lair/*.json at import time.

A broken data file must stop the bot at start-up with a sentence that names the
file and the fault, never surface later as a strange move."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "dungeon-lair"

SIDES = "NESW"
EDGE_CODES = {"O": "open", "D": "door", "P": "portcullis", "W": "wall"}
KINDS = {
    "corridor",
    "room",
    "door-room",
    "portcullis-room",
    "trap",
    "pit",
    "darkness",
    "web",
    "rubble",
    "rotating",
    "catacomb-entrance",
    "bridge",
    "chasm",
}
TWO_ROOM_KINDS = {"bridge": "bridge", "chasm": "chasm"}


class DataError(ValueError):
    pass


@dataclass(frozen=True)
class Area:
    sides: tuple[int, ...]  # side indices 0=N 1=E 2=S 3=W, unrotated
    room: bool


@dataclass(frozen=True)
class Tile:
    id: int
    kind: str
    name: str
    edges: tuple[str, ...]  # "open" | "door" | "portcullis" | "wall", unrotated, N E S W
    areas: tuple[Area, ...]
    link: str | None  # "bridge" joins the two areas, "chasm" does not, None for one-area tiles

    @property
    def points(self) -> int:
        return sum(1 for a in self.areas if a.room)

    @property
    def is_corridor(self) -> bool:
        return self.kind == "corridor"


@dataclass(frozen=True)
class Rules:
    columns: int
    rows: int
    start: str
    power: dict[str, int]
    size_names: dict[str, str]
    monsters: dict[int, dict[str, int]]
    room_points: int


def _fail(file: str, msg: str) -> DataError:
    return DataError(f"{DATA_DIR / file}: {msg}")


def parse_tiles(doc: Any, file: str = "tiles.json") -> dict[int, Tile]:
    if not isinstance(doc, dict) or not isinstance(doc.get("tiles"), list):
        raise _fail(file, "expected an object with a 'tiles' list")
    tiles: dict[int, Tile] = {}
    for raw in doc["tiles"]:
        where = f"tile {raw.get('id', '?')}" if isinstance(raw, dict) else "a tile entry"
        if not isinstance(raw, dict):
            raise _fail(file, f"{where} is not an object")
        tid = raw.get("id")
        if not isinstance(tid, int) or tid <= 0 or tid in tiles:
            raise _fail(file, f"{where} needs a unique positive integer id")
        kind = raw.get("kind")
        if kind not in KINDS:
            raise _fail(file, f"{where} has unknown kind {kind!r}")
        edges = raw.get("edges")
        if not isinstance(edges, str) or len(edges) != 4 or any(c not in EDGE_CODES for c in edges):
            raise _fail(file, f"{where} needs 4 edge letters from {''.join(EDGE_CODES)}")
        doorways = {i for i, c in enumerate(edges) if c != "W"}
        if not doorways:
            raise _fail(file, f"{where} has no doorway at all")
        areas_raw = raw.get("areas")
        if not isinstance(areas_raw, list) or not 1 <= len(areas_raw) <= 2:
            raise _fail(file, f"{where} needs one or two areas")
        areas = []
        seen: set[int] = set()
        for a in areas_raw:
            sides = a.get("sides") if isinstance(a, dict) else None
            if not isinstance(sides, str) or not sides or any(s not in SIDES for s in sides):
                raise _fail(file, f"{where} has an area without valid sides")
            idx = tuple(SIDES.index(s) for s in sides)
            if seen & set(idx) or not set(idx) <= doorways:
                raise _fail(file, f"{where}: every area side must be a doorway used by one area only")
            seen |= set(idx)
            if not isinstance(a.get("room"), bool):
                raise _fail(file, f"{where} has an area without a true/false 'room'")
            areas.append(Area(idx, a["room"]))
        if seen != doorways:
            raise _fail(file, f"{where}: every doorway must belong to an area")
        link = raw.get("link")
        if kind in TWO_ROOM_KINDS:
            if len(areas) != 2 or not all(a.room for a in areas) or link != TWO_ROOM_KINDS[kind]:
                raise _fail(file, f"{where}: a {kind} holds two rooms with link '{TWO_ROOM_KINDS[kind]}'")
        elif len(areas) != 1 or link is not None:
            raise _fail(file, f"{where}: only bridges and chasms hold two areas")
        if (kind == "corridor") == areas[0].room:
            raise _fail(file, f"{where}: corridors are the only tiles without a room")
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise _fail(file, f"{where} needs a name")
        tiles[tid] = Tile(tid, kind, name, tuple(EDGE_CODES[c] for c in edges), tuple(areas), link)
    return tiles


def parse_rules(doc: Any, file: str = "rules.json") -> Rules:
    try:
        board = doc["board"]
        columns, rows, start = int(board["columns"]), int(board["rows"]), str(board["start"])
        sizes = doc["sizes"]
        power = {k: int(v["power"]) for k, v in sizes.items()}
        names = {k: str(v["name"]) for k, v in sizes.items()}
        monsters = {int(n): {k: int(c) for k, c in m.items()} for n, m in doc["monsters"].items()}
        room_points = int(doc["room_points"])
    except (KeyError, TypeError, ValueError) as exc:
        raise _fail(file, f"missing or malformed field ({exc})") from None
    if not (1 <= columns <= 26 and 1 <= rows <= 99):
        raise _fail(file, "the board must have 1-26 columns and 1-99 rows")
    if set(power) != {"S", "M", "L"}:
        raise _fail(file, "sizes must be exactly S, M and L")
    if set(monsters) != set(range(2, 7)) or any(set(m) != set(power) for m in monsters.values()):
        raise _fail(file, "monsters must give S, M and L counts for 2 to 6 players")
    return Rules(columns, rows, start, power, names, monsters, room_points)


def load() -> tuple[dict[int, Tile], Rules]:
    try:
        tiles_doc = json.loads((DATA_DIR / "tiles.json").read_text(encoding="utf-8"))
        rules_doc = json.loads((DATA_DIR / "rules.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"Dungeon Lair data in {DATA_DIR} cannot be read: {exc}") from None
    tiles = parse_tiles(tiles_doc)
    rules = parse_rules(rules_doc)
    total = sum(t.points for t in tiles.values())
    if total != rules.room_points:
        raise _fail("tiles.json", f"room points total {total}, the rules need {rules.room_points}")
    if sorted(tiles) != list(range(1, int(rules_doc.get("tile_count", 0)) + 1)):
        raise _fail("tiles.json", f"tile ids must run 1..{rules_doc.get('tile_count')}")
    return tiles, rules


TILES, RULES = load()
