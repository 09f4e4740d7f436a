"""Builders for constructed Dungeon Drawers positions."""

from __future__ import annotations

from typing import Any

from engine import core
from engine.core import State
from engine.dungeon_drawers import board
from engine.dungeon_drawers.data import CARDS, DIE

GAME = core.get("dungeon-drawers")
KINDS = {"#": "wall", "g": "goblin", "o": "orc", "d": "dragon", "t": "trap"}


def sheet_from(
    rows: list[str], treasures: list[str] | None = None, imp: dict[str, int] | None = None
) -> dict:
    """A sheet from 10 strings of 8 characters: # wall, g goblin, o orc, d dragon, t trap, . empty."""
    assert len(rows) == 10 and all(len(r) == 8 for r in rows)
    grid = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in KINDS:
                grid[board.ALL_CELLS[y * 8 + x]] = KINDS[ch]
    sheet = {
        "grid": grid,
        "crossed": [],
        "treasures": list(treasures or []),
        "imp": {t: 0 for t in ("goblin", "orc", "dragon", "trap", "treasure", "hand")},
    }
    sheet["imp"].update(imp or {})
    return sheet


EMPTY = ["........"] * 10


def cards_with(action: str) -> list[int]:
    return [c.id for c in CARDS.values() if c.action == action]


def build_state(players: int = 2, seed: int = 1, revision: int | None = None, **setup: Any) -> State:
    stack_dice(setup.get("dice", []))
    return GAME.new(players, {"setup": setup} if setup else None, seed, revision)


def defend_state(
    sheets: list[dict],
    paths: list[list[str]],
    hands: list[list[int]] | None = None,
    decks: list[list[int]] | None = None,
    dice: list[int] | None = None,
    turn: int = 0,
    started: bool | list[bool] = True,
    seed: int = 1,
) -> State:
    """A Phase C position at the start of ``turn``'s turn (the hero moves at once if ``started``).
    ``dice`` are the next dice rolled; each must be a face of the game's dice."""
    stack_dice(dice or [])
    n = len(sheets)
    state = GAME.new(n, None, seed)
    state.update(phase="defend", round=14, display=[], queue=[], stack=list(dice or []))
    for s, p in enumerate(state["players"]):
        p["sheet"] = sheets[s]
        p["path"] = paths[s]
        p["hand"] = list((hands or [[]] * n)[s])
        p["deck"] = list((decks or [[]] * n)[s])
        p["taken"] = p["hand"] + p["deck"]
        p["started"] = started if isinstance(started, bool) else started[s]
    state["turn"] = turn
    events: list = []
    GAME._begin_turn(state, events)
    return state


def stack_dice(dice: list[int]) -> list[int]:
    """Dice a test stacks: every value must be one the game's dice can show (1..DIE), so no
    test can reach a rulebook example with a die the components do not have."""
    bad = [d for d in dice if not (isinstance(d, int) and 1 <= d <= DIE)]
    assert not bad, f"stacked dice {bad} are not faces of a {DIE}-sided die"
    return list(dice)


def act(state: State, seat: int, text: str) -> tuple[State, list]:
    return GAME.apply(state, seat, GAME.parse(text))


def path_state(sheets: list[dict], seed: int = 1) -> State:
    """A Phase B position with the given dungeons (each player holds 14 cards)."""
    n = len(sheets)
    state = GAME.new(n, None, seed)
    ids = list(range(1, 61))
    state.update(phase="path", round=14, display=[], queue=[], deck=[], discard=ids[14 * n :], boxed=0)
    for s, p in enumerate(state["players"]):
        p["sheet"] = sheets[s]
        p["taken"] = ids[14 * s : 14 * s + 14]
    return state
