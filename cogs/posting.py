"""The board in the game's thread: posted once a turn, pinging whoever must act
next, with its buttons (Your move, Show my hand, What now?, Hint; Play again under
the final board); then the turn goes to each player's private place or live turn
message. A board that could not be posted stays owed, and ``post_owed`` posts it."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from cogs.common import guarded, only, tables_of, thread_of
from cogs.guide import WhatNowButton
from cogs.hand import HandButton
from cogs.hints import HintButton
from cogs.later import later
from cogs.panel import panel_message
from cogs.place import deliver, send_dm
from cogs.place import plan as plan_places
from cogs.turn_message import carry_turns, keep_live
from tables import TableError, Tables, Update
from tables.place import board_pings

log = logging.getLogger("lairkeeper.cogs")


def board_view(update: Update) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if update.choose:
        view.add_item(ChooseButton(update.game_id, update.version))
    if not update.over:
        view.add_item(HandButton(update.game_id))
        view.add_item(WhatNowButton(update.game_id))
        view.add_item(HintButton(update.game_id))
    else:
        # here: cogs.rematch imports cogs.lobby_view, which imports this module
        from cogs.rematch import PlayAgainButton

        view.add_item(PlayAgainButton(update.game_id))
    return view


def board_nonce(update: Update) -> str:
    """Discord drops a second message with the same nonce (enforce_nonce) for a few
    minutes: a board re-sent after a crash between the send and the mark, or after a
    timed-out send that did arrive, is posted once. At most 25 characters."""
    return f"lk{update.game_id % 10**12}v{update.version % 10**9}"


_post_locks: dict[int, asyncio.Lock] = {}


async def post_board(
    client: discord.Client,
    update: Update,
    again: bool = False,
    mover: int | None = None,
    clicked: int | None = None,
) -> discord.Message | None:
    """Post the board in the game's thread, pinging whoever must act next, and mark
    it posted; then carry each pinged player's new turn into their live private turn
    message (``mover``: the user whose click this answers, whose own message shows
    their next turn with that answer; ``clicked``: the message it was clicked on). The
    board pings only those whose turn does not come to their lasting private place
    (the server's ``board_ping``), never the mover who goes on; then each gets the turn
    there (cogs/place.py), after the mover's answer. A board is posted once: one a newer board has
    already covered is skipped (``again``: /board, post it anyway). A failure leaves
    the board owed; :func:`post_owed` posts it when Discord answers again."""
    tables: Tables = client.tables  # type: ignore[attr-defined]
    if not update.post and not again:  # a move inside a turn: the thread waits for the turn's end
        return None
    async with _post_locks.setdefault(update.game_id, asyncio.Lock()):
        if not again and await tables.posted_version(update.game_id) >= update.version:
            return None
        places = await plan_places(client, update, mover)
        pings = board_pings(update, places.expected, places.board_ping, places.mover)
        message = await _send_board(client, update, None if again else board_nonce(update), pings)
        await tables.mark_posted(update)  # posted, or its thread is gone: owed no more
    if mover is None:
        await deliver(client, update, places, clicked, message)
    else:  # after the mover's own answer: another player's turn and picture take a moment
        later(deliver(client, update, places, clicked, message))
    if message is None:
        return None
    for uid, sentence in update.heads_up:
        await _heads_up(client, update, uid, sentence)
    if update.dm:
        # Not the mover who goes on: their answer showed the turn (issue 37: never notified).
        for uid in [u for u in update.dm if u not in places.expected and u != places.mover]:
            await send_dm(client, uid, f"It is your turn in game #{update.game_id}: {message.jump_url}")
    if mover is None:
        await carry_turns(client, update, placed=places.expected)
    else:  # after the mover's own answer, not before it: another player's picture takes a moment
        later(carry_turns(client, update, skip=mover, placed=places.expected))
    return message


async def _send_board(
    client: discord.Client, update: Update, nonce: str | None, pings: list[int]
) -> discord.Message | None:
    """The board message, or None when the game's thread is gone (deleted, or the bot
    may no longer see it). Other failures raise: the board stays owed."""
    channel = client.get_channel(update.thread_id) if update.thread_id is not None else None
    if channel is None and update.thread_id is not None:
        try:
            channel = await client.fetch_channel(update.thread_id)
        except (discord.NotFound, discord.Forbidden):
            channel = None
    if not isinstance(channel, discord.abc.Messageable):
        log.warning("game %s has no reachable thread; its board is not posted", update.game_id)
        return None
    content = update.text
    if pings:
        content = " ".join(f"<@{u}>" for u in pings) + " - your turn.\n" + content
    files = []
    if update.png is not None:
        files.append(
            discord.File(io.BytesIO(update.png), filename=f"game{update.game_id}-move{update.moves}.png")
        )
    for i, step in enumerate(update.steps, 1):
        files.append(
            discord.File(io.BytesIO(step), filename=f"game{update.game_id}-move{update.moves}-step{i}.png")
        )
    kw: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
    return await channel.send(
        content[:2000],
        view=board_view(update),
        allowed_mentions=only([*pings, *update.mentions]),
        files=files,
        **kw,
    )


async def _heads_up(client: discord.Client, update: Update, uid: int, sentence: str) -> None:
    """ "Tell me when I'm next": a ping in the thread, and a DM for who asked for DMs."""
    channel = await thread_of(client, update.thread_id)
    try:
        if channel is not None:
            await channel.send(f"<@{uid}> {sentence}"[:2000], allowed_mentions=only([uid]))
        if await client.tables.wants_dm(uid):  # type: ignore[attr-defined]
            await send_dm(client, uid, sentence[:1].upper() + sentence[1:])
    except discord.HTTPException:
        log.info("heads-up for game %s not delivered", update.game_id)


async def post_owed(client: discord.Client) -> int:
    """Post every board a thread is owed (moves made at start-up, by a deadline, while
    Discord could not be reached); each summarises the moves since the last board.
    Returns how many were posted; a failure leaves the rest owed for the next call."""
    tables: Tables = client.tables  # type: ignore[attr-defined]
    n = 0
    for game_id in await tables.owed():
        try:
            update = await tables.owed_board(game_id)
            if update is not None and await post_board(client, update) is not None:
                n += 1
        except (discord.HTTPException, OSError, TimeoutError):
            log.info("owed board of game %s not posted yet (Discord unreachable)", game_id)
            break  # Discord is down: try again on the next round
        except TableError:
            continue
        except Exception:
            log.exception("owed board of game %s failed", game_id)
    return n


class ChooseButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lk:ch:(?P<gid>\d+):(?P<ver>\d+)"):
    """On the public board: answers the player to act, privately, with a button per legal move."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Your move", style=discord.ButtonStyle.primary, custom_id=f"lk:ch:{game_id}:{version}"
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChooseButton:
        return cls(int(match["gid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            # Deferred first: a chooser step (and its preview image) may take a moment.
            await interaction.response.defer(ephemeral=True, thinking=True)
            t = tables_of(interaction)
            panel = await t.panel(self.game_id, interaction.user.id, self.version)
            content, view, files = panel_message(
                panel, await t.place_problem(self.game_id, interaction.user.id) or ""
            )
            sent = await interaction.followup.send(content, view=view, files=files, ephemeral=True, wait=True)
            await keep_live(interaction, self.game_id, sent.id, view)

        await guarded(interaction, self.game_id, run())
