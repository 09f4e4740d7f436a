"""One turn, one board through the real bot and the stand-in (issue 26 Tests): a
kill -9 between two moves of one turn loses no saved move, owes the thread nothing,
resumes the turn's private message after the restart, and posts that turn's board
once when the turn ends; /play typed moves count as part of the turn."""

from __future__ import annotations

import asyncio

import pytest

from engine import core
from tests.e2e.harness import GOES_ON, BotProcess, Table, board_move, logged_moves, replay
from tests.standin import StandIn

pytestmark = pytest.mark.e2e

KEY = "dungeon-lair"  # a turn is a tile, then the monster action: two moves of one seat


async def test_e2e_kill9_between_two_moves_of_one_turn(standin: StandIn, bot: BotProcess) -> None:
    if KEY not in core.available():
        pytest.skip(f"{KEY} is not installed")
    ann = standin.user(501, "ann")
    t = Table(standin, [ann])
    await t.open(KEY, ais=1)
    for _ in range(60):  # typed moves until one of them is inside a turn
        assert not t.over, "no turn of two moves came"
        boards = len(t.boards)
        await t.play_text(ann, t.rng.choice(await t.choices(ann))["value"])
        if len(t.boards) == boards:
            break
    else:
        raise AssertionError("every move ended its turn")
    assert t.last_answer is not None and t.last_answer.content.startswith(GOES_ON)
    assert "This turn so far:" in t.last_answer.content, "the answer goes on with the turn"
    saved = await logged_moves(bot.db, t.game_id)
    mark = standin.mark()
    await bot.kill()  # between two moves of one turn
    await bot.start()
    await asyncio.sleep(2)
    assert standin.find_messages(t.is_board, after=mark) == [], "a turn in progress owes no board"
    assert await logged_moves(bot.db, t.game_id) == saved, "no saved move lost"
    # "Your move" on the newest board (older than the move): the turn as it stands.
    private = await t.my_choices(ann)
    assert private.ephemeral and "This turn so far:" in private.content, private.content
    made = 0
    while True:
        boards = len(t.boards)
        await t.play_text(ann, t.rng.choice(await t.choices(ann))["value"])
        made += 1
        if len(t.boards) > boards or made > 20:
            break
    assert len(t.boards) > boards, "the turn never ended"
    await asyncio.sleep(1.5)
    posted = standin.find_messages(t.is_board, after=mark)
    assert len(posted) == 1, "the turn's board is posted once"
    rep = await replay(bot.db, t.game_id)
    assert board_move(posted[0]) == rep.moves and rep.moves >= saved + made
    # The board sums up the whole turn, the moves from before the kill included, in words.
    assert posted[0].content.count("ann places") >= 1, posted[0].content
    assert ann.id in posted[0].mentions or rep.status == "over", "after the AI's turn: ann's new turn"
    assert standin.unknown == [] and standin.errors == []
