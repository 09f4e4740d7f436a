"""Slash commands for playing games: /game new|abandon|vacation|leave|list,
/play, /hand, /board, /rules. Thin: read the interaction, call tables/, send
what it returns."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    AUTOCOMPLETE_SECONDS,
    NOBODY,
    STRENGTHS,
    game_here,
    guarded,
    hours,
    say,
    tables_of,
    thread_of,
)
from cogs.computers import computers_after
from cogs.guide import send_guide
from cogs.hand import show_hand
from cogs.lobbies import open_thread
from cogs.lobby_view import lobby_view
from cogs.moves import play
from cogs.place import close_abandoned
from cogs.posting import post_board
from tables import NOT_TAKEN, TableError, parse_options

log = logging.getLogger("lairkeeper.cogs")


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
        computers="Computer players to seat at once (you can add more in the lobby)",
        strength="How well those computer players play; default: the server's",
        hints="Whether players may ask for a hint on their move (the Hint button); default: on",
    )
    @app_commands.choices(strength=STRENGTHS)
    async def game_new(
        self,
        interaction: discord.Interaction,
        game: str,
        options: str | None = None,
        deadline: str | None = None,
        reminders: str | None = None,
        on_deadline: Literal["ai", "skip", "abandon"] | None = None,
        computers: app_commands.Range[int, 0, 5] = 0,
        strength: str | None = None,
        hints: bool | None = None,
    ) -> None:
        async def run() -> None:
            settings: dict[str, Any] = {}
            if hints is not None:
                settings["hints"] = hints
            if deadline is not None:
                settings["deadline_hours"] = hours(deadline)
            if reminders is not None:
                settings["reminder_hours"] = hours(reminders)
            if on_deadline is not None:
                settings["on_deadline"] = on_deadline
            await self._new(interaction, game, options, settings, computers, strength)

        await guarded(interaction, None, run())

    async def _new(
        self,
        interaction: discord.Interaction,
        key: str,
        options: str | None,
        settings: dict[str, Any],
        computers: int = 0,
        strength: str | None = None,
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
            ai_players=computers,
            ai_level=strength,
        )
        # The interaction was acknowledged privately (cogs.common.guarded): the lobby
        # is a message of its own, and members' names in it ping nobody.
        message = await channel.send(lobby.text, view=lobby_view(lobby), allowed_mentions=NOBODY)
        if channel.id == interaction.channel_id:
            await say(interaction, f"Your lobby is open: {message.jump_url}")
        else:
            await say(interaction, f"This server opens games in {channel.mention}: your lobby is there.")
        await open_thread(t, message, lobby)

    @game_new.autocomplete("game")
    async def _game_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        out = []
        for g in tables_of(interaction).catalogue():
            if current.lower() in g.label.lower() or current.lower() in g.key:
                out.append(app_commands.Choice(name=g.label, value=g.key))
        return out[:25]

    @game_new.autocomplete("options")
    async def _options_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        try:
            g = tables_of(interaction).game_info(str(key))
        except TableError:
            return []
        done = current.rsplit(" ", 1)[0] + " " if " " in current else ""
        out = []
        for name, (choices, help_text) in g.options.items():
            for c in choices:
                value = f"{done}{name}={str(c).lower()}".strip()
                if current.strip() in value:
                    out.append(app_commands.Choice(name=f"{value} - {help_text}"[:100], value=value[:100]))
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
            await close_abandoned(interaction.client, gid, interaction.channel_id)

        await guarded(interaction, None, run())

    @game.command(
        name="vacation", description="Pause your turn deadlines in all your games; they show you away"
    )
    @app_commands.describe(days="How many days you are away (0 = back now)")
    async def game_vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]
    ) -> None:
        async def run() -> None:
            text = await tables_of(interaction).set_vacation(interaction.user.id, days * 24)
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
                gid,
                interaction.user.id,
                player.id if player else None,
                bool(perms and perms.manage_guild),
                think=False,
            )
            if update.thinking:  # the board comes after the computers' moves (issue 39)
                thread = await thread_of(interaction.client, update.thread_id)
                if thread is not None:
                    await thread.send(update.text, allowed_mentions=NOBODY)
            else:
                await post_board(interaction.client, update)
            await interaction.followup.send("The AI has the seat now.", ephemeral=True)
            computers_after(interaction, update)  # they think after the answer, as after a move

        await guarded(interaction, None, run())

    # ---- /game seat, pause, resume, extend, next (issue 22) -----------------------------
    @game.command(name="seat", description="Hand a seat of this thread's game to another member (host)")
    @app_commands.describe(seat="Seat number (1 = the first player)", member="Who plays the seat from now on")
    async def game_seat(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 12], member: discord.User
    ) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            if member.bot:
                raise TableError("Hand the seat to a person; /game leave hands a seat to the AI.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            update = await tables_of(interaction).hand_seat(
                gid, interaction.user.id, seat - 1, member.id, member.display_name, is_admin(interaction)
            )
            await post_board(interaction.client, update)
            await interaction.followup.send(f"{member.display_name} has the seat now.", ephemeral=True)

        await guarded(interaction, None, run())

    @game.command(
        name="pause", description="Pause this thread's game: no moves, deadlines or reminders (host)"
    )
    async def game_pause(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            text = await tables_of(interaction).pause(gid, interaction.user.id, is_admin(interaction))
            await interaction.response.send_message(text)

        await guarded(interaction, None, run())

    @game.command(name="resume", description="Resume this thread's paused game (host)")
    async def game_resume(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            update = await tables_of(interaction).resume(gid, interaction.user.id, is_admin(interaction))
            await post_board(interaction.client, update, again=True)
            await interaction.followup.send("The game goes on.", ephemeral=True)

        await guarded(interaction, None, run())

    @game.command(name="extend", description="Push the current turn deadline back once (host)")
    async def game_extend(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            text = await tables_of(interaction).extend(gid, interaction.user.id, is_admin(interaction))
            await interaction.response.send_message(text)

        await guarded(interaction, None, run())

    @game.command(name="next", description="Be pinged when you are likely next to act in this thread's game")
    @app_commands.describe(on="on: tell me when I am next; off: only on my turn")
    async def game_next(self, interaction: discord.Interaction, on: Literal["on", "off"] = "on") -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            await say(interaction, await tables_of(interaction).watch(gid, interaction.user.id, on == "on"))

        await guarded(interaction, None, run())

    @game.command(name="list", description="Games open or running in this server")
    async def game_list(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            rows = await tables_of(interaction).open_games(interaction.guild_id)
            if not rows:
                await say(interaction, "No games are open or running here. Start one with /game new.")
                return
            lines = [
                f"#{r['game_id']} {r['title']} - {r['status']}, {r['players']} players"
                + (f" - <#{r['thread_id']}>" if r["thread_id"] else "")
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

        await guarded(interaction, None, run(), slow=NOT_TAKEN)

    @play_cmd.autocomplete("move")
    async def _move_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        t, channel_id = tables_of(interaction), interaction.channel_id

        async def read() -> list[tuple[str, str]]:
            row = await t.game_in(channel_id)
            return await t.choices(row.id, interaction.user.id, current)

        try:  # autocomplete cannot be deferred: a slow database gives an empty list in time
            found = await asyncio.wait_for(read(), AUTOCOMPLETE_SECONDS)
        except (TableError, TimeoutError):
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
            await post_board(interaction.client, update, again=True)
            await interaction.followup.send("Board posted.", ephemeral=True)

        await guarded(interaction, None, run())

    @app_commands.command(name="rules", description="How a game is played here")
    @app_commands.describe(game="Which game")
    async def rules_cmd(self, interaction: discord.Interaction, game: str) -> None:
        async def run() -> None:
            await send_guide(interaction, game)

        await guarded(interaction, None, run())

    rules_cmd.autocomplete("game")(_game_ac)


def is_admin(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Games(bot))
