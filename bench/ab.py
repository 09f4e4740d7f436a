"""A/B: this checkout's store against another checkout's, interleaved sample by
sample in ONE process, so both see the same machine load (a shared machine's
load swings by 10x within minutes; two separate benchmark runs compare loads,
not code).

    python -m bench.ab OTHER_CHECKOUT [--samples N] [--moves N] [--db FILE]

OTHER_CHECKOUT's ``store/`` is imported as the package ``store_ab``. Measured,
old and new alternating: ``commit_move`` of real mid-game snapshots (wall and
CPU), and ``Tables.act`` (this checkout's tables/) on two copies of the cached
10,000-game benchmark database, the same move on each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from statistics import median
from typing import Any

from bench.common import percentile


def load_other(checkout: Path, into: Path) -> Any:
    dest = into / "store_ab"
    shutil.copytree(checkout / "store", dest)
    for p in dest.glob("*.py"):
        p.write_text(
            p.read_text()
            .replace("from store.", "from store_ab.")
            .replace("import store.", "import store_ab.")
        )
    sys.path.insert(0, str(into))
    import store_ab  # type: ignore[import-not-found]

    return store_ab


async def storage(old: Any, states: list[str], n: int, tmp: Path) -> dict[str, Any]:
    import store as new

    out: dict[str, list[float]] = {"old": [], "new": [], "old_c": [], "new_c": []}
    stores, versions, gids = {}, {}, {}
    for name, mod in (("old", old), ("new", new)):
        s = await mod.Store(str(tmp / f"{name}.db")).open()
        gid = await s.create_game("bench", {}, 1, 1)
        v = await s.set_seats(gid, 0, [mod.SeatRow(0, 100, "a", False), mod.SeatRow(1, 101, "b", False)])
        versions[name] = await s.start(gid, v, json.loads(states[0]))
        stores[name], gids[name] = s, gid
    try:
        for i in range(n):
            blob = states[i % len(states)]
            for name in ("old", "new") if i % 2 else ("new", "old"):
                t, c = time.perf_counter(), time.process_time()
                versions[name] = await stores[name].commit_move(
                    gids[name], versions[name], [(0, 100, "m")], blob, None, True
                )
                out[name].append(time.perf_counter() - t)
                out[name + "_c"].append(time.process_time() - c)
    finally:
        for s in stores.values():
            await s.close()
    med = {k: median(v) for k, v in out.items()}
    return {
        "old_ms": round(med["old"] * 1000, 4),
        "new_ms": round(med["new"] * 1000, 4),
        "new_over_old": round(med["new"] / med["old"], 3),
        "cpu_new_over_old": round(med["new_c"] / max(med["old_c"], 1e-9), 3),
    }


async def pipeline(old: Any, db: Path, moves: int, tmp: Path) -> dict[str, Any]:
    import store as new
    from engine import core
    from tables import TableError, Tables

    tabs = {}
    for name, mod in (("old", old), ("new", new)):
        copy = tmp / f"{name}-pipe.db"
        shutil.copyfile(db, copy)
        s = await mod.Store(str(copy)).open()
        if not hasattr(s, "budget"):
            # A store from before the time limits (issue 27): today's tables open a
            # deadline on the store for each move; give it one that sets the deadline
            # the old store never reads, so the A/B compares the saves, not a crash.
            limit = s.timeout = new.backends.DEFAULT_TIMEOUT
            s.budget = lambda seconds=None, limit=limit: new.backends.budget(
                limit if seconds is None else seconds
            )
        tabs[name] = Tables(s)  # type: ignore[arg-type]
        await tabs[name].warm_up()
    rows = await tabs["new"].store._fetch("SELECT id FROM games WHERE status='active' ORDER BY id")
    ids = [r[0] for r in rows]
    random.Random(5).shuffle(ids)
    out: dict[str, list[float]] = {"old": [], "new": [], "old_c": [], "new_c": []}
    try:
        for i, gid in enumerate(ids):
            if len(out["new"]) >= moves:
                break
            row = await tabs["new"].store.get(gid)
            assert row is not None and row.state is not None
            game = core.get(row.game_key)
            rnd = random.Random(gid)
            seat = rnd.choice(sorted(game.to_act(row.state)))
            text = game.format(rnd.choice(game.legal_actions(row.state, seat)))
            user = row.seats[seat].user_id
            got: dict[str, tuple[float, float]] = {}
            for name in ("old", "new") if i % 2 else ("new", "old"):
                t, c = time.perf_counter(), time.process_time()
                try:
                    await tabs[name].act(gid, user, text)  # type: ignore[arg-type]
                except TableError:  # a snapshot today's engine no longer takes: skip the game
                    continue
                got[name] = (time.perf_counter() - t, time.process_time() - c)
            if len(got) == 2:  # only moves both stores made count
                for name, (w, cpu) in got.items():
                    out[name].append(w)
                    out[name + "_c"].append(cpu)
    finally:
        for tb in tabs.values():
            await tb.store.close()
    return {
        "moves": len(out["new"]),
        "old_p50_ms": round(median(out["old"]) * 1000, 2),
        "new_p50_ms": round(median(out["new"]) * 1000, 2),
        "old_p99_ms": round(percentile(out["old"], 99) * 1000, 2),
        "new_p99_ms": round(percentile(out["new"], 99) * 1000, 2),
        "p50_new_over_old": round(median(out["new"]) / median(out["old"]), 3),
        "cpu_p50_new_over_old": round(median(out["new_c"]) / max(median(out["old_c"]), 1e-9), 3),
    }


def main() -> int:
    p = argparse.ArgumentParser(prog="python -m bench.ab")
    p.add_argument("other", type=Path)
    p.add_argument("--samples", type=int, default=3000)
    p.add_argument("--moves", type=int, default=300)
    p.add_argument(
        "--db",
        type=Path,
        help="the database for Tables.act, at a schema OTHER can open (default: the cached one)",
    )
    a = p.parse_args()
    from bench.common import game_keys
    from bench.dbbuild import cached_db, pool

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        old = load_other(a.other, tmp)
        keys = game_keys()
        result: dict[str, Any] = {"storage": {}}
        pools = pool(keys, 2, lambda s: None)
        for key in keys:
            pl = max(pools[key], key=lambda p: len(p.final))
            mid = len(pl.states) // 2
            states = pl.states[max(0, mid - 25) : mid + 25]
            result["storage"][key] = asyncio.run(storage(old, states, a.samples, tmp))
            print(key, result["storage"][key], flush=True)
        db = a.db or cached_db(keys, lambda s: None)[0]
        result["pipeline"] = asyncio.run(pipeline(old, db, a.moves, tmp))
        print("pipeline", result["pipeline"], flush=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
