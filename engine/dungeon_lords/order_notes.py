"""The line under each order in the orders menu (issue 40 item 2): what THAT order costs
and gives at the space its minion would take, within a select option's 100 characters.

Orders are secret and placed together after everyone has chosen: in each of the three
rounds of placement the non-player's card goes first (with fewer than 4 lords), then the
lords in play order, each minion to the lowest free space. A seat cannot know where its
rivals go, so the line names the space the minion takes unless a rival is there first
(the non-player's cards are public, so a space it takes is counted), and the next
space's price when it fits."""

from __future__ import annotations

from engine.core import State

from . import festival, guide
from .board import DUMMY
from .data import LOC

ROMAN = ("I", "II", "III")
# What each space of a location costs and gives (docs/rules/dungeon-lords.md, "The eight
# orders and their spaces"); the index is the space.
SPACE = {
    "food": ("pay 1 gold: 2 food", "Evil +1: 3 food", "Evil +2: 3 food and 1 gold"),
    "rep": ("Evil -1 and a look at a Combat Card", "Evil -2", "pay 1 gold: Evil -2 and a look"),
    "dig": ("up to 2 imps dig a tunnel each", "up to 3 imps dig", "up to 4 imps dig (a 5th supervises)"),
    "mine": ("up to 2 imps mine 1 gold each", "up to 3 imps mine", "up to 4 imps mine (a 5th supervises)"),
    "imps": ("pay 1 food: 1 imp", "pay 2 food: 2 imps", "pay 1 food and 1 gold: 2 imps"),
    "traps": ("pay 1 gold: 1 Trap Card", "free: 1 Trap Card", "pay 2 gold: 2 Trap Cards"),
    "monster": (
        "hire one for its cost, picks last",
        "hire one for its cost",
        "its cost and 1 food, picks first",
    ),
    "room": ("build one free, picks last", "pay 1 gold: build one", "pay 1 gold: build one, picks first"),
}
ROOM = 100  # Discord's limit on a select option's description


def _fit(text: str) -> str:
    if len(text) <= ROOM:
        return text
    return text[: ROOM - 2].rsplit(" ", 1)[0].rstrip(",;:(") + " …"


def first_free(state: State, loc: str, order: int) -> int:
    """The space the seat's ``order``-th minion (0-based) takes at ``loc`` when no rival
    is there first: the non-player's public cards placed before it are counted."""
    taken = 0
    if state["seats"] < 4 and state.get("dummy"):
        taken = sum(1 for c in state["dummy"]["cards"][: order + 1] if c == loc)
    spaces = state["board"].get(loc) or [None, None, None]
    taken += sum(1 for s in spaces if s is not None and s != DUMMY)
    return min(taken, 2)


def order_note(state: State, loc: str, order: int, declined: bool) -> str:
    """The line under one option of the orders menu."""
    name = LOC[loc]["name"]
    if declined:
        return _fit(f"Sends a minion to {name} only to keep a space from a rival: costs and gives nothing")
    if festival.replaced(state) == loc:
        return _fit(guide.BOARDS[state["opps"]["now"]])
    i = first_free(state, loc, order)
    text = f"Space {ROMAN[i]}: {SPACE[loc][i]}"
    if i < 2:
        nxt = f"; if a rival is first, {ROMAN[i + 1]}: {SPACE[loc][i + 1]}"
        text += nxt if len(text) + len(nxt) <= ROOM else ""
    return _fit(text)


def order_notes(state: State, options: list[tuple[str, str]], order: int) -> dict[str, str]:
    """Token -> its line, for the options of the ``order``-th step of the orders menu."""
    return {tok: order_note(state, tok.rstrip("-"), order, tok.endswith("-")) for tok, _label in options}
