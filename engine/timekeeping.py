"""A search's time budget (issue 40: a hint "answers within the normal strength's budget").

A search works in steps (a tree iteration, a round of paired playouts, a sample a game
settles a move on) and used to look at the clock only between them, so it passed its
deadline by whatever the last step took. :class:`Steps` starts another step only while
``ROOM`` times the mean step so far still fits before the deadline, so the last step ends
before it unless it takes more than that.

The mean includes the cyclic garbage collector's pauses, which is where they belong: a full
collection took 15-60 ms in a process that had searched 60 Dungeon Lair positions (its cache
of placed tiles, ``board.place``, then held some 32,000). Holding the collector off during a
search was tried and measured worse: the collection it put off ran as the search returned,
still inside the hint's time (Dungeon Lair, 244 hints each way: searches up to 27 ms past the
budget in the worker, against 4 ms with the collector left alone; docs/performance.md, "Hints").

Only when a search stops changes with the clock: a search with a fixed iteration budget
and no time budget (measured matches, tests) takes the same steps on any machine.
"""

from __future__ import annotations

import time

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
