"""Slash commands and buttons for playing games. Thin: read the interaction,
call tables/, send what it returns."""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from engine import core
from tables import Lobby, TableError, Tables, Update

log = logging.getLogger("lairkeeper.cogs")

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rules"
OOPS = "Something went wrong on our side; your request was not carried out. Please try again."


def tables_of(interaction: discord.Interaction) -> Tables:
    return interaction.client.tables  # type: ignore[attr-defined, no-any-return]


async def say(interaction: discord.Interaction, text: str, **kw: Any) -> None:
    """Answer ephemerally, whether or not the interaction was deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(text[:2000], ephemeral=True, **kw)
    else:
        await interaction.response.send_message(text[:2000], ephemeral=True, **kw)


async def guarded(interaction: discord.Interaction, game_id: int | None, coro: Any) -> Any:
    """Run a handler: a player's mistake becomes one ephemeral sentence; a bot
    failure is logged with the game id and the player is told nothing was done."""
    try:
        return await coro
    except TableError as exc:
        await say(interaction, str(exc))
    except Exception:
        log.exception("command failed (game %s, user %s)", game_id, interaction.user.id)
        try:
            await say(interaction, OOPS)
        except discord.HTTPException:
            pass
    return None


# ---- posting ------------------------------------------------------------------


def board_view(update: Update) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if update.choose:
        view.add_item(ChooseButton(update.game_id, update.version))
    if not update.over:
        view.add_item(HandButton(update.game_id))
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


async def post_board(client: discord.Client, update: Update) -> discord.Message | None:
    """Post the board in the game's thread, pinging whoever must act next."""
    channel = await thread_of(client, update.thread_id)
    if channel is None:
        log.warning("game %s has no reachable thread", update.game_id)
        return None
    content = update.text
    if update.ping:
        content = " ".join(f"<@{u}>" for u in update.ping) + " - your turn.\n" + content
    files = []
    if update.png is not None:
        files.append(
            discord.File(io.BytesIO(update.png), filename=f"game{update.game_id}-move{update.moves}.png")
        )
    if update.result_png is not None:
        files.append(discord.File(io.BytesIO(update.result_png), filename=f"game{update.game_id}-scores.png"))
    for i, step in enumerate(update.steps, 1):
        files.append(
            discord.File(io.BytesIO(step), filename=f"game{update.game_id}-move{update.moves}-step{i}.png")
        )
    message = await channel.send(
        content[:2000],
        view=board_view(update),
        allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
        files=files,
    )
    if update.dm:
        from cogs.slowplay import send_dm

        for uid in update.dm:
            await send_dm(client, uid, f"It is your turn in game #{update.game_id}: {message.jump_url}")
    return message


def lobby_view(lobby: Lobby) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if lobby.status == "lobby":
        for op, label, style in (
            ("join", "Join", discord.ButtonStyle.success),
            ("leave", "Leave", discord.ButtonStyle.secondary),
            ("ai", "Add AI", discord.ButtonStyle.secondary),
            ("start", "Start", discord.ButtonStyle.primary),
        ):
            view.add_item(LobbyButton(lobby.game_id, op, label, style))
    return view


