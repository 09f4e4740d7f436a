"""Clicks answered while computer players think (issue 30): four games each with
searching players at level hard thinking back to back in the real process pool
(tables/thinking.py, ``LAIRKEEPER_AI_WORKERS`` workers), while a person plays a
fifth game through ``Tables.act``. Reports how long each of the person's moves
took to answer (the move, the easy computer player's reply, the board).

The searching players are stand-ins that burn CPU for the level's time budget (2 s
for hard) and then play the easy move: the games' ``sample`` (needed by the real
search) is written in other branches; the load on the machine is the same. The
games are the test game (tests/fakegame.py)."""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import search
from store import Store
from tables import Tables, thinking

PERSON = 11


def burn(job: thinking.Job) -> Any:
    """A hard player's load: the level's seconds of CPU, then the easy move."""
    from tests import fakegame

    fakegame.install()
    end = time.perf_counter() + search.level(job.level).seconds
    x = 0
    while time.perf_counter() < end:
        x += 1
    return thinking.easy(job)


async def _run(seconds: float, log: Any) -> dict[str, Any]:
    from tests import fakegame

    fakegame.install()
    with tempfile.TemporaryDirectory(prefix="lairkeeper-aiload-") as tmp:
        store = await Store(str(Path(tmp) / "aiload.db")).open()
        thinker = thinking.Thinker(run=burn)
        t = Tables(store, thinker=thinker)
        stop = time.perf_counter() + seconds
        decisions = 0

        async def bot_games(n: int) -> None:
            nonlocal decisions
            while time.perf_counter() < stop:
                lobby = await t.create(
                    0, "host", "test-race", seed=n, take_seat=False, ai_players=2, ai_level="hard"
                )
                await t.start(lobby.game_id, None, run_ai=False)
                while time.perf_counter() < stop and await t.step_ai(lobby.game_id) is not None:
                    decisions += 1

        try:
            # The pool is started (workers spawned) before the clock runs.
            await thinker.decide(thinking.Job("test-race", {"total": 0}, [1], "0", "normal"))
            bots = [asyncio.create_task(bot_games(n)) for n in range(4)]
            await asyncio.sleep(1.0)  # every searching player is thinking
            waits: list[float] = []
            gid = None
            while time.perf_counter() < stop:
                row = await store.get(gid) if gid is not None else None
                if row is None or row.status != "active":
                    lobby = await t.create(PERSON, "alice", "test-race", seed=len(waits))
                    await t.add_ai(lobby.game_id, PERSON, "easy")
                    gid = lobby.game_id
                    await t.start(gid, PERSON)
                    continue
                t0 = time.perf_counter()
                await t.act(gid, PERSON, "1")
                waits.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)
            await asyncio.gather(*bots)
        finally:
            t.close()
            await store.close()
    waits.sort()
    out = {
        "searching_players": 4,
        "level": "hard (stand-in: burns CPU for the level's 2 s)",
        "workers": thinker.workers,
        "seconds": seconds,
        "clicks": len(waits),
        "decisions": decisions,
        "click_p50_s": round(statistics.median(waits), 4),
        "click_p99_s": round(waits[min(len(waits) - 1, round(0.99 * (len(waits) - 1)))], 4),
        "click_max_s": round(waits[-1], 4),
        "within_3s": sum(1 for w in waits if w <= 3.0) / len(waits),
    }
    log(
        f"  {out['clicks']} clicks while 4 hard players thought ({decisions} decisions, {out['workers']} workers): "
        f"p50 {out['click_p50_s']} s, p99 {out['click_p99_s']} s, max {out['click_max_s']} s"
    )
    return out


def aiload(seconds: float, log: Any) -> dict[str, Any]:
    return asyncio.run(_run(seconds, log))
