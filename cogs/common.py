"""What every cog shares: answering a player (``say``; ``guarded``, which every
handler runs through, acknowledging the interaction first), mentions that ping only
whom they mean, the game's thread, and the small parsers the commands use. The
board, the private turn message, the lobby and the move handlers have modules of
their own (cogs/posting.py, cogs/panel.py, cogs/turn_message.py, cogs/lobby_view.py,
cogs/moves.py)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from cogs.live import received
from cogs.place import refused_click
from cogs.stopping import tracked
from tables import AI_LEVELS, SLOW, CommitUnknown, DatabaseTimeout, MoveTaken, TableError, Tables

log = logging.getLogger("lairkeeper.cogs")

OOPS = "Something went wrong on our side; your request was not carried out. Please try again."
UNCONFIRMED = "The database did not confirm this in time; look at the game before you try again."
# Autocomplete cannot be deferred and must answer within Discord's 3 seconds: its
# reads get this long, then the list is empty.
AUTOCOMPLETE_SECONDS = 2.0
NOBODY = discord.AllowedMentions.none()
# The strengths of computer players, as /game new and /settings offer them:
# "Hard: thinks about two seconds a move".
STRENGTHS = [
    app_commands.Choice(name=f"{lv.name}: {lv.blurb}"[:100], value=lv.key) for lv in AI_LEVELS.values()
]


def only(user_ids: list[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly these users: never @everyone, @here or a role, nor
    a user whose mention a name or a text happens to contain."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=u) for u in user_ids], replied_user=False
    )


def tables_of(interaction: discord.Interaction) -> Tables:
    return interaction.client.tables  # type: ignore[attr-defined, no-any-return]


async def say(interaction: discord.Interaction, text: str, **kw: Any) -> None:
    """Answer ephemerally, whether or not the interaction was deferred. Names in the
    answer (a history, a list of games) ping nobody."""
    kw.setdefault("allowed_mentions", NOBODY)
    if interaction.response.is_done():
        await interaction.followup.send(text[:2000], ephemeral=True, **kw)
    else:
        await interaction.response.send_message(text[:2000], ephemeral=True, **kw)


class _Acknowledged(discord.InteractionResponse):  # type: ignore[type-arg]
    """``interaction.response`` once :func:`guarded` has acknowledged the interaction:
    a handler's own ``defer`` does nothing, ``send_message`` becomes a followup (a
    public one is posted in the channel, since the deferral was private), and
    ``edit_message`` edits the message the component is on."""

    __slots__ = ()

    async def defer(self, **_kw: Any) -> None:  # type: ignore[override]
        return None

    async def send_message(self, content: Any = None, *, ephemeral: bool = False, **kw: Any) -> None:  # type: ignore[override]
        parent = self._parent
        if ephemeral:
            kw.setdefault("allowed_mentions", NOBODY)
            await parent.followup.send(content, ephemeral=True, **kw)
            return
        channel = parent.channel
        if not isinstance(channel, discord.abc.Messageable):
            raise TableError("Use this command in a game's thread.")
        kw.setdefault("allowed_mentions", NOBODY)
        await channel.send(content, **kw)
        if self._response_type == discord.InteractionResponseType.deferred_channel_message:
            await parent.followup.send("Posted.", ephemeral=True)

    async def edit_message(self, **kw: Any) -> None:  # type: ignore[override]
        kw.setdefault("allowed_mentions", NOBODY)
        await self._parent.edit_original_response(**kw)


async def acknowledge(interaction: discord.Interaction, ack: str) -> bool:
    """Defer the interaction (``private``: an ephemeral "thinking" reply; ``update``: a
    component's own message will be edited). False if Discord no longer takes it."""
    received(interaction)  # its token's 15 minutes run from about now (cogs/live.py)
    if not interaction.response.is_done():
        try:
            if ack == "update":
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:
            log.info("an interaction could not be acknowledged (%s); nothing was done", exc.status)
            return False
    shim = _Acknowledged(interaction)
    shim._response_type = interaction.response.type
    interaction._cs_response = shim  # type: ignore[attr-defined]
    return True


async def guarded(
    interaction: discord.Interaction, game_id: int | None, coro: Any, ack: str = "private", slow: str = SLOW
) -> Any:
    """Run a handler, the way every handler runs (issue 27): the interaction is
    acknowledged FIRST, before any database work, so a slow database can never make
    Discord show "did not respond" (``ack``: ``private`` or ``update``, see
    :func:`acknowledge`); a player's mistake becomes one ephemeral sentence; a stalled
    database one sentence saying nothing was done (``slow``: NOT_TAKEN for moves); a
    bot failure is logged with the
    game id and the player is told nothing was done. An interaction Discord no longer
    accepts is not carried out at all: its player was told it failed."""
    if not await acknowledge(interaction, ack):
        coro.close()
        return None
    try:
        return await tracked(interaction.client, coro)  # refused once the bot is stopping
    except MoveTaken as exc:  # saved: never invite a retry
        await say(interaction, str(exc))
    except TableError as exc:
        if not await refused_click(interaction, game_id, str(exc)):  # a click in a place: the turn now
            await say(interaction, str(exc))
    except CommitUnknown:
        log.warning("database commit unconfirmed (game %s, user %s)", game_id, interaction.user.id)
        await say(interaction, UNCONFIRMED)
    except DatabaseTimeout:
        log.warning("database timeout (game %s, user %s)", game_id, interaction.user.id)
        await say(interaction, slow)
    except Exception:
        log.exception("command failed (game %s, user %s)", game_id, interaction.user.id)
        try:
            await say(interaction, OOPS)
        except discord.HTTPException:
            pass
    return None


async def post_public(interaction: discord.Interaction, text: str, file: discord.File | None) -> None:
    """Post a result for the whole channel after a private deferral (so that an
    error would have stayed private), then close the private "thinking" reply."""
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise TableError("Use this command in a game's thread.")
    kw: dict[str, Any] = {"file": file} if file is not None else {}
    await channel.send(text[:2000], allowed_mentions=NOBODY, **kw)
    await interaction.followup.send("Posted.", ephemeral=True)


async def thread_of(client: discord.Client, thread_id: int | None) -> discord.abc.Messageable | None:
    if thread_id is None:
        return None
    channel = client.get_channel(thread_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(thread_id)
        except discord.HTTPException:
            return None
    return channel  # type: ignore[return-value]


async def game_here(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise TableError("Use this command in a game's thread.")
    row = await tables_of(interaction).game_in(interaction.channel_id)
    return row.id


def hours(value: str) -> float:
    """'off', '36', '12h', '3d' -> hours."""
    v = value.strip().lower()
    if v in ("off", "none", "0"):
        return 0.0
    try:
        if v.endswith("d"):
            return float(v[:-1]) * 24
        if v.endswith("h"):
            return float(v[:-1])
        return float(v)
    except ValueError:
        raise TableError(
            f"'{value}' is not a duration; write hours like 12h, days like 3d, or off."
        ) from None
