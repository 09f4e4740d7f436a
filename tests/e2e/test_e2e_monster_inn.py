"""Monster Inn played end to end: the real bot process, the Discord stand-in,
three users clicking and typing as they would in Discord."""

from __future__ import annotations

import re

import pytest

from tests.e2e.harness import (
    GOES_ON,
    BotProcess,
    Table,
    audit,
    audit_log,
    decode_png,
    moves_by_people,
    replay,
)
from tests.standin import Actor, StandIn
from tests.standin.server import Message

pytestmark = pytest.mark.e2e

HUMANOID_IDS = re.compile(r"\bH\d+\b")


def humanoid_value_leaks(rep_states: list[dict], text: str) -> list[str]:
    """Humanoid combat values are secret until the end: a public text must not
    name a humanoid card or give a held/inn humanoid's value."""
    from engine.monster_inn.data import HUMANOIDS

    leaks = HUMANOID_IDS.findall(text)
    for state in rep_states:
        held = [h for p in state["players"] for h in p["humanoids"]] + [
            c for c in state["inn"] if c in HUMANOIDS
        ]
        for h in held:
            v = HUMANOIDS[h].value
            leaks += [s for s in (f"humanoid {v} ", f"humanoid ({v})", f"humanoid of {v}") if s in text]
    return leaks


async def test_e2e_monster_inn_full_game_through_a_restart(standin: StandIn, bot: BotProcess) -> None:
    """Three users play a whole game. Midway the bot is SIGKILLed and started again
    on the same database; a button posted before the kill still works, once."""
    alice, bob, carol = standin.user(101, "alice"), standin.user(102, "bob"), standin.user(103, "carol")
    standin.dms_closed.add(bob.id)
    dave = standin.user(104, "dave")
    t = Table(standin, [alice, bob, carol])
    # carol and bob ask for a DM on their turn; bob's DMs are closed (Discord error 50007).
    for p in (carol, bob):
        r = await p.slash("notify", dm="on")
        assert (await r.reply()).ephemeral
    await t.open("monster-inn")

    # A thread per game, started from the lobby message, named after the game.
    thread = standin.channels[t.thread_id]
    assert thread["type"] == 11 and int(thread["parent_id"]) == standin.channel_id
    assert f"#{t.game_id}" in thread["name"] and "Monster Inn" in thread["name"]
    # The lobby is closed once the game runs: no more Join/Start buttons.
    assert t.lobby is not None and t.lobby.buttons == []
    assert "started" in t.lobby.content

    moves = 0
    seen_hand: set[int] = set()
    refused_stranger = refused_out_of_turn = restarted = False
    while not t.over:
        board = t.board
        assert len(board.pngs) == 1
        decode_png(board.pngs[0])
        acting = t.to_act()
        assert len(acting) == 1, f"one player is pinged on each board: {board.content!r}"
        p = acting[0]
        assert board.content.startswith(f"<@{p.id}>")
        if p.id not in seen_hand:  # /hand: private, and the image too
            seen_hand.add(p.id)
            r = await p.slash("hand", channel=t.thread_id)
            hand = await r.reply()
            assert hand.ephemeral and hand.interaction_user_id == p.id and "You hold" in hand.content
            for png in hand.pngs:
                decode_png(png)
            t.replies.append(r)
        if not refused_stranger:
            # A stranger presses "Your move": refused, privately.
            cid = t.choose_button()
            assert cid is not None
            r = await dave.click(board, cid)
            m = await r.reply()
            assert m.ephemeral and "not a player" in m.content
            refused_stranger = True
        if not refused_out_of_turn:
            other = next(q for q in t.players if q is not p)
            assert await t.choices(other) == []  # nothing to autocomplete out of turn
            r = await other.slash("play", channel=t.thread_id, move="leave")
            m = await r.reply()
            assert m.ephemeral and "not your turn" in m.content
            refused_out_of_turn = True
        moved = False
        if not restarted and moves >= 15:
            restarted = moved = await restart_and_click_old_button(t, bot, p)
        if not moved:
            await t.play(p, "button" if moves % 2 == 0 else "play")
        moves += 1
        assert moves < 400, "the game does not end"

    final = t.board
    assert "Final scores" in final.content and "Winner" in final.content
    # The final board carries the scores (issue 21 item 5): no separate scores image.
    assert len(final.pngs) == 1 and all(decode_png(x) for x in final.pngs)
    # The final board says how each rating moved and offers Play again (issue 41).
    assert final.mentions == [] and [b["label"] for b in final.buttons] == ["Play again"]
    assert "Ratings: alice 0.0 →" in final.content and "provisional" in final.content
    assert restarted and refused_stranger and refused_out_of_turn and len(seen_hand) == 3

    # "Your move" on an old board of a finished game is refused, privately, and changes
    # nothing (while the game runs, a board's button opens the turn as it is now).
    old = t.boards[-2]
    mark = standin.mark()
    cid = t.choose_button(old)
    assert cid is not None
    r = await t.by_id(old.mentions[0]).click(old, cid)
    m = await r.reply()
    assert m.ephemeral and t.move_buttons(m) == [] and "is over" in m.content
    assert standin.find_messages(t.is_board, after=mark) == []

    rep = await replay(bot.db, t.game_id)
    # Moves nobody had a choice about were played for them, and the boards say so.
    auto = sum(b.content.count("had only one possible move") for b in t.boards)
    assert rep.status == "over" and rep.moves == moves + auto
    audit(standin, t, rep)
    audit_log(bot, rep)
    for m in standin.public_messages():
        if m is not final:
            assert humanoid_value_leaks(rep.states, m.text) == [], m.text
    # DMs: carol got one for each board that pinged her, with a link to it; bob's
    # closed inbox was refused by Discord and the game went on regardless.
    pinged = [b for b in t.boards if carol.id in b.mentions]
    dms = carol.dms()
    assert pinged and len(dms) == len(pinged)
    assert all(
        f"#{t.game_id}" in m.content and str(b.id) in m.content for m, b in zip(dms, pinged, strict=True)
    )
    assert bob.dms() == [] and alice.dms() == []
    assert all(i.ack_seconds is not None and i.ack_seconds < 3 for i in standin.interactions.values())
    assert standin.unknown == []
    assert standin.errors and all("50007" in e for e in standin.errors), standin.errors
    await play_again_by_clicks(standin, bot, t, final)


