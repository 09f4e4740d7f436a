"""Final scoring: stars, colours, boss goals (all twelve notes), the blue split, tie-breaks."""

from __future__ import annotations

from engine.core import copy_state
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R

from .helpers import deco, grid, room_or_hall, set_dungeon, staged


def P(c: str) -> tuple[int, int]:
    p = R.parse_coord(c)
    assert p is not None
    return p


def line(floors: list[str]) -> R.Grid:
    """Hallway tiles east of the start with these floors (AP41, AQ41, ...)."""
    return grid({f"{chr(72 + i)}7": room_or_hall("WE", f) for i, f in enumerate(floors)})


def test_stars_and_colour_tables() -> None:
    assert R.colour_points(grid({})) == (0, 0, 0)  # the grey start counts for nothing
    assert R.colour_points(line(["red"])) == (0, 0, 0)
    assert R.colour_points(line(["red", "blue"])) == (0, 2, 0)
    assert R.colour_points(line(["red", "blue", "red", "green"])) == (0, 4, 2)
    six = ["red", "orange", "yellow", "green", "blue", "purple"]
    assert R.colour_points(line(six)) == (0, 16, 0)
    assert R.colour_points(line(["red"] * 3 + ["blue", "green", "yellow"])) == (0, 7, 6)
    assert R.colour_points(line(["red"] * 5)) == (0, 0, 17)
    assert R.colour_points(line(["red"] * 6)) == (0, 0, 24)
    assert R.colour_points(line(["red"] * 4 + ["grey", "star"])) == (3, 0, 11)  # grey is no colour
    # Colours and stars on decoration tiles do not count.
    g = line(["star"])
    g[P("AP42")] = {**deco("T---"), "floor": "red"}
    assert R.colour_points(g) == (3, 0, 0)


def test_blue_boss_split() -> None:
    assert R.boss_b_points([5, 3, 1]) == [10, 4, 0]
    assert R.boss_b_points([3, 3, 1]) == [7, 7, 0]  # tie for most: 14 / 2, no second
    assert R.boss_b_points([4, 4, 4]) == [4, 4, 4]  # 14 / 3 rounded down
    assert R.boss_b_points([5, 3, 3]) == [10, 2, 2]  # tie for second: 4 / 2
    assert R.boss_b_points([5, 2, 2, 2]) == [10, 1, 1, 1]
    assert R.boss_b_points([2, 0]) == [10, 0]
    assert R.boss_b_points([0, 0]) == [0, 0]


def test_example_8_malice_and_stacy() -> None:
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("W"), "AN41": room_or_hall("EN")})
    assert R.metric(g, "rooms") == 2 and R.boss_a_points("rooms", 2) == 6
    g[P("AP42")] = deco("W---")
    g[P("AP40")] = deco("--W-")
    assert R.metric(g, "webs") == 2


def test_adan_counts_tiles_with_an_undecorated_full_wall() -> None:
    g = grid({})
    assert R.metric(g, "plain_walls") == 0  # a four-way's corner walls cannot be decorated
    g = grid({"AO40": room_or_hall("S")})
    assert R.metric(g, "plain_walls") == 1
    for c, icons in {"AO39": "--K-", "AN40": "-T--", "AP40": "---*"}.items():
        g[P(c)] = deco(icons)
    assert R.metric(g, "plain_walls") == 1  # a wild icon alone does not decorate
    g[P("AP40")] = deco("---S")
    assert R.metric(g, "plain_walls") == 0


def test_ambulatrix_takes_the_shortest_path_not_a_detour() -> None:
    # Rooms at AN40 (door S to AN41) and AP40 (door S to AP41); a loop runs round the south as well.
    g = grid(
        {
            "AN41": room_or_hall("NES"),
            "AP41": room_or_hall("NWS"),
            "AN42": room_or_hall("NE"),
            "AO42": room_or_hall("WEN"),
            "AP42": room_or_hall("NW"),
            "AN40": room_or_hall("S"),
            "AP40": room_or_hall("S"),
        }
    )
    assert R.metric(g, "room_path") == 3  # AN41, AO41, AP41 - not the longer way round
    assert R.metric(grid({"AO40": room_or_hall("S")}), "room_path") == 0


