"""A heuristic Monster Inn player that only reads its own view.

It values every creature in fame: a monster is worth its skulls minus the fame
a humanoid below it is expected to cost; a humanoid is worth the bonus treasure
minus the fame it is expected to cost the monster above it. Humanoid values are
unknown to everybody, so the expectation runs over the five cards of the range
printed on the back (the card list itself is public). Each treasure is worth a
third of a fame point. It remains while a creature further right is worth more
than taking the leftmost one with the pool, after the price of getting there.
"""

from __future__ import annotations

from typing import Any

from .cards import HUMANOIDS, MONSTERS

TREASURE = 1 / 3  # fame per treasure (1 fame per 3 treasures)
STEP = 0.3  # expected price, in fame, of every creature that has to leave before the one wanted
HUMANOIDS_BY_RANGE: dict[str, list[tuple[int, int]]] = {}
for _h in HUMANOIDS.values():
    HUMANOIDS_BY_RANGE.setdefault(_h.range, []).append((_h.value, _h.skulls))


def humanoid_loss(rng: str, mvalue: float, mskulls: float) -> float:
    """Expected fame lost when a humanoid of back range ``rng`` lies under a monster:
    if it is not weaker, the monster's skulls are lost and min(0, m - h) is scored."""
    cards = HUMANOIDS_BY_RANGE[rng]
    return sum(max(mskulls, hs) for hv, hs in cards if hv >= mvalue) / len(cards)


# An average future monster, for humanoids that have no monster above them yet.
_AVG_LOSS = {
    rng: sum(humanoid_loss(rng, m.value, m.skulls) for m in MONSTERS.values()) / len(MONSTERS)
    for rng in HUMANOIDS_BY_RANGE
}
_AVG_MONSTER_LOSS = sum(_AVG_LOSS.values()) / len(_AVG_LOSS)


def creature_value(card: dict[str, Any], me: dict[str, Any], rounds_left: int) -> float:
    mons, hums = me["monsters"], me["humanoids"]
    if card["type"] == "monster":
        i = len(mons)
        if i < len(hums):
            loss = humanoid_loss(hums[i]["range"], card["value"], card["skulls"])
            if any(m["kind"] == card["kind"] and m["support"] is None for m in mons):
                loss = min(loss, TREASURE)  # support can protect it for one treasure
            return card["skulls"] - loss
        # A humanoid may still arrive below it.
        return card["skulls"] - 0.15 * card["skulls"] * min(1.0, rounds_left / 4)
    i = len(hums)
    bonus = TREASURE
    if i < len(mons):
        m = mons[i]
        if m["support"] is not None:
            return bonus
        return bonus - humanoid_loss(card["range"], m["value"], m["skulls"])
    # No monster above yet: one may come later, if enough rounds remain.
    need = i - len(mons) + 1
    chance = min(1.0, rounds_left / (2 * need)) if rounds_left > 0 else 0.0
    return bonus - chance * _AVG_LOSS[card["range"]]


def choose(view: dict[str, Any], legal: list[str]) -> str:
    me = view["players"][view["me"]]
    if legal == ["nosupport"] or len(legal) == 1:
        return legal[0]
    gold, gem = me["gold"], me["gem"]
    if legal[0].startswith("bonus"):
        want = "gold" if gold <= gem else "gem"
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
            gain = humanoid_loss(me["humanoids"][i]["range"], m["value"], m["skulls"])
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
