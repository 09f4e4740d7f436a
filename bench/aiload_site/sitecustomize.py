"""Loaded by every Python process started with this folder on PYTHONPATH (the bot
of ``python -m bench --only aiload`` and its computer players' worker processes).

Until the games' ``sample`` is written (issue 30 item 1, other branches), a searching
player cannot search a real game. This stand-in makes a normal or hard player load
the machine exactly as long as the real one thinks (the level's time budget, 0.5 s
or 2 s of CPU), then play the easy player's move. The easy player is untouched.
Benchmark only: nothing of the bot's code loads this file."""

from __future__ import annotations

import time
from typing import Any


def _install() -> None:
    from engine import search

    def choose(game: Any, view: Any, legal: Any, rnd: Any, level_key: Any, **kw: Any) -> Any:
        lv = search.level(level_key)
        if lv.key != "easy":
            end = time.perf_counter() + lv.seconds
            x = 0
            while time.perf_counter() < end:
                x += 1
        return game.ai_choose(view, legal, rnd)

    search.choose = choose  # type: ignore[assignment]


try:
    _install()
except Exception:  # noqa: BLE001  (a process without the project on its path)
    pass
