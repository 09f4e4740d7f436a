"""The combat news says whose dungeon (issue 40 item 4): adventurers leaving alive name
the dungeon they leave, a battle plan entered for a lord (their only one) is said, and
a dungeon fully conquered does not drop out of the news without a word. From rules
revision 5 the season log stores the news' words; games begun under revision 4 replay
with the words they stored (tests/dungeon_lords/test_dungeon_lords_whose_dungeon.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import core
from engine.core import Event
from engine.dungeon_lords import game as G

GAME = core.get("dungeon-lords")


def _news_of_games(seeds: range, revision: int | None = None) -> tuple[list[str], list[str]]:
    """(the news texts, the stored log lines) of random 3-player games."""
    news: list[str] = []
    logged: list[str] = []
    for seed in seeds:
        state, pick = GAME.new(3, None, seed, revision=revision), random.Random(seed)
        while not GAME.is_over(state):
            seat = pick.choice(sorted(GAME.to_act(state)))
            state, events = GAME.apply(state, seat, pick.choice(GAME.legal_actions(state, seat)))
            news += [e.text for e in events if e.seat is None]
            logged += state["log"]
    return news, logged


@pytest.mark.parametrize("revision", [None, 4])
def test_adventurers_leaving_alive_name_the_dungeon(revision: int | None) -> None:
    news, logged = _news_of_games(range(1, 3), revision)
    leaving = [t for t in news if "dungeon alive" in t]
    assert leaving and all("Player" in t and "'s dungeon alive" in t for t in leaving), leaving[:3]
    assert not [t for t in leaving if "(s)" in t or "1 adventurers" in t or "1 adventurer leave " in t]
    stored = {t for t in logged if "dungeon alive" in t}
    if revision == 4:  # a game begun under revision 4 replays with the words it stored
        assert stored and all(t.endswith("adventurer(s) leave the dungeon alive.") for t in stored)
    else:  # from revision 5 the board's log says what the news says
        assert stored and stored <= set(leaving)


def test_a_plan_entered_for_a_lord_is_said() -> None:
    news, _logged = _news_of_games(range(1, 3))
    assert any("has one possible battle plan this round: it is entered for them" in t for t in news)


def test_a_fully_conquered_dungeon_is_said() -> None:
    """A lord who fought last round and has no tile left: the news says so."""
    state: Any = GAME.new(3, None, 5)
    p = state["players"][1]
    p["party"] = [{"cls": "warrior", "lvl": 1, "hp": 3, "max": 3}]
    for cell in p["grid"]:
        p["grid"][cell]["c"] = True
    events: list[Event] = []
    G._say_conquered(state, [1], events)
    assert [e.text for e in events] == [
        "Player 2's dungeon is fully conquered: no battle is left to fight there."
    ]
    p["party"] = []
    quiet: list[Event] = []
    G._say_conquered(state, [1], quiet)
    assert quiet == [], "no party, no word"
