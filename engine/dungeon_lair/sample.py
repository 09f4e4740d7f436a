"""A Dungeon Lair state dealt from one seat's view, for the searching player (issue 30).

What the seat sees is copied: the map (tiles, turns, who laid them, in the order they
were laid), the removed tiles, every monster on the map, every player's monsters and
tiles in hand counted, the turn, the phase, the corridor chain and the last turn's
record. What it cannot see - the order of the stack and the tiles in the other players'
hands - is dealt at random from ``rnd``: every tile of the game that is neither on the
map, nor removed, nor in the seat's own hand goes, shuffled, first to the other hands
(as many as each holds) and the rest to the stack (as many as it holds).

Approximations, written down: a player who removed a tile told the table that tile fit
nowhere, and a rival's choices say something about the tile she kept; the deal ignores
both. The seat's hand order (kept tile first, drawn tile last) is not in the view and
changes nothing in play. The rules revision is the engine's newest (the view does not
carry it; revision 2 differs only in not recording the last turn, which is public).

The game's RNG is reseeded from ``rnd``. Its only use after the setup is the letters A, B
of the tiles in hand (``views.hand_letters``); the seat's letters are in its view, so
the new seed is drawn from ``rnd`` until it gives the seat the same letters (with two or
three tiles in hand, one to six draws): the sample's own view then equals the view, and
the seed stays a number the real game never had.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import State

from .data import BASE_IDS, TILES
from .upgrade import REVISION
from .views import hand_letters

# Seeds tried for the seat's letters before giving up on them (they only name tiles on
# buttons; nothing in play depends on them). 4 tiles in hand need at most 24 on average.
_LETTER_TRIES = 200


def sample(view: dict[str, Any], rnd: random.Random) -> State:
    seat: int = view["viewer"]
    seats: int = view["seats"]
    catacombs = bool(view["catacombs"])
    board = {t["cell"]: {"t": t["id"], "r": t["rot"], "by": t["by"]} for t in view["tiles"]}
    removed = [t["id"] for t in view["removed"]]
    mine = [t["id"] for t in view["mine"]["tiles"]]
    seen = set(board_ids(board)) | set(removed) | set(mine)
    unseen = [t for t in (TILES if catacombs else BASE_IDS) if t not in seen]
    rnd.shuffle(unseen)
    hands: list[list[int]] = []
    for p in view["players"]:
        if p["seat"] == seat:
            hands.append(list(mine))
        else:
            n = p["tiles_in_hand"]
            hands.append(unseen[:n])
            del unseen[:n]
    if len(unseen) != view["deck"]:
        raise ValueError("the view's tile counts do not add up to the game's tiles")
    monsters: list[list[dict[str, Any]]] = [[] for _ in range(seats)]
    for m in view["monsters"]:
        monsters[m["seat"]].append({"s": m["size"], "at": m["at"]})
    for p in view["players"]:
        for size, n in p["monsters_in_hand"].items():
            monsters[p["seat"]] += [{"s": size, "at": None} for _ in range(n)]
    state: State = {
        "game": view["game"],
        "seats": seats,
        "options": {"beginner": view["beginner"], "catacombs": catacombs},
        "rng": {"seed": rnd.randrange(2**31), "n": 0},
        "revision": REVISION,
        "deck": unseen,
        "hands": hands,
        "board": board,
        "removed": removed,
        "monsters": monsters,
        # turns go round from the first player, one seat a turn
        "first": (view["current"] - (view["turn"] - 1)) % seats,
        "current": view["current"],
        "turn": view["turn"],
        "phase": view["phase"],
        "placed": [t["cell"] for t in view["tiles"] if t["new"]],
        "chain": view["chain"],
        "cells": "xy",
    }
    if view["last"] is not None:
        last = view["last"]
        state["last"] = {**last, "cells": list(last["cells"]), "lines": list(last["lines"])}
    if len(mine) > 1:
        _match_letters(state, seat, {t["id"]: t["letter"] for t in view["mine"]["tiles"]}, rnd)
    return state


def board_ids(board: dict[str, Any]) -> list[int]:
    return [e["t"] for e in board.values()]


def _match_letters(state: State, seat: int, letters: dict[int, str], rnd: random.Random) -> None:
    for _ in range(_LETTER_TRIES):
        if hand_letters(state, seat) == letters:
            return
        state["rng"]["seed"] = rnd.randrange(2**31)
