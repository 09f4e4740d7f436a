"""Loads and validates data/dungeon-lair/*.json at import time, through core.load_data.

A broken data file must stop the bot at start-up with a sentence that names the
file and the fault, never surface later as a strange move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import DataError, load_data

__all__ = ["DataError", "RULES", "TILES", "BASE_IDS", "CATACOMB_IDS", "Tile", "Area", "Rules", "parse_tiles"]

GAME_KEY = "dungeon-lair"
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
    # the two new tile types of the Catacomb extra rules (house design)
    "crypt",
    "catacomb",
}
TWO_ROOM_KINDS = {"bridge": "bridge", "chasm": "chasm", "catacomb": "catacomb"}


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
    # "bridge" joins the two areas, "chasm" parts them, "catacomb" joins them through the
    # catacombs only; None for one-area tiles
    link: str | None

    @property
    def points(self) -> int:
        return sum(1 for a in self.areas if a.room)

    @property
    def is_corridor(self) -> bool:
        return self.kind == "corridor"


@dataclass(frozen=True)
class Rules:
    power: dict[str, int]
    size_names: dict[str, str]
    monsters: dict[int, dict[str, int]]
    room_points: int
    tile_count: int
    catacomb_monsters: dict[int, dict[str, int]]
    catacomb_room_points: int
    catacomb_tile_count: int


def _area(where: str, a: Any, doorways: set[int], seen: set[int]) -> Area:
    sides = a.get("sides") if isinstance(a, dict) else None
    if not isinstance(sides, str) or not sides or any(s not in SIDES for s in sides):
        raise DataError(f"{where} has an area without valid sides")
    idx = tuple(SIDES.index(s) for s in sides)
    if seen & set(idx) or not set(idx) <= doorways:
        raise DataError(f"{where}: every area side must be a doorway used by one area only")
    seen |= set(idx)
    if not isinstance(a.get("room"), bool):
        raise DataError(f"{where} has an area without a true/false 'room'")
    return Area(idx, a["room"])


def parse_tile(raw: Any, known: dict[int, Tile]) -> Tile:
    """One tile entry of tiles.json or catacombs.json, checked."""
    if not isinstance(raw, dict):
        raise DataError("a tile entry is not an object")
    where = f"tile {raw.get('id', '?')}"
    tid = raw.get("id")
    if not isinstance(tid, int) or tid <= 0 or tid in known:
        raise DataError(f"{where} needs a unique positive integer id")
    kind = raw.get("kind")
    if kind not in KINDS:
        raise DataError(f"{where} has unknown kind {kind!r}")
    edges = raw.get("edges")
    if not isinstance(edges, str) or len(edges) != 4 or any(c not in EDGE_CODES for c in edges):
        raise DataError(f"{where} needs 4 edge letters from {''.join(EDGE_CODES)}")
    doorways = {i for i, c in enumerate(edges) if c != "W"}
    if not doorways:
        raise DataError(f"{where} has no doorway at all")
    areas_raw = raw.get("areas")
    if not isinstance(areas_raw, list) or not 1 <= len(areas_raw) <= 2:
        raise DataError(f"{where} needs one or two areas")
    seen: set[int] = set()
    areas = [_area(where, a, doorways, seen) for a in areas_raw]
    if seen != doorways:
        raise DataError(f"{where}: every doorway must belong to an area")
    link = raw.get("link")
    if kind in TWO_ROOM_KINDS:
        if len(areas) != 2 or not all(a.room for a in areas) or link != TWO_ROOM_KINDS[kind]:
            raise DataError(f"{where}: a {kind} holds two rooms with link '{TWO_ROOM_KINDS[kind]}'")
    elif len(areas) != 1 or link is not None:
        raise DataError(f"{where}: only bridges, chasms and catacombs hold two areas")
    if (kind == "corridor") == areas[0].room:
        raise DataError(f"{where}: corridors are the only tiles without a room")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise DataError(f"{where} needs a name")
    return Tile(tid, kind, name, tuple(EDGE_CODES[c] for c in edges), tuple(areas), link)


def parse_tiles(doc: Any, known: dict[int, Tile] | None = None) -> dict[int, Tile]:
    if not isinstance(doc, dict) or not isinstance(doc.get("tiles"), list):
        raise DataError("expected an object with a 'tiles' list")
    tiles: dict[int, Tile] = {}
    for raw in doc["tiles"]:
        tile = parse_tile(raw, {**(known or {}), **tiles})
        tiles[tile.id] = tile
    return tiles


def _monster_sets(raw: Any, power: dict[str, int]) -> dict[int, dict[str, int]]:
    sets = {int(n): {k: int(c) for k, c in m.items()} for n, m in raw.items()}
    if set(sets) != set(range(2, 7)) or any(set(m) != set(power) for m in sets.values()):
        raise DataError("monsters must give S, M and L counts for 2 to 6 players")
    return sets


def parse_rules(doc: Any) -> Rules:
    sizes = doc["sizes"]
    power = {k: int(v["power"]) for k, v in sizes.items()}
    names = {k: str(v["name"]) for k, v in sizes.items()}
    if set(power) != {"S", "M", "L"}:
        raise DataError("sizes must be exactly S, M and L")
    cat = doc["catacombs"]
    return Rules(
        power,
        names,
        _monster_sets(doc["monsters"], power),
        int(doc["room_points"]),
        int(doc["tile_count"]),
        _monster_sets(cat["monsters"], power),
        int(cat["room_points"]),
        int(cat["tile_count"]),
    )


def _check_counts(base: dict[int, Tile], extra: dict[int, Tile], rules: Rules) -> None:
    def check(tiles: dict[int, Tile], count: int, points: int, what: str) -> None:
        total = sum(t.points for t in tiles.values())
        if total != points:
            raise DataError(f"{what}: room points total {total}, the rules need {points}")
        if sorted(tiles) != list(range(1, count + 1)):
            raise DataError(f"{what}: tile ids must run 1..{count}")

    check(base, rules.tile_count, rules.room_points, "tiles.json")
    check({**base, **extra}, rules.catacomb_tile_count, rules.catacomb_room_points, "catacombs.json")


def load() -> tuple[dict[int, Tile], dict[int, Tile], Rules]:
    holder: dict[str, Any] = {}
    load_data(GAME_KEY, "tiles.json", lambda d: holder.__setitem__("base", parse_tiles(d)))
    load_data(
        GAME_KEY, "catacombs.json", lambda d: holder.__setitem__("extra", parse_tiles(d, holder["base"]))
    )
    load_data(GAME_KEY, "rules.json", lambda d: holder.__setitem__("rules", parse_rules(d)))
    _check_counts(holder["base"], holder["extra"], holder["rules"])
    return holder["base"], holder["extra"], holder["rules"]


_BASE, _EXTRA, RULES = load()
# Every tile by id (the base set and the Catacomb tiles); a game uses BASE_IDS or all.
TILES: dict[int, Tile] = {**_BASE, **_EXTRA}
BASE_IDS: tuple[int, ...] = tuple(sorted(_BASE))
CATACOMB_IDS: tuple[int, ...] = tuple(sorted(_EXTRA))
