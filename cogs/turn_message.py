"""Keeping each player's live private turn message up to date (the records are
cogs/live.py's, issue 26): the message a click just showed becomes the live one,
and a new turn, or choices another player's move made out of date, are carried
into it, so the player plays on without pressing "Your move" on the board."""

from __future__ import annotations

import logging

import discord

from cogs.common import NOBODY
from cogs.live import Live, LiveTurns, retire
from cogs.panel import choices_version, panel_message
from tables import TableError, Tables, Update

log = logging.getLogger("lairkeeper.cogs")


YOUR_TURN = "It is your turn again; the table's board is in the thread."
MOVED_ON = "Another player moved meanwhile; your choices below are up to date."


def live_turns(client: discord.Client) -> LiveTurns:
    turns = getattr(client, "live_turns", None)
    if turns is None:
        turns = LiveTurns()
        client.live_turns = turns  # type: ignore[attr-defined]
    return turns


async def keep_live(
    interaction: discord.Interaction, game_id: int, message_id: int | None, view: discord.ui.View | None
) -> None:
    """``interaction`` just showed its user's private turn message ``message_id`` with
    ``view``: that message is the live one now, and an older one loses its buttons. A
    courtesy: the answer was given already, so nothing here may fail it."""
    clicked = interaction.message
    if clicked is not None and clicked.id == message_id and not clicked.flags.ephemeral:
        return  # a turn message in the player's lasting place: edited with the bot's token
    turns = live_turns(interaction.client)
    uid = interaction.user.id
    try:
        async with turns.lock(game_id, uid):
            old = turns.keep(game_id, uid, interaction, message_id, choices_version(view))
            if old is not None:
                await retire(old)
    except Exception:
        log.exception("game %s: the live private message of a player was not recorded", game_id)


def stale(live: Live, update: Update) -> bool:
    """The live message offers choices of a version older than ``update``'s."""
    return live.version is not None and live.version < update.version


async def carry_turns(
    client: discord.Client, update: Update, skip: int | None = None, placed: set[int] | None = None
) -> int:
    """Each pinged player (but ``skip``) whose private turn message is live gets the
    new turn in it, as "Your move" would show it: their own state, the choices, the
    picture. A player still to act from before (several choose at once) whose live
    message offers choices of an older version gets them brought up to date, so their
    next click is not refused as out of date. Only their own seat's view goes in
    (tables.panel), in their own ephemeral message. A token Discord no longer takes is
    forgotten: the player presses "Your move" on the board. Returns how many messages
    were edited; never raises (the move is saved, the board posted). Players whose turn
    came to their lasting private place (``placed``) are not carried here too."""
    if update.over:
        return 0
    turns = live_turns(client)
    tables: Tables = client.tables  # type: ignore[attr-defined]
    n = 0
    for uid in dict.fromkeys([*update.ping, *update.acting]):
        first = turns.get(update.game_id, uid)
        if uid == skip or uid in (placed or ()) or first is None:
            continue
        if uid not in update.ping and not stale(first, update):
            continue
        live: Live | None = None
        try:
            async with turns.lock(update.game_id, uid):
                live = turns.get(update.game_id, uid)  # the newest, after any "Your move" meanwhile
                if live is None or (uid not in update.ping and not stale(live, update)):
                    continue
                try:
                    panel = await tables.panel(update.game_id, uid, update.version)
                except TableError:  # no longer theirs to play (they played it meanwhile), paused...
                    continue
                # The step's own note ("your choices so far still stand") already says it moved on.
                lead = (
                    YOUR_TURN if uid in update.ping else ("" if panel.step and panel.step.note else MOVED_ON)
                )
                note = "\n".join(p for p in (update.private.get(uid, ""), lead) if p)
                content, view, files = panel_message(panel, note)
                await live.interaction.edit_original_response(
                    content=content, view=view, attachments=files, allowed_mentions=NOBODY
                )
                live.version = choices_version(view)
                n += 1
        except discord.HTTPException as exc:  # expired (401) or gone (404): the board's button stays
            log.info(
                "game %s: a turn was not carried into a private message (%s)", update.game_id, exc.status
            )
            turns.drop(update.game_id, uid, live)
        except Exception:
            log.exception("game %s: carrying a turn into a private message failed", update.game_id)
    return n
