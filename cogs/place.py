"""The seat's lasting private place on Discord (issue 37; the decisions are in
tables/place.py): a person's DM channel with the bot, or a private thread of their
own, where their turn comes to them as one new message and is edited in place with
the bot's own token - days later, after restarts, from whichever process handles
the game. Also the bot's other direct messages (/notify, reminders).

Discord's refusals are what decide the fallback: 50007 (DMs closed, or no server
shared) and 50001/50013 (the bot may not see or create the thread) mark the place
as unavailable; the player keeps "Your move" on the board and is told why there."""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass, field

import discord

from store import PlaceRow
from tables import TAKEN_BACK, TableError, Tables, Update
from tables.place import CLOSED, MOVED_ON_HERE, PERMISSION, STALE_CLICK, YOUR_TURN_HERE, Delivery

log = logging.getLogger("lairkeeper.place")

NOBODY = discord.AllowedMentions.none()
# Discord's JSON error codes that mean "no place can be had here" (opcodes-and-status-codes).
REFUSED = {50007: CLOSED, 50001: PERMISSION, 50013: PERMISSION}
SINCE_PICTURE = "since.gif"  # tables/since.py Since.IMAGE_NAME
# /undo's answer when the player's place shows the turn again (one sentence, its link).
TAKEN_BACK_IN_PLACE = TAKEN_BACK.removesuffix(".") + " in your private place, as it stands now: {link}"
JUMP = "https://discord.com/channels/{}/{}/{}"
ARCHIVE_MINUTES = 10080  # a week: the longest Discord offers; a new message unarchives the thread


