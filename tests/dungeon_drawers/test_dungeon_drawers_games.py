"""Whole games: random and AI games end with the invariants kept; AI beats random play."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dungeon_drawers import board
from engine.dungeon_drawers.data import CARDS, HEARTS, level, track_size
from tests.dungeon_drawers.helpers import GAME
from tests.playout import random_playout, replay


def check_invariants(state: dict) -> None:
    n = state["seats"]
    players = state["players"]
    for p in players:
        sheet = p["sheet"]
        grid = sheet["grid"]
        # build laws hold at every moment
        walls = board.wall_mask(sheet)
        assert board.all_accessible(walls)
        for c, k in grid.items():
            if k in board.BLOCKER_KINDS:
                assert all(grid.get(nb) not in board.BLOCKER_KINDS for nb in board.NEIGHBOURS[c])
        assert len(set(sheet["treasures"])) == len(sheet["treasures"])
        for t, boxes in sheet["imp"].items():
            assert 0 <= boxes <= track_size(t)
        assert set(sheet["crossed"]) <= {c for c, k in grid.items() if k in board.BLOCKER_KINDS}
        assert 0 <= p["hero"]["hearts"] <= HEARTS
        if p["path"] is not None and state["phase"] != "path":
            assert board.path_problem(sheet, p["path"]) is None
        assert len(p["on"]) <= 2
        if state["phase"] in ("defend", "over"):
            assert len(p["hand"]) <= level("hand", sheet["imp"]["hand"])
    # every card is somewhere exactly once (or boxed)
    where = list(state["deck"]) + list(state["discard"]) + list(state["display"])
    for p in players:
        if state["phase"] in ("build", "path"):
            where += p["taken"] + ([p["pending"]["card"]] if p["pending"] else [])
        else:
            where += p["hand"] + p["deck"] + [h["card"] for h in p["on"]]
        for h in p["on"]:
            assert h["by"] != players.index(p)
    assert len(where) == len(set(where))
    assert len(where) + state["boxed"] == len(CARDS)
    if state["phase"] in ("path", "defend", "over"):
        assert all(len(p["taken"]) == 14 for p in players)
    assert state["phase"] != "over" or all(p["hero"]["state"] != "in" for p in players)
    assert 1 <= len(GAME.to_act(state)) or state["phase"] == "over"
    assert n == len(players)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_random_games_end_with_invariants(seed: int, players: int) -> None:
    state, log = random_playout(GAME, players, seed, check=check_invariants)
    assert GAME.is_over(state)
    res = GAME.result(state)
    assert sorted(s for g in res.ranking for s in g) == list(range(players))
    assert res.scores == [sum(b.values()) for b in res.breakdown]
    assert replay(GAME, players, seed, None, log) == state


def play(seed: int, ai_seats: set[int], players: int = 2) -> dict:
    state = GAME.new(players, None, seed)
    pick = random.Random(seed)
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        if seat in ai_seats:
            action = GAME.ai_action(state, seat)
        else:
            action = pick.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    return state


def test_ai_beats_random_play() -> None:
    wins = 0
    games = 10
    for seed in range(games):
        ai = seed % 2
        state = play(seed, {ai})
        scores = GAME.result(state).scores
        wins += scores[ai] > scores[1 - ai]
    assert wins >= 8, f"the AI won only {wins} of {games} games against random play"


def test_ai_games_end_for_every_player_count() -> None:
    for players in (2, 3, 4):
        state = play(50 + players, set(range(players)), players)
        assert GAME.is_over(state)
        check_invariants(state)
