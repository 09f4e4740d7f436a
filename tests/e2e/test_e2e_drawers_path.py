"""A Dungeon Drawers hero path drawn only through the chooser's buttons, through the
real bot and the Discord stand-in (issue 19 item 6, issue 26): the legal next runs
only (at most four directions, each running to the next junction or turn, and "Turn
earlier") beside whole routes to the exit, a preview image after each step, Back, and
Done only once the path is complete; the path is one move, saved only at Done."""

from __future__ import annotations

import pytest

from tests.e2e.harness import GOES_ON, BotProcess, decode_png, logged_moves, replay, solo_table
from tests.e2e.test_e2e_chooser import step_items
from tests.standin import StandIn

pytestmark = pytest.mark.e2e

KEY = "dungeon-drawers"


async def test_e2e_hero_path_drawn_by_buttons(standin: StandIn, bot: BotProcess) -> None:
    t = await solo_table(standin, KEY, 402)
    ann = t.players[0]
    drawn = False
    for _ in range(400):
        if t.over or drawn:
            break
        # AI seats move at once, so whenever the game waits, it waits for ann.
        assert t.to_act() == [ann], t.board.content  # pinged, or her own answer showed the turn
        reply = await t.my_choices(ann)
        if "Hero's path" not in reply.content:
            await t.play(ann, "play")  # building and defending by /play: not what this test is about
            continue
        moves = await logged_moves(bot.db, t.game_id)
        mark = standin.mark()
        steps = backs = 0
        while True:
            items = step_items(reply)
            # (custom_id, value or None, label) of every option: buttons when few, else a select
            options = [
                (c["custom_id"], None, c.get("label", "")) for c in items if ":pick:" in c["custom_id"]
            ]
            for sel in (c for c in items if c["type"] == 3):
                options += [(sel["custom_id"], o["value"], o["label"]) for o in sel["options"]]
            done = [c for c in items if ":done:" in c["custom_id"]]
            assert len(options) <= 25, "one select at most: runs, Turn earlier and whole routes"
            routes = [o for o in options if "spaces to H10" in o[2]]
            picks = [o for o in options if o not in routes and not o[2].startswith("Turn earlier")]
            assert len(picks) <= 4, "at most the four directions"
            assert ("Done draws it here" in reply.content) == bool(done), "Done only on a complete path"
            if done and (steps >= 10 or not picks):
                break
            assert picks or routes, "a half-drawn path always has a next step"
            if steps == 3 and backs == 0:  # one step back, then on
                back = next(c for c in items if ":back:" in c["custom_id"])
                r = await ann.click(reply, back["custom_id"])
                backs += 1
                steps -= 1
            else:
                # runs for a while, then a whole route to the exit in one pick
                cid, value, _label = t.rng.choice(picks if picks and (steps < 8 or not routes) else routes)
                r = await (ann.click(reply, cid) if value is None else ann.select(reply, [value], cid))
                steps += 1
            assert r.ack_seconds is not None and r.ack_seconds < 3
            reply = await r.reply()
            if reply.content.startswith("Move taken"):  # the path reached its end: drawn at once
                break
            assert reply.ephemeral and reply.pngs, "a small image of the path so far after each step"
            decode_png(reply.pngs[0])
            assert await logged_moves(bot.db, t.game_id) == moves, "nothing is saved before Done"
            assert steps < 300, "the path never completed"
        if reply.content.startswith("Move taken"):
            answer = reply
        else:
            r = await ann.click(reply, done[0]["custom_id"])
            answer = await r.reply()
        assert answer.content.startswith("Move taken"), answer.content
        if not answer.content.startswith(GOES_ON):
            t.boards.append(await t.wait_board(mark))
        drawn = True
    assert drawn, "ann never had a hero path to draw"
    from store import Store

    store = await Store(str(bot.db)).open()
    try:
        log = await store.log(t.game_id)
    finally:
        await store.close()
    assert sum(1 for _seq, seat, text in log if seat == 0 and text.startswith("path ")) == 1
    assert (await replay(bot.db, t.game_id)).moves == len(log)
    assert standin.unknown == [] and standin.errors == []
