"""bot.py as a process: the token-less message, foreign databases, .env loading."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LAIRKEEPER_"))}
    full.update(env)
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *args],
        env=full,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_a_token_one_sentence_and_nonzero() -> None:
    p = run([], {})
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and "discord.com/developers" in lines[0]


def test_foreign_database_refused_and_untouched(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE invoices (n INTEGER)")
    con.commit()
    con.close()
    before = db.read_bytes()
    p = run([], {"DISCORD_TOKEN": "x", "LAIRKEEPER_DB": str(db)})
    assert p.returncode == 3
    assert "Traceback" not in p.stderr and "another program" in p.stderr
    assert db.read_bytes() == before


def test_dotenv_is_read(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    import bot

    env_file = tmp_path / ".env"
    env_file.write_text("# comment\nexport LK_TEST_A=one\nLK_TEST_B='two'\n")
    os.environ["LK_TEST_B"] = "kept"
    try:
        bot.load_dotenv(env_file)
        assert os.environ["LK_TEST_A"] == "one"
        assert os.environ["LK_TEST_B"] == "kept", "the real environment wins over .env"
    finally:
        os.environ.pop("LK_TEST_A", None)
        os.environ.pop("LK_TEST_B", None)


def test_unknown_arguments_print_usage() -> None:
    p = run(["frobnicate"], {})
    assert p.returncode == 2 and "Usage" in p.stderr


def test_nothing_that_draws_or_rates_is_imported_before_ready(tmp_path: Path) -> None:
    """Pillow, the renderers and the rating library wait until after "ready" (issue 39
    point 7: "ready" with 10,000 games well under 1 s): what bot.py imports up to
    "ready" leaves them out, and the warm-up loads the picture of what changed since a
    player's last move as well as the boards, before a player asks for one."""
    code = f"""
import asyncio, sys
sys.path.insert(0, {str(ROOT)!r})
import bot
bot.make_bot({str(tmp_path / "games.db")!r})
import cogs.games, cogs.slowplay, cogs.waiting  # the extensions setup_hook loads
print(sorted(m for m in sys.modules if m.split(".")[0] in ("PIL", "render", "openskill") and m != "render"))
from store import Store
from tables import Tables

async def warm():
    store = await Store({str(tmp_path / "games.db")!r}).open()
    tables = Tables(store)
    await tables.warm_up()
    tables.close()
    await store.close()

asyncio.run(warm())
print("render.since" in sys.modules and "openskill.models" in sys.modules)
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    before, warmed = p.stdout.splitlines()[-2:]
    assert before == "[]", f"imported before ready: {before}"
    assert warmed == "True"
