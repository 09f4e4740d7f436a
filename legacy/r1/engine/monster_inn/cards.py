"""The 40 creature cards of Monster Inn, loaded from data/monster-inn/creatures.json
and validated at import: a broken data file must stop the bot at start-up, not
in the middle of a game."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "monster-inn" / "creatures.json"

KINDS = ("Undead", "Kobolds", "Goblins", "Orcs", "Trolls")
RANGES = ((1, 5), (6, 10), (11, 15), (16, 20))


class CardDataError(ValueError):
    """creatures.json does not describe the 40 cards the rulebook lists."""


@dataclass(frozen=True)
class Card:
    id: str
    type: str  # "monster" | "humanoid"
    value: int  # combat value 1-20
    skulls: int  # 1-4
    kind: str | None = None  # monsters only
    letter: str | None = None  # the kind's letter (monsters only)

    @property
    def is_monster(self) -> bool:
        return self.type == "monster"

    @property
    def range(self) -> str:
        """The combat value range printed on the back (humanoids are face down)."""
        for lo, hi in RANGES:
            if lo <= self.value <= hi:
                return f"{lo}-{hi}"
        raise AssertionError(self.value)  # unreachable after validation


def _fail(msg: str) -> CardDataError:
    return CardDataError(f"{DATA}: {msg}")


def validate(doc: Any) -> tuple[dict[str, str], dict[str, Card]]:
    """Check the document against the rulebook; return (kind -> letter, id -> Card)."""
    if not isinstance(doc, dict) or not {"kinds", "ranges", "cards"} <= set(doc):
        raise _fail("expected an object with 'kinds', 'ranges' and 'cards'")
    kinds = doc["kinds"]
    if [k.get("name") for k in kinds] != list(KINDS):
        raise _fail(f"kinds must be exactly {', '.join(KINDS)} in that order")
    letters = {k["name"]: k["letter"] for k in kinds}
    if len(set(letters.values())) != 5 or not all(
        isinstance(x, str) and len(x) == 1 for x in letters.values()
    ):
        raise _fail("each kind needs its own one-letter code")
    if [tuple(r) for r in doc["ranges"]] != list(RANGES):
        raise _fail("humanoid back ranges must be 1-5, 6-10, 11-15, 16-20")
    cards: dict[str, Card] = {}
    for raw in doc["cards"]:
        try:
            c = Card(
                id=str(raw["id"]),
                type=raw["type"],
                value=int(raw["value"]),
                skulls=int(raw["skulls"]),
                kind=raw.get("kind"),
                letter=letters.get(raw.get("kind", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(f"bad card entry {raw!r}: {exc}") from exc
        if c.id in cards:
            raise _fail(f"card id {c.id} appears twice")
        if c.type not in ("monster", "humanoid"):
            raise _fail(f"card {c.id}: type must be monster or humanoid")
        if not 1 <= c.value <= 20:
            raise _fail(f"card {c.id}: combat value {c.value} is outside 1-20")
        if not 1 <= c.skulls <= 4:
            raise _fail(f"card {c.id}: skulls {c.skulls} is outside 1-4")
        if c.is_monster and c.kind not in KINDS:
            raise _fail(f"monster {c.id}: unknown kind {c.kind!r}")
        if not c.is_monster and c.kind is not None:
            raise _fail(f"humanoid {c.id} must not have a kind")
        cards[c.id] = c
    monsters = [c for c in cards.values() if c.is_monster]
    humanoids = [c for c in cards.values() if not c.is_monster]
    if len(cards) != 40 or len(monsters) != 20 or len(humanoids) != 20:
        raise _fail("there must be 40 cards: 20 monsters and 20 humanoids")
    if sorted(c.value for c in monsters) != list(range(1, 21)):
        raise _fail("monster combat values must be 1-20, each exactly once")
    if sorted(c.value for c in humanoids) != list(range(1, 21)):
        raise _fail("humanoid combat values must be 1-20, each exactly once")
    for k in KINDS:
        n = sum(1 for c in monsters if c.kind == k)
        if n != 4:
            raise _fail(f"kind {k} has {n} monsters, not 4")
    return letters, cards


def load(path: Path = DATA) -> tuple[dict[str, str], dict[str, Card]]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CardDataError(f"{path}: cannot read the creature cards: {exc}") from exc
    return validate(doc)


LETTERS, CARDS = load()
MONSTERS = {c.id: c for c in CARDS.values() if c.is_monster}
HUMANOIDS = {c.id: c for c in CARDS.values() if not c.is_monster}
ALL_IDS = sorted(CARDS, key=lambda i: (CARDS[i].type, CARDS[i].value))
