"""Issue 39 item 2, with a real pool: a computer player's worker process dies with
the bot whatever happens to the bot (here: SIGKILL, which runs no shutdown code),
and a worker that is stopped (SIGSTOP) is killed, not sent a SIGTERM it would never
receive, when it is given up or when the bot closes."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tables import thinking
from tests.test_thinking import hang

ROOT = Path(__file__).resolve().parents[1]
JOB = thinking.Job("test-race", {"total": 8}, [1, 2, 3], "s", "hard")


def gone(pid: int) -> bool:
    """The process is no more (or only its exit status is left: a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


async def until(check: Any, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        await asyncio.sleep(0.05)
    return bool(check())


def workers(thinker: thinking.Thinker) -> list[Any]:
    pool = thinker._pool
    return list((getattr(pool, "_processes", None) or {}).values())


async def stopped_worker(thinker: thinking.Thinker) -> tuple[asyncio.Task[Any], list[int]]:
    """A decision under way whose worker processes are then stopped with SIGSTOP."""
    from tests import fakegame

    fakegame.install()
    task = asyncio.create_task(thinker.decide(JOB))
    assert await until(lambda: any(p.is_alive() for p in workers(thinker)), 30), "no worker started"
    await asyncio.sleep(0.5)  # the job has reached the worker
    pids = [p.pid for p in workers(thinker)]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    return task, pids


async def test_a_stopped_worker_given_up_is_killed(monkeypatch: Any) -> None:
    monkeypatch.setattr(thinking, "THINK_LIMIT", 3.0)
    thinker = thinking.Thinker(1, run=hang)
    try:
        task, pids = await stopped_worker(thinker)
        assert await task == 3, "given up: the easy player's move (total 8: add 3)"
        assert await until(lambda: all(gone(p) for p in pids), 3), "the stopped worker outlived its give-up"
    finally:
        for pid in pids:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
        thinker.close()


async def test_closing_kills_a_stopped_worker_at_once() -> None:
    thinker = thinking.Thinker(1, run=hang)
    task, pids = await stopped_worker(thinker)
    try:
        t0 = time.monotonic()
        await asyncio.wait_for(asyncio.to_thread(thinker.close), 10)
        seconds = time.monotonic() - t0
        assert seconds < 3, f"closing the pool took {seconds:.1f} s"
        assert await until(lambda: all(gone(p) for p in pids), 2), "a stopped worker outlived the pool"
        assert await asyncio.wait_for(task, 5) == 3, "the decision under way: the easy player's move"
    finally:
        for pid in pids:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)


PARENT = """
import sys, time
sys.path.insert(0, {root!r})
from tables import thinking
from tests.test_thinking import hang
pool = thinking.Thinker(2, run=hang)._executor()
futures = [pool.submit(hang, None) for _ in range(2)]
while len([p for p in pool._processes.values() if p.is_alive()]) < 2:
    time.sleep(0.05)
print(" ".join(str(p.pid) for p in pool._processes.values()), flush=True)
time.sleep(120)
"""


async def test_workers_die_with_a_bot_killed_by_sigkill() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT.format(root=str(ROOT))], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    pids: list[int] = []
    try:
        assert parent.stdout is not None
        pids = [int(p) for p in parent.stdout.readline().split()]
        assert len(pids) == 2 and not any(gone(p) for p in pids)
        parent.kill()  # SIGKILL: no shutdown code runs in the bot
        parent.wait(10)
        assert await until(lambda: all(gone(p) for p in pids), 3), "workers outlived the bot"
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in pids:
            if not gone(pid):
                os.kill(pid, signal.SIGKILL)
