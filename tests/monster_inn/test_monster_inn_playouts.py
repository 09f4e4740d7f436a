"""Random legal games from random seeds: they end, and the invariants hold on every move."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import State
from engine.monster_inn.data import CARDS
from tests.monster_inn.helpers import GAME, total_treasure
from tests.playout import random_playout, replay


class Invariants:
    """Checked after every move of a playout."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.round = 1

    def __call__(self, s: State) -> None:
        n = self.players
        assert total_treasure(s) == 50
        assert min(s["supply"].values()) >= 0 and all(p["gold"] >= 0 and p["gem"] >= 0 for p in s["players"])
        held = [len(p["monsters"]) + len(p["humanoids"]) for p in s["players"]]
        # Every card is somewhere, exactly once.
        places = s["deck"] + s["inn"] + s["box"]
        places += [c for p in s["players"] for c in p["humanoids"]]
        places += [m["card"] for p in s["players"] for m in p["monsters"]]
        assert sorted(places) == sorted(CARDS)
        # Exactly one creature per player per round: all finished rounds, plus this one so far.
        assert all(t in (0, 1) for t in s["taken"])
        if s["over"]:
            assert held == [s["round"]] * n
        else:
            assert held == [s["round"] - 1 + t for t in s["taken"]]
            assert len(s["inn"]) == len(s["in_round"]) or s["pending"] is not None
            assert len(s["inn"]) == n - sum(s["taken"])
            assert s["rng"]["n"] <= 2  # only setup shuffles and draws the start player
        assert s["round"] >= self.round
        self.round = s["round"]
        if s["pool"]["n"] == 0:
            assert s["pool"]["type"] is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([3, 4, 5]), open_t=st.booleans())
def test_random_legal_play_always_ends_with_invariants(seed: int, players: int, open_t: bool) -> None:
    opts = {"open_treasure": open_t}
    state, log = random_playout(GAME, players, seed, opts, check=Invariants(players))
    assert GAME.is_over(state)
    # The deck is exhausted as the rules say: empty for 4-5, one card to the box for 3.
    assert state["deck"] == []
    assert len(state["box"]) == (1 if players == 3 else 0)
    assert state["round"] == {3: 13, 4: 10, 5: 8}[players]
    assert json.loads(json.dumps(state)) == state
    assert replay(GAME, players, seed, opts, log) == state
    r = GAME.result(state)
    assert sorted(s for g in r.ranking for s in g) == list(range(players))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([3, 4, 5]))
def test_ai_games_end_with_invariants(seed: int, players: int) -> None:
    s = GAME.new(players, None, seed)
    check = Invariants(players)
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        action = GAME.ai_action(s, seat)
        assert action in GAME.legal_actions(s, seat)
        s, _ = GAME.apply(s, seat, action)
        check(s)
