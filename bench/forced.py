"""What the house rule on moves played for a player costs (issue 38, tables/forced.py):
``tables.turns.only_move`` on the states of random games where a seat to act has one
move only (the check deals up to ``forced.SAMPLES`` situations from the other seats'
views, and stops at the first one with another move). It runs after each move of a
person, in a thread, while the game waits on nobody else; and the private message asks
the same question (``forced.why_waiting``) at each click of the player to move.

Per game: how many such states were met, how many of their moves were played for the
player, the seconds one check took (median, p90, max), the situations it dealt (median,
total), and the seconds the same question took when asked again of the same state."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.common import ROOT  # noqa: F401  (puts the project on sys.path)
from engine import core


def _counted(sample: Callable[..., Any], dealt: list[int]) -> Callable[..., Any]:
    def counted(view: dict[str, Any], rnd: random.Random) -> Any:
        dealt[0] += 1
        return sample(view, rnd)

    return counted


def forced(keys: list[str], games: int, log: Callable[[str], None]) -> dict[str, Any]:
    from tables import forced as rule
    from tables.turns import only_move, the_one_move

    out: dict[str, Any] = {}
    for key in keys:
        game = core.get(key)
        seconds: list[float] = []
        again: list[float] = []
        deals: list[int] = []
        dealt = [0]
        game.sample = _counted(game.sample, dealt)  # type: ignore[method-assign]  # the same deals, counted
        played = 0
        try:
            for g in range(games):
                rnd = random.Random(g)
                state = game.new(
                    game.min_players + g % (game.max_players - game.min_players + 1), None, 300 + g
                )
                for _ in range(600):
                    if game.is_over(state):
                        break
                    acting = sorted(game.to_act(state))
                    for seat in acting:
                        if the_one_move(game, state, seat) is None:
                            continue
                        dealt[0] = 0
                        t = time.perf_counter()
                        found = only_move(game, state, [seat])
                        seconds.append(time.perf_counter() - t)
                        deals.append(dealt[0])
                        played += found is not None
                        t = time.perf_counter()  # the same question again (the private message's note)
                        only_move(game, state, [seat])
                        again.append(time.perf_counter() - t)
                    seat = rnd.choice(acting)
                    state, _ = game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
        finally:
            del game.sample  # the class's own again
            getattr(rule, "forget", lambda: None)()
        seconds.sort()
        fig = {
            "states": len(seconds),
            "played_for_a_player": played,
            "median_s": round(statistics.median(seconds), 4) if seconds else None,
            "p90_s": round(seconds[int(0.9 * (len(seconds) - 1))], 4) if seconds else None,
            "max_s": round(seconds[-1], 4) if seconds else None,
            "deals_median": statistics.median(deals) if deals else None,
            "deals_total": sum(deals),
            "again_median_s": round(statistics.median(again), 5) if again else None,
        }
        out[key] = fig
        log(f"  forced {key}: {fig}")
    return out
