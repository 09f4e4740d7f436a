"""Dungeon Lair: control zones, monster power, ties, the rulebook's example, and monster actions."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_lair import GAME
from tests.dungeon_lair.helpers import (
    BRIDGE,
    CHASM,
    DOOR_NS,
    PORTCULLIS,
    ROOM4,
    ROOM_NS,
    STRAIGHT,
    act,
    board,
    legal_notes,
    new,
    position,
    scores,
)

# A north-south line of tiles on column 0, rows -2 to 2.


def line(*tiles: int) -> dict:
    return board(*((f"0,{i - 2}", t, 0) for i, t in enumerate(tiles)))


# ---- the rulebook's example -------------------------------------------------------------------


def test_rulebook_example_big_beats_small_for_the_room_between() -> None:
    # "between a small monster of player A and a big monster of player B there is one room.
    # Player B gets the point from that one as she got the big monster able to control that room
    # while player A has only a small monster."
    tiles = line(STRAIGHT[0], ROOM_NS[0], STRAIGHT[1])  # corridor 0,-2, room 0,-1, corridor 0,0
    state = position(tiles, {0: [("S", "0,-2")], 1: [("M", "0,0")]})
    assert scores(state) == [0, 1]
    view = GAME.view(state, None)
    assert [p["score"] for p in view["players"]] == [0, 1]
    room = next(t for t in view["tiles"] if t["cell"] == "0,-1")
    assert room["areas"][0]["owner"] == 1


# ---- control zones ----------------------------------------------------------------------------


def test_a_monster_controls_its_own_room_and_every_room_it_reaches() -> None:
    # "Each room controlled by a player's monster is worth one point, including the tile in which
    # the monster is." "Only rooms are worth points. Corridors never give any points, but monster
    # control areas are checked through them."
    tiles = line(ROOM_NS[0], STRAIGHT[0], STRAIGHT[1], ROOM_NS[1], ROOM4[0])
    assert scores(position(tiles, {0: [("S", "0,-2")]})) == [3, 0]
    assert scores(position(tiles, {0: [("S", "0,-1")]})) == [3, 0]  # standing in a corridor
    # a lone corridor with a monster scores nothing
    assert scores(position(line(STRAIGHT[0]), {0: [("L", "0,-2")]})) == [0, 0]


def test_a_door_blocks_the_control_zone() -> None:
    # "all connected rooms are in the same zone, unless there is a blocking door or a portcullis"
    tiles = line(ROOM_NS[0], DOOR_NS[0], ROOM_NS[1])
    assert scores(position(tiles, {0: [("S", "0,-2")]})) == [1, 0]
    assert scores(position(tiles, {0: [("S", "0,-1")]})) == [1, 0]


def test_a_portcullis_blocks_the_control_zone() -> None:
    tiles = line(ROOM_NS[0], PORTCULLIS, ROOM_NS[1])  # 0,-1's portcullis faces 0,-2; 0,-1-0,0 is open
    assert scores(position(tiles, {0: [("S", "0,-2")]})) == [1, 0]
    assert scores(position(tiles, {0: [("S", "0,0")]})) == [2, 0]


def test_a_bridge_joins_its_two_rooms_and_a_chasm_parts_them() -> None:
    # "chasms and bridge tiles have two rooms on them, one on each side"
    bridge = line(ROOM_NS[0], BRIDGE[0], ROOM_NS[1])
    assert scores(position(bridge, {0: [("S", "0,-2")]})) == [4, 0]
    chasm = line(ROOM_NS[0], CHASM[0], ROOM_NS[1])
    assert scores(position(chasm, {0: [("S", "0,-2")]})) == [2, 0]
    assert scores(position(chasm, {0: [("S", "0,-1s")]})) == [2, 0]
    # turned a quarter, the bridge's rooms lie east and west and carry those letters
    view = GAME.view(position(board(("0,0", BRIDGE[0], 90)), {}), None)
    assert [a["label"] for a in view["tiles"][0]["areas"]] == ["0,0e", "0,0w"]


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (["S"], ["M"], [0, 3]),  # power 1 against 2
        (["M"], ["L"], [0, 3]),  # 2 against 3
        (["L"], ["S", "S"], [3, 0]),  # 3 against 1 + 1
        (["S", "M"], ["L"], [0, 0]),  # 1 + 2 against 3: tied, nobody scores
        (["S"], ["S"], [0, 0]),
        (["M"], ["S", "S"], [0, 0]),
        (["S", "S", "M"], ["L"], [3, 0]),
    ],
)
def test_power_one_two_three_and_ties_give_nobody_the_room(a, b, expected) -> None:
    # "Each small monster is worth 1 power, bigs are 2 and huge monster is worth 3 power. ...
    # If the highest power is tied, no player gets points from that room."
    tiles = line(ROOM_NS[0], ROOM_NS[1], ROOM_NS[2])
    state = position(tiles, {0: [(s, "0,-2") for s in a], 1: [(s, "0,0") for s in b]})
    assert scores(state) == expected


def test_a_tie_between_two_leaves_a_third_player_nothing_either() -> None:
    tiles = line(ROOM_NS[0], ROOM_NS[1])
    state = position(tiles, {0: [("M", "0,-2")], 1: [("M", "0,-1")], 2: [("S", "0,-1")]}, players=3)
    assert scores(state) == [0, 0, 0]
    view = GAME.view(state, None)
    assert all(a["contested"] and a["owner"] is None for t in view["tiles"] for a in t["areas"])


def test_monsters_in_hand_have_no_effect() -> None:
    state = position(line(ROOM_NS[0]), {1: [("S", "0,-2")]})
    assert scores(state) == [0, 1]  # seat 0 holds all its monsters, seat 1 has one out


def test_separate_zones_are_scored_separately() -> None:
    tiles = line(ROOM_NS[0], ROOM_NS[1], DOOR_NS[0], ROOM_NS[2], ROOM4[0])
    state = position(tiles, {0: [("S", "0,-2")], 1: [("S", "0,1"), ("S", "0,2")]})
    assert scores(state) == [2, 2]  # 0,0's door room is in nobody's zone


# ---- monster actions -------------------------------------------------------------------------------


def test_a_monster_from_hand_goes_on_a_tile_placed_this_turn() -> None:
    state = new(2, deck=[23, 22], hands=[[ROOM_NS[0]], [ROOM_NS[1]]], tiles=board(("0,0", ROOM4[0], 0)))
    state = act(state, 0, "T28 0,-1 0")
    notes = legal_notes(state, 0)
    assert {"S 0,-1", "M 0,-1", "L 0,-1", "pass"} <= set(notes)
    assert "S 0,0" not in notes
    with pytest.raises(IllegalAction, match="placed this turn"):
        act(state, 0, "S 0,0")
    after = act(state, 0, "L 0,-1")
    assert {"s": "L", "at": "0,-1"} in after["monsters"][0]
    assert after["current"] == 1  # one monster action ends the turn
    assert scores(after) == [2, 0]


def test_a_monster_not_in_hand_cannot_be_placed() -> None:
    state = new(2, deck=[23, 22], hands=[[ROOM_NS[0]], [ROOM_NS[1]]], tiles=board(("0,0", ROOM4[0], 0)))
    state["monsters"][0] = [m for m in state["monsters"][0] if m["s"] != "L"] + [{"s": "L", "at": "0,0"}]
    state = act(state, 0, "T28 0,-1 0")
    assert "L 0,-1" not in legal_notes(state, 0)
    with pytest.raises(IllegalAction, match="no huge monster in hand"):
        act(state, 0, "L 0,-1")


def test_a_bridge_room_must_be_named() -> None:
    state = new(2, deck=[23, 22], hands=[[BRIDGE[0]], [ROOM_NS[1]]], tiles=board(("0,0", ROOM4[0], 0)))
    state = act(state, 0, "T78 0,-1 0")
    assert {"S 0,-1n", "S 0,-1s"} <= set(legal_notes(state, 0))
    with pytest.raises(IllegalAction, match="0,-1n or 0,-1s"):
        act(state, 0, "S 0,-1")


def test_a_normal_move_goes_anywhere_in_the_zone_but_not_through_a_door() -> None:
    tiles = line(ROOM_NS[0], STRAIGHT[0], ROOM_NS[1], DOOR_NS[0], ROOM_NS[2])
    state = position(tiles, {0: [("S", "0,-2")]})
    after = act(state, 0, "S 0,-2 0,0")
    assert {"s": "S", "at": "0,0"} in after["monsters"][0]


def test_a_move_may_open_one_door_at_the_edge_of_the_zone() -> None:
    tiles = line(ROOM_NS[0], STRAIGHT[0], ROOM_NS[1], DOOR_NS[0], ROOM_NS[2])
    state = position(tiles, {0: [("S", "0,-2")]})
    notes = legal_notes(state, 0)
    assert "S 0,-2 0,1" in notes  # normal move to 0,0, then through 0,0-0,1's door
    assert "S 0,-2 0,2" not in notes  # a second door is too far
    with pytest.raises(IllegalAction, match="out of reach"):
        act(state, 0, "S 0,-2 0,2")
    after = act(state, 0, "S 0,-2 0,1")
    assert scores(after) == [1, 0]


def test_no_monster_passes_a_portcullis() -> None:
    tiles = line(ROOM_NS[0], PORTCULLIS, ROOM_NS[1])
    state = position(tiles, {0: [("M", "0,-2")]})
    assert not any(n.startswith("M 0,-2 0,-1") for n in legal_notes(state, 0))
    with pytest.raises(IllegalAction, match="out of reach"):
        act(state, 0, "M 0,-2 0,-1")


def test_no_monster_crosses_a_chasm() -> None:
    tiles = line(ROOM_NS[0], CHASM[0], ROOM_NS[1])
    state = position(tiles, {0: [("S", "0,-2")]})
    with pytest.raises(IllegalAction, match="out of reach"):
        act(state, 0, "S 0,-2 0,-1s")
    assert act(state, 0, "S 0,-2 0,-1n")["monsters"][0][0]["at"] == "0,-1n"


def test_a_monster_returns_to_hand() -> None:
    state = position(line(ROOM_NS[0]), {0: [("M", "0,-2")]})
    assert "M 0,-2 hand" in legal_notes(state, 0)
    after = act(state, 0, "M 0,-2 hand")
    assert all(m["at"] is None for m in after["monsters"][0])
    with pytest.raises(IllegalAction, match="no small monster on 0,-2"):
        act(state, 0, "S 0,-2 hand")


def test_monsters_of_any_players_may_share_a_room() -> None:
    tiles = line(ROOM_NS[0], DOOR_NS[0])
    state = position(tiles, {0: [("S", "0,-2"), ("S", "0,-2")], 1: [("L", "0,-1")]})
    after = act(state, 0, "S 0,-2 0,-1")
    view = GAME.view(after, None)
    assert sorted((m["seat"], m["size"]) for m in view["monsters"] if m["at"] == "0,-1") == [
        (0, "S"),
        (1, "L"),
    ]


def test_monsters_never_attack_a_move_changes_no_other_monster() -> None:
    tiles = line(ROOM_NS[0], DOOR_NS[0])
    state = position(tiles, {0: [("S", "0,-2")], 1: [("L", "0,-1")]})
    after = act(state, 0, "S 0,-2 0,-1")
    assert after["monsters"][1] == state["monsters"][1]


def test_pass_is_always_possible_in_the_monster_phase() -> None:
    # "The player has always an option not to do any monster action."
    state = position(line(ROOM_NS[0]), {0: [("S", "0,-2")]})
    assert GAME.pass_action(state, 0) == {"a": "pass"}
    assert "pass" in legal_notes(state, 0)
