"""A search's time budget (issue 40: a hint "answers within the normal strength's budget").

A search works in steps (a tree iteration, a round of paired playouts, a sample a game
settles a move on) and used to look at the clock only between them, so it overshot its
deadline by whatever the last step took: up to a step, plus a pause of the cyclic garbage
collector that landed in it (a full collection took 15-40 ms in a process that had searched
60 Dungeon Lair positions: its cache of placed tiles, ``board.place``, then held some 32,000;
docs/performance.md, "Hints"). Two things keep a search inside its budget:

- :class:`Steps` starts another step only while ``ROOM`` times the mean step so far still
  fits before the deadline, so the last step ends before it unless it takes more than that;
- :func:`no_collection` holds the cyclic collector off while a search runs. A search makes
  no cyclic garbage (every game's hard searches measured: a collection after them found
  none), so its memory is freed as it goes by reference counting; the collector runs again
  after the search, as often as before.

Only when a search stops changes with the clock: a search with a fixed iteration budget
and no time budget (measured matches, tests) takes the same steps on any machine.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager

# The clock of every search budget (seconds). Tests replace it by a fake clock.
clock = time.perf_counter

# Another step starts only if this many times the mean step so far still fits before the
# deadline. A step's time varies: in Dungeon Lair a tree iteration's p99 is about 2.5 times
# its mean, and a tree's later iterations walk deeper than its first; two means leave room for
# most of that, and cost a search at most about two steps of its budget.
ROOM = 2.0


class Steps:
    """Steps taken against ``deadline`` (a :data:`clock` time; None: no time budget),
    counted from the moment this is made."""

    __slots__ = ("began", "deadline", "done")

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.began = clock()
        self.done = 0

    def another(self) -> bool:
        """Whether to start another step: always the first (a search answers from at least
        one), then while ``ROOM`` mean steps fit before the deadline."""
        if self.deadline is None or not self.done:
            return True
        now = clock()
        return now + ROOM * (now - self.began) / self.done <= self.deadline

    def took(self) -> None:
        """One more step is done."""
        self.done += 1


@contextmanager
def no_collection() -> Iterator[None]:
    """The cyclic garbage collector held off inside the block (a search), so none of its
    full collections pauses the search near its deadline; on again after it if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
