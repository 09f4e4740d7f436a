"""Tile placement rules, with the rulebook's Examples 1-7."""

from __future__ import annotations

from engine.dungeon_decorators import rules as R

from .helpers import deco, grid, room_or_hall

AO41 = R.parse_coord("AO41")


def P(c: str) -> tuple[int, int]:
    p = R.parse_coord(c)
    assert p is not None
    return p


# ---- two-sided tiles ------------------------------------------------------------------


def test_dungeon_side_is_read_from_the_decoration_side() -> None:
    # Tile 210: table N, keys E and W, nothing S -> a three-way hallway open N, E, W.
    cell = R.make_cell(210, "D", 0)
    assert cell["e"] == [1, 1, 0, 1] and cell["floor"] == "yellow"
    # A green wild icon is a wall on the other side: 111 is K W - * -> passages N and E only.
    assert R.make_cell(111, "D", 0)["e"] == [1, 1, 0, 0]
    assert R.make_cell(111, "X", 0)["e"] == ["K", "W", "-", "*"]


def test_rotation_only_never_a_mirror_image() -> None:
    # "you may rotate or flip them": flipping shows the other printed side; no tile is mirrored.
    assert R.make_cell(210, "X", 1)["e"] == ["K", "T", "K", "-"]  # turned 90 clockwise
    printed = ["K", "W", "-", "*"]  # tile 111's decoration side
    turns = [tuple(printed[(i - r) % 4] for i in range(4)) for r in range(4)]
    mirror = ("K", "*", "-", "W")  # east and west swapped: no turn of the printed tile shows it
    assert mirror not in turns
    assert R.orientations(111, "X") == [0, 1, 2, 3]
    laid = {tuple(R.make_cell(111, "X", r)["e"]) for r in R.orientations(111, "X")}
    assert laid == set(turns)


def test_no_tile_can_be_laid_as_a_mirror_image_anywhere() -> None:
    # Every placement offered for every tile is one of the four turns of one of its two sides.
    g = grid({})
    for t in list(R.TILES)[:40] + ["G"]:
        allowed = {
            (side, tuple(R.make_cell(t, side, 0)["e"][(i - r) % 4] for i in range(4)))
            for side in R.sides_of(t)
            for r in range(4)
        }
        for side, _pos, rot in R.legal_placements(g, t):
            assert (side, tuple(R.make_cell(t, side, rot)["e"])) in allowed


def test_generic_tiles_have_a_room_side_and_a_straight_hallway_side() -> None:
    assert R.make_cell("G", "R", 0)["e"] == [1, 0, 0, 0]
    assert R.make_cell("G", "H", 1)["e"] == [0, 1, 0, 1]
    assert R.sides_of("G") == ("R", "H") and R.sides_of(171) == ("D", "X")


# ---- decoration tiles (Examples 1 and 2) ------------------------------------------------


def test_example_1_table_against_a_wall_and_keys_around_the_corners() -> None:
    # A room at AO42 (passage north to the start); its south wall faces AO43.
    g = grid({"AO42": room_or_hall("N")})
    tile = R.make_cell(210, "X", 0)  # table north, keys east and west
    assert R.check_place(g, P("AO43"), tile) is None
    g[P("AO43")] = tile
    s = R.summarise(g)
    assert s[P("AO42")]["decos"] == ["T"]
    # Build around the corners: dungeon tiles at AN43 and AP43 now have the keys on their walls.
    g[P("AN43")] = room_or_hall("W")
    g[P("AP43")] = room_or_hall("E")
    s = R.summarise(g)
    assert s[P("AN43")]["decos"] == ["K"] and s[P("AP43")]["decos"] == ["K"]


def test_a_decoration_tile_must_decorate_a_wall() -> None:
    g = grid({"AO42": room_or_hall("N")})
    # Its only icon points away from the room: nothing decorates a wall.
    assert "decoration" in (R.check_place(g, P("AO43"), deco("---T")) or "")
    assert R.check_place(g, P("AO43"), deco("T---")) is None
    # A green wild icon counts as an icon on the wall (house decision).
    assert R.check_place(g, P("AO43"), deco("*---")) is None


def test_example_2_no_passageway_may_dead_end_into_a_decoration_tile() -> None:
    # The start is open on all four sides: a decoration tile next to it dead-ends a passage.
    g = grid({})
    why = R.check_place(g, P("AO42"), R.make_cell(156, "X", 0))
    assert why == "A passageway may never dead-end into a decoration tile."
    # Whether or not the touching edge carries a decoration does not matter.
    assert R.check_place(g, P("AO42"), deco("C---")) == why
    assert R.check_place(g, P("AO42"), deco("-C--")) == why


# ---- dungeon tiles (Examples 3-7) ------------------------------------------------------


def test_example_3_orange_tile_next_to_the_start_is_legal() -> None:
    g = grid({})
    assert R.check_place(g, P("AP41"), room_or_hall("WE", "orange")) is None


