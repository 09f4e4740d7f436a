"""Work run beside the answer being given (the other players' turns, carried into
their private messages after the mover's own answer). A graceful stop waits for it
(cogs/stopping.py)."""

from __future__ import annotations

import asyncio
from typing import Any

_later: set[asyncio.Task[Any]] = set()


def later(coro: Any) -> None:
    """Run ``coro`` beside the answer being given (a reference is kept: tasks are weakly held)."""
    task = asyncio.create_task(coro)
    _later.add(task)
    task.add_done_callback(_later.discard)
