"""The board image: size, dimensions, and that it draws every phase."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.dungeon_decorators import GAME
from render.dungeon_decorators import render, render_private
from tests.playout import random_playout


def test_four_player_boards_stay_small_and_phone_sized_through_a_game() -> None:
    s = GAME.new(4, None, 21)
    r = random.Random(21)
    phases = set()
    step = 0
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, r.choice(GAME.legal_actions(s, seat)))
        step += 1
        if step % 100 == 0 or s["phase"] not in phases:
            phases.add(s["phase"])
            png = render(GAME.view(s, None))
            assert len(png) <= 250_000
            img = Image.open(io.BytesIO(png))
            assert img.width <= 1200
            private = render_private(GAME.view(s, seat))
            assert private is not None and len(private) <= 250_000
    end = render(GAME.view(s, None))
    assert len(end) <= 250_000 and Image.open(io.BytesIO(end)).width == 1200
    assert {"draft", "build", "over"} <= phases


def test_a_sprawling_dungeon_still_fits() -> None:
    state, _ = random_playout(GAME, 2, 77)
    png = render(GAME.view(state, None))
    assert len(png) <= 250_000


def test_render_is_quick() -> None:
    import time

    state, _ = random_playout(GAME, 4, 9)
    view = GAME.view(state, None)
    render(view)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        render(view)
        times.append(time.perf_counter() - t0)
    assert sorted(times)[1] < 0.4  # ~0.05 s on an idle machine; generous for a busy CI box
