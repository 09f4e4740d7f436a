"""Shared helpers for the benchmarks: which games to measure, real playouts,
statistics and the machine description."""

from __future__ import annotations

import json
import os
import platform
import random
import sqlite3
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import core  # noqa: E402


def game_keys(only: list[str] | None = None) -> list[str]:
    """Every game installed now (``core.available()``); the test game of
    tests/fakegame.py only when no real game is installed yet."""
    keys = [k for k in core.available() if not only or k in only]
    if not keys:
        from tests import fakegame

        fakegame.install()
        keys = ["test-race"]
    return keys


def player_counts(game: core.Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


@dataclass
class Playout:
    key: str
    players: int
    seed: int
    log: list[tuple[int, str]]
    states: list[str]  # JSON of the state before move i (states[0] = the start), and the final one last

    @property
    def final(self) -> str:
        return self.states[-1]


def playout(game: core.Game, players: int, seed: int, max_steps: int = 20_000) -> Playout:
    """A random legal game from the start to the end, keeping every state."""
    pick = random.Random(seed)
    state = game.new(players, None, seed)
    states = [json.dumps(state)]
    log: list[tuple[int, str]] = []
    for _ in range(max_steps):
        if game.is_over(state):
            break
        seat = pick.choice(sorted(game.to_act(state)))
        action = pick.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        log.append((seat, game.format(action)))
        states.append(json.dumps(state))
    return Playout(game.key, players, seed, log, states)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, int(round(p / 100 * (len(s) - 1)))))
    return s[k]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def machine() -> dict[str, Any]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                ram_gb = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    import PIL

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "ram_gb": ram_gb,
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "pillow": PIL.__version__,
        "os": platform.platform(),
        "load_avg_at_start": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
