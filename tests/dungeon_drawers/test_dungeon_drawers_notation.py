"""Notation: short typeable moves, clear sentences for bad input, nothing changed on refusal."""

from __future__ import annotations

import copy

import pytest

from engine.core import IllegalAction
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, defend_state, sheet_from

EXAMPLES = [
    "take 12",
    "wall C3 C4 D4",
    "goblin C5",
    "orc A1",
    "dragon H10",
    "trap E2",
    "treasure B7",
    "improve hand",
    "erase",
    "done",
    "path A1 A5 C5 C10 H10",
    "play 7",
    "resolve",
    "hero 12 Player 2",
    "refill",
    "refill 12 7",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trips(text: str) -> None:
    assert GAME.format(GAME.parse(text)) == text


def test_aliases_and_case() -> None:
    assert GAME.parse("WALL d4 c3 C4") == GAME.parse("wall C3 C4 D4")
    assert GAME.parse("imp orc") == GAME.parse("improve orc")
    assert GAME.parse("fight") == {"t": "resolve"}
    # a seat is written as core.seat_ref writes it; the short forms are read too
    assert GAME.parse("hero #12 2") == GAME.parse("hero 12 P2") == GAME.parse("hero 12 player2")
    assert GAME.parse("hero 12 P2") == {"t": "hero", "card": 12, "to": 1}


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("", "Type a move"),
        ("take", "take and a card number"),
        ("take 61", "not a card number"),
        ("goblin Z9", "not a space"),
        ("goblin C11", "not a space"),
        ("treasure", "treasure and one space"),
        ("improve gold", "improve and a category"),
        ("path A1 B2", "not a straight line"),
        ("path A1 A1", "named twice"),
        ("hero 12", "hero, a card number and a player"),
        ("hero 12 P7", "Name the dungeon"),
        ("dance", "Unknown move"),
    ],
)
def test_bad_input_is_one_clear_sentence(text: str, sentence: str) -> None:
    with pytest.raises(IllegalAction, match=sentence) as info:
        GAME.parse(text)
    assert str(info.value).endswith(".")


def test_a_refused_move_changes_nothing() -> None:
    state = GAME.new(2, {"setup": {"deck": list(range(1, 43))}}, 1)
    before = copy.deepcopy(state)
    for text in ("take 40", "goblin C5", "resolve", "path A1 H1 H10"):
        with pytest.raises(IllegalAction):
            act(state, 0, text)
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 1, "take 2")
    assert state == before


def test_pass_action_only_in_phase_c() -> None:
    state = GAME.new(2, None, 1)
    assert GAME.pass_action(state, 0) is None
    path = GAME.parse("path A1 A10 H10")["cells"]
    state = defend_state(
        [sheet_from(["...g...."] + EMPTY[1:]), sheet_from(EMPTY)], [path, path], started=False
    )
    assert GAME.pass_action(state, 0) == {"t": "refill", "under": []}
    assert GAME.pass_action(state, 1) is None


def test_malformed_actions_are_refused_not_crashed() -> None:
    state = GAME.new(2, {"setup": {"deck": list(range(1, 43))}}, 1)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, {"t": "take", "card": "x"})
    state, _ = act(state, 0, "take 1")
    for bad in (
        {"t": "wall", "cells": ["Z9", "A2", "A3"]},
        {"t": "wall", "cells": ["B2", "B2", "B3"]},
        {"t": "place", "kind": "goblin", "at": 5},
        "goblin C5",
        {"x": 1},
    ):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, bad)
