"""Measure the balance of AI games (the figures in docs/rules/dungeon-drawers.md).

``python -m tests.dungeon_drawers.measure [games] [first_seed]`` plays AI-only games
(2, 3 and 4 players in turn) and prints: the share of fights the monsters win, the
share of heroes that die, and the share of final scores below zero. Not a test: the
numbers depend on the AI, and the docs quote them with the command that made them.
"""

from __future__ import annotations

import sys
from typing import Any

from engine import core


def play(players: int, seed: int) -> dict[str, Any]:
    game = core.get("dungeon-drawers")
    state = game.new(players, None, seed)
    fights = won = 0
    while not game.is_over(state):
        seat = min(game.to_act(state))
        state, events = game.apply(state, seat, game.ai_action(state, seat))
        for e in events:
            if e.seat is None and " wins with strength" in e.text:
                fights, won = fights + 1, won + 1
            elif e.seat is None and " loses with strength" in e.text:
                fights += 1
    res = game.result(state)
    dead = sum(1 for p in state["players"] if p["hero"]["state"] == "dead")
    return {"fights": fights, "won": won, "heroes": players, "dead": dead, "scores": res.scores}


def main(games: int = 240, first: int = 1) -> None:
    tot = {"fights": 0, "won": 0, "heroes": 0, "dead": 0}
    scores: list[int] = []
    for i in range(games):
        r = play(2 + i % 3, first + i)
        for k in tot:
            tot[k] += r[k]
        scores += r["scores"]
    neg = sum(1 for s in scores if s < 0)
    print(f"{games} AI games (2/3/4 players in turn), seeds {first}..{first + games - 1}")
    print(
        f"monsters win {tot['won']}/{tot['fights']} fights = {100 * tot['won'] / max(1, tot['fights']):.1f} %"
    )
    print(f"heroes die {tot['dead']}/{tot['heroes']} = {100 * tot['dead'] / tot['heroes']:.1f} %")
    print(f"negative final scores {neg}/{len(scores)} = {100 * neg / len(scores):.1f} %")
    print(f"mean score {sum(scores) / len(scores):.1f}, min {min(scores)}, max {max(scores)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
