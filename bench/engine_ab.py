"""Engine speed for search (issue 30 item 6), this checkout against another, in CPU time.

    python -m bench.engine_ab OTHER_CHECKOUT [--games monster-inn,...] [--rounds 3] [--playouts 6]

Each round runs, for every game, one child process on OTHER_CHECKOUT then one on this
checkout (alternating, so both see the same machine load), and each child measures in
CPU seconds (``time.process_time``), on the same seeded games:

- ``apply``: random legal playouts through ``Game.apply`` (a copy a move, as search
  would have to without ``Game.play``): moves per CPU second;
- ``play``: the same playouts applied in place (``Game.play``, only where it exists);
- ``policy``: the moves search makes for the seats outside its tree: the heuristic
  player on the seat's view (``Game.ai_action``) before, ``Game.rollout_action`` now.

The random choices are the same in both checkouts as long as the legal moves are the
same, which the rules tests hold; the child checks the move counts agree.
Prints the medians over rounds and the ratio new/old.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, random, sys, time
from engine import core
key, playouts = sys.argv[1], int(sys.argv[2])
game = core.get(key)
n = game.min_players if game.min_players > 1 else 2
def playout(seed, how):
    pick = random.Random(seed)
    state = game.new(n, None, seed)
    moves = 0
    while not game.is_over(state):
        seat = pick.choice(sorted(game.to_act(state)))
        legal = game.legal_actions(state, seat)
        if how == "policy":
            if hasattr(game, "rollout_action"):
                action = game.rollout_action(state, seat, pick)
            else:
                action = game.ai_action(state, seat)
        else:
            action = pick.choice(legal)
        if how == "play":
            game.play(state, seat, action)
        else:
            state, _ = game.apply(state, seat, action)
        moves += 1
    return moves
out = {}
for how in ("apply", "play", "policy"):
    if how == "play" and not hasattr(game, "play"):
        continue
    t0 = time.process_time()
    moves = sum(playout(1000 + s, how) for s in range(playouts))
    out[how] = {"moves": moves, "cpu": time.process_time() - t0}
print(json.dumps(out))
"""


def child(checkout: Path, key: str, playouts: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    res = subprocess.run(
        [sys.executable, "-c", CHILD, key, str(playouts)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.engine_ab", description=__doc__.split("\n\n")[0])
    p.add_argument("other", type=Path)
    p.add_argument(
        "--games", default="monster-inn,dungeon-lair,dungeon-decorators,dungeon-drawers,dungeon-lords"
    )
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--playouts", type=int, default=6)
    args = p.parse_args(argv)
    report = {}
    for key in args.games.split(","):
        runs: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
        moves: dict[str, dict[str, int]] = {"old": {}, "new": {}}
        for _ in range(args.rounds):
            for side, where in (("old", args.other), ("new", ROOT)):
                for how, r in child(where, key, args.playouts).items():
                    runs[side].setdefault(how, []).append(r["moves"] / r["cpu"])
                    moves[side][how] = r["moves"]
        row = {}
        for how in ("apply", "play", "policy"):
            old = median(runs["old"][how]) if how in runs["old"] else None
            new = median(runs["new"][how]) if how in runs["new"] else None
            row[how] = {
                "old_moves_per_cpu_s": round(old, 1) if old else None,
                "new_moves_per_cpu_s": round(new, 1) if new else None,
                "ratio": round(new / old, 2) if old and new else None,
                # The same seeded playouts in both checkouts: equal move counts (apply only).
                "same_moves": moves["old"][how] == moves["new"][how] if how == "apply" else None,
            }
        # What search pays a move now against what it would have paid: play in place and
        # the rollout policy, against apply with a copy and the heuristic on the view.
        o, n = runs["old"], runs["new"]
        row["search_move_ratio"] = round(
            (1 / median(o["apply"]) + 1 / median(o["policy"]))
            / (1 / median(n["play"]) + 1 / median(n["policy"])),
            2,
        )
        report[key] = row
        print(key, json.dumps(row), flush=True)
    out = ROOT / "bench" / "results" / "engine_ab.json"
    out.write_text(
        json.dumps(
            {"when": time.strftime("%Y-%m-%d %H:%M:%S"), "other": str(args.other), "games": report}, indent=1
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
