"""Build (once, then cache) a database with 10,000 games and 1,000,000 logged
actions, through the store's own schema, with real snapshots from real games.

The schema comes from ``Store.open()`` (the migrations); the rows go in with
plain ``executemany`` in one transaction, which takes seconds instead of the
hours a million ``commit_move`` calls would.

Every game is a random legal playout of an installed game:

- 20 % are *active*: the snapshot after a random prefix of the playout, and the
  log holds exactly that prefix, so seed + log replays to the snapshot;
- 5 % are *abandoned* the same way;
- 75 % are *over*: the final snapshot and result. Their logs are the first
  moves of the playout, trimmed so that the whole table holds exactly
  1,000,000 rows (a full random playout is 90-500 moves, which would overshoot).

All seats are human (distinct users), so ``resume_all`` has no AI move to make
and measures only loading the active games. Each active game has its reminder
timer armed, as the bot would.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import ROOT, Playout, game_keys, playout
from engine import core
from tables.upkeep import TRACKING

N_GAMES = 10_000
N_ACTIONS = 1_000_000
ACTIVE, ABANDONED = 0.20, 0.05
POOL_PER_KEY = 6
BUILDER_VERSION = 5
USER_BASE = 10_000_000
THREAD_BASE = 5_000_000_000


def cache_dir() -> Path:
    d = Path(os.environ.get("LAIRKEEPER_BENCH_CACHE", Path(tempfile.gettempdir()) / "lairkeeper-bench"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def fingerprint(keys: list[str]) -> str:
    """Changes whenever an engine, its data or the schema changes, so a stale
    cache (snapshots an engine can no longer read) is never used."""
    h = hashlib.sha256(f"{BUILDER_VERSION}:{N_GAMES}:{N_ACTIONS}:{','.join(keys)}".encode())
    from store.db import MIGRATIONS

    h.update("".join(MIGRATIONS).encode())
    for sub in ("engine", "data"):
        for p in sorted((ROOT / sub).rglob("*")):
            if p.suffix in (".py", ".json") and p.is_file():
                h.update(str(p.relative_to(ROOT)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()[:16]


def user_of(gid: int, seat: int) -> int:
    return USER_BASE + gid * 8 + seat


def pool(keys: list[str], per_key: int = POOL_PER_KEY, log: Any = print) -> dict[str, list[Playout]]:
    out: dict[str, list[Playout]] = {}
    for key in keys:
        game = core.get(key)
        counts = list(range(game.min_players, game.max_players + 1))
        t = time.perf_counter()
        out[key] = [playout(game, counts[i % len(counts)], 1000 + i) for i in range(per_key)]
        log(
            f"  pool {key}: {per_key} playouts, {sum(len(p.log) for p in out[key])} moves, {time.perf_counter() - t:.1f} s"
        )
    return out


async def _schema(path: Path) -> None:
    from store import Store

    store = await Store(str(path)).open()
    await store.close()


def build(path: Path, keys: list[str], log: Any = print) -> dict[str, Any]:
    t0 = time.perf_counter()
    playouts = pool(keys, log=log)
    asyncio.run(_schema(path))
    rnd = random.Random(42)
    now = time.time()
    plan: list[tuple[str, Playout, str, int]] = []  # key, playout, status, log length
    for i in range(N_GAMES):
        key = keys[i % len(keys)]
        p = rnd.choice(playouts[key])
        r = rnd.random()
        status = "active" if r < ACTIVE else "abandoned" if r < ACTIVE + ABANDONED else "over"
        k = rnd.randint(1, len(p.log) - 1) if status != "over" and len(p.log) > 1 else len(p.log)
        plan.append((key, p, status, k))
    # Trim the finished games' logs so the table holds exactly N_ACTIONS rows.
    left = N_ACTIONS - sum(k for _key, _p, s, k in plan if s != "over")
    over = sorted((i for i, e in enumerate(plan) if e[2] == "over"), key=lambda i: len(plan[i][1].log))
    for n, i in enumerate(over):
        key, p, s, _ = plan[i]
        k = max(0, min(len(p.log), left // (len(over) - n)))
        plan[i] = (key, p, s, k)
        left -= k

    games, seats, actions, timers = [], [], [], []
    results: dict[tuple[str, int, int], str] = {}
    aid = 0
    for i, (key, p, status, k) in enumerate(plan):
        gid = i + 1
        game = core.get(key)
        created = now - (N_GAMES - i) * 600.0
        state_json = p.final if status == "over" else p.states[k]
        result = None
        if status == "over":
            rk = (key, p.players, p.seed)
            if rk not in results:
                results[rk] = json.dumps(game.result(json.loads(p.final)).to_json())
            result = results[rk]
        options = json.dumps({k2: o.default for k2, o in game.options.items()})
        games.append(
            (
                gid,
                1000 + gid % 50,
                2000 + gid % 50,
                THREAD_BASE + gid,
                THREAD_BASE + N_GAMES + gid,
                key,
                options,
                p.seed,
                status,
                2 + k,
                k,
                user_of(gid, 0),
                state_json,
                result,
                created,
                created + k * 30.0,
                created + k * 30.0,
                "{}",
                game.revision,  # begun under today's rules, as a running bot records it
            )
        )
        for s in range(p.players):
            seats.append((gid, s, user_of(gid, s), f"player{s + 1}", 0))
        for seq, (seat, note) in enumerate(p.log[:k], 1):
            aid += 1
            actions.append((aid, gid, seq, seat, user_of(gid, seat), note, created + seq * 30.0, 0))
        if status == "active":
            for s in sorted(game.to_act(json.loads(state_json))):
                timers.append((gid, s, "reminder", now + 86400.0))

    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("BEGIN")
    con.executemany(
        "INSERT INTO games (id, guild_id, channel_id, thread_id, lobby_message_id, game_key, options, seed, "
        "status, version, moves, host_id, state, result, created_at, updated_at, turn_since, settings, "
        "revision) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        games,
    )
    con.executemany("INSERT INTO seats (game_id, seat, user_id, name, is_ai) VALUES (?,?,?,?,?)", seats)
    con.executemany(
        "INSERT INTO actions (id, game_id, seq, seat, user_id, notation, created_at, undone) "
        "VALUES (?,?,?,?,?,?,?,?)",
        actions,
    )
    con.executemany("INSERT INTO timers (game_id, seat, kind, due) VALUES (?,?,?,?)", timers)
    # A running bot's database: boards tracked since the first start after schema 3
    # (else every start-up of a fresh copy would mark all 10,000 games as posted
    # before "ready", a one-time step of that upgrade).
    con.execute("INSERT INTO meta (key, value) VALUES (?, '1')", (TRACKING,))
    con.execute("UPDATE games SET posted_version = version")  # every board reached its thread
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("ANALYZE")
    n_games, n_actions = (
        con.execute("SELECT count(*) FROM games").fetchone()[0],
        con.execute("SELECT count(*) FROM actions").fetchone()[0],
    )
    by_status = dict(con.execute("SELECT status, count(*) FROM games GROUP BY status").fetchall())
    con.close()
    info = {
        "games": n_games,
        "actions": n_actions,
        "by_status": by_status,
        "file_mb": round(path.stat().st_size / 1e6, 1),
        "build_s": round(time.perf_counter() - t0, 1),
        "keys": keys,
    }
    return info


def cached_db(
    keys: list[str] | None = None, log: Any = print, name: str = "bench"
) -> tuple[Path, dict[str, Any]]:
    """The path of the cached database of N_GAMES games (built if missing or stale)."""
    keys = keys or game_keys()
    path = cache_dir() / f"{name}-{fingerprint(keys)}.db"
    meta = path.with_suffix(".json")
    if path.exists() and meta.exists():
        return path, json.loads(meta.read_text())
    for old in cache_dir().glob(f"{name}-*"):
        old.unlink()
    log(f"building the benchmark database {path} (once; cached until an engine or the schema changes)")
    tmp = path.with_name(path.name + ".part")
    for extra in ("", "-wal", "-shm"):
        Path(str(tmp) + extra).unlink(missing_ok=True)
    info = build(tmp, keys, log)
    tmp.rename(path)
    meta.write_text(json.dumps(info))
    return path, info


def working_copy(src: Path, dest_dir: Path) -> Path:
    """A fresh copy to write to, so the cache stays pristine. Flushed to disk before
    it is used: otherwise the kernel is still writing back 122 MB of dirty pages
    while the benchmark runs, and a save can be held up behind that writeback
    (wall time without CPU time, which no running bot sees)."""
    dest = dest_dir / src.name
    shutil.copyfile(src, dest)
    fd = os.open(dest, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return dest
