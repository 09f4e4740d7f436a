"""The 40 creature cards of Monster Inn, loaded from data/monster-inn/creatures.json
through :func:`engine.core.load_data` and validated at import: a broken data file
must stop the bot at start-up, not in the middle of a game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import DataError, load_data

__all__ = [
    "BACKS",
    "CARDS",
    "HUMANOIDS",
    "KINDS",
    "MONSTERS",
    "RANGES",
    "Card",
    "DataError",
    "back_of",
    "load",
    "validate",
]

KEY = "monster-inn"
FILE = "creatures.json"
KINDS = ("Undead", "Kobolds", "Goblins", "Orcs", "Trolls")
# What a card's back may show (docs/rules/monster-inn.md, "Card backs"): the data file's
# "backs" names, for each type, which of these facts its back carries.
BACK_FACTS = ("kind", "range", "skulls")
RANGES = ((1, 5), (6, 10), (11, 15), (16, 20))


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
        lo, hi = RANGES[range_index(self.value)]
        return f"{lo}-{hi}"


def range_index(value: int) -> int:
    """0 for 1-5, 1 for 6-10, 2 for 11-15, 3 for 16-20."""
    return (value - 1) // 5


def _check_kinds(doc: dict[str, Any]) -> dict[str, str]:
    kinds = doc["kinds"]
    if [k.get("name") for k in kinds] != list(KINDS):
        raise DataError(f"kinds must be exactly {', '.join(KINDS)} in that order")
    letters = {k["name"]: k["letter"] for k in kinds}
    if len(set(letters.values())) != 5 or not all(
        isinstance(x, str) and len(x) == 1 for x in letters.values()
    ):
        raise DataError("each kind needs its own one-letter code")
    if [tuple(r) for r in doc["ranges"]] != list(RANGES):
        raise DataError("humanoid back ranges must be 1-5, 6-10, 11-15, 16-20")
    return letters


def _card(raw: Any, letters: dict[str, str]) -> Card:
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
        raise DataError(f"bad card entry {raw!r}: {exc}") from None
    if c.type not in ("monster", "humanoid"):
        raise DataError(f"card {c.id}: type must be monster or humanoid")
    if not 1 <= c.value <= 20:
        raise DataError(f"card {c.id}: combat value {c.value} is outside 1-20")
    if not 1 <= c.skulls <= 4:
        raise DataError(f"card {c.id}: skulls {c.skulls} is outside 1-4")
    if c.is_monster and c.kind not in KINDS:
        raise DataError(f"monster {c.id}: unknown kind {c.kind!r}")
    if not c.is_monster and c.kind is not None:
        raise DataError(f"humanoid {c.id} must not have a kind")
    return c


def _check_counts(cards: dict[str, Card]) -> None:
    monsters = [c for c in cards.values() if c.is_monster]
    humanoids = [c for c in cards.values() if not c.is_monster]
    if len(cards) != 40 or len(monsters) != 20 or len(humanoids) != 20:
        raise DataError("there must be 40 cards: 20 monsters and 20 humanoids")
    if sorted(c.value for c in monsters) != list(range(1, 21)):
        raise DataError("monster combat values must be 1-20, each exactly once")
    if sorted(c.value for c in humanoids) != list(range(1, 21)):
        raise DataError("humanoid combat values must be 1-20, each exactly once")
    for k in KINDS:
        n = sum(1 for c in monsters if c.kind == k)
        if n != 4:
            raise DataError(f"kind {k} has {n} monsters, not 4")
    _check_backs(humanoids, monsters)


def _check_backs(humanoids: list[Card], monsters: list[Card]) -> None:
    """The two facts the humanoid backs must satisfy (docs/rules/monster-inn.md, "The
    card set"): a back shows the range and the skulls, so all humanoids of a range
    share their skulls (else the back would tell cards apart); and a humanoid that
    beats a monster (value not lower) never has fewer skulls, so the beaten monster
    scores "0 or even minus Fame", never a gain."""
    for lo, hi in RANGES:
        skulls = {c.skulls for c in humanoids if lo <= c.value <= hi}
        if len(skulls) != 1:
            raise DataError(f"humanoids {lo}-{hi} must share one number of skulls (it is on their back)")
    for h in humanoids:
        for m in monsters:
            if h.value >= m.value and h.skulls < m.skulls:
                raise DataError(
                    f"humanoid {h.id} beats monster {m.id} but has fewer skulls: "
                    "a beaten monster must score 0 or minus"
                )


def _check_backs_doc(doc: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """The facts each type's back shows. A humanoid's back must show its range: the inn
    is sorted "by the Combat Value ranges on their back side"."""
    backs = doc["backs"]
    if not isinstance(backs, dict) or set(backs) != {"monster", "humanoid"}:
        raise DataError("'backs' must say what the back of a monster and of a humanoid shows")
    out = {}
    for t, facts in backs.items():
        if not isinstance(facts, list) or not set(facts) <= set(BACK_FACTS) or len(set(facts)) != len(facts):
            raise DataError(f"the {t} back may show only {', '.join(BACK_FACTS)}, each once")
        out[t] = tuple(facts)
    if "range" not in out["humanoid"]:
        raise DataError("a humanoid's back must show its combat value range")
    return out


def validate(doc: Any) -> tuple[dict[str, str], dict[str, Card]]:
    """Check the document against the rulebook; return (kind -> letter, id -> Card)."""
    if not isinstance(doc, dict) or not {"kinds", "ranges", "backs", "cards"} <= set(doc):
        raise DataError("expected an object with 'kinds', 'ranges', 'backs' and 'cards'")
    _check_backs_doc(doc)
    letters = _check_kinds(doc)
    cards: dict[str, Card] = {}
    for raw in doc["cards"]:
        c = _card(raw, letters)
        if c.id in cards:
            raise DataError(f"card id {c.id} appears twice")
        cards[c.id] = c
    _check_counts(cards)
    return letters, cards


def load() -> tuple[dict[str, str], dict[str, Card]]:
    result: tuple[dict[str, str], dict[str, Card]] = ({}, {})

    def check(doc: Any) -> None:
        nonlocal result
        result = validate(doc)

    try:
        load_data(KEY, FILE, check)
    except DataError as exc:
        msg = str(exc)
        # load_data names the file for errors it finds itself; name it for ours too.
        raise DataError(msg if FILE in msg else f"data/{KEY}/{FILE}: {msg}") from None
    return result


LETTERS, CARDS = load()
BACKS: dict[str, tuple[str, ...]] = _check_backs_doc(load_data(KEY, FILE))
MONSTERS = {c.id: c for c in CARDS.values() if c.is_monster}
HUMANOIDS = {c.id: c for c in CARDS.values() if not c.is_monster}


def back_of(cid: str) -> dict[str, Any]:
    """What the back of card ``cid`` shows the table (the top of the deck, a face-down
    humanoid): its type, and the facts data/monster-inn/creatures.json's "backs" names."""
    c = CARDS[cid]
    return {"type": c.type, **{f: getattr(c, f) for f in BACKS[c.type]}}
