"""Every game played whole by clicks only through the real bot process and the Discord
stand-in, two humans at the game's minimum player count (Monster Inn: two humans and
one AI player), asserting issue 26's targets for what the table sees:

- public boards at most the human turns plus the simultaneous phases;
- pings (thread messages that notify; a simultaneous phase's board notifies every seat in it
  at once and is one ping) at most the public boards, no message but a board
  pings anyone, and nobody is pinged who was not to act;
- private (ephemeral) messages at most 2 per human turn;
- every click answered, every interaction acknowledged within Discord's 3 s;
- a player's turns after their first come into their private turn message (the bot
  edits it while its token lives), no "Your move" pressed.

And the private turn message itself: a new turn arrives in it as "Your move" would show
it; pressing "Your move" anyway makes the new message the live one and retires the old;
a token Discord no longer takes (its 15 minutes over) or a margin set tiny falls back to
"Your move" on the board.

The driver (tests/e2e/clicker.py) is the clicks benchmark's; boards, pings and private
messages count what the play posts after the opening board. A whole game takes from
about 10 s (Monster Inn) to a minute (Dungeon Lair), the five about 4 minutes on a
2-core machine. ``LAIRKEEPER_E2E_CLICKS=N``
stops each game after N clicks and checks the targets over the part played.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from cogs.live import ENV, RETIRED
from engine import core
from tests.e2e.clicker import ClickGame, click_game, offered
from tests.e2e.harness import BotProcess
from tests.standin import Message, StandIn

pytestmark = pytest.mark.e2e

GAMES = ["monster-inn", "dungeon-lair", "dungeon-decorators", "dungeon-drawers", "dungeon-lords"]
CLICKS = int(os.environ.get("LAIRKEEPER_E2E_CLICKS", "0"))
SEED = 26
SECONDS = 480.0  # a game still running then fails as unfinished, before pytest's 10-minute timeout


def missed_targets(fig: dict) -> list[str]:
    """Issue 26's targets for one game, in words, each that this game misses."""
    out = []
    turns, phases = fig["turns"], fig["simultaneous_phases"]
    if fig["public_boards"] > turns + phases:
        out.append(
            f"{fig['public_boards']} public boards for {turns} human turns and {phases} simultaneous phases"
        )
    if fig["pings"] > fig["public_boards"]:
        out.append(f"{fig['pings']} pings for {fig['public_boards']} public boards")
    if fig["ping_messages"] > fig["public_boards"]:
        out.append(
            f"{fig['ping_messages']} messages pinging someone for {fig['public_boards']} public boards"
        )
    if fig["pings_not_to_act"]:
        out.append(f"{fig['pings_not_to_act']} pings of people who were not to act")
    if fig["private_messages"] > 2 * turns:
        out.append(f"{fig['private_messages']} private messages for {turns} human turns (at most 2 a turn)")
    return out


@pytest.mark.parametrize("key", GAMES)
async def test_e2e_whole_game_by_clicks(key: str, standin: StandIn, bot: BotProcess) -> None:
    if key not in core.available():
        pytest.skip(f"{key} is not installed")
    game = core.get(key)
    players = game.min_players
    g, fig = await click_game(
        standin, bot.db, key, players, min(2, players), SEED, CLICKS or None, seconds=SECONDS
    )
    print(f"figures: {fig}")
    if not CLICKS:
        assert fig["complete"], f"{key}: the game did not end by clicks: {fig}"
    assert fig["clicks"] > 0 and fig["turns"] > 0
    assert fig["unanswered_clicks"] == 0, f"{key}: clicks left without an answer: {fig}"
    for r in g.table.replies:
        assert r.response_type is not None and r.ack_seconds is not None and r.ack_seconds < 3, r
    assert standin.unknown == [] and standin.errors == []
    missed = missed_targets(fig)
    assert not missed, f"{key}, {players} players by clicks: " + "; ".join(missed)
    # Each player opens their private turn message once; their later turns come into it
    # (a tenth of them may miss it on a loaded machine: a carry slower than the clicker's
    # glance sends the player to "Your move", which is still right).
    later_turns = fig["turns"] - fig["turns_played_for_them"] - fig["humans"]
    assert fig["turns_in_private_message"] >= 0.9 * later_turns, f"{key}: turns not carried: {fig}"


