"""What each option of a chooser step says under its label (a select option's
description, issue 40 item 2): the game's own words or the hint of what picking it
does, with the players' names in, fitted to Discord's 100 characters at a word, and
never the same for two options of one menu."""

from __future__ import annotations

from engine.core import Choice
from store import GameRow
from tables.text import named

DESCRIPTION_MAX = 100  # Discord's limit on a select option's description


def fit_words(text: str, room: int = DESCRIPTION_MAX) -> str:
    """``text`` in at most ``room`` characters, cut between words (never in one)."""
    text = " ".join(text.split())
    if len(text) <= room:
        return text
    return text[: room - 1].rsplit(" ", 1)[0].rstrip(",;:(-") + "…"


def described(row: GameRow, choice: Choice) -> dict[str, str]:
    """The chooser's option descriptions with the players' names in, each fitted to
    a select option's 100 characters at a word."""
    return {tok: fit_words(named(row, text)) for tok, text in (choice.descriptions or {}).items()}


def told_apart(
    row: GameRow, out: list[str], nexts: list[Choice | None], shown: list[tuple[str, str]]
) -> list[str]:
    """Hints that two options share ("Then: Choose the square.") say instead what the
    next step offers after that option, which is what sets them apart; where even
    that is shared, the option's own words lead."""
    shared = {text for text in out if text and out.count(text) > 1}
    for k, text in enumerate(out):
        nxt = nexts[k]
        if text in shared and nxt is not None and nxt.options:
            labels = ", ".join(named(row, label) for _tok, label in nxt.options)
            few = (
                f"Then: {labels}"
                if len(nxt.options) == 1
                else f"Then {len(nxt.options)} to choose from: {labels}"
            )
            out[k] = fit_words(few)
    shared = {text for text in out if text and out.count(text) > 1}
    for k, text in enumerate(out):
        if text in shared:
            out[k] = fit_words(f"{named(row, shown[k][1])}; {text[0].lower()}{text[1:]}")
    return out
