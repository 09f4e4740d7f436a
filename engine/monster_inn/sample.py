"""A complete Monster Inn state dealt from one seat's view (issue 30), for search.

What a seat sees (views.py): every monster face up; every face-down humanoid's back
(range and skulls), in the inn and in every dungeon, its own included; the back of
the deck's top card and the deck's size; the pool, the supply, support treasure;
its own purse (every purse with open treasure). What it cannot see, dealt here at
random from ``rnd``:

- which humanoid lies behind each face-down back: the five humanoids of a range are
  shuffled and dealt to that range's backs (inn, dungeons, the deck's top card);
- the deck's order: the cards nobody has seen (the monsters not face up and the
  humanoids not dealt to a back) are shuffled; the top card is one that fits the back
  the table sees; what the deck cannot hold goes to the box (only stacked test decks
  have a box before the end);
- the other seats' purses (hidden treasure): how much gold and how many gems the
  hidden purses hold together is known (25 of each, less the supply, the pool,
  support and the open purses); each of those coins and gems is dealt to one hidden
  seat at random. **Approximation**: the table could count every purse exactly from
  the public payments since the start (the rulebook's "keep your Treasure hidden" is
  only a hidden total), but the view keeps no history, so the split between hidden
  seats is guessed.

Also not in the view, and not needed to play on: ``moves`` (a counter), which seat
left last in a round before it ends (set to the seat that must still decide, else the
last player to act) and the game RNG (reseeded from ``rnd``: Monster Inn draws only at
setup, so no sample knows a draw it could not know).
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import State

from .data import CARDS, HUMANOIDS, MONSTERS, RANGES
from .upgrade import REVISION

_RANGE_IDS: dict[str, list[str]] = {
    f"{lo}-{hi}": sorted(
        (c for c in HUMANOIDS if lo <= HUMANOIDS[c].value <= hi), key=lambda c: CARDS[c].value
    )
    for lo, hi in RANGES
}
_MONSTER_ID = {(c.letter, c.value): cid for cid, c in MONSTERS.items()}
_ALL = sorted(CARDS, key=lambda c: (CARDS[c].type, CARDS[c].value))


def _monster_id(card: dict[str, Any]) -> str:
    return _MONSTER_ID[(card["letter"], card["value"])]


def sample(view: dict[str, Any], rnd: random.Random) -> State:
    """A state consistent with ``view`` (``game.view(state, seat)``), what the seat
    cannot see dealt at random from ``rnd``; reads nothing but the view."""
    n = view["seats"]
    inn, players, deck, box = _deal_cards(view, rnd)
    supply = dict(view["supply"])
    pool = dict(view["pool"])
    _deal_purses(players, view, pool, supply, rnd)

    pend = view["pending"]
    pending = None
    if pend is not None:
        pending = {"seat": pend["seat"], "kind": pend["kind"]}
        if pend["kind"] == "support":
            # A support request follows the monster its seat has just placed.
            pending["monster_kind"] = MONSTERS[players[pend["seat"]]["monsters"][-1]["card"]].kind
    in_round = [s for s, pv in enumerate(view["players"]) if pv["in_round"]]
    last = view.get("last")
    if pend is not None:
        last_leaver = pend["seat"]
    elif last is not None:
        last_leaver = last["seat"]
    else:
        last_leaver = view["start"]
    revision = REVISION
    if view["deck_top"] is None and view["deck"] > 0 and not view["over"]:
        revision = 2  # a game begun before the top card was shown (rules revision 3)
    return {
        "game": "monster-inn",
        "seats": n,
        "options": {"open_treasure": bool(view["open_treasure"])},
        "rng": {"seed": rnd.randrange(2**31), "n": 0},
        "revision": revision,
        "deck": deck,
        "box": box,
        "inn": inn,
        "pool": pool,
        "supply": supply,
        "players": players,
        "in_round": in_round,
        "turn": view["turn"] if view["turn"] is not None else view["start"],
        "start": view["start"],
        "round": view["round"],
        "moves": 0,
        "pending": pending,
        "taken": [0 if s in in_round else 1 for s in range(n)],
        "over": view["over"],
        "last_leaver": last_leaver,
        "last": None if last is None else _copy_last(last),
    }


def _copy_last(last: dict[str, Any]) -> dict[str, Any]:
    """The view's last turn (``last_turn.public``), copied: who, the lines, the card marks."""
    return {"seat": last["seat"], "lines": list(last["lines"]), "cards": [list(c) for c in last["cards"]]}


