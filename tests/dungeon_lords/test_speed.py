"""What Dungeon Lords' fast paths for search rest on (docs/ai/dungeon-lords.md, "Speed"):
``apply`` copies with marshal, which would keep a tuple, a set or a number as a dict key
where core's JSON round trip changes or refuses it, so every state stays plain JSON; and
``play`` is ``apply`` in place without the per-turn record."""

from __future__ import annotations

import json
import random
from typing import Any

from engine import core
from engine.dungeon_lords import ai

G: Any = core.get("dungeon-lords")


def _strictly_json(x: Any) -> bool:
    if isinstance(x, dict):
        return all(type(k) is str and _strictly_json(v) for k, v in x.items())
    if isinstance(x, list):
        return all(_strictly_json(v) for v in x)
    return x is None or type(x) in (str, int, float, bool)


def test_every_state_stays_plain_json_and_play_matches_apply() -> None:
    for seats, options, seed in ((2, {}, 31), (3, {"expansion": False}, 32), (4, {}, 33)):
        st = G.new(seats, options, seed)
        pick = random.Random(seed)
        while not G.is_over(st):
            seat = pick.choice(sorted(G.to_act(st)))
            legal = G.legal_actions(st, seat)
            move = G.rollout_action(st, seat, pick) if pick.random() < 0.7 else pick.choice(legal)
            new, _ = G.apply(st, seat, move)
            assert _strictly_json(new) and json.loads(json.dumps(new)) == new
            played = core.copy_state(st)
            G.play(played, seat, move)
            assert _without_record(played) == _without_record(new)
            st = new


def _without_record(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("mark", "last")}


def test_apply_leaves_the_state_alone_and_refuses_like_core() -> None:
    st = G.new(2, {}, 5)
    seat = min(G.to_act(st))
    before = json.dumps(st)
    new, _ = G.apply(st, seat, G.legal_actions(st, seat)[0])
    assert json.dumps(st) == before and new is not st
    for bad in ("orders food", {"x": 1}, "keep nowhere"):
        try:
            G.apply(st, seat, bad)
        except core.IllegalAction:
            pass
        else:
            raise AssertionError(f"{bad!r} was accepted")
    assert json.dumps(st) == before


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
