"""Moves made only by chooser clicks through the real bot and the Discord stand-in
(issue 21 item 8), a stale chooser click, a restart in the middle of a move, and
the errors of /replay and /stats kept private (issue 21 item 9)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import GOES_ON, BotProcess, Table, decode_png, logged_moves, replay, solo_table
from tests.standin import StandIn
from tests.standin.actors import Actor
from tests.standin.server import Message

pytestmark = pytest.mark.e2e

STEP_ID = re.compile(r"lk:c[xs]:\d+:\d+:\d+.*")


def step_items(m: Message) -> list[dict]:
    return [c for c in m.items if STEP_ID.fullmatch(c.get("custom_id", ""))]


async def chooser_step(t: Table, player: Actor, reply: Message) -> Message:
    """One click in the chooser reply: a random option (select or button). Returns the reply."""
    selects = [c for c in step_items(reply) if c["type"] == 3]
    if selects:
        values = [o["value"] for o in selects[0]["options"]]
        r = await player.select(reply, [t.rng.choice(values)], selects[0]["custom_id"])
    else:
        picks = [c for c in step_items(reply) if ":pick:" in c["custom_id"]]
        assert picks, f"a chooser step with nothing to choose: {reply!r}"
        r = await player.click(reply, t.rng.choice(picks)["custom_id"])
    t.replies.append(r)
    assert r.response_type == 6 and r.ack_seconds is not None and r.ack_seconds < 3
    edited = await r.reply()
    assert edited.id == reply.id and edited.ephemeral, "each step edits the same private reply"
    return edited


async def chooser_move(t: Table, player: Actor, reply: Message, restart: BotProcess | None = None) -> Message:
    """``player`` makes one move by chooser clicks only, from the "Your move"
    ``reply``: a pick that completes the move plays it at once (issue 26), Done only
    while the move could still be extended; returns the newest board."""
    assert reply.ephemeral and t.move_buttons(reply) == [], "this move must need the chooser"
    assert step_items(reply), reply.content
    moves = await logged_moves(t.bot_db, t.game_id)  # type: ignore[attr-defined]
    mark = t.standin.mark()
    first = reply
    for _ in range(12):
        if reply.content.startswith("Move taken"):  # the last pick completed the move
            break
        done = [c for c in step_items(reply) if ":done:" in c["custom_id"]]
        picks = [c for c in step_items(reply) if ":pick:" in c["custom_id"] or c["type"] == 3]
        if done and (t.rng.random() < 0.7 or not picks):
            assert picks, "Done only while the move could still be extended"
            r = await player.click(reply, done[0]["custom_id"])
            t.replies.append(r)
            reply = await r.reply()
            break
        reply = await chooser_step(t, player, reply)
        for png in reply.pngs:  # a preview after a step, when the game draws one
            decode_png(png)
        if restart is not None and "So far" in reply.content:
            await restart.kill()
            await restart.start()
            restart = None
    else:
        raise AssertionError("the chooser never completed a move")
    answer = reply
    assert answer.ephemeral and answer.content.startswith("Move taken"), answer.content
    assert answer.id == first.id, "the whole turn happens in one private message"
    assert await logged_moves(t.bot_db, t.game_id) > moves  # type: ignore[attr-defined]
    if answer.content.startswith(GOES_ON):
        assert step_items(answer) or t.move_buttons(answer), "the turn goes on in the same message"
        return t.board
    board = await t.wait_board(mark)
    t.boards.append(board)
    # The reply loses the turn's components with the turn: nothing can be pressed twice.
    # When the player's own next turn begins at once, it comes into the same message
    # (its components are of the new board's version) and the board does not ping them:
    # they moved and go on (issue 37).
    if answer.items:
        assert player.id not in board.mentions and "It is your turn again" in answer.content, answer.content
        assert {version_of(c) for c in answer.custom_ids} == {version_of(t.choose_button(board) or "")}
    return board


def version_of(custom_id: str) -> int | None:
    found = re.match(r"lk:(?:mv|cx|cs|ch):\d+:(\d+)", custom_id)
    return int(found[1]) if found else None


async def resume_then_stale(t: Table, player: Actor, first: Message) -> bool:
    """One step in a first reply; "Your move" again resumes the half-made move in a
    second reply, which finishes it; a click on the first reply is then one private
    sentence and changes nothing. The player comes back after 16 minutes: the first
    reply's token has expired, so the bot cannot take its components off (it does while
    the token lives: tests/e2e/test_e2e_clicks.py) and they can still be pressed.
    Returns False (nothing to resume) when the random first pick completed the move
    by itself, which plays it at once (issue 26): the caller tries on a later turn."""
    mark = t.standin.mark()
    await chooser_step(t, player, first)
    if first.content.startswith("Move taken"):
        if not first.content.startswith(GOES_ON):
            t.boards.append(await t.wait_board(mark))
        return False
    assert "So far" in first.content
    t.standin.advance(16 * 60)
    second = await t.my_choices(player)
    assert second.id != first.id and "So far" in second.content, second.content
    await chooser_move(t, player, second)
    moves = await logged_moves(t.bot_db, t.game_id)  # type: ignore[attr-defined]
    item = step_items(first)[0]
    if item["type"] == 3:
        r = await player.select(first, [item["options"][0]["value"]], item["custom_id"])
    else:
        r = await player.click(first, item["custom_id"])
    t.replies.append(r)
    refused = await r.reply()
    # Issue 39: a click whose idempotency key (custom id and user) is the one that made
    # the move is told the move was taken; any other old step belongs to an earlier board.
    said = ("earlier board", "Your move was already taken.")
    assert refused.ephemeral and refused.id != first.id and any(w in refused.content for w in said)
    assert await logged_moves(t.bot_db, t.game_id) == moves  # type: ignore[attr-defined]
    return True


async def test_e2e_moves_by_chooser_clicks_only(standin: StandIn, bot: BotProcess) -> None:
    key = "dungeon-lair"  # 100+ placements a turn: far more than buttons hold
    t = await solo_table(standin, key, 401)
    t.bot_db = bot.db  # type: ignore[attr-defined]
    ann = t.players[0]
    made = 0
    for _ in range(12):
        if t.over or made >= 3:
            break
        reply = await t.my_choices(ann)
        buttons = t.move_buttons(reply)
        if buttons:  # this turn's moves fit as buttons: one click is the whole chooser
            mark = standin.mark()
            r = await ann.click(reply, t.rng.choice(buttons)["custom_id"])
            t.replies.append(r)
            answer = await r.reply()
            assert answer.content.startswith("Move taken") and answer.id == reply.id, "edited in place"
            if not answer.content.startswith(GOES_ON):
                t.boards.append(await t.wait_board(mark))
            continue
        if made == 0:
            if not await resume_then_stale(t, ann, reply):
                continue
        else:
            await chooser_move(t, ann, reply, restart=bot if made == 1 else None)
        made += 1
    assert made >= 2, "the chooser was not needed: pick another seed"
    rep = await replay(bot.db, t.game_id)
    assert rep.moves >= made

    # Errors a player causes stay private: /replay of a running game, /stats of no game.
    r = await ann.slash("replay", channel=t.thread_id, move=1)
    m = await r.reply()
    assert m.ephemeral and "finished games" in m.content
    r = await ann.slash("stats", channel=t.thread_id, game="chess")
    m = await r.reply()
    assert m.ephemeral and "no game called" in m.content
    r = await ann.slash("stats", channel=t.thread_id)
    m = await r.reply()
    assert m.ephemeral and m.content == "Posted."
    # Since the ratings (issue 41) /stats posts an embed, and an empty server has no rated games.
    public = await standin.wait_for_message(
        lambda x: not x.ephemeral and "No rated games here yet" in x.text, 10
    )
    assert public.channel_id == t.thread_id
    assert all(i.ack_seconds is not None and i.ack_seconds < 3 for i in standin.interactions.values())
    # The only refusal: retiring the first reply of resume_then_stale with its expired token.
    assert standin.unknown == [] and all("401 50027" in e for e in standin.errors), standin.errors
