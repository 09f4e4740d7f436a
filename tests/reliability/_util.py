"""Shared helpers for the reliability suite.

``pytest --long`` (or ``LAIRKEEPER_LONG=1``) switches every test to its full figure (1,000 killed-and-
resumed moves, 10,000 fuzz cases per game, ...); ``python -m bench --only
reliability`` runs it so. ``LAIRKEEPER_REL_OUT=<file>`` makes each test append
its figures to that file as JSON lines (the benchmark collects them).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from engine import core
from tables import Tables

ROOT = Path(__file__).resolve().parents[2]
LONG = os.environ.get("LAIRKEEPER_LONG", "") not in ("", "0")


def size(fast: int, long: int) -> int:
    return long if LONG else fast


def keys() -> list[str]:
    """Every game installed at run time; the test game before any real one exists."""
    return core.available() or ["test-race"]


def record(test: str, **figures: Any) -> None:
    out = os.environ.get("LAIRKEEPER_REL_OUT")
    if out:
        with open(out, "a", encoding="utf-8") as f:
            f.write(json.dumps({"test": test, "long": LONG, **figures}) + "\n")


def user_of(gid: int, seat: int) -> int:
    return 7_000_000 + gid * 10 + seat


async def new_table(t: Tables, key: str, seed: int, players: int | None = None) -> tuple[int, list[int]]:
    """A started game of ``key`` with human seats only; returns (game id, user of each seat)."""
    game = core.get(key)
    n = players or game.min_players
    lobby = await t.create(0, "host", key, seed=seed, take_seat=False)
    gid = lobby.game_id
    users = [user_of(gid, s) for s in range(n)]
    for s, u in enumerate(users):
        await t.join(gid, u, f"player{s + 1}")
    await t.start(gid, None)
    return gid, users


async def games_at(t: Tables, key: str, *states: dict[str, Any]) -> list[tuple[int, list[int]]]:
    """A started game of people at each of ``states`` (all of the first's seed and
    seats), as :func:`new_table` returns them: states to compare through Tables."""
    first = states[0]
    out = []
    for state in states:
        gid, users = await new_table(t, key, seed=first["rng"]["seed"], players=first["seats"])
        async with t.store.transaction() as tx:
            await tx.execute("UPDATE games SET state=? WHERE id=?", json.dumps(state), gid)
        out.append((gid, users))
    return out


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_NOISE = ("Traceback", "Error(", "Exception", "<object", "KeyError", "NoneType", "object at 0x")


def clear_sentence(text: str) -> str | None:
    """Why ``text`` is not a clear sentence for a player, or None if it is: not
    empty, no traceback or repr noise. (Style problems are :func:`style_problem`.)"""
    if not text.strip():
        return "empty"
    for noise in _NOISE:
        if noise in text:
            return f"contains {noise!r}"
    return None


def style_problem(text: str) -> str | None:
    """Softer problems, counted and reported rather than failed: longer than 300
    characters (usually the player's whole input echoed back), several lines, or
    control characters echoed from the input."""
    if len(text) > 300:
        return "long"
    if text.count("\n") > 1:
        return "multi-line"
    if _CONTROL.search(text):
        return "control characters"
    return None
