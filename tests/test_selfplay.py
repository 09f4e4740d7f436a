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


def selfplay(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    import os

    env = {**os.environ, "TMPDIR": str(tmp)}  # where a temporary database would be left
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "selfplay", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env=env,
    )


def test_selfplay_help_documents_every_flag_and_names_every_game(tmp_path: Path) -> None:
    from engine import core

    p = selfplay("--help", tmp=tmp_path)
    assert p.returncode == 0
    for flag in ("--players", "--games", "--seed", "--db", "--png-dir", "--option"):
        line = next((x for x in p.stdout.splitlines() if x.strip().startswith(flag)), "")
        assert len(line.split(maxsplit=2)) == 3, f"{flag} is not documented: {line!r}"
    for key in core.available():
        assert f"{key}: {core.get(key).title}" in p.stdout


def test_selfplay_saves_named_images_and_leaves_no_database(tmp_path: Path) -> None:
    """Issue 21 "Show the result" and issue 22 item 10: the opening, middle and final
    boards, step images and one "my area" image, each named for what it is; --players
    may be left out; game options can be passed; no temporary database stays."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = tmp_path / "png"
    p = selfplay("dungeon-lords", "--png-dir", str(out), "--option", "festival=false", tmp=tmp)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "with 2 players" in p.stdout and "database temporary, removed" in p.stdout
    assert list(tmp.iterdir()) == [], "the temporary database was left behind"
    names = sorted(f.name for f in out.iterdir())
    assert names[0] == "dungeon-lords-g1-0000-opening.png"
    kinds = {re.sub(r"^dungeon-lords-g1-\d{4}-", "", n) for n in names}
    assert {"opening.png", "board.png", "final.png", "area-seat1.png"} <= kinds
    assert any(k.startswith("step-") for k in kinds), "a Dungeon Lords game has battle steps"
    assert sum(n.endswith("-final.png") for n in names) == 1 and sum("-area-" in n for n in names) == 1
    for n in names:
        assert (out / n).read_bytes().startswith(b"\x89PNG")


def test_selfplay_passes_options_and_refuses_bad_ones(tmp_path: Path) -> None:
    p = selfplay("monster-inn", "--option", "open_treasure=maybe", tmp=tmp_path)
    assert p.returncode == 2 and "open_treasure" in p.stderr and "Traceback" not in p.stderr
    p = selfplay("monster-inn", "--option", "colour=red", tmp=tmp_path)
    assert p.returncode == 2 and "no option called 'colour'" in p.stderr
    db = tmp_path / "kept.db"
    p = selfplay("monster-inn", "--option", "open_treasure=true", "--db", str(db), tmp=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    import sqlite3

    with sqlite3.connect(db) as c:
        (options,) = c.execute("SELECT options FROM games").fetchone()
    assert '"open_treasure": true' in options


def test_selfplay_ai_easy_prints_each_game_with_the_seats_strengths(tmp_path: Path) -> None:
    p = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "selfplay", "monster-inn", "--ai", "easy", "--games", "2"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    games = [line for line in p.stdout.splitlines() if line.startswith("game ")]
    assert len(games) == 2, p.stdout
    for line in games:
        assert re.match(
            r"game \d+: \d+ moves; scores: Bot 1 \(Easy AI\) -?\d+, Bot 2 \(Easy AI\) -?\d+", line
        ), line
        assert re.search(r"; winner: Bot \d \(Easy AI\)", line), line


def test_selfplay_ai_gives_each_seat_its_strength(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """``--ai easy,hard,normal``: seat 1 easy, seat 2 hard, seat 3 normal, as the
    names say and as the computer players are asked to play (every job a seat's
    player receives carries that seat's strength; the move itself is the easy
    player's here, so the test takes seconds)."""
    import asyncio

    import bot
    from tables import thinking

    asked: dict[int, set[str]] = {}

    def record(job: thinking.Job) -> object:
        asked.setdefault(job.view["viewer"], set()).add(job.level)
        return thinking.easy(job)

    monkeypatch.setattr(thinking, "decide", record)
    monkeypatch.setenv("LAIRKEEPER_AI_WORKERS", "0")
    args = bot.selfplay_parser().parse_args(["monster-inn", "--ai", "easy,hard,normal"])
    assert asyncio.run(bot.selfplay(args)) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("game 1:"))
    assert (
        "scores: Bot 1 (Easy AI) " in line and ", Bot 2 (Hard AI) " in line and ", Bot 3 (Normal AI) " in line
    )
    # The easy player never goes to the pool (it answers at once): seat 1 is not asked.
    assert asked == {1: {"hard"}, 2: {"normal"}}
    assert "with 3 players" in out


def test_selfplay_ai_refuses_unknown_strengths_and_miscounts() -> None:
    for extra, says in (
        (["--ai", "expert"], "expert is not a strength"),
        (["--ai", "easy,hard", "--players", "3"], "2 strengths for 3 players"),
    ):
        p = subprocess.run(
            [sys.executable, str(ROOT / "bot.py"), "selfplay", "monster-inn", *extra],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
        )
        assert p.returncode == 2 and says in p.stderr, p.stderr
