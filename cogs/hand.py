"""A player's hand: "Show my hand" under every running board, and /hand, answered
privately with their own text and "my area" picture."""

from __future__ import annotations

import io
import re
from typing import Any

import discord

from cogs.common import guarded, say, tables_of


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


async def show_hand(interaction: discord.Interaction, game_id: int) -> None:
    """The player's private text and "my area" image. Deferred privately first: the
    area image is drawn at twice the scale and must not miss Discord's 3 seconds."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    text, png = await tables_of(interaction).hand(game_id, interaction.user.id)
    kw: dict[str, Any] = {}
    if png is not None:
        kw["file"] = discord.File(io.BytesIO(png), filename="my-area.png")
    await say(interaction, text, **kw)