async def send_dm(client: discord.Client, user_id: int, text: str) -> bool:
    """DM a user; a closed inbox (error 50007) is normal, not a failure."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        await user.send(text[:2000])
        return True
    except discord.HTTPException as exc:
        log.info("DM to %s not delivered (%s)", user_id, getattr(exc, "code", exc))
        return False


def _tables(client: discord.Client) -> Tables:
    return client.tables  # type: ignore[attr-defined, no-any-return]


async def _dm_channel(client: discord.Client, t: Tables, uid: int, place: PlaceRow | None) -> int:
    """The user's DM channel id: stored once opened (Discord asks bots not to open many
    DMs quickly), else opened now (POST /users/@me/channels)."""
    if place is not None and place.kind == "dm" and place.channel_id is not None:
        return place.channel_id
    known = await t.dm_channel_of(uid)
    if known is not None:
        return known
    user = client.get_user(uid) or await client.fetch_user(uid)
    return (await user.create_dm()).id


async def _thread(client: discord.Client, t: Tables, game_id: int, uid: int, place: PlaceRow | None) -> int:
    """The player's private thread in the channel the game's thread is in: made once
    (not invitable: only moderators may add others), the player added to it."""
    if place is not None and place.kind == "thread" and place.channel_id is not None:
        return place.channel_id
    parent_id, name = await t.place_home(game_id, uid)
    parent = client.get_channel(parent_id or 0) or await client.fetch_channel(parent_id or 0)
    if not isinstance(parent, discord.TextChannel):
        raise TableError("The game's channel cannot hold private threads.")
    thread = await parent.create_thread(
        name=name,
        type=discord.ChannelType.private_thread,
        invitable=False,
        auto_archive_duration=ARCHIVE_MINUTES,
    )
    await thread.add_user(discord.Object(id=uid))
    return thread.id


async def _turn_message(
    t: Tables, update: Update, uid: int, link: str | None
) -> tuple[str, discord.ui.View, list[discord.File]]:
    from cogs.panel import panel_message  # here: cogs.panel imports cogs.common, which imports this module

    panel = await t.panel(update.game_id, uid, update.version)
    news, picture = await t.turn_news(update.game_id, uid)
    head = YOUR_TURN_HERE.format(game=update.game_id, title=await t.game_title(update.game_id))
    if link is not None:
        head += f" The table's board: {link}"
    elif update.thread_id is not None:
        head += f" The table's board: <#{update.thread_id}>"
    note = "\n".join(p for p in (head, news, update.private.get(uid, "")) if p)
    content, view, files = panel_message(panel, note)
    if picture is not None:  # the board as it changed since the seat's last move
        files.insert(0, discord.File(io.BytesIO(picture), filename=SINCE_PICTURE))
    return content, view, files


async def _put_new(
    client: discord.Client, t: Tables, update: Update, d: Delivery, mode: str, link: str | None
) -> bool:
    """The turn as a new message in ``d``'s place (opened if need be); the message of the
    turn before loses its buttons. True if the player was notified there."""
    uid, place = d.user_id, d.place
    content, view, files = await _turn_message(t, update, uid, link)
    if mode == "thread":
        cid = await _thread(client, t, update.game_id, uid, place)
        ctype = discord.ChannelType.private_thread
        content, mentions = (
            f"<@{uid}> {content}"[:2000],
            discord.AllowedMentions(users=[discord.Object(id=uid)]),
        )
    else:
        cid = await _dm_channel(client, t, uid, place)
        ctype, mentions = discord.ChannelType.private, NOBODY
    channel = client.get_partial_messageable(cid, type=ctype)
    sent = await channel.send(content, view=view, files=files, allowed_mentions=mentions)
    old = place.message_id if place is not None and place.channel_id == cid else None
    await t.keep_place(PlaceRow(update.game_id, uid, mode, cid, sent.id, update.version, None))
    if old is not None:  # after the send: a new message unarchives a thread, an edit could not
        try:
            await channel.get_partial_message(old).edit(view=None)  # its text stays: what that turn was
        except discord.HTTPException as exc:
            log.info("game %s: an old turn message kept its buttons (%s)", update.game_id, exc.status)
    return True


async def _edit(client: discord.Client, t: Tables, update: Update, d: Delivery) -> None:
    """Another player's move changed what ``d``'s player may choose now: their turn
    message is brought up to date in place (an edit: no notification)."""
    from cogs.panel import panel_message

    place = d.place
    assert place is not None and place.channel_id is not None and place.message_id is not None
    panel = await t.panel(update.game_id, d.user_id, update.version)
    content, view, files = panel_message(
        panel, "\n".join(p for p in (update.private.get(d.user_id, ""), MOVED_ON_HERE) if p)
    )
    channel = client.get_partial_messageable(place.channel_id)
    await channel.get_partial_message(place.message_id).edit(
        content=content, view=view, attachments=files, allowed_mentions=NOBODY
    )
    place.version = update.version
    await t.keep_place(place)


async def take_back(
    interaction: discord.Interaction,
    update: Update,
    content: str,
    view: discord.ui.View,
    files: list[discord.File],
) -> bool:
    """After /undo inside a turn: the turn message in the player's place shows the turn
    as it stands again, edited in place with the bot's token (an interaction token has
    long expired in a slow game), and /undo answers in one sentence. False: no such
    message, or it could not be edited (the caller answers otherwise)."""
    client, uid = interaction.client, interaction.user.id
    t = _tables(client)
    place = await t.place_of(update.game_id, uid)
    if place is None or place.problem is not None or place.channel_id is None or place.message_id is None:
        return False
    channel = client.get_partial_messageable(place.channel_id)
    try:
        await channel.get_partial_message(place.message_id).edit(
            content=content, view=view, attachments=files, allowed_mentions=NOBODY
        )
    except discord.HTTPException as exc:
        log.info("game %s: the place's turn message was not taken back (%s)", update.game_id, exc.status)
        return False
    place.version = update.version
    await t.keep_place(place)
    where = interaction.guild_id if place.kind == "thread" else "@me"
    link = JUMP.format(where, place.channel_id, place.message_id)
    await interaction.followup.send(TAKEN_BACK_IN_PLACE.format(link=link), ephemeral=True)
    return True


@dataclass
class Plan:
    """Decided before the board is posted: where turns go (``mode``), whether the board
    pings the placed (``board_ping``), the mover who goes on and who is expected to be
    reached privately (the board does not ping them)."""

    mode: str
    board_ping: str
    mover: int | None
    expected: set[int] = field(default_factory=set)


async def plan(client: discord.Client, update: Update, mover: int | None) -> Plan:
    """The places' part of posting ``update``'s board (never raises: a failure is a
    plan with no place, everyone pinged on the board)."""
    t = _tables(client)
    try:
        mode, board_ping = await t.place_mode(update.game_id)
        if mover is None:  # posted as owed, maybe by another process: the log says who moved
            mover = await t.mover_of(update)
        expected = set() if mode == "off" or update.over else await t.reachable(update, mover)
        return Plan(mode, board_ping, mover, expected)
    except Exception:
        log.exception("game %s: the private places could not be planned", update.game_id)
        return Plan("off", "always", mover)


_locks: dict[int, asyncio.Lock] = {}


async def deliver(
    client: discord.Client,
    update: Update,
    p: Plan,
    clicked: int | None = None,
    board: discord.Message | None = None,
) -> set[int]:
    """After the board: put ``update``'s turns into the places of the people whose turn
    begins (not the mover's: ``clicked``, the message their click was answered in,
    shows it) and bring up to date those of others still choosing. Whoever was
    expected to be reached and was not gets a ping in the game's thread instead: one
    notification a turn, whatever failed. Returns who was reached. Never raises: the
    move is saved and the board posted."""
    t = _tables(client)
    reached: set[int] = set()
    try:
        async with _locks.setdefault(update.game_id, asyncio.Lock()):  # one delivery of a version
            if clicked is not None and p.mover is not None:
                await t.mover_shown(update.game_id, p.mover, clicked, update.version)
            await close_places(client, t, update, board)
            if p.mode == "off" or update.over:
                return reached
            link = board.jump_url if board is not None else None
            for d in await t.deliveries(update, p.mover):
                if await _deliver_one(client, t, update, d, p.mode, link):
                    reached.add(d.user_id)
            if p.mode == "dm":  # each DM keeps one "games waiting on you" message up to date
                for uid in dict.fromkeys([*reached, *([p.mover] if p.mover is not None else [])]):
                    await refresh_waiting(client, t, uid)
        missed = [u for u in update.ping if u in p.expected and u not in reached]
        if missed and board is not None:
            mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in missed])
            text = " ".join(f"<@{u}>" for u in missed) + " - your turn: press Your move on the board above."
            await board.channel.send(text, allowed_mentions=mentions)
    except Exception:
        log.exception("game %s: turns were not put into private places", update.game_id)
    return reached


async def close_places(
    client: discord.Client, t: Tables, update: Update, board: discord.Message | None
) -> None:
    """The game ended, or people left it: their last turn messages lose their buttons and
    say so, with a link to the board (the final one at the end), edited in place."""
    link = (
        board.jump_url
        if board is not None
        else f"<#{update.thread_id}>"
        if update.thread_id
        else "the game's thread"
    )
    for place, sentence in await t.places_to_close(update):
        await _close(client, t, update.game_id, place, sentence.format(board=link), update.over)


async def close_abandoned(client: discord.Client, game_id: int, thread_id: int | None) -> None:
    """The game was abandoned (/game abandon, or a missed deadline under that policy):
    the turn messages in its places lose their buttons and say so, edited in place, and
    the players' lists of games waiting on them are brought up to date. Never raises:
    the game is abandoned already; a click on a message left open is refused as always."""
    t = _tables(client)
    link = f"<#{thread_id}>" if thread_id else "the game's thread"
    try:
        for place, sentence in await t.places_of_abandoned(game_id):
            await _close(client, t, game_id, place, sentence.format(board=link), over=True)
            if place.kind == "dm":
                await refresh_waiting(client, t, place.user_id)
    except Exception:
        log.exception("game %s: the private places of an abandoned game were not closed", game_id)


async def _close(
    client: discord.Client, t: Tables, game_id: int, place: PlaceRow, text: str, over: bool
) -> None:
    """``place``'s turn message says ``text`` instead of offering choices (edited in place)."""
    assert place.channel_id is not None and place.message_id is not None
    channel = client.get_partial_messageable(place.channel_id)
    try:
        await channel.get_partial_message(place.message_id).edit(
            content=text, view=None, attachments=[], allowed_mentions=NOBODY
        )
    except discord.HTTPException as exc:  # deleted by the player, or the place is gone
        log.info("game %s: a place's last turn message was not closed (%s)", game_id, exc.status)
    await t.place_closed(place, over)


