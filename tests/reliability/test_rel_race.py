"""50 concurrent attempts at the same move: exactly one is applied, the other 49
are refused with a clear sentence, and the log grows by exactly one row."""

from __future__ import annotations

import asyncio
import time

from engine import core
from store import Store
from tables import TableError, Tables
from tests.reliability._util import clear_sentence, keys, new_table, record, size

ATTEMPTS = 50


async def acting(t: Tables, gid: int) -> tuple[int, int, str, int, int]:
    """(user, seat, notation of a legal move, version, moves) for a seat to act now."""
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    game = core.get(row.game_key)
    seat = min(game.to_act(row.state))
    action = game.legal_actions(row.state, seat)[0]
    user = row.seats[seat].user_id
    assert user is not None
    return user, seat, game.format(action), row.version, row.moves


def outcome(results: list[object]) -> tuple[int, list[str]]:
    applied = sum(1 for r in results if not isinstance(r, BaseException))
    others = [r for r in results if isinstance(r, BaseException) and not isinstance(r, TableError)]
    assert not others, f"not a clean refusal: {others[0]!r}"
    sentences = sorted({str(r) for r in results if isinstance(r, TableError)})
    for s in sentences:
        assert clear_sentence(s) is None, (s, clear_sentence(s))
    return applied, sentences


async def test_fifty_racing_attempts_apply_once(db_target: str) -> None:
    """Every installed game, in one database shared by 51 connections (on
    PostgreSQL: 51 connection pools, as 51 processes would have)."""
    path = db_target
    store = await Store(path).open()
    t = Tables(store)
    # 50 extra connections to the same file: separate processes' worth of racers.
    others = [await Store(path).open() for _ in range(ATTEMPTS)]
    rounds = size(1, 10)
    seen: set[str] = set()
    t0 = time.perf_counter()
    races = 0
    try:
        for key, r in ((k, r) for r in range(rounds) for k in keys()):
            gid, _users = await new_table(t, key, seed=r)
            for how in ("button", "text", "connections"):
                user, _seat, note, version, moves = await acting(t, gid)
                if how == "button":  # one process, 50 clicks on the same button
                    coros = [t.act(gid, user, button=(version, 0)) for _ in range(ATTEMPTS)]
                elif how == "text":  # one process, 50 /play of the same move
                    coros = [t.act(gid, user, note) for _ in range(ATTEMPTS)]
                else:  # 50 connections, each with its own Tables (no shared lock)
                    coros = [Tables(s).act(gid, user, note) for s in others]
                results = await asyncio.gather(*coros, return_exceptions=True)
                applied, sentences = outcome(results)
                seen.update(sentences)
                after = await store.get(gid)
                assert after is not None
                assert applied == 1, f"{how}: {applied} of {ATTEMPTS} attempts were applied"
                assert after.moves == moves + 1 and len(await store.log(gid)) == moves + 1, how
                races += 1
                if after.status != "active":
                    break
    finally:
        for s in others:
            await s.close()
        await store.close()
    record(
        "race" + ("_postgresql" if store.postgres else ""),
        games=keys(),
        rounds=rounds,
        attempts_per_race=ATTEMPTS,
        races=races,
        applied_per_race=1,
        refusal_sentences=sorted(seen),
        seconds=round(time.perf_counter() - t0, 1),
    )
