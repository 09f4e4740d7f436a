"""Random full games with invariants, notation, bad input, secrets and the AI."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.dungeon_lords import board
from render import dungeon_lords as render
from tests.playout import random_playout, replay

from .helpers import G, act, new


def invariants(s: dict) -> None:
    ev = board.EVIL
    for p in s["players"]:
        assert p["gold"] >= 0 and p["food"] >= 0 and p["imps"] >= 0 and 0 <= p["used"] <= p["imps"] + 1
        assert ev["min"] <= p["evil"] <= ev["max"]
        grid = p["grid"]
        assert board.ENTRANCE in grid and len(grid) <= 20
        assert all(board.is_cell(c) for c in grid)
        assert len(p["inacc"]) <= 2
    if s["phase"] == "orders":
        view = G.view(s, None)
        assert "private" not in view


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3, 4]))
def test_random_games_end_with_invariants(seed: int, n: int) -> None:
    state, log = random_playout(G, n, seed, check=invariants)
    assert G.is_over(state)
    r = G.result(state)
    assert len(r.scores) == n and sorted(x for g in r.ranking for x in g) == list(range(n))
    assert all(r.scores[s] == sum(r.breakdown[s].values()) for s in range(n))


def test_replay_with_options() -> None:
    opts = {"inaccessible": "random"}
    state, log = random_playout(G, 3, 77, options=opts)
    assert replay(G, 3, 77, opts, log) == state
    assert json.loads(json.dumps(state)) == state


def test_every_legal_action_round_trips_and_describes() -> None:
    s = G.new(2, None, 5)
    pick = random.Random(1)
    for _ in range(300):
        if G.is_over(s):
            break
        seat = min(G.to_act(s))
        acts = G.legal_actions(s, seat)
        for a in acts:
            assert G.parse(G.format(a)) == a
            assert len(G.describe(s, a)) <= 80
        s, _ = G.apply(s, seat, pick.choice(acts))


@pytest.mark.parametrize(
    "text", ["", "fly", "orders food", "fight Z9", "fight C1 trap", "fight C1 send dragon dragon++"]
)
def test_bad_input_is_one_sentence(text: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        G.parse(text)
    assert exc.value.sentence.endswith(".")


def test_illegal_moves_change_nothing() -> None:
    s = new(4)
    for p in s["players"]:
        p["inacc"] = []
    before = json.dumps(s)
    for text in ("orders food food mine", "keep food", "dig B2", "orders food mine dig extra"):
        with pytest.raises(IllegalAction):
            G.apply(s, 0, text)
    with pytest.raises(IllegalAction):
        G.apply(s, 0, "orders fly mine dig")
    assert json.dumps(s) == before
    s["players"][0]["inacc"] = ["food", "mine"]
    with pytest.raises(IllegalAction, match="inaccessible"):
        G.apply(s, 0, "orders food rep dig")


def test_not_your_turn_and_game_over() -> None:
    s = new(4)
    s["players"][0]["inacc"] = []
    s = act(s, 0, "orders food mine dig")
    with pytest.raises(IllegalAction, match="not your turn"):
        G.apply(s, 0, "orders food mine dig")


def test_private_text_shows_only_own_secrets() -> None:
    s = new(2)
    s["players"][0]["traps"] = ["stone"]
    s["players"][1]["traps"] = ["meal"]
    assert "Rolling Stone" in G.private_text(s, 0) and "Poisoned Meal" not in G.private_text(s, 0)
    v1 = G.view(s, 1)
    assert v1["private"]["traps"] == ["meal"] and v1["players"][0]["traps"] == 1


def test_public_view_same_for_different_trap_decks_and_combat_cards() -> None:
    a = new(3, seed=8)
    b = json.loads(json.dumps(a))
    b["trap_deck"].reverse()
    b["decks"]["1"]["cards"].reverse()
    b["decks"]["1"]["specials"] = ["harvest"]
    assert G.view(a, None) == G.view(b, None)
    assert render.render(G.view(a, None)) == render.render(G.view(b, None))


def _play(seed: int, ai_seats: set[int]) -> list[int]:
    s = G.new(2, None, seed)
    pick = random.Random(seed)
    while not G.is_over(s):
        seat = min(G.to_act(s))
        a = G.ai_action(s, seat) if seat in ai_seats else pick.choice(G.legal_actions(s, seat))
        s, _ = G.apply(s, seat, a)
    return G.result(s).scores


def test_ai_beats_random_play_most_of_the_time() -> None:
    wins = 0
    for seed in range(8):
        ai = seed % 2
        scores = _play(seed, {ai})
        wins += scores[ai] > scores[1 - ai]
    assert wins >= 6


def test_ai_actions_are_legal_for_all_player_counts() -> None:
    for n in (3, 4):
        s = G.new(n, None, 21)
        while not G.is_over(s):
            seat = min(G.to_act(s))
            a = G.ai_action(s, seat)
            assert a in G.legal_actions(s, seat) or G.parse(a) == a
            s, _ = G.apply(s, seat, a)
