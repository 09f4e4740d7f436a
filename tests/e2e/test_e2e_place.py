"""The seat's lasting private place (issue 37) through the real bot and the stand-in,
by clicks only, turns a day apart (the stand-in's clock: every interaction token has
expired when a turn begins).

Each game of each kind, in each place the server can choose (direct messages, a
private thread each): two people play ``LAIRKEEPER_E2E_PLACE_CLICKS`` clicks (default
30) from their places, the bot is killed and restarted in the middle, the buttons in
the places go on working, then both leave and the AI plays the game to its end (as
tests/e2e/test_e2e_games.py does, to stay fast; 0 plays every click by hand). Checked:
one place a player, one new message a turn that begins for them there, the previous
one without live buttons, no notification of the player who just moved, no "Your
move" pressed, nothing of a place readable by anyone but its player (and, in a
private thread, the moderators the host was told of).
"""

from __future__ import annotations

import os

import pytest

from engine import core
from tests.e2e.clicker import ClickGame
from tests.e2e.harness import BotProcess
from tests.standin import StandIn
from tests.standin.server import SUPPRESS_NOTIFICATIONS

pytestmark = pytest.mark.e2e

GAMES = ["monster-inn", "dungeon-lair", "dungeon-decorators", "dungeon-drawers", "dungeon-lords"]
BY_HAND = int(os.environ.get("LAIRKEEPER_E2E_PLACE_CLICKS", "30"))
SEED = 37


async def set_place(standin: StandIn, mode: str) -> str:
    """The host chooses where turns come to players (/settings turns_in); the answer."""
    owner = standin.user(standin.owner_id, "owner")
    r = await owner.slash("settings", turns_in=mode)
    return (await r.reply()).content


@pytest.mark.parametrize("mode", ["dm", "thread"])
@pytest.mark.parametrize("key", GAMES)
async def test_e2e_slow_game_from_each_place(key: str, mode: str, standin: StandIn, bot: BotProcess) -> None:
    said = await set_place(standin, mode)
    if mode == "thread":  # the host is told who else can read a private thread
        assert "Manage Threads" in said and "moderators" in said, said
    game = core.get(key)
    humans = [standin.user(37_000 + i, f"player{i + 1}") for i in range(2)]
    async with ClickGame(standin, bot.db, key, humans, ais=game.min_players - 2, seed=SEED, slow=True) as g:
        await g.open()
        half = BY_HAND // 2 if BY_HAND else None
        await g.play(max_clicks=half)
        if not g.complete:  # a restart in the middle: the places' buttons work after it
            await bot.kill()
            await bot.start()
            await g.play(max_clicks=BY_HAND or None)
        fig = await g.figures()
        print(f"figures: {fig}")
        assert fig["clicks"] > 0 and fig["unanswered_clicks"] == 0
        # "Your move" pressed 0 times: every turn came to the player's place.
        assert fig["your_move_clicks"] == 0, fig
        # One place a player for the whole game (a DM channel, or a thread a seat).
        assert fig["places_created"] == 2, fig
        assert fig["notifications_to_mover"] == 0, fig
        # At most one new message per turn that begins for a seat; the older ones dead.
        # (a game stopped part way has each player's next turn waiting unplayed in their place)
        pending = 0 if g.complete else len(humans)
        assert 0 < fig["place_messages"] <= fig["turns"] + fig["simultaneous_phases"] + pending, fig
        assert fig["old_place_messages_live"] == 0, fig
        # Each new place message is the one notification of its turn: the board pinged nobody reached.
        assert fig["pings"] == 0, fig
        turns = [m for h in humans for m in standin.log if g._turn_in_place(m, h.id)]
        # Each turn opens with what happened since the seat's last move (tables/since.py).
        first = [m.history[0]["content"] if m.history else m.content for m in turns]
        if mode == "thread":  # a thread notifies its member by a mention
            assert all(
                c.startswith(f"<@{h.id}> ")
                for h in humans
                for m, c in zip(turns, first, strict=True)
                if standin.in_place_of(m, h.id)
            )
        assert all(c.split("\n")[0].split("> ")[-1].startswith("It is your turn in game #") for c in first), (
            first[:3]
        )
        assert any("Since your last move" in c for c in first), first[:3]
        if mode == "dm":  # one "games waiting on you" message a DM, kept up to date silently
            for h in humans:
                lists = [m for m in standin.dms_to(h.id) if m.flags & SUPPRESS_NOTIFICATIONS]
                assert len(lists) == 1 and lists[0].history and "waiting on you" in lists[0].content, lists
        for m in standin.log:
            readers = standin.readers(m)
            owners = [h.id for h in humans if standin.in_place_of(m, h.id)]
            if owners:  # nothing of a place readable by another player
                others = {h.id for h in humans} - set(owners)
                assert readers is not None and not (readers & others), m
        if not g.complete:
            for h in humans:
                mark = standin.mark()
                r = await h.slash("game leave", channel=g.table.thread_id, timeout=120)
                assert "AI" in (await r.reply()).content
            final = await standin.wait_for_message(
                lambda m: g.table.is_board(m) and "Final scores" in m.content, 180, after=mark
            )
            # No turn left to play from the final board: only Play again (issue 41).
            assert [b["label"] for b in final.buttons] == ["Play again"], final.buttons
    assert standin.unknown == [] and standin.errors == [], standin.errors


