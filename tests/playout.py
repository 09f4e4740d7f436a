"""Shared helpers for engine tests: random legal playouts and replays."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from engine.core import Game, State

MAX_STEPS = 20_000


def random_playout(
    game: Game,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    pick: random.Random | None = None,
    check: Any = None,
) -> tuple[State, list[tuple[int, str]]]:
    """Play random legal moves until the game ends. Returns the final state and
    the log of (seat, notation). ``check(state)`` runs after every move."""
    pick = pick or random.Random(seed)
    state = game.new(players, options, seed)
    log: list[tuple[int, str]] = []
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return state, log
        seats = sorted(game.to_act(state))
        assert seats, "nobody may act but the game is not over"
        seat = pick.choice(seats)
        actions = game.legal_actions(state, seat)
        assert actions, f"seat {seat} must act but has no legal action"
        action = pick.choice(actions)
        text = game.format(action)
        assert game.parse(text) == action, f"notation does not round-trip: {text!r}"
        state, _events = game.apply(state, seat, action)
        log.append((seat, text))
        if check is not None:
            check(state)
    raise AssertionError(f"game did not end within {MAX_STEPS} moves")


def random_game(game: Game, seed: int, moves: int = MAX_STEPS) -> Iterator[State]:
    """The states of one random legal game, from the start, each before its move (never
    a finished one), ``moves`` at most; the player count goes with the seed over the
    game's range, so seeds in a row cover every count."""
    pick = random.Random(seed)
    state = game.new(game.min_players + seed % (game.max_players - game.min_players + 1), None, seed)
    for _ in range(moves):
        if game.is_over(state):
            return
        yield state
        seat = pick.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))


def random_states(game: Game, seed: int, n: int) -> list[State]:
    """``n`` states spread evenly over one random game (:func:`random_game`)."""
    states = list(random_game(game, seed))
    step = max(1, len(states) // n)
    return states[::step][:n]


def ai_playout(game: Game, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
    return play_on(game, game.new(players, options, seed), MAX_STEPS)


def replay(
    game: Game, players: int, seed: int, options: dict[str, Any] | None, log: list[tuple[int, str]]
) -> State:
    state = game.new(players, options, seed)
    for seat, text in log:
        state, _ = game.apply(state, seat, game.parse(text))
    return state


def roundtrip(state: State) -> State:
    return json.loads(json.dumps(state))


def assert_sample_like_real(game: Game, sample: State, real: State, seat: int) -> None:
    """A determinization (``Game.sample``) as the seat sees it: exactly its view of the
    real state, the same legal moves, the same seats to act (issue 30)."""
    assert game.view(sample, seat) == game.view(real, seat)
    assert game.legal_actions(sample, seat) == game.legal_actions(real, seat)
    assert game.to_act(sample) == game.to_act(real)


def play_on(game: Game, state: State, max_moves: int = 3000) -> State:
    """The game played on from ``state`` by easy players (a sample must be a state the
    rules can finish); fails if it does not end within ``max_moves``."""
    for _ in range(max_moves):
        if game.is_over(state):
            return state
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.ai_action(state, seat))
    raise AssertionError(f"the game did not end within {max_moves} moves")
