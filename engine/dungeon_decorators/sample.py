"""A complete Dungeon Decorators state dealt from one seat's view (issue 30), for the
searching computer player: it reads the view and the public card data only.

What the seat cannot see, and how it is dealt:

- the tiles in the two bags and in the box: every tile not in sight (dungeons,
  storage, new tiles, the draft board, the Burrow Bro choices) is shuffled and dealt
  to the blue bag, the red bag and the box, the bags' counts respected; the red bag
  also gets the hourglasses still in it (3 less those drawn), at random places;
- the goal cards: the seat's own hand and scored cards are known; every other card of
  each kind is shuffled and dealt to that deck, its discards and the other players'
  scored cards of that kind (counts from the view), and what is left of both kinds to
  the other players' hands (counts from the view);
- the game's random numbers are reseeded from ``rnd``, so no sample knows a draw.

Approximated (the seat saw it once, the view no longer shows it): tiles that left the
draft board or a Burrow Bro choice for the box are dealt like unseen tiles, and the
seat's own discarded goal cards like anyone's; the dungeon at the start of the turn
(only used to name the squares the turn changed, for the next view) is the dungeon as
the build began, or as it is now; the moves played so far and draws revealed are
counted from zero.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import State

from . import rules as R
from .data import DATA
from .upgrade import REVISION

HOURGLASS = 0
ALL_TILES = sorted(R.TILES)
GOALS_BY_KIND = {d: sorted(g for g in R.GOALS if g.startswith(d)) for d in "SD"}


def _cell(c: dict[str, Any]) -> dict[str, Any]:
    return {
        "t": c["t"],
        "side": c["side"],
        "rot": c["rot"],
        "kind": c["kind"],
        "e": list(c["e"]),
        "floor": c["floor"],
    }


def _dungeon(dv: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {at: _cell(c) for at, c in dv["cells"].items()}


def sample(view: dict[str, Any], rnd: random.Random) -> State:
    blue, red, box = _tiles(view, rnd)
    players, decks, discards = _players(view, rnd)
    return _table(
        view, rnd, players, {"blue": blue, "red": red, "box": box, "decks": decks, "discards": discards}
    )


def _tiles(view: dict[str, Any], rnd: random.Random) -> tuple[list[Any], list[Any], list[Any]]:
    """The unseen tiles dealt to the blue bag, the red bag (hourglasses among them) and the box."""
    pv = view["players"]
    seen: set[int] = set()
    for p in pv:
        seen.update(c["t"] for c in p["dungeon"]["cells"].values() if isinstance(c["t"], int))
        seen.update(t["n"] for t in p["storage"] + p["new_tiles"] if t["n"] != "G")
    seen.update(t["n"] for t in view["board"] if t is not None)
    if view["burrow"]:
        seen.update(t["n"] for t in view["burrow"])
    unseen = [t for t in ALL_TILES if t not in seen]
    rnd.shuffle(unseen)
    n_blue = view["bags"]["blue"]
    hourglasses_in = DATA["tiles"]["hourglasses"] - view["hourglasses"]
    n_red_tiles = view["bags"]["red"] - hourglasses_in
    blue = unseen[:n_blue]
    red = unseen[n_blue : n_blue + n_red_tiles]
    box = unseen[n_blue + n_red_tiles :]
    for _ in range(hourglasses_in):
        red.insert(rnd.randrange(len(red) + 1), HOURGLASS)
    return blue, red, box


def _players(
    view: dict[str, Any], rnd: random.Random
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Every player's pieces; the goal cards the seat has not seen dealt to decks,
    discards, the others' scored cards and hands."""
    me, mine, pv = view["viewer"], view["mine"], view["players"]
    known = {g["id"] for g in mine["hand"]} | {g["id"] for g in mine["scored"]}
    others = [p for p in pv if p["seat"] != me]
    decks: dict[str, list[str]] = {}
    discards: dict[str, list[str]] = {}
    scored: dict[int, list[str]] = {p["seat"]: [] for p in others}
    hand_pool: list[str] = []
    for d, key in (("S", "scored_shape"), ("D", "scored_deco")):
        pool = [g for g in GOALS_BY_KIND[d] if g not in known]
        rnd.shuffle(pool)
        decks[d] = [pool.pop() for _ in range(view["decks"][d])]
        discards[d] = [pool.pop() for _ in range(view["discards"][d])]
        for p in others:
            scored[p["seat"]] += [pool.pop() for _ in range(p[key])]
        hand_pool += pool
    rnd.shuffle(hand_pool)

    players = []
    for p in pv:
        s = p["seat"]
        if s == me:
            hand = [g["id"] for g in mine["hand"]]
            done = [g["id"] for g in mine["scored"]]
        else:
            hand = [hand_pool.pop() for _ in range(p["hand_count"])]
            # Scored cards in the order they were played is unknown: shapes first.
            done = sorted(scored[s], key=lambda g: g[0] != "S")
        players.append(
            {
                "dungeon": _dungeon(p["dungeon"]),
                "hand": hand,
                "storage": [t["n"] for t in p["storage"]],
                "pending": [{"t": t["n"]} for t in p["new_tiles"]],
                "tokens": dict(p["tokens"]),
                "score": p["score"],
                "chits": p["chits"],
                "scored": done,
                "kept": p["kept"],
            }
        )
    return players, decks, discards