def test_coilimus_counts_the_start_as_a_four_way() -> None:
    g = grid({"AP41": R.make_cell(282, "D", 0)})
    assert R.metric(g, "four_way") == 2 and R.boss_a_points("four_way", 2) == 6


def test_curio_george_most_common_decoration() -> None:
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("W")})
    g[P("AO39")] = deco("--K-")
    g[P("AN40")] = deco("-K--")
    assert R.metric(g, "curio") == 2 and R.boss_a_points("curio", 2) == 5
    g[P("AP40")] = deco("---K")
    assert R.boss_a_points("curio", R.metric(g, "curio")) == 10
    assert R.boss_a_points("curio", 4) == 15 and R.boss_a_points("curio", 7) == 15
    assert R.boss_a_points("curio", 1) == 0


def test_daphne_counts_the_wild_icons_themselves() -> None:
    g = grid({"AO40": room_or_hall("S")})
    g[P("AO39")] = deco("--*-")
    g[P("AN40")] = deco("-*--")
    assert R.metric(g, "wilds") == 2
    assert R.metric(g, "wilds", mimics=2) == 2  # no activation needed or used


def test_diana_three_more_per_star() -> None:
    g = line(["star", "star"])
    stars, _, _ = R.colour_points(g)
    assert stars + R.boss_a_points("stars", R.metric(g, "stars")) == 12  # 6 per star tile


def test_lois_morris_oozymandias_count_rooms_and_hallways() -> None:
    g = line(["red", "orange", "blue", "purple", "green", "yellow"])
    g[P("AN41")] = room_or_hall("WE", "yellow")
    g[P("AO40")] = room_or_hall("S", "red")  # a room counts as well as a hallway
    assert R.metric(g, "red_orange") == 3
    assert R.metric(g, "blue_purple") == 2
    assert R.metric(g, "green_yellow") == 3


def test_paam_counts_each_open_passageway() -> None:
    assert R.metric(grid({}), "open_passages") == 4  # one tile, four passageways
    g = grid({"AP41": room_or_hall("WNE")})
    assert R.metric(g, "open_passages") == 5


def test_mimic_tokens_at_the_end_help_one_boss_goal() -> None:
    s = staged(boss=["A6", "B1"])  # Count Clutterbottom (decorations) and Stacy (webs)
    g = grid({"AO40": room_or_hall("S")})
    g[P("AO39")] = deco("--*-")
    g[P("AN40")] = deco("-W--")
    set_dungeon(s, 0, g)
    g1 = grid({"AO40": room_or_hall("S")})
    g1[P("AO39")] = deco("--W-")
    set_dungeon(s, 1, g1)
    final = GAME._final_scores(s)
    assert final["boss_counts"] == [[1, 1], [1, 1]]
    assert [b["boss B"] for b in final["breakdown"]] == [7, 7]
    s["players"][0]["tokens"]["mimic"] = 1
    final = GAME._final_scores(s)
    # The token is worth more on Stacy (most webs: 10 instead of 7) than on Clutterbottom (+1).
    assert final["mimic_to_a"] == [0, 0]
    assert final["boss_counts"] == [[1, 1], [2, 1]]
    assert [b["boss B"] for b in final["breakdown"]] == [10, 4]


