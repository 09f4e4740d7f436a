"""Loads and validates the Dungeon Drawers component data (data/dungeon-drawers/*.json).

The rulebook lost its pictures and tables, so the cards, the sheet's improvement
tracks, the hero's hearts and the monsters' damage are house designs; the
numbers live in the JSON files and the reasons in docs/rules/dungeon-drawers.md.
Everything is read through :func:`engine.core.load_data`, which turns a broken
file into one :class:`DataError` sentence at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.core import DataError, load_data

__all__ = ["DataError", "SHEET", "ACTIONS", "CARDS"]

KEY = "dungeon-drawers"
MONSTERS = ("goblin", "orc", "dragon")
TRACKS = ("goblin", "orc", "dragon", "trap", "treasure", "hand")
SIMPLE_ELEMENTS = ("goblin", "orc", "dragon", "trap", "treasure", "improvement")
DUNGEON_EFFECTS = ("bonus", "dice", "reroll", "trap")
HERO_EVENTS = ("turn", "pass", "damage", "fight", "trap")
# The rulebook names these actions; the deck must hold them.
NAMED = {"Healing Potion", "Orc Club", "Talisman", "Ax", "Cursed Blade", "Bomb"}


@dataclass(frozen=True)
class Card:
    id: int
    action: str  # key into ACTIONS
    elements: tuple[str, ...]  # "goblin", ..., or "wall:<shape>"


def _check_sheet(sheet: dict[str, Any]) -> None:
    if sheet.get("columns") != "ABCDEFGH" or sheet.get("rows") != 10:
        raise DataError("sheet.json: the grid must be columns A-H and rows 1-10")
    if sheet.get("entrance") != "A1" or sheet.get("exit") != "H10":
        raise DataError("sheet.json: entrance must be A1 and exit H10")
    if not isinstance(sheet.get("hearts"), int) or sheet["hearts"] < 1:
        raise DataError("sheet.json: hearts must be a positive integer")
    fight = sheet.get("fight", {})
    for k in ("target", "base_dice", "max_dice", "die"):
        if not isinstance(fight.get(k), int) or fight[k] < 1:
            raise DataError(f"sheet.json: fight.{k} must be a positive integer")
    for m in MONSTERS:
        info = sheet.get("monsters", {}).get(m)
        if not info or not isinstance(info.get("points"), int) or not isinstance(info.get("damage"), int):
            raise DataError(f"sheet.json: monster {m} needs integer points and damage")
    for t in TRACKS:
        tr = sheet.get("tracks", {}).get(t)
        if not tr or not isinstance(tr.get("base"), int) or not tr.get("groups"):
            raise DataError(f"sheet.json: track {t} needs a base and groups")
        last = tr["base"]
        for g in tr["groups"]:
            if len(g) != 2 or g[0] < 1 or g[1] <= last:
                raise DataError(f"sheet.json: track {t} groups must be [boxes >= 1, rising level]")
            last = g[1]
    for name, cells in sheet.get("walls", {}).items():
        if not cells or any(len(c) != 2 for c in cells) or len({tuple(c) for c in cells}) != len(cells):
            raise DataError(f"sheet.json: wall shape {name} is malformed")
    setup = sheet.get("setup", {})
    for k in ("removed", "revealed"):
        if sorted(setup.get(k, {})) != ["2", "3", "4"]:
            raise DataError(f"sheet.json: setup.{k} must give 2, 3 and 4 players")


def _check_actions(doc: dict[str, Any]) -> None:
    for key, a in doc["actions"].items():
        if a.get("type") == "dungeon":
            if a.get("effect") not in DUNGEON_EFFECTS:
                raise DataError(f"actions.json: action {key} has an unknown effect")
        elif a.get("type") == "hero":
            if a.get("event") not in HERO_EVENTS:
                raise DataError(f"actions.json: action {key} has an unknown event")
        else:
            raise DataError(f"actions.json: action {key} must be a dungeon or hero action")
        if not a.get("name") or not a.get("text") or not a.get("short"):
            raise DataError(f"actions.json: action {key} needs a name, a text and a short text")
    if not NAMED <= {a["name"] for a in doc["actions"].values()}:
        raise DataError("actions.json lacks one of the rulebook's named actions")


def _check_cards(cards: list[Card], sheet: dict[str, Any], actions: dict[str, Any]) -> None:
    if [c.id for c in cards] != list(range(1, 61)):
        raise DataError("cards.json must hold the 60 cards numbered 1 to 60")
    for c in cards:
        if c.action not in actions:
            raise DataError(f"cards.json: card {c.id} has unknown action {c.action}")
        if not c.elements:
            raise DataError(f"cards.json: card {c.id} has no building elements")
        if sum(1 for e in c.elements if e.startswith("wall:")) > 1:
            raise DataError(f"cards.json: card {c.id}: all walls of a card form one formation")
        for e in c.elements:
            if e.startswith("wall:") and e[5:] not in sheet["walls"]:
                raise DataError(f"cards.json: card {c.id} has unknown wall shape {e}")
            if not e.startswith("wall:") and e not in SIMPLE_ELEMENTS:
                raise DataError(f"cards.json: card {c.id} has unknown element {e}")
    budget = sheet["setup"]
    for n in ("2", "3"):
        if len(cards) - budget["removed"][n] != budget["revealed"][n] * budget["rounds"]:
            raise DataError(f"sheet.json: {n} players do not use the deck up exactly")


def _cards(doc: dict[str, Any]) -> list[Card]:
    try:
        return [Card(int(c["id"]), str(c["action"]), tuple(c["elements"])) for c in doc["cards"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"cards.json has a malformed card ({exc})") from None


SHEET: dict[str, Any] = load_data(KEY, "sheet.json", _check_sheet)
ACTIONS: dict[str, dict[str, Any]] = load_data(KEY, "actions.json", _check_actions)["actions"]
_CARD_LIST = _cards(load_data(KEY, "cards.json"))
_check_cards(_CARD_LIST, SHEET, ACTIONS)
CARDS: dict[int, Card] = {c.id: c for c in _CARD_LIST}

HEARTS: int = SHEET["hearts"]
TARGET: int = SHEET["fight"]["target"]
BASE_DICE: int = SHEET["fight"]["base_dice"]
MAX_DICE: int = SHEET["fight"]["max_dice"]
DIE: int = SHEET["fight"]["die"]  # faces of each die: 1..DIE
DEATH_POINTS: int = SHEET["hero_death_points"]
ROUNDS: int = SHEET["setup"]["rounds"]


def card_name(cid: int) -> str:
    return str(ACTIONS[CARDS[cid].action]["name"])


@cache  # read at every move of a search; the tracks never change
def level(track: str, boxes: int) -> int:
    """The highest unlocked level of ``track`` with ``boxes`` boxes checked."""
    tr = SHEET["tracks"][track]
    value, used = tr["base"], 0
    for size, lvl in tr["groups"]:
        used += size
        if boxes >= used:
            value = lvl
    return int(value)


@cache
def track_size(track: str) -> int:
    return sum(g[0] for g in SHEET["tracks"][track]["groups"])


def element_label(e: str) -> str:
    return f"wall {e[5:]}" if e.startswith("wall:") else e


def elements_text(cid: int) -> str:
    """The card's building elements, left to right: 'wall L3, goblin, goblin, dragon'."""
    return ", ".join(element_label(e) for e in CARDS[cid].elements)


def elements_short(cid: int) -> str:
    """The building elements counted, for labels: 'L3 wall, 2 goblins, dragon'."""
    out: list[str] = []
    els = [f"{e[5:]} wall" if e.startswith("wall:") else e for e in CARDS[cid].elements]
    for e in dict.fromkeys(els):
        k = els.count(e)
        out.append(f"{k} {e}s" if k > 1 else e)
    return ", ".join(out)


def effect_text(cid: int) -> str:
    """What the card does in the defence phase, short: 'hero action: the hero takes 2 less damage once'."""
    a = ACTIONS[CARDS[cid].action]
    return f"{a['type']} action: {a['short']}"


@cache  # the cards never change; the rules write this into an event at every pick
def card_text(cid: int) -> str:
    """The whole card as the table sees it: number, name, effect, building elements."""
    a = ACTIONS[CARDS[cid].action]
    return f"#{cid} {a['name']} ({a['type']}: {a['short']}) builds {elements_text(cid)}"
