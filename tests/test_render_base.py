"""render.base draws labels from cached words: the result must be the very pixels
Pillow draws for the whole string, at every size and anchor the boards use."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from render import base

WORDS = [
    "gold",
    "P2",
    "Alice",
    "3",
    "-1",
    "(x2)",
    "Dig",
    "B3:",
    "food,",
    "imps",
    "Year",
    "W",
    "i",
    "—",
    "→",
    "é",
]


def labels() -> list[str]:
    rnd = random.Random(5)
    out = [
        "",
        " ",
        "a",
        "  two  spaces ",
        "Hello gold 3",
        "Player 1 takes the ghost (4 skulls)",
        "AVAToWaYa",
        "ffifl",
    ]
    for _ in range(60):
        out.append(" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 6))))
    return out


def direct(s: str, size: int, anchor: str, mode: str) -> Image.Image:
    im = Image.new(mode, (900, 120), 0)
    d = ImageDraw.Draw(im)
    d.fontmode = "L" if mode == "L" else "1"
    d.text((450, 60), s, font=base.font(size), fill=255 if mode == "L" else 1, anchor=anchor)
    return im


def composed(s: str, size: int, anchor: str, mode: str) -> Image.Image:
    im = Image.new(mode, (900, 120), 0)
    if s:
        mask, x0, y0 = base._stamp(s, size, anchor, mode)
        im.paste(mask, (450 + x0, 60 + y0))
    return im


@pytest.mark.parametrize("mode", ["L", "1"])
@pytest.mark.parametrize("anchor", ["la", "ls", "ld", "lm", "ma", "mm", "md", "ra", "rm"])
@pytest.mark.parametrize("size", [14, 16, 18, 24])
def test_labels_from_cached_words_are_the_pixels_of_the_whole_string(
    size: int, anchor: str, mode: str
) -> None:
    for s in labels():
        a, b = direct(s, size, anchor, mode), composed(s, size, anchor, mode)
        assert ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None, (s, size, anchor)


def test_text_width_is_pillows_length() -> None:
    for s in labels():
        for size in (16, 18, 24):
            assert base.text_width(s, size) == base.font(size).getlength(s), (s, size)


def test_text_on_a_board_matches_pillow() -> None:
    img, draw = base.canvas(400, 80)
    base.text(draw, (200, 40), "Player 2 pays 3 gold", 18, "accent", "mm")
    ref, rdraw = base.canvas(400, 80)
    rdraw.text(
        (200, 40), "Player 2 pays 3 gold", font=base.font(18), fill=base.PALETTE["accent"], anchor="mm"
    )
    assert ImageChops.difference(img, ref).getbbox() is None
