"""Issue 37: a turn message in a place never keeps live buttons for a game that can have no
more turns. /game abandon (and a deadline under the "abandon" policy, which goes the same
way: cogs/slowplay.py) closes every player's turn message there, edited in place, saying
so with the game's thread, and the DM list of games waiting on a player drops the game."""

from __future__ import annotations

import pytest

from tests.e2e.clicker import ClickGame
from tests.e2e.harness import BotProcess
from tests.standin import StandIn

pytestmark = pytest.mark.e2e


async def test_e2e_places_closed_when_the_game_is_abandoned(standin: StandIn, bot: BotProcess) -> None:
    humans = [standin.user(37_700 + i, f"player{i + 1}") for i in range(2)]
    async with ClickGame(standin, bot.db, "dungeon-lair", humans, seed=37, slow=True) as g:
        await g.open()
        await g.play(max_clicks=6)
        row = await g._row()
        [waiting, *_] = [h for h in humans if row.seat_of(h.id) in g.game.to_act(row.state)]
        await g._glance(waiting)  # the turn came to their place: live buttons there
        last = [m for m in standin.log if g._turn_in_place(m, waiting.id)][-1]
        assert last.buttons, "the turn waits in the place"
        r = await humans[0].slash("game abandon", channel=g.table.thread_id, timeout=60)  # the host
        await r.reply()
        said = await standin.wait_for_message(
            lambda m: m.channel_id == g.table.thread_id and "was abandoned" in m.content, 10
        )
        assert said.content.startswith("Game #") and not said.ephemeral, said
        await standin.wait_until(lambda: "was abandoned" in last.content, 10, "the place closed")
        assert last.buttons == [] and not last.components, last.components
        assert last.content.endswith(f"<#{g.table.thread_id}>"), last.content
        for h in humans:
            turns = [m for m in standin.log if g._turn_in_place(m, h.id)]
            assert all(not m.components for m in turns), "no turn message in a place keeps live buttons"
    assert standin.unknown == [] and standin.errors == [], standin.errors
