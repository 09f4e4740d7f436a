"""What a hint costs, and who waits for it (issue 40 point 7: the Hint button "answers
within the normal strength's budget and never blocks other clicks"; tables/hints.py).

For each game at its minimum player count, positions spread over seeded random
playouts are stored as running games of people (hints on, as a new game has them);
at each, the seat to move asks for a hint through ``Tables.hint``, the search in the
real pool of worker processes (``LAIRKEEPER_AI_WORKERS``, default 2), as the bot runs
it. Figures:

- the hint's wall time, click to answer (load, the search in the pool, the count);
  beside it the search alone (the pool's round trip), the search in the worker (timed
  there: what the search itself spent, without the pool and the busy event loop), and
  how often the search stopped at the normal player's time budget rather than at its
  iteration budget (its playouts fewer than the budget allows);
- other clicks on the same game while that search runs: "Your move" of another seat
  (its panel, or the sentence that it is not their turn) and of the seat that asked,
  clicked at once as the job reaches the pool and again every ``PAUSE`` until the hint
  answers; each pair is also timed alone just before the hint, so the cost of the hint
  to them is the difference. A click that waited for the hint would take as long as
  the search: the first pair, clicked as the search starts, is counted when it
  answers only after the hint (it must be 0; hints that searched nothing, where the
  seat has one move worth weighing, are left out of that count).

The budget compared with is the normal strength's (engine/search.py ``LEVELS``): its
time budget a decision, and the game's iteration budget (``level_budget``).
"""

from __future__ import annotations

import asyncio
import functools
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import ROOT, median, percentile, playout  # noqa: F401  (ROOT: the project on sys.path)
from engine import core, search
from store import SeatRow, Store
from tables import TableError, Tables, hints, thinking

Log = Callable[[str], None]

# The first user id of a bench game's people (seat i is USER + i).
USER = 100
# The clicks timed during a hint: another seat's "Your move" and the asker's own.
WHO = ("other", "own")
# Seconds between two pairs of clicks while a search runs.
PAUSE = 0.02


def _timed(run: Callable[[thinking.Job], Any], job: thinking.Job) -> tuple[Any, float]:
    """``run(job)`` in a worker, with the seconds it took there."""
    t = time.perf_counter()
    answer = run(job)
    return answer, time.perf_counter() - t


class _Watched(thinking.Thinker):
    """The real pool, telling the bench when a hint's job has reached it, how long
    the pool took, how long the search took in the worker, and what the search
    returned (its playouts)."""

    def __init__(self) -> None:
        super().__init__()
        self.started: asyncio.Event | None = None
        self.started_at = 0.0
        self.last: tuple[float, Any, float] | None = None

    async def consult(self, run: Callable[[thinking.Job], Any], job: thinking.Job) -> Any:
        if self.started is not None:
            self.started_at = time.perf_counter()
            self.started.set()
        t = time.perf_counter()
        answer, worker = await super().consult(functools.partial(_timed, run), job)
        self.last = (time.perf_counter() - t, answer, worker)
        return answer


