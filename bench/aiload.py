"""Clicks answered while computer players think (issue 30 target: "the bot still
answering clicks within 3 s while four searching players think at once").

- ``tables``: four games of the test game (tests/fakegame.py), each with two hard
  players thinking back to back in the real process pool (tables/thinking.py, 2
  workers), while a person plays a fifth game through ``Tables.act`` (the move, the
  easy computer player's reply, the board).
- ``bot``: the real bot (``python bot.py``) and the Discord stand-in: four Monster Inn
  games opened by ``/game new computers:2 strength:hard`` with one person clicking in
  each, and a fifth game of two people and an easy computer player, measured click
  -> answer as a player on Discord sees it.
- ``bot_real_search``: the same through the bot with the real searching players, on
  Dungeon Decorators (a game whose ``sample`` is written).

The searching players of ``tables`` and ``bot`` are stand-ins that burn CPU for the
level's time budget (2 s for hard) and then play the easy move, so the section runs
for every game whether or not its ``sample`` is written; the load on the machine is
the same. In the bot they are installed by bench/aiload_site/sitecustomize.py, in the
bot and in its worker processes alike."""

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


SITE = Path(__file__).resolve().parent / "aiload_site"


async def _through_the_bot(key: str, seconds: float, log: Any, real: bool = False) -> dict[str, Any]:
    """The real bot (``python bot.py``, its pool of 2 workers) and the Discord stand-in:
    four games of one person and two hard computer players (added by ``/game new
    computers:2 strength:hard``), the person clicking at random, keep the searching
    players thinking; a fifth game, two people and an easy computer player, is the one
    measured: click -> the bot's answer, as a player on Discord sees it. ``real``: the
    real searching players (a game whose ``sample`` is written), no stand-in."""
    import os

    from bench.common import ROOT
    from tests.e2e.clicker import ClickGame
    from tests.e2e.harness import BotProcess
    from tests.standin import StandIn

    tmp = Path(tempfile.mkdtemp(prefix="lk-aiload-"))
    standin = await StandIn().start()
    bot = BotProcess(standin, tmp / "aiload.db", tmp / "bot.log")
    bot.env = {
        "LAIRKEEPER_AI_WORKERS": "2",
        "PYTHONPATH": os.pathsep.join(
            [*([] if real else [str(SITE)]), str(ROOT), os.environ.get("PYTHONPATH", "")]
        ),
    }

    class Thinking(ClickGame):
        async def open(self) -> None:
            await self.table.open(self.key, computers=2, strength="hard")
            self._mark = self.table.boards[-1].seq

    try:
        await bot.start()
        games: list[ClickGame] = []
        for i in range(4):  # opened one after another: each finds its own lobby message
            actor = [standin.user(40_000 + 10 * i, f"thinker{i + 1}")]
            g = Thinking(standin, bot.db, key, actor, seed=100 + i)
            await g.__aenter__()
            await g.open()
            games.append(g)
        people = [standin.user(50_000 + i, f"person{i + 1}") for i in range(2)]
        measured = ClickGame(standin, bot.db, key, people, ais=1, seed=7)
        await measured.__aenter__()
        await measured.open()
        t0 = time.perf_counter()
        await asyncio.gather(*(g.play(None, seconds) for g in games), measured.play(None, seconds))
        wall = time.perf_counter() - t0
        fig = await measured.figures()
        thinker_clicks = sum(len(g.clicks) for g in games)
        for g in (*games, measured):
            await g.__aexit__()
        answered = sorted(c.seconds for c in measured.clicks if c.seconds is not None)
        unanswered = sum(1 for c in measured.clicks if c.seconds is None)
        fallbacks = sum(
            1
            for line in bot.log.read_text(errors="replace").splitlines()
            if "the easy player moves instead" in line
        )
        from store import Store

        store = await Store(str(bot.db)).open()
        try:  # the thinking games' computer players are hard ones, as /game new asked
            levels = [s.ai_level for g in games for s in (await store.get(g.table.game_id)).seats if s.is_ai]  # type: ignore[union-attr]
        finally:
            await store.close()
        out = {
            "how": "real bot and stand-in; searching players: "
            + ("the real search" if real else "CPU-burning stand-ins (bench/aiload_site)"),
            "game": key,
            "seconds": round(wall, 1),
            "clicks": len(measured.clicks),
            "unanswered": unanswered,
            "thinking_games_clicks": thinker_clicks,
            "click_p50_s": round(statistics.median(answered), 3) if answered else None,
            "click_p99_s": round(answered[min(len(answered) - 1, round(0.99 * (len(answered) - 1)))], 3)
            if answered
            else None,
            "click_max_s": round(answered[-1], 3) if answered else None,
            "within_3s": round(sum(1 for a in answered if a <= 3.0) / len(answered), 4) if answered else None,
            "clicker_p99_s": fig.get("seconds_per_click_p99"),
            "hard_players": sum(1 for lv in levels if lv == "hard"),
            "worker_fallbacks_logged": fallbacks,
        }
        log(
            f"  through the bot ({key}{', real search' if real else ''}): {out['clicks']} clicks of a person in a fifth game while 4 games with hard "
            f"players thought ({thinker_clicks} clicks there): p50 {out['click_p50_s']} s, p99 {out['click_p99_s']} s, "
            f"max {out['click_max_s']} s, unanswered {unanswered}"
        )
        return out
    finally:
        await bot.stop()
        await standin.close()


# A game whose ``sample`` is written, played with the real searching players.
REAL_SEARCH_GAME = "dungeon-decorators"


def aiload(seconds: float, log: Any, key: str = "monster-inn") -> dict[str, Any]:
    out = {"tables": asyncio.run(_run(seconds, log))}
    runs = [("bot", key, False)]
    if (Path(__file__).resolve().parents[1] / "engine" / "dungeon_decorators" / "sample.py").exists():
        runs.append(("bot_real_search", REAL_SEARCH_GAME, True))
    for name, game, real in runs:
        try:
            out[name] = asyncio.run(_through_the_bot(game, seconds, log, real))
        except Exception as exc:  # noqa: BLE001  (the other figures stand on their own)
            log(f"  {name}: failed: {type(exc).__name__}: {exc}")
            out[name] = {"error": f"{type(exc).__name__}: {exc}"[:500]}
    return out
