"""Hostile notation: parse refuses any string with IllegalAction and one sentence.

Regression for the reliability fuzzer's crashes (docs/reliability.md): '①'.isdigit() is
True but int('①') raises ValueError, and int() refuses strings of more than 4,300 digits.
"""

from __future__ import annotations

import pytest

from engine import core
from engine.core import IllegalAction

GAME = core.get("dungeon-lair")

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
    "T8 1,1 270①",
    "T8 1,1 ٩٠",
    "T①",
    "T8 H①",
    "S H①",
    "M 0,0 J①",
    "T8 0,0\\n",
    "T8 ①,0 0",
    "T8 0,٣ 0",
    "T8 9999,0 0",
    "S 0,0x",
    "T8 0,,0 0",
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:12]))
def test_parse_refuses_hostile_text_with_a_sentence(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.parse(text)
    sentence = str(refused.value)
    assert sentence.strip() and "Error" not in sentence and "Traceback" not in sentence


def test_the_same_moves_in_plain_digits_still_parse() -> None:
    for text in ["T8 1,1 270", "S 0,0", "M 0,0 2,1", "T8 -1,-1 90", "S -3,2n"]:
        GAME.format(GAME.parse(text))