async def refresh_waiting(client: discord.Client, t: Tables, uid: int) -> None:
    """The one message in ``uid``'s DMs that lists every game waiting on them, across
    servers (tables/waiting.py), edited in place; made once, silently (a list that
    changed is no turn of theirs: the turn's own message is the notification)."""
    from cogs.waiting import server_names  # here: cogs.waiting imports cogs.common

    cid = await t.dm_channel_of(uid)
    if cid is None:
        return
    try:
        found = await t.waiting(uid)
        guilds = {g.guild_id for g in found.games if g.guild_id is not None}
        text = found.text(servers=server_names(client, guilds))
        channel = client.get_partial_messageable(cid, type=discord.ChannelType.private)
        mid = await t.waiting_message(uid)
        if mid is not None:
            try:
                await channel.get_partial_message(mid).edit(content=text, allowed_mentions=NOBODY)
                return
            except discord.NotFound:  # deleted by the player: make it again
                pass
        sent = await channel.send(text, silent=True, allowed_mentions=NOBODY)
        await t.keep_waiting_message(uid, sent.id)
    except discord.HTTPException as exc:
        log.info("the games waiting on a player were not updated (%s)", exc.status)


async def _deliver_one(
    client: discord.Client, t: Tables, update: Update, d: Delivery, mode: str, link: str | None
) -> bool:
    """One place: True when the player was notified there (now, or before for this version)."""
    if d.shown:
        return True
    try:
        if d.new:
            return await _put_new(client, t, update, d, mode, link)
        await _edit(client, t, update, d)
    except TableError:  # no longer theirs to play (they played it meanwhile, paused...)
        return False
    except discord.HTTPException as exc:
        problem = REFUSED.get(getattr(exc, "code", 0))
        log.info("game %s: no private place for a player (%s %s)", update.game_id, exc.status, exc.code)
        if problem is not None or isinstance(exc, discord.NotFound):  # refused, or the place is gone
            channel = d.place.channel_id if d.place is not None and problem == CLOSED else None
            await t.keep_place(PlaceRow(update.game_id, d.user_id, mode, channel, None, 0, problem))
    return False


