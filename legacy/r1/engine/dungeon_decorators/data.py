"""Load and validate the Dungeon Decorators components (data/dungeon-decorators/*.json).

The validator runs at import: a broken data file stops the bot with a clear
message instead of producing an unwinnable goal in the middle of a game.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "dungeon-decorators"

NAMED_TILES = (30, 111, 156, 171, 210, 282, 297)
NAMED_GOALS = {
    "Sharp Pointy Object Storage": 10,
    "Chic Skulls on Swanky Spikes": 9,
    "Eye-Catching Monument": 8,
    "Offices of Doom": None,
}
NAMED_BOSSES = (
    "M'alice, Fiendish Fae",
    "Stacy the Spider Queen",
    "Adan the Ascetic",
    "The Ambulatrix",
    "Coilimus Maximus",
    "Curio George",
    "Daphne the Doppelganger",
    "Diana, Creepy Doll",
    "Lois the Lavamancer",
    "Morris the Moist",
    "Oozymandias, King of the Slimes",
    "Pa'am the Prospector",
)
ASSISTANTS = ("sapper", "burrow", "architect", "mimic")
METRICS_A = (
    "rooms",
    "four_way",
    "curio",
    "stars",
    "painted_rooms",
    "decorations",
    "decorated_rooms",
    "hallways",
    "dead_ends",
)
METRICS_B = (
    "webs",
    "plain_walls",
    "room_path",
    "wilds",
    "red_orange",
    "blue_purple",
    "green_yellow",
    "open_passages",
    "dungeon_tiles",
)


class DataError(ValueError):
    pass


def parse_need(token: str, colours: list[str]) -> dict[str, Any]:
    """A shape-goal cell token -> requirement.

    H any hallway, R any room, C coloured room or hallway (not grey), HS star
    hallway, H<colour> hallway of that colour, H<n>/R<n> at least n decorations,
    RP painted room with at least two decorations."""
    need: dict[str, Any] = {"kind": token[0], "colour": None, "star": False, "decos": 0, "painted": False}
    rest = token[1:]
    if token[0] not in "HRC":
        raise DataError(f"unknown shape cell {token!r}")
    if token == "C":
        need["painted"] = True
    elif token == "HS":
        need["star"] = True
    elif token == "RP":
        need.update(painted=True, decos=2)
    elif rest in colours and token[0] == "H":
        need["colour"] = rest
    elif rest.isdigit():
        need["decos"] = int(rest)
    elif rest:
        raise DataError(f"unknown shape cell {token!r}")
    return need


def shape_cells(rows: list[str], colours: list[str]) -> list[tuple[int, int, dict[str, Any]]]:
    cells = []
    for y, row in enumerate(rows):
        for x, tok in enumerate(row.split()):
            if tok != ".":
                cells.append((x, y, parse_need(tok, colours)))
    return cells


def load() -> dict[str, Any]:
    try:
        tiles = json.loads((DATA_DIR / "tiles.json").read_text())
        goals = json.loads((DATA_DIR / "goals.json").read_text())
        bosses = json.loads((DATA_DIR / "bosses.json").read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"Dungeon Decorators data cannot be read: {exc}") from exc
    data = {"tiles": tiles, "goals": goals, "bosses": bosses}
    validate(data)
    return data


def _deco_icons(edges: list[str]) -> list[str]:
    return [e for e in edges if e not in "-*"]


def validate(data: dict[str, Any]) -> None:
    """Raise DataError unless the component set is complete and consistent:
    every tile can be placed on both sides and every goal can be achieved."""
    t = data["tiles"]
    decos = t["decorations"]
    colours = t["colours"]
    floors = set(colours) | {"grey", "star"}
    tiles = t["tiles"]
    numbers = [x["n"] for x in tiles]
    if len(tiles) != 120 or len(set(numbers)) != 120:
        raise DataError("there must be 120 numbered tiles with distinct numbers")
    if any(not (1 <= n <= 300) for n in numbers):
        raise DataError("tile numbers run from 1 to 300")
    for n in NAMED_TILES:
        if n not in numbers:
            raise DataError(f"tile {n}, named in the rulebook, is missing")
    assistants: Counter[str | None] = Counter()
    for x in tiles:
        edges = x["edges"]
        if len(edges) != 4 or any(e not in decos and e not in "-*" for e in edges):
            raise DataError(f"tile {x['n']}: edges must be four of decoration letters, '*' or '-'")
        # The dungeon side has a passage exactly where the decoration side shows a (white) icon:
        # at least one, or the tile could never connect to the dungeon.
        if not _deco_icons(edges):
            raise DataError(f"tile {x['n']}: its dungeon side would have no passageway")
        if x["floor"] not in floors:
            raise DataError(f"tile {x['n']}: unknown floor {x['floor']!r}")
        if x["assistant"] is not None and x["assistant"] not in ASSISTANTS:
            raise DataError(f"tile {x['n']}: unknown assistant {x['assistant']!r}")
        assistants[x["assistant"]] += 1
    for a in ASSISTANTS:
        if not assistants[a]:
            raise DataError(f"no tile carries the {a} assistant")
    if t["generic"]["count"] != 10 or sorted(t["generic"]["room"]) != [0, 0, 0, 1]:
        raise DataError("there must be 10 generic tiles with a room side")
    if sum(t["generic"]["hallway"]) != 2 or t["generic"]["hallway"][0] != t["generic"]["hallway"][2]:
        raise DataError("the generic tiles' other side is a straight hallway")
    if t["start"]["count"] != 4 or t["start"]["passages"] != [1, 1, 1, 1]:
        raise DataError("there must be 4 starting tiles, each a four-way hallway")
    if t["hourglasses"] != 3:
        raise DataError("there are 3 hourglass tiles")
    size = t["grid"]["size"]

    # What the tile set can supply, for the goal checks below.
    icon_count = Counter(e for x in tiles for e in _deco_icons(x["edges"]))
    tiles_with = Counter(d for x in tiles for d in set(_deco_icons(x["edges"])))
    hall_floor = Counter(x["floor"] for x in tiles if len(_deco_icons(x["edges"])) >= 2)
    room_floor = Counter(x["floor"] for x in tiles if len(_deco_icons(x["edges"])) == 1)
    n_rooms = sum(room_floor.values()) + t["generic"]["count"]
    # Hallways that can take 1 or 2 decorations: two-passage hallways have two walls.
    two_way = sum(1 for x in tiles if len(_deco_icons(x["edges"])) == 2) + t["generic"]["count"]

    g = data["goals"]
    if len(g["shape"]) != 36 or len(g["decoration"]) != 36:
        raise DataError("there must be 36 shape goals and 36 decoration goals")
    ids = [x["id"] for x in g["shape"] + g["decoration"]]
    if len(set(ids)) != len(ids):
        raise DataError("goal ids must be distinct")
    names = {x["name"]: x["points"] for x in g["shape"] + g["decoration"]}
    for name, pts in NAMED_GOALS.items():
        if name not in names or (pts is not None and names[name] != pts):
            raise DataError(f"goal {name!r} (named in the rulebook) is missing or has the wrong points")
    for goal in g["decoration"]:
        need = Counter(goal["needs"])
        if goal["type"] not in ("room", "hallway") or not need or goal["points"] <= 0:
            raise DataError(f"decoration goal {goal['id']}: bad type, needs or points")
        if any(d not in decos for d in need):
            raise DataError(f"decoration goal {goal['id']}: unknown decoration")
        if goal["type"] == "room":
            # A room has three walls; each wall is decorated by a different decoration tile.
            if sum(need.values()) > 3 or any(tiles_with[d] < k for d, k in need.items()):
                raise DataError(f"room goal {goal['id']} cannot be achieved")
        elif any(icon_count[d] < k for d, k in need.items()):
            raise DataError(f"hallway goal {goal['id']} cannot be achieved")
    for goal in g["shape"]:
        _validate_shape(goal, colours, size, hall_floor, room_floor, n_rooms, two_way)

    b = data["bosses"]
    boss = b["bosses"]
    if len(boss) != 18 or sum(1 for x in boss if x["deck"] == "A") != 9:
        raise DataError("there must be 18 boss goals, 9 in deck A and 9 in deck B")
    for name in NAMED_BOSSES:
        if name not in {x["name"] for x in boss}:
            raise DataError(f"boss {name!r} (named in the rulebook) is missing")
    for x in boss:
        allowed = METRICS_A if x["deck"] == "A" else METRICS_B
        if x["metric"] not in allowed:
            raise DataError(f"boss {x['name']}: metric {x['metric']!r} does not belong to deck {x['deck']}")
    if len(b["colour_table"]) != 7 or len(b["common_table"]) != 7 or b["blue_split"] != [10, 4]:
        raise DataError("final scoring tables are incomplete")


def _validate_shape(
    goal: dict[str, Any],
    colours: list[str],
    size: int,
    hall_floor: Counter[str],
    room_floor: Counter[str],
    n_rooms: int,
    two_way: int,
) -> None:
    """Prove a shape goal achievable: enough tiles of each kind, and room for the
    passageways and wall decorations every cell needs (walls that must be
    decorated face cells outside the shape, where decoration tiles can go)."""
    gid = goal["id"]
    try:
        cells = shape_cells(goal["rows"], colours)
    except DataError as exc:
        raise DataError(f"shape goal {gid}: {exc}") from exc
    if not cells or goal["points"] <= 0:
        raise DataError(f"shape goal {gid} is empty or worth nothing")
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    if max(xs) - min(xs) >= size // 2 or max(ys) - min(ys) >= size // 2:
        raise DataError(f"shape goal {gid} does not fit beside the starting tile")
    at = {(x, y): need for x, y, need in cells}
    supply_rooms = n_rooms
    want_colour: Counter[str] = Counter()
    for (x, y), need in at.items():
        nbrs = [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]
        free = [p for p in nbrs if p not in at]
        in_shape = [p for p in nbrs if p in at]
        if need["kind"] == "R":
            supply_rooms -= 1
            # One passage (to a hallway in the shape or to a free cell), decorations on the rest.
            options = [p for p in in_shape if at[p]["kind"] != "R"] + free
            if not any(need["decos"] <= len([f for f in free if f != p]) for p in options):
                raise DataError(f"shape goal {gid}: a room cell cannot connect and be decorated")
            if need["painted"] and not any(room_floor[c] for c in colours):
                raise DataError(f"shape goal {gid}: no painted rooms exist")
        else:
            if need["decos"]:
                # A decorated hallway keeps two passages and so at most two walls.
                if need["decos"] > 2 or need["decos"] > len(free) or two_way < 1:
                    raise DataError(f"shape goal {gid}: a hallway cannot hold that many decorations")
            if need["colour"]:
                want_colour[need["colour"]] += 1
            if need["star"]:
                want_colour["star"] += 1
    for c, k in want_colour.items():
        if hall_floor[c] < k:
            raise DataError(f"shape goal {gid}: not enough {c} hallways")
    if supply_rooms < 0:
        raise DataError(f"shape goal {gid}: not enough rooms")


DATA = load()
