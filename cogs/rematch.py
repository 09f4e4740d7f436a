"""The final board's "Play again" button (issue 41): a DynamicItem with the game id in
its custom_id, so it works after a restart and from an old final board while its
game is the table's latest (tables/rematch.py). The new lobby is a message of its
own in the table's channel, with a thread, pinging the people asked to confirm."""

from __future__ import annotations

import logging
import re

import discord

from cogs.common import NOBODY, guarded, only, say, tables_of, thread_of
from cogs.lobbies import open_thread
from cogs.lobby_view import lobby_view
from tables import Again, TableError, Tables

log = logging.getLogger("lairkeeper.cogs")


class PlayAgainButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lk:again:(?P<gid>\d{1,20})"):
    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Play again", style=discord.ButtonStyle.success, custom_id=f"lk:again:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PlayAgainButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.game_id, play_again(interaction, self.game_id))


class ImInButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lk:imin:(?P<gid>\d{1,20})"):
    """On a Play again lobby: a person it seated confirms they play."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="I'm in", style=discord.ButtonStyle.success, custom_id=f"lk:imin:{game_id}", row=2
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ImInButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            lobby = await tables_of(interaction).confirm(self.game_id, interaction.user.id)
            await interaction.response.edit_message(
                content=lobby.text, view=lobby_view(lobby), allowed_mentions=NOBODY
            )

        await guarded(interaction, self.game_id, run(), ack="update")


async def play_again(interaction: discord.Interaction, game_id: int) -> None:
    user = interaction.user
    again = await tables_of(interaction).play_again(game_id, user.id, user.display_name)
    if not again.new:
        where = f" in <#{again.lobby.thread_id}>" if again.lobby.thread_id else ""
        await say(
            interaction, f"This table's next game is open already (game #{again.lobby.game_id}){where}."
        )
        return
    try:
        message = await post_lobby(interaction.client, again)
    except (TableError, discord.HTTPException):
        # No lobby message, no lobby: a later press may open one where it can be seen.
        await tables_of(interaction).abandon(again.lobby.game_id, user.id, True)
        raise
    await say(interaction, f"Your new lobby is open: {message.jump_url}")


async def post_lobby(client: discord.Client, again: Again) -> discord.Message:
    """The new lobby's message, pinging the people asked to confirm, and its thread."""
    channel = await thread_of(client, again.channel_id)
    if not isinstance(channel, discord.TextChannel):
        raise TableError("The channel of this table is gone; open a new game with /game new.")
    lobby = again.lobby
    asked = " ".join(f"<@{u}>" for u in lobby.waiting)
    content = (
        f"{asked}: a new game at your table. Press **I'm in** to play.\n" if asked else ""
    ) + lobby.text
    message = await channel.send(content[:2000], view=lobby_view(lobby), allowed_mentions=only(lobby.waiting))
    tables: Tables = client.tables  # type: ignore[attr-defined]
    await open_thread(tables, message, lobby)
    return message


REMATCH_ITEMS = (PlayAgainButton, ImInButton)
