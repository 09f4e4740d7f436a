"""The token-less pipeline run the issue asks CI to show: AI-only Monster Inn games
through tables, store and render, printed with their scores and a summary."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_selfplay_monster_inn_20_games(tmp_path: Path) -> None:
    db = tmp_path / "selfplay.db"
    p = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bot.py"),
            "selfplay",
            "monster-inn",
            "--players",
            "4",
            "--games",
            "20",
            "--seed",
            "1",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    games = [line for line in p.stdout.splitlines() if re.match(r"game \d+: \d+ moves; scores: ", line)]
    assert len(games) == 20
    summary = p.stdout.strip().splitlines()[-1]
    assert re.match(
        r"summary: 20 games of Monster Inn with 4 players, \d+ moves; per move median [\d.]+ ms, p99 [\d.]+ ms; "
        r"render median [\d.]+ ms; PNG median [\d.]+ KB",
        summary,
    ), summary
    print(summary)  # shown with -s, and quoted in the closing note


def test_selfplay_refuses_bad_arguments() -> None:
    p = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "selfplay", "monster-inn", "--players", "9"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert p.returncode == 2 and "3 to 5 players" in p.stderr and "Traceback" not in p.stderr
