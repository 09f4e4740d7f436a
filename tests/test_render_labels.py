"""No label on any board is cut off (issue 21 item 1).

Every call a renderer makes to ``render.base.text`` while drawing real boards of
every game (opening, middle, final, each seat's area) is recorded. For each label
the test checks that the ink ``text`` puts on the canvas is the ink Pillow draws for
the whole string in the same mode (a mask sized too small loses the tail of the
line: "'=' a ti..."), and that the label lies inside the image."""

from __future__ import annotations

import random
import sys

import pytest
from PIL import Image, ImageDraw

import render
from engine import core
from render import base

GAMES = core.available()


def _states(game: core.Game, players: int, seed: int) -> list[core.State]:
    """The opening, a middle and the final state of one random game."""
    pick = random.Random(seed)
    state = game.new(players, None, seed)
    seen = [state]
    while not game.is_over(state):
        seat = pick.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
        seen.append(state)
    return [seen[0], seen[len(seen) // 2], seen[-1]]


def _ink(s: str, size: int, mono: bool, via_base: bool) -> tuple[int, int, int, int] | None:
    size_px = (int(base.text_width(s, size, mono)) + 4 * size + 40, 4 * size)
    img = Image.new("P" if mono else "RGB", size_px, 0) if via_base else Image.new("L", size_px, 0)
    if via_base and mono:
        img.putpalette([0, 0, 0, 255, 255, 255])
    d = ImageDraw.Draw(img)
    if via_base:
        # The one-bit path is the one palette boards take.
        base.text(d, (20, size), s, size, fill=(255, 255, 255))
    else:
        d.fontmode = "1" if mono else "L"
        d.text((20, size), s, font=base.font(size), fill=255, anchor="la")
    return img.convert("L").point(lambda v: 255 if v else 0).getbbox()


@pytest.mark.parametrize("key", GAMES)
def test_no_label_is_cut_off(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = core.get(key)
    drawer = render.get(key)
    calls: list[tuple[str, int, bool, tuple[float, float], str, tuple[int, int]]] = []
    real = base.text

    def spy(draw, xy, s, size=18, fill="text", anchor="la"):  # type: ignore[no-untyped-def]
        calls.append((s, size, draw.mode not in ("RGB", "RGBA"), xy, anchor, draw.im.size))
        real(draw, xy, s, size, fill, anchor)

    monkeypatch.setattr(base, "text", spy)
    for name, mod in list(sys.modules.items()):
        if name.startswith("render.") and getattr(mod, "text", None) is real:
            monkeypatch.setattr(mod, "text", spy)
    players = game.max_players
    names = render.default_names(players)
    for state in _states(game, players, 7):
        drawer.board(game.view(state, None), names)
        if drawer.area is not None:
            drawer.area(game.view(state, 0), names)
    assert calls, "the renderer drew no label through render.base.text"
    cut: list[str] = []
    for s, size, mono, _xy, _anchor, _canvas in set(calls):
        if _ink(s, size, mono, True) != _ink(s, size, mono, False):
            cut.append(f"{s!r} at {size} px")
    assert not cut, "labels drawn with a cut-off tail: " + "; ".join(sorted(cut)[:10])
    outside: list[str] = []
    for s, size, mono, xy, anchor, (w, h) in set(calls):
        mask, x0, y0 = base._stamp(s, size, anchor, "1" if mono else "L")
        left, top = round(xy[0]) + x0, round(xy[1]) + y0
        if mask.getbbox() and (left < 0 or top < 0 or left + mask.width > w or top + mask.height > h):
            outside.append(f"{s!r} at {size} px, x {left}..{left + mask.width} of {w}")
    assert not outside, "labels running off the image: " + "; ".join(sorted(outside)[:10])
