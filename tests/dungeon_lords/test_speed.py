"""What Dungeon Lords' fast paths for search rest on (docs/ai/dungeon-lords.md, "Speed"):
``play`` is ``apply`` in place without the per-turn record, and the rollout is the heuristic
player on a smaller view. (``apply``'s marshal copy: tests/test_plain_copy.py.)"""

from __future__ import annotations

import random
from typing import Any

from engine import core
from engine.dungeon_lords import ai

G: Any = core.get("dungeon-lords")


def test_play_matches_apply_but_for_the_record() -> None:
    for seats, options, seed in ((2, {}, 31), (3, {"expansion": False}, 32), (4, {}, 33)):
        st = G.new(seats, options, seed)
        pick = random.Random(seed)
        while not G.is_over(st):
            seat = pick.choice(sorted(G.to_act(st)))
            legal = G.legal_actions(st, seat)
            move = G.rollout_action(st, seat, pick) if pick.random() < 0.7 else pick.choice(legal)
            new, _ = G.apply(st, seat, move)
            played = core.copy_state(st)
            G.play(played, seat, move)
            assert _without_record(played) == _without_record(new)
            st = new


def _without_record(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("mark", "last")}


def test_the_rollout_moves_and_dice_are_choose_s_on_the_full_view() -> None:
    # The rollout builds only the view entries the heuristic reads and skips the legal moves
    # where it reads none: the same move and the same draws from ``rnd``, in every phase.
    phases, n = set(), 0
    for seats, seed in ((2, 41), (4, 42)):
        st = G.new(seats, {}, seed)
        pick = random.Random(seed)
        while not G.is_over(st):
            seat = pick.choice(sorted(G.to_act(st)))
            n += 1
            fast, full = random.Random(n), random.Random(n)
            move = ai.rollout(st, seat, fast)
            assert move == ai.choose(G.view(st, seat), G.legal_actions(st, seat), full)
            assert fast.random() == full.random()
            phases.add(st["phase"])
            st, _ = G.apply(st, seat, move if pick.random() < 0.8 else pick.choice(G.legal_actions(st, seat)))
    assert {"orders", "festival", "plan", "production", "resolve"} <= phases
