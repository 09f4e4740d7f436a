"""/waiting through the real bot and the stand-in (issue 37 item 4): the list of
every game waiting on the player comes back privately, as an embed whose line for
the game links to the game's thread."""

from __future__ import annotations

import pytest

from tests.e2e.harness import BotProcess, Table
from tests.standin import StandIn

pytestmark = pytest.mark.e2e


async def test_e2e_waiting_lists_my_game_privately(standin: StandIn, bot: BotProcess) -> None:
    ann, bob = standin.user(37_400, "ann"), standin.user(37_401, "bob")
    t = Table(standin, [ann, bob])
    await t.open("dungeon-lair")
    board = t.boards[-1]
    [first] = [p for p in (ann, bob) if p.id in board.pinged]
    other = bob if first is ann else ann

    r = await first.slash("waiting")
    answer = await r.reply()
    assert answer.ephemeral, "only the player sees what waits on them"
    [embed] = answer.embeds
    assert embed["title"] == "1 game is waiting on you", embed
    link = f"https://discord.com/channels/{standin.guild_id}/{t.thread_id}"
    assert f"[Dungeon Lair #{t.game_id}]({link}) in Stand-in Server" in embed["description"], embed
    assert "no deadline" in embed["description"]

    r = await other.slash("waiting")
    answer = await r.reply()
    assert answer.ephemeral and answer.embeds[0]["title"] == "No game is waiting on you", answer.embeds
    assert standin.errors == [], standin.errors
