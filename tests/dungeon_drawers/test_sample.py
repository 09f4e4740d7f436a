"""sample(view, rnd) (issue 30): a complete state dealt from one seat's view, for search.

What a seat cannot see (docs/rules/dungeon-drawers.md and views.py): the build deck,
the opponents' treasure spaces (rulebook: treasures are "hidden"; views.py shows only
their count), their hands and action decks, the paths not yet revealed in Phase B, the
installs of an opponent's face-up card, and the dice to come.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.dungeon_drawers import board
from engine.dungeon_drawers.data import CARDS
from engine.dungeon_drawers.paths import candidate_paths
from engine.dungeon_drawers.rules import levels
from engine.dungeon_drawers.sample import sample
from tests.dungeon_drawers.helpers import GAME
from tests.playout import assert_sample_like_real, play_on


def positions(players: int, seed: int) -> list[dict[str, Any]]:
    """States of one game of easy players: early, middle and late in Phase A, in Phase B
    with some paths drawn, and in Phase C (at the start of a turn and during a fight)."""
    state = GAME.new(players, None, seed)
    seen: list[dict[str, Any]] = []
    while not GAME.is_over(state):
        seen.append(state)
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    build = [s for s in seen if s["phase"] == "build"]
    path = [s for s in seen if s["phase"] == "path" and any(p["path"] for p in s["players"])]
    fight = [
        s for s in seen if s["phase"] == "defend" and s["encounter"] and s["encounter"]["kind"] != "trap"
    ]
    actions = [s for s in seen if s["phase"] == "defend" and s["step"] == "actions"]
    picked = [build[3], build[len(build) // 2], build[-5], path[-1], actions[len(actions) // 3]]
    picked += fight[:1] + [actions[-1]]
    # a seat in the middle of installing, seen by the others and by itself
    picked += [s for s in build if any(p["pending"] and p["pending"]["next"] > 0 for p in s["players"])][2:3]
    return picked


POSITIONS = [(n, seed, i, s) for n, seed in ((2, 11), (4, 12)) for i, s in enumerate(positions(n, seed))]


def cards_in_play(state: dict[str, Any]) -> list[int]:
    """Every card where the state keeps it; with the cards returned to the box, the game's 60."""
    out = state["deck"] + state["discard"] + state["display"]
    for p in state["players"]:
        if state["phase"] in ("build", "path"):  # action decks are shuffled when Phase C begins
            out += p["taken"] + ([p["pending"]["card"]] if p["pending"] else [])
        else:
            out += p["hand"] + p["deck"] + [h["card"] for h in p["on"]]
    return sorted(out)


@pytest.mark.parametrize(
    "players,seed,i,state", POSITIONS, ids=lambda x: "" if isinstance(x, dict) else str(x)
)
def test_a_sample_looks_exactly_like_the_view_and_allows_the_same_moves(
    players: int, seed: int, i: int, state: dict[str, Any]
) -> None:
    for seat in range(players):
        view = GAME.view(state, seat)
        for k in range(3):
            got = sample(view, random.Random(k))
            assert_sample_like_real(GAME, got, state, seat)
            cards = cards_in_play(got)
            assert len(cards) == len(set(cards)) and set(cards) <= set(CARDS)
            assert len(cards) + got["boxed"] == len(CARDS) == len(cards_in_play(state)) + state["boxed"]
            for s, (p, q) in enumerate(zip(got["players"], state["players"], strict=True)):
                assert (
                    len(p["sheet"]["treasures"])
                    == len(set(p["sheet"]["treasures"]))
                    == len(q["sheet"]["treasures"])
                )
                assert len(p["hand"]) == len(q["hand"]) and len(p["deck"]) == len(q["deck"])
                if s == seat:  # what the seat knows of itself is its own, exactly
                    assert p["sheet"] == q["sheet"] and p["hand"] == q["hand"]
                    assert sorted(p["deck"]) == sorted(q["deck"])
                    assert p["pending"] == q["pending"]


