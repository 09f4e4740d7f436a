"""One turn, one board through the real bot and the stand-in (issue 26 Tests): a
kill -9 between two moves of one turn loses no saved move, owes the thread nothing,
resumes the turn's private message after the restart, and posts that turn's board
once when the turn ends; /play typed moves count as part of the turn."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.harness import GOES_ON, BotProcess, board_move, logged_moves, replay, solo_table
from tests.standin import StandIn
from tests.standin.server import SUPPRESS_NOTIFICATIONS as SUPPRESS

pytestmark = pytest.mark.e2e

KEY = "dungeon-lair"  # a turn is a tile, then the monster action: two moves of one seat


async def test_e2e_kill9_between_two_moves_of_one_turn(standin: StandIn, bot: BotProcess) -> None:
    t = await solo_table(standin, KEY, 501, place="dm")  # her turns come to her DMs (issue 37)
    ann = t.players[0]
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
    # After the AI's turn, ann's new turn is in the answer to her own move: she moved and
    # goes on, so the board does not ping her (issue 37: never notify the mover).
    assert ann.id not in posted[0].mentions
    mine = standin.find_messages(
        lambda m: standin.in_place_of(m, ann.id) and not m.flags & SUPPRESS, after=mark
    )
    assert mine == [], "nor is a turn she goes on into put into her DMs as a new message"
    assert standin.unknown == [] and standin.errors == []
