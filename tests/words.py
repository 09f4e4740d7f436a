"""What "only words a player would say" means to the tests (issue 28: "fails on a
Python repr (`{'`, `['`, `None`, `True`), a snake_case key or an internal code")."""

from __future__ import annotations

import re

# A dict or list printed by Python, or its constants standing as words.
_REPR = re.compile(r"\{'|\['|\{\"|\[\"|'\}|'\]|\b(?:None|True|False)\b")
# A snake_case key: lower-case words joined by underscores.
_SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
# Internal codes: a code in brackets ("(l5)"), a placeholder in angle brackets
# ("<monster number>"), an object's repr ("<Foo at 0x...>"), or a lower-case code
# glued to digits ("t12", "l5") as a word of its own ("x2", a count, is words).
_CODE = re.compile(
    r"\([a-z]\d+\)|<[a-z][a-z ]*>|\bat 0x[0-9a-f]+|\b0x[0-9a-f]{4,}\b|\b(?!x\d)[a-z]{1,2}\d{1,3}\b"
)
# Discord markup (a ping, a timestamp, a channel) may hold digits: not words, not codes.
_MARKUP = re.compile(r"<[@#]!?&?\d+>|<t:\d+(?::[a-zA-Z])?>|https?://\S+")


def not_words(text: str) -> list[str]:
    """Why ``text`` is not what a player would say: [] when it is words."""
    t = _MARKUP.sub(" ", text)
    why: list[str] = []
    for pattern, reason in ((_REPR, "Python repr"), (_SNAKE, "snake_case key"), (_CODE, "internal code")):
        found = pattern.search(t)
        if found is not None:
            why.append(f"{reason} {found.group(0)!r}")
    return why


# Issue 40's slips: "1 imps", "a Arcane Architect", "adventurer(s)", "Scouts at the
# Entrance!.", "Gain 2 gold.." and adventurers leaving "the dungeon" (whose?) (a name ending
# in a number, "Bot 3 9", is checked on the boards' final lines: tests/test_words.py).
_SLIPS = (
    (re.compile(r"(?<![\d.,/-])\b1 (?:[A-Z][a-z]+ )?(?:imps|gems|treasures|cards|Cards|points|skulls|monsters"
                r"|tunnels|rooms|adventurers|tiles|spaces|goals|minions|traps|tokens|decorations|hearts)\b"),
     "one of a plural"),
    (re.compile(r"\b[Aa] (?!one\b|once\b)[AEIOaeio][a-z]"), "'a' before a vowel"),
    (re.compile(r"\w\(s\)"), "a count that does not say singular or plural"),
    (re.compile(r"[!?]\.(?=\s|$)"), "a mark and a full stop"),
    (re.compile(r"(?<!\.)\.\.(?!\.)"), "two full stops"),
    (re.compile(r"\bleaves? the dungeon alive\b"), "a dungeon that does not say whose"),
)  # fmt: skip


def slips(text: str) -> list[str]:
    """The slips of grammar in ``text`` a player would notice: [] when it reads well."""
    t = _MARKUP.sub(" ", text)
    return [f"{reason} {m.group(0)!r}" for pattern, reason in _SLIPS if (m := pattern.search(t)) is not None]
