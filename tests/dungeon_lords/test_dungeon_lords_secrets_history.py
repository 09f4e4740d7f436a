"""Issue 20 item 1: no public history line (/history, /replay) and no public event names
what the table cannot see.

The test plays full games and, at every sampled moment, tries every legal move of a seat
to act. Two different moves after which the public view is the SAME are moves the table
cannot tell apart (a secret order, the Trap Card given back, a battle plan before the
Combat Card is turned): their public notation and their public events must then be the
same too, or the history would tell what the board keeps hidden - as 'return stone' did.
A move that changes the public view (a tunnel dug, a trap sprung in the combat log) is
public, and its notation may say so."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core import IllegalAction

from .helpers import G


def _public(events: list[Any]) -> list[str]:
    return [e.text for e in events if e.seat is None]


def _key(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def _check_moment(state: dict[str, Any], seat: int, rnd: random.Random, problems: list[str]) -> int:
    legal = G.legal_actions(state, seat)
    moves = legal if len(legal) <= 30 else rnd.sample(legal, 30)
    by_view: dict[str, tuple[str, str, list[str]]] = {}
    pairs = 0
    for a in moves:
        try:
            after, ev = G.apply(state, seat, a)
        except IllegalAction:
            continue
        public = _public(ev)
        # From the turning of a Combat Card on, the battles are played in the open: what follows
        # (and can outlive the view when the Year ends) is part of what the table sees.
        cut = next((i for i, x in enumerate(public) if x.startswith("Combat round ")), len(public))
        k = _key(G.view(after, None)) + json.dumps(public[cut:])
        shown = (a, G.public_format(state, seat, a), public[:cut])
        if k in by_view:
            pairs += 1
            other = by_view[k]
            if other[1:] != shown[1:]:
                problems.append(f"{state['phase']}: {other} vs {shown}")
        else:
            by_view[k] = shown
    return pairs


@pytest.mark.parametrize("players", [2, 3, 4])
def test_moves_the_table_cannot_tell_apart_look_the_same_in_history_and_events(players: int) -> None:
    rnd = random.Random(players)
    problems: list[str] = []
    pairs = 0
    phases: set[str] = set()
    for game in range(2):
        s = G.new(players, None, 300 + 10 * players + game)
        step = 0
        while not G.is_over(s):
            seat = min(G.to_act(s))
            if (
                step % 3 == 0
                or s["phase"] in ("plan", "festival", "pet_pass", "pet_discard")
                or ((s["task"] or {}).get("type") == "return")
            ):
                n = _check_moment(s, seat, rnd, problems)
                if n:
                    phases.add(s["phase"] if s["phase"] != "resolve" else s["task"]["type"])
                pairs += n
            s, _ = G.apply(
                s, seat, G.ai_action(s, seat) if step % 2 else rnd.choice(G.legal_actions(s, seat))
            )
            step += 1
    assert not problems, problems[:5]
    # The comparison reached the secret moves: the orders, the battle plans and the festival bids.
    assert pairs > 100 and {"orders", "plan"} <= phases, (pairs, phases)


def test_year_two_trap_returns_are_compared_and_kept_secret() -> None:
    problems: list[str] = []
    rnd = random.Random(1)
    found = 0
    for seed in range(40, 60):
        s = G.new(2, None, seed)
        while not G.is_over(s) and found < 3:
            seat = min(G.to_act(s))
            if (s["task"] or {}).get("type") == "return" and len(set(s["players"][seat]["traps"])) > 1:
                found += 1
                assert _check_moment(s, seat, rnd, problems) > 0
            s, _ = G.apply(s, seat, G.ai_action(s, seat))
        if found >= 3:
            break
    assert found >= 3 and not problems, problems[:3]
