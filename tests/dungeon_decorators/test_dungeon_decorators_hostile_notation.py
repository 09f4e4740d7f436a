"""Hostile notation: parse refuses any string with IllegalAction and one sentence.

Regression for the reliability fuzzer's crashes (docs/reliability.md): '①'.isdigit() is
True but int('①') raises ValueError, and int() refuses strings of more than 4,300 digits.
"""

from __future__ import annotations

import pytest

from engine import core
from engine.core import IllegalAction

GAME = core.get("dungeon-decorators")

HOSTILE = [
    "①",
    ",",
    "",
    " ",
    "1,,",
    ",,,",
    "\x00",
    "9" * 400,
    "9" * 5000,
    "٣",
    "Ａ１",
    "\u200b",
    "\ud800",
    "70 D AP41①",
    "10①",
    "draft 17①",
    "draft ٣",
    "move AP41 J① 90",
    "store " + "9" * 5000,
    "score S①",
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:12]))
def test_parse_refuses_hostile_text_with_a_sentence(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.parse(text)
    sentence = str(refused.value)
    assert sentence.strip() and "Error" not in sentence and "Traceback" not in sentence


def test_the_same_moves_in_plain_digits_still_parse() -> None:
    for text in ["draft 171", "store 171", "move AP41 AR41 90"]:
        GAME.format(GAME.parse(text))