async def play_again_by_clicks(standin: StandIn, bot: BotProcess, t: Table, final: Message) -> None:
    """Issue 41: "Play again ... each person already seated and asked to confirm with one
    click ... Seat order rotates": bob presses Play again on the final board; alice and
    carol are pinged in the new lobby and confirm; the second game starts, seats turned."""
    alice, bob, carol = t.players
    # /stats: the rating leaderboard for the channel, as an embed with its picture.
    mark = standin.mark()
    r = await carol.slash("stats")
    assert (await r.reply()).ephemeral
    board = await standin.wait_for_message(lambda m: bool(m.embeds) and not m.ephemeral, 20, after=mark)
    assert board.embeds[0]["title"] == "All games: ratings from 1 rated game."
    assert "(provisional)" in board.embeds[0]["description"] and len(board.pngs) == 1
    decode_png(board.pngs[0])
    mark = standin.mark()
    r = await bob.click(final, f"lk:again:{t.game_id}")
    assert "new lobby is open" in (await r.reply()).content
    lobby = await standin.wait_for_message(
        lambda m: m.channel_id == standin.channel_id and not m.ephemeral and "game #" in m.content,
        10,
        after=mark,
    )
    m = re.search(r"game #(\d+)", lobby.content)
    assert m is not None and int(m[1]) != t.game_id
    new_id = int(m[1])
    assert sorted(lobby.mentions) == [alice.id, carol.id] and lobby.content.count("(to confirm)") == 2
    # alice presses it too: the lobby bob opened, no second one.
    r = await alice.click(final, f"lk:again:{t.game_id}")
    assert "open already" in (await r.reply()).content
    r = await bob.click(lobby, f"lk:lobby:{new_id}:start")  # nobody confirmed: bob alone is too few
    assert "did not confirm yet" in (await r.reply()).content
    for p in (carol, alice):
        c = await p.click(lobby, f"lk:imin:{new_id}")
        await c.reply()
    assert "(to confirm)" not in lobby.content and "I'm in" not in str(lobby.buttons)
    await standin.wait_until(lambda: lobby.thread_id is not None, 10, "the new game's thread")
    second = Table(standin, t.players, game_id=new_id, lobby=lobby, thread_id=lobby.thread_id or 0)
    mark = standin.mark()
    r = await bob.click(lobby, f"lk:lobby:{new_id}:start")
    await r.reply()
    board = await second.wait_board(mark)
    assert "Monster Inn** begins" in board.content
    from store import Store

    store = await Store(str(bot.db)).open()
    try:
        seats = (await store.get(new_id)).seats  # type: ignore[union-attr]
    finally:
        await store.close()
    assert [s.user_id for s in seats] == [bob.id, carol.id, alice.id]  # was alice, bob, carol


async def restart_and_click_old_button(t: Table, bot: BotProcess, p: Actor) -> bool:
    """``p`` opens their private move buttons; the bot is SIGKILLed and started
    again; ``p`` presses a button of that message from before the kill: the move
    is taken once. Returns False (nothing done) if this turn has no move buttons."""
    private = await t.my_choices(p)
    buttons = t.move_buttons(private)
    if not buttons:
        return False
    # Counted as moves a person made: the bot may play the next player's only move at
    # once, which is logged too but carries no user (it made the count flaky: 18 for 17).
    moves_before = await moves_by_people(bot.db, t.game_id)
    await bot.kill()
    await bot.start()

    button = buttons[0]["custom_id"]
    mark = t.standin.mark()
    r = await p.click(private, button)
    t.replies.append(r)
    answer = await r.reply()
    assert answer.content.startswith("Move taken") and answer.id == private.id, "edited in place"
    if not answer.content.startswith(GOES_ON):
        t.boards.append(await t.wait_board(mark))
    # The message was edited in place: the pressed button is gone with the move, so it
    # cannot be pressed twice (a stale copy is refused by its version, tests/test_tables.py).
    if not answer.content.startswith(GOES_ON):
        assert answer.items == []
    assert len(t.standin.find_messages(t.is_board, after=mark)) == (
        0 if answer.content.startswith(GOES_ON) else 1
    )
    assert await moves_by_people(bot.db, t.game_id) == moves_before + 1
    return True
