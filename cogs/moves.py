"""The move handlers: a move from a private move button, a chooser's pick or Done,
or typed with /play; what follows a saved move (the turn's board, the mover's
answer, the computer players after it); /undo's answer for a move the table has not
seen."""

from __future__ import annotations

import logging
from typing import Any

import discord

from cogs.after_save import NEXT_TURN_LATER, saved
from cogs.common import NOBODY, tables_of
from cogs.computers import computers_after
from cogs.idempotency import move_key
from cogs.later import later
from cogs.live import NOT_YOURS, clicked_someone_elses
from cogs.panel import StepButton, choices_version, panel_message, step_message
from cogs.place import take_back as take_back_in_place
from cogs.posting import post_board
from cogs.turn_message import YOUR_TURN, carry_turns, keep_live, live_turns
from tables import TAKEN_BACK, CommitUnknown, DatabaseTimeout, TableError, Update

log = logging.getLogger("lairkeeper.cogs")


async def step_click(
    interaction: discord.Interaction, game_id: int, version: int, depth: int, op: str, n: int
) -> None:
    """Answer within Discord's 3 seconds (a deferred update), then edit the private
    reply in place with the next step, or, when the pick completed the move (it is
    played at once), with what the move did and the turn's next step."""
    if clicked_someone_elses(interaction):
        raise TableError(NOT_YOURS)
    await interaction.response.defer()
    key = move_key(interaction)
    step = await tables_of(interaction).choose(
        game_id, interaction.user.id, version, depth, op, n, key, think=False
    )
    if step.update is None:
        content, view, files = step_message(step)
        await interaction.edit_original_response(content=content, view=view, attachments=files)
        await keep_live(interaction, game_id, clicked_on(interaction), view)
        return
    async with saved(game_id):
        content, view, files = await after_move(interaction, step.update, game_id)
        await interaction.edit_original_response(content=content, view=view, attachments=files)
        await keep_live(interaction, game_id, clicked_on(interaction), view)
    computers_after(interaction, step.update)


async def step_done(interaction: discord.Interaction, button: StepButton) -> None:
    if clicked_someone_elses(interaction):
        raise TableError(NOT_YOURS)
    await interaction.response.defer()
    t = tables_of(interaction)
    key = move_key(interaction)
    update = await t.choose_done(
        button.game_id, interaction.user.id, button.version, button.depth, key, think=False
    )
    async with saved(button.game_id):
        content, view, files = await after_move(interaction, update, button.game_id)
        await interaction.edit_original_response(content=content, view=view, attachments=files)
        await keep_live(interaction, button.game_id, clicked_on(interaction), view)
    computers_after(interaction, update)


async def take_back(interaction: discord.Interaction, game_id: int, update: Update) -> None:
    """After /undo of a move the table has not seen: the player's live private turn
    message shows their turn as it stands again (edited in place), and /undo answers
    in one sentence; without a live message the answer is the turn itself (a new
    private message, the live one from now on). Others choosing at the same time get
    their choices brought up to date."""
    assert update.next is not None
    uid = interaction.user.id
    turns = live_turns(interaction.client)
    content, view, files = panel_message(update.next, TAKEN_BACK)
    if await take_back_in_place(interaction, update, content, view, files):  # the turn lives in the place
        later(carry_turns(interaction.client, update, skip=uid))
        return
    edited = False
    async with turns.lock(game_id, uid):
        live = turns.get(game_id, uid)
        if live is not None:
            try:
                await live.interaction.edit_original_response(
                    content=content, view=view, attachments=files, allowed_mentions=NOBODY
                )
                live.version = choices_version(view)
                edited = True
            except discord.HTTPException as exc:
                log.info("game %s: the private turn message was not taken back (%s)", game_id, exc.status)
                turns.drop(game_id, uid, live)
    if edited:
        await interaction.followup.send(TAKEN_BACK + " Your private message above shows it.", ephemeral=True)
    else:
        sent = await interaction.followup.send(content, view=view, files=files, ephemeral=True, wait=True)
        await keep_live(interaction, game_id, sent.id, view)
    later(carry_turns(interaction.client, update, skip=uid))


