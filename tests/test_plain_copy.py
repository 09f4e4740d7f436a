"""Games whose ``apply`` copies states with marshal (``Game.plain_copy``, issue 30's engine
speed): marshal would keep a tuple, a set or a number as a dict key where core's JSON round trip
changes or refuses it, so every state of such a game must stay strictly plain JSON, and ``apply``
must leave the state it was given alone, also when it refuses a move."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import core

PLAIN = [key for key in core.available() if core.get(key).plain_copy]


def strictly_json(x: Any) -> bool:
    """Only dicts with string keys, lists, strings, numbers, booleans and None."""
    if isinstance(x, dict):
        return all(type(k) is str and strictly_json(v) for k, v in x.items())
    if isinstance(x, list):
        return all(strictly_json(v) for v in x)
    return x is None or type(x) in (str, int, float, bool)


def test_some_games_copy_with_marshal() -> None:
    assert PLAIN  # else this file tests nothing


@pytest.mark.parametrize("more", [0, 1, 2])
@pytest.mark.parametrize("key", PLAIN)
def test_every_state_stays_plain_json(key: str, more: int) -> None:
    game = core.get(key)
    players, seed = min(game.min_players + more, game.max_players), 31 + more
    state = game.new(players, None, seed)
    pick = random.Random(seed)
    while not game.is_over(state):
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        move = game.ai_action(state, seat) if pick.random() < 0.5 else pick.choice(legal)
        before = json.dumps(state)
        new, _ = game.apply(state, seat, move)
        assert json.dumps(state) == before and new is not state
        assert strictly_json(new) and core.copy_state(new) == new
        state = new


@pytest.mark.parametrize("key", PLAIN)
def test_a_refused_move_leaves_the_state_alone(key: str) -> None:
    game = core.get(key)
    state = game.new(game.min_players, None, 5)
    seat = min(game.to_act(state))
    waiting = [s for s in range(state["seats"]) if s not in game.to_act(state)]
    bad_moves: list[tuple[int, Any]] = [(seat, {"x": 1}), (seat, "no such move at all")]
    bad_moves += [(waiting[0], game.legal_actions(state, seat)[0])] if waiting else []
    before = json.dumps(state)
    for bad_seat, bad in bad_moves:
        with pytest.raises(core.IllegalAction):
            game.apply(state, bad_seat, bad)
        assert json.dumps(state) == before
