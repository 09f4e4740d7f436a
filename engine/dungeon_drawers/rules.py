"""Facts about one dungeon every phase uses: levels, what the hero faces, fight odds, scoring."""

from __future__ import annotations

from functools import cache
from itertools import product
from typing import Any

from engine.core import State

from . import board
from .data import ACTIONS, CARDS, DEATH_POINTS, DIE, SHEET, TARGET, TRACKS, level, track_size

MONSTERS = board.MONSTER_KINDS


def empty_sheet() -> dict[str, Any]:
    return {"grid": {}, "crossed": [], "treasures": [], "imp": {t: 0 for t in TRACKS}}


def copy_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    """A copy of a sheet, as ``copy.deepcopy`` makes it: its parts (the grid, the crossed-off
    spaces, the treasures, the improvement boxes) hold names and counts only."""
    return {k: v.copy() if isinstance(v, (dict, list)) else v for k, v in sheet.items()}


def active_kind(sheet: dict[str, Any], cell: str) -> str | None:
    """The trap or monster the hero must face on ``cell`` (None if crossed off or empty)."""
    k = sheet["grid"].get(cell)
    if k in board.BLOCKER_KINDS and cell not in sheet["crossed"]:
        return str(k)
    return None


# Every track's level for every count of boxes (levels are read at every move of a search).
_LEVELS = {(t, b): level(t, b) for t in TRACKS for b in range(track_size(t) + 1)}


def levels(sheet: dict[str, Any]) -> dict[str, int]:
    imp = sheet["imp"]
    try:
        return {t: _LEVELS[t, imp[t]] for t in TRACKS}
    except KeyError:  # a count of boxes outside the track: computed as always
        return {t: level(t, imp[t]) for t in TRACKS}


@cache
def p_win(bonus: int, dice: int = 2) -> float:
    """Chance that ``dice`` dice of the game (faces 1..DIE) plus ``bonus`` reach the fight target."""
    rolls = list(product(range(1, DIE + 1), repeat=dice))
    return sum(1 for r in rolls if sum(r) + bonus >= TARGET) / len(rolls)


def score_player(p: dict[str, Any]) -> dict[str, int]:
    """Final scoring of one dungeon (rulebook p.13)."""
    sheet = p["sheet"]
    lv = levels(sheet)
    guarded = [t for t in sheet["treasures"] if active_kind(sheet, t) in MONSTERS]
    monsters = sum(
        SHEET["monsters"][k]["points"]
        for c, k in sheet["grid"].items()
        if k in MONSTERS and c not in sheet["crossed"]
    )
    hero = p["hero"]
    return {
        "treasures": len(guarded) * lv["treasure"],
        "monsters": monsters,
        "hero death": DEATH_POINTS if hero["state"] == "dead" else 0,
        "hearts left": -hero["hearts"] if hero["state"] == "escaped" else 0,
    }


def crossed_monsters(p: dict[str, Any]) -> int:
    sheet = p["sheet"]
    return sum(1 for c in sheet["crossed"] if sheet["grid"].get(c) in MONSTERS)


def fight_strength(state: State, seat: int) -> int:
    """The monster's strength now: dice + improvement + played bonuses - the hero's Swords."""
    enc = state["encounter"]
    p = state["players"][seat]
    swords = sum(ACTIONS["sword"]["amount"] for h in p["on"] if CARDS[h["card"]].action == "sword")
    return int(sum(enc["dice"]) + levels(p["sheet"])[enc["kind"]] + enc["bonus"] - swords)
