"""A complete Dungeon Drawers state dealt from one seat's view, for search (issue 30).

What a seat cannot see, and how it is dealt:

* the build deck's cards and order: ``deck_count`` cards drawn at random from every
  card the view does not show (the cards returned to the box unseen are among them);
* the opponents' hidden treasures: ``treasure_count`` spaces each, mostly under their
  monsters (where players hide them), the rest on any free space;
* the opponents' hands and action decks in Phase C: the cards each took in Phase A,
  less those the table has seen since (discarded, played on a dungeon), dealt at random
  into a hand and a deck of the sizes shown; the seat's own deck is its own remaining
  cards in a random order;
* in Phase B, the paths drawn and not yet shown: one of the ready-made candidate paths
  of that dungeon;
* an opponent's face-up card: nothing of it is installed yet (the table sees its
  dungeon as it stood before the card, so the installs are not known);
* the dice to come: the game's RNG is reseeded from ``rnd``; dice stacked by a test
  setup are dropped.

Approximations (what the seat saw once and the view no longer shows): the cards a
player put under an action deck go anywhere in it, and in the 4-player round 12 the
reshuffled discard is dealt like any unseen card. The rules revision is the engine's
newest (the view does not carry it); ``mark``, the bookkeeping of what the current turn
changed, starts afresh.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.core import State

from . import board, build
from .data import CARDS, SHEET
from .paths import candidate_paths
from .rules import MONSTERS, copy_sheet
from .upgrade import REVISION

# Share of an opponent's hidden treasures dealt under one of its monsters (the rest go
# on any space): treasures score only under monsters, so that is where players put them.
UNDER_MONSTER = 0.8


def _before(sheet: dict[str, Any], pending: dict[str, Any]) -> dict[str, Any]:
    """The seat's own dungeon before the installs of its face-up card, undone from the
    card's log (element by element, in the order they went in)."""
    before = copy_sheet(sheet)
    els = CARDS[pending["card"]].elements
    lost = set(pending["lost"])
    undone_treasures = 0
    for i in range(pending["next"] - 1, -1, -1):
        if i in lost:
            continue
        el, text = els[i], pending["log"][i]
        words = text.split()
        if el.startswith("wall:"):
            for c in words[1:]:
                del before["grid"][c]
        elif el in board.BLOCKER_KINDS:
            del before["grid"][words[1]]
        elif el == "treasure":
            undone_treasures += 1
        else:
            before["imp"][words[1]] -= 1
    if undone_treasures:
        before["treasures"] = before["treasures"][:-undone_treasures]
    return before


def _deal_treasures(sheet: dict[str, Any], count: int, rnd: random.Random) -> list[str]:
    monsters = [c for c in board.ALL_CELLS if sheet["grid"].get(c) in MONSTERS]
    rnd.shuffle(monsters)
    out: list[str] = []
    for _ in range(count):
        if monsters and rnd.random() < UNDER_MONSTER:
            out.append(monsters.pop())
            continue
        free = [c for c in board.ALL_CELLS if c not in out and sheet["grid"].get(c) != "wall"]
        free = free or [c for c in board.ALL_CELLS if c not in out]
        out.append(free[rnd.randrange(len(free))])
        if out[-1] in monsters:  # at most one treasure a space
            monsters.remove(out[-1])
    return out


def _deal_deck(view: dict[str, Any], rnd: random.Random) -> list[int]:
    """``deck_count`` cards drawn at random from every card the view does not show."""
    vps = view["players"]
    seen: set[int] = set(view["display"]) | set(view["discard"])
    if view["encounter"]:
        seen.update(view["encounter"]["played"])
    for q in vps:
        seen.update(q["taken"])
        seen.update(h["card"] for h in q["on"])
        if q["pending"]:
            seen.add(q["pending"]["card"])
        if q["hand"]:
            seen.update(q["hand"])
    unseen = [c for c in sorted(CARDS) if c not in seen]
    rnd.shuffle(unseen)
    return unseen[: view["deck_count"]]


def _player(view: dict[str, Any], s: int, gone: set[int], rnd: random.Random) -> dict[str, Any]:
    """Player ``s`` of the sample: the table's view of it, its hidden parts dealt."""
    me = view["viewer"]
    q = view["players"][s]
    sheet = copy_sheet(q["sheet"])
    if s != me and view["phase"] != "over":
        sheet["treasures"] = _deal_treasures(sheet, q["treasure_count"], rnd)
    pending = None
    if q["pending"] is not None:
        if s == me:
            pending = {**copy.deepcopy(q["pending"]), "before": _before(sheet, q["pending"])}
        else:
            pending = {"card": q["pending"]["card"], "next": 0, "lost": [], "log": [], "before": sheet}
            sheet = copy_sheet(sheet)
    hand: list[int] = []
    own_deck: list[int] = []
    if view["phase"] in ("defend", "over"):
        if s == me:
            hand = list(q["hand"])
        left = [c for c in q["taken"] if c not in gone and c not in hand]
        rnd.shuffle(left)
        if s != me:
            hand, left = left[: q["hand_count"]], left[q["hand_count"] :]
        own_deck = left
    return {
        "sheet": sheet,
        "taken": list(q["taken"]),
        "pending": pending,
        "path": list(q["path"]) if q["path"] else None,
        "hero": dict(q["hero"]),
        "hand": hand,
        "deck": own_deck,
        "on": [dict(h) for h in q["on"]],
        "started": q["started"],
    }


def sample(view: dict[str, Any], rnd: random.Random) -> State:
    me = view["viewer"]
    n = view["seats"]
    vps = view["players"]
    deck = _deal_deck(view, rnd)

    gone = set(view["discard"])  # action cards the table has seen leave their owner's hand
    for q in vps:
        gone.update(h["card"] for h in q["on"])

    players = [_player(view, s, gone, rnd) for s in range(len(vps))]
    if view["phase"] == "path":
        for s, q in enumerate(vps):
            if q["path_drawn"] and q["path"] is None:
                cands = candidate_paths(q["sheet"], q["levels"])
                players[s]["path"] = list(cands[rnd.randrange(len(cands))])

    state: State = {
        "game": view["game"],
        "seats": n,
        "options": {},
        "rng": {"seed": rnd.randrange(2**31), "n": 0},
        "revision": REVISION,
        "phase": view["phase"],
        "round": view["round"],
        "start": view["start"],
        "deck": deck,
        "discard": list(view["discard"]),
        "boxed": SHEET["setup"]["removed"][str(n)],
        "display": list(view["display"]),
        "queue": list(view["queue"]),
        "stack": [],
        "turn": view["turn"],
        "step": view["step"],
        "encounter": copy.deepcopy(view["encounter"]),
        "news": list(view["news"]),
        "players": players,
        "last": copy.deepcopy(view["last"]),
        "mark": None,
    }
    for s, p in enumerate(players):
        if p["pending"] is not None and s != me:
            build.advance(state, s, [])  # elements it could never install are lost at once
    return state
