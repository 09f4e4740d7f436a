"""What the cogs share: answering a player, posting a board, the persistent
buttons (discord.ui.DynamicItem, so clicks work after a restart) and the
helpers every command uses. The cogs import this module, never each other."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands

from cogs.after_save import NEXT_TURN_LATER, saved
from cogs.computers import computers_after
from cogs.idempotency import move_key
from cogs.live import NOT_YOURS, Live, LiveTurns, clicked_someone_elses, received, retire
from cogs.place import deliver, refused_click, send_dm
from cogs.place import plan as plan_places
from cogs.place import take_back as take_back_in_place
from cogs.stopping import tracked
from tables import (
    AI_LEVELS,
    NOT_TAKEN,
    SLOW,
    TAKEN_BACK,
    CommitUnknown,
    DatabaseTimeout,
    Lobby,
    MoveTaken,
    Panel,
    Step,
    TableError,
    Tables,
    Update,
)
from tables.place import board_pings

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


# ---- posting ------------------------------------------------------------------


async def post_public(interaction: discord.Interaction, text: str, file: discord.File | None) -> None:
    """Post a result for the whole channel after a private deferral (so that an
    error would have stayed private), then close the private "thinking" reply."""
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise TableError("Use this command in a game's thread.")
    kw: dict[str, Any] = {"file": file} if file is not None else {}
    await channel.send(text[:2000], allowed_mentions=NOBODY, **kw)
    await interaction.followup.send("Posted.", ephemeral=True)


def board_view(update: Update) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if update.choose:
        view.add_item(ChooseButton(update.game_id, update.version))
    if not update.over:
        from cogs.guide import WhatNowButton  # here: cogs.guide imports this module
        from cogs.hints import HintButton  # here: cogs.hints imports this module

        view.add_item(HandButton(update.game_id))
        view.add_item(WhatNowButton(update.game_id))
        view.add_item(HintButton(update.game_id))
    else:
        from cogs.rematch import PlayAgainButton  # here: cogs.rematch imports this module

        view.add_item(PlayAgainButton(update.game_id))
    return view


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


# ---- the live private turn message (cogs/live.py) ---------------------------------------

YOUR_TURN = "It is your turn again; the table's board is in the thread."
MOVED_ON = "Another player moved meanwhile; your choices below are up to date."


_later: set[asyncio.Task[Any]] = set()


def later(coro: Any) -> None:
    """Run ``coro`` beside the answer being given (a reference is kept: tasks are weakly held)."""
    task = asyncio.create_task(coro)
    _later.add(task)
    task.add_done_callback(_later.discard)


def live_turns(client: discord.Client) -> LiveTurns:
    turns = getattr(client, "live_turns", None)
    if turns is None:
        turns = LiveTurns()
        client.live_turns = turns  # type: ignore[attr-defined]
    return turns


def choices_version(view: discord.ui.View | None) -> int | None:
    """The game version the choices on a private message belong to (None: it offers none)."""
    for item in view.children if view is not None else []:
        if isinstance(item, (MoveButton, StepButton, StepSelect)):
            return item.version
    return None


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


def lobby_view(lobby: Lobby) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if lobby.status == "lobby":
        for op, label, style in (
            ("join", "Join", discord.ButtonStyle.success),
            ("leave", "Leave", discord.ButtonStyle.secondary),
            ("start", "Start", discord.ButtonStyle.primary),
        ):
            view.add_item(LobbyButton(lobby.game_id, op, label, style))
        hints = "Turn hints off" if lobby.hints else "Turn hints on"  # the host's choice (issue 40)
        view.add_item(LobbyButton(lobby.game_id, "hints", hints))
        # Adding a computer player: open the menu, pick a strength (one tap more than
        # the old button, and the strength is said where it is chosen).
        view.add_item(AddAISelect(lobby.game_id))
        if lobby.waiting:  # Play again: the people seated there confirm with one click
            from cogs.rematch import ImInButton

            view.add_item(ImInButton(lobby.game_id))
    return view


# ---- persistent buttons ---------------------------------------------------------


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lk:lobby:(?P<gid>\d+):(?P<op>join|leave|ai|start|hints)",
):
    def __init__(
        self,
        game_id: int,
        op: str,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or op, style=style, custom_id=f"lk:lobby:{game_id}:{op}")
        )
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> LobbyButton:
        return cls(int(match["gid"]), match["op"], item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.game_id, self._run(interaction), ack="update")

    async def _run(self, interaction: discord.Interaction) -> None:
        t = tables_of(interaction)
        user = interaction.user
        if self.op == "start":
            await interaction.response.defer()
            update = await t.start(self.game_id, user.id, think=False)
            lobby = await t.lobby(self.game_id)
            await interaction.edit_original_response(
                content=lobby.text, view=lobby_view(lobby), allowed_mentions=NOBODY
            )
            await post_board(interaction.client, update)
            computers_after(interaction, update)  # computers that open think after the answer
            return
        if self.op == "join":
            lobby = await t.join(self.game_id, user.id, user.display_name)
        elif self.op == "leave":
            lobby = await t.leave(self.game_id, user.id)
        elif self.op == "hints":
            lobby = await t.switch_hints(self.game_id, user.id)
        else:
            lobby = await t.add_ai(self.game_id, user.id)
        await interaction.response.edit_message(
            content=lobby.text, view=lobby_view(lobby), allowed_mentions=NOBODY
        )


class AddAISelect(discord.ui.DynamicItem[discord.ui.Select], template=r"lk:addai:(?P<gid>\d{1,20})"):
    """The lobby's "Add a computer player" menu: one option a strength, each saying
    what it does. (Lobby messages posted before it have an "Add AI" button,
    ``LobbyButton`` op ``ai``: it still adds one at the server's strength.)"""

    PLACEHOLDER = "Add a computer player..."

    def __init__(self, game_id: int) -> None:
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"lk:addai:{game_id}",
            placeholder=self.PLACEHOLDER,
            options=[
                discord.SelectOption(label=f"{lv.name} computer player", value=lv.key, description=lv.blurb)
                for lv in AI_LEVELS.values()
            ],
            row=1,
        )
        super().__init__(select)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> AddAISelect:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.game_id, self._run(interaction), ack="update")

    async def _run(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        level = str(values[0]) if values else ""
        if level not in AI_LEVELS:
            raise TableError("Pick a strength from the menu.")
        lobby = await tables_of(interaction).add_ai(self.game_id, interaction.user.id, level)
        await interaction.response.edit_message(
            content=lobby.text, view=lobby_view(lobby), allowed_mentions=NOBODY
        )


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"lk:mv:(?P<gid>\d+):(?P<ver>\d+):(?P<n>\d+)"
):
    def __init__(self, game_id: int, version: int, index: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(index),
                style=discord.ButtonStyle.primary,
                custom_id=f"lk:mv:{game_id}:{version}:{index}",
            )
        )
        self.game_id, self.version, self.index = game_id, version, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["gid"]), int(match["ver"]), int(match["n"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(
            interaction,
            self.game_id,
            play(interaction, self.game_id, button=(self.version, self.index)),
            # A move button sits on the private turn message, which the answer edits in place.
            ack="update",
            slow=NOT_TAKEN,
        )


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


# ---- the move chooser: one private reply, edited step by step -------------------------

STEP_OPS = "pick|back|done|page"


PRIVATE = "(Only you see this. You can also type a whole move with /play.)"


def step_message(step: Step, head: str = "") -> tuple[str, discord.ui.View, list[discord.File]]:
    """A chooser step as a private message: ``head`` (the seat's own state and its
    turn so far), then the step; options as buttons when few, else one select menu
    (a page of 25, with Previous/Next, each option saying what picking it does);
    Back, and Done only while the move could still be extended."""
    gid, ver, depth = step.game_id, step.version, step.depth
    view = discord.ui.View(timeout=None)
    if len(step.options) <= Step.FEW:
        for i, (_tok, label) in enumerate(step.options):
            view.add_item(StepButton(gid, ver, depth, "pick", i, label, row=0))
    else:
        base = step.page * Step.PAGE
        shown = [(base + k, label) for k, (_tok, label) in enumerate(step.shown)]
        notes = [
            step.descriptions.get(tok) or (step.hints[k] if k < len(step.hints) else None)
            for k, (tok, _label) in enumerate(step.shown)
        ]
        view.add_item(StepSelect(gid, ver, depth, shown, notes=notes))
        if step.page > 0:
            view.add_item(StepButton(gid, ver, depth, "page", step.page - 1, "Previous", row=1))
        if step.page < step.pages - 1:
            view.add_item(StepButton(gid, ver, depth, "page", step.page + 1, "Next", row=1))
    if depth:
        view.add_item(StepButton(gid, ver, depth, "back", 0, "Back", row=1))
    if step.done is not None:
        view.add_item(StepButton(gid, ver, depth, "done", 0, "Done", row=1))
    files = [discord.File(io.BytesIO(step.preview), filename="preview.png")] if step.preview else []
    text = "\n".join(part for part in (head or step.head, step.text, PRIVATE) if part)
    return text[-2000:], view, files


def panel_message(panel: Panel, note: str = "") -> tuple[str, discord.ui.View, list[discord.File]]:
    """The private turn message: ``note`` (what the last click did), the seat's own
    state, its turn so far, and the next choice (move buttons or a chooser step)."""
    head = "\n".join(
        part
        for part in (note, panel.header, "This turn so far: " + "; ".join(panel.turn) if panel.turn else "")
        if part
    )
    if panel.step is not None:
        return step_message(panel.step, head)
    view = discord.ui.View(timeout=None)
    for label, index in panel.buttons:
        view.add_item(MoveButton(panel.game_id, panel.version, index, label))
    text = "\n".join(part for part in (head, panel.note, "Your choices:", PRIVATE) if part)
    return text[-2000:], view, []


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"lk:cx:(?P<gid>\d{{1,20}}):(?P<ver>\d{{1,20}}):(?P<depth>\d{{1,4}}):(?P<op>{STEP_OPS}):(?P<n>\d{{1,6}})",
):
    """A chooser button: pick option n, go back, Done, or show page n of a long step."""

    STYLES = {"pick": discord.ButtonStyle.primary, "done": discord.ButtonStyle.success}

    def __init__(
        self, game_id: int, version: int, depth: int, op: str, n: int, label: str = "", row: int | None = None
    ) -> None:
        style = self.STYLES.get(op, discord.ButtonStyle.secondary)
        cid = f"lk:cx:{game_id}:{version}:{depth}:{op}:{n}"
        super().__init__(discord.ui.Button(label=(label or op)[:80], style=style, custom_id=cid, row=row))
        self.game_id, self.version, self.depth, self.op, self.n = game_id, version, depth, op, n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> StepButton:
        g = match.groupdict()
        return cls(int(g["gid"]), int(g["ver"]), int(g["depth"]), g["op"], int(g["n"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "done":
            await guarded(
                interaction, self.game_id, step_done(interaction, self), ack="update", slow=NOT_TAKEN
            )
            return
        run = step_click(interaction, self.game_id, self.version, self.depth, self.op, self.n)
        await guarded(interaction, self.game_id, run, ack="update")


class StepSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"lk:cs:(?P<gid>\d{1,20}):(?P<ver>\d{1,20}):(?P<depth>\d{1,4})",
):
    """A chooser select menu; each option's value is its index in the step."""

    # The instruction is the message's text (a phone cuts a placeholder short).
    PLACEHOLDER = "Pick one (see above)"

    def __init__(
        self,
        game_id: int,
        version: int,
        depth: int,
        options: list[tuple[int, str]],
        notes: list[str | None] | None = None,
    ) -> None:
        notes = notes or [None] * len(options)
        select: discord.ui.Select = discord.ui.Select(
            custom_id=f"lk:cs:{game_id}:{version}:{depth}",
            placeholder=self.PLACEHOLDER,
            options=[
                discord.SelectOption(
                    label=(label or "?")[:100], value=str(i), description=(note or None) and note[:100]
                )
                for (i, label), note in zip(options, notes, strict=False)
            ],
            row=0,
        )
        super().__init__(select)
        self.game_id, self.version, self.depth = game_id, version, depth

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> StepSelect:
        return cls(int(match["gid"]), int(match["ver"]), int(match["depth"]), [])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        index = int(values[0]) if values and str(values[0]).isdecimal() and len(str(values[0])) < 7 else -1
        run = step_click(interaction, self.game_id, self.version, self.depth, "pick", index)
        await guarded(interaction, self.game_id, run, ack="update")


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


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lk:hand:(?P<gid>\d+)"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show my hand", style=discord.ButtonStyle.secondary, custom_id=f"lk:hand:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.game_id, show_hand(interaction, self.game_id))


DYNAMIC_ITEMS = (LobbyButton, AddAISelect, MoveButton, ChooseButton, HandButton, StepButton, StepSelect)


# ---- shared handlers ----------------------------------------------------------


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


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    """The player's private text and "my area" image. Deferred privately first: the
    area image is drawn at twice the scale and must not miss Discord's 3 seconds."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    text, png = await tables_of(interaction).hand(game_id, interaction.user.id)
    kw: dict[str, Any] = {}
    if png is not None:
        kw["file"] = discord.File(io.BytesIO(png), filename="my-area.png")
    await say(interaction, text, **kw)


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
