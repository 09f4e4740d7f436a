"""Tile placement rules, with the rulebook's Examples 1-7."""

from __future__ import annotations

from engine.dungeon_decorators import rules as R

from .helpers import deco, grid, room_or_hall

G7 = R.parse_coord("G7")


def P(c: str) -> tuple[int, int]:
    p = R.parse_coord(c)
    assert p is not None
    return p


# ---- two-sided tiles ------------------------------------------------------------------


def test_dungeon_side_is_read_from_the_decoration_side() -> None:
    # Tile 210: table N, keys E and W, nothing S -> a three-way hallway open N, E, W.
    cell = R.make_cell(210, "D", 0, False)
    assert cell["e"] == [1, 1, 0, 1] and cell["floor"] == "yellow"
    # A green wild icon is a wall on the other side: 111 is K W - * -> passages N and E only.
    assert R.make_cell(111, "D", 0, False)["e"] == [1, 1, 0, 0]
    assert R.make_cell(111, "X", 0, False)["e"] == ["K", "W", "-", "*"]


def test_rotation_and_flip() -> None:
    assert R.make_cell(210, "X", 1, False)["e"] == ["K", "T", "K", "-"]  # turned 90 clockwise
    assert R.make_cell(111, "X", 0, True)["e"] == ["K", "*", "-", "W"]  # mirrored east-west
    assert R.make_cell(111, "X", 1, True)["e"] == ["W", "K", "*", "-"]  # mirrored then turned


def test_generic_tiles_have_a_room_side_and_a_straight_hallway_side() -> None:
    assert R.make_cell("G", "R", 0, False)["e"] == [1, 0, 0, 0]
    assert R.make_cell("G", "H", 1, False)["e"] == [0, 1, 0, 1]
    assert R.sides_of("G") == ("R", "H") and R.sides_of(171) == ("D", "X")


# ---- decoration tiles (Examples 1 and 2) ------------------------------------------------


def test_example_1_table_against_a_wall_and_keys_around_the_corners() -> None:
    # A room at G8 (passage north to the start); its south wall faces G9.
    g = grid({"G8": room_or_hall("N")})
    tile = R.make_cell(210, "X", 0, False)  # table north, keys east and west
    assert R.check_place(g, P("G9"), tile) is None
    g[P("G9")] = tile
    s = R.summarise(g)
    assert s[P("G8")]["decos"] == ["T"]
    # Build around the corners: dungeon tiles at F9 and H9 now have the keys on their walls.
    g[P("F9")] = room_or_hall("W")
    g[P("H9")] = room_or_hall("E")
    s = R.summarise(g)
    assert s[P("F9")]["decos"] == ["K"] and s[P("H9")]["decos"] == ["K"]


def test_a_decoration_tile_must_decorate_a_wall() -> None:
    g = grid({"G8": room_or_hall("N")})
    # Its only icon points away from the room: nothing decorates a wall.
    assert "decoration" in (R.check_place(g, P("G9"), deco("---T")) or "")
    assert R.check_place(g, P("G9"), deco("T---")) is None
    # A green wild icon counts as an icon on the wall (house decision).
    assert R.check_place(g, P("G9"), deco("*---")) is None


def test_example_2_no_passageway_may_dead_end_into_a_decoration_tile() -> None:
    # The start is open on all four sides: a decoration tile next to it dead-ends a passage.
    g = grid({})
    why = R.check_place(g, P("G8"), R.make_cell(156, "X", 0, False))
    assert why == "A passageway may never dead-end into a decoration tile."
    # Whether or not the touching edge carries a decoration does not matter.
    assert R.check_place(g, P("G8"), deco("C---")) == why
    assert R.check_place(g, P("G8"), deco("-C--")) == why


# ---- dungeon tiles (Examples 3-7) ------------------------------------------------------


def test_example_3_orange_tile_next_to_the_start_is_legal() -> None:
    g = grid({})
    assert R.check_place(g, P("H7"), room_or_hall("WE", "orange")) is None


