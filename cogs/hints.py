"""The "Hint" button beside "What now?" (issue 40 point 7): the searching computer
player's best moves for the clicker's seat, answered privately (tables/hints.py)."""

from __future__ import annotations

import re

import discord

from cogs.common import guarded, say, tables_of


class HintButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lk:hint:(?P<gid>\d{1,20})"):
    """ "Hint" under every running board: the clicker's top three moves by the normal
    search, each with how often it won its playouts, answered privately. The search
    runs in the thinking pool, so the click waits for it and nothing else does."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Hint", style=discord.ButtonStyle.secondary, custom_id=f"lk:hint:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> HintButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await say(interaction, await tables_of(interaction).hint(self.game_id, interaction.user.id))

        # "private": acknowledged at once as an ephemeral "thinking" reply, then the hint.
        await guarded(interaction, self.game_id, run())


HINT_ITEMS = (HintButton,)