def test_example_4_no_connected_path_back_to_the_start() -> None:
    g = grid({})
    # Adjacent to the start but its passages point away: the start's passage dead-ends into its wall,
    # and no path leads from the new tile back.
    why = R.check_place(g, P("AP41"), room_or_hall("NS", "orange"))
    assert why and "connected path" in why
    # Not next to any dungeon tile at all.
    assert "next to another dungeon tile" in (R.check_place(g, P("AR41"), room_or_hall("WE", "orange")) or "")


def test_example_5_a_passageway_may_dead_end_into_a_wall() -> None:
    # AO40 links the start to AP40; AP41 is a room whose north wall faces AP40.
    g = grid({"AO40": room_or_hall("SE"), "AP41": room_or_hall("W")})
    # Orange at AP40: west passage meets AO40's east passage; its south passage hits AP41's north wall.
    orange = room_or_hall("WS", "orange")
    assert R.check_place(g, P("AP40"), orange) is None


def test_example_6_dead_end_into_a_decoration_tile_is_illegal() -> None:
    g = grid({"AO40": room_or_hall("SE"), "AP41": room_or_hall("W"), "AP39": deco("---*")})
    g[P("AQ39")] = deco("----")
    orange = room_or_hall("WN", "orange")  # its north passage would hit the decoration tile at AP39
    assert R.check_place(g, P("AP40"), orange) == "A passageway may never dead-end into a decoration tile."


def test_example_7_the_dungeon_must_keep_an_open_passageway() -> None:
    # Three sides of the start are closed by rooms; only the south passage is still open.
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("W"), "AN41": room_or_hall("E")})
    assert R.open_passages(g) == 1
    blue_room = room_or_hall("N", "blue")
    why = R.check_place(g, P("AO42"), blue_room)
    assert why == "Your dungeon must keep at least one passageway leading to empty, unbuilt space."
    # A hallway there keeps the dungeon open.
    assert R.check_place(g, P("AO42"), room_or_hall("NS", "blue")) is None


def test_the_dungeon_has_no_edge() -> None:
    # "places it in front of them with plenty of space around it to build": no edge, and every
    # passageway to an unbuilt square is open, however far from the start.
    far_west = R.coord((R.ORIGIN - 30, R.ORIGIN))
    cells = {R.coord((R.ORIGIN - k, R.ORIGIN)): room_or_hall("WE") for k in range(1, 30)}
    g = grid(cells)
    end = P(far_west)
    assert R.check_place(g, end, room_or_hall("WE")) is None
    g[end] = room_or_hall("WE")
    # The start's three other passages plus the far end's west passage.
    assert R.open_passages(g) == 4
    # No dungeon can grow as far as column A or row 1: names never have to change.
    assert R.REACH < R.ORIGIN
    assert R.START == R.coord((R.ORIGIN, R.ORIGIN)) and P(R.START) == (R.ORIGIN, R.ORIGIN)


def test_square_names_are_stable_and_read_back() -> None:
    for p in [(0, 0), (25, 3), (26, 9), (R.ORIGIN, R.ORIGIN), (2 * R.ORIGIN, 2 * R.ORIGIN)]:
        assert R.parse_coord(R.coord(p)) == p
    assert R.coord((26, 0)) == "AA1" and R.parse_coord("ao41") == P("AO41")
    assert R.parse_coord("ZZZ1") is None and R.parse_coord("A0") is None


def test_legal_placements_only_lists_legal_ones_once() -> None:
    g = grid({})
    places = R.legal_placements(g, 282)  # a four-way hallway
    for side, pos, rot in places:
        assert R.check_place(g, pos, R.make_cell(282, side, rot)) is None
    dungeon_side = [x for x in places if x[0] == "D"]
    assert len(dungeon_side) == 4  # one orientation of a cross, on each of the four squares
    # The decoration side cannot go next to the start (its four passages would dead-end).
    assert not [x for x in places if x[0] == "X"]


# ---- rooms and the single hallway -------------------------------------------------------


def test_rooms_have_one_passage_and_the_start_is_a_hallway() -> None:
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("WE")})
    s = R.summarise(g)
    assert s[P("AO40")]["room"] and not s[P("AP41")]["room"] and not s[AO41]["room"]


def test_all_hallway_tiles_form_one_connected_hallway() -> None:
    """Every hallway tile reaches the start through hallway tiles only: rooms are dead ends."""
    from engine.dungeon_decorators import GAME
    from tests.playout import random_playout

    state, _ = random_playout(GAME, 2, 31)
    for p in state["players"]:
        g = R.to_grid(p["dungeon"])
        s = R.summarise(g)
        halls = {q for q, v in s.items() if not v["room"]}
        seen = {AO41}
        todo = [AO41]
        while todo:
            q = todo.pop()
            for d in range(4):
                n = R.step(q, d)
                if n in halls and n not in seen and g[q]["e"][d] and g[n]["e"][(d + 2) % 4]:
                    seen.add(n)
                    todo.append(n)
        assert seen == halls
