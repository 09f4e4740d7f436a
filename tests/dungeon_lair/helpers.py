"""Building Dungeon Lair positions for tests.

Tile numbers used below (data/dungeon-lair/tiles.json, edges N E S W before turning):
  1-6 straight corridor (open N and S)      17-20 crossroads corridor (open all round)
  21-23 room open all round                  28-30 room open N and S
  34 dead-end room (open N only)             35-36 door room (doors N and S)
  51 portcullis room (portcullis N, open S)  78-80 bridge, 82-84 chasm (rooms N and S)
  76 catacomb entrance (open N and S)        86-101 crypts, 102-103 catacomb stairs (Catacomb rules)
"""

from __future__ import annotations

from typing import Any

from engine import core
from engine.core import State
from engine.dungeon_lair import GAME

STRAIGHT = [1, 2, 3, 4, 5, 6]
CROSS = [17, 18, 19, 20]
ROOM4 = [21, 22, 23]
ROOM_NS = [28, 29, 30]
DEAD_END = 34
DOOR_NS = [35, 36]
PORTCULLIS = 51
BRIDGE = [78, 79, 80]
CHASM = [82, 83, 84]
CATACOMB_ENTRANCE_NS = 76  # catacomb entrance room open N and S
CRYPTS = list(range(86, 102))  # Catacomb extra rules: crypts (one room each)
CATACOMB_STAIRS = [102, 103]  # Catacomb extra rules: two rooms joined through the catacombs


def board(*cells: tuple[str, int, int]) -> dict[str, Any]:
    """board(("0,0", 21, 0), ...) -> the state's board dict (placed by seat 0)."""
    return {cell: {"t": t, "r": r, "by": 0} for cell, t, r in cells}


def new(
    players: int = 2,
    *,
    deck: list[int] | None = None,
    hands: list[list[int]] | None = None,
    tiles: dict[str, Any] | None = None,
    first: int = 0,
    beginner: bool = False,
    catacombs: bool = False,
    seed: int = 1,
) -> State:
    setup: dict[str, Any] = {"first": first}
    if deck is not None:
        setup["deck"] = deck
    if hands is not None:
        setup["hands"] = hands
    if tiles is not None:
        setup["board"] = tiles
    return GAME.new(players, {"beginner": beginner, "catacombs": catacombs, "setup": setup}, seed)


def position(
    tiles: dict[str, Any],
    monsters: dict[int, list[tuple[str, str]]],
    players: int = 2,
    catacombs: bool = False,
) -> State:
    """A finished-looking map with monsters on it: {seat: [(size, area), ...]}.
    The seat to act is 0, in its monster phase, with nothing placed this turn."""
    state = new(players, deck=[], hands=[[] for _ in range(players)], tiles=tiles, catacombs=catacombs)
    for seat, ms in monsters.items():
        free = list(state["monsters"][seat])
        for size, at in ms:
            m = next(m for m in free if m["s"] == size and m["at"] is None)
            m["at"] = at
    state["phase"] = "monster"
    return state


def act(state: State, seat: int, text: str) -> State:
    new_state, _ = GAME.apply(state, seat, GAME.parse(text))
    return new_state


def act_events(state: State, seat: int, text: str) -> tuple[State, list[core.Event]]:
    return GAME.apply(state, seat, GAME.parse(text))


def scores(state: State) -> list[int]:
    return GAME.dungeon(state).scores(state["monsters"])


def legal_notes(state: State, seat: int) -> list[str]:
    return [GAME.format(a) for a in GAME.legal_actions(state, seat)]
