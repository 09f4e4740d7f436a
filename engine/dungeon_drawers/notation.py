"""What a player types (``/play``) and reads on buttons: parse, format, public
format, describe, and the chooser's segments (each step at most 25 options)."""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction, State, seat_ref

from . import board, paths
from .data import ACTIONS, CARDS, TRACKS, card_name, elements_short

LABEL = 80  # a chooser label or autocomplete entry


def fit(label: str, limit: int = LABEL) -> str:
    """``label`` cut to ``limit`` characters at a word boundary, marked with '...'."""
    if len(label) <= limit:
        return label
    cut = label[: limit - 3].rsplit(" ", 1)[0].rstrip(",;:(")
    return cut + "..."


def _small_number(t: str) -> bool:
    """Plain digits int() can read quickly: '①'.isdigit() is True but int('①') raises."""
    return t.isascii() and t.isdigit() and len(t) <= 6


def _parse_seat(words: list[str]) -> int:
    """'P2', '2', 'Player 2' or 'player2' -> seat 1."""
    t = "".join(words).strip().upper()
    for head in ("PLAYER", "P"):
        if t.startswith(head):
            t = t[len(head) :]
            break
    if not _small_number(t) or not 1 <= int(t) <= 4:
        raise IllegalAction("Name the dungeon by its player, like Player 2.")
    return int(t) - 1


def _card_id(token: str) -> int:
    t = token.strip().lstrip("#")
    if not _small_number(t) or int(t) not in CARDS:
        raise IllegalAction(f"'{token}' is not a card number (cards are numbered 1 to 60).")
    return int(t)


def _cell(token: str) -> str:
    c = board.parse_cell(token)
    if c is None:
        raise IllegalAction(f"'{token}' is not a space: use a column A-H and a row 1-10, like C5.")
    return c


def _one(kind: str, rest: list[str]) -> str:
    if len(rest) != 1:
        raise IllegalAction(f"Type {kind} and one space, like: {kind} C5.")
    return _cell(rest[0])


def _parse_build(head: str, rest: list[str]) -> Any:
    if head == "take":
        if len(rest) != 1:
            raise IllegalAction("Type take and a card number, like: take 12.")
        return {"t": "take", "card": _card_id(rest[0])}
    if head == "wall":
        if not rest:
            raise IllegalAction("Type wall and the spaces of the formation, like: wall C3 C4 D4.")
        return {"t": "wall", "cells": board.sort_cells(_cell(w) for w in rest)}
    if head in board.BLOCKER_KINDS:
        return {"t": "place", "kind": head, "at": _one(head, rest)}
    if head == "treasure":
        return {"t": "treasure", "at": _one("treasure", rest)}
    if len(rest) != 1 or rest[0].lower() not in TRACKS:
        raise IllegalAction(f"Type improve and a category: {', '.join(TRACKS)}.")
    return {"t": "improve", "track": rest[0].lower()}


def _parse_defend(head: str, rest: list[str]) -> Any:
    if head == "play":
        if len(rest) != 1:
            raise IllegalAction("Type play and a card number, like: play 12.")
        return {"t": "play", "card": _card_id(rest[0])}
    if head == "hero":
        if not 2 <= len(rest) <= 3:
            raise IllegalAction("Type hero, a card number and a player, like: hero 12 Player 2.")
        return {"t": "hero", "card": _card_id(rest[0]), "to": _parse_seat(rest[1:])}
    return {"t": "refill", "under": [_card_id(w) for w in rest]}


BUILD_WORDS = ("take", "wall", *board.BLOCKER_KINDS, "treasure", "improve", "imp", "improvement")


def parse(text: str) -> Any:
    words = text.replace(",", " ").split()
    if not words:
        raise IllegalAction("Type a move, like: take 12, wall C3 C4 D4, goblin C5, path A1 H1 H10, resolve.")
    head, rest = words[0].lower(), words[1:]
    if head in BUILD_WORDS:
        return _parse_build(head, rest)
    if head in ("erase", "done") and not rest:
        return {"t": head}
    if head == "path":
        if not rest:
            raise IllegalAction("Type path and the corners of the path, like: path A1 A5 C5 C10 H10.")
        return {"t": "path", "cells": board.expand([_cell(w) for w in rest])}
    if head in ("resolve", "fight") and not rest:
        return {"t": "resolve"}
    if head in ("play", "hero", "refill"):
        return _parse_defend(head, rest)
    raise IllegalAction(
        "Unknown move. Moves: take, wall, goblin/orc/dragon/trap, treasure, improve, erase, done, "
        "path, play, resolve, hero, refill."
    )


