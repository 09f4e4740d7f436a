"""The searching player's hooks for Dungeon Decorators (issue 30): evaluate, the fast
rollout, candidates and match_stats; a searched move from a view alone."""

from __future__ import annotations

import copy
import random

from engine import search
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import ai as AI


def _mid_game(seed: int, moves: int = 80) -> dict:
    state = GAME.new(2, None, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(
            state, seat, AI.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rnd)
        )
    return state


def test_the_rollout_offers_no_tile_stored_this_build_phase() -> None:
    """The search's rollout starts from any state the tree reached, also one where a tile
    that fits was stored this Build Phase: "placed into your dungeon on any of your later
    Build Phases" (revision 4). It offered that tile again (the searching player's move
    then failed and the easy player moved instead), and discarded into the box when
    another new tile still fitted ("none of your tiles fits anywhere")."""
    from tests.playout import random_game

    checked = 0
    for seed in range(12):
        for state in random_game(GAME, seed):
            if state["phase"] != "build":
                continue
            # Late in the game (two hourglasses out) the rollout lays stored tiles too.
            late = copy.deepcopy(state)
            late["hourglasses"] = max(2, late["hourglasses"])
            for seat in GAME.to_act(state):
                for s in (state, late):
                    move = AI.rollout(s, seat, random.Random(seed))
                    assert move in GAME.legal_actions(s, seat), (seed, move, s["stored_now"])
                    checked += 1
    assert checked >= 20, checked


def test_a_hard_search_finds_its_playouts_legal_where_the_rollout_once_discarded() -> None:
    """A position (a random 2-player game, seed 4001, the bench's hint positions) where the
    hard search's playouts reached a build with storage full and the first new tile fitting
    nowhere: the rollout discarded it into the box although another tile still fitted
    ("none of your tiles fits anywhere"), and the search failed over to the easy player."""
    pick = random.Random(4001)
    state = GAME.new(2, None, 4001)
    states = [state]
    while not GAME.is_over(state):
        seat = pick.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, pick.choice(GAME.legal_actions(state, seat)))
        states.append(state)
    states = states[:-1]
    state = states[:: max(1, len(states) // 10)][9]
    seat = min(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    assert search.choose(GAME, GAME.view(state, seat), legal, random.Random(0), "hard") in legal


def test_the_rollout_plays_only_legal_moves_to_the_end() -> None:
    for players in (2, 3, 4):
        state = GAME.new(players, None, seed=players)
        rnd = random.Random(players)
        while not GAME.is_over(state):
            seat = min(GAME.to_act(state))
            move = AI.rollout(state, seat, rnd)
            assert move in GAME.legal_actions(state, seat), (state["phase"], move)
            state, _ = GAME.apply(state, seat, move)


def test_evaluate_rises_with_a_lead() -> None:
    state = _mid_game(3)
    v = [AI.evaluate(state, s) for s in (0, 1)]
    assert all(0.0 < x < 1.0 for x in v)
    # "Goal cards ... score points": twenty more points for seat 0 is better for it, worse for seat 1.
    ahead = copy.deepcopy(state)
    ahead["players"][0]["score"] += 20
    assert AI.evaluate(ahead, 0) > v[0] + 0.2
    assert AI.evaluate(ahead, 1) < v[1] - 0.2


def test_evaluate_counts_the_goals_in_hand() -> None:
    state = _mid_game(7, 60)
    assert state["players"][0]["hand"] and state["hourglasses"] < 3
    base = AI.projected_scores(state, 0)[0]
    empty = copy.deepcopy(state)
    empty["players"][0]["hand"] = []
    assert AI.projected_scores(empty, 0)[0] < base


def test_candidates_are_legal_and_keep_the_heuristic_choice() -> None:
    state = GAME.new(2, None, seed=4)
    rnd = random.Random(4)
    seen = 0
    while not GAME.is_over(state) and seen < 8:
        seat = min(GAME.to_act(state))
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        if state["phase"] == "build" and len(legal) > 20:
            cand = AI.candidates(view, legal, random.Random(1))
            assert cand and all(a in legal for a in cand) and len(cand) < len(legal)
            assert AI.choose(view, legal, random.Random(random.Random(1).random())) in cand
            seen += 1
        state, _ = GAME.apply(state, seat, AI.choose(view, legal, rnd))
    assert seen


def test_a_searched_move_is_legal_and_stats_are_counted() -> None:
    state = _mid_game(5, 60)
    seat = min(GAME.to_act(state))
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    move = search.search(GAME, view, legal, random.Random(2), iterations=6)
    assert move in legal
    log = [(0, {"a": "arch", "from": "AO40", "to": "AO40", "rot": 1}), (1, {"a": "done"})]
    stats = AI.match_stats(state, 0, log)
    assert stats["architect"] == 1.0
    assert stats["goals"] == float(len(state["players"][0]["scored"]))
    assert stats["stored"] == float(len(state["players"][0]["storage"]))


def test_hard_judges_paired_playouts_at_the_next_turn_and_normal_is_unchanged() -> None:
    params = GAME.search_params()
    assert (params.method, params.depth, params.rollout_moves, params.iterations) == ("tree", 1, 6, 75)
    assert params.hard == {"method": "playouts", "horizon": "turn"}
    state = _mid_game(5, 60)
    seat = min(GAME.to_act(state))
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    report = search.Report()
    move = search.choose(GAME, view, legal, random.Random(3), "hard", iterations=12, report=report)
    assert move in legal and report.visits >= 1  # paired rounds: every root move on the same samples
