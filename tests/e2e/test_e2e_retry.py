"""Issue 39 items 1 and 6 through the real bot process and the stand-in: a move saved just
before the database stalls is answered "Move taken" (never "not taken"), although
what follows the save (marking the board posted, reading the mover's next turn)
fails; and a second tap of the same button is answered "Your move was already
taken." and is not played again in the turn that began meanwhile.

The database is the test's own PostgreSQL cluster, frozen with SIGSTOP at the moment
the bot posts the board of the saved move (the stand-in holds that request): the
commit has happened, the reads after it meet the stall.

And a click on another person's private turn message is refused (item 6)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.live import NOT_YOURS
from tables import ALREADY
from tests.e2e.harness import BotProcess, Table, logged_moves, solo_table
from tests.pgserver import frozen_cluster
from tests.standin import StandIn

pytestmark = pytest.mark.e2e

KEY = "monster-inn"
ANN = 801


async def moves_of(url: str, game_id: int, user_id: int) -> int:
    from store import Store

    store = await Store(url).open()
    try:
        return sum(1 for _s, _seat, u, _n, _t in await store.log_full(game_id) if u == user_id)
    finally:
        await store.close()


@pytest.fixture
async def pg_bot(standin: StandIn, tmp_path: Path) -> AsyncIterator[tuple[BotProcess, object]]:
    with frozen_cluster() as cluster:
        bot = BotProcess(standin, tmp_path / "unused.db", tmp_path / "bot.log")
        bot.env["LAIRKEEPER_DB"] = cluster.url
        await bot.start()
        try:
            yield bot, cluster
        finally:
            cluster.thaw()
            await bot.stop()
            print(f"---- bot log ----\n{bot.tail(120)}")


async def test_a_move_saved_before_a_stall_is_taken_and_its_retry_is_not_played_twice(
    standin: StandIn, pg_bot: tuple[BotProcess, object]
) -> None:
    _bot, cluster = pg_bot
    t = await solo_table(standin, KEY, ANN)
    ann = t.by_id(ANN)
    assert t.to_act() == [ann], t.board.content
    private = await t.my_choices(ann)
    button = Table.move_buttons(private)[0]["custom_id"]
    before = await moves_of(cluster.url, t.game_id, ANN)  # type: ignore[attr-defined]
    # The move's board (the computers move after her, then it is her turn again) is
    # held on its way to the thread; the database stalls while it is held.
    held = standin.faults.hold("POST", rf"/channels/{t.thread_id}/messages")
    click = await ann.click(private, button)
    await asyncio.wait_for(held.reached.wait(), 30)
    # No answer yet, the button still on her message: she taps it again.
    retry = await ann.click(private, button)
    again = await retry.reply(timeout=15)
    cluster.freeze()  # type: ignore[attr-defined]
    try:
        held.release.set()
        answer = await click.reply(timeout=30)
    finally:
        cluster.thaw()  # type: ignore[attr-defined]
    print(f"\nanswer after the stall ({click.answered_seconds:.2f} s): {answer.content!r}")
    print(f"answer to the second tap: {again.content!r}")
    assert answer.content.startswith("Move taken"), answer.content
    assert "not taken" not in answer.content and "try again" not in answer.content.lower(), answer.content
    assert again.content == ALREADY, again.content
    await asyncio.sleep(0.5)
    assert await moves_of(cluster.url, t.game_id, ANN) == before + 1  # type: ignore[attr-defined]


async def test_a_click_on_another_players_private_message_is_refused(
    standin: StandIn, bot: BotProcess
) -> None:
    """Discord's client shows nobody else an ephemeral message, so it cannot send such
    a click; a forged one is refused all the same, and the message stays the owner's."""
    players = [standin.user(811 + i, f"p{i}") for i in range(3)]
    t = Table(standin, players)
    await t.open(KEY)
    owner = t.to_act()[0]
    private = await t.my_choices(owner)
    before = (private.content, list(private.custom_ids))
    button = Table.move_buttons(private)[0]["custom_id"]
    moves = await logged_moves(bot.db, t.game_id)
    for other in [p for p in players if p is not owner]:
        data = {"custom_id": button, "component_type": 2}
        forged = await standin.interact(other.id, 3, private.channel_id, data, "forged click", private)
        answer = await forged.reply()
        assert answer.content == NOT_YOURS, answer.content
        assert answer is not private and answer.ephemeral
    assert (private.content, list(private.custom_ids)) == before, "the owner's message was written into"
    assert await logged_moves(bot.db, t.game_id) == moves, "a move was played from someone else's message"
