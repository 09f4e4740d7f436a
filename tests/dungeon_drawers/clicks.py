"""Count the clicks of a whole Dungeon Drawers game played only through the chooser
(issue 26's figures). Not a test: ``python -m tests.dungeon_drawers.clicks [games] [seed]``.

A "human" seat picks at random among the offered options; Done is a click too. A pick
that reaches a step with a move and nothing more to choose plays the move at once (the
tables layer does that). Paths are drawn by a human who takes the run that ends nearest
the exit (``--random-paths``: uniformly at random among the runs and Done). Erase is
never picked (``--erase``: it is one option among the others). ``--fewest``: the path is
drawn in the fewest runs that reach the exit. Each build
turn, each path and each Phase C turn is counted on its own; a turn changes when
``turn_id`` changes.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import deque
from typing import Any

from engine import core
from engine.dungeon_drawers import board, paths

GAME = core.get("dungeon-drawers")
FLAGS: list[str] = []


def _pick(state: dict, seat: int, ch: core.Choice, rnd: random.Random, random_paths: bool) -> str | None:
    """The option token picked, or None for Done."""
    comps: list[str | None] = [t for t, _ in ch.options if t != "erase" or "--erase" in FLAGS]
    if ch.action is not None:
        comps.append(None)
    if state["phase"] == "path" and not random_paths:
        if ch.action is not None:
            return None
        owner = state["players"][(seat - 1) % state["seats"]]["sheet"]
        if "--fewest" in FLAGS:
            return _fewest(owner, ch.preview["cells"])
        dist = board.distances(owner, board.EXIT)
        runs = ch.preview["runs"]
        best = min(range(len(runs)), key=lambda i: (dist[runs[i][-1]], -len(runs[i]), rnd.random()))
        return ch.options[best][0]
    return rnd.choice(comps)


def _fewest(sheet: dict, cells: list[str]) -> str:
    """The first run of a path to H10 in the fewest runs from ``cells`` (breadth first)."""
    queue: deque[tuple[list[str], str]] = deque([(cells, "")])
    seen = set()
    while queue:
        here, first = queue.popleft()
        for token, run in paths.next_runs(sheet, here) or []:
            nxt = here + run
            if nxt[-1] == board.EXIT and board.path_problem(sheet, nxt) is None:
                return first or token
            key = (nxt[-1], tuple(sorted((c, nxt.count(c)) for c in set(nxt))))
            if key not in seen:
                seen.add(key)
                queue.append((nxt, first or token))
    raise AssertionError("no run leads to the exit")


def move_by_clicks(state: dict, seat: int, rnd: random.Random, random_paths: bool) -> tuple[Any, int]:
    prefix: list[str] = []
    clicks = 0
    while True:
        ch = GAME.chooser(state, seat, prefix)
        if ch.action is not None and not ch.options:
            return ch.action, clicks  # played by the pick that completed it
        tok = _pick(state, seat, ch, rnd, random_paths)
        clicks += 1
        if tok is None:
            return ch.action, clicks
        prefix.append(tok)


def play(seed: int, players: int = 2, random_paths: bool = False) -> dict[str, Any]:
    rnd = random.Random(seed)
    state = GAME.new(players, None, seed)
    turns: list[tuple[str, int]] = []  # (phase of the turn, clicks)
    last = None
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        tid = GAME.turn_id(state)
        if tid != last or state["phase"] == "path":
            turns.append((state["phase"], 0))
            last = tid
        action, clicks = move_by_clicks(state, seat, rnd, random_paths)
        turns[-1] = (turns[-1][0], turns[-1][1] + clicks)
        state, _ = GAME.apply(state, seat, action)
    by = {ph: [c for p, c in turns if p == ph] for ph in ("build", "path", "defend")}
    return {"clicks": sum(c for _, c in turns), **by}


def main(games: int = 10, first: int = 1, *flags: str) -> None:
    FLAGS[:] = flags
    rows = [play(first + i, 2, "--random-paths" in flags) for i in range(games)]
    total = [r["clicks"] for r in rows]
    build = [c for r in rows for c in r["build"]]
    path = [c for r in rows for c in r["path"]]
    defend = [c for r in rows for c in r["defend"]]
    print(f"{games} two-player games by clicks, seeds {first}..{first + games - 1}")
    print(f"clicks a game: median {statistics.median(total)}, max {max(total)}, min {min(total)}")
    print(f"build turn: median {statistics.median(build)}, max {max(build)}")
    print(f"hero path: median {statistics.median(path)}, max {max(path)}")
    print(f"phase C turn: median {statistics.median(defend)}, max {max(defend)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]), *sys.argv[3:])
