"""Loads and validates the Dungeon Drawers component data (data/dungeon-drawers/*.json).

The rulebook lost its pictures and tables, so the cards, the sheet's improvement
tracks, the hero's hearts and the monsters' damage are house designs; the
numbers live in the JSON files and the reasons in docs/rules/dungeon-drawers.md.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "dungeon-drawers"

MONSTERS = ("goblin", "orc", "dragon")
TRACKS = ("goblin", "orc", "dragon", "trap", "treasure", "hand")
SIMPLE_ELEMENTS = ("goblin", "orc", "dragon", "trap", "treasure", "improvement")
DUNGEON_EFFECTS = ("bonus", "dice", "reroll", "trap")
HERO_EVENTS = ("turn", "pass", "damage", "fight", "trap")


class DataError(ValueError):
    """A data file is missing or inconsistent."""


@dataclass(frozen=True)
class Card:
    id: int
    action: str  # key into ACTIONS
    elements: tuple[str, ...]  # "goblin", ..., or "wall:<shape>"


def _fail(msg: str) -> None:
    raise DataError(f"data/dungeon-drawers: {msg}")


def _load(name: str) -> Any:
    path = DATA_DIR / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _fail(f"{name} is missing")
    except json.JSONDecodeError as exc:
        _fail(f"{name} is not valid JSON ({exc})")


def _check_sheet(sheet: dict[str, Any]) -> None:
    if sheet.get("columns") != "ABCDEFGH" or sheet.get("rows") != 10:
        _fail("sheet.json: the grid must be columns A-H and rows 1-10")
    if sheet.get("entrance") != "A1" or sheet.get("exit") != "H10":
        _fail("sheet.json: entrance must be A1 and exit H10")
    if not isinstance(sheet.get("hearts"), int) or sheet["hearts"] < 1:
        _fail("sheet.json: hearts must be a positive integer")
    fight = sheet.get("fight", {})
    for k in ("target", "base_dice", "max_dice"):
        if not isinstance(fight.get(k), int):
            _fail(f"sheet.json: fight.{k} must be an integer")
    for m in MONSTERS:
        info = sheet.get("monsters", {}).get(m)
        if not info or not isinstance(info.get("points"), int) or not isinstance(info.get("damage"), int):
            _fail(f"sheet.json: monster {m} needs integer points and damage")
    for t in TRACKS:
        tr = sheet.get("tracks", {}).get(t)
        if not tr or not isinstance(tr.get("base"), int) or not tr.get("groups"):
            _fail(f"sheet.json: track {t} needs a base and groups")
        last = tr["base"]
        for g in tr["groups"]:
            if len(g) != 2 or g[0] < 1 or g[1] <= last:
                _fail(f"sheet.json: track {t} groups must be [boxes >= 1, rising level]")
            last = g[1]
    for name, cells in sheet.get("walls", {}).items():
        if not cells or any(len(c) != 2 for c in cells) or len({tuple(c) for c in cells}) != len(cells):
            _fail(f"sheet.json: wall shape {name} is malformed")
    setup = sheet.get("setup", {})
    for k in ("removed", "revealed"):
        if sorted(setup.get(k, {})) != ["2", "3", "4"]:
            _fail(f"sheet.json: setup.{k} must give 2, 3 and 4 players")


def _check_cards(cards: list[Card], sheet: dict[str, Any], actions: dict[str, Any]) -> None:
    if [c.id for c in cards] != list(range(1, 61)):
        _fail("cards.json must hold the 60 cards numbered 1 to 60")
    for c in cards:
        if c.action not in actions:
            _fail(f"card {c.id} has unknown action {c.action}")
        if not c.elements:
            _fail(f"card {c.id} has no building elements")
        walls = [e for e in c.elements if e.startswith("wall:")]
        if len(walls) > 1:
            _fail(f"card {c.id}: all walls of a card form one formation")
        for e in c.elements:
            if e.startswith("wall:"):
                if e[5:] not in sheet["walls"]:
                    _fail(f"card {c.id} has unknown wall shape {e}")
            elif e not in SIMPLE_ELEMENTS:
                _fail(f"card {c.id} has unknown element {e}")
    for key, a in actions.items():
        if a.get("type") == "dungeon":
            if a.get("effect") not in DUNGEON_EFFECTS:
                _fail(f"action {key} has an unknown effect")
        elif a.get("type") == "hero":
            if a.get("event") not in HERO_EVENTS:
                _fail(f"action {key} has an unknown event")
        else:
            _fail(f"action {key} must be a dungeon or hero action")
        if not a.get("name") or not a.get("text"):
            _fail(f"action {key} needs a name and a text")
    budget = sheet["setup"]
    for n in ("2", "3", "4"):
        left = len(cards) - budget["removed"][n]
        if n != "4" and left != budget["revealed"][n] * budget["rounds"]:
            _fail(f"sheet.json: {n} players do not use the deck up exactly")


SHEET: dict[str, Any] = _load("sheet.json")
_check_sheet(SHEET)
ACTIONS: dict[str, dict[str, Any]] = _load("actions.json").get("actions", {})
CARDS: dict[int, Card] = {}
_raw = _load("cards.json").get("cards", [])
try:
    _cards = [Card(int(c["id"]), str(c["action"]), tuple(c["elements"])) for c in _raw]
except (KeyError, TypeError, ValueError) as exc:
    raise DataError(f"data/dungeon-drawers: cards.json has a malformed card ({exc})") from exc
_check_cards(_cards, SHEET, ACTIONS)
CARDS = {c.id: c for c in _cards}
NAMED = {"Healing Potion", "Orc Club", "Talisman", "Ax", "Cursed Blade", "Bomb"}
if not NAMED <= {a["name"] for a in ACTIONS.values()}:
    _fail("actions.json lacks one of the rulebook's named actions")

HEARTS: int = SHEET["hearts"]
TARGET: int = SHEET["fight"]["target"]
BASE_DICE: int = SHEET["fight"]["base_dice"]
MAX_DICE: int = SHEET["fight"]["max_dice"]
DEATH_POINTS: int = SHEET["hero_death_points"]
ROUNDS: int = SHEET["setup"]["rounds"]


def card_name(cid: int) -> str:
    return str(ACTIONS[CARDS[cid].action]["name"])


def level(track: str, boxes: int) -> int:
    """The highest unlocked level of ``track`` with ``boxes`` boxes checked."""
    tr = SHEET["tracks"][track]
    value, used = tr["base"], 0
    for size, lvl in tr["groups"]:
        used += size
        if boxes >= used:
            value = lvl
    return int(value)


def track_size(track: str) -> int:
    return sum(g[0] for g in SHEET["tracks"][track]["groups"])


def element_label(e: str) -> str:
    return f"wall {e[5:]}" if e.startswith("wall:") else e


def card_text(cid: int) -> str:
    c = CARDS[cid]
    a = ACTIONS[c.action]
    els = ", ".join(element_label(e) for e in c.elements)
    return f"#{cid} {a['name']} ({a['type']}): {els}"