# ---- the turn in the private message --------------------------------------------------------

YOUR_TURN = "It is your turn again"  # the line the bot puts over a turn it carried in
VERSION = re.compile(r"lk:(?:mv|cx|cs):\d+:(\d+)")


def version_on(m: Message) -> int | None:
    """The game version the choices on a private message belong to."""
    for cid in m.custom_ids:
        found = VERSION.match(cid)
        if found:
            return int(found[1])
    return None


def private_of(g: ClickGame, user_id: int) -> list[Message]:
    """The private messages of ``user_id`` since the game started."""
    return [m for m in g.standin.log if m.seq > g._mark and m.ephemeral and m.interaction_user_id == user_id]


async def carried_turn(g: ClickGame, limit: int = 40) -> tuple[Any, Message]:
    """Click on until a person is to act at the start of a turn the bot carried into their
    private message; (that person, the message)."""
    for _ in range(limit):
        row = await g._row()
        for who in g.humans:
            m = g._panels.get(who.id)
            if row.seat_of(who.id) in g.game.to_act(row.state) and m is not None and YOUR_TURN in m.content:
                return who, m
        await g.play(max_clicks=len(g.clicks) + 1)
    raise AssertionError(f"no turn came into a private message in {limit} clicks")


async def ephemeral_flow(standin: StandIn) -> None:
    """These tests are about the ephemeral turn message: the fallback where no lasting
    private place is had (issue 37), chosen here by the server's ``turns_in:off``."""
    owner = standin.user(standin.owner_id, "owner")
    await (await owner.slash("settings", turns_in="off")).reply()


async def monster_inn(standin: StandIn, db: Path, first_user: int) -> ClickGame:
    """Monster Inn, 3 seats: two people and one AI player (the clicks benchmark's game),
    played by the ephemeral turn message."""
    await ephemeral_flow(standin)
    actors = [standin.user(first_user + i, f"player{i + 1}") for i in range(2)]
    g = ClickGame(standin, db, "monster-inn", actors, ais=1, seed=SEED)
    await g.__aenter__()
    await g.open()
    return g


async def test_e2e_turn_comes_into_the_private_message(standin: StandIn, bot: BotProcess) -> None:
    g = await monster_inn(standin, bot.db, 26_100)
    try:
        await g.play(max_clicks=14)
        fig = await g.figures()
        assert fig["your_move_clicks"] == 2, fig  # each player's first turn only
        assert fig["turns_in_private_message"] >= 4, fig
        assert fig["private_messages"] == 2, fig  # no message but the one "Your move" opened
        for who in g.humans:
            (turn_message,) = private_of(g, who.id)
            carried = [h for h in turn_message.history if YOUR_TURN in h["content"]]
            assert carried or YOUR_TURN in turn_message.content, turn_message
            assert turn_message.ephemeral and turn_message.interaction_user_id == who.id

        # A person whose turn begins sees it in their message, at the game's version.
        who, old = await carried_turn(g)
        assert private_of(g, who.id) == [old]
        row = await g._row()
        assert offered(old) and version_on(old) == row.version, old
        shown, ids = old.content, old.custom_ids

        # "Your move" anyway shows the same turn, in a new message that is the live one now;
        # the old one loses its buttons (two messages never offer the same turn).
        boards = standin.find_messages(lambda m: g.table.is_board(m) and m.buttons)
        r = await who.click(boards[-1], next(c for c in boards[-1].custom_ids if c.startswith("lk:ch:")))
        new = await r.reply()
        assert new is not old and new.ephemeral and new.custom_ids == ids
        assert shown.endswith(new.content), (shown, new.content)  # the same, under the carried note
        await standin.wait_until(lambda: not old.items, 10, "the older message retired")
        assert old.content == RETIRED

        # The next turn comes into the newer message; the retired one stays retired.
        g._panels[who.id] = new
        await g.play(max_clicks=len(g.clicks) + 10)
        assert old.content == RETIRED and not old.items
        assert any(YOUR_TURN in h["content"] for h in new.history) or YOUR_TURN in new.content, new
        assert standin.unknown == [] and standin.errors == []
    finally:
        await g.__aexit__()


