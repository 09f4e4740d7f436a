"""A graceful stop (issue 39): on SIGTERM (``docker stop``) or SIGINT the bot takes
no new work, lets the work in flight finish (a move under way is saved or, at the
database's time limit, rolled back; it is never half done), closes the computer
players' pool and the database, logs it and exits with status 0 within
``STOP_SECONDS``. Before, SIGTERM ended the bot at once (status -15) mid-move.

Work is what a handler does (``cogs.common.guarded``) and one pass of the timer
loop; both count themselves here while they run."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import AsyncIterator
from typing import Any

from cogs.later import _later
from tables import TableError

log = logging.getLogger("lairkeeper")

STOPPING = "The bot is restarting; nothing was done. Try again in a minute."
# Docker gives 10 s between SIGTERM and SIGKILL: in-flight work gets GRACE of it,
# then the computer players' pool is closed and what waited on it gets AFTER_POOL.
STOP_SECONDS = 10.0
GRACE = 5.0
AFTER_POOL = 1.0


class Stopping:
    """Whether the bot is stopping, and how much work is in flight."""

    def __init__(self) -> None:
        self.stopping = False
        self.in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def work(self) -> AsyncIterator[None]:
        """Count a piece of work while it runs; refused (TableError) once stopping."""
        if self.stopping:
            raise TableError(STOPPING)
        self.in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.in_flight -= 1
            if not self.in_flight:
                self._idle.set()

    async def drain(self, seconds: float) -> int:
        """Take no new work; wait up to ``seconds`` for the work in flight. Returns
        how much is still running."""
        self.stopping = True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), seconds)
        return self.in_flight


def stopper(client: Any) -> Stopping:
    """The client's stopping state (made on first use)."""
    state = getattr(client, "stopping_state", None)
    if state is None:
        state = Stopping()
        client.stopping_state = state
    return state


async def tracked(client: Any, coro: Any) -> Any:
    """Run a handler's ``coro`` as counted work; while stopping it is not run at all
    and the player is told so in one sentence (nothing was done)."""
    state = stopper(client)
    if state.stopping:
        coro.close()
        raise TableError(STOPPING)
    async with state.work():
        return await coro


def stop_on_signals(bot: Any) -> None:
    """SIGTERM and SIGINT begin a graceful stop (a second signal changes nothing)."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, _begin, bot, sig.name)


def _begin(bot: Any, name: str) -> None:
    if getattr(bot, "stop_task", None) is None:
        bot.stop_task = asyncio.create_task(graceful_stop(bot, name))
    else:
        log.info("%s: already stopping", name)


async def graceful_stop(bot: Any, name: str) -> None:
    """Take no new work, let the work in flight finish, close the computer players'
    pool (a decision still under way is made by the easy player, at once), then
    Discord and the database (``bot.close``)."""
    t0 = time.monotonic()
    state = stopper(bot)
    log.info("%s: stopping; no new work is taken (%d requests in flight)", name, state.in_flight)
    left = await state.drain(GRACE)
    tables = getattr(bot, "tables", None)
    if tables is not None:
        await asyncio.to_thread(tables.close)
    if left:
        left = await state.drain(AFTER_POOL)
    if left:  # each is cancelled with the loop; a transaction not committed rolls back
        log.warning("%d requests still running after %.0f s are given up", left, GRACE + AFTER_POOL)
    if _later:  # what an answer left running beside it (private messages carried on)
        await asyncio.wait(set(_later), timeout=AFTER_POOL)
    await bot.close()
    log.info("stopped cleanly in %.2f s", time.monotonic() - t0)
