"""Dungeon Lair with the Catacomb extra rules (game option ``catacombs``): every rule the
rulebook states about them, each with its words; what the text lost is decided in
docs/rules/dungeon-lair.md ("The Catacomb extra rules")."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import IllegalAction
from engine.dungeon_lair import GAME
from engine.dungeon_lair.data import BASE_IDS, CATACOMB_IDS, TILES
from tests.dungeon_lair.helpers import (
    BRIDGE,
    CATACOMB_ENTRANCE_NS,
    CATACOMB_STAIRS,
    ROOM_NS,
    STRAIGHT,
    act,
    board,
    legal_notes,
    position,
    scores,
)
from tests.playout import random_playout


def test_one_hundred_and_three_tiles_with_two_new_tile_types() -> None:
    # "If the optional Catacomb extra rules are used, the total count is increased to 103 with 2
    # new tile types." / "either play with Catacomb extended rules or remove following 18 tiles"
    assert len(CATACOMB_IDS) == 18 and len(BASE_IDS) + len(CATACOMB_IDS) == 103
    new_kinds = {TILES[t].kind for t in CATACOMB_IDS}
    assert len(new_kinds) == 2 and not new_kinds & {TILES[t].kind for t in BASE_IDS}
    state = GAME.new(3, {"catacombs": True}, 8)
    dealt = state["deck"] + [t for h in state["hands"] for t in h]
    assert sorted(dealt) == sorted(TILES) and len(dealt) == 103
    plain = GAME.new(3, None, 8)
    assert not set(CATACOMB_IDS) & set(plain["deck"] + [t for h in plain["hands"] for t in h])


def test_ninety_three_points_at_most() -> None:
    # "There are maximum of 73 (or 93) points to be divided, so the total of all player scores can
    # never exceed that."
    assert sum(TILES[t].points for t in TILES) == 93
    state, _ = random_playout(GAME, 2, 17, {"catacombs": True})
    assert len(state["board"]) + len(state["removed"]) == 103
    assert sum(GAME.result(state).scores) <= 93


@pytest.mark.parametrize(
    "players, small, big, huge",
    # 2 players: the extra big monster, and no extra small one ("only if no catacombs"); at most
    # 2 big as the components allow ("Each set needs up to 4 small, 2 big and one huge monster")
    [(2, 3, 2, 1), (3, 4, 2, 1), (4, 4, 2, 1), (5, 3, 2, 1), (6, 3, 2, 1)],
)
def test_monsters_with_the_catacombs(players: int, small: int, big: int, huge: int) -> None:
    # "If there are 3 or 4 players, or Catacomb extra rules are used, each players gets an extra
    # big monster. If there is 2 players, or 3 or 4 players and Catacombs extra rules, each player
    # get an extra big and small monster for a total of 7 monsters."
    # "(20.9.2003) In 2 player game, one extra small monster (only if no catacombs)"
    state = GAME.new(players, {"catacombs": True}, 5)
    for ms in state["monsters"]:
        assert Counter(m["s"] for m in ms) == Counter({"S": small, "M": big, "L": huge})
    if players in (3, 4):
        assert len(state["monsters"][0]) == 7  # "for a total of 7 monsters"


def test_a_move_across_a_bridge_is_not_counted_for_control() -> None:
    # "If Catacomb extra rules are used, move across bridge or through catacombs is not counted
    # when checking the monster control area."
    tiles = board(("0,-1", ROOM_NS[0], 0), ("0,0", BRIDGE[0], 0), ("0,1", ROOM_NS[1], 0))
    monsters = {0: [("S", "0,-1")]}
    # base game (house decision): the bridge joins its rooms, the monster holds all four rooms
    assert scores(position(tiles, monsters)) == [4, 0]
    # Catacombs: control stops at the bridge, two rooms on this side
    state = position(tiles, monsters, catacombs=True)
    assert scores(state) == [2, 0]
    # ...but a monster may still move across it: it is a normal move
    assert "S 0,-1 0,0s" in legal_notes(state, 0)
    after = act(state, 0, "S 0,-1 0,1")
    assert scores(after) == [2, 0]  # now the rooms on the far side


def test_a_move_through_the_catacombs_is_not_counted_for_control() -> None:
    # Two catacomb entrances far apart, walled off from each other above ground (a door between):
    # a monster moves from one to the other through the catacombs, but controls only its own side.
    tiles = board(
        ("0,-2", CATACOMB_ENTRANCE_NS, 0),
        ("0,-1", STRAIGHT[0], 0),
        ("0,0", 35, 0),  # door room: doors north and south
        ("0,1", STRAIGHT[1], 0),
        ("0,2", CATACOMB_STAIRS[0], 0),
    )
    state = position(tiles, {0: [("M", "0,-2")]}, catacombs=True)
    assert scores(state) == [1, 0]  # the entrance only: the door stops control
    notes = legal_notes(state, 0)
    assert "M 0,-2 0,2n" in notes and "M 0,-2 0,2s" in notes  # through the catacombs
    after = act(state, 0, "M 0,-2 0,2s")
    assert scores(after) == [1, 0]  # the far stair room alone: stairs are joined only below
    # without the Catacombs there is no such way (the entrance is an ordinary room)
    base = position(
        board(
            *(
                (c, t if t not in CATACOMB_STAIRS else ROOM_NS[2], r)
                for c, t, r in (
                    ("0,-2", CATACOMB_ENTRANCE_NS, 0),
                    ("0,-1", STRAIGHT[0], 0),
                    ("0,0", 35, 0),
                    ("0,1", STRAIGHT[1], 0),
                    ("0,2", CATACOMB_STAIRS[0], 0),
                )
            )
        ),
        {0: [("M", "0,-2")]},
    )
    with pytest.raises(IllegalAction, match="out of reach"):
        act(base, 0, "M 0,-2 0,2")


def test_catacomb_stairs_hold_two_rooms_each_its_own_zone() -> None:
    # "Note that chasms and bridge tiles have two rooms on them, one on each side": the catacomb
    # stair is drawn the same way (house design), its rooms joined only through the catacombs.
    stair = TILES[CATACOMB_STAIRS[0]]
    assert stair.points == 2 and stair.link == "catacomb"
    tiles = board(("0,0", CATACOMB_STAIRS[0], 0))
    state = position(tiles, {0: [("S", "0,0n")], 1: [("S", "0,0s")]}, catacombs=True)
    assert scores(state) == [1, 1]
