"""Issue 27 through the real bot process and the stand-in: a bot started on a
database written by release f63664e carries every game to today's rules, tells the
thread of every running game once, in words, what changed, and posts it a fresh
board; a restart tells nobody again."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from tests.e2e.harness import BotProcess
from tests.standin import StandIn

pytestmark = pytest.mark.e2e

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "release-f63664e.db"
TOLD = "continues under its newest rules"


async def _threads_for_the_fixture(standin: StandIn, db: Path) -> dict[int, tuple[int, str]]:
    """A thread in the stand-in's server for every game of the copied fixture."""
    con = sqlite3.connect(db)
    try:
        # The fixture's turns began when it was written (2026-11-25), with 48-hour deadlines: move
        # its clocks to now, or a deadline that has since passed plays a move during the test.
        (written,) = con.execute("SELECT MAX(turn_since) FROM games").fetchone()
        shift = time.time() - written
        con.execute("UPDATE games SET turn_since = turn_since + ?", (shift,))
        con.execute("UPDATE timers SET due = due + ?", (shift,))
        games = con.execute("SELECT id, status FROM games WHERE state IS NOT NULL").fetchall()
        out = {}
        for gid, status in games:
            tid = standin.snowflake()
            await standin._create_thread(standin.channel_id, tid, f"game {gid}", 11, 10080, standin.bot_id)
            con.execute(
                "UPDATE games SET guild_id=?, channel_id=?, thread_id=? WHERE id=?",
                (standin.guild_id, standin.channel_id, tid, gid),
            )
            out[gid] = (tid, status)
        con.commit()
    finally:
        con.close()
    return out


def _told(standin: StandIn, tid: int) -> int:
    return sum(1 for m in standin.channel_messages(tid) if TOLD in (m.content or ""))


def _boards(standin: StandIn, tid: int) -> int:
    return sum(1 for m in standin.channel_messages(tid) if m.attachments)


async def test_an_old_release_s_running_games_are_told_once_what_changed(
    standin: StandIn, tmp_path: Path
) -> None:
    db = tmp_path / "lairkeeper.db"
    shutil.copy(FIXTURE, db)
    threads = await _threads_for_the_fixture(standin, db)
    running = {tid for tid, status in threads.values() if status == "active"}
    finished = {tid for tid, status in threads.values() if status != "active"}
    assert len(running) == 10 and len(finished) == 5

    bot = BotProcess(standin, db, tmp_path / "bot.log")
    await bot.start()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not all(_told(standin, t) for t in running):
            await asyncio.sleep(0.5)
        assert all(_told(standin, t) == 1 for t in running), bot.tail(80)
        assert not any(_told(standin, t) for t in finished)
        # Issue 39: the games are carried once connected; "ready" never waits on them.
        lines = (tmp_path / "bot.log").read_text().splitlines()
        ready = next(i for i, line in enumerate(lines) if "ready: " in line)
        carried = next(i for i, line in enumerate(lines) if "games carried to the newest rules" in line)
        assert ready < carried, bot.tail(80)
        for tid in running:  # the words in players' terms
            told = next(m.content for m in standin.channel_messages(tid) if TOLD in (m.content or ""))
            assert "_" not in told and "Player " not in told
        # then a fresh board drawn by today's engine (the old board's buttons are stale)
        while time.monotonic() < deadline and not all(_boards(standin, t) for t in running):
            await asyncio.sleep(0.5)
        assert all(_boards(standin, t) == 1 for t in running), bot.tail(80)
        assert not any(_boards(standin, t) for t in finished)
    finally:
        await bot.stop()

    again = BotProcess(standin, db, tmp_path / "bot2.log")
    await again.start()
    try:
        await asyncio.sleep(5)
        assert all(_told(standin, t) == 1 and _boards(standin, t) == 1 for t in running)
        assert not any(_told(standin, t) for t in finished)
    finally:
        await again.stop()
