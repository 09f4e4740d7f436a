"""The live private turn message (cogs/live.py, issue 26): which message of a player is
live, how long its token is used, and what carrying a turn into it does (the players
to edit, a refused token forgotten, the mover left to their own answer)."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs import live, turn_message
from cogs.live import LiveTurns
from cogs.panel import choices_version
from tables import Panel, Step, TableError, Update


class FakeInteraction:
    """What LiveTurns and carry_turns use of a discord.Interaction."""

    def __init__(self, fail: int | None = None) -> None:
        self.extras: dict[str, Any] = {}
        self.edits: list[dict[str, Any]] = []
        self.fail = fail

    async def edit_original_response(self, **kw: Any) -> None:
        if self.fail is not None:
            resp = SimpleNamespace(status=self.fail, reason="Unauthorized")
            raise discord.HTTPException(resp, {"code": 50027, "message": "Invalid Webhook Token"})
        self.edits.append(kw)


def test_the_newest_message_is_live_and_the_older_one_is_handed_back_to_retire() -> None:
    turns = LiveTurns(seconds=60)
    first, click, again = FakeInteraction(), FakeInteraction(), FakeInteraction()
    assert turns.keep(1, 7, first, 100, version=3) is None  # "Your move": nothing older
    assert turns.keep(1, 7, click, 100, version=4) is None  # a click on the same message
    assert turns.get(1, 7) is not None and turns.get(1, 7).interaction is click  # type: ignore[union-attr]
    old = turns.keep(1, 7, again, 200, version=4)  # "Your move" pressed again: a new message
    assert old is not None and old.message_id == 100 and old.interaction is click
    assert turns.get(1, 7).message_id == 200  # type: ignore[union-attr]
    assert turns.get(2, 7) is None and turns.get(1, 8) is None  # per game and per player


def test_a_token_is_used_only_within_the_margin() -> None:
    turns = LiveTurns(seconds=60)
    i = FakeInteraction()
    i.extras["lk_received"] = time.monotonic() - 61  # received 61 s ago
    turns.keep(1, 7, i, 100)
    assert turns.get(1, 7) is None and len(turns) == 0  # too old: forgotten
    fresh = FakeInteraction()
    turns.keep(1, 7, fresh, 100)
    assert turns.get(1, 7) is not None
    turns.drop(1, 7, live=live.Live(FakeInteraction(), 5, 0.0))  # another record: kept
    assert turns.get(1, 7) is not None
    turns.drop(1, 7)
    assert turns.get(1, 7) is None


@pytest.mark.parametrize(
    ("value", "seconds"), [("", 840), ("0", 0), ("120", 120), ("3600", 900), ("soon", 840)]
)
def test_the_margin_setting(monkeypatch: pytest.MonkeyPatch, value: str, seconds: float) -> None:
    monkeypatch.setenv(live.ENV, value)
    assert live.live_seconds() == seconds


class FakeTables:
    def __init__(self, acting: set[int]) -> None:
        self.acting = acting
        self.asked: list[int] = []

    async def panel(self, game_id: int, user_id: int, version: int) -> Panel:
        self.asked.append(user_id)
        if user_id not in self.acting:
            raise TableError("It is not your turn.")
        return Panel(game_id, version, buttons=[("Take the room", 0)], header=f"Your gold: {user_id}")


def client_with(tables: FakeTables) -> Any:
    return SimpleNamespace(tables=tables, live_turns=LiveTurns(seconds=60))


async def test_a_new_turn_is_carried_into_each_pinged_players_live_message() -> None:
    tables = FakeTables(acting={11, 12})
    client = client_with(tables)
    a, b, mover = FakeInteraction(), FakeInteraction(), FakeInteraction()
    client.live_turns.keep(5, 11, a, 1, version=9)
    client.live_turns.keep(5, 12, b, 2, version=None)
    client.live_turns.keep(5, 13, mover, 3, version=9)
    update = Update(5, 10, 77, "board", ping=[11, 12, 13, 14], private={12: "You drew the Troll."})
    n = await turn_message.carry_turns(client, update, skip=13)
    assert n == 2 and tables.asked == [11, 12]  # 13 answers their own click; 14 has no live message
    (edit,) = b.edits
    assert edit["content"].startswith("You drew the Troll.\n" + turn_message.YOUR_TURN)
    assert "Your gold: 12" in edit["content"] and "Your gold: 11" not in edit["content"]
    assert choices_version(edit["view"]) == 10
    assert client.live_turns.get(5, 12).version == 10  # its choices are of the new version now
    assert "drew" not in a.edits[0]["content"]  # another player's private news stays theirs
    assert mover.edits == []


async def test_a_player_still_choosing_gets_choices_brought_up_to_date_once() -> None:
    tables = FakeTables(acting={11, 12})
    client = client_with(tables)
    stale, fresh = FakeInteraction(), FakeInteraction()
    client.live_turns.keep(5, 11, stale, 1, version=8)
    client.live_turns.keep(5, 12, fresh, 2, version=10)
    update = Update(5, 10, 77, "", post=False, acting=[11, 12])
    assert await turn_message.carry_turns(client, update) == 1
    assert stale.edits[0]["content"].startswith(turn_message.MOVED_ON) and fresh.edits == []
    assert await turn_message.carry_turns(client, update) == 0  # up to date now: not edited again


class KeptDraftTables(FakeTables):
    """A player half-way through a move that outlived another seat's move."""

    async def panel(self, game_id: int, user_id: int, version: int) -> Panel:
        step = Step(game_id, version, 1, "Choose the square.", [(f"C{i}", f"C{i}") for i in range(8)])
        step.note = "The game moved on meanwhile; your choices so far still stand."
        return Panel(game_id, version, step=step, header="Your gold: 3")


async def test_a_choice_that_survived_another_move_is_told_so_once() -> None:
    """Issue 40: "two notes saying the same thing to a player whose choice survived
    another's move": the step's note says it, the message adds no second one."""
    tables = KeptDraftTables(acting={11})
    client = client_with(tables)
    stale = FakeInteraction()
    client.live_turns.keep(5, 11, stale, 1, version=8)
    assert await turn_message.carry_turns(client, Update(5, 10, 77, "", post=False, acting=[11])) == 1
    content = stale.edits[0]["content"]
    assert "still stand" in content and turn_message.MOVED_ON not in content


async def test_a_refused_token_is_forgotten_and_nothing_fails() -> None:
    tables = FakeTables(acting={11})
    client = client_with(tables)
    client.live_turns.keep(5, 11, FakeInteraction(fail=401), 1, version=9)
    assert await turn_message.carry_turns(client, Update(5, 10, 77, "", ping=[11])) == 0
    assert client.live_turns.get(5, 11) is None  # the player presses "Your move" next time


async def test_nothing_is_carried_when_the_game_is_over_or_not_theirs() -> None:
    tables = FakeTables(acting=set())
    client = client_with(tables)
    i = FakeInteraction()
    client.live_turns.keep(5, 11, i, 1, version=9)
    assert await turn_message.carry_turns(client, Update(5, 10, 77, "", ping=[11], over=True)) == 0
    assert await turn_message.carry_turns(client, Update(5, 10, 77, "", ping=[11])) == 0  # TableError
    assert i.edits == [] and client.live_turns.get(5, 11) is not None