def positions(game: core.Game, players: int, playouts: int, each: int) -> list[dict[str, Any]]:
    """``each`` states spread evenly over each of ``playouts`` seeded random games,
    start to (not including) the end."""
    import json

    out = []
    for seed in range(playouts):
        states = playout(game, players, 4000 + seed).states[:-1]
        step = max(1, len(states) // each)
        out += [json.loads(s) for s in states[::step][:each]]
    return [s for s in out if not game.is_over(s)]


async def _stored(store: Store, key: str, state: dict[str, Any]) -> int:
    """A running game of people at ``state`` (as ``Tables.start`` stores one)."""
    gid = await store.create_game(key, {}, 1, USER)
    seats = [SeatRow(i, USER + i, f"player {i + 1}", False) for i in range(int(state["seats"]))]
    version = await store.set_seats(gid, 0, seats)
    await store.start(gid, version, state)
    return gid


async def _panel(t: Tables, gid: int, user: int, since: float | None = None) -> tuple[float, bool, float]:
    """One "Your move" click: its seconds (from ``since``, when it was clicked, if the
    loop could only start on it later), whether it answered with the turn (False: the
    sentence that it is not the player's turn), and when it answered."""
    t0 = time.perf_counter() if since is None else since
    try:
        await t.current_panel(gid, user)
        shown = True
    except TableError:
        shown = False
    end = time.perf_counter()
    return end - t0, shown, end


async def _clicks(
    t: Tables, gid: int, other: int, user: int, since: float | None = None
) -> list[tuple[float, bool, float]]:
    """Another seat's and the asker's "Your move", clicked at once."""
    return list(await asyncio.gather(_panel(t, gid, other, since), _panel(t, gid, user, since)))


async def _hint(t: Tables, gid: int, user: int) -> float | None:
    """When the hint answered (None: it answered that none could be worked out)."""
    try:
        await t.hint(gid, user)
    except TableError:
        return None
    return time.perf_counter()


def _figures(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50_s": None, "p99_s": None, "max_s": None}
    return {
        "p50_s": round(median(values), 4),
        "p99_s": round(percentile(values, 99), 4),
        "max_s": round(max(values), 4),
    }


async def _one_game(key: str, states: list[dict[str, Any]], tmp: Path, log: Log) -> dict[str, Any]:
    game = core.get(key)
    level = search.level(hints.HINT_LEVEL)
    params = search.level_params(game, level.key)
    budget = search.level_budget(params, level.key)
    store = await Store(str(tmp / f"{key}.db")).open()
    thinker = _Watched()
    t = Tables(store, thinker=thinker)
    hint_s: list[float] = []
    search_s: list[float] = []
    worker_s: list[float] = []  # the searches that searched, as the worker timed them
    unsearched = failed = timed_out = 0
    clicks: dict[str, dict[str, list[float]]] = {who: {"alone": [], "during": [], "extra": []} for who in WHO}
    shown = dict.fromkeys(WHO, 0)
    after = dict.fromkeys(WHO, 0)  # clicked as a search started, answered after the hint
    try:
        warm = await _stored(store, key, states[0])  # the pool's workers spawned before the clock
        await t.hint(warm, USER + min(game.to_act(states[0])))
        for state in states:
            gid = await _stored(store, key, state)
            seat = min(game.to_act(state))
            user, other = USER + seat, USER + (seat + 1) % int(state["seats"])
            alone = await _clicks(t, gid, other, user)
            for who, (seconds, _, _) in zip(WHO, alone, strict=True):
                clicks[who]["alone"].append(seconds)
            thinker.started = asyncio.Event()
            t0 = time.perf_counter()
            asked = asyncio.create_task(_hint(t, gid, user))
            await thinker.started.wait()  # the search is under way in the pool
            # Clicks while the search runs: a pair at once, as two players may click, then
            # again every PAUSE until the hint answers.
            # Timed from the search's start: a loop held by the search would start on them
            # only once it let go, and the wait would not show from their own start.
            during = [await _clicks(t, gid, other, user, thinker.started_at)]
            while not asked.done():
                await asyncio.sleep(PAUSE)
                if not asked.done():
                    during.append(await _clicks(t, gid, other, user))
            hint_end = await asked
            thinker.started = None
            if hint_end is None:
                failed += 1
                continue
            hint_s.append(hint_end - t0)
            assert thinker.last is not None
            search_s.append(thinker.last[0])
            # No search when the seat has one move, or the game leaves one worth weighing.
            ranked = thinker.last[1][1]
            searched = bool(ranked)
            unsearched += not searched
            if searched:
                worker_s.append(thinker.last[2])
                # Stopped by the time budget: room was left for another step (an iteration,
                # or a round of paired playouts: one for each move).
                step = len(ranked) if params.method == "playouts" else 1
                timed_out += sum(p for _, p, _ in ranked) + step <= budget
            for i, pair in enumerate(during):
                for who, (seconds, answered, end), (before, _, _) in zip(WHO, pair, alone, strict=True):
                    clicks[who]["during"].append(seconds)
                    clicks[who]["extra"].append(seconds - before)
                    shown[who] += answered
                    # The first pair is clicked as the search starts: answered only after
                    # the hint, it took as long as the whole search. (A later pair may be
                    # clicked a moment before the hint answers, so it proves nothing.)
                    after[who] += i == 0 and searched and end > hint_end
    finally:
        t.close()
        await store.close()
    n = len(hint_s)
    out: dict[str, Any] = {
        "players": game.min_players,
        "hints": n,
        "no_search": unsearched,
        "failed": failed,
        "budget_s": level.seconds,
        "budget_iterations": budget,
        "hint": _figures(hint_s),
        "search": _figures(search_s),
        "search_in_worker": _figures(worker_s),
        "within_budget": round(sum(1 for s in hint_s if s <= level.seconds) / n, 3),
        # Of the hints that searched: stopped by the time budget, and their searches' time
        # past it in the worker at most.
        "stopped_by_time_budget": round(timed_out / max(1, n - unsearched), 3),
        "worker_over_budget_max_s": round(max([0.0, *(s - level.seconds for s in worker_s)]), 4),
        # What the hint adds to its search: the game loaded, the job built, the pool's
        # round trip, the hint counted, the answer written.
        "overhead_p50_s": round(median([h - s for h, s in zip(hint_s, search_s, strict=True)]), 4),
        "over_budget_max_s": round(max(0.0, max(hint_s) - level.seconds), 4),
    }
    for who in WHO:
        c = clicks[who]
        out[f"{who}_click"] = {
            "clicks": len(c["during"]),
            "alone": _figures(c["alone"]),
            "during": _figures(c["during"]),
            "extra": _figures(c["extra"]),
            "answered_with_the_turn": shown[who],
            "first_answered_after_the_hint": after[who],
        }
    h, o, w = out["hint"], out["other_click"], out["own_click"]
    log(
        f"  hints {key} ({game.min_players} players, {n} hints, {unsearched} with one move to weigh): p50 {h['p50_s']} s, "
        f"p99 {h['p99_s']} s, max {h['max_s']} s (normal: {level.seconds} s or {budget} playouts; within "
        f"{level.seconds} s: {out['within_budget']:.0%}; searches stopped by the {level.seconds} s: "
        f"{out['stopped_by_time_budget']:.0%}, in the worker at most {out['search_in_worker']['max_s']} s); Your move during a hint: another seat's p50 "
        f"{o['during']['p50_s']} s, p99 {o['during']['p99_s']} s (alone p50 {o['alone']['p50_s']} s), the "
        f"asker's p50 {w['during']['p50_s']} s, p99 {w['during']['p99_s']} s (alone p50 {w['alone']['p50_s']} s); "
        f"clicked as the search started and answered after the hint: "
        f"{o['first_answered_after_the_hint'] + w['first_answered_after_the_hint']} of {2 * (n - unsearched)}"
    )
    return out


def hint_bench(keys: list[str], playouts: int, each: int, log: Log) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in keys:
        game = core.get(key)
        states = positions(game, game.min_players, playouts, each)
        random.Random(key).shuffle(states)  # the positions' order varies the load, not the mean
        with tempfile.TemporaryDirectory(prefix="lk-hints-") as d:
            out[key] = asyncio.run(_one_game(key, states, Path(d), log))
    return out
