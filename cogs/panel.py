"""What a player's private turn message shows (tables' ``Panel``): their own state,
their turn so far and the next choice, as move buttons or a chooser step (buttons,
or one select menu, Back, Done). The buttons and the menu are persistent
(discord.ui.DynamicItem, so clicks work after a restart); each carries the game
version its choice belongs to. A click runs a move handler of cogs/moves.py."""

from __future__ import annotations

import io
import re

import discord

from cogs.common import guarded
from tables import NOT_TAKEN, Panel, Step

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


def choices_version(view: discord.ui.View | None) -> int | None:
    """The game version the choices on a private message belong to (None: it offers none)."""
    for item in view.children if view is not None else []:
        if isinstance(item, (MoveButton, StepButton, StepSelect)):
            return item.version
    return None


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
        # here: cogs.moves imports this module (a move's answer is the next panel)
        from cogs.moves import play

        await guarded(
            interaction,
            self.game_id,
            play(interaction, self.game_id, button=(self.version, self.index)),
            # A move button sits on the private turn message, which the answer edits in place.
            ack="update",
            slow=NOT_TAKEN,
        )


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
        # here: cogs.moves imports this module (a move's answer is the next panel)
        from cogs.moves import step_click, step_done

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
        # here: cogs.moves imports this module (a move's answer is the next panel)
        from cogs.moves import step_click

        values = (interaction.data or {}).get("values") or []
        index = int(values[0]) if values and str(values[0]).isdecimal() and len(str(values[0])) < 7 else -1
        run = step_click(interaction, self.game_id, self.version, self.depth, "pick", index)
        await guarded(interaction, self.game_id, run, ack="update")
