"""Generate the Dungeon Decorators component files (tiles.json, goals.json, bosses.json).

The rulebook lost its component pictures, so the set is designed here (see
docs/rules/dungeon-decorators.md). The JSON files are the source of truth the
engine loads; this script only documents how they were made and can rebuild
them byte-for-byte: ``python data/dungeon-decorators/make_components.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
DECOS = ["S", "P", "X", "T", "K", "C", "W", "B"]
COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"]

# Tiles the rulebook names, fixed by hand (edges N, E, S, W of the decoration side).
NAMED = {
    30: {"edges": ["S", "-", "-", "-"], "floor": "orange", "assistant": None},
    111: {"edges": ["K", "W", "-", "*"], "floor": "blue", "assistant": None},
    156: {"edges": ["C", "-", "P", "-"], "floor": "green", "assistant": None},
    171: {"edges": ["T", "-", "-", "-"], "floor": "red", "assistant": "mimic"},
    # Example 1: a table on one edge and keys on both neighbouring edges.
    210: {"edges": ["T", "K", "-", "K"], "floor": "yellow", "assistant": None},
    282: {"edges": ["X", "S", "B", "W"], "floor": "star", "assistant": None},
    # Example 12: 297 carries the Goblin Sapper.
    297: {"edges": ["P", "-", "X", "-"], "floor": "purple", "assistant": "sapper"},
}


# "Any room (again, with or without a color or star)": rooms may carry a star too.
# The first generation put all 12 stars on hallways; these grey rooms trade their
# floor with a star hallway (room -> the hallway whose star it takes).
ROOM_STARS = {61: 219, 164: 240, 281: 273}


def _stars_on_rooms(tiles: list[dict]) -> None:
    by_n = {t["n"]: t for t in tiles}
    for room, hall in ROOM_STARS.items():
        assert by_n[room]["floor"] == "grey" and by_n[hall]["floor"] == "star"
        by_n[room]["floor"], by_n[hall]["floor"] = "star", "grey"


def make_tiles(rng: random.Random) -> list[dict]:
    numbers = sorted(set(rng.sample([n for n in range(1, 301) if n not in NAMED], 113)) | set(NAMED))
    assert len(numbers) == 120
    # Dungeon-side shapes: passages as a bit pattern N, E, S, W.
    shapes = (
        [[1, 0, 0, 0]] * 36  # rooms
        + [[1, 0, 1, 0]] * 22  # straight hallways
        + [[1, 1, 0, 0]] * 22  # corners
        + [[1, 1, 1, 0]] * 28  # three-way
        + [[1, 1, 1, 1]] * 12  # four-way
    )
    floors = [c for c in COLOURS for _ in range(15)] + ["star"] * 12 + ["grey"] * 18
    assistants = ["sapper"] * 6 + ["burrow"] * 6 + ["architect"] * 8 + ["mimic"] * 8
    assistants += [None] * (120 - len(assistants))
    # Named tiles take their own shape/floor/assistant out of the pools.
    for spec in NAMED.values():
        passages = [1 if e not in "-*" else 0 for e in spec["edges"]]
        canon = sorted(shapes, key=lambda s: s != _canonical(passages))[0]
        shapes.remove(canon)
        floors.remove(spec["floor"])
        assistants.remove(spec["assistant"])
    rng.shuffle(shapes)
    rng.shuffle(floors)
    rng.shuffle(assistants)
    deco_cycle = DECOS * 40
    rng.shuffle(deco_cycle)
    tiles = []
    for n in numbers:
        if n in NAMED:
            tiles.append({"n": n, **NAMED[n]})
            continue
        shape = shapes.pop()
        r = rng.randrange(4)
        passages = shape[-r:] + shape[:-r] if r else list(shape)
        edges = []
        for p in passages:
            edges.append(deco_cycle.pop() if p else "-")
        walls = [i for i, p in enumerate(passages) if not p]
        if walls and rng.random() < 0.4:
            edges[rng.choice(walls)] = "*"
        tiles.append({"n": n, "edges": edges, "floor": floors.pop(), "assistant": assistants.pop()})
    _stars_on_rooms(tiles)
    return tiles


def _canonical(passages: list[int]) -> list[int]:
    k = sum(passages)
    if k == 2 and passages in ([1, 0, 1, 0], [0, 1, 0, 1]):
        return [1, 0, 1, 0]
    return {1: [1, 0, 0, 0], 2: [1, 1, 0, 0], 3: [1, 1, 1, 0], 4: [1, 1, 1, 1]}[k]


# Shape goals: name, points, rows of space-separated cells ('.' = anything / nothing).
SHAPES = [
    ("Eye-Catching Monument", 8, ["H . H", ". H .", "H . H"]),
    ("Offices of Doom", 9, ["R2 . .", "H H H", ". . R2"]),
    ("Grand Gallery", 5, ["H H H H"]),
    ("Twin Cells", 5, ["R H R"]),
    ("Starlit Crossing", 6, ["HS H", "H ."]),
    ("Painted Parlour", 6, ["C C", "C ."]),
    ("Crimson Corridor", 6, ["Hred H Hred"]),
    ("Amber Antechamber", 6, ["Horange H", ". R"]),
    ("Golden Gauntlet", 6, ["Hyellow Hyellow"]),
    ("Mossy Maze", 6, ["Hgreen . Hgreen"]),
    ("Azure Aisle", 6, ["Hblue H Hblue"]),
    ("Violet Vestibule", 6, ["Hpurple", "Hpurple"]),
    ("Trophy Hall", 7, ["H2 H H2"]),
    ("Guest Quarters", 7, ["R2 H R"]),
    ("Throne Approach", 8, ["H H H", ". R3 ."]),
    ("Boudoir of Blight", 7, ["RP H"]),
    ("Rainbow Ring", 8, ["C . C", ". . .", "C . C"]),
    ("Barracks", 8, ["R R", "H H", "R R"]),
    ("Twinkling Tunnels", 8, ["HS . HS"]),
    ("Decorated Dogleg", 6, ["H1 H", ". H1"]),
    ("Kennel Row", 7, ["R R R", "H H H"]),
    ("The Long Walk", 6, ["H . . H"]),
    ("Crossroads of Woe", 7, [". H .", "H H H", ". H ."]),
    ("Lurking Nook", 4, ["R H"]),
    ("Study of Spite", 7, ["R2 H1"]),
    ("Dual Dens", 8, ["RP . RP"]),
    ("Colour Clash", 7, ["C H C"]),
    ("Zigzag Passage", 6, ["H H .", ". H H"]),
    ("Tee of Terror", 6, ["H H H", ". H ."]),
    ("Lair Annex", 5, ["H H", "R ."]),
    ("Haunted Hook", 6, ["H .", "H .", "H H"]),
    ("Star Chamber", 9, ["HS", "R2"]),
    ("Flame and Frost", 8, ["Hred . Hblue"]),
    ("Garden of Gloom", 8, ["Hgreen R2"]),
    ("Armoury Wing", 9, ["H2 H2", "H ."]),
    ("Overlord's Suite", 11, ["RP H RP", ". H ."]),
]

# Decoration goals: name, type (room|hallway), points, decorations (letters).
DECO_GOALS = [
    ("Sharp Pointy Object Storage", "room", 10, "XP"),
    ("Chic Skulls on Swanky Spikes", "hallway", 9, "SPP"),
    ("Candle-less Crypt", "room", 7, "CB"),
    ("Key Cupboard", "room", 6, "KT"),
    ("Spider Nursery", "room", 8, "WW"),
    ("Bone Pantry", "room", 8, "BB"),
    ("Skull Salon", "room", 7, "ST"),
    ("Gaoler's Lodge", "room", 7, "KX"),
    ("Mausoleum", "room", 11, "CCS"),
    ("Webbed Wardrobe", "room", 7, "WC"),
    ("Trap Workshop", "room", 11, "PPT"),
    ("Dining Dungeon", "room", 6, "TB"),
    ("Duelling Room", "room", 8, "XX"),
    ("Reliquary", "room", 12, "SKC"),
    ("Creepy Nursery", "room", 7, "WB"),
    ("Vault of Keys", "room", 8, "KK"),
    ("Sword Shrine", "room", 11, "XSX"),
    ("Cobweb Catacomb", "room", 12, "WBC"),
    ("Grim Hallway", "hallway", 4, "SS"),
    ("Rattling Corridor", "hallway", 4, "BK"),
    ("Spiky Gauntlet", "hallway", 5, "PPX"),
    ("Long Table Hall", "hallway", 5, "TTT"),
    ("Key Collection", "hallway", 6, "KKK"),
    ("Funeral Procession", "hallway", 6, "CCB"),
    ("Arachnid Avenue", "hallway", 7, "WWWW"),
    ("Hall of Arms", "hallway", 7, "XXXP"),
    ("Ossuary Walk", "hallway", 8, "BBBS"),
    ("Banquet Row", "hallway", 6, "TTK"),
    ("Creaky Coffin Lane", "hallway", 5, "CC"),
    ("Webbed Weapons", "hallway", 5, "WX"),
    ("Skeleton Crew", "hallway", 9, "SSBB"),
    ("Warden's Walk", "hallway", 8, "KKX"),
    ("Trophy Corridor", "hallway", 10, "SXTW"),
    ("Everything Hallway", "hallway", 12, "SPXTKC"),
    ("Chapel of Chains", "hallway", 7, "CKW"),
    ("Dusty Passage", "hallway", 3, "W"),
]

# Boss goals: deck A scores each player by its own count; deck B gives 10/4 for most/second most.
BOSSES = [
    ("A", "M'alice, Fiendish Fae", "rooms", "3 points for each room in your dungeon."),
    ("A", "Coilimus Maximus", "four_way", "3 points for each four-way hallway (your starting tile counts)."),
    (
        "A",
        "Curio George",
        "curio",
        "Your most common wall decoration: 2 copies 5 points, 3 copies 10, 4 or more 15.",
    ),
    ("A", "Diana, Creepy Doll", "stars", "3 more points for each star in your dungeon."),
    ("A", "The Painted Prince", "painted_rooms", "3 points for each room with a coloured floor."),
    ("A", "Count Clutterbottom", "decorations", "1 point for each decoration on your walls."),
    ("A", "Grimbald the Gaoler", "decorated_rooms", "4 points for each room with 2 or more decorations."),
    (
        "A",
        "Baron Von Corridor",
        "hallways",
        "1 point for each hallway tile, not counting your starting tile.",
    ),
    ("A", "Madame Maze", "dead_ends", "2 points for each passageway that dead-ends into a wall."),
    ("B", "Stacy the Spider Queen", "webs", "Most spiderwebs decorating the walls of your dungeon."),
    ("B", "Adan the Ascetic", "plain_walls", "Most dungeon tiles with at least one undecorated wall."),
    ("B", "The Ambulatrix", "room_path", "Longest shortest path between two of your rooms."),
    ("B", "Daphne the Doppelganger", "wilds", "Most green wild icons on the walls of your dungeon."),
    ("B", "Lois the Lavamancer", "red_orange", "Most red and orange rooms and hallways."),
    ("B", "Morris the Moist", "blue_purple", "Most blue and purple rooms and hallways."),
    ("B", "Oozymandias, King of the Slimes", "green_yellow", "Most green and yellow rooms and hallways."),
    ("B", "Pa'am the Prospector", "open_passages", "Most passageways leading to empty, unbuilt space."),
    ("B", "Vexor the Vast", "dungeon_tiles", "Most rooms and hallways in your dungeon."),
]


def main() -> None:
    rng = random.Random(20260117)
    tiles = make_tiles(rng)
    tile_doc = {
        "decorations": {
            "S": "skull",
            "P": "spikes",
            "X": "swords",
            "T": "table",
            "K": "keys",
            "C": "coffin",
            "W": "spiderweb",
            "B": "bones",
        },
        "colours": COLOURS,
        "tiles": tiles,
        "generic": {"count": 10, "room": [1, 0, 0, 0], "hallway": [1, 0, 1, 0], "floor": "grey"},
        "start": {"count": 4, "passages": [1, 1, 1, 1], "floor": "grey"},
        "hourglasses": 3,
        "tokens": {"architect": 10, "mimic": 10},
        "chits": 8,
        # The starting tile's column and row index: the dungeon has no edge, and
        # no dungeon can reach 40 squares from its start (proved in data.py).
        "grid": {"origin": 40},
    }
    goals = {
        "shape": [
            {"id": f"S{i + 1}", "name": name, "points": pts, "rows": rows}
            for i, (name, pts, rows) in enumerate(SHAPES)
        ],
        "decoration": [
            {"id": f"D{i + 1}", "name": name, "type": typ, "points": pts, "needs": needs}
            for i, (name, typ, pts, needs) in enumerate(DECO_GOALS)
        ],
    }
    bosses = {
        "bosses": [
            {
                "id": f"{deck}{sum(1 for b in BOSSES[: i + 1] if b[0] == deck)}",
                "deck": deck,
                "name": name,
                "metric": metric,
                "text": text,
            }
            for i, (deck, name, metric, text) in enumerate(BOSSES)
        ],
        "curio": {"2": 5, "3": 10, "4": 15},
        "blue_split": [10, 4],
        "per_item": {
            "rooms": 3,
            "four_way": 3,
            "stars": 3,
            "painted_rooms": 3,
            "decorations": 1,
            "decorated_rooms": 4,
            "hallways": 1,
            "dead_ends": 2,
        },
        "colour_table": [0, 0, 2, 4, 7, 11, 16],
        "common_table": [0, 0, 2, 6, 11, 17, 24],
        "star_points": 3,
    }
    for name, doc in (("tiles.json", tile_doc), ("goals.json", goals), ("bosses.json", bosses)):
        (HERE / name).write_text(_dump(doc) + "\n")


def _dump(doc: dict) -> str:
    """One list item per line: readable diffs, small files."""
    parts = []
    for k, v in doc.items():
        if isinstance(v, list) and v and isinstance(v[0], dict):
            items = ",\n  ".join(json.dumps(x) for x in v)
            parts.append(f" {json.dumps(k)}: [\n  {items}\n ]")
        else:
            parts.append(f" {json.dumps(k)}: {json.dumps(v)}")
    return "{\n" + ",\n".join(parts) + "\n}"


if __name__ == "__main__":
    main()