async def test_e2e_expired_token_falls_back_to_your_move(standin: StandIn, bot: BotProcess) -> None:
    """A player away longer than a token lives: the bot's edit is refused (401, Invalid
    Webhook Token), their message stays as it was, and they press "Your move"; their
    later turns come into the new message again."""
    g = await monster_inn(standin, bot.db, 26_200)
    try:
        await g.play(max_clicks=8)
        before = len(g.clicks)
        standin.advance(16 * 60)  # everybody comes back after 16 minutes
        await g.play(max_clicks=before + 16)
        after = g.clicks[before:]
        refused = standin.errors
        assert refused and all("401 50027 Invalid Webhook Token" in e for e in refused), refused
        assert len(refused) <= 2  # one a player: a refused token is forgotten
        assert sum(c.what == "Your move" for c in after) == len(refused), [c.what for c in after]
        fig = await g.figures()
        assert fig["unanswered_clicks"] == 0 and fig["turns_in_private_message"] >= 4, fig
    finally:
        await g.__aexit__()


async def test_e2e_tiny_margin_never_edits_an_old_message(standin: StandIn, tmp_path: Path) -> None:
    """``LAIRKEEPER_TURN_MESSAGE_SECONDS`` tiny: the bot never tries an old token; every
    turn is opened with "Your move", as before issue 26's private turn message."""
    bot = BotProcess(standin, tmp_path / "tiny.db", tmp_path / "tiny.log")
    bot.env[ENV] = "0.01"
    await bot.start()
    try:
        g = await monster_inn(standin, bot.db, 26_300)
        try:
            await g.play(max_clicks=12)
            fig = await g.figures()
        finally:
            await g.__aexit__()
        assert fig["turns_in_private_message"] == 0, fig
        assert fig["your_move_clicks"] >= 5, fig
        assert standin.errors == [], standin.errors
    finally:
        await bot.stop()


async def test_e2e_undo_inside_a_turn_edits_the_private_message_back(
    standin: StandIn, bot: BotProcess
) -> None:
    """/undo of a move inside one's own turn that no board showed (a Dungeon Drawers
    element installed while the card is face up): no board in the thread, the private
    turn message shows the turn as it stands again, /undo answers in one sentence."""
    from tables import TAKEN_BACK

    await ephemeral_flow(standin)
    actors = [standin.user(26_400 + i, f"player{i + 1}") for i in range(2)]
    g = ClickGame(standin, bot.db, "dungeon-drawers", actors, seed=SEED)
    await g.__aenter__()
    try:
        await g.open()
        _, m, mark, answer = await g.undo_inside_a_turn()
        assert answer.ephemeral and answer.content.startswith(TAKEN_BACK), answer.content
        await standin.wait_until(lambda: m.content.startswith(TAKEN_BACK), 10, "the message taken back")
        row = await g._row()
        assert offered(m) and version_on(m) == row.version, m
        assert standin.find_messages(g.table.is_board, after=mark) == [], "no board for an unseen move"
        assert [x for x in standin.find_messages(lambda x: x.ephemeral, after=mark)] == [answer]
        await g.play(max_clicks=len(g.clicks) + 10)  # the game goes on from the message
        assert standin.unknown == [] and standin.errors == []
    finally:
        await g.__aexit__()


async def test_e2e_a_restart_forgets_the_live_messages(standin: StandIn, bot: BotProcess) -> None:
    """The live message is kept in memory only (a token is a credential to a private
    message): after a restart each player's next new turn is opened with "Your move",
    the bot never tries a token it no longer holds, and later turns come into the new
    message again."""
    g = await monster_inn(standin, bot.db, 26_500)
    try:
        await g.play(max_clicks=8)
        before = len(g.clicks)
        await bot.kill()
        await bot.start()
        await g.play(max_clicks=before + 20)
        after = g.clicks[before:]
        opened = sum(c.what == "Your move" for c in after)
        assert 1 <= opened <= 2, [c.what for c in after]  # once a player at most
        fig = await g.figures()
        assert fig["unanswered_clicks"] == 0 and fig["turns_in_private_message"] >= 6, fig
        assert standin.errors == [], standin.errors
    finally:
        await g.__aexit__()
