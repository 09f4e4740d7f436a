"""Every other installed game played to the end through the real bot process.

One human (moves chosen at random from what /play's autocomplete offers) against
AI players. To keep the suite fast the human plays the first
``LAIRKEEPER_E2E_MOVES`` moves (default 20) and then leaves with ``/game leave``:
the AI takes the seat and the bot plays the game to its end. Set
``LAIRKEEPER_E2E_MOVES=0`` to play every move by hand (several minutes).
"""

from __future__ import annotations

import os

import pytest

from engine import core
from tests.e2e.harness import BotProcess, audit, audit_log, decode_png, replay, solo_table
from tests.standin import StandIn

pytestmark = pytest.mark.e2e

GAMES = ["dungeon-lair", "dungeon-decorators", "dungeon-drawers", "dungeon-lords"]
BY_HAND = int(os.environ.get("LAIRKEEPER_E2E_MOVES", "20"))


@pytest.mark.parametrize("key", GAMES)
async def test_e2e_game_to_the_end(key: str, standin: StandIn, bot: BotProcess) -> None:
    t = await solo_table(standin, key, 301)
    game = core.get(key)
    ann = t.players[0]
    moves = 0
    while not t.over and (BY_HAND == 0 or moves < BY_HAND):
        decode_png(t.board.pngs[0])
        assert t.board.mentions in ([], [ann.id]), t.board.content
        # AI seats move at once, so whenever the game waits, it waits for the human.
        offered = await t.choices(ann)
        assert offered, f"{key}: the game waits but /play offers no move: {t.board.content!r}"
        if moves == 0:
            typed = await t.choices(ann, offered[-1]["value"])
            assert offered[-1] in typed  # typing a move's notation finds it
            r = await ann.slash("hand", channel=t.thread_id)
            t.replies.append(r)
            for png in (await r.reply()).pngs:  # private, image included
                decode_png(png)
        await t.play_text(ann, t.rng.choice(offered)["value"])
        moves += 1
        assert moves < 2000, f"{key}: no end after {moves} moves"
    if not t.over:
        mark = standin.mark()
        r = await ann.slash("game leave", channel=t.thread_id, timeout=120)
        t.replies.append(r)
        assert "AI" in (await r.reply()).content  # answered first; the computers then play on
        t.boards.append(
            await standin.wait_for_message(
                lambda m: t.is_board(m) and "Final scores" in m.content, 300, after=mark
            )
        )
    final = t.board
    # The final board carries the scores (issue 21 item 5): no separate scores image.
    assert not any(a.filename.endswith("-scores.png") for a in final.attachments)
    assert [b["label"] for b in final.buttons] == ["Play again"] and final.mentions == []
    rep = await replay(bot.db, t.game_id)
    assert final.attachments[0].filename == f"game{t.game_id}-move{rep.moves}.png"
    assert rep.status == "over"
    audit(standin, t, rep, compare=6, every_move=False)
    # /replay of the finished game: the board after move 1 for the thread, the answer private.
    mark = standin.mark()
    r = await ann.slash("replay", channel=t.thread_id, move=1)
    assert (await r.reply()).ephemeral
    shown = await standin.wait_for_message(
        lambda m: m.channel_id == t.thread_id and bool(m.pngs), 20, after=mark
    )
    assert not shown.ephemeral and shown.pngs[0] == rep.public_png(1)
    # /rules (issue 28): the guide, privately: an embed a section and a button a section;
    # a click on the last section's button edits the same message in place.
    r = await ann.slash("rules", game=key)
    rules = await r.reply()
    assert rules.ephemeral and rules.embeds and rules.embeds[0]["title"].startswith(game.title)
    assert all(0 < len(e.get("description", "")) <= 4096 for e in rules.embeds)
    sections = [c["custom_id"] for c in rules.items if c.get("type") == 2]
    assert sections and all(cid.startswith(f"lk:guide:{key}:") for cid in sections)
    first_title = rules.embeds[0]["title"]
    r = await ann.click(rules, sections[-1])
    edited = await r.reply()
    assert edited.id == rules.id and edited.embeds[0]["title"] != first_title
    if edited.embeds[0]["title"].endswith(": The board"):  # the labelled board comes with it
        assert [a.filename for a in edited.attachments] == ["guide-board.png"]
        assert edited.embeds[0]["image"]["url"] == "attachment://guide-board.png"
    audit_log(bot, rep)
    assert all(i.ack_seconds is not None and i.ack_seconds < 3 for i in standin.interactions.values())
    assert standin.unknown == [] and standin.errors == []
    assert "Final scores" in final.content and "Winner" in final.content