def format_action(action: Any) -> str:
    t = action["t"]
    if t in ("take", "play"):
        return f"{t} {action['card']}"
    if t == "wall":
        return "wall " + " ".join(action["cells"])
    if t == "place":
        return f"{action['kind']} {action['at']}"
    if t in ("treasure",):
        return f"treasure {action['at']}"
    if t == "improve":
        return f"improve {action['track']}"
    if t in ("erase", "done", "resolve"):
        return str(t)
    if t == "path":
        return "path " + " ".join(board.compress(action["cells"]))
    if t == "hero":
        return f"hero {action['card']} {seat_ref(action['to'])}"
    if t == "refill":
        return " ".join(["refill", *map(str, action["under"])])
    raise IllegalAction("That is not a Dungeon Drawers move.")


def public_format(action: Any) -> str:
    t = action.get("t") if isinstance(action, dict) else None
    if t == "treasure":
        return "treasure (hidden)"
    if t == "path":
        return "path (shown when every path is drawn)"
    if t in ("wall", "place", "improve"):
        return f"{action.get('kind', t)} (shown when the card is turned over)"
    if t == "refill":
        # The cards go face down under the action deck: which ones is the player's secret.
        under = action.get("under") or []
        return (
            f"refill ({len(under)} {'card' if len(under) == 1 else 'cards'} put under the deck)"
            if under
            else "refill"
        )
    return format_action(action)


def _card_label(cid: int) -> str:
    a = ACTIONS[CARDS[cid].action]
    return f"{a['name']} #{cid} ({a['short']})"


def _path_label(cells: list[str]) -> str:
    corners = board.compress(cells)
    head = f"Path, {len(cells)} spaces: "
    label = head + " ".join(corners)
    while len(label) > LABEL:  # elide the middle, keep where it starts and ends
        cut = len(corners) // 2
        corners = corners[: cut - 1] + corners[cut + 1 :]
        label = (
            head + " ".join(corners[: len(corners) // 2]) + " ... " + " ".join(corners[len(corners) // 2 :])
        )
    return label


def describe(action: Any) -> str:
    t = action["t"]
    if t == "take":
        return fit(f"Take {_card_label(action['card'])}: {elements_short(action['card'])}")
    if t == "play":
        return fit(f"Play {_card_label(action['card'])}")
    if t == "hero":
        return fit(f"{_card_label(action['card'])} on {seat_ref(action['to'])}'s dungeon")
    if t == "refill":
        if not action["under"]:
            return "Refill your hand"
        return fit("Put " + ", ".join(f"#{c}" for c in action["under"]) + " under the deck, then refill")
    if t == "path":
        return _path_label(action["cells"])
    fixed = {
        "resolve": "Resolve the encounter",
        "done": "Done: turn the card over",
        "erase": "Erase this card's installations and redo them",
    }
    if t in fixed:
        return fixed[t]
    if t == "wall":
        return "Walls on " + ", ".join(action["cells"])
    if t == "place":
        return f"{action['kind'].capitalize()} on {action['at']}"
    if t == "treasure":
        return f"Hide the treasure on {action['at']}"
    return f"Improve {action['track']}"


def _row_step(cell: str, what: str) -> tuple[str, str]:
    row = cell[1:]
    return f"r{row}", f"{what} in row {row}"


def segments(state: State, seat: int, action: Any) -> list[tuple[str, str]]:
    """Steps of at most 25 options: a space is chosen by its row, then the space; a wall
    formation by the row and the space of its first cell, then the formation; a hero
    action by the card, then the dungeon; a path by its steps."""
    t = action["t"]
    if t in ("place", "treasure"):
        what = action["kind"].capitalize() if t == "place" else "Treasure"
        return [_row_step(action["at"], what), (action["at"], describe(action))]
    if t == "wall":
        first = action["cells"][0]
        return [
            _row_step(first, "Wall formation starting"),
            (first, f"Wall formation starting on {first}"),
            ("w" + "".join(action["cells"]), describe(action)),
        ]
    if t == "hero":
        return [
            (f"c{action['card']}", fit(f"Hero action {_card_label(action['card'])}")),
            (f"p{action['to'] + 1}", f"on {seat_ref(action['to'])}'s dungeon"),
        ]
    if t == "path":
        steps = paths.steps_of(action["cells"])
        return [(s, f"{paths.STEP_WORDS[s]} to {c}") for s, c in zip(steps, action["cells"][1:], strict=True)]
    token = format_action(action).replace(" ", "_")
    return [(token, describe(action))]


__all__ = ["parse", "format_action", "public_format", "describe", "segments", "fit", "card_name"]
