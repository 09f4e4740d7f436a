"""Wording the issue quotes (issue 28 item 6): "1 games played", "can paused / handed /
resumed / extended a game", "ann plan the battle"."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import Store
from tables import TableError, Tables
from tables.text import plural


@pytest.fixture
async def tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "w.db")).open()
    yield Tables(store)
    await store.close()


def test_counts_agree_with_their_nouns() -> None:
    assert plural(1, "game") == "1 game" and plural(2, "game") == "2 games" and plural(0, "win") == "0 wins"


async def test_host_only_refusals_use_the_verb(tables: Tables) -> None:
    lobby = await tables.create(1, "Ann", "dungeon-lair", seed=3)
    await tables.join(lobby.game_id, 2, "Bob")
    await tables.start(lobby.game_id, 1)
    for act, verb in ((tables.pause, "pause"), (tables.extend, "extend")):
        with pytest.raises(TableError) as err:
            await act(lobby.game_id, 2, False)
        assert str(err.value) == f"Only the host or a member with Manage Server can {verb} a game."
    with pytest.raises(TableError, match="can hand over a seat of a game"):
        await tables.hand_seat(lobby.game_id, 2, 0, 3, "Cy", False)


def test_one_lord_plans_the_battle() -> None:
    """Dungeon Lords' status: "Ann plans the battle", never "Ann plan the battle"."""
    from engine.dungeon_lords import views

    state = {"phase": "plan", "year": 1, "round": 1, "combat": {"round": 2}}

    class One:
        def to_act(self, _state: object) -> set[int]:
            return {0}

    class Two:
        def to_act(self, _state: object) -> set[int]:
            return {0, 1}

    assert views.status(One(), state).endswith("Player 1 plans the battle.")
    assert views.status(Two(), state).endswith("Player 1, Player 2 plan the battle.")
