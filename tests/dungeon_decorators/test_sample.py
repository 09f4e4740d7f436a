"""sample(view, rnd) (issue 30): a complete state dealt from one seat's view, for the
searching player. Rulebook: "Put 20 of them back in the box - they won't be used in this
game", "Shuffle the contents of each bag", goal discards "are face down", "draw a tile at
random from the current bag": what the seat cannot see is dealt at random, what it can
see is kept exactly."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from engine.core import State
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import ai as AI
from engine.dungeon_decorators import rules as R
from engine.dungeon_decorators.data import DATA
from engine.dungeon_decorators.sample import sample


def _positions(players: int, seed: int, every: int) -> list[State]:
    """States from a game of easy players: every ``every``-th move, and the start."""
    state = GAME.new(players, None, seed=seed)
    rnd = random.Random(seed)
    out = [copy.deepcopy(state)]
    n = 0
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(
            state, seat, AI.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rnd)
        )
        n += 1
        if n % every == 0:
            out.append(copy.deepcopy(state))
    return out


POSITIONS = {2: _positions(2, 11, 13), 4: _positions(4, 12, 23)}


def _tiles(state: State) -> Counter[Any]:
    """Every numbered tile and hourglass wherever it lies (drawn hourglasses are set aside) (a Burrow Bro's first
    choice is also the seat's new tile, so the choices count from the second)."""
    out: Counter[Any] = Counter(state["blue"] + state["red"] + state["box"] + [0] * state["hourglasses"])
    out.update(t for t in state["board"] if t is not None)
    out.update((state["burrow"] or [])[1:])
    for p in state["players"]:
        out.update(c["t"] for c in p["dungeon"].values() if c["t"] != "start")
        out.update(p["storage"])
        out.update(x["t"] for x in p["pending"])
    out.pop("G", None)
    return out


def _goals(state: State) -> Counter[str]:
    out: Counter[str] = Counter()
    for d in "SD":
        out.update(state["decks"][d] + state["discards"][d])
    for p in state["players"]:
        out.update(p["hand"] + p["scored"])
    return out


def _hidden(state: State, seat: int) -> tuple[Any, ...]:
    """What the seat cannot see: the bags' order, the box, decks, others' hands."""
    return (
        tuple(state["blue"]),
        tuple(state["red"]),
        tuple(state["decks"]["S"]),
        tuple(state["decks"]["D"]),
        tuple(tuple(p["hand"]) for i, p in enumerate(state["players"]) if i != seat),
    )


def _reshuffled(state: State, seat: int, rnd: random.Random) -> State:
    """The same table with the seat's unseen tiles and cards dealt again: the bags and
    the box swap tiles, the decks, discards and other hands swap cards (counts kept)."""
    s = copy.deepcopy(state)
    pool = s["blue"] + [t for t in s["red"] if t != 0] + s["box"]
    rnd.shuffle(pool)
    nb, nr = len(s["blue"]), sum(1 for t in s["red"] if t != 0)
    s["blue"], red, s["box"] = pool[:nb], pool[nb : nb + nr], pool[nb + nr :]
    it = iter(red)
    s["red"] = [0 if t == 0 else next(it) for t in s["red"]]
    others = [p for i, p in enumerate(s["players"]) if i != seat]
    for d in "SD":
        cards = s["decks"][d] + s["discards"][d] + [g for p in others for g in p["scored"] if g[0] == d]
        rnd.shuffle(cards)
        s["decks"][d] = [cards.pop() for _ in s["decks"][d]]
        s["discards"][d] = [cards.pop() for _ in s["discards"][d]]
        for p in others:
            p["scored"] = [cards.pop() if g[0] == d else g for g in p["scored"]]
    hands = [g for p in others for g in p["hand"]]
    rnd.shuffle(hands)
    for p in others:
        p["hand"] = [hands.pop() for _ in p["hand"]]
    return s


CASES = [(n, i, seat) for n, states in POSITIONS.items() for i in range(len(states)) for seat in range(n)]


@pytest.mark.parametrize("players", [2, 4])
def test_positions_cover_the_game(players: int) -> None:
    phases = {s["phase"] for s in POSITIONS[players]}
    assert {"keep", "draft", "build", "score"} <= phases
    assert any(
        s["hourglasses"] >= 2 or len(s["blue"]) == 0 for s in POSITIONS[players]
    )  # late in the game too


def test_a_sample_shows_the_seat_exactly_its_view_and_its_moves() -> None:
    checked = 0
    for players, states in POSITIONS.items():
        for real in states:
            if GAME.is_over(real):
                continue
            for seat in range(players):
                view = GAME.view(real, seat)
                s = sample(view, random.Random(checked))
                # Every field of the view, the status line and the seat's own cards included.
                assert GAME.view(s, seat) == view
                assert GAME.legal_actions(s, seat) == GAME.legal_actions(real, seat)
                assert GAME.to_act(s) == GAME.to_act(real)
                assert (
                    _tiles(s) == _tiles(real) == Counter(list(R.TILES) + [0] * DATA["tiles"]["hourglasses"])
                )
                assert _goals(s) == _goals(real) == Counter(list(R.GOALS))
                if real["phase"] == "build" and GAME.current(real) == seat:
                    assert s["snapshot"] == real["snapshot"]  # what "reset" returns to
                checked += 1
    assert checked > 40


def test_a_sample_plays_on_to_the_end() -> None:
    rnd = random.Random(5)
    for states in POSITIONS.values():
        for real in states[1 :: max(1, len(states) // 3)]:
            if GAME.is_over(real):
                continue
            seat = min(GAME.to_act(real))
            s = sample(GAME.view(real, seat), rnd)
            for _ in range(3000):
                if GAME.is_over(s):
                    break
                who = min(GAME.to_act(s))
                s, _ = GAME.apply(s, who, AI.rollout(s, who, rnd))
            assert GAME.is_over(s)


def test_hidden_parts_do_not_change_the_sample() -> None:
    shuffler = random.Random(9)
    for states in POSITIONS.values():
        for real in states:
            if GAME.is_over(real):
                continue
            seat = min(GAME.to_act(real))
            other = _reshuffled(real, seat, shuffler)
            assert GAME.view(other, seat) == GAME.view(real, seat)
            if len(real["blue"]) > 1:
                assert _hidden(other, seat) != _hidden(real, seat)  # the test changed something
            a = sample(GAME.view(real, seat), random.Random(3))
            b = sample(GAME.view(other, seat), random.Random(3))
            assert a == b


def test_hidden_parts_vary_between_samples() -> None:
    real = POSITIONS[4][len(POSITIONS[4]) // 2]
    seat = min(GAME.to_act(real))
    view = GAME.view(real, seat)
    rnd = random.Random(1)
    seen = [_hidden(sample(view, rnd), seat) for _ in range(30)]
    for part in range(5):
        assert len({h[part] for h in seen}) > 20, part
    # Hourglasses land anywhere in the red bag, not where they really are.
    places = {tuple(i for i, t in enumerate(sample(view, rnd)["red"]) if t == 0) for _ in range(30)}
    assert len(places) > 20
    # The reseeded game RNG differs too.
    assert len({sample(view, rnd)["rng"]["seed"] for _ in range(10)}) == 10


def test_the_view_gives_the_seat_its_own_build_start_only() -> None:
    """ "reset" returns the build to how it began: the seat building sees that start
    (its own dungeon and tiles), the others see nothing new."""
    real = next(s for s in POSITIONS[2] if s["phase"] == "build")
    seat = GAME.current(real)
    assert GAME.view(real, seat)["mine"]["build_start"]["dungeon"] == real["snapshot"]["dungeon"]
    assert GAME.view(real, 1 - seat)["mine"]["build_start"] is None
