"""A lobby's message: its buttons (Join, Leave, Start, hints on or off) and the
"Add a computer player" menu, persistent (discord.ui.DynamicItem, so clicks work
after a restart); each click edits the lobby in place, and Start posts the first
board."""

from __future__ import annotations

import re

import discord

from cogs.common import NOBODY, guarded, tables_of
from cogs.computers import computers_after
from cogs.posting import post_board
from tables import AI_LEVELS, Lobby, TableError


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
            from cogs.rematch import ImInButton  # here: cogs.rematch imports this module

            view.add_item(ImInButton(lobby.game_id))
    return view


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