def clicked_on(interaction: discord.Interaction) -> int | None:
    """The id of the message a component was clicked on (its interaction's @original)."""
    return interaction.message.id if interaction.message is not None else None


async def after_move(
    interaction: discord.Interaction, update: Update, game_id: int
) -> tuple[str, discord.ui.View | None, list[discord.File]]:
    """After a saved move: the turn's board when the turn ended (posted in the
    thread), and what the mover's private message shows now: the turn's next step
    while it goes on, their next turn when one of theirs begins at once (the board
    pinged them), else the move taken and the turn in words."""
    confirm = await post_taken(interaction, update, game_id)
    if update.next is not None:
        return panel_message(update.next, confirm)
    uid = interaction.user.id
    if update.post and not update.over and uid in update.ping:
        try:
            panel = await tables_of(interaction).panel(game_id, uid, update.version)
        except TableError:  # not theirs after all (the game moved on meanwhile)
            return confirm, None, []
        except (DatabaseTimeout, CommitUnknown):  # saved: the next turn waits on the board's button
            log.warning("game %s: a saved move's next turn was not read (database)", game_id)
            return confirm + "\n" + NEXT_TURN_LATER, None, []
        return panel_message(panel, confirm + "\n" + YOUR_TURN)
    return confirm, None, []


async def play(
    interaction: discord.Interaction,
    game_id: int,
    text: str | None = None,
    button: tuple[int, int] | None = None,
) -> None:
    """A move from a private move button (the turn message is edited in place) or
    typed with /play (answered privately; the turn goes on in that answer)."""
    if clicked_someone_elses(interaction):
        raise TableError(NOT_YOURS)
    if button is not None:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    key = move_key(interaction)
    update = await tables_of(interaction).act(
        game_id, interaction.user.id, text=text, button=button, key=key, think=False
    )
    async with saved(game_id):
        content, view, files = await after_move(interaction, update, game_id)
        if button is not None:
            await interaction.edit_original_response(content=content, view=view, attachments=files)
            await keep_live(interaction, game_id, clicked_on(interaction), view)
        else:
            kw: dict[str, Any] = {"view": view} if view is not None else {}
            sent = await interaction.followup.send(content, ephemeral=True, files=files, wait=True, **kw)
            await keep_live(interaction, game_id, sent.id, view)
    computers_after(interaction, update)


async def post_taken(interaction: discord.Interaction, update: Update, game_id: int) -> str:
    """Posts the turn's board (when the turn ended) after a saved move and returns the
    mover's private confirmation (at most 2,000 characters). From here on the move is
    saved: a failure to post must not claim otherwise."""
    if update.next is not None:
        confirm = "Move taken; your turn goes on."
    else:
        confirm = "Move taken."
        if update.turn:
            confirm += " Your turn: " + "; ".join(update.turn) + "."
    if update.actor_private:
        confirm += "\n" + update.actor_private
    try:
        if update.post:
            await post_board(
                interaction.client, update, mover=interaction.user.id, clicked=clicked_on(interaction)
            )
        else:  # a move inside a turn: no board, but the others choosing now see it
            later(carry_turns(interaction.client, update, skip=interaction.user.id))
    except DatabaseTimeout:
        log.warning("posting the board of game %s waits for the database", game_id)
        confirm += "\nYour move was taken; the board will be posted when the database answers again."
    except (discord.HTTPException, OSError, TimeoutError):
        log.exception("posting the board failed (game %s)", game_id)
        confirm += "\nYour move was taken; the board will be posted when Discord answers again."
    except Exception:  # saved: whatever failed, the player must not be told otherwise
        log.exception("posting the board failed (game %s)", game_id)
        confirm += "\nYour move was taken; the board will be posted shortly."
    return confirm[:2000]
