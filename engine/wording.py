"""How a sentence reads where it is shown (issue 40 item 4): "1 imps", "a Arcane
Architect", "adventurer(s)", "Entrance!." and "gold.." mended.

The rules code writes many of its sentences into the state (a season's log, the last
turn's news), and the texts of games in progress are sacred: they are mended where
they are shown, never where they are stored. The mending is narrow on purpose: each
rule matches only a slip, never a word that is right as it stands."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

# "a" before a word that starts with a vowel sound ("a Evil Eye", "a orc"); "one" and
# "once" start with a consonant sound, and a "U" may go either way ("a unique"): left.
_A_VOWEL = re.compile(r"\b([Aa]) (?=(?!one\b|once\b)[AEIOaeio][a-z])")
# Units a count of one names in the singular ("1 imps", "up to 1 cards").
_PLURALS = {
    "imps": "imp", "gems": "gem", "treasures": "treasure", "cards": "card", "Cards": "Card",
    "points": "point", "skulls": "skull", "monsters": "monster", "tunnels": "tunnel", "rooms": "room",
    "adventurers": "adventurer", "tiles": "tile", "spaces": "space", "goals": "goal", "minions": "minion",
    "traps": "trap", "tokens": "token", "decorations": "decoration", "hearts": "heart", "coins": "coin",
    "humanoids": "humanoid", "creatures": "creature", "prisoners": "prisoner", "turns": "turn",
    "rounds": "round", "moves": "move", "hints": "hint", "boxes": "box", "heroes": "hero",
}  # fmt: skip
# "Player 1" names a seat (engine.core.seat_ref; boards mend before the names go in):
# "Player 1 turns card #27 over" is a verb, not a count.
_ONE = re.compile(r"(?<![\d.,/-])(?<!Player )\b1 ((?:[A-Z][a-z]+ )?)(" + "|".join(_PLURALS) + r")\b")
# "4 adventurer(s)", "1 Decorative Mimic token(s)": the count says which.
_MAYBE_PLURAL = re.compile(
    r"\b(\d+) ((?:[A-Z][a-z]+ )*)([a-z]+)\(s\)(?: (leave|are|have|arrive|escape|survive)\b)?"
)
_ONE_DOES = {
    "leave": "leaves",
    "are": "is",
    "have": "has",
    "arrive": "arrives",
    "escape": "escapes",
    "survive": "survives",
}
# "The player(s) with the most tunnels" with no count: the plural reads for one or more.
_ANY_PLURAL = re.compile(r"\b([a-z]+)\(s\)")
# A name that ends a sentence with its own mark: "A Scout at the Entrance!." -> "...!".
_MARK_STOP = re.compile(r"([!?])\.(?=\s|$)")
_DOUBLE_STOP = re.compile(r"(?<!\.)\.\.(?!\.)")


def _one(m: re.Match[str]) -> str:
    return f"1 {m[1]}{_PLURALS[m[2]]}"


def _count(m: re.Match[str]) -> str:
    one = m[1] == "1"
    verb = "" if m[4] is None else " " + (_ONE_DOES[m[4]] if one else m[4])
    return f"{m[1]} {m[2]}{m[3]}{'' if one else 's'}{verb}"


def mend(text: str) -> str:
    """``text`` with the slips above mended; any other text as it is."""
    # Every slip above holds a space, a bracket or a full stop: most strings of a view
    # ("wall", "H6", "goblin") hold none and are left without a look (a board's view
    # holds hundreds of them, mended before every board: tables/board.py).
    if " " not in text and "(" not in text and "." not in text:
        return text
    return _mended(text)


# A game's sentences come back at every board (its log, its news): each is mended once.
@lru_cache(maxsize=8192)
def _mended(text: str) -> str:
    text = _A_VOWEL.sub(lambda m: m[1] + "n ", text)
    text = _ONE.sub(_one, text)
    text = _MAYBE_PLURAL.sub(_count, text)
    text = _ANY_PLURAL.sub(r"\1s", text)
    text = _MARK_STOP.sub(r"\1", text)
    return _DOUBLE_STOP.sub(".", text)


def mend_all(value: Any) -> Any:
    """Every string in a view (dicts and lists within) mended, keys left alone."""
    if isinstance(value, str):
        return mend(value)
    if isinstance(value, dict):
        return {k: mend_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mend_all(v) for v in value]
    return value