def test_example_4_no_connected_path_back_to_the_start() -> None:
    g = grid({})
    # Adjacent to the start but its passages point away: the start's passage dead-ends into its wall,
    # and no path leads from the new tile back.
    why = R.check_place(g, P("H7"), room_or_hall("NS", "orange"))
    assert why and "connected path" in why
    # Not next to any dungeon tile at all.
    assert "next to another dungeon tile" in (R.check_place(g, P("J7"), room_or_hall("WE", "orange")) or "")


def test_example_5_a_passageway_may_dead_end_into_a_wall() -> None:
    # G6 links the start to H6; H7 is a room whose north wall faces H6.
    g = grid({"G6": room_or_hall("SE"), "H7": room_or_hall("W")})
    # Orange at H6: west passage meets G6's east passage; its south passage hits H7's north wall.
    orange = room_or_hall("WS", "orange")
    assert R.check_place(g, P("H6"), orange) is None


def test_example_6_dead_end_into_a_decoration_tile_is_illegal() -> None:
    g = grid({"G6": room_or_hall("SE"), "H7": room_or_hall("W"), "H5": deco("---*")})
    g[P("I5")] = deco("----")
    orange = room_or_hall("WN", "orange")  # its north passage would hit the decoration tile at H5
    assert R.check_place(g, P("H6"), orange) == "A passageway may never dead-end into a decoration tile."


def test_example_7_the_dungeon_must_keep_an_open_passageway() -> None:
    # Three sides of the start are closed by rooms; only the south passage is still open.
    g = grid({"G6": room_or_hall("S"), "H7": room_or_hall("W"), "F7": room_or_hall("E")})
    assert R.open_passages(g) == 1
    blue_room = room_or_hall("N", "blue")
    why = R.check_place(g, P("G8"), blue_room)
    assert why == "Your dungeon must keep at least one passageway leading to empty, unbuilt space."
    # A hallway there keeps the dungeon open.
    assert R.check_place(g, P("G8"), room_or_hall("NS", "blue")) is None


def test_passages_off_the_grid_are_not_open_space() -> None:
    g = {P("A1"): {**R.start_cell(), "t": "x"}}
    assert R.open_passages(g) == 2  # north and west lead off the 13x13 grid


def test_legal_placements_only_lists_legal_ones_once() -> None:
    g = grid({})
    places = R.legal_placements(g, 282)  # a four-way hallway
    for side, pos, rot, flip in places:
        assert R.check_place(g, pos, R.make_cell(282, side, rot, flip)) is None
    dungeon_side = [x for x in places if x[0] == "D"]
    assert len(dungeon_side) == 4  # one orientation of a cross, on each of the four squares
    # The decoration side cannot go next to the start (its four passages would dead-end).
    assert not [x for x in places if x[0] == "X"]


# ---- rooms and the single hallway -------------------------------------------------------


def test_rooms_have_one_passage_and_the_start_is_a_hallway() -> None:
    g = grid({"G6": room_or_hall("S"), "H7": room_or_hall("WE")})
    s = R.summarise(g)
    assert s[P("G6")]["room"] and not s[P("H7")]["room"] and not s[G7]["room"]


def test_all_hallway_tiles_form_one_connected_hallway() -> None:
    """Every hallway tile reaches the start through hallway tiles only: rooms are dead ends."""
    from engine.dungeon_decorators import GAME
    from tests.playout import random_playout

    state, _ = random_playout(GAME, 2, 31)
    for p in state["players"]:
        g = R.to_grid(p["dungeon"])
        s = R.summarise(g)
        halls = {q for q, v in s.items() if not v["room"]}
        seen = {G7}
        todo = [G7]
        while todo:
            q = todo.pop()
            for d in range(4):
                n = R.step(q, d)
                if n in halls and n not in seen and g[q]["e"][d] and g[n]["e"][(d + 2) % 4]:
                    seen.add(n)
                    todo.append(n)
        assert seen == halls
