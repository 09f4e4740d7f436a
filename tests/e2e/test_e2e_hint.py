"""The "Hint" button (issue 40 point 7) through the real bot process and the Discord
stand-in: "answers privately with the moves the searching computer player would
consider best for this seat now, the top three with how often each won its
playouts", and "never blocks other clicks"."""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import BotProcess, solo_table
from tests.standin import StandIn

pytestmark = pytest.mark.e2e

LINE = re.compile(r"^\d\. \*\*.+\*\*: won \d+% of its \d+ playouts?$", re.M)


async def test_e2e_hint_answers_privately_and_what_now_is_not_held_up(
    standin: StandIn, bot: BotProcess
) -> None:
    t = await solo_table(standin, "monster-inn", 441)
    ann = t.players[0]
    assert ann in t.to_act(), t.board.content
    hint_id = f"lk:hint:{t.game_id}"
    assert any(b.get("custom_id") == hint_id and b.get("label") == "Hint" for b in t.board.buttons)
    hint = await ann.click(t.board, hint_id, wait=False)
    now = await ann.click(t.board, f"lk:now:{t.game_id}", wait=False)
    what_now = await now.reply(timeout=15)
    answer = await hint.reply(timeout=15)
    assert now.ack_seconds is not None and now.ack_seconds < 3
    assert hint.ack_seconds is not None and hint.ack_seconds < 3
    assert answer.ephemeral and what_now.ephemeral
    await standin.wait_until(lambda: bool(LINE.search(answer.content)), 15, "the hint's moves")
    moves = LINE.findall(answer.content)
    assert 1 <= len(moves) <= 3, answer.content
