"""Asynchronous play: server settings, DM opt-in, my games, history, replay,
undo, stats, and the task that fires stored reminders and deadlines."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    STRENGTHS,
    game_here,
    guarded,
    hours,
    only,
    post_public,
    say,
    tables_of,
    thread_of,
)
from cogs.moves import take_back
from cogs.place import close_abandoned, send_dm
from cogs.posting import post_board, post_owed
from cogs.stopping import stopper
from tables import AI_LEVELS, DatabaseTimeout, Notice, TableError, Tables
from tables.place import THREADS_READABLE
from tables.stats import since_hours

log = logging.getLogger("lairkeeper.slowplay")

# The scheduler never sleeps longer than this, so a timer added by another
# process (or a clock jump) is noticed within a minute.
MAX_SLEEP = 60.0
# After a database timeout the loop tries again this soon (the database may be back).
RETRY_SLOW = 10.0


def describe_settings(s: dict[str, Any]) -> str:
    dl = "off" if not s["deadline_hours"] else f"{s['deadline_hours']:g} hours"
    rem = "off" if not s["reminder_hours"] else f"every {s['reminder_hours']:g} hours"
    chan = f"<#{s['channel_id']}>" if s.get("channel_id") else "the channel where /game new is used"
    strength = AI_LEVELS.get(s.get("ai_level") or "normal", AI_LEVELS["normal"])
    return (
        f"Turn deadline: {dl}. Reminders: {rem}. At the deadline: {s['on_deadline']}. "
        f"New games open in: {chan}. Unstarted lobbies close after {s['lobby_days']:g} days. "
        f"A player's only possible move is played for them: {'on' if s.get('auto_play', True) else 'off'}. "
        f"Computer players: {strength.name} ({strength.blurb}). "
        f"Abandoned games and games where a player was replaced are rated: "
        f"{'on' if s.get('rate_unfinished') else 'off'}. "
        f"Turns come to each player: {PLACES.get(s.get('place', 'dm'), 'by direct message')}. "
        f"The board pings {'every player whose turn begins' if s.get('board_ping') == 'always' else 'only players their turn did not reach privately'}."
    )


# How /settings names where turns come to a player (tables/place.py, PLACE_MODES).
PLACES = {"dm": "by direct message", "thread": "in a private thread each", "off": "only on the board"}


class SlowPlay(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.warming: asyncio.Task[int] | None = None  # kept: tasks are weakly held

    async def cog_load(self) -> None:
        # Before any interaction can arrive: boards from before tracking count as posted.
        await self.bot.tables.start_tracking()  # type: ignore[attr-defined]
        # Games stored under older rules are carried to the newest once connected
        # (start_up), so the login never waits on them (issue 39); one touched sooner
        # is carried when it is loaded (Tables._up_to_date).
        self.task = asyncio.create_task(self.scheduler(), name="lairkeeper-timers")

    async def cog_unload(self) -> None:
        for task in (self.task, self.warming):
            if task is not None:
                task.cancel()

    # ---- the timer task -----------------------------------------------------------------
    async def scheduler(self) -> None:
        """One task sleeps until the next stored timer is due, fires it, repeats."""
        await self.bot.wait_until_ready()
        t: Tables = self.bot.tables  # type: ignore[attr-defined]
        started = await self.start_up(t)
        while not self.bot.is_closed():
            if not started:  # the database stalled at start-up: AI seats still owe moves
                started = await self.start_up(t)
            try:
                async with stopper(self.bot).work():  # a stop waits for this pass
                    for notice in await t.fire_due():
                        await self.deliver(notice)
                    for notice in await t.expire_lobbies():
                        await self.deliver(notice)
                    await post_owed(self.bot)
                    nxt = await t.next_due()
            except TableError:  # the bot is stopping
                return
            except DatabaseTimeout:
                # The database stalls: try again soon; claimed timers wait for their lease.
                log.warning("timer loop: the database did not answer in time; retrying in %g s", RETRY_SLOW)
                nxt = time.time() + RETRY_SLOW
            except Exception:
                log.exception("timer loop failed; retrying in a minute")
                nxt = None
            delay = MAX_SLEEP if nxt is None else min(MAX_SLEEP, max(0.0, nxt - time.time()))
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=delay)
            except TimeoutError:
                pass

    async def start_up(self, t: Tables) -> bool:
        """Once connected: AI seats that owe a move take it, then every thread gets the
        boards it is owed (those moves, and any made while the bot was away). False
        if it failed: the timer loop runs it again."""
        try:
            async with stopper(self.bot).work():  # a stop waits for it
                await t.upgrade_games()  # the games under older rules (issue 27), found by one query
                for notice in await t.upgrade_notices():  # told once: what changed for the rest of the game
                    await self.deliver(notice)
                resumed = await t.resume_all()
                posted = await post_owed(self.bot)
            log.info("after start-up: %d games moved on, %d owed boards posted", resumed, posted)
            # Beside the timers, never before them: a server's first ratings take seconds.
            self.warming = asyncio.create_task(t.warm_ratings([g.id for g in self.bot.guilds]))
            return True
        except TableError:  # the bot is stopping: the next start does it
            return True
        except DatabaseTimeout:
            log.warning("start-up work waits for the database; the timer loop retries")
        except Exception:
            log.exception("start-up posting failed; the timer loop retries")
        return False

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        self.wake.set()  # Discord is back: post what is owed now, not in a minute

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.wake.set()

    async def deliver(self, notice: Notice) -> None:
        try:
            if notice.update is not None:  # its text already starts with the notice
                await post_board(self.bot, notice.update)
            else:
                channel = await thread_of(self.bot, notice.thread_id)
                if channel is not None:
                    mentions = " ".join(f"<@{u}>" for u in notice.ping)
                    await channel.send(
                        f"{mentions} {notice.text}".strip()[:2000], allowed_mentions=only(list(notice.ping))
                    )
            if notice.update is None and notice.kind == "deadline":  # the policy may abandon it
                await close_abandoned(self.bot, notice.game_id, notice.thread_id)
            if notice.update is None:
                for uid in notice.dm:
                    link = f" <#{notice.thread_id}>" if notice.thread_id else ""
                    await send_dm(self.bot, uid, notice.text + link)
        except (discord.HTTPException, OSError, TimeoutError):
            log.exception("could not deliver a %s for game %s", notice.kind, notice.game_id)

    # ---- /settings ---------------------------------------------------------------------
    @app_commands.command(name="settings", description="Server settings for turn deadlines and reminders")
    @app_commands.describe(
        deadline="Turn deadline: off, hours (12h) or days (3d)",
        reminders="Reminder interval: off, hours (12h) or days (1d)",
        on_deadline="What happens at the deadline",
        channel="Channel where new games open",
        lobby_days="Days a lobby may wait unstarted before it is closed (default 7)",
        only_moves="Play a player's only possible move for them when it reveals nothing (default on)",
        computer_strength="How well new computer players, deadline moves and takeovers play (default normal)",
        rate_unfinished="Rate abandoned games and games where a player was replaced (default off)",
        turns_in="Where each player's turn comes to them (default: direct messages)",
        board_ping="Whether the board also pings players whose turn came to them privately (default no)",
    )
    @app_commands.choices(
        computer_strength=STRENGTHS,
        turns_in=[
            app_commands.Choice(name="Direct messages (only the player can read them)", value="dm"),
            app_commands.Choice(name="A private thread each (moderators can read them)", value="thread"),
            app_commands.Choice(name="Only the board's Your move button", value="off"),
        ],
        board_ping=[
            app_commands.Choice(name="Only players not reached privately", value="unplaced"),
            app_commands.Choice(name="Every player whose turn begins", value="always"),
        ],
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings_cmd(
        self,
        interaction: discord.Interaction,
        deadline: str | None = None,
        reminders: str | None = None,
        on_deadline: Literal["ai", "skip", "abandon"] | None = None,
        channel: discord.TextChannel | None = None,
        lobby_days: app_commands.Range[float, 1, 365] | None = None,
        only_moves: Literal["on", "off"] | None = None,
        computer_strength: str | None = None,
        rate_unfinished: Literal["on", "off"] | None = None,
        turns_in: str | None = None,
        board_ping: str | None = None,
    ) -> None:
        async def run() -> None:
            perms = getattr(interaction.user, "guild_permissions", None)
            if not (perms and perms.manage_guild):
                raise TableError("Only members with Manage Server can change the server's settings.")
            assert interaction.guild_id is not None
            changes: dict[str, Any] = {}
            if deadline is not None:
                changes["deadline_hours"] = hours(deadline)
            if reminders is not None:
                changes["reminder_hours"] = hours(reminders)
            if on_deadline is not None:
                changes["on_deadline"] = on_deadline
            if channel is not None:
                changes["channel_id"] = channel.id
            if lobby_days is not None:
                changes["lobby_days"] = lobby_days
            if only_moves is not None:
                changes["auto_play"] = only_moves == "on"
            if computer_strength is not None:
                changes["ai_level"] = computer_strength
            if rate_unfinished is not None:
                changes["rate_unfinished"] = rate_unfinished == "on"
            if turns_in is not None:
                changes["place"] = turns_in
            if board_ping is not None:
                changes["board_ping"] = board_ping
            t = tables_of(interaction)
            if changes:
                merged = await t.set_guild_settings(interaction.guild_id, changes)
                warn = f" {THREADS_READABLE}" if turns_in == "thread" else ""
                await say(interaction, "Saved. " + describe_settings(merged) + warn)
            else:
                await say(interaction, describe_settings(await t.guild_settings(interaction.guild_id)))

        await guarded(interaction, None, run())

    # ---- /notify ---------------------------------------------------------------------------
    @app_commands.command(name="notify", description="Also get a DM when it is your turn")
    @app_commands.describe(dm="on: DM me when it is my turn; off: only ping me in the thread")
    async def notify_cmd(self, interaction: discord.Interaction, dm: Literal["on", "off"]) -> None:
        async def run() -> None:
            await say(interaction, await tables_of(interaction).set_notify(interaction.user.id, dm == "on"))

        await guarded(interaction, None, run())

    # ---- /mygames ------------------------------------------------------------------------------
    @app_commands.command(
        name="mygames", description="Every game you sit in here, the ones waiting on you first"
    )
    @app_commands.guild_only()
    @app_commands.describe(page="Page number (when you sit in many games)")
    async def mygames_cmd(self, interaction: discord.Interaction, page: int = 1) -> None:
        async def run() -> None:
            pages = await tables_of(interaction).my_games_pages(interaction.user.id, interaction.guild_id)
            if not pages:
                await say(interaction, "You are not in any open game here. Start one with /game new.")
                return
            if not 1 <= page <= len(pages):
                raise TableError(f"There are {len(pages)} page(s) of your games; pick 1 to {len(pages)}.")
            await say(interaction, pages[page - 1])

        await guarded(interaction, None, run())

    # ---- /history, /replay, /undo -------------------------------------------------------------------
    @app_commands.command(name="history", description="The move log of this thread's game")
    @app_commands.describe(page="Page number (20 moves a page)")
    @app_commands.guild_only()
    async def history_cmd(self, interaction: discord.Interaction, page: int = 1) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            text, _pages = await tables_of(interaction).history(gid, page)
            await say(interaction, text)

        await guarded(interaction, None, run())

    @app_commands.command(
        name="replay", description="Post the board of this thread's finished game after a move"
    )
    @app_commands.describe(move="Move number (0 = the start)")
    @app_commands.guild_only()
    async def replay_cmd(self, interaction: discord.Interaction, move: int) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            # Deferred privately: a player's mistake (a move number out of range) stays
            # between them and the bot; the replay itself is posted for the thread.
            await interaction.response.defer(ephemeral=True, thinking=True)
            text, png = await tables_of(interaction).replay_png(gid, move)
            await post_public(interaction, text, discord.File(io.BytesIO(png), filename=f"replay-{move}.png"))

        await guarded(interaction, None, run())

    @app_commands.command(name="undo", description="Take back your last move (before anyone else acts)")
    @app_commands.guild_only()
    async def undo_cmd(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            gid = await game_here(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            update = await tables_of(interaction).undo(gid, interaction.user.id)
            if update.post:  # the table had seen the move: a board of the state restored
                await post_board(interaction.client, update)
                await interaction.followup.send("Your last move was taken back.", ephemeral=True)
                return
            # A move inside the turn, unseen by the table: the private turn message goes back.
            await take_back(interaction, gid, update)

        await guarded(interaction, None, run())

    # ---- /stats ----------------------------------------------------------------------------------
    @app_commands.command(name="stats", description="Ratings in this server: leaderboard, a player, tonight")
    @app_commands.describe(
        game="One game only (optional)",
        player="One player's rating over time and record against the computer players",
        since="Tonight's table: games that ended in the last 12h, 2d...",
    )
    @app_commands.guild_only()
    async def stats_cmd(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        player: discord.Member | None = None,
        since: str | None = None,
    ) -> None:
        async def run() -> None:
            t = tables_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            png: bytes | None = None
            if since is not None:
                text = await t.tonight(interaction.guild_id, since_hours(since))
            elif player is not None:
                text, png = await t.player_stats(interaction.guild_id, player.id, player.display_name, game)
            else:
                text, png = await t.stats(interaction.guild_id, game)
            await post_stats(interaction, text, png)

        await guarded(interaction, None, run())

    @stats_cmd.autocomplete("since")
    async def _stats_since_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        spans = [("tonight (last 6 hours)", "6h"), ("last 12 hours", "12h"), ("last day", "24h")]
        spans += [("last 3 days", "3d"), ("last week", "7d")]
        return [
            app_commands.Choice(name=n, value=v) for n, v in spans if current.strip().lower() in n + " " + v
        ]

    @stats_cmd.autocomplete("game")
    async def _stats_game_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=g.title, value=g.key)
            for g in tables_of(interaction).catalogue()
            if current.lower() in g.title.lower() or current.lower() in g.key
        ][:25]


async def post_stats(interaction: discord.Interaction, text: str, png: bytes | None) -> None:
    """/stats for the whole channel: the text as an embed (its first line the title),
    the picture in it; then the private "thinking" reply closes."""
    channel = interaction.channel
    if not isinstance(channel, discord.abc.Messageable):
        raise TableError("Use /stats in a channel of this server.")
    head, _, body = text.partition("\n")
    embed = discord.Embed(title=head.replace("**", "")[:256], description=body[:4096] or None)
    kw: dict[str, Any] = {}
    if png is not None:
        kw["file"] = discord.File(io.BytesIO(png), filename="stats.png")
        embed.set_image(url="attachment://stats.png")
    await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none(), **kw)
    await interaction.followup.send("Posted.", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SlowPlay(bot))
