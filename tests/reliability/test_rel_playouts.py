"""Random full games under the games' options: each ends, none hangs, none crashes.

The default run plays every value of every option at least once (a covering set of
option combinations); the long run (``--long``) plays every combination, ten times each.

The hypothesis games of each game's own tests draw a few seeds a run; a Festival
Season battle once looped for ever on one of them (an invisible wizard could not
take fatigue) and hung CI. This sweeps many seeds across every combination of
each game's options, with a time limit a game.
"""

from __future__ import annotations

import itertools
import random
import signal
import time
from typing import Any

import pytest

from engine import core
from tests.playout import random_playout
from tests.reliability._util import LONG, keys, record, size

GAME_SECONDS = 60  # a random game takes well under a second; a hang is caught here (long mode)


def option_sets(game: core.Game) -> list[dict[str, Any]]:
    """Every combination of the game's options ([{}] for a game without options)."""
    names = sorted(game.options)
    return [
        dict(zip(names, vals, strict=True))
        for vals in itertools.product(*(game.options[n].choices for n in names))
    ]


def covering(game: core.Game, sets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Option sets, taken in ``sets``' order, until every value of every option is in one."""
    missing = {(n, v) for n in game.options for v in game.options[n].choices}
    out: list[dict[str, Any]] = []
    for opts in sorted(sets, key=lambda o: -len(missing & set(o.items()))):
        if not missing:
            break
        if missing & set(opts.items()):
            out.append(opts)
            missing -= set(opts.items())
    return out or sets[:1]


def play(game: core.Game, players: int, seed: int, options: dict[str, Any]) -> None:
    """One random game to its end. In long mode (no pytest timeout) an alarm stops a
    game that hangs inside one move; otherwise the suite's per-test timeout does."""

    def stuck(*_: object) -> None:
        raise TimeoutError(f"a random game ran over {GAME_SECONDS} s")

    if LONG:
        old = signal.signal(signal.SIGALRM, stuck)
        signal.alarm(GAME_SECONDS)
    try:
        state, _ = random_playout(game, players, seed, options=options)
    finally:
        if LONG:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
    assert game.is_over(state)


@pytest.mark.parametrize("key", keys())
def test_random_games_under_every_option_set_end(key: str) -> None:
    game = core.get(key)
    sets = option_sets(game)
    rnd = random.Random(f"playouts:{key}")
    rnd.shuffle(sets)
    if not LONG:
        sets = covering(game, sets)
    games = size(max(4, len(sets)), max(2_000, 10 * len(sets)))
    played: set[tuple[str, Any]] = set()
    failures: list[str] = []
    t0 = time.perf_counter()
    for i in range(games):
        opts = sets[i % len(sets)]
        players = rnd.randint(game.min_players, game.max_players)
        seed = rnd.randrange(10**6)
        played |= set(opts.items())
        try:
            play(game, players, seed, opts)
        except Exception as exc:  # noqa: BLE001 - every failure is listed, then the test fails
            failures.append(
                f"{players} players, seed {seed}, options {opts}: {type(exc).__name__}: {str(exc)[:200]}"
            )
    record(
        "playouts",
        game=key,
        games=games,
        option_sets=len(sets),
        failures=len(failures),
        examples=failures[:3],
        seconds=round(time.perf_counter() - t0, 1),
    )
    assert not failures, f"{key}: {len(failures)} of {games} random games failed, e.g. {failures[:3]}"
    unplayed = {(n, v) for n in game.options for v in game.options[n].choices} - played
    assert not unplayed, f"{key}: option values never played: {sorted(unplayed, key=str)}"
