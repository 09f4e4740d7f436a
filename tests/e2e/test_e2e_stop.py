"""Issue 39 item 2 through the real bot process and the stand-in: SIGTERM (what
``docker stop`` sends) or SIGINT while a move is under way and computer players are
thinking in their worker processes after it. The bot takes no new work, finishes
what is in flight (or gives the computers' decisions to the easy player), closes its
pool and database, logs it and exits with status 0 within 10 s, and leaves no
worker process behind. And the mover's answer does not wait for the computers.

The seconds to the exit and the processes left are printed (``-s``) and quoted in
docs/reliability.md; the slow variant stops the bot 20 times."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from cogs.stopping import STOPPING
from engine import core
from tests.e2e.harness import BotProcess, Table
from tests.pgserver import children
from tests.standin import StandIn
from tests.standin.actors import Actor

pytestmark = pytest.mark.e2e

KEY = "monster-inn"
STOP_LIMIT = 10.0


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


async def against_hard_computers(standin: StandIn, ann: Actor) -> Table:
    """Ann against two hard computer players (they think in the pool), started."""
    t = Table(standin, [ann])

    async def hard_computers() -> None:
        for _ in range(2):
            c = await ann.select(t.lobby, ["hard"], f"lk:addai:{t.game_id}")  # type: ignore[arg-type]
            await c.reply()

    await t.open(KEY, before_start=hard_computers)
    if ann.id not in t.board.mentions:  # a computer opens: its board follows, pinging her
        t.boards.append(
            await standin.wait_for_message(lambda m: t.is_board(m) and ann.id in m.mentions, 60, t.board.seq)
        )
    return t


async def one_stop(standin: StandIn, tmp_path: Path, run: int, sig: signal.Signals) -> tuple[float, int]:
    """One bot, one game against two hard computer players, stopped by ``sig`` while
    the computers think after the player's move. Returns
    the seconds from the signal to the exit and the processes left behind."""
    bot = BotProcess(standin, tmp_path / f"stop{run}.db", tmp_path / f"stop{run}.log")
    bot.env["LAIRKEEPER_AI_WORKERS"] = "2"  # the tests' default is 0 (threads): a real pool here
    await bot.start()
    assert bot.proc is not None
    ann = standin.user(901 + run, f"ann{run}")
    try:
        t = await against_hard_computers(standin, ann)
        # A first move: the computers think in their workers after it, so the pool is up.
        first = await t.my_choices(ann)
        mark = standin.mark()
        moved = await ann.click(first, Table.move_buttons(first)[0]["custom_id"])
        assert (await moved.reply(timeout=60)).content.startswith("Move taken")
        t.boards.append(await t.wait_board(mark, 60))
        assert t.to_act() == [ann], t.board.content
        workers = children(bot.proc.pid)
        assert workers, f"no worker process was started\n{bot.tail(40)}"
        private = await t.my_choices(ann)
        click = await ann.click(private, Table.move_buttons(private)[0]["custom_id"])
        # She is answered at once; the computers think after it: that is in flight.
        answer = (await click.reply(timeout=15)).content
        t0 = time.monotonic()
        bot.proc.send_signal(sig)
        await asyncio.sleep(0.3)
        late = await ann.slash("hand", channel=t.thread_id)  # new work after the signal
        code = await asyncio.wait_for(bot.proc.wait(), 30)
        seconds = time.monotonic() - t0
        await asyncio.sleep(1.0)  # a worker's watchdog looks twice a second
        left = [p for p in workers if alive(p)]
        refused = await late.reply(timeout=5)
    finally:
        if bot.alive:
            await bot.kill()
    log = bot.log.read_text(errors="replace")
    print(f"\nstop {run} ({sig.name}): exit {code} after {seconds:.2f} s, {len(left)} of {len(workers)} left")
    assert code == 0, f"exit status {code}\n{bot.tail(40)}"
    assert seconds < STOP_LIMIT, f"the stop took {seconds:.1f} s\n{bot.tail(40)}"
    assert answer.startswith("Move taken"), answer
    assert refused.content == STOPPING, refused.content
    assert "stopping; no new work is taken" in log and "stopped cleanly" in log, bot.tail(40)
    assert "Traceback" not in log.split("stopping; no new work")[1], bot.tail(60)
    return seconds, len(left)


@pytest.fixture
def hard_ready() -> None:
    if KEY not in core.available():
        pytest.skip(f"{KEY} is not installed")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
async def test_a_stop_finishes_the_move_and_leaves_no_worker(
    standin: StandIn, tmp_path: Path, hard_ready: None, sig: signal.Signals
) -> None:
    _seconds, left = await one_stop(standin, tmp_path, 0, sig)
    assert left == 0, "worker processes outlived the bot"


@pytest.mark.slow
async def test_twenty_stops_leave_no_worker(standin: StandIn, tmp_path: Path, hard_ready: None) -> None:
    if not os.environ.get("LAIRKEEPER_LONG"):
        pytest.skip("20 stops take minutes: run with --long (or LAIRKEEPER_LONG=1)")
    results = [await one_stop(standin, tmp_path, run, signal.SIGTERM) for run in range(20)]
    times = sorted(s for s, _ in results)
    print(
        f"\n20 stops: {sum(n for _, n in results)} processes left; "
        f"stop {times[0]:.2f}-{times[-1]:.2f} s (median {times[10]:.2f} s)"
    )
    assert sum(n for _, n in results) == 0


async def test_the_mover_is_answered_before_the_computers_think(
    standin: StandIn, tmp_path: Path, hard_ready: None
) -> None:
    """The answer to a move does not wait for the hard computer players after it
    (about two seconds a move each); their board follows, pings her, and her private
    message shows her next turn."""
    bot = BotProcess(standin, tmp_path / "think.db", tmp_path / "think.log")
    bot.env["LAIRKEEPER_AI_WORKERS"] = "2"
    await bot.start()
    try:
        ann = standin.user(951, "ann")
        t = await against_hard_computers(standin, ann)
        for _ in range(2):
            assert t.to_act() == [ann], t.board.content
            private = await t.my_choices(ann)
            mark = standin.mark()
            click = await ann.click(private, Table.move_buttons(private)[0]["custom_id"])
            answer = (await click.reply(timeout=60)).content  # read now: the message is edited on
            answered = time.monotonic() - click.created
            board = await t.wait_board(mark, 60)
            t.boards.append(board)
            boarded = time.monotonic() - click.created
            print(f"\nanswered after {answered:.2f} s, the computers' board after {boarded:.2f} s")
            assert answer.startswith("Move taken"), answer
            assert answered < 1.5, f"the answer waited {answered:.1f} s for the computers"
            assert (
                ann.id in board.mentions
                and len([m for m in standin.public_messages() if t.is_board(m) and m.seq > mark]) == 1
            )
            await standin.wait_until(lambda: "your turn again" in private.content, 15, "her next turn")  # noqa: B023
    finally:
        await bot.stop()
