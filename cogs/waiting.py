"""/waiting: every game, in every server, where it is the user's turn (issue 37
item 4), as a private embed with a jump link to each game's thread and its
deadline. Usable in any server the bot is in and in a DM with the bot. Thin: the
list is tables/waiting.py's."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import guarded, say, tables_of

# The embed's colour: the boards' accent (render/base.py PALETTE["accent"]).
ACCENT = 0xFFC83C


def server_names(client: discord.Client, guild_ids: set[int]) -> dict[int, str]:
    """The names of the servers this process knows among ``guild_ids`` (with shards,
    another process's servers go unnamed: their games still have their links)."""
    out: dict[int, str] = {}
    for gid in guild_ids:
        guild = client.get_guild(gid)
        if guild is not None:
            out[gid] = guild.name
    return out


class WaitingCog(commands.Cog, name="Waiting"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="waiting", description="Every game, in every server, waiting on your move")
    async def waiting_cmd(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            found = await tables_of(interaction).waiting(interaction.user.id)
            guilds = {g.guild_id for g in found.games if g.guild_id is not None}
            servers = server_names(interaction.client, guilds)
            embed = discord.Embed(title=found.title, description=found.body(servers=servers), colour=ACCENT)
            await say(interaction, "", embed=embed)

        await guarded(interaction, None, run())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WaitingCog(bot))
