"""A heuristic Monster Inn player that only reads its own view.

It values every creature in fame: a monster is worth its skulls minus the fame
a humanoid below it is expected to cost; a humanoid is worth the bonus treasure
minus the fame it is expected to cost the monster above it. Humanoid values are
unknown to everybody; the back shows the range and the skulls, and the card list
is public (one humanoid of each value 1-20), so the chance that a humanoid of a
range beats a monster is the share of the range's values not below the monster's.
Each treasure is worth a third of a fame point. It remains while a creature
further right is worth more than taking the leftmost one with the pool, after
the price of getting there.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .data import MONSTERS

TREASURE = 1 / 3  # fame per treasure (1 fame per 3 treasures)
STEP = 0.3  # expected price, in fame, of every creature that has to leave before the one wanted
# A humanoid below one of its own monsters either does nothing or wipes out the
# monster's fame and more: the AI counts that gamble above its mean, by this many
# standard deviations (issue 17: it used to take a 16-20 humanoid under its own
# unsupported 4-skull monster for a rich pool, betting a whole monster on 1 in 5).
RISK = 0.75


def beat_chance(rng: str, mvalue: int) -> float:
    """Chance that a humanoid of back range ``rng`` ("11-15") is not weaker than a
    monster of combat value ``mvalue`` (a tie keeps the humanoid)."""
    lo, hi = (int(x) for x in rng.split("-"))
    return sum(1 for v in range(lo, hi + 1) if v >= mvalue) / (hi - lo + 1)


def humanoid_loss(back: dict[str, Any], mvalue: int) -> float:
    """Fame at stake when a humanoid with this back lies under a monster: if it is
    not weaker, the monster scores its skulls minus the humanoid's instead of its
    skulls, a loss of the humanoid's skulls. Mean plus the risk premium."""
    p = beat_chance(back["range"], mvalue)
    return back["skulls"] * (p + RISK * math.sqrt(p * (1 - p)))


_BACKS = [{"range": f"{lo}-{lo + 4}", "skulls": k + 1} for k, lo in enumerate((1, 6, 11, 16))]
# What a humanoid of each range is expected to cost an average future monster.
_AVG_LOSS = {
    b["range"]: sum(humanoid_loss(b, m.value) for m in MONSTERS.values()) / len(MONSTERS) for b in _BACKS
}


def _monster_value(card: dict[str, Any], me: dict[str, Any], rounds_left: int) -> float:
    mons, hums = me["monsters"], me["humanoids"]
    i = len(mons)
    if i < len(hums):
        loss = humanoid_loss(hums[i], card["value"])
        if any(m["kind"] == card["kind"] and m["support"] is None for m in mons):
            loss = min(loss, TREASURE)  # support can protect it for one treasure
        return float(card["skulls"]) - loss
    # A humanoid may still arrive below it.
    return card["skulls"] - 0.15 * card["skulls"] * min(1.0, rounds_left / 4)


def creature_value(card: dict[str, Any], me: dict[str, Any], rounds_left: int) -> float:
    if card["type"] == "monster":
        return _monster_value(card, me, rounds_left)
    mons, hums = me["monsters"], me["humanoids"]
    i = len(hums)
    bonus = TREASURE
    if i < len(mons):
        m = mons[i]
        if m["support"] is not None:
            return bonus
        return bonus - humanoid_loss(card, m["value"])
    # No monster above yet: one may come later, if enough rounds remain.
    need = i - len(mons) + 1
    chance = min(1.0, rounds_left / (2 * need)) if rounds_left > 0 else 0.0
    return bonus - chance * _AVG_LOSS[card["range"]]


def choose(view: dict[str, Any], legal: list[str], rnd: random.Random) -> str:
    """The contract's AI hook: the seat's view, its legal moves, its own randomness
    (unused: the heuristic is deterministic)."""
    me = view["players"][view["viewer"]]
    if len(legal) == 1:
        return legal[0]
    if legal[0].startswith("bonus"):
        want = "gold" if me["gold"] <= me["gem"] else "gem"
        return f"bonus {want}" if f"bonus {want}" in legal else legal[0]
    if legal[-1] == "nosupport":
        return _support(view, me, legal)
    return _bid(view, me, legal)


def _support(view: dict[str, Any], me: dict[str, Any], legal: list[str]) -> str:
    best, best_gain = "nosupport", TREASURE + 0.1
    rounds_left = view["deck"] // view["seats"]
    for a in legal[:-1]:
        _, num, t = a.split()
        i = int(num) - 1
        m = me["monsters"][i]
        if i < len(me["humanoids"]):
            gain = humanoid_loss(me["humanoids"][i], m["value"])
        else:
            gain = 0.25 * m["skulls"] * min(1.0, rounds_left / 4)
        # Pay with the type held more of, so both can still be bid.
        prefer = 0.01 if me[t] >= me["gem" if t == "gold" else "gold"] else 0.0
        if gain + prefer > best_gain:
            best, best_gain = a, gain + prefer
    return best


def _bid(view: dict[str, Any], me: dict[str, Any], legal: list[str]) -> str:
    inn, pool = view["inn"], view["pool"]
    rounds_left = view["deck"] // view["seats"]
    values = [creature_value(c, me, rounds_left) for c in inn]
    now = values[0] + pool["n"] * TREASURE
    later = max((v - STEP * j for j, v in enumerate(values[1:], 1)), default=-99.0)
    purse = me["gold"] + me["gem"]
    remains = [a for a in legal if a in ("gold", "gem")]
    if remains:
        cost = TREASURE
        if pool["type"] is None:
            pick = "gold" if me["gold"] >= me["gem"] else "gem"
            action = pick if pick in remains else remains[0]
        else:
            action = remains[0]
    elif "swap" in legal:
        cost, action = 2 * TREASURE, "swap"
    else:
        return "leave"
    # Keep a small reserve: a purse of 1-2 cannot follow a pool of the other type.
    reserve = 0.3 if purse <= 2 else 0.0
    if later - now > cost + reserve + 0.1:
        return action
    return "leave"