async def test_e2e_place_dms_closed_and_missing_permission(standin: StandIn, bot: BotProcess) -> None:
    """DMs closed (50007) and a missing permission (50013): the turn falls back to the
    board's "Your move", which tells the player why in one sentence; no move is lost."""
    closed = standin.user(37_100, "closed", dms_closed=True)
    fine = standin.user(37_101, "fine")
    async with ClickGame(standin, bot.db, "dungeon-lair", [closed, fine], seed=SEED, slow=True) as g:
        await g.open()
        await g.play(max_clicks=12)
        fig = await g.figures()
        assert fig["unanswered_clicks"] == 0
        assert standin.dms_to(closed.id) == []
        pressed = [r for r in g.table.replies if r.user_id == closed.id and "lk:ch:" in r.name]
        assert pressed, "the player with DMs closed plays by the board's Your move"
        first = pressed[0].messages[0]
        shown = [v["content"] for v in first.history] + [first.content]
        assert first.ephemeral and any("DMs are closed" in c for c in shown), shown
        assert fine.dms(), "the other player's turns come to their DMs"
        assert any(closed.id in m.pinged for m in standin.log if g.table.is_board(m))
        assert not any(fine.id in m.pinged for m in standin.log if g.table.is_board(m))
        moves = (await g._row()).moves
        assert moves >= 2
    # A server whose bot may not create private threads: the same fallback, its own sentence.
    from tests.standin.server import CREATE_PRIVATE_THREADS

    await set_place(standin, "thread")
    standin.deny_bot(CREATE_PRIVATE_THREADS)
    a, b = standin.user(37_200, "alice"), standin.user(37_201, "bob")
    async with ClickGame(standin, bot.db, "dungeon-lair", [a, b], seed=SEED + 1, slow=True) as g:
        await g.open()
        await g.play(max_clicks=8)
        pressed = [r for r in g.table.replies if "lk:ch:" in r.name]
        first = pressed[0].messages[0]
        assert any(
            "Create Private Threads" in c for c in [v["content"] for v in first.history] + [first.content]
        )
        assert (await g._row()).moves >= 1
    # Discord's refusals were the DMs (50007), the thread (50013) and, in the fallback, an
    # ephemeral turn message whose token had expired a day later (50027), nothing else.
    assert any("50007" in e for e in standin.errors) and any("50013" in e for e in standin.errors)
    assert all(any(c in e for c in ("50007", "50013", "50027")) for e in standin.errors), standin.errors


async def test_e2e_place_thread_lost_to_missing_access(standin: StandIn, bot: BotProcess) -> None:
    """A moderator removes the bot from a player's private thread, and the bot lacks
    Manage Threads: Discord answers 50001 (Missing Access). That player's next turn
    falls back to the board's "Your move", told in one sentence why; no move is lost."""
    from tests.standin.server import MANAGE_THREADS

    await set_place(standin, "thread")
    standin.deny_bot(MANAGE_THREADS)
    a, b = standin.user(37_300, "alice"), standin.user(37_301, "bob")
    async with ClickGame(standin, bot.db, "dungeon-lair", [a, b], seed=SEED + 2, slow=True) as g:
        await g.open()
        await g.play(max_clicks=6)
        threads = {m.channel_id for m in standin.log if standin.in_place_of(m, a.id)}
        assert len(threads) == 1, "alice's turns came to her private thread"
        standin.remove_thread_member(threads.pop(), standin.bot_id)
        moves = (await g._row()).moves
        await g.play(max_clicks=30)
        pressed = [r for r in g.table.replies if r.user_id == a.id and "lk:ch:" in r.name]
        assert pressed, "without her thread, alice plays by the board's Your move"
        first = pressed[0].messages[0]
        shown = [v["content"] for v in first.history] + [first.content]
        assert first.ephemeral and any("cannot come to your private thread" in c for c in shown), shown
        assert (await g._row()).moves > moves
        # As she was told: her next turn waited in a new private thread of hers.
        assert len({m.channel_id for m in standin.log if standin.in_place_of(m, a.id)}) == 2
    assert any("50001" in e for e in standin.errors), standin.errors
    assert all(any(c in e for c in ("50001", "50027")) for e in standin.errors), standin.errors


