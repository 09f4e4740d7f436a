"""Shared by the Monster Inn and Dungeon Lair phone tests and tests/test_render_labels.py
(issue 28): the states a random game passes through, and every label a
renderer draws while drawing real boards and areas, with its size."""

from __future__ import annotations

import random

import render
from engine import core
from render import base


def states(game: core.Game, players: int, seed: int) -> list[core.State]:
    """The opening, a middle and the final state of one random game."""
    pick = random.Random(seed)
    state = game.new(players, None, seed)
    seen = [state]
    while not game.is_over(state):
        seat = pick.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
        seen.append(state)
    return [seen[0], seen[len(seen) // 2], seen[-1]]


def draw_all(key: str, players: int, seed: int) -> None:
    """Boards and each seat's area of a whole random game's opening, middle and end."""
    game, drawer = core.get(key), render.get(key)
    names = render.default_names(players)
    for state in states(game, players, seed):
        drawer.board(game.view(state, None), names)
        for seat in range(players):
            drawer.area(game.view(state, seat), names)


# Issue 28: "no text under 26 px; the title, whose turn, scores and the numbers a
# player decides by at 36 px or more".
FLOOR, BIG = 26, 36


def labels_over_floor(key: str, players: int, seed: int) -> list[tuple[str, int]]:
    """Every (label, size) of a whole random game's boards and areas, checked to be at
    least FLOOR px; the caller checks which of them must be BIG."""
    with base.recording() as labels:
        draw_all(key, players, seed)
    calls = [(lab.s, lab.size) for lab in labels]
    small = sorted({(s, z) for s, z in calls if z < FLOOR})
    assert not small, f"labels under {FLOOR} px: {small[:8]}"
    return calls


def check_upgrade_without_last(game: core.Game, players: int, seed: int) -> None:
    """A game stored before the last turn was kept (revision 2, no "last") upgrades to an
    empty last turn, and its board draws."""
    state = game.new(players, None, seed, revision=2)
    state.pop("last", None)
    up = game.upgrade(state)
    assert up.get("last") is None
    render.get(game.key).board(game.view(up, None), render.default_names(players))


def program_words(lines: list[str]) -> list[str]:
    """Lines that carry program data: a repr, a snake_case key or a None/True/False."""
    import re

    bad = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|\b[a-z]+_[a-z_]+\b")
    return [line for line in lines if bad.search(line)]
