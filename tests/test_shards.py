"""Processes by shard: LAIRKEEPER_SHARDS / LAIRKEEPER_SHARD_COUNT."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot import ConfigError, parse_shards

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
