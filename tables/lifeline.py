"""A computer player's worker process dies with the bot, whatever happens to the bot
(issue 39): ``docker stop``, a crash, ``kill -9``, an OOM kill. Before, 13 stops
left 26 workers running (573 MB).

Two ways, because neither is enough alone:

- ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (Linux): the kernel kills the worker the moment
  its parent goes, even a parent killed with SIGKILL. It is tied to the parent
  *thread* that started the worker, and it is Linux only.
- a watchdog thread that looks at the worker's parent twice a second and ends the
  worker when it is no longer the bot (the worker was re-parented, i.e. the bot died).

A worker that is itself stopped (SIGSTOP) runs neither; the pool's owner kills it
with SIGKILL when it gives it up (tables/thinking.py), as a stopped process never
receives a SIGTERM.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading
import time

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
WATCH_EVERY = 0.5  # seconds between the watchdog's looks at the parent


def die_with_parent(parent_pid: int, every: float = WATCH_EVERY) -> None:
    """Called first in a worker process: end it when ``parent_pid`` is gone."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the watchdog alone
        pass
    if os.getppid() != parent_pid:  # the parent died before the prctl took hold
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid, every), name="lifeline", daemon=True).start()


def _watch(parent_pid: int, every: float) -> None:
    while True:
        time.sleep(every)
        if os.getppid() != parent_pid:
            os._exit(1)  # no cleanup: a worker holds nothing that must be saved
