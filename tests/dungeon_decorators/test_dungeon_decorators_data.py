"""The component set and its validator."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine.dungeon_decorators import data as D
from engine.dungeon_decorators import rules as R


def test_the_shipped_set_is_valid_and_complete() -> None:
    data = D.load()
    D.validate(data)
    tiles = data["tiles"]["tiles"]
    assert len(tiles) == 120 and set(D.NAMED_TILES) <= {t["n"] for t in tiles}
    assert data["tiles"]["generic"]["count"] == 10 and data["tiles"]["start"]["count"] == 4
    floors = Counter(t["floor"] for t in tiles)
    assert set(floors) == {"red", "orange", "yellow", "green", "blue", "purple", "grey", "star"}
    assert len(data["goals"]["shape"]) == 36 and len(data["goals"]["decoration"]) == 36
    types = Counter(g["type"] for g in data["goals"]["decoration"])
    assert types["room"] > 0 and types["hallway"] > 0
    names = {g["name"]: g["points"] for g in data["goals"]["shape"] + data["goals"]["decoration"]}
    assert names["Sharp Pointy Object Storage"] == 10 and names["Chic Skulls on Swanky Spikes"] == 9
    assert names["Eye-Catching Monument"] == 8 and "Offices of Doom" in names
    decks = Counter(b["deck"] for b in data["bosses"]["bosses"])
    assert decks == {"A": 9, "B": 9}
    assert set(D.NAMED_BOSSES) <= {b["name"] for b in data["bosses"]["bosses"]}
    assert R.TILES[297]["assistant"] == "sapper"


def test_every_tile_can_be_placed_on_both_sides_next_to_the_start() -> None:
    for n in R.TILES:
        start_only = {R.parse_coord(R.START): R.start_cell()}
        sides = {side for side, *_ in R.legal_placements(start_only, n)}
        assert "D" in sides, n
        # Decoration side: next to a room built off the start.
        g = dict(start_only)
        g[R.parse_coord("AO40")] = {**R.start_cell(), "t": "x", "e": [0, 0, 1, 0]}
        assert any(side == "X" for side, *_ in R.legal_placements(g, n)), n


def test_rooms_may_carry_a_star_too() -> None:
    # "Any room (again, with or without a color or star)" and "Rooms and dungeons can each
    # potentially have a colored floor or a star icon."
    rooms = [t for t in R.TILES.values() if sum(e not in "-*" for e in t["edges"]) == 1]
    halls = [t for t in R.TILES.values() if sum(e not in "-*" for e in t["edges"]) >= 2]
    assert any(t["floor"] == "star" for t in rooms) and any(t["floor"] == "star" for t in halls)
    star_room = next(t["n"] for t in rooms if t["floor"] == "star")
    # "Stars: For each star in your dungeon, score 3 points" - a star room counts like any star.
    g = {R.parse_coord(R.START): R.start_cell()}
    cell = next(R.make_cell(star_room, "D", r) for r in range(4) if R.make_cell(star_room, "D", r)["e"][2])
    g[R.parse_coord("AO40")] = cell
    assert R.colour_points(g)[0] == 3


def test_the_start_stands_beyond_any_dungeon_s_reach() -> None:
    t = D.load()["tiles"]
    assert D.reach(t) == 25 + 10  # 100 bag tiles, 4 a round; every generic tile
    bad = copy.deepcopy(t)
    bad["grid"]["origin"] = D.reach(t)
    with pytest.raises(D.DataError, match="starting tile"):
        D.check_tiles(bad)


def broken(mutate) -> dict:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(D.load())
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["tiles"]["tiles"].pop(), "120 numbered tiles"),
        (lambda d: d["tiles"]["tiles"][0].update(edges=["*", "-", "-", "-"]), "no passageway"),
        (lambda d: d["tiles"]["tiles"][0].update(floor="pink"), "unknown floor"),
        (lambda d: d["tiles"]["tiles"][5].update(n=1), "distinct"),
        (lambda d: d["goals"]["decoration"][0].update(needs="XXPP"), "cannot be achieved"),
        (lambda d: d["goals"]["decoration"][0].update(points=11), "wrong points"),
        (lambda d: d["goals"]["shape"][3].update(rows=["R R R", "R R R", "R R R"]), "room cell"),
        (lambda d: d["goals"]["shape"][3].update(rows=["H3"]), "hallway cannot hold"),
        (lambda d: d["goals"]["shape"][3].update(rows=["HS HS HS HS HS HS HS HS HS HS HS HS HS"]), "fit"),
        (lambda d: d["goals"]["shape"][3].update(rows=["Q"]), "unknown shape cell"),
        (lambda d: d["bosses"]["bosses"][0].update(metric="webs"), "does not belong"),
        (lambda d: d["bosses"]["bosses"].pop(0), "18 boss goals"),
    ],
)
def test_validator_rejects_inconsistent_sets(mutate, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(D.DataError, match=message):
        D.validate(broken(mutate))


def test_star_hallway_supply_is_checked() -> None:
    def no_stars(d: dict) -> None:
        for t in d["tiles"]["tiles"]:
            if t["floor"] == "star":
                t["floor"] = "grey"

    with pytest.raises(D.DataError, match="not enough star hallways"):
        D.validate(broken(no_stars))


def test_every_goal_has_a_witness_dungeon_built_from_real_tiles() -> None:
    from engine.dungeon_decorators import witness

    data = D.load()
    witness.check_goals(data)  # raises DataError naming the first goal without one
    t = data["tiles"]
    for goal in data["goals"]["shape"]:
        cells = D.shape_cells(goal["rows"], t["colours"])
        grid = witness.shape_witness(cells, witness._tile_pool(t["tiles"], 10))
        assert grid is not None
        assert R.dungeon_problem(grid) is None
        assert R.shape_cost(R.summarise(grid), goal["id"]) == 0
    for goal in data["goals"]["decoration"]:
        grid = witness.deco_witness(goal, witness._tile_pool(t["tiles"], 10))
        assert grid is not None and R.deco_cost(R.summarise(grid), goal["id"]) == 0


def test_a_goal_without_a_witness_is_refused() -> None:
    from engine.dungeon_decorators import witness

    colours = D.load()["tiles"]["colours"]
    # Two rooms side by side that each want three decorated walls: no room for a door.
    assert witness.shape_witness(D.shape_cells(["R3 R3"], colours), witness._tile_pool([], 10)) is None
    # Without the tiles to build it, even an easy shape has no witness.
    assert witness.shape_witness(D.shape_cells(["H H"], colours), []) is None

    def no_spikes(d: dict) -> None:
        for tile in d["tiles"]["tiles"]:
            tile["edges"] = ["T" if e == "P" else e for e in tile["edges"]]

    with pytest.raises(D.DataError, match="Sharp Pointy|Chic Skulls|Spiky|Trap|Hall of Arms|Everything"):
        witness.check_goals(broken(no_spikes))
