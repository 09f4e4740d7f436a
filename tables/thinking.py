"""Where computer players think (issue 30): a pool of worker processes.

A searching player thinks for up to two seconds a move. Run on the event loop it
would freeze every game; run in a thread it would hold the GIL against the loop;
so decisions run in worker processes (``LAIRKEEPER_AI_WORKERS``, default 2; 0 runs
them in a thread, for tests). The pool is started on the first decision and shut
down with the bot.

A job carries only what a player at that seat could know: the game key, the seat's
view, its legal moves, a seed string for the player's randomness and the level
(``Job``); never the state. The seed is a one-way digest, so not even the game's
random seed reaches a worker (``ai_seed``).

A worker that crashes (or a search that raises) is logged, and that move is made by
the easy player (the game's rules of thumb) here instead: a game never stalls
because a computer player could not think.

The spawn start method: the bot runs threads (the database driver's, asyncio's
default executor), and forking a process with threads can copy a held lock.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import json
import logging
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from engine import core
from engine.core import Action, State

log = logging.getLogger("lairkeeper.tables")

WORKERS_ENV = "LAIRKEEPER_AI_WORKERS"
DEFAULT_WORKERS = 2
# A computer player whose game moves on while it thinks thinks again, this many
# times in a row at most (then the game's next move lets it try again).
RETHINK = 5
# A decision that has not come back in this long (a hard one takes 2 s) is given up
# (logged) and the easy player moves: a stuck worker never stalls a game. Its worker
# processes are stopped and the next decision starts a fresh pool, so a stuck search
# does not hold a worker (and every later decision its 30 s) for the bot's lifetime.
THINK_LIMIT = 30.0


@dataclass(frozen=True)
class Job:
    """One decision, as sent to a worker: nothing the seat cannot see."""

    game_key: str
    view: dict[str, Any]
    legal: list[Action]
    seed: str
    level: str


def ai_seed(state: State, seat: int, view: dict[str, Any] | None = None) -> str:
    """The seed of a computer player's randomness for this move: deterministic (a
    selfplay seed replays the same game), a one-way digest of the game's random
    state (so it tells nothing about future draws), and varying with the position
    only through what the seat sees (its view), never through a secret."""
    rng = state.get("rng") or {}
    if view is None:
        view = core.get(state["game"]).view(state, seat)
    seen = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    text = f"ai:{rng.get('seed')}:{rng.get('n')}:{seat}:{seen}"
    return hashlib.sha256(text.encode()).hexdigest()


def job_for(game: core.Game, state: State, seat: int, level: str) -> Job:
    """The job of ``seat``'s next move: its view, its legal moves, a seed."""
    view = game.view(state, seat)
    return Job(game.key, view, game.legal_actions(state, seat), ai_seed(state, seat, view), level)


def decide(job: Job) -> Action:
    """What a worker runs: the move of a player of strength ``job.level`` from the
    seat's view and legal moves only."""
    game = core.get(job.game_key)
    return game.ai_move(job.view, job.legal, random.Random(job.seed), job.level)


def easy(job: Job) -> Action:
    """The easy player's move for ``job`` (the fallback when a worker fails)."""
    return core.get(job.game_key).ai_choose(job.view, job.legal, random.Random(job.seed))


def _init_worker() -> None:
    # A worker imports the games once, so a first decision pays no import.
    core.available()


def workers_from_env() -> int:
    try:
        return max(0, int(os.environ.get(WORKERS_ENV, DEFAULT_WORKERS)))
    except ValueError:
        return DEFAULT_WORKERS


class Thinker:
    """The pool computer players think in. ``workers`` processes (0: one thread).
    ``run`` is the function a worker runs on a job (tests and the benchmark pass
    their own, e.g. one that counts or burns CPU)."""

    def __init__(self, workers: int | None = None, run: Callable[[Job], Action] | None = None) -> None:
        self.workers = workers_from_env() if workers is None else workers
        self.run = run or decide
        self._pool: concurrent.futures.Executor | None = None
        self._guard = threading.Lock()
        self.fallbacks = 0  # moves the easy player made because a worker failed
        self.closed = False  # the bot is closing: no new pool is started

    def _executor(self) -> concurrent.futures.Executor:
        with self._guard:
            if self._pool is None:
                if self.workers == 0:
                    self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ai")
                else:
                    self._pool = concurrent.futures.ProcessPoolExecutor(
                        self.workers,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_init_worker,
                    )
            return self._pool

    def _broken(self, pool: concurrent.futures.Executor) -> None:
        """Drop a broken pool, so the next decision starts a fresh one."""
        with self._guard:
            if self._pool is pool:
                self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    async def decide(self, job: Job) -> Action:
        """The move for ``job``, thought out in the pool without blocking the loop.
        The easy player answers at once, in a thread: it never waits in the pool's
        queue behind searching players of other games."""
        if job.level == "easy" or self.closed:
            return await asyncio.to_thread(easy, job)
        pool = self._executor()
        try:
            return await asyncio.wait_for(asyncio.wrap_future(pool.submit(self.run, job)), THINK_LIMIT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._failed(pool, job, exc)
        return await asyncio.to_thread(easy, job)

    async def consult(self, run: Callable[[Job], Any], job: Job) -> Any:
        """``run(job)`` in the pool, for an answer other than a move (a hint,
        tables/hints.py), without blocking the loop. A failure or a search past
        THINK_LIMIT raises, for the caller to say so; the pool is mended as for a move."""
        pool = self._executor()
        try:
            return await asyncio.wait_for(asyncio.wrap_future(pool.submit(run, job)), THINK_LIMIT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("a hint (%s) failed (%s)", job.game_key, type(exc).__name__, exc_info=exc)
            if isinstance(exc, TimeoutError):
                self._stop_workers(pool)
            if isinstance(exc, (BrokenProcessPool, TimeoutError)):
                self._broken(pool)
            raise

    def decide_now(self, job: Job) -> Action:
        """The same from a worker thread (deadline turns): waits for the pool."""
        if job.level == "easy" or self.closed:
            return easy(job)
        pool = self._executor()
        try:
            return pool.submit(self.run, job).result(THINK_LIMIT)
        except Exception as exc:
            self._failed(pool, job, exc)
        return easy(job)

    def _failed(self, pool: concurrent.futures.Executor, job: Job, exc: BaseException) -> None:
        self.fallbacks += 1
        # The job's view is a seat's private knowledge: the log names the game only.
        log.error(
            "computer player (%s, %s) failed (%s); the easy player moves instead",
            job.game_key,
            job.level,
            type(exc).__name__,
            exc_info=exc,
        )
        if isinstance(exc, TimeoutError):
            self._stop_workers(pool)
        if isinstance(exc, (BrokenProcessPool, TimeoutError)):
            self._broken(pool)

    @staticmethod
    def _stop_workers(pool: concurrent.futures.Executor) -> None:
        """Terminate a process pool's workers (a thread cannot be stopped; a test's
        thread pool just lets its thread finish). Other decisions still in the pool
        fail with a broken pool, and their easy players move."""
        # The executor keeps no public handle on its processes before Python 3.14's
        # terminate_workers(); _processes is its pid -> Process map since 3.2.
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            if proc.is_alive():
                proc.terminate()

    def close(self) -> None:
        with self._guard:
            self.closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
