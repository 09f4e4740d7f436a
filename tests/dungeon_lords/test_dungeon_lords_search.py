"""Dungeon Lords and the shared search (issue 30): evaluate, the rollout move, the moves
worth searching, match figures, and a searched move on a dealt state."""

from __future__ import annotations

import random
from typing import Any

from engine import core, search
from engine.dungeon_lords import ai

G: Any = core.get("dungeon-lords")


def _play_to(n: int, seed: int, stop: Any) -> dict[str, Any]:
    st = G.new(n, {}, seed)
    while not stop(st):
        seat = min(G.to_act(st))
        st, _ = G.apply(st, seat, G.ai_action(st, seat))
    return st  # type: ignore[no-any-return]


def test_evaluate_favours_the_lord_ahead_on_the_final_scoring() -> None:
    st = _play_to(2, 3, lambda s: s["year"] == 2 and s["phase"] == "orders")
    before = [ai.evaluate(st, s) for s in (0, 1)]
    assert all(0.0 < v < 1.0 for v in before)
    # A conquered tile costs 2 points ("-2 points for each conquered tile"): seat 0 falls back.
    cell = next(c for c, t in st["players"][0]["grid"].items() if not t["c"])
    st["players"][0]["grid"][cell]["c"] = True
    assert ai.evaluate(st, 0) < before[0]
    assert ai.evaluate(st, 1) > before[1]


def test_search_moves_keep_a_few_legal_orders_and_leave_other_choices_whole() -> None:
    st = _play_to(2, 4, lambda s: s["phase"] == "orders" and s["round"] == 2)
    v = G.view(st, 0)
    legal = G.legal_actions(st, 0)
    got = ai.search_moves(v, legal, random.Random(1))
    assert len(legal) > 100 and 0 < len(got) <= 16 and set(got) <= set(legal)
    st = _play_to(2, 4, lambda s: s["phase"] == "resolve")
    seat = min(G.to_act(st))
    legal = G.legal_actions(st, seat)
    assert ai.search_moves(G.view(st, seat), legal, random.Random(1)) == legal


def test_the_rollout_move_is_legal_and_a_search_returns_a_legal_move() -> None:
    st = _play_to(2, 5, lambda s: s["phase"] == "resolve" and len(G.legal_actions(s, min(G.to_act(s)))) > 1)
    seat = min(G.to_act(st))
    legal = G.legal_actions(st, seat)
    assert ai.rollout(st, seat, random.Random(2)) in legal
    move = search.search(G, G.view(st, seat), legal, random.Random(3), iterations=4)
    assert move in legal


def test_match_stats_count_the_seats_own_figures() -> None:
    st = _play_to(2, 6, G.is_over)
    log = [(0, "hire troll"), (1, "hire goblin"), (0, "hire none"), (0, "hire vampire")]
    stats = ai.match_stats(st, 0, log)
    assert stats["hired"] == 2
    assert stats["points"] == G.result(st).scores[0]
    assert stats["conquered"] == sum(
        1 for t in st["players"][0]["grid"].values() if t["c"] and t.get("imp") != "secret"
    ) + sum(1 for r in st["players"][0].get("rented", []) if r["c"])


def test_the_rollout_plays_what_the_heuristic_plays_on_the_full_view() -> None:
    # The rollout's lean view leaves out only what the renderer reads: same moves, same dice.
    st = G.new(3, {}, 8)
    checked = 0
    while not G.is_over(st):
        seat = min(G.to_act(st))
        legal = G.legal_actions(st, seat)
        full = ai.choose(G.view(st, seat), legal, random.Random(checked))
        assert ai.rollout(st, seat, random.Random(checked)) == full
        st, _ = G.apply(st, seat, full)
        checked += 1
    assert checked > 100
