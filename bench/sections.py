"""The benchmark sections. Each returns a JSON-able dict of figures.

Wall-clock times on a shared 2-core machine are noisy, so every comparison
(render vs a bare PNG encode, commit_move vs a bare SQLite commit) is measured
in the same run, interleaved sample by sample, and quoted as a ratio of medians.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import ROOT, Playout, game_keys, median, percentile, player_counts, playout
from engine import core

Log = Any


def _renderer(key: str) -> Any:
    import importlib

    # The renderer module itself: the benchmark times its plain drawing functions.
    return importlib.import_module(f"render.{core.MODULES[key]}")


# ---- engine -------------------------------------------------------------------------


def engine(keys: list[str], seconds: float, log: Log) -> dict[str, Any]:
    """Random legal playouts (new -> random legal moves -> over), player counts in rotation."""
    out: dict[str, Any] = {}
    for key in keys:
        game = core.get(key)
        counts = player_counts(game)
        games = moves = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds or games == 0:
            pick = random.Random(games)
            state = game.new(counts[games % len(counts)], None, games)
            while not game.is_over(state):
                seat = pick.choice(sorted(game.to_act(state)))
                state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
                moves += 1
            games += 1
        dt = time.perf_counter() - t0
        out[key] = {
            "playouts": games,
            "seconds": round(dt, 2),
            "playouts_per_s": round(games / dt, 2),
            "moves_per_s": round(moves / dt, 1),
            "moves_per_playout": round(moves / games, 1),
        }
        log(f"  engine {key}: {out[key]['playouts_per_s']} playouts/s, {out[key]['moves_per_s']} moves/s")
    return out


# ---- render -------------------------------------------------------------------------


def sample_states(pool: list[Playout], n: int) -> list[dict[str, Any]]:
    """``n`` states spread evenly over the playouts, start to finish."""
    flat = [s for p in pool for s in p.states]
    step = max(1, len(flat) // n)
    return [json.loads(s) for s in flat[::step][:n]]


def render(keys: list[str], pools: dict[str, list[Playout]], n: int, log: Log) -> dict[str, Any]:
    """Median render time and PNG size of the public board, against a bare
    Pillow PNG encode (render.base.to_png) of the same canvas in the same run:
    the very pixels the renderer drew, decoded and encoded again. A flat canvas
    of the same size is reported too, for reference."""
    from PIL import Image

    from engine.wording import mend_all
    from render.base import PALETTE, to_png

    out: dict[str, Any] = {}
    for key in keys:
        game = core.get(key)
        mod = _renderer(key)
        views = [game.view(s, None) for s in sample_states(pools[key], n)]
        mod.render(views[0])  # warm caches (fonts, sprites) once, as a running bot has
        r_ms, bare_ms, flat_ms, sizes, dims = [], [], [], [], []
        r_cpu, bare_cpu = [], []
        for v in views:
            t, c = time.perf_counter(), time.process_time()
            png = mod.render(v)
            r_ms.append((time.perf_counter() - t) * 1000)
            r_cpu.append((time.process_time() - c) * 1000)
            img = Image.open(io.BytesIO(png))
            img.load()
            img = img.convert("RGB")
            t, c = time.perf_counter(), time.process_time()
            to_png(img)
            bare_ms.append((time.perf_counter() - t) * 1000)
            bare_cpu.append((time.process_time() - c) * 1000)
            flat = Image.new("RGB", img.size, PALETTE["bg"])
            t = time.perf_counter()
            to_png(flat)
            flat_ms.append((time.perf_counter() - t) * 1000)
            sizes.append(len(png))
            dims.append(img.size)
        # The words of each view mended as tables/board.py does before a board is drawn
        # (engine/wording.mend_all, on the event loop), the same views in the same order.
        mend_ms: list[float] = []
        for v in views:
            t = time.perf_counter()
            mend_all(v)
            mend_ms.append((time.perf_counter() - t) * 1000)
        priv: list[float] = []
        if hasattr(mod, "render_private"):
            for s in sample_states(pools[key], max(5, n // 4)):
                for seat in range(s["seats"]):
                    t = time.perf_counter()
                    mod.render_private(game.view(s, seat))
                    priv.append((time.perf_counter() - t) * 1000)
        out[key] = {
            "boards": len(views),
            "render_ms_median": round(median(r_ms), 2),
            "render_ms_p99": round(percentile(r_ms, 99), 2),
            "bare_encode_ms_median": round(median(bare_ms), 2),
            "flat_canvas_encode_ms_median": round(median(flat_ms), 2),
            "ratio": round(median(r_ms) / median(bare_ms), 2),
            "render_cpu_ms_median": round(median(r_cpu), 2),
            "bare_encode_cpu_ms_median": round(median(bare_cpu), 2),
            "ratio_cpu": round(median(r_cpu) / median(bare_cpu), 2),
            "png_kb_median": round(median(sizes) / 1024, 1),
            "png_kb_max": round(max(sizes) / 1024, 1),
            "size_px_max": [max(d[0] for d in dims), max(d[1] for d in dims)],
            "private_render_ms_median": round(median(priv), 2) if priv else None,
            "mend_ms_median": round(median(mend_ms), 3),
            "mend_ms_max": round(max(mend_ms), 3),
            "target_ratio_ok": median(r_ms) / median(bare_ms) <= 2.0,
            "target_png_ok": max(sizes) <= 250 * 1024,
        }
        log(
            f"  render {key}: {out[key]['render_ms_median']} ms vs bare encode {out[key]['bare_encode_ms_median']} ms "
            f"(ratio {out[key]['ratio']}), PNG median {out[key]['png_kb_median']} KB, max {out[key]['png_kb_max']} KB, "
            f"words mended {out[key]['mend_ms_median']} ms (max {out[key]['mend_ms_max']} ms)"
        )
    return out


# ---- storage ------------------------------------------------------------------------


def _bare_db(path: Path, check_same_thread: bool = True) -> sqlite3.Connection:
    con = sqlite3.connect(path, isolation_level=None, check_same_thread=check_same_thread)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    con.execute(
        "CREATE TABLE log (id INTEGER PRIMARY KEY, game_id INTEGER, seq INTEGER, seat INTEGER, "
        "user_id INTEGER, notation TEXT, created_at REAL, UNIQUE (game_id, seq))"
    )
    con.execute("CREATE TABLE snap (id INTEGER PRIMARY KEY, version INTEGER, moves INTEGER, state TEXT)")
    con.execute("INSERT INTO snap VALUES (1, 0, 0, '{}')")
    return con


def _bare_commit(con: sqlite3.Connection, i: int, note: str, blob: str) -> None:
    """The least SQL that stores one move: INSERT the log row, UPDATE the snapshot
    text (the same bytes), COMMIT."""
    con.execute("BEGIN IMMEDIATE")
    con.execute(
        "INSERT INTO log (game_id, seq, seat, user_id, notation, created_at) VALUES (1, ?, 0, 100, ?, ?)",
        (i + 1, note, time.time()),
    )
    con.execute(
        "UPDATE snap SET state=?, version=version+1, moves=moves+1 WHERE id=1 AND version=?", (blob, i)
    )
    con.execute("COMMIT")


async def _storage_one(states: list[dict[str, Any]], n: int, tmp: Path) -> dict[str, Any]:
    """``states``: consecutive snapshots of one game. Sample i saves states[i % len]
    in every variant, so each save writes a snapshot that differs from the one
    before it, as a move does (SQLite leaves unchanged overflow pages alone, which
    made saving one snapshot over and over cheaper than any real move)."""
    from store import SeatRow, Store, encode_state

    state = states[0]

    store = await Store(str(tmp / "store.db")).open()
    gid = await store.create_game("bench", {}, 1, 1)
    seats = [SeatRow(i, 100 + i, f"p{i}", False) for i in range(int(state.get("seats", 2)))]
    version = await store.set_seats(gid, 0, seats)
    version = await store.start(gid, version, state)
    bare = _bare_db(tmp / "bare.db")
    # The same bare commit through the stack's driver in ONE hop (the fewest any
    # aiosqlite caller can make), on the store's OWN worker thread: the cost of a
    # hop depends on where the OS put that thread (the same core as the event loop:
    # ~0.02 ms there and back; the other core: ~0.07 ms), so a baseline on another
    # connection's thread would compare thread placements, not saves.
    hop = _bare_db(tmp / "bare_hop.db", check_same_thread=False)
    # The transaction itself, timed on the worker thread (no hop), beside the bare one.
    inner: list[float] = []
    backend: Any = store.backend
    sync = backend._run_sync  # the whole transaction, on the worker thread

    def timed_sync(*args: Any) -> Any:
        t = time.perf_counter()
        try:
            return sync(*args)
        finally:
            inner.append(time.perf_counter() - t)

    backend._run_sync = timed_sync
    hop_inner: list[float] = []

    def timed_bare(i: int, note: str, blob: str) -> None:
        t = time.perf_counter()
        _bare_commit(hop, i, note, blob)
        hop_inner.append(time.perf_counter() - t)

    note = "bench-move"
    t, c = time.perf_counter(), time.process_time()
    blobs = [encode_state(states[i % len(states)]) for i in range(n)]
    encode_s, encode_c = (time.perf_counter() - t) / n, (time.process_time() - c) / n
    samples: dict[str, list[float]] = {
        k: [] for k in ("store", "bare", "hop", "timers", "store_c", "bare_c", "hop_c")
    }
    try:
        for i in range(n):
            blob = blobs[i]
            t, c = time.perf_counter(), time.process_time()
            version = await store.commit_move(gid, version, [(0, 100, note)], blob, None, True)
            samples["store"].append(time.perf_counter() - t)
            samples["store_c"].append(time.process_time() - c)
            t, c = time.perf_counter(), time.process_time()
            _bare_commit(bare, i, note, blob)
            samples["bare"].append(time.perf_counter() - t)
            samples["bare_c"].append(time.process_time() - c)
            t, c = time.perf_counter(), time.process_time()
            await store.db._execute(timed_bare, i, note, blob)
            samples["hop"].append(time.perf_counter() - t)
            samples["hop_c"].append(time.process_time() - c)
            # As tables/ calls it: the next seat's reminder armed, the last seat's dropped.
            # (The same snapshot again, so the next plain save changes it as the bare ones do.)
            t = time.perf_counter()
            version = await store.commit_move(
                gid, version, [(0, 100, note)], blob, None, True, [(1, "reminder", 1e10)], [0]
            )
            samples["timers"].append(time.perf_counter() - t)
    finally:
        bare.close()
        await store.close()
        hop.close()
    med = {k: median(v) for k, v in samples.items()}
    inner_med = median(inner[0::2])  # the plain saves (the odd ones armed timers)
    return {
        "snapshot_bytes": int(median([len(b) for b in blobs])),
        "snapshots": len(states),
        "encode_ms": round(encode_s * 1000, 3),
        "encode_cpu_ms": round(encode_c * 1000, 3),
        "commit_move_ms_median": round(med["store"] * 1000, 3),
        "commit_move_ms_p99": round(percentile(samples["store"], 99) * 1000, 3),
        "bare_one_hop_ms_median": round(med["hop"] * 1000, 3),
        "ratio": round(med["store"] / med["hop"], 2),
        "ratio_cpu": round(med["store_c"] / max(med["hop_c"], 1e-9), 2),
        "transaction_ms_median": round(inner_med * 1000, 4),
        "bare_transaction_ms_median": round(median(hop_inner) * 1000, 4),
        "ratio_transaction": round(inner_med / median(hop_inner), 2),
        "bare_commit_ms_median": round(med["bare"] * 1000, 3),
        "ratio_vs_calling_thread": round(med["store"] / med["bare"], 2),
        "ratio_with_encode_vs_calling_thread": round((med["store"] + encode_s) / med["bare"], 2),
        "commit_move_with_timers_ms_median": round(med["timers"] * 1000, 3),
        "target_ok": med["store"] / med["hop"] <= 1.5,
    }


def storage(keys: list[str], pools: dict[str, list[Playout]], n: int, log: Log) -> dict[str, Any]:
    """Store.commit_move (log row + snapshot, guarded by version, one transaction),
    handed the encoded snapshot as tables/ hands it, against a bare commit of the same
    bytes with the same pragmas: through aiosqlite in one hop (the target's ratio) and
    with sqlite3 on the calling thread (the floor no aiosqlite call can reach)."""
    out: dict[str, Any] = {}
    for key in keys:
        p = max(pools[key], key=lambda p: len(p.final))
        mid = len(p.states) // 2
        states = [json.loads(s) for s in p.states[max(0, mid - 25) : mid + 25]]  # 50 moves of mid-game
        with tempfile.TemporaryDirectory() as d:
            out[key] = asyncio.run(_storage_one(states, n, Path(d)))
        v = out[key]
        log(
            f"  storage {key}: commit_move {v['commit_move_ms_median']} ms vs bare one-hop "
            f"{v['bare_one_hop_ms_median']} ms (ratio {v['ratio']}); the transaction alone "
            f"{v['transaction_ms_median']} ms vs {v['bare_transaction_ms_median']} ms (ratio {v['ratio_transaction']}); bare on the calling thread "
            f"{v['bare_commit_ms_median']} ms; encode {v['encode_ms']} ms ({v['snapshot_bytes']} B)"
        )
    return out


# ---- the move pipeline ----------------------------------------------------------------


async def _pipeline(db: Path, keys: list[str], per_key: int, log: Log) -> dict[str, Any]:
    from store import Store
    from tables import Tables

    store = await Store(str(db)).open()
    tables = Tables(store)
    await tables.warm_up()  # as bot.py does after "ready": the figures are a running bot's
    rnd = random.Random(7)
    out: dict[str, Any] = {}
    try:
        for key in keys:
            game = core.get(key)
            rows = await store._fetch(
                "SELECT id FROM games WHERE game_key=? AND status='active' ORDER BY id", key
            )
            ids = [r[0] for r in rows]
            rnd.shuffle(ids)
            total, apply_save, render_s, cpu = [], [], [], []
            played = 0
            for gid in ids:
                if played >= per_key:
                    break
                row = await store.get(gid)
                assert row is not None and row.state is not None
                seat = rnd.choice(sorted(game.to_act(row.state)))
                action = rnd.choice(game.legal_actions(row.state, seat))
                user = row.seats[seat].user_id
                assert user is not None
                t, c = time.perf_counter(), time.process_time()
                update = await tables.act(gid, user, game.format(action))
                total.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                apply_save.append(update.timings.get("apply_save", 0.0))
                render_s.append(update.timings.get("render", 0.0))
                played += 1
            out[key] = {
                "moves": played,
                "p50_ms": round(median(total) * 1000, 1),
                "p99_ms": round(percentile(total, 99) * 1000, 1),
                "max_ms": round(max(total) * 1000, 1),
                "cpu_p50_ms": round(median(cpu) * 1000, 1),
                "cpu_p99_ms": round(percentile(cpu, 99) * 1000, 1),
                "load_apply_save_p50_ms": round(median(apply_save) * 1000, 1),
                "render_p50_ms": round(median(render_s) * 1000, 1),
                "target_ok": percentile(total, 99) <= 0.100,
            }
            log(
                f"  pipeline {key}: p50 {out[key]['p50_ms']} ms, p99 {out[key]['p99_ms']} ms, CPU p50 {out[key]['cpu_p50_ms']} ms "
                f"(load+apply+save {out[key]['load_apply_save_p50_ms']} ms, render {out[key]['render_p50_ms']} ms)"
            )
    finally:
        await store.close()
    return out


def pipeline(db: Path, keys: list[str], per_key: int, log: Log) -> dict[str, Any]:
    """Tables.act end to end (load, check, parse, apply, save, render, build the
    update) on active games of the 10,000-game database, one random legal move
    by the acting player each."""
    return asyncio.run(_pipeline(db, keys, per_key, log))


# ---- start-up ------------------------------------------------------------------------

_PARTS = r"""
import asyncio, json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {root!r})
from store import integrity
integrity.begin({db!r})  # as bot.py does: the file's pages are read beside the imports
import bot, cogs.games, cogs.slowplay, discord  # what `python bot.py` imports before it is ready
from store import Store
from tables import Tables
t_import = time.perf_counter() - t0

