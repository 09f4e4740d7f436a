"""The chooser's private message keeps within Discord's limits (5 rows of at most 5
buttons, one select of at most 25 options, custom_id <= 100 characters, button
labels <= 80 and option labels <= 100 characters)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cogs.components import DYNAMIC_ITEMS
from cogs.panel import step_message
from tables import Step

BIG = 2**62  # the largest game id and version a custom_id has to carry


def components(step: Step) -> list[dict]:
    _text, view, _files = step_message(step)
    return view.to_components()


@pytest.mark.parametrize("count", [1, 5, 6, 25, 26, 60, 500])
@pytest.mark.parametrize("depth", [0, 3])
def test_every_step_fits_discord(count: int, depth: int) -> None:
    options = [(f"tok{i}", f"Option {i} " + "x" * 90) for i in range(count)]
    for page in range(-(-count // Step.PAGE)):
        step = Step(BIG, BIG, depth, "Choose.", options, done="Play it", page=page)
        rows = components(step)
        assert 1 <= len(rows) <= 5
        items = [c for row in rows for c in row["components"]]
        selects = [c for c in items if c["type"] == 3]
        buttons = [c for c in items if c["type"] == 2]
        assert all(len(row["components"]) <= 5 for row in rows)
        assert all(len(c["custom_id"]) <= 100 for c in items)
        assert all(1 <= len(b["label"]) <= 80 for b in buttons)
        if count <= Step.FEW:
            assert selects == [] and sum(":pick:" in b["custom_id"] for b in buttons) == count
        else:
            (select,) = selects
            assert 1 <= len(select["options"]) <= 25
            assert all(1 <= len(o["label"]) <= 100 for o in select["options"])
            shown = [int(o["value"]) for o in select["options"]]
            assert shown == list(range(page * 25, min(count, page * 25 + 25)))
            labels = {b["label"] for b in buttons}
            assert ("Next" in labels) == (page < step.pages - 1) and ("Previous" in labels) == (page > 0)
        labels = {b["label"] for b in buttons}
        assert ("Back" in labels) == (depth > 0) and "Done" in labels


def test_every_custom_id_is_read_back_by_its_dynamic_item() -> None:
    step = Step(BIG, BIG, 2, "Choose.", [(f"t{i}", f"O{i}") for i in range(30)], done="x", page=1)
    templates = [cls.__discord_ui_compiled_template__ for cls in DYNAMIC_ITEMS]
    for row in components(step):
        for c in row["components"]:
            assert sum(bool(t.fullmatch(c["custom_id"])) for t in templates) == 1, c["custom_id"]


def test_select_options_carry_descriptions_and_the_prompt_is_in_the_message() -> None:
    """Issue 28: "Select options carry descriptions (up to 100 characters) ...;
    instructions live in the message, not in a placeholder"."""
    options = [(f"t{i}", f"Option {i}") for i in range(8)]
    notes = {f"t{i}": f"Costs {i} gold and gives {i} fame. " + "x" * 80 for i in range(0, 8, 2)}
    notes = {k: v[:100] for k, v in notes.items()}
    prompt = "Choose the tile to place: it must touch the dungeon, doorway against doorway."
    step = Step(1, 1, 0, prompt, options, descriptions=notes)
    text, view, _files = step_message(step)
    (select,) = [c for row in view.to_components() for c in row["components"] if c["type"] == 3]
    assert prompt in text and prompt not in select.get("placeholder", "")
    described = {o["value"]: o.get("description") for o in select["options"]}
    assert described["0"] == notes["t0"] and described["1"] is None
    few = Step(1, 1, 0, prompt, options[:3], descriptions=notes)
    assert f"- Option 0: {notes['t0']}" in few.text  # buttons: the description is in the message