# ---- persistent buttons ---------------------------------------------------------


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"lk:lobby:(?P<gid>\d+):(?P<op>join|leave|ai|start)"
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
        await guarded(interaction, self.game_id, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        t = tables_of(interaction)
        user = interaction.user
        if self.op == "start":
            await interaction.response.defer()
            update = await t.start(self.game_id, user.id)
            lobby = await t.lobby(self.game_id)
            await interaction.edit_original_response(content=lobby.text, view=lobby_view(lobby))
            await post_board(interaction.client, update)
            return
        if self.op == "join":
            lobby = await t.join(self.game_id, user.id, user.display_name)
        elif self.op == "leave":
            lobby = await t.leave(self.game_id, user.id)
        else:
            lobby = await t.add_ai(self.game_id, user.id)
        await interaction.response.edit_message(content=lobby.text, view=lobby_view(lobby))


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
            choices = await tables_of(interaction).move_choices(
                self.game_id, interaction.user.id, self.version
            )
            view = discord.ui.View(timeout=None)
            for label, index in choices:
                view.add_item(MoveButton(self.game_id, self.version, index, label))
            await say(interaction, "Your choices (only you see this):", view=view)

        await guarded(interaction, self.game_id, run())


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


DYNAMIC_ITEMS = (LobbyButton, MoveButton, ChooseButton, HandButton)


# ---- shared handlers ----------------------------------------------------------


async def play(
    interaction: discord.Interaction,
    game_id: int,
    text: str | None = None,
    button: tuple[int, int] | None = None,
) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    update = await tables_of(interaction).act(game_id, interaction.user.id, text=text, button=button)
    # From here on the move is saved: a failure to post must not claim otherwise.
    confirm = "Move taken."
    if update.actor_private:
        confirm += "\n" + update.actor_private
    try:
        await post_board(interaction.client, update)
    except discord.HTTPException:
        log.exception("posting the board failed (game %s)", game_id)
        confirm += "\nYour move was taken, but the board could not be posted; use /board."
    await interaction.followup.send(confirm[:2000], ephemeral=True)


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    text, png = await tables_of(interaction).hand(game_id, interaction.user.id)
    kw: dict[str, Any] = {}
    if png is not None:
        kw["file"] = discord.File(io.BytesIO(png), filename="hand.png")
    await say(interaction, text, **kw)


async def game_here(interaction: discord.Interaction) -> int:
    if interaction.channel_id is None:
        raise TableError("Use this command in a game's thread.")
    row = await tables_of(interaction).game_in(interaction.channel_id)
    return row.id


INTEGER = re.compile(r"-?[0-9]{1,18}")


def parse_options(text: str | None) -> dict[str, Any]:
    """``open_treasure=true beginner=false`` -> dict, values as JSON-ish literals."""
    out: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        if "=" not in part:
            raise TableError(f"Options are written name=value, e.g. open_treasure=true; '{part}' is not.")
        k, v = part.split("=", 1)
        low = v.lower()
        value: Any = True if low in ("true", "yes", "on") else False if low in ("false", "no", "off") else v
        # Plain ASCII digits only: '1①'.isdigit() is True and '--5'.lstrip('-') is
        # digits, yet int() refuses both (found by the reliability fuzzer).
        if isinstance(value, str) and INTEGER.fullmatch(value):
            value = int(value)
        out[k.strip()] = value
    return out


class Games(commands.Cog):
    game = app_commands.Group(name="game", description="Start, list and abandon games", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ---- /game new ------------------------------------------------------------
    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        options="Variants, e.g. open_treasure=true",
        deadline="This game's turn deadline: off, hours (12h) or days (3d); default: the server's",
        reminders="This game's reminder interval: off, 12h, 1d; default: the server's",
        on_deadline="What happens at this game's deadline; default: the server's",
    )
    async def game_new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        deadline: str | None = None,
        reminders: str | None = None,
        on_deadline: Literal["ai", "skip", "abandon"] | None = None,
    ) -> None:
        from cogs.slowplay import hours

        async def run() -> None:
            settings: dict[str, Any] = {}
            if deadline is not None:
                settings["deadline_hours"] = hours(deadline)
            if reminders is not None:
                settings["reminder_hours"] = hours(reminders)
            if on_deadline is not None:
                settings["on_deadline"] = on_deadline
            await self._new(interaction, game, options, settings)

        await guarded(interaction, None, run())

    async def _new(
        self, interaction: discord.Interaction, key: str, options: str | None, settings: dict[str, Any]
    ) -> None:
        t = tables_of(interaction)
        channel = interaction.channel
        home = (await t.guild_settings(interaction.guild_id)).get("channel_id")
        if home and home != interaction.channel_id:
            target = await thread_of(interaction.client, home)
            if isinstance(target, discord.TextChannel):
                channel = target
        if not isinstance(channel, discord.TextChannel):
            raise TableError("Start games in a server text channel; the bot opens a thread there.")
        lobby = await t.create(
            interaction.user.id,
            interaction.user.display_name,
            key,
            parse_options(options),
            guild_id=interaction.guild_id,
            channel_id=channel.id,
            settings=settings,
        )
        if channel.id == interaction.channel_id:
            await interaction.response.send_message(lobby.text, view=lobby_view(lobby))
            message = await interaction.original_response()
        else:
            message = await channel.send(lobby.text, view=lobby_view(lobby))
            await say(interaction, f"This server opens games in {channel.mention}: your lobby is there.")
        thread_id: int = channel.id
        try:
            thread = await message.create_thread(
                name=f"{lobby.title} #{lobby.game_id}", auto_archive_duration=10080
            )
            thread_id = thread.id
        except discord.HTTPException:
            log.warning("could not open a thread for game %s; playing in the channel", lobby.game_id)
        await t.set_refs(lobby.game_id, thread_id=thread_id, lobby_message_id=message.id)

    @game_new.autocomplete("game")
    async def _game_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        out = []
        for g in core.iter_games():
            label = f"{g.title} ({g.min_players}-{g.max_players} players)"
            if current.lower() in label.lower() or current.lower() in g.key:
                out.append(app_commands.Choice(name=label, value=g.key))
        return out[:25]

    @game_new.autocomplete("options")
    async def _options_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        try:
            g = core.get(str(key))
        except core.IllegalAction:
            return []
        done = current.rsplit(" ", 1)[0] + " " if " " in current else ""
        out = []
        for name, opt in g.options.items():
            for c in opt.choices:
                value = f"{done}{name}={str(c).lower()}".strip()
                if current.strip() in value:
                    out.append(app_commands.Choice(name=f"{value} - {opt.help}"[:100], value=value[:100]))
        return out[:25]

    # ---- /game abandon, /game list -------------------------------------------------
    @game.command(name="abandon", description="Abandon the game of this thread (host or Manage Server)")
    async def game_abandon(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            perms = getattr(interaction.user, "guild_permissions", None)
            text = await tables_of(interaction).abandon(
                gid, interaction.user.id, bool(perms and perms.manage_guild)
            )
            await interaction.response.send_message(text)

        await guarded(interaction, None, run())

    @game.command(
        name="vacation", description="Pause your turn deadlines for a while; your games show you away"
    )
    @app_commands.describe(days="How many days you are away (0 = back now)")
    async def game_vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]
    ) -> None:
        async def run() -> None:
            text = await tables_of(interaction).set_vacation(
                interaction.user.id, days * 24, interaction.guild_id
            )
            await say(interaction, text)

        await guarded(interaction, None, run())

    @game.command(name="leave", description="Leave this thread's running game; the AI takes your seat")
    @app_commands.describe(player="Host or Manage Server only: hand this player's seat to the AI instead")
    async def game_leave(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            perms = getattr(interaction.user, "guild_permissions", None)
            await interaction.response.defer(ephemeral=True, thinking=True)
            update = await tables_of(interaction).take_over(
                gid, interaction.user.id, player.id if player else None, bool(perms and perms.manage_guild)
            )
            await post_board(interaction.client, update)
            await interaction.followup.send("The AI has the seat now.", ephemeral=True)

        await guarded(interaction, None, run())

    @game.command(name="list", description="Games open or running in this server")
    async def game_list(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            t = tables_of(interaction)
            rows = [r for s in ("lobby", "active") for r in await t.store.games(interaction.guild_id, s)]
            if not rows:
                await say(interaction, "No games are open or running here. Start one with /game new.")
                return
            lines = [
                f"#{r.id} {core.get(r.game_key).title} - {r.status}, {len(r.seats)} players"
                + (f" - <#{r.thread_id}>" if r.thread_id else "")
                for r in rows[-20:]
            ]
            await say(interaction, "\n".join(lines))

        await guarded(interaction, None, run())

    # ---- /play, /hand, /board, /rules ------------------------------------------------
    @app_commands.command(name="play", description="Make your move in this thread's game")
    @app_commands.describe(move="Your move in the game's notation (pick from the list or type it)")
    @app_commands.guild_only()
    async def play_cmd(self, interaction: discord.Interaction, move: str) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            await play(interaction, gid, text=move)

        await guarded(interaction, None, run())

    @play_cmd.autocomplete("move")
    async def _move_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        try:
            row = await tables_of(interaction).game_in(interaction.channel_id)
            found = await tables_of(interaction).choices(row.id, interaction.user.id, current)
        except TableError:
            return []
        return [app_commands.Choice(name=label, value=note) for label, note in found]

    @app_commands.command(name="hand", description="See what only you may see in this thread's game")
    @app_commands.guild_only()
    async def hand_cmd(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await show_hand(interaction, await game_here(interaction))

        await guarded(interaction, None, run())

    @app_commands.command(name="board", description="Post this thread's game board again")
    @app_commands.guild_only()
    async def board_cmd(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            update = await tables_of(interaction).board(gid)
            update.ping = []
            await post_board(interaction.client, update)
            await interaction.followup.send("Board posted.", ephemeral=True)

        await guarded(interaction, None, run())

    @app_commands.command(name="rules", description="How a game is played here")
    @app_commands.describe(game="Which game")
    async def rules_cmd(self, interaction: discord.Interaction, game: str) -> None:
        async def run() -> None:
            try:
                g = core.get(game)
            except core.IllegalAction as exc:
                raise TableError(str(exc)) from None
            doc = DOCS / f"{g.key}.md"
            body = doc.read_text(encoding="utf-8") if doc.exists() else g.blurb
            head = f"**{g.title}** ({g.min_players}-{g.max_players} players). {g.blurb}\n"
            text = head + "\n" + body
            if len(text) > 1900:
                text = text[:1850].rsplit("\n", 1)[0] + "\n... (the full rules are attached)"
                await say(
                    interaction, text, file=discord.File(io.BytesIO(body.encode()), filename=f"{g.key}.md")
                )
            else:
                await say(interaction, text)

        await guarded(interaction, None, run())

    rules_cmd.autocomplete("game")(_game_ac)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Games(bot))
