"""Dungeon Lair: the tile set, setup, placing tiles, the corridor chain, removal and the end."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from engine.core import IllegalAction
from engine.dungeon_lair import GAME
from engine.dungeon_lair.data import BASE_IDS, RULES, TILES, DataError, parse_tiles
from tests.dungeon_lair.helpers import (
    CROSS,
    DEAD_END,
    ROOM4,
    ROOM_NS,
    STRAIGHT,
    act,
    board,
    legal_notes,
    new,
)

# ---- the tile set -------------------------------------------------------------------------


def test_eighty_five_tiles_with_seventy_three_room_points() -> None:
    # "there exist 85 dungeon tiles" / "There are maximum of 73 (or 93) points to be divided"
    assert len(BASE_IDS) == 85 and BASE_IDS == tuple(range(1, 86))
    assert sum(TILES[t].points for t in BASE_IDS) == 73
    # a base game deals only these
    state = GAME.new(2, None, 4)
    assert sorted(state["deck"] + [t for h in state["hands"] for t in h]) == list(BASE_IDS)


def test_tile_kinds_of_the_issue_are_all_in_the_set() -> None:
    kinds = Counter(TILES[t].kind for t in BASE_IDS)
    for kind in (
        "room",
        "corridor",
        "door-room",
        "bridge",
        "chasm",
        "pit",
        "rotating",
        "trap",
        "darkness",
        "web",
        "rubble",
        "catacomb-entrance",
        "portcullis-room",
    ):
        assert kinds[kind] > 0, kind
    assert not {"crypt", "catacomb"} & set(kinds)  # the Catacomb tiles come only with that option
    edges = {e for t in BASE_IDS for e in TILES[t].edges}
    assert edges == {"open", "wall", "door", "portcullis"}


def test_corridors_score_nothing_and_bridges_and_chasms_hold_two_rooms() -> None:
    for t in TILES.values():
        if t.kind == "corridor":
            assert t.points == 0
        elif t.kind in ("bridge", "chasm", "catacomb"):
            assert t.points == 2 and len(t.areas) == 2
        else:
            assert t.points == 1


def test_catacombs_are_an_option_off_by_default() -> None:
    # "If the optional Catacomb extra rules are used" (tested in test_dungeon_lair_catacombs.py)
    assert set(GAME.options) == {"beginner", "catacombs"}
    assert GAME.options["catacombs"].default is False
    with pytest.raises(IllegalAction, match="must be one of"):
        GAME.new(2, {"catacombs": "yes"}, 1)


def _doc() -> dict:
    return {
        "tiles": [
            {
                "id": 1,
                "kind": "room",
                "name": "Room",
                "edges": "OOOW",
                "areas": [{"sides": "NES", "room": True}],
            }
        ]
    }


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: t.update(edges="OOOX"), "edge letters"),
        (lambda t: t.update(kind="vault"), "unknown kind"),
        (lambda t: t["areas"][0].update(sides="NE"), "every doorway"),
        (lambda t: t["areas"][0].update(sides="NESW"), "doorway used by one area"),
        (lambda t: t.update(kind="corridor"), "corridors are the only"),
        (lambda t: t.update(kind="bridge"), "two rooms"),
    ],
)
def test_loader_refuses_a_broken_tile_file(mutate, message) -> None:
    doc = _doc()
    mutate(doc["tiles"][0])
    with pytest.raises(DataError, match=message):
        parse_tiles(doc)
    assert parse_tiles(_doc())[1].points == 1


# ---- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, small, big, huge",
    [(2, 4, 2, 1), (3, 3, 2, 1), (4, 3, 2, 1), (5, 3, 1, 1), (6, 3, 1, 1)],
)
def test_monsters_by_player_count(players: int, small: int, big: int, huge: int) -> None:
    # "3 small monsters, 1 big and 1 huge ... If there are 3 or 4 players ... an extra big monster.
    # If there is 2 players ... an extra big and small monster" (the 2-player small: "only if no catacombs")
    state = GAME.new(players, None, 5)
    for ms in state["monsters"]:
        sizes = Counter(m["s"] for m in ms)
        assert (sizes["S"], sizes["M"], sizes["L"]) == (small, big, huge)
        assert all(m["at"] is None for m in ms)
    assert RULES.power == {"S": 1, "M": 2, "L": 3}


def test_each_player_gets_one_hidden_tile_and_the_first_player_draws() -> None:
    state = GAME.new(4, None, 9)
    first = state["current"]
    counts = [len(h) for h in state["hands"]]
    assert counts[first] == 2 and sum(counts) == 5
    assert len(state["deck"]) == 85 - 5
    held = {t for h in state["hands"] for t in h}
    assert len(held) == 5 and not held & set(state["deck"])
    public = GAME.view(state, None)
    assert "mine" not in public and "deck" in public and isinstance(public["deck"], int)
    mine = GAME.view(state, first)["mine"]["tiles"]
    assert sorted(t["id"] for t in mine) == sorted(state["hands"][first])


def test_beginner_rule_has_no_tile_in_hand() -> None:
    state = GAME.new(3, {"beginner": True}, 9)
    counts = [len(h) for h in state["hands"]]
    assert counts[state["current"]] == 1 and sum(counts) == 1
    assert len(state["deck"]) == 84


def test_a_random_player_starts() -> None:
    starters = {GAME.new(4, None, seed)["current"] for seed in range(40)}
    assert starters == {0, 1, 2, 3}


# ---- placing tiles ---------------------------------------------------------------------------


def test_the_first_tile_goes_on_the_start_cell_in_any_turn() -> None:
    state = new(2, deck=[21, 22, 23], hands=[[28], [29]])
    notes = legal_notes(state, 0)
    assert notes and all(n.split()[1] == "0,0" for n in notes)
    # a room open N and S has two distinct turns, a room open all round only one
    assert {n for n in notes if n.startswith("T28 ")} == {"T28 0,0 0", "T28 0,0 90"}
    assert [n for n in notes if n.startswith("T21 ")] == ["T21 0,0 0"]
    with pytest.raises(IllegalAction, match="first tile goes on 0,0"):
        act(state, 0, "T28 -1,0 0")
    after = act(state, 0, "T28 0,0 90")
    assert after["board"]["0,0"] == {"t": 28, "r": 90, "by": 0}


def test_a_doorway_may_not_meet_a_wall() -> None:
    # 0,0: room open only to the north; a tile below it would face its south wall.
    state = new(2, deck=[21, 22], hands=[[28], [29]], tiles=board(("0,0", DEAD_END, 0)))
    with pytest.raises(IllegalAction, match="doorway against a wall"):
        act(state, 0, "T28 0,1 0")  # its north doorway would meet 0,0's south wall
    after = act(state, 0, "T28 0,1 90")  # turned: walls north and south, wall meets wall
    assert "0,1" in after["board"]
    notes = legal_notes(state, 0)
    assert "T28 0,1 90" in notes and "T28 0,1 0" not in notes
    assert "T28 0,-1 0" in notes  # its south doorway meets 0,0's north doorway
    assert "T21 0,1 0" not in notes


def test_a_tile_must_touch_the_map_and_a_cell_holds_one_tile() -> None:
    state = new(2, deck=[23, 22], hands=[[28], [29]], tiles=board(("0,0", ROOM4[0], 0)))
    with pytest.raises(IllegalAction, match="does not touch"):
        act(state, 0, "T28 0,-2 0")
    with pytest.raises(IllegalAction, match="already holds a tile"):
        act(state, 0, "T28 0,0 0")
    with pytest.raises(IllegalAction, match="do not hold"):
        act(state, 0, "T22 0,-1 0")  # T22 is the next tile of the stack, not in hand
    with pytest.raises(IllegalAction, match="not a cell"):
        GAME.parse("T28 Z40 0")
    with pytest.raises(IllegalAction, match="not a cell"):
        GAME.parse("T28 1000,0 0")
    with pytest.raises(IllegalAction, match="0, 90, 180 or 270"):
        GAME.parse("T28 0,-1 45")


def test_a_monster_action_comes_after_the_tile() -> None:
    state = new(2, deck=[23, 22], hands=[[28], [29]], tiles=board(("0,0", ROOM4[0], 0)))
    with pytest.raises(IllegalAction, match="Place a tile first"):
        act(state, 0, "pass")
    after = act(state, 0, "T28 0,-1 0")
    with pytest.raises(IllegalAction, match="placed for this turn"):
        act(after, 0, "T23 0,1 0")


# ---- the corridor chain ---------------------------------------------------------------------


def chain_start():
    # Seat 0 holds a straight corridor and draws another; the map is one room on 0,0.
    return new(
        2,
        deck=[STRAIGHT[1], STRAIGHT[2], CROSS[0], ROOM4[1]],
        hands=[[STRAIGHT[0]], [ROOM_NS[0]]],
        tiles=board(("0,0", ROOM4[0], 0)),
    )


def test_a_corridor_with_a_free_exit_lets_the_player_draw_and_place_again() -> None:
    state = chain_start()
    assert sorted(state["hands"][0]) == [1, 2]
    state = act(state, 0, "T1 0,-1 0")
    assert state["chain"] == "0,-1" and "draw" in legal_notes(state, 0)
    assert GAME.view(state, None)["free_exits"] == ["0,-2"]
    state = act(state, 0, "draw")
    assert state["phase"] == "chain" and sorted(state["hands"][0]) == [2, 3]
    # only the free exit of the corridor just placed
    notes = legal_notes(state, 0)
    assert notes and all(n.split()[1] == "0,-2" for n in notes)
    with pytest.raises(IllegalAction, match="free exit of 0,-1"):
        act(state, 0, "T2 -1,0 90")
    with pytest.raises(IllegalAction, match="free exit"):
        act(state, 0, "pass")
    # the chain goes on from the new corridor...
    state = act(state, 0, "T3 0,-2 0")
    assert state["chain"] == "0,-2" and "draw" in legal_notes(state, 0)
    state = act(state, 0, "draw")
    state = act(state, 0, "T17 0,-3 0")
    assert state["chain"] == "0,-3"
    # ...until the player stops: her monster action ends the turn, and nothing more is drawn
    deck = len(state["deck"])
    state = act(state, 0, "pass")
    assert state["current"] == 1 and len(state["deck"]) == deck - 1  # seat 1's own draw only


def test_a_room_or_a_corridor_without_a_free_exit_ends_the_chain() -> None:
    state = chain_start()
    state = act(state, 0, "T2 0,-1 0")
    state = act(state, 0, "draw")
    state = act(state, 0, "T3 0,-2 0")
    assert state["chain"] == "0,-2"
    state = act(state, 0, "pass")
    state = act(state, 1, "T28 1,0 90")  # a room: no chain
    assert state["chain"] is None and "draw" not in legal_notes(state, 1)
    with pytest.raises(IllegalAction, match="right after placing a corridor"):
        act(state, 1, "draw")


def test_a_room_placed_in_the_chain_ends_it() -> None:
    state = new(
        2,
        deck=[STRAIGHT[1], ROOM4[1], ROOM4[2]],
        hands=[[STRAIGHT[0]], [ROOM_NS[0]]],
        tiles=board(("0,0", ROOM4[0], 0)),
    )
    state = act(state, 0, "T1 0,-1 0")
    assert "may draw a tile to continue the corridor" in GAME.status(state)
    state = act(state, 0, "draw")
    state = act(state, 0, "T22 0,-2 0")
    assert state["chain"] is None and "draw" not in legal_notes(state, 0)
    assert GAME.status(state) == "Player 1 does one monster action or passes."


def test_a_corridor_boxed_in_has_no_free_exit() -> None:
    tiles = board(("0,0", ROOM4[0], 0), ("0,-2", ROOM4[1], 0))
    state = new(2, deck=[23, 2], hands=[[STRAIGHT[0]], [ROOM_NS[0]]], tiles=tiles)
    state = act(state, 0, "T1 0,-1 0")  # both ends touch rooms
    assert state["chain"] is None and "draw" not in legal_notes(state, 0)


def test_with_an_empty_stack_the_chain_continues_with_the_tile_in_hand() -> None:
    # "If there are no tiles to draw, the player simply plays with tiles she has."
    state = new(2, deck=[STRAIGHT[1]], hands=[[STRAIGHT[0]], [ROOM_NS[0]]], tiles=board(("0,0", ROOM4[0], 0)))
    assert state["deck"] == []
    state = act(state, 0, "T1 0,-1 0")
    notes = legal_notes(state, 0)
    assert "continue" in notes and "draw" not in notes
    with pytest.raises(IllegalAction, match="stack is empty"):
        act(state, 0, "draw")
    state = act(state, 0, "continue")
    state = act(state, 0, "T2 0,-2 0")
    assert state["hands"][0] == [] and "continue" not in legal_notes(state, 0)


def test_the_status_and_the_prompt_say_how_the_corridor_goes_on() -> None:
    # "the player can draw a new tile and then put that tile (or the other kept) to any free exit";
    # "If there are no tiles to draw, the player simply plays with tiles she has." The table reads
    # which of the two she may do, in words (not "may continue to continue the corridor").
    tiles = board(("0,0", ROOM4[0], 0))
    drawing = act(
        new(2, deck=[STRAIGHT[1], ROOM4[1]], hands=[[STRAIGHT[0]], [ROOM_NS[0]]], tiles=tiles), 0, "T1 0,-1 0"
    )
    assert GAME.status(drawing) == (
        "Player 1 may draw a tile to continue the corridor, do one monster action, or pass."
    )
    assert GAME.chooser(drawing, 0, []).prompt.startswith("You may draw a tile to continue the corridor; ")
    empty = act(new(2, deck=[STRAIGHT[1]], hands=[[STRAIGHT[0]], [ROOM_NS[0]]], tiles=tiles), 0, "T1 0,-1 0")
    assert GAME.status(empty) == (
        "Player 1 may continue the corridor with a tile in hand, do one monster action, or pass."
    )
    assert "continue to continue" not in GAME.chooser(empty, 0, []).prompt
    assert GAME.chooser(empty, 0, []).prompt.startswith("You may continue the corridor with a tile in hand; ")


def boxed_exit():
    # 0,-1 corridor; its free exit 0,-2 sits between two walls (rooms open only N and S on -1,-2, 1,-2).
    tiles = board(("0,0", ROOM4[0], 0), ("-1,-2", ROOM_NS[1], 0), ("1,-2", ROOM_NS[2], 0))
    return tiles


def test_a_tile_that_cannot_be_placed_is_removed_without_replacement() -> None:
    state = new(2, deck=[CROSS[0], ROOM4[1], ROOM4[2]], hands=[[STRAIGHT[0]], [DEAD_END]], tiles=boxed_exit())
    state = act(state, 0, "T1 0,-1 0")
    state = act(state, 0, "draw")
    assert sorted(state["hands"][0]) == [17, 22]  # crossroads and open room: neither fits on 0,-2
    notes = legal_notes(state, 0)
    assert notes == ["T17 remove", "T22 remove"]
    deck = list(state["deck"])
    state = act(state, 0, "T22 remove")
    assert state["removed"] == [22] and state["hands"][0] == [17] and state["deck"] == deck
    assert state["phase"] == "monster" and state["chain"] is None
    view = GAME.view(state, None)
    assert [t["id"] for t in view["removed"]] == [22]


def test_only_an_unplaceable_tile_may_be_removed() -> None:
    state = new(
        2, deck=[STRAIGHT[1], CROSS[0], ROOM4[2]], hands=[[STRAIGHT[0]], [DEAD_END]], tiles=boxed_exit()
    )
    state = act(state, 0, "T1 0,-1 0")
    state = act(state, 0, "draw")
    assert sorted(state["hands"][0]) == [2, 17]
    notes = legal_notes(state, 0)
    assert "T2 0,-2 0" in notes and "T17 remove" in notes and "T2 remove" not in notes
    with pytest.raises(IllegalAction, match="can still be placed"):
        act(state, 0, "T2 remove")
    # "If the player selects a tile that cannot be placed, that tile is removed"
    after = act(state, 0, "T17 remove")
    assert after["removed"] == [17] and after["hands"][0] == [2]


# ---- the end ----------------------------------------------------------------------------------


def test_the_game_ends_when_no_tile_can_be_drawn_and_none_is_left() -> None:
    # 2 players, one tile each in hand, two in the stack; rooms only (no chains).
    state = new(
        2, deck=[ROOM_NS[0], ROOM_NS[1]], hands=[[ROOM4[1]], [ROOM4[2]]], tiles=board(("0,0", ROOM4[0], 0))
    )
    state = act(state, 0, "T28 0,-1 0")
    state = act(state, 0, "pass")
    assert state["deck"] == [] and not GAME.is_over(state)  # seat 1 drew the last tile
    state = act(state, 1, "T29 0,1 0")
    state = act(state, 1, "pass")
    # no tile to draw: each plays the tile she still has
    assert state["current"] == 0 and state["hands"][0] == [22] and state["phase"] == "place"
    state = act(state, 0, "T22 -1,0 0")
    state = act(state, 0, "pass")
    assert not GAME.is_over(state)
    state = act(state, 1, "T23 1,0 0")
    assert not GAME.is_over(state)  # she still has her monster action
    state = act(state, 1, "pass")
    assert GAME.is_over(state) and GAME.to_act(state) == set()
    with pytest.raises(IllegalAction, match="over"):
        act(state, 0, "pass")


def test_beginner_game_ends_with_the_last_tile_drawn() -> None:
    state = new(
        2, deck=[ROOM_NS[0], ROOM_NS[1]], hands=[[], []], tiles=board(("0,0", ROOM4[0], 0)), beginner=True
    )
    state = act(state, 0, "T28 0,-1 0")
    state = act(state, 0, "pass")
    state = act(state, 1, "T29 0,1 0")
    state = act(state, 1, "pass")
    assert GAME.is_over(state)


def test_a_player_without_tiles_still_has_her_monster_turn() -> None:
    state = new(2, deck=[], hands=[[], [ROOM4[1]]], tiles=board(("0,0", ROOM4[0], 0)))
    assert state["phase"] == "monster" and state["current"] == 0
    state = act(state, 0, "pass")
    assert state["current"] == 1 and state["phase"] == "place"


def test_bad_input_changes_nothing() -> None:
    state = chain_start()
    before = json.dumps(state)
    for text in ("T1 -1,-1 0", "T1 0,-1 45", "S 0,0", "draw", "T99 0,-1 0", "hello", ""):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, GAME.parse(text))
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 1, GAME.parse("T29 0,-1 0"))
    assert json.dumps(state) == before


def test_state_survives_json_and_copy() -> None:
    state = chain_start()
    assert json.loads(json.dumps(state)) == state == copy.deepcopy(state)
