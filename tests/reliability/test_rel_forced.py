"""Moves played for a player over many random games (issue 38): the bot's choice to
play a person's only move, or to wait for them, is the same in every pair of games
that another player cannot tell apart, so neither tells that player a secret.

Pairs are built as in the secrets suite (tests/reliability/test_rel_secrets.py): two
same-typed leaves of a real state swapped; a variant counts when it is a different
game that some other player sees exactly as the real one (``view(S', o) == view(S, o)``)
and the same seats are to act. For every seat to act whose move is the only one in
either game, ``tables.turns.only_move`` must answer the same for both: the same move
played, or none."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import core
from tables.forced import situations
from tables.turns import only_move, the_one_move
from tests.playout import random_game
from tests.reliability._util import keys, record, size
from tests.reliability.test_rel_secrets import leaves, safe, variants


def forced_states(game: core.Game, seed: int, want: int) -> list[dict[str, Any]]:
    """Up to ``want`` states of a random game where a seat to act has one move only."""
    out: list[dict[str, Any]] = []
    for state in random_game(game, seed, size(500, 3000)):
        if len(out) >= want:
            break
        if any(the_one_move(game, state, s) is not None for s in game.to_act(state)):
            out.append(state)
    return out


# Swaps no game reaches, found by the long run in Dungeon Drawers: its sheet lists the
# squares of its hidden treasures ("H6"), the same strings as the squares' contents
# ("wall"), and a swap of one with the other is no state at all; and "mark" only
# records the sheets as the turn began (for the board's marks of what changed), so a
# swap into it breaks the record, not a secret.
MIXED = {"dungeon-drawers": "treasures"}
RECORDS = {"dungeon-drawers": "mark"}


def unreachable(key: str, state: dict[str, Any], s2: dict[str, Any]) -> bool:
    other = dict(leaves(s2))
    swapped = [p for p, v in leaves(state) if other.get(p) != v]
    if any(RECORDS.get(key) in p for p in swapped):
        return True
    part = MIXED.get(key)
    return part is not None and len({part in p for p in swapped}) > 1


def decision(game: core.Game, state: dict[str, Any], seat: int) -> str | None:
    found = only_move(game, state, [seat])
    return None if found is None else game.format(found[1])


@pytest.mark.parametrize("key", keys())
def test_a_move_played_for_a_player_tells_no_other_player_anything(key: str) -> None:
    game = core.get(key)
    rnd = random.Random(f"forced:{key}")
    games, per_game, tries = size(3, 10), size(4, 8), size(20, 60)
    forced = played = pairs = 0
    problems: list[str] = []
    for g in range(games):
        for state in forced_states(game, 300 + g, per_game):
            acting = sorted(game.to_act(state))
            mine = {s: decision(game, state, s) for s in acting}
            forced += sum(1 for s in acting if the_one_move(game, state, s) is not None)
            played += sum(1 for d in mine.values() if d is not None)
            for s2 in variants(state, rnd, tries, key):
                if safe(game.to_act, s2) != set(acting) or unreachable(key, state, s2):
                    continue
                for seat in acting:
                    others = [o for o in range(state["seats"]) if o != seat]
                    if not any(safe(game.view, s2, o) == game.view(state, o) for o in others):
                        continue
                    if situations(game, s2, seat, len(others)) is None or not safe(
                        game.legal_actions, s2, seat
                    ):
                        continue  # a swap no game reaches: no deal from its views, or no move for a seat to act
                    try:
                        theirs = decision(game, s2, seat)
                    except Exception:  # noqa: BLE001 - the swap broke the game's own invariants
                        continue
                    pairs += 1
                    if theirs != mine[seat]:
                        problems.append(f"seat {seat}: {mine[seat]!r} played in one, {theirs!r} in the other")
    record(
        "forced_moves",
        game=key,
        states=forced,
        played_for_a_player=played,
        pairs_compared=pairs,
        told=len(problems),
        examples=problems[:3],
    )
    assert not problems, f"{key}: {len(problems)} of {pairs} pairs differ, e.g. {problems[:3]}"
