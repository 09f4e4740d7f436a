"""What Monster Inn's fast paths for search rest on (docs/ai/monster-inn.md, "Speed"):
``apply`` copies with marshal, which would keep a tuple, a set or a number as a dict key
where core's JSON round trip changes or refuses it, so every state must stay plain JSON;
and a refused move leaves the state alone and is refused as core refuses it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import core
from tests.monster_inn.helpers import GAME


def _strictly_json(x: Any) -> bool:
    if isinstance(x, dict):
        return all(type(k) is str and _strictly_json(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_strictly_json(v) for v in x)
    return x is None or type(x) in (str, int, float, bool)


@pytest.mark.parametrize("players,seed,open_treasure", [(3, 31, False), (4, 32, True), (5, 33, False)])
def test_every_state_stays_plain_json(players: int, seed: int, open_treasure: bool) -> None:
    st = GAME.new(players, {"open_treasure": open_treasure}, seed)
    pick = random.Random(seed)
    while not GAME.is_over(st):
        seat = min(GAME.to_act(st))
        legal = GAME.legal_actions(st, seat)
        move = GAME.ai_action(st, seat) if pick.random() < 0.5 else pick.choice(legal)
        before = json.dumps(st)
        new, _ = GAME.apply(st, seat, move)
        assert json.dumps(st) == before and new is not st
        assert _strictly_json(new) and core.copy_state(new) == new
        st = new


def test_a_refused_move_leaves_the_state_alone_and_is_refused_like_core() -> None:
    st = GAME.new(3, None, 5)
    seat = min(GAME.to_act(st))
    before = json.dumps(st)
    for bad_seat, bad in (
        (seat, "bonus gold"),
        (seat, "support 1 gold"),
        (seat, {"x": 1}),
        ((seat + 1) % 3, "leave"),
    ):
        with pytest.raises(core.IllegalAction):
            GAME.apply(st, bad_seat, bad)
        assert json.dumps(st) == before