async def refused_click(interaction: discord.Interaction, game_id: int | None, sentence: str) -> bool:
    """A click on a turn message in a place that was refused (its turn has passed):
    one sentence and the turn as it is now, privately. False: not such a click, or the
    player is not to act now (the caller says the refusal as usual)."""
    from cogs.panel import panel_message

    message = interaction.message
    channel = interaction.channel
    private = isinstance(channel, discord.DMChannel) or getattr(channel, "type", None) == (
        discord.ChannelType.private_thread
    )
    if game_id is None or message is None or message.flags.ephemeral or not private:
        return False
    t = _tables(interaction.client)
    try:
        panel = await t.current_panel(game_id, interaction.user.id)
    except TableError:
        return False
    content, view, files = panel_message(panel, f"{STALE_CLICK} ({sentence})")
    place = await t.place_of(game_id, interaction.user.id)
    if place is not None and place.message_id == message.id:  # the place's own message: shown there
        await interaction.edit_original_response(
            content=content, view=view, attachments=files, allowed_mentions=NOBODY
        )
        place.version = panel.version
        await t.keep_place(place)
    else:
        await interaction.followup.send(
            content, view=view, files=files, ephemeral=True, allowed_mentions=NOBODY
        )
    return True


__all__ = ["Plan", "close_abandoned", "deliver", "plan", "refused_click", "send_dm", "take_back"]
