"""Renderers: a game's view -> PNG bytes, behind one protocol and one registry.

Each ``render/<module>.py`` defines ``RENDERER = Renderer(board=..., ...)``.
Every function reads views only (``Game.view``), never the state or the
engine's data, and receives ``names``: the players' display names by seat
(``names[seat]``), already shortened by the tables layer, which the image uses
wherever it names a player.

- ``board(view, names) -> bytes``: the public board (required). On the last
  board (``view["over"]``-style flag of the game) it shows the final scores and
  the winner.
- ``area(view, names) -> bytes``: the seat's own part of the game ("my area"),
  about 600 px wide at twice the scale, for the seat's private reply (optional).
- ``steps(view_before, view_after, names) -> list[Callable[[], bytes]]``: jobs,
  each drawing one image of what happened between two public views (e.g. each
  step of a battle), run on worker threads (optional).
- ``preview(view, preview, names) -> bytes``: a small image of a half-made move
  of the chooser (``Choice.preview``), e.g. a hero path so far (optional).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

View = dict[str, Any]
Names = list[str]


@dataclass(frozen=True)
class Renderer:
    board: Callable[[View, Names], bytes]
    area: Callable[[View, Names], bytes | None] | None = None
    steps: Callable[[View, View, Names], list[Callable[[], bytes]]] | None = None
    preview: Callable[[View, dict[str, Any], Names], bytes] | None = None
    # A picture beside a section of the /rules guide: guide(section, Game.guide_view(section)).
    guide: Callable[[str, View], bytes] | None = None


# Game key -> renderer, filled on first use (tests may register their own).
REGISTRY: dict[str, Renderer] = {}


def get(game_key: str) -> Renderer:
    """The renderer of ``game_key`` (``render/<engine module>.py``'s RENDERER)."""
    if game_key not in REGISTRY:
        from engine import core

        module = importlib.import_module(f"render.{core.MODULES[game_key]}")
        REGISTRY[game_key] = module.RENDERER
    return REGISTRY[game_key]


def register(game_key: str, renderer: Renderer) -> None:
    REGISTRY[game_key] = renderer


def default_names(seats: int) -> Names:
    """Names for a board drawn outside Discord (tests, benchmarks, selfplay)."""
    return [f"Player {k + 1}" for k in range(seats)]
