"""Monster Inn's rules as functions on the state: the inn, the moves (remain,
exchange, leave, humanoid bonus, support), the end of a round, and scoring.

State layout (plain JSON):

- ``deck``: card ids, top first; ``box``: cards returned to the box unseen;
  ``inn``: the row, left to right (the leftmost is the one being bid on).
- ``pool``: ``{"type": "gold"|"gem"|None, "n": int}``; ``supply``: ``{"gold", "gem"}``.
- ``players[s]``: ``gold``, ``gem``, ``monsters`` (``[{"card", "support"}]`` left to
  right, ``support`` is the treasure type lying on it or None) and ``humanoids``
  (face-down card ids left to right; humanoid ``i`` lies under monster ``i``).
- ``in_round``: seats still in this round; ``turn``: the seat bidding now;
  ``pending``: a follow-up decision of the seat that just left (``bonus`` or
  ``support``), which comes before anyone else acts.
- ``taken``: creatures taken per seat in this round (each seat takes exactly 1).

The moves write what happened into ``events``; ``events`` None (``Game.play``, for
search, which never shows a move's words) changes the state alike and writes nothing.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.core import Event, IllegalAction, State, seat_ref

from .data import CARDS, HUMANOIDS, MONSTERS, Card, range_index

TYPES = ("gold", "gem")
# Each monster's kind, read on every Leave (a dict lookup, not a Card's attribute).
KIND = {cid: c.kind for cid, c in MONSTERS.items()}


def other(t: str) -> str:
    return "gem" if t == "gold" else "gold"


def amount(n: int, t: str) -> str:
    """'1 gold', '3 gold', '1 gem', '2 gems'."""
    if t == "gem":
        return f"{n} gem" + ("" if n == 1 else "s")
    return f"{n} gold"


def skulls_word(n: int) -> str:
    return f"{n} skull" + ("" if n == 1 else "s")


def back_label(c: Card) -> str:
    """What the back of a face-down humanoid shows: its range and its skulls."""
    return f"{c.range}, {skulls_word(c.skulls)}"


def card_label(c: Card) -> str:
    """Public name of a face-up monster or a face-down humanoid."""
    if c.is_monster:
        return f"{c.kind} {c.value} ({skulls_word(c.skulls)})"
    return f"a humanoid ({back_label(c)})"


# Every card's card_label, for the line of each Leave.
LABELS = {cid: card_label(c) for cid, c in CARDS.items()}


def short_label(c: Card) -> str:
    """A creature for a button: 'Orcs 14' or 'humanoid 11-15 (3 skulls)'."""
    if c.is_monster:
        return f"{c.kind} {c.value}"
    return f"humanoid {c.range} ({skulls_word(c.skulls)})"


def next_seat(state: State, seat: int, among: list[int]) -> int:
    n = state["seats"]
    for step in range(1, n + 1):
        s = (seat + step) % n
        if s in among:
            return s
    raise AssertionError("no seat to move to")


# Where a card goes in the inn's order: humanoids first, by back range descending, then
# monsters by combat value ascending.
_INN_ORDER = {
    **{c: (0, -range_index(h.value)) for c, h in HUMANOIDS.items()},
    **{c: (1, m.value) for c, m in MONSTERS.items()},
}


def sort_inn(cards: list[str]) -> list[str]:
    """Humanoids by back range descending (draw order kept within a range -
    'their order doesn't matter': the sort is stable), then monsters by combat value
    ascending."""
    return sorted(cards, key=_INN_ORDER.__getitem__)


def new_round(state: State, start: int) -> None:
    n = state["seats"]
    drawn, state["deck"] = state["deck"][:n], state["deck"][n:]
    state["inn"] = sort_inn(drawn)
    state["round"] += 1
    state["start"] = start
    state["turn"] = start
    state["in_round"] = list(range(n))
    state["taken"] = [0] * n
    state["pool"] = {"type": None, "n": 0}


def support_targets(state: State, seat: int, kind: str) -> list[int]:
    """Indices of the seat's unsupported monsters of ``kind`` (support on an
    already supported monster would protect nothing more)."""
    mons = state["players"][seat]["monsters"]
    return [i for i, m in enumerate(mons) if KIND[m["card"]] == kind and m["support"] is None]


def private_purse(state: State, seat: int, events: list[Event] | None) -> None:
    if events is None:
        return
    p = state["players"][seat]
    events.append(_purse_line(p["gold"], p["gem"], seat))


# The lines every bid writes, made once each: an Event is frozen, so moves that say the
# same share one (a purse and a pool hold at most 50 treasures, a table 5 seats).
@functools.cache
def _purse_line(gold: int, gem: int, seat: int) -> Event:
    return Event(f"You now hold {amount(gold, 'gold')} and {amount(gem, 'gem')}.", seat)


@functools.cache
def _remain_line(seat: int, t: str, n: int) -> Event:
    return Event(f"{seat_ref(seat)} remains and adds 1 {t}; the pool holds {amount(n, t)}.")


# ---- moves ---------------------------------------------------------------------------


def remain(state: State, seat: int, t: str, events: list[Event] | None) -> None:
    p, pool = state["players"][seat], state["pool"]
    if pool["type"] is not None and pool["type"] != t:
        raise IllegalAction(f"The pool holds {pool['type']}, so you must add {pool['type']}, swap, or leave.")
    if p[t] < 1:
        raise IllegalAction(f"You have no {t} left.")
    p[t] -= 1
    pool["type"] = t
    pool["n"] += 1
    if events is not None:
        events.append(_remain_line(seat, t, pool["n"]))
        private_purse(state, seat, events)
    state["turn"] = next_seat(state, seat, state["in_round"])


def swap(state: State, seat: int, events: list[Event] | None) -> None:
    p, pool = state["players"][seat], state["pool"]
    if pool["type"] is None:
        raise IllegalAction("The pool is empty, so there is nothing to exchange; add gold or gem instead.")
    old, n = pool["type"], pool["n"]
    new = other(old)
    if p[new] < n + 2:
        raise IllegalAction(f"This exchange costs {amount(n + 2, new)} and you have fewer.")
    # House decision: the exchanged treasure goes to the actor's personal supply.
    p[old] += n
    p[new] -= n + 2
    pool["type"], pool["n"] = new, n + 2
    if events is not None:
        events.append(
            Event(
                f"{seat_ref(seat)} remains with a treasure exchange: takes {amount(n, old)} "
                f"and places {amount(n + 2, new)} in the pool."
            )
        )
        private_purse(state, seat, events)
    state["turn"] = next_seat(state, seat, state["in_round"])


def leave(state: State, seat: int, events: list[Event] | None, forced: bool = False) -> None:
    p, pool = state["players"][seat], state["pool"]
    got = pool["n"]
    if got:
        p[pool["type"]] += got
    state["pool"] = {"type": None, "n": 0}
    cid = state["inn"].pop(0)
    in_round = state["in_round"]
    in_round.remove(seat)
    state["taken"][seat] += 1
    if events is not None:
        how = "must leave and takes the last creature," if forced else "leaves and takes"
        loot = f" and {amount(got, pool['type'])} from the pool" if got else " (the pool is empty)"
        events.append(Event(f"{seat_ref(seat)} {how} {LABELS[cid]}{loot}."))
    if in_round:
        state["turn"] = next_seat(state, seat, in_round)
    state["last_leaver"] = seat
    kind = KIND.get(cid)
    if kind is not None:  # a monster
        mons = p["monsters"]
        had_kind = kind in [KIND[m["card"]] for m in mons]
        mons.append({"card": cid, "support": None})
        if had_kind and support_targets(state, seat, kind):
            state["pending"] = {"seat": seat, "kind": "support", "monster_kind": kind}
    else:
        p["humanoids"].append(cid)
        humanoid_bonus(state, seat, events)
    private_purse(state, seat, events)


def humanoid_bonus(state: State, seat: int, events: list[Event] | None) -> None:
    sup = state["supply"]
    avail = [t for t in TYPES if sup[t] > 0]
    if len(avail) == 2:
        state["pending"] = {"seat": seat, "kind": "bonus"}
    elif len(avail) == 1:
        # House decision: with one type used up, the bonus is the other type, without asking.
        t = avail[0]
        sup[t] -= 1
        state["players"][seat][t] += 1
        if events is not None:
            events.append(
                Event(f"{seat_ref(seat)} takes 1 {t} as the humanoid bonus (no {other(t)} is left).")
            )
    elif events is not None:
        events.append(Event(f"The supply is empty, so {seat_ref(seat)} gets no humanoid bonus."))


def bonus(state: State, seat: int, action: str, events: list[Event] | None) -> None:
    if not action.startswith("bonus "):
        raise IllegalAction("First choose your humanoid bonus: bonus gold or bonus gem.")
    t = action.split()[1]
    if state["supply"][t] < 1:
        raise IllegalAction(f"The supply has no {t} left; take bonus {other(t)}.")
    state["supply"][t] -= 1
    state["players"][seat][t] += 1
    state["pending"] = None
    if events is not None:
        events.append(Event(f"{seat_ref(seat)} takes 1 {t} from the supply as the humanoid bonus."))
        private_purse(state, seat, events)


def support(state: State, seat: int, action: str, events: list[Event] | None) -> None:
    kind = state["pending"]["monster_kind"]
    if action == "nosupport":
        state["pending"] = None
        if events is not None:
            events.append(Event(f"{seat_ref(seat)} requests no support."))
        return
    if not action.startswith("support "):
        raise IllegalAction(
            f"First decide on support for your {kind}: support, your monster's number and gold or gem "
            "(like support 2 gold), or nosupport."
        )
    _, num, t = action.split()
    i = int(num) - 1
    p = state["players"][seat]
    if not 0 <= i < len(p["monsters"]) or MONSTERS[p["monsters"][i]["card"]].kind != kind:
        raise IllegalAction(f"Monster {num} in your dungeon is not one of your {kind}.")
    if p["monsters"][i]["support"] is not None:
        raise IllegalAction(f"Monster {num} already has support.")
    if p[t] < 1:
        raise IllegalAction(f"You have no {t} left.")
    p[t] -= 1
    p["monsters"][i]["support"] = t
    state["pending"] = None
    if events is not None:
        c = MONSTERS[p["monsters"][i]["card"]]
        events.append(Event(f"{seat_ref(seat)} supports monster {num} ({c.kind} {c.value}) with 1 {t}."))
        private_purse(state, seat, events)


# ---- scoring ----------------------------------------------------------------------------


def column(m: dict[str, Any] | None, hid: str | None) -> tuple[str, int, bool]:
    """(outcome, fame, humanoid revealed) of one dungeon column: a monster (or
    None) with the humanoid below it (or None)."""
    h = HUMANOIDS[hid] if hid is not None else None
    mc = MONSTERS[m["card"]] if m else None
    if mc is None:
        return "no monster", 0, False  # the humanoid is removed unseen
    if h is None:
        return "alone", mc.skulls, False
    if m and m["support"]:
        return "supported", mc.skulls, False
    if h.value < mc.value:
        return "wins", mc.skulls, True
    # A tie keeps the humanoid (only weaker ones are removed). "0 or even minus Fame":
    # monster skulls - humanoid skulls; the card data guarantees it is never above 0.
    return "beaten", mc.skulls - h.skulls, True


def score_columns(state: State) -> list[list[dict[str, Any]]]:
    """Per seat, per dungeon column: index, outcome, fame and whether it was revealed."""
    out = []
    for p in state["players"]:
        mons, hums = p["monsters"], p["humanoids"]
        cols = []
        for i in range(max(len(mons), len(hums))):
            outcome, fame, revealed = column(
                mons[i] if i < len(mons) else None, hums[i] if i < len(hums) else None
            )
            cols.append({"index": i, "outcome": outcome, "fame": fame, "revealed": revealed})
        out.append(cols)
    return out
