"""Goal cards where they are chosen, discarded or scored (issue 40 item 3): each menu
option naming a goal says what the goal needs, not only its code and points; and the
two goals discarded at the start are picked in any order (the first step offers all
six, the second the five others). A chooser-level change: the move, its notation and
the state are the same ("discard S5 D21")."""

from __future__ import annotations

import re
from typing import Any

from . import rules as R

ROOM = 100  # Discord's limit on a select option's description
_GOAL_TOKEN = re.compile(r"^(?:score|discard)?([SD]\d{1,3})$")


def _fit(text: str) -> str:
    if len(text) <= ROOM:
        return text
    return text[: ROOM - 2].rsplit(" ", 1)[0].rstrip(",;:(") + " …"


def goal_needs(gid: str) -> str:
    """What goal ``gid`` needs, in words: "2x painted room with 2+ decorations, in a
    shape 2 wide and 1 tall" or "1x swords, 1x spikes in one room"."""
    from .views import goal_info

    g = goal_info(gid)
    text = str(g["text"]).removeprefix("Shape: ")
    if g["kind"] == "shape":
        rows = R.GOALS[gid]["rows"]
        wide = max(len(r.split()) for r in rows)
        text += f", in a shape {wide} wide and {len(rows)} tall"
    return text


def goal_need(gid: str) -> str:
    """What goal ``gid`` needs and gives, within a menu option's 100 characters: "8 points:
    2x painted room with 2+ decorations, in a shape 2 wide and 1 tall"."""
    return _fit(f"{R.GOALS[gid]['points']} points: {goal_needs(gid)}")


def goal_of(token: str) -> str | None:
    """The goal a chooser token names ("S26", "scoreS26", "discardD5"), or None."""
    m = _GOAL_TOKEN.match(token)
    return m[1] if m and m[1] in R.GOALS else None


def goal_notes(options: list[tuple[str, str]]) -> dict[str, str]:
    """Token -> what its goal needs, for the options that name a goal."""
    return {tok: goal_need(g) for tok, _label in options if (g := goal_of(tok)) is not None}


def either_order(steps: list[tuple[Any, list[tuple[str, str]]]]) -> list[tuple[Any, list[tuple[str, str]]]]:
    """The chooser's paths with each two-card discard also offered the other way round:
    any two goals, in any order (the move is the same)."""
    out = list(steps)
    for action, segs in steps:
        if isinstance(action, dict) and action.get("a") == "discard" and len(segs) == 2:
            (g1, first), (g2, second) = segs
            out.append(
                (
                    action,
                    [
                        (g2, "Discard " + second.removeprefix("and ")),
                        (g1, "and " + first.removeprefix("Discard ")),
                    ],
                )
            )
    return out


def in_hand_order(options: list[tuple[str, str]], hand: list[str]) -> list[tuple[str, str]]:
    """The options in the order the goals lie in the hand (the board's order)."""
    place = {g: i for i, g in enumerate(hand)}
    return sorted(options, key=lambda o: place.get(o[0], len(hand)))
