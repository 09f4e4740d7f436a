"""The clicks benchmark (issue 26 item 5): whole games played by clicks only through
the real bot process (``python bot.py``) and the Discord stand-in, humans choosing at
random (seeded) among the components the bot offers them. The driver is
tests/e2e/clicker.py, shared with the end-to-end tests.

Per game: its minimum player count with 2 humans (Monster Inn: 3 seats, 2 humans and
one AI player), and 4 players, all human, where the game allows 4. A fresh bot process
and stand-in for each run. Size knobs: ``max_clicks`` stops a run after that many clicks
(its figures then cover the part played; ``complete`` says so), ``seconds`` caps a
run's wall time the same way.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import ROOT  # noqa: F401  (puts the project on sys.path)
from engine import core

Log = Callable[[str], None]


def runs_of(keys: list[str], counts: str) -> list[tuple[str, int, int]]:
    """(game, players, humans) for each run: ``counts`` is "min", "4" or "min,4"."""
    out = []
    for key in keys:
        game = core.get(key)
        want: list[int] = []
        for c in counts.split(","):
            n = game.min_players if c.strip() == "min" else int(c)
            if game.min_players <= n <= game.max_players and n not in want:
                want.append(n)
        for n in want:
            humans = min(2, n) if n == game.min_players else n
            out.append((key, n, humans))
    return out


async def _one(
    key: str,
    players: int,
    humans: int,
    seed: int,
    max_clicks: int | None,
    seconds: float | None,
    log: Log,
    done_bias: float | None = 1.0,
    slow: bool = False,
) -> dict[str, Any]:
    from tests.e2e.clicker import Stuck, click_game
    from tests.e2e.harness import BotProcess
    from tests.standin import StandIn

    tmp = Path(tempfile.mkdtemp(prefix="lk-clicks-"))
    standin = await StandIn().start()
    bot = BotProcess(standin, tmp / "clicks.db", tmp / "bot.log")
    try:
        await bot.start()
        try:
            _g, fig = await click_game(
                standin,
                bot.db,
                key,
                players,
                humans,
                seed,
                max_clicks,
                seconds,
                log=log,
                done_bias=done_bias,
                slow=slow,
            )
        except Stuck as exc:
            fig = {"game": key, "players": players, "humans": humans, "error": str(exc)}
        except (AssertionError, TimeoutError) as exc:  # one broken run must not lose the others
            fig = {
                "game": key,
                "players": players,
                "humans": humans,
                "error": f"{type(exc).__name__}: {exc}"[:500],
            }
        fig["refusals"] = len(standin.errors)
        return fig
    finally:
        await bot.stop()
        await standin.close()


def clicks(
    keys: list[str],
    log: Log,
    counts: str = "min,4",
    max_clicks: int | None = None,
    seconds: float | None = 1800.0,
    seed: int = 26,
    done_bias: float | None = 1.0,
    slow: bool = False,
) -> list[dict[str, Any]]:
    """One object of figures per run (see tests/e2e/clicker.py, ClickGame.figures).
    ``slow``: every turn begins a day (the stand-in's clock) after the player's last
    click, so no interaction token lives from one turn to the next (issue 37)."""
    out = []
    for key, players, humans in runs_of(keys, counts):
        t = time.perf_counter()
        fig = asyncio.run(_one(key, players, humans, seed, max_clicks, seconds, log, done_bias, slow))
        out.append(fig)
        if "error" in fig:
            log(f"  clicks {key} {players}p: STUCK after {time.perf_counter() - t:.0f} s: {fig['error']}")
            continue
        log(
            f"  clicks{' slow' if slow else ''} {key} {players}p ({humans} humans){'' if fig['complete'] else ' (partial)'}: "
            f"{fig['clicks']} clicks, {fig['turns']} turns, {fig['public_boards']} boards, {fig['pings']} pings ({fig['people_pinged']} people notified), "
            f"{fig['private_messages']} private messages, clicks/turn median {fig['clicks_per_turn_median']} "
            f"max {fig['clicks_per_turn_max']}, p99 {fig['seconds_per_click_p99']} s, "
            f"{fig['simultaneous_phases']} simultaneous phases, {fig['notifications']} notifications "
            f"({fig['notifications_to_mover']} to the mover), {fig['your_move_clicks']} Your move, "
            f"{fig['places_created']} places, {fig['place_messages']} place messages"
            + (f", path clicks max {fig.get('path_clicks_max')}" if "path_clicks_max" in fig else "")
            + (
                f", build turn clicks median {fig['build_turn_clicks_median']} max {fig['build_turn_clicks_max']}"
                if "build_turn_clicks_max" in fig
                else ""
            )
            + f", {fig['single_option_clicks']} single-option clicks "
            f"({fig['single_option_clicks_for_secrets']} kept for a secret: {fig['single_option_labels']})"
            + f" ({time.perf_counter() - t:.0f} s)"
        )
    return out
