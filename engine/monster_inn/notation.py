"""Monster Inn's move notation: what /play reads and the action log stores
(parse/format), the labels of buttons and autocomplete (describe), and the
steps of the move chooser (segments)."""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction, State

from .data import CARDS, MONSTERS
from .rules import TYPES, amount, other, short_label

HELP = (
    "Type gold or gem to remain, swap for a treasure exchange, leave, "
    "bonus gold / bonus gem, support 2 gold (your monster's number, then gold or gem), or nosupport."
)

_ALIASES = {
    "gold": "gold",
    "golds": "gold",
    "coin": "gold",
    "coins": "gold",
    "g": "gold",
    "gem": "gem",
    "gems": "gem",
    "e": "gem",
}


def _single(w: str) -> str | None:
    if w in _ALIASES:
        return _ALIASES[w]
    if w in ("swap", "exchange"):
        return "swap"
    if w in ("leave", "nosupport"):
        return w
    return None


# Moves already in their own notation ("gold", "support 2 gem"): search applies
# thousands of them a second, and reading one again gives itself.
_CANONICAL: set[str] = set()


def parse(text: str) -> str:
    if text.__class__ is str and text in _CANONICAL:
        return text
    move = _parse(text)
    if move == text:
        _CANONICAL.add(move)  # at most a few thousand: 7 words and "support n t" for n < 1000
    return move


def _parse(text: str) -> str:
    words = str(text).strip().lower().replace(",", " ").split()
    if not words:
        raise IllegalAction(HELP)
    if words[0] == "remain" and len(words) == 2:
        words = words[1:]
    if words == ["no", "support"]:
        return "nosupport"
    if len(words) == 1 and (one := _single(words[0])) is not None:
        return one
    if words[0] == "bonus" and len(words) == 2 and words[1] in _ALIASES:
        return f"bonus {_ALIASES[words[1]]}"
    if words[0] == "support" and len(words) == 3:
        num, t = words[1], words[2]
        # ASCII digits only, and few: '²'.isdigit() is True but int('²') fails, and a
        # dungeon never holds more than 13 monsters.
        if num.isascii() and num.isdigit() and len(num) <= 3 and int(num) >= 1 and t in _ALIASES:
            return f"support {int(num)} {_ALIASES[t]}"
    raise IllegalAction(HELP)


def format(action: Any) -> str:  # noqa: A001 - the contract's name
    return str(action)


def _leave_label(state: State) -> str:
    if not state["inn"]:
        return "Leave"
    pool = state["pool"]
    got = f" + {amount(pool['n'], pool['type'])}" if pool["n"] else ""
    return f"Leave: take {short_label(CARDS[state['inn'][0]])}{got}"


def describe(state: State, action: Any) -> str:
    """A button label in words; it names only what the table can see."""
    a = parse(action)
    pool = state["pool"]
    if a in TYPES:
        return f"Remain: add 1 {a}"
    if a == "swap":
        return f"Exchange: take {amount(pool['n'], pool['type'])}, pay {amount(pool['n'] + 2, other(pool['type']))}"
    if a == "leave":
        return _leave_label(state)
    if a.startswith("bonus"):
        return f"Bonus: take 1 {a.split()[1]}"
    if a == "nosupport":
        return "No support"
    _, num, t = a.split()
    seat = state["pending"]["seat"] if state.get("pending") else None
    mons = state["players"][seat]["monsters"] if seat is not None else []
    i = int(num) - 1
    name = f" ({MONSTERS[mons[i]['card']].kind} {MONSTERS[mons[i]['card']].value})" if i < len(mons) else ""
    return f"Support monster {num}{name} with 1 {t}"


def segments(state: State, action: Any) -> list[tuple[str, str]]:
    """One chooser step: a turn never has more than 9 moves (support: up to 4
    monsters x 2 treasure types, plus no support), so every move fits one menu.
    The token is the notation without spaces."""
    return [(format(action).replace(" ", "-"), describe(state, action))]
