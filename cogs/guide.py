"""The guide and "What now?" (issue 28): ``/rules`` answers with an embed a section
at a time, section buttons edit that message in place; every board carries a
"What now?" button answered privately. Shared by the cogs like cogs/common.py."""

from __future__ import annotations

import io
import re

import discord

from cogs.common import guarded, tables_of
from tables import GuidePage

PICTURE = "guide-board.png"


def guide_message(key: str, page: GuidePage) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:
    """The embed of one guide page, its buttons (a section each, then the pages of a
    long section) and the labelled board picture when the page has one."""
    embed = discord.Embed(title=page.title[:256], description=page.text, colour=0xFFC83C)
    if page.pages > 1:
        embed.set_footer(text=f"Page {page.page + 1} of {page.pages} of this section")
    files: list[discord.File] = []
    if page.picture is not None:
        files.append(discord.File(io.BytesIO(page.picture), filename=PICTURE))
        embed.set_image(url=f"attachment://{PICTURE}")
    view = discord.ui.View(timeout=None)
    for i, name in enumerate(page.sections):
        style = discord.ButtonStyle.primary if i == page.section else discord.ButtonStyle.secondary
        view.add_item(GuideButton(key, i, 0, name, style))
    if page.page > 0:
        view.add_item(GuideButton(key, page.section, page.page - 1, "Previous page"))
    if page.page < page.pages - 1:
        view.add_item(GuideButton(key, page.section, page.page + 1, "Next page"))
    return embed, view, files


async def send_guide(interaction: discord.Interaction, key: str) -> None:
    """The answer to ``/rules game:``: the guide's first section, privately."""
    page = await tables_of(interaction).guide_page(key, 0, 0)
    embed, view, files = guide_message(page_key(interaction, key), page)
    await interaction.response.send_message(embed=embed, view=view, files=files, ephemeral=True)


def page_key(interaction: discord.Interaction, key: str) -> str:
    """The game's key as the catalogue spells it (a custom_id carries it)."""
    return tables_of(interaction).game_info(key).key


class GuideButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lk:guide:(?P<key>[a-z0-9-]{1,40}):(?P<sec>\d{1,2}):(?P<page>\d{1,3})",
):
    """A guide button: show section ``sec``, page ``page``, in the same message."""

    def __init__(
        self,
        key: str,
        section: int,
        page: int,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        cid = f"lk:guide:{key}:{section}:{page}"
        super().__init__(discord.ui.Button(label=(label or "Guide")[:80], style=style, custom_id=cid))
        self.key, self.section, self.page = key, section, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GuideButton:
        return cls(match["key"], int(match["sec"]), int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            await interaction.response.defer()
            page = await tables_of(interaction).guide_page(self.key, self.section, self.page)
            embed, view, files = guide_message(self.key, page)
            await interaction.edit_original_response(embed=embed, view=view, attachments=files)

        # "update": acknowledged as an edit of the guide's own message (the page turns in place).
        await guarded(interaction, None, run(), ack="update")


class WhatNowButton(discord.ui.DynamicItem[discord.ui.Button], template=r"lk:now:(?P<gid>\d{1,20})"):
    """ "What now?" under every board: the phase, what the clicker can do and what
    each choice costs and gives, answered privately."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="What now?", style=discord.ButtonStyle.secondary, custom_id=f"lk:now:{game_id}"
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> WhatNowButton:
        return cls(int(match["gid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            text = await tables_of(interaction).what_now(self.game_id, interaction.user.id)
            await interaction.response.send_message(text[:2000], ephemeral=True)

        await guarded(interaction, self.game_id, run())


GUIDE_ITEMS = (GuideButton, WhatNowButton)