def test_a_select_says_what_each_pick_does_and_the_message_carries_the_turn() -> None:
    """Issue 26 item 3: one select menu with option descriptions (<= 100 characters),
    the instructions in the message, not the placeholder; item 2: the turn message is
    headed by the seat's own state and its turn so far."""
    from cogs.panel import panel_message
    from tables import Panel

    options = [(f"t{i}", f"Place on C{i}") for i in range(12)]
    hints = [
        "Plays this move at once." if i % 2 else "Then: " + "choose the orientation " * 9 for i in range(12)
    ]
    step = Step(BIG, BIG, 1, "Choose where the tile goes.", options, hints=hints)
    panel = Panel(BIG, BIG, step=step, header="Gold 3, food 2.", turn=["Dig a tunnel"])
    text, view, _files = panel_message(panel, "Move taken; your turn goes on.")
    assert text.startswith("Move taken; your turn goes on.\nGold 3, food 2.\nThis turn so far: Dig a tunnel")
    assert "Choose where the tile goes." in text
    (select,) = [c for row in view.to_components() for c in row["components"] if c["type"] == 3]
    assert "Choose where" not in select["placeholder"], "the instructions are in the message"
    descriptions = [o.get("description") for o in select["options"]]
    assert descriptions[1] == "Plays this move at once."
    assert all(d and len(d) <= 100 for d in descriptions)
    buttons = Panel(BIG, BIG, buttons=[("Add 1", 0), ("Add 2", 1)], header="Your card: 4.")
    text, view, _files = panel_message(buttons)
    assert text.startswith("Your card: 4.\nYour choices:")
    assert [c["label"] for row in view.to_components() for c in row["components"]] == ["Add 1", "Add 2"]


def test_the_lobby_offers_each_strength_in_one_menu_that_says_what_it_does() -> None:
    """Issue 30: the lobby's Add AI offers the three strengths, one tap more at most:
    a menu whose options say what each does; its custom_id is read back by its item."""
    from cogs.lobby_view import lobby_view
    from engine.search import LEVELS
    from store import SeatRow
    from tables import Lobby

    lobby = Lobby(BIG, 1, "test-race", "Race", 1, [SeatRow(0, 1, "a", False)], 2, 4, {}, "lobby")
    rows = lobby_view(lobby).to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    items = [c for row in rows for c in row["components"]]
    (menu,) = [c for c in items if c["type"] == 3]
    assert [o["value"] for o in menu["options"]] == list(LEVELS)
    assert [o["description"] for o in menu["options"]] == [lv.blurb for lv in LEVELS.values()]
    assert [o["label"] for o in menu["options"]] == [
        "Easy computer player",
        "Normal computer player",
        "Hard computer player",
    ]
    assert "pick how well it plays in the menu below" in lobby.text, "the instruction is in the message"
    templates = [cls.__discord_ui_compiled_template__ for cls in DYNAMIC_ITEMS]
    for c in items:
        assert sum(bool(t.fullmatch(c["custom_id"])) for t in templates) == 1, c["custom_id"]
    assert [c["label"] for c in items if c["type"] == 2] == ["Join", "Leave", "Start", "Turn hints off"]
    started = Lobby(BIG, 2, "test-race", "Race", 1, [], 2, 4, {}, "active")
    assert lobby_view(started).to_components() == []


@pytest.mark.parametrize(
    "values,index", [(["7"], 7), (["0"], 0), ([], -1), (["seven"], -1), (["1234567"], -1)]
)
async def test_a_pick_in_the_select_picks_that_option(
    values: list[str], index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The select's click (cogs/panel.py StepSelect) picks the option chosen, by its index in
    the step, acknowledged by updating the private message; a value that is not a small
    number is no option (-1: the tables refuse it)."""
    import cogs.moves
    import cogs.panel
    from cogs.panel import StepSelect

    clicked: list[tuple[object, ...]] = []
    acks: list[tuple[int | None, str]] = []

    async def step_click(
        interaction: object, game_id: int, version: int, depth: int, op: str, n: int
    ) -> None:
        clicked.append((interaction, game_id, version, depth, op, n))

    async def guarded(
        interaction: object, game_id: int | None, coro: Any, ack: str = "private", **_: Any
    ) -> Any:
        acks.append((game_id, ack))
        return await coro

    monkeypatch.setattr(cogs.moves, "step_click", step_click)
    monkeypatch.setattr(cogs.panel, "guarded", guarded)
    select = StepSelect(41, 9, 2, [(i, f"Option {i}") for i in range(10)])
    interaction = SimpleNamespace(data={"component_type": 3, "custom_id": "lk:cs:41:9:2", "values": values})
    await select.callback(interaction)  # type: ignore[arg-type]
    assert clicked == [(interaction, 41, 9, 2, "pick", index)]
    assert acks == [(41, "update")]
