"""Shared by the Monster Inn and Dungeon Lair phone tests (issue 28): every label a
renderer draws while drawing real boards and areas, with its size."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

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


def record_labels(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every (label, size) drawn through ``render.base.text`` from now on."""
    calls: list[tuple[str, int]] = []
    real = base.text

    def spy(draw: Any, xy: Any, s: str, size: int = 18, fill: Any = "text", anchor: str = "la", **kw: Any) -> None:
        calls.append((s, size))
        real(draw, xy, s, size, fill, anchor, **kw)

    monkeypatch.setattr(base, "text", spy)
    for name, mod in list(sys.modules.items()):
        if name.startswith("render.") and getattr(mod, "text", None) is real:
            monkeypatch.setattr(mod, "text", spy)
    return calls


def draw_all(key: str, players: int, seed: int) -> None:
    """Boards and each seat's area of a whole random game's opening, middle and end."""
    game, drawer = core.get(key), render.get(key)
    names = render.default_names(players)
    for state in states(game, players, seed):
        drawer.board(game.view(state, None), names)
        for seat in range(players):
            drawer.area(game.view(state, seat), names)


def program_words(lines: list[str]) -> list[str]:
    """Lines that carry program data: a repr, a snake_case key or a None/True/False."""
    import re

    bad = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|\b[a-z]+_[a-z_]+\b")
    return [line for line in lines if bad.search(line)]
