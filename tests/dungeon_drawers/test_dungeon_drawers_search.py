"""The searching player's hooks in engine/dungeon_drawers/ai.py (issue 30): the copy-free view
of rollouts decides as the real view does, evaluate stays in [0, 1] and ranks a better dungeon
higher, and the searcher turns its card over rather than erasing it."""

from __future__ import annotations

import random

from engine import search
from engine.dungeon_drawers import ai
from tests.dungeon_drawers.helpers import GAME


def test_rollouts_choose_from_the_quick_view_as_from_the_view() -> None:
    state = GAME.new(3, None, 21)
    moves = 0
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        full = ai.choose(GAME.view(state, seat), [], random.Random(moves))
        assert ai.choose(ai.quick_view(state, seat), [], random.Random(moves)) == full
        state, _ = GAME.apply(state, seat, full)
        moves += 1
    assert moves > 100


def test_evaluate_is_a_chance_and_prefers_the_stronger_dungeon() -> None:
    state = GAME.new(2, None, 22)
    while state["phase"] != "defend":
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    values = [ai.evaluate(state, s) for s in (0, 1)]
    assert all(0.0 <= v <= 1.0 for v in values)
    better = max((0, 1), key=lambda s: ai.projected_score(state, s))
    assert values[better] > 0.5 > values[1 - better]


def test_the_searcher_turns_its_card_over_instead_of_erasing_it() -> None:
    # Rulebook p.5 lets a player erase the card still face up; a searcher never gains by it, and
    # when it searched Erase it erased and reinstalled the same card over and over.
    state = GAME.new(2, None, 23)
    asked = 0
    while state["phase"] == "build" and asked < 4:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        if seat == 0 and {a["t"] for a in legal} == {"done", "erase"}:
            got = search.search(GAME, GAME.view(state, 0), legal, random.Random(asked), iterations=24)
            assert got == {"t": "done"}
            asked += 1
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    assert asked == 4
