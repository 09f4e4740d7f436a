"""Processes by shard: LAIRKEEPER_SHARDS / LAIRKEEPER_SHARD_COUNT."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot import ConfigError, parse_shards
from store import Store

ROOT = Path(__file__).resolve().parents[1]


def test_default_is_one_process_without_sharding() -> None:
    assert parse_shards(None, None) is None
    assert parse_shards("", "") is None


@pytest.mark.parametrize(
    ("spec", "count", "want"),
    [
        (None, "4", ([0, 1, 2, 3], 4)),
        ("0-3", "8", ([0, 1, 2, 3], 8)),
        ("4-7", "8", ([4, 5, 6, 7], 8)),
        ("0,2, 5", "6", ([0, 2, 5], 6)),
        ("1", "2", ([1], 2)),
        ("0-1,3", "4", ([0, 1, 3], 4)),
    ],
)
def test_shard_ranges(spec: str | None, count: str, want: tuple[list[int], int]) -> None:
    assert parse_shards(spec, count) == want


@pytest.mark.parametrize(
    ("spec", "count", "words"),
    [
        ("0-3", None, "needs LAIRKEEPER_SHARD_COUNT"),
        ("0-4", "4", "from 0 to 3"),
        ("3-1", "4", "from 0 to 3"),
        ("a", "4", "look like"),
        (None, "0", "at least 1"),
        (None, "two", "whole number"),
    ],
)
def test_bad_shard_settings_are_one_sentence(spec: str | None, count: str | None, words: str) -> None:
    with pytest.raises(ConfigError, match=words) as err:
        parse_shards(spec, count)
    assert str(err.value).count(".") >= 1 and "\n" not in str(err.value)


def test_bot_refuses_bad_shards_before_connecting(tmp_path: Path) -> None:
    env = {
        "DISCORD_TOKEN": "x",
        "LAIRKEEPER_DB": str(tmp_path / "a.db"),
        "LAIRKEEPER_SHARDS": "0-9",
        "LAIRKEEPER_SHARD_COUNT": "2",
        "PATH": "/usr/bin:/bin",
    }
    p = subprocess.run(
        [sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert p.returncode == 2 and "from 0 to 1" in p.stderr
    assert not (tmp_path / "a.db").exists()


def test_bot_refuses_a_foreign_postgres_database_before_connecting() -> None:
    """One sentence, status 3, the database untouched, Discord never contacted."""
    import asyncio

    import asyncpg

    from tests.pgserver import fresh_database

    with fresh_database() as url:

        async def make() -> None:
            con = await asyncpg.connect(url)
            await con.execute("CREATE TABLE people (name TEXT)")
            await con.close()

        asyncio.run(make())
        env = {"DISCORD_TOKEN": "x", "LAIRKEEPER_DB": url, "PATH": "/usr/bin:/bin"}
        p = subprocess.run(
            [sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert p.returncode == 3 and "another program" in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1


async def _takeover(target: str) -> None:
    from store import SeatRow

    lease = 30.0
    base = await Store(target).open()
    s0 = await Store(target, shards=([0], 2)).open()
    s1 = await Store(target, shards=([1], 2)).open()
    for s in (s0, s1):
        s.TIMER_LEASE = lease
    try:
        games = {}
        for shard in (0, 1):
            gid = await base.create_game("test-race", {}, 5, 1, guild_id=(shard << 22) + 7)
            await base.set_seats(gid, 0, [SeatRow(0, 1, "a", False), SeatRow(1, 2, "b", False)])
            await base.start(gid, 1, {"n": 0}, arm=[(0, "reminder", 100.0)])
            games[shard] = gid

        async def fire(s: Store, now: float) -> list[tuple[int, str]]:
            claimed = await s.claim_due(now)
            for t in claimed:
                await s.reschedule(t[0], None)  # fired: consumed
            return [(t[1], t[3]) for t in claimed]

        # Both processes alive: each fires its own shard's timers only.
        assert await fire(s1, 1000.0) == [(games[1], "reminder")]
        assert await fire(s0, 1000.0) == [(games[0], "reminder")]
        # The process of shard 1 dies (it claims nothing more). A timer of its guild
        # comes due: while its lease runs, the live process leaves it alone...
        await base.arm(games[1], [(1, "deadline", 1010.0)])
        assert await fire(s0, 1000.0 + lease - 1) == []
        # ...and once the lease ran out, the live process fires it (once).
        assert await fire(s0, 1000.0 + lease + 1) == [(games[1], "deadline")]
        assert await fire(s0, 1000.0 + lease + 2) == []
        # The owner comes back: its lease is renewed at its first claim, and its
        # timers are its own again.
        assert await fire(s1, 1090.0) == []  # fired already, by the live process
        await base.arm(games[1], [(1, "reminder", 1100.0)])
        assert await fire(s0, 1100.0) == []
        assert await fire(s1, 1100.0) == [(games[1], "reminder")]
        # The live process wakes at least every third of the lease to renew and look.
        assert (await s0.next_due()) <= s0.clock() + lease / 3  # type: ignore[operator]
    finally:
        for s in (base, s0, s1):
            await s.close()


def test_a_live_process_fires_the_timers_of_a_dead_ones_shards(db_target: str) -> None:
    """Issue 27: with two processes, when the one owning a shard dies, the other fires
    that shard's due timers once the dead one's lease ran out."""
    import asyncio

    asyncio.run(_takeover(db_target))