def _table(
    view: dict[str, Any],
    rnd: random.Random,
    players: list[dict[str, Any]],
    dealt: dict[str, Any],
) -> State:
    me, n, mine, pv = view["viewer"], view["seats"], view["mine"], view["players"]
    phase = view["phase"]
    current = view["current"]
    order = list(view["order"])
    snapshot = None
    if mine.get("build_start") and current == me:
        b = mine["build_start"]
        snapshot = {
            "dungeon": R.copy_dungeon(b["dungeon"]),
            "storage": list(b["storage"]),
            "pending": [dict(x) for x in b["pending"]],
            "architect": b["architect"],
        }
    turn_mark = None
    if current is not None:
        cp = players[current]
        turn_mark = {
            "seat": current,
            "cells": R.copy_dungeon(snapshot["dungeon"] if snapshot else cp["dungeon"]),
            "score": cp["score"],
            "scored": len(cp["scored"]),
        }
    last = view["last_turn"]
    state: State = {
        "game": view["game"],
        "seats": n,
        "options": {},
        "rng": {"seed": rnd.randrange(2**31), "n": 0},
        "revision": REVISION,
        "phase": phase,
        "round": view["round"],
        "turn": 0,
        "reveal": 0,
        "order": order,
        "turn_idx": order.index(current) if current is not None else 0,
        "board": [t["n"] if t is not None else None for t in view["board"]],
        "exchange_taken": view["exchange_taken"],
        "draft_pos": [p["draft_pos"] for p in pv],
        "blue": dealt["blue"],
        "red": dealt["red"],
        "hourglasses": view["hourglasses"],
        "end_after_round": view["hourglasses"] >= DATA["tiles"]["hourglasses"],
        "box": dealt["box"],
        "generic_left": view["generic_left"],
        "tokens_left": dict(view["tokens_left"]),
        "chits_left": max(0, DATA["tiles"]["chits"] - sum(p["chits"] for p in pv)),
        "boss": [b["id"] for b in view["boss"]],
        "decks": dealt["decks"],
        "discards": dealt["discards"],
        "players": players,
        "burrow": [t["n"] for t in view["burrow"]] if view["burrow"] else None,
        "snapshot": snapshot,
        "relaxed": view["relaxed"],
        "stored_now": list(view.get("stored_now") or []),
        "final": None,
        "turn_mark": turn_mark,
        "last_turn": (
            {
                "seat": last["seat"],
                "squares": list(last["squares"]),
                "points": last["points"],
                "goals": last["goals"],
            }
            if last
            else None
        ),
    }
    return state