@pytest.mark.parametrize("players,seed", [(2, 11), (4, 12)])
def test_a_sample_plays_on_to_the_end(players: int, seed: int) -> None:
    for state in positions(players, seed)[1::3]:
        assert GAME.is_over(play_on(GAME, sample(GAME.view(state, 0), random.Random(7)), 2000))


def reshuffled(state: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """The same table as ``seat`` sees it, with everything it cannot see dealt again: the
    build deck, the opponents' treasures, hands and decks, its own deck order, the
    unrevealed paths, the dice to come."""
    other = copy.deepcopy(state)
    other["rng"] = {"seed": rnd.randrange(2**31), "n": 0}
    rnd.shuffle(other["deck"])
    n = other["seats"]
    for s, p in enumerate(other["players"]):
        if s == seat:
            rnd.shuffle(p["deck"])
            continue
        if other["phase"] != "over":
            count = len(p["sheet"]["treasures"])
            cells = rnd.sample(board.ALL_CELLS, count)
            p["sheet"]["treasures"] = cells
            if p["pending"]:
                p["pending"]["before"]["treasures"] = list(cells)
        cards = p["hand"] + p["deck"]
        rnd.shuffle(cards)
        p["hand"], p["deck"] = cards[: len(p["hand"])], cards[len(p["hand"]) :]
        if other["phase"] == "path" and p["path"] and (s + 1) % n != seat:
            p["path"] = list(rnd.choice(candidate_paths(p["sheet"], levels(p["sheet"]))))
    return other


@pytest.mark.parametrize(
    "players,seed,i,state", POSITIONS, ids=lambda x: "" if isinstance(x, dict) else str(x)
)
def test_what_the_seat_cannot_see_does_not_change_its_samples(
    players: int, seed: int, i: int, state: dict[str, Any]
) -> None:
    for seat in range(players):
        other = reshuffled(state, seat, random.Random(seat + 100 * i))
        assert GAME.view(other, seat) == GAME.view(state, seat)
        a = sample(GAME.view(state, seat), random.Random(5))
        b = sample(GAME.view(other, seat), random.Random(5))
        assert a == b


def test_the_hidden_parts_vary_from_sample_to_sample() -> None:
    by_pos = {(n, i): s for n, _, i, s in POSITIONS}
    build, fight, path = by_pos[(4, 1)], by_pos[(2, 5)], by_pos[(4, 3)]
    view = GAME.view(build, 0)
    samples = [sample(view, random.Random(k)) for k in range(40)]
    assert len({tuple(s["deck"]) for s in samples}) == 40
    for s in (1, 2, 3):
        if build["players"][s]["sheet"]["treasures"]:
            spots = {tuple(x["players"][s]["sheet"]["treasures"]) for x in samples}
            assert len(spots) > 5
    assert len({x["rng"]["seed"] for x in samples}) == 40
    hands = {tuple(sample(GAME.view(fight, 0), random.Random(k))["players"][1]["hand"]) for k in range(40)}
    assert len(hands) > 3
    # a sample never copies the real hidden parts
    real = fight["players"][1]["hand"]
    assert (
        sum(
            1
            for k in range(40)
            if sample(GAME.view(fight, 0), random.Random(k))["players"][1]["hand"] == real
        )
        < 20
    )
    hidden = [s for s in range(4) if path["players"][s]["path"] and (s + 1) % 4 != 0]
    assert hidden, "Phase B position with a path seat 0 cannot see"
    for s in hidden:
        assert GAME.view(path, 0)["players"][s]["path"] is None
        drawn = {tuple(sample(GAME.view(path, 0), random.Random(k))["players"][s]["path"]) for k in range(20)}
        sheet = path["players"][s]["sheet"]
        assert len(drawn) == min(2, len(candidate_paths(sheet, levels(sheet)))) or len(drawn) > 2
