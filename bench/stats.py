"""/stats and ratings with 10,000 finished games stored in one server (issue 41).

The database: 10,000 finished games of every installed game in one server, 40 people
and computer seats of each strength, 2 to 5 seats a game, random places with some
shared, and 100 logged moves a game (1,000,000 rows: what the "was a person
replaced" query reads). Measured:

- ``cold``: a server's first ratings (every rating rebuilt from the games table), as
  the start-up builds them in the background (also after an upgrade that changes the
  ratings' format); ``first``: the first /stats after that;
- ``restart``: the first /stats after a restart (the ratings as the store keeps them,
  checked against the games table and brought up to date);
- ``stats``, ``player``, ``since``: /stats, /stats player:, /stats since:12h with the
  ratings kept (every later call);
- ``update``: one game ends; the ratings brought up to date (what the final board pays).
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import core

N_GAMES = 10_000
MOVES_PER_GAME = 100
PEOPLE = 40
GUILD = 77
LEVELS = ("easy", "normal", "hard")


def _game(rnd: random.Random, gid: int, keys: list[str], ended: float) -> tuple[Any, list[Any]]:
    key = keys[gid % len(keys)]
    g = core.get(key)
    n = rnd.randint(g.min_players, min(5, g.max_players))
    people = rnd.sample(range(1, PEOPLE + 1), n)
    seats = []
    for s, u in enumerate(people):
        if rnd.random() < 0.2:
            seats.append((gid, s, None, f"Bot {s + 1}", 1, rnd.choice(LEVELS)))
        else:
            seats.append((gid, s, u, f"player{u}", 0, None))
    order = list(range(n))
    rnd.shuffle(order)
    ranking: list[list[int]] = []
    for s in order:  # one place in ten shared
        if ranking and rnd.random() < 0.1:
            ranking[-1].append(s)
        else:
            ranking.append([s])
    scores = [0] * n
    for i, group in enumerate(ranking):
        for s in group:
            scores[s] = 10 * (len(ranking) - i)
    result = {"scores": scores, "ranking": ranking, "winners": ranking[0], "breakdown": [], "tiebreak": None}
    row = (gid, GUILD, 9, key, "{}", gid, "over", 3, MOVES_PER_GAME, json.dumps(result), ended - 3600, ended)
    return row, seats


async def _schema(path: Path) -> None:
    from store import Store

    await (await Store(str(path)).open()).close()


def build(path: Path, keys: list[str], n: int = N_GAMES, start: float = 1.7e9) -> None:
    asyncio.run(_schema(path))
    rnd = random.Random(41)
    games, seats, actions = [], [], []
    aid = 0
    for gid in range(1, n + 1):
        row, ss = _game(rnd, gid, keys, start + gid * 60.0)
        games.append(row)
        seats += ss
        for seq in range(1, MOVES_PER_GAME + 1):
            aid += 1
            s = ss[seq % len(ss)]
            actions.append((aid, gid, seq, s[1], s[2], "move", row[-1] - 60 + seq * 0.1))
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN")
    con.executemany(
        "INSERT INTO games (id, guild_id, channel_id, game_key, options, seed, status, version, moves, result, "
        "created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        games,
    )
    con.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) VALUES (?,?,?,?,?,?)", seats
    )
    con.executemany(
        "INSERT INTO actions (id, game_id, seq, seat, user_id, notation, created_at) VALUES (?,?,?,?,?,?,?)",
        actions,
    )
    con.execute("COMMIT")
    con.execute("ANALYZE")
    con.close()


def ms(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {
        "median_ms": round(statistics.median(xs) * 1000, 1),
        "max_ms": round(xs[-1] * 1000, 1),
        "runs": len(xs),
    }


async def _measure(path: Path, keys: list[str], n: int, runs: int, updates: int) -> dict[str, Any]:
    from store import Store
    from tables import Tables

    store = await Store(str(path)).open()
    now = 1.7e9 + (n + 1) * 60.0
    t = Tables(store, clock=lambda: now)
    out: dict[str, Any] = {"games": n, "moves_logged": n * MOVES_PER_GAME}
    t0, c0 = time.perf_counter(), time.process_time()
    await t.warm_ratings([GUILD])  # what a start-up does in the background
    out["cold"] = ms([time.perf_counter() - t0])
    # CPU time of the whole process (the rebuild's thread and SQLite's too).
    out["cold"]["cpu_ms"] = round((time.process_time() - c0) * 1000, 1)
    t0 = time.perf_counter()
    await t.stats(GUILD)
    out["first"] = ms([time.perf_counter() - t0])
    restarts = []
    for _ in range(3):  # a restarted bot: the stored ratings, checked against the games
        fresh = Tables(store, clock=lambda: now)
        t0 = time.perf_counter()
        await fresh.stats(GUILD)
        restarts.append(time.perf_counter() - t0)
    out["restart"] = ms(restarts)

    async def timed(make: Any) -> dict[str, float]:
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            await make()
            times.append(time.perf_counter() - t0)
        return ms(times)

    out["stats"] = await timed(lambda: t.stats(GUILD))
    out["stats_game"] = await timed(lambda: t.stats(GUILD, keys[0]))
    out["player"] = await timed(lambda: t.player_stats(GUILD, 1, "player1"))
    out["since"] = await timed(lambda: t.tonight(GUILD, 12))
    rnd = random.Random(7)
    times, cpu = [], []
    for i in range(updates):
        gid = n + 1 + i
        row, ss = _game(rnd, gid, keys, now + i)
        async with store.transaction() as tx:
            await tx.execute(
                "INSERT INTO games (id, guild_id, channel_id, game_key, options, seed, status, version, moves, "
                "result, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                *row,
            )
            for s in ss:
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) VALUES (?,?,?,?,?,?)",
                    *s,
                )
        t0, c0 = time.perf_counter(), time.process_time()
        await t.rating_book(GUILD)  # what the final board's "Ratings:" line pays
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    out["update"] = ms(times)
    # CPU time of this process (SQLite runs in its thread): what a busy machine does not change.
    out["update"]["cpu_median_ms"] = round(statistics.median(cpu) * 1000, 2)
    await store.close()
    return out


def stats(keys: list[str], log: Any, n: int = N_GAMES, runs: int = 10, updates: int = 50) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "stats.db"
        t0 = time.perf_counter()
        build(path, keys, n)
        log(f"  database of {n:,} finished games built in {time.perf_counter() - t0:.1f} s")
        out = asyncio.run(_measure(path, keys, n, runs, updates))
    for k in ("cold", "first", "restart", "stats", "stats_game", "player", "since", "update"):
        log(f"  {k}: median {out[k]['median_ms']} ms, max {out[k]['max_ms']} ms ({out[k]['runs']} runs)")
    log(f"  update: CPU median {out['update']['cpu_median_ms']} ms")
    return out


if __name__ == "__main__":
    from bench.common import game_keys

    print(json.dumps(stats(game_keys(None), print), indent=1))