async def test_e2e_undo_edits_the_turn_in_the_place(standin: StandIn, bot: BotProcess) -> None:
    """/undo of a move inside one's turn, 20 minutes after the click (its token expired):
    the turn message in the player's DMs shows the turn as it stands again, edited with
    the bot's token (no new message there), and /undo answers in one sentence with its link."""
    from tables import TAKEN_BACK
    from tests.e2e.clicker import offered
    from tests.e2e.test_e2e_clicks import version_on

    actors = [standin.user(37_500 + i, f"player{i + 1}") for i in range(2)]
    async with ClickGame(standin, bot.db, "dungeon-drawers", actors, seed=SEED, slow=True) as g:
        await g.open()
        # A turn message in the player's place, /undo 20 minutes after the click (its token expired).
        who, m, mark, answer = await g.undo_inside_a_turn(
            where=lambda who, m: standin.in_place_of(m, who.id), later=20 * 60
        )
        assert answer.ephemeral and answer.content.startswith(TAKEN_BACK.removesuffix(".")), answer.content
        assert f"/{m.channel_id}/{m.id}" in answer.content and "\n" not in answer.content, answer.content
        await standin.wait_until(
            lambda: m.content.startswith(TAKEN_BACK), 10, "the place's message taken back"
        )
        row = await g._row()
        assert offered(m) and version_on(m) == row.version, m
        assert standin.find_messages(lambda x: standin.in_place_of(x, who.id), after=mark) == []
        assert standin.find_messages(lambda x: x.ephemeral, after=mark) == [answer]
        await g.play(max_clicks=len(g.clicks) + 10)  # the game goes on from the place's message
        assert (await g._row()).version > row.version
    assert standin.unknown == [] and standin.errors == [], standin.errors


async def test_e2e_places_closed_when_a_player_leaves_and_at_the_end(
    standin: StandIn, bot: BotProcess
) -> None:
    """A turn message in a place never played keeps no live buttons: a player who
    leaves in their turn finds it saying so, and at the game's end every player's last
    one says the game ended, with a link to the final board."""
    humans = [standin.user(37_600 + i, f"player{i + 1}") for i in range(2)]
    async with ClickGame(standin, bot.db, "dungeon-lair", humans, seed=SEED, slow=True) as g:
        await g.open()
        await g.play(max_clicks=6)
        row = await g._row()
        [leaver, *_] = [h for h in humans if row.seat_of(h.id) in g.game.to_act(row.state)]
        await g._glance(leaver)  # the turn came to the leaver's place: live buttons there
        last = [m for m in standin.log if g._turn_in_place(m, leaver.id)][-1]
        assert last.buttons, "the leaver's turn waits in their place"
        r = await leaver.slash("game leave", channel=g.table.thread_id, timeout=120)
        assert "AI" in (await r.reply()).content
        await standin.wait_until(lambda: last.content.startswith("You left game #"), 10, "the place closed")
        assert last.buttons == [] and not last.components, last.components
        for h in humans:
            if h is not leaver:
                mark = standin.mark()
                r = await h.slash("game leave", channel=g.table.thread_id, timeout=120)
                assert "AI" in (await r.reply()).content
        final = await standin.wait_for_message(
            lambda m: g.table.is_board(m) and "Final scores" in m.content, 180, after=mark
        )
        link = f"https://discord.com/channels/{standin.guild_id}/{g.table.thread_id}/{final.id}"
        for h in humans:
            turns = [m for m in standin.log if g._turn_in_place(m, h.id)]
            await standin.wait_until(lambda t=turns: "has ended" in t[-1].content, 10, "the end in the place")
            assert turns[-1].content.endswith(f"the final board: {link}"), turns[-1].content
            assert all(not m.components for m in turns), "no turn message in a place keeps live buttons"
    assert standin.unknown == [] and standin.errors == [], standin.errors