async def main():
    t = time.perf_counter()
    store = await Store({db!r}).open()
    t_open = time.perf_counter() - t
    t = time.perf_counter()
    tables = Tables(store)
    resumed = await tables.resume_all()
    n = await store.count()
    t_resume = time.perf_counter() - t
    await store.close()
    return t_open, t_resume, n, resumed

t_open, t_resume, n, resumed = asyncio.run(main())
status = dict(l.split(":", 1) for l in open("/proc/self/status") if ":" in l)
print(json.dumps({{"cpu_s": time.process_time(), "import_s": t_import, "open_s": t_open, "resume_all_s": t_resume, "games": n,
    "total_s": time.perf_counter() - t0, "rss_mb": int(status["VmRSS"].split()[0]) / 1024,
    "peak_rss_mb": int(status["VmHWM"].split()[0]) / 1024}}))
"""


def _rss(pid: int) -> tuple[float, float]:
    status = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used: less sensitive to a loaded machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _bot_to_ready(db: Path, timeout: float = 60.0) -> dict[str, Any]:
    """Spawn ``python bot.py`` against the Discord stand-in; time until it logs "ready"."""
    from tests.e2e.harness import stop_process
    from tests.standin import StandIn

    standin = await StandIn().start()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LAIRKEEPER_"))}
    env.update(
        DISCORD_TOKEN="bench-dummy-token",
        LAIRKEEPER_DB=str(db),
        LAIRKEEPER_DISCORD_BASE=standin.base,
        LAIRKEEPER_LOG_LEVEL="INFO",
        PYTHONUNBUFFERED="1",
    )
    t0 = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "bot.py",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        while True:
            raw = await asyncio.wait_for(proc.stdout.readline(), timeout)
            if not raw:
                raise RuntimeError("bot.py exited before it was ready:\n" + "".join(lines[-30:]))
            line = raw.decode(errors="replace")
            lines.append(line)
            if re.search(r"\bready: \d+ games stored", line):
                ready_s = time.perf_counter() - t0
                rss, peak = _rss(proc.pid)
                cpu = _cpu(proc.pid)
            if re.search(r"\brenderers warm in", line):  # after "ready": one board of each game drawn
                warm_s = time.perf_counter() - t0
                warm_rss, warm_peak = _rss(proc.pid)
                break
        return {
            "ready_s": round(ready_s, 3),
            "cpu_s": round(cpu, 3),
            "rss_mb": round(rss, 1),
            "peak_rss_mb": round(peak, 1),
            "warm_s": round(warm_s, 3),
            "warm_rss_mb": round(warm_rss, 1),
            "warm_peak_rss_mb": round(warm_peak, 1),
        }
    finally:
        await stop_process(proc)
        await standin.close()


# What the Docker image byte-compiles when it is built (Dockerfile): the code bot.py loads.
COMPILED = ("bot.py", "engine", "render", "store", "tables", "cogs", "legacy")


def compile_project() -> None:
    """Byte-compile the project as the Docker image does at build, so a start-up reads
    .pyc files as a deployed bot does instead of compiling some 13,000 lines first
    (with PYTHONDONTWRITEBYTECODE, as here and in the image, nothing else writes them)."""
    import compileall

    for name in COMPILED:
        path = ROOT / name
        ok = (
            compileall.compile_file(path, quiet=1)
            if path.is_file()
            else compileall.compile_dir(path, quiet=1)
        )
        if not ok:
            raise RuntimeError(f"{name} does not compile")


def startup(db: Path, runs: int, log: Log) -> dict[str, Any]:
    """Start-up time and RSS with the 10,000-game database (and an empty one), the
    project byte-compiled first as in the Docker image."""
    compile_project()
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as d:
        empty = Path(d) / "empty.db"
        parts = []
        for _ in range(runs):
            code = _PARTS.format(root=str(ROOT), db=str(db))
            p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                raise RuntimeError(p.stderr)
            parts.append(json.loads(p.stdout.strip().splitlines()[-1]))
        out["parts"] = {
            k: round(median([r[k] for r in parts]), 3)
            for k in ("import_s", "open_s", "resume_all_s", "total_s", "cpu_s", "rss_mb", "peak_rss_mb")
        }
        out["parts"]["games"] = parts[0]["games"]
        log(f"  start-up parts (10,000 games): {out['parts']}")
        if (ROOT / "tests" / "standin").is_dir():
            for name, path in (("bot_10k", db), ("bot_empty", empty)):
                res = [asyncio.run(_bot_to_ready(path)) for _ in range(runs)]
                out[name] = {k: round(median([r[k] for r in res]), 3) for k in res[0]}
                out[name]["runs"] = runs
                log(f"  start-up {name}: python bot.py to 'ready' {out[name]}")
            out["method"] = (
                "python bot.py against the Discord stand-in (tests/standin), up to the 'ready' log line; "
                "the project byte-compiled first, as the Docker image is"
            )
            b = out["bot_10k"]
            out["target_ok"] = b["ready_s"] <= 2.0 and max(b["peak_rss_mb"], b["warm_peak_rss_mb"]) <= 150
        else:
            out["method"] = (
                "no stand-in: imports of bot/cogs + Store.open + Tables + resume_all in a subprocess"
            )
            out["target_ok"] = out["parts"]["total_s"] <= 2.0 and out["parts"]["peak_rss_mb"] <= 150
    return out


# ---- reliability (the long figures) ----------------------------------------------------


def reliability(log: Log) -> dict[str, Any]:
    """Run tests/reliability with ``--long`` and collect the figures it writes."""
    with tempfile.TemporaryDirectory() as d:
        fig = Path(d) / "figures.json"
        env = dict(os.environ, LAIRKEEPER_REL_OUT=str(fig))
        t = time.perf_counter()
        p = subprocess.run(
            [sys.executable, "-m", "pytest", "tests/reliability", "--long", "-p", "no:randomly"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        tail = p.stdout.strip().splitlines()[-1:] if p.stdout.strip() else []
        out: dict[str, Any] = {
            "passed": p.returncode == 0,
            "pytest": tail[0] if tail else "",
            "seconds": round(time.perf_counter() - t, 1),
        }
        if p.returncode != 0:
            out["output"] = p.stdout[-4000:]
        if fig.exists():
            out["figures"] = [json.loads(line) for line in fig.read_text().splitlines() if line.strip()]
        log(f"  reliability (long): {out['pytest']} in {out['seconds']} s")
    return out


__all__ = ["engine", "render", "storage", "pipeline", "startup", "reliability", "game_keys", "playout"]