def test_final_score_adds_everything_and_ties_go_to_shape_then_decoration_cards() -> None:
    s = staged(boss=["A1", "B9"])  # M'alice (rooms) and Vexor (dungeon tiles)
    set_dungeon(s, 0, line(["red", "star"]))
    s["players"][0]["score"] = 20
    set_dungeon(s, 1, line(["red", "star"]))
    s["players"][1]["score"] = 20
    s["players"][0]["scored"] = ["S1", "D1"]
    s["players"][1]["scored"] = ["S2", "D1", "D2"]
    s["hourglasses"] = 3
    s["end_after_round"] = True
    s["turn_idx"] = len(s["order"]) - 1
    GAME._next_turn(s, [])
    assert GAME.is_over(s)
    res = GAME.result(s)
    assert res.breakdown[0] == {
        "goals": 20,
        "stars": 3,
        "colours": 0,
        "common colour": 0,
        "boss (yellow)": 0,
        "boss (blue)": 7,
    }  # the boards' names for the two boss decks, not "boss A/B"
    assert res.scores == [30, 30]
    assert res.ranking == [[1], [0]]  # same shape cards (1 each), seat 1 has more decoration cards
    t = copy_state(s)
    t["players"][0]["scored"] = ["S1", "S3"]
    assert GAME.result(t).ranking == [[0], [1]]
    t["players"][0]["scored"] = ["S1", "D1", "D2"]
    assert GAME.result(t).ranking == [[0, 1]]
    # The final points went onto the track too.
    assert s["players"][0]["score"] == 30


def test_stored_tiles_score_nothing_at_the_end() -> None:
    s = staged(boss=["A1", "B9"])
    set_dungeon(s, 0, line(["star"]))
    s["players"][0]["storage"] = [282, 31]  # two star tiles left in storage
    final = GAME._final_scores(s)
    assert final["breakdown"][0]["stars"] == 3


# ---- found by mutation testing (docs/testing.md) -----------------------------------


def _tile_meeting(need: dict) -> dict:
    floor = need["colour"] or (
        "star" if need["star"] else (sorted(R.COLOURS)[0] if need["painted"] else "plain")
    )
    return {"room": need["kind"] == "R", "floor": floor, "decos": ["web"] * need["decos"], "wilds": 0}


def test_a_shape_goal_is_met_turned_or_reflected_every_way() -> None:
    # "That shape may be rotated or even reflected relative to how it appears on the
    # card": each of the eight ways of laying every Shape Goal is found, at no cost.
    for gid, goal in R.GOALS.items():
        if goal["kind"] != "shape":
            continue
        for flip in (False, True):
            for turns in range(4):
                summary = {}
                for x, y, need in goal["cells"]:
                    x = -x if flip else x
                    for _ in range(turns):
                        x, y = -y, x
                    summary[(x + 10, y + 10)] = _tile_meeting(need)
                assert R.shape_cost(summary, gid) == 0, (gid, flip, turns)


def test_a_hallway_decoration_goal_counts_the_hallways_decorations_not_the_rooms() -> None:
    # Hallway Decoration Goals "score if you have the indicated symbols attached to walls
    # anywhere in your hallway": the hallway's decorations count, a room's do not.
    hall = {"room": False, "floor": "grey", "decos": ["S", "S"], "wilds": 0}
    room = {"room": True, "floor": "grey", "decos": [], "wilds": 0}
    assert R.NEEDS["D19"] == [("S", 2)]
    assert R.deco_cost({(0, 0): hall, (1, 0): room}, "D19") == 0
    assert R.deco_cost({(0, 0): {**hall, "decos": []}, (1, 0): {**room, "decos": ["S", "S"]}}, "D19") is None


def test_a_room_no_hallway_reaches_leaves_the_ambulatrix_to_the_others() -> None:
    # "For each pair of rooms in your dungeon, find the shortest possible path between them
    # via your dungeon's hallways": a room cut off from the hallways has no such path, and
    # the pair that has one still counts.
    g = grid(
        {
            "AN41": room_or_hall("NES"),
            "AP41": room_or_hall("NWS"),
            "AN40": room_or_hall("S"),
            "AP40": room_or_hall("S"),
            "AO45": room_or_hall("N"),
        }
    )
    assert R.metric(g, "room_path") == 3
