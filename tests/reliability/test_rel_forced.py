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

import json
import random
import zlib
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


# ---- the check made cheaper decides as before (the hot-path brief) --------------------------
def _dealt_all_first(
    game: core.Game, state: dict[str, Any], seat: int, holds: Any
) -> tuple[bool, list[dict[str, Any]]]:
    """``forced.same_everywhere`` as it was before it dealt lazily (main at 8c205d0),
    copied whole, seed included, so that a change to the product cannot change the
    reference: every situation dealt first, then checked. Returns the decision and the
    situations dealt, in order."""
    others = [s for s in range(state["seats"]) if s != seat]
    try:
        views = [game.view(state, o) for o in others]
        public = json.dumps(game.view(state, None), sort_keys=True, default=str)
        rnd = random.Random(zlib.crc32(f"{game.key}:{seat}:{public}".encode()))
        dealt = [game.sample(views[i % len(views)], rnd) for i in range(128)] if others else []
    except Exception:  # noqa: BLE001 - as the reference did: ask the player
        return False, []
    for other in dealt:
        try:
            if seat not in game.to_act(other) or not holds(other):
                return False, dealt
        except Exception:  # noqa: BLE001 - as the reference did
            return False, dealt
    return True, dealt


def _seen(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True, default=str)


def _questions(game: core.Game, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The house rule's question (the real only move stays the only one), and one asked
    of every seat to act in every game (the same moves to choose from), so Dungeon Lair,
    whose random games meet no only move, is checked too; each is "no" at varying depths."""
    one = the_one_move(game, state, seat)
    text = None if one is None else game.format(one)
    moves = sorted(game.format(a) for a in game.legal_actions(state, seat))

    def forced(other: dict[str, Any]) -> bool:
        move = the_one_move(game, other, seat)
        return move is not None and game.format(move) == text

    def same_moves(other: dict[str, Any]) -> bool:
        return sorted(game.format(a) for a in game.legal_actions(other, seat)) == moves

    return {"forced": forced, "same moves": same_moves} if one is not None else {"same moves": same_moves}


def _states(game: core.Game, seed: int, every: int, want: int) -> list[dict[str, Any]]:
    """Every ``every``-th state of a random game, and every state with an only move."""
    rnd = random.Random(seed)
    state = game.new(game.min_players + seed % (game.max_players - game.min_players + 1), None, seed)
    out: list[dict[str, Any]] = []
    for i in range(3000):
        if game.is_over(state) or len(out) >= want:
            break
        acting = sorted(game.to_act(state))
        if i % every == 0 or any(the_one_move(game, state, s) is not None for s in acting):
            out.append(state)
        seat = rnd.choice(acting)
        state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    return out


@pytest.mark.parametrize("key", keys())
def test_the_cheaper_check_decides_as_dealing_every_situation_first(key: str) -> None:
    """The check deals one situation at a time and stops at the first "no", and keeps
    its decisions: for the same state and seat (the same seed) it must answer exactly as
    dealing all ``SAMPLES`` situations first did, the first time and when asked again."""
    from tables import forced as rule

    game = core.get(key)
    compared: dict[bool, int] = {True: 0, False: 0}
    problems: list[str] = []
    budget = size(60, 600)  # questions a game (Dungeon Lords' deals are the slowest)
    for g in range(size(3, 12)):
        for state in _states(game, 500 + g, size(25, 10), size(12, 60)):
            for seat in sorted(game.to_act(state)):
                if sum(compared.values()) >= budget:
                    break
                for name, holds in _questions(game, state, seat).items():
                    before, dealt = _dealt_all_first(game, state, seat, holds)
                    seen: list[str] = []

                    def watched(other: dict[str, Any], holds: Any = holds, seen: list[str] = seen) -> bool:
                        seen.append(_seen(other))
                        return bool(holds(other))

                    now = rule.same_everywhere(game, state, seat, watched)
                    compared[before] += 1
                    if now != before:
                        problems.append(f"game {g}, seat {seat}, {name}: {before} before, {now} now")
                    if seen != [
                        _seen(d) for d in dealt[: len(seen)]
                    ]:  # the same situations, in the same order
                        problems.append(f"game {g}, seat {seat}, {name}: other situations dealt")
                    if name == "forced":  # the decision as asked, kept: the same first and again
                        one = the_one_move(game, state, seat)
                        rule.forget()
                        first = rule.tells_nothing(game, state, seat, one, the_one_move)
                        again = rule.tells_nothing(game, state, seat, one, the_one_move)
                        if not first == again == before:
                            problems.append(
                                f"game {g}, seat {seat}: {before} before, {first} now, {again} again"
                            )
    record("forced_cheaper", game=key, yes=compared[True], no=compared[False], differ=len(problems))
    assert compared[True] and compared[False], f"{key}: both answers must be met, met {compared}"
    assert not problems, f"{key}: {len(problems)} decisions differ, e.g. {problems[:3]}"