def _deal_cards(
    view: dict[str, Any], rnd: random.Random
) -> tuple[list[str], list[dict[str, Any]], list[str], list[str]]:
    """The inn, the dungeons (purses as the view shows them), the deck and the box:
    each humanoid back gets a face of its range, the deck the cards nobody has seen."""
    seen: set[str] = set()
    # Face-down slots to fill: (range, where it goes) in a fixed order.
    slots: dict[str, list[tuple[str, int, int]]] = {r: [] for r in _RANGE_IDS}
    inn: list[str | None] = []
    for i, c in enumerate(view["inn"]):
        if c["type"] == "monster":
            inn.append(_monster_id(c))
        else:
            inn.append(None)
            slots[c["range"]].append(("inn", i, 0))
    players: list[dict[str, Any]] = []
    for s, pv in enumerate(view["players"]):
        mons = [{"card": _monster_id(m), "support": m["support"]} for m in pv["monsters"]]
        hums: list[str | None] = []
        for i, h in enumerate(pv["humanoids"]):
            if "value" in h:  # turned over at the end
                hums.append(f"H{h['value']}")
            else:
                hums.append(None)
                slots[h["range"]].append(("dungeon", s, i))
        players.append({"gold": pv["gold"], "gem": pv["gem"], "monsters": mons, "humanoids": hums})
    top = view.get("deck_top")
    if top is not None and top["type"] == "humanoid":
        slots[top["range"]].append(("top", 0, 0))
    seen.update(c for c in inn if c)
    for p in players:
        seen.update(m["card"] for m in p["monsters"])
        seen.update(h for h in p["humanoids"] if h)

    deck_top: str | None = None
    for rng_name, ids in _RANGE_IDS.items():
        free = [c for c in ids if c not in seen]
        rnd.shuffle(free)
        for (where, a, b), cid in zip(slots[rng_name], free, strict=False):
            if where == "inn":
                inn[a] = cid
            elif where == "dungeon":
                players[a]["humanoids"][b] = cid
            else:
                deck_top = cid
            seen.add(cid)
    rest = [c for c in _ALL if c not in seen]
    rnd.shuffle(rest)
    if top is not None and top["type"] == "monster":
        k = next(i for i, c in enumerate(rest) if c in MONSTERS)
        deck_top = rest.pop(k)
    size = view["deck"]
    deck = ([deck_top] if deck_top else []) + rest[: size - (1 if deck_top else 0)]
    box = rest[size - (1 if deck_top else 0) :]
    dealt = [c for c in inn if c]
    assert len(dealt) == len(inn), "every back in the inn gets a face"
    return dealt, players, deck, box


def _deal_purses(
    players: list[dict[str, Any]],
    view: dict[str, Any],
    pool: dict[str, Any],
    supply: dict[str, int],
    rnd: random.Random,
) -> None:
    """Deal the treasure of the hidden purses: each type's total is what the 25 less
    everything in sight leaves; each coin or gem goes to a hidden seat at random."""
    hidden = [s for s, p in enumerate(players) if p["gold"] is None]
    for p in players:
        if p["gold"] is None:
            p["gold"] = p["gem"] = 0
    if not hidden:
        return
    draw, k = rnd.randrange, len(hidden)
    for t in ("gold", "gem"):
        left = 25 - supply[t] - (pool["n"] if pool["type"] == t else 0)
        for p in players:
            left -= p[t] + sum(1 for m in p["monsters"] if m["support"] == t)
        got = [0] * k
        for _ in range(max(0, left)):
            got[draw(k)] += 1
        for s, n in zip(hidden, got, strict=True):
            players[s][t] += n
