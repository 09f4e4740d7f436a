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

The searching player's hooks (issue 30: ``rollout``, ``evaluate``, ``SEARCH``,
``match_stats``; docs/ai/monster-inn.md) are handed states that search dealt from
the seat's view (sample.py), never the real state.
"""

from __future__ import annotations

import functools
import math
import operator
import random
from typing import Any

from . import rules, views
from .data import CARDS, HUMANOIDS, MONSTERS
from .game import MonsterInn

TREASURE = 1 / 3  # fame per treasure (1 fame per 3 treasures)
STEP = 0.3  # expected price, in fame, of every creature that has to leave before the one wanted
# The price of reaching the creature 1, 2, ... places right of the leftmost (an inn holds
# one creature a seat, and never more than the 40 cards).
_STEPS = [STEP * j for j in range(1, 40)]
# A humanoid below one of its own monsters either does nothing or wipes out the
# monster's fame and more: the AI counts that gamble above its mean, by this many
# standard deviations (issue 17: it used to take a 16-20 humanoid under its own
# unsupported 4-skull monster for a rich pool, betting a whole monster on 1 in 5).
RISK = 0.75


@functools.cache  # a pure function of a few hundred arguments, asked on every search move
def beat_chance(rng: str, mvalue: int) -> float:
    """Chance that a humanoid of back range ``rng`` ("11-15") is not weaker than a
    monster of combat value ``mvalue`` (a tie keeps the humanoid)."""
    lo, hi = (int(x) for x in rng.split("-"))
    return sum(1 for v in range(lo, hi + 1) if v >= mvalue) / (hi - lo + 1)


def humanoid_loss(back: dict[str, Any], mvalue: int) -> float:
    """Fame at stake when a humanoid with this back lies under a monster: if it is
    not weaker, the monster scores its skulls minus the humanoid's instead of its
    skulls, a loss of the humanoid's skulls. Mean plus the risk premium."""
    return _loss(back["range"], back["skulls"], mvalue)


@functools.cache
def _loss(rng: str, skulls: int, mvalue: int) -> float:
    p = beat_chance(rng, mvalue)
    return skulls * (p + RISK * math.sqrt(p * (1 - p)))


_BACKS = [{"range": f"{lo}-{lo + 4}", "skulls": k + 1} for k, lo in enumerate((1, 6, 11, 16))]
# What a humanoid of each range is expected to cost an average future monster.
_AVG_LOSS = {
    b["range"]: sum(humanoid_loss(b, m.value) for m in MONSTERS.values()) / len(MONSTERS) for b in _BACKS
}
# The same without the risk premium: the mean cost, for evaluate.
_MEAN_LOSS = {
    f"{lo}-{lo + 4}": (k + 1)
    * sum(beat_chance(f"{lo}-{lo + 4}", m.value) for m in MONSTERS.values())
    / len(MONSTERS)
    for k, lo in enumerate((1, 6, 11, 16))
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
    remains = [a for a in legal if a in ("gold", "gem")]
    return _take_or_leave(values, pool, me["gold"], me["gem"], remains, "swap" in legal)


def _take_or_leave(
    values: list[float], pool: dict[str, Any], gold: int, gem: int, remains: list[str], swap: bool
) -> str:
    """Remain (paying with a treasure, or a swap) while a creature further right in the
    inn, less the price of getting there, is worth more than taking the leftmost one
    (``values``, in fame) with the pool; else leave. ``remains``: the legal treasures to
    add, ``swap``: whether a swap is legal. The easy player and its rollout twin both
    decide here."""
    now = values[0] + pool["n"] * TREASURE
    later = max(map(operator.sub, values[1:], _STEPS), default=-99.0)
    if remains:
        cost = TREASURE
        if pool["type"] is None:
            pick = "gold" if gold >= gem else "gem"
            action = pick if pick in remains else remains[0]
        else:
            action = remains[0]
    elif swap:
        cost, action = 2 * TREASURE, "swap"
    else:
        return "leave"
    # Keep a small reserve: a purse of 1-2 cannot follow a pool of the other type.
    reserve = 0.3 if gold + gem <= 2 else 0.0
    if later - now > cost + reserve + 0.1:
        return action
    return "leave"


# ---- search (issue 30): the hooks engine/search.py calls on sampled states --------------

# The searching player's settings (engine.search.Params). Hard searches the other seats' bids
# in the tree too: four times the budget spent on the best answer to the heuristic player won
# 14 of 44 games against two normal players (a fair share); with the others in the tree, 9 of
# the first 14 (docs/ai.md).
SEARCH = {
    "rollout_moves": 24,
    "exploration": 0.5,
    "depth": 12,
    "walk_moves": 400,
    "iterations": 400,
    "hard": {"others": "tree"},
}

_GAME = MonsterInn()
# Each card's face as plain fields, for the rollout: (monster?, value, skulls, kind, range).
_INFO = {cid: (c.is_monster, c.value, c.skulls, c.kind, c.range) for cid, c in CARDS.items()}
_FACE = {cid: views.card_view(cid, False) for cid in CARDS}
# _loss of every humanoid under every monster, both ways round: _LOSSES[humanoid][monster]
# and _LOSSES[monster][humanoid] (the rollout looks up whichever lies in the dungeon).
_LOSSES: dict[str, dict[str, float]] = {
    **{h: {m: _loss(c.range, c.skulls, MONSTERS[m].value) for m in MONSTERS} for h, c in HUMANOIDS.items()},
    **{
        m: {h: _loss(c.range, c.skulls, mc.value) for h, c in HUMANOIDS.items()} for m, mc in MONSTERS.items()
    },
}
# The rollout's creature values where they depend on cards alone: a humanoid under a
# supported monster, under an unsupported one (_UNDER[monster][humanoid]), and a monster
# on a humanoid (_ON[humanoid]: its value, and its value when support can protect it).
_SUPPORTED = dict.fromkeys(HUMANOIDS, TREASURE)
_UNDER = {m: {h: TREASURE - loss for h, loss in _LOSSES[m].items()} for m in MONSTERS}
_ON = {
    h: (
        {m: float(MONSTERS[m].skulls) - loss for m, loss in _LOSSES[h].items()},
        {m: float(MONSTERS[m].skulls) - min(loss, TREASURE) for m, loss in _LOSSES[h].items()},
    )
    for h in HUMANOIDS
}


def rollout(state: dict[str, Any], seat: int, rnd: random.Random) -> str:
    """The move ``choose`` makes for ``seat`` on this (sampled) state, read straight
    from the state's fields the seat's view shows (its purse and dungeon, the inn's
    faces and backs, the pool, the deck's size) instead of building the view: the
    same arithmetic in the same order, so the same move (tests/monster_inn/
    test_sample.py checks it on every move of many games). Search plays it for every
    other seat and in every rollout, so it must be cheap: a bid (most moves) reads its
    legal moves off the purse and the pool as the rules allow them."""
    p = state["players"][seat]
    pend = state["pending"]
    if pend is not None:
        sup = state["supply"]
        if pend["kind"] == "bonus" and sup["gold"] > 0 and sup["gem"] > 0:  # both bonus types legal
            return "bonus gold" if p["gold"] <= p["gem"] else "bonus gem"
        return _follow_up(state, seat, p)
    pool = state["pool"]
    kind = pool["type"]
    if kind is None:
        remains = [t for t in ("gold", "gem") if p[t] > 0]
        swap = False
    else:
        remains = [kind] if p[kind] > 0 else []
        swap = p["gem" if kind == "gold" else "gold"] >= pool["n"] + 2
    if not remains and not swap:
        return "leave"  # the only legal move
    values = _values(state, p, len(state["deck"]) // state["seats"])
    return _take_or_leave(values, pool, p["gold"], p["gem"], remains, swap)


def _follow_up(state: dict[str, Any], seat: int, p: dict[str, Any]) -> str:
    """``choose``'s humanoid bonus or support, read from the state."""
    legal = _GAME.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if legal[0][0] == "b":  # the humanoid bonus
        want = "gold" if p["gold"] <= p["gem"] else "gem"
        return f"bonus {want}" if f"bonus {want}" in legal else legal[0]
    rounds_left = len(state["deck"]) // state["seats"]
    mons, hums = p["monsters"], p["humanoids"]
    best, best_gain = "nosupport", TREASURE + 0.1
    for a in legal[:-1]:
        _, num, t = a.split()
        i = int(num) - 1
        m = _INFO[mons[i]["card"]]
        if i < len(hums):
            h = _INFO[hums[i]]
            gain = _loss(h[4], h[2], m[1])
        else:
            gain = 0.25 * m[2] * min(1.0, rounds_left / 4)
        prefer = 0.01 if p[t] >= p["gem" if t == "gold" else "gold"] else 0.0
        if gain + prefer > best_gain:
            best, best_gain = a, gain + prefer
    return best


def _values(state: dict[str, Any], p: dict[str, Any], rounds_left: int) -> list[float]:
    """``creature_value`` of each creature in the inn, for the seat whose purse and
    dungeon are ``p``: the same arithmetic, looked up in tables of every card."""
    mons, hums = p["monsters"], p["humanoids"]
    nm, nh = len(mons), len(hums)
    if nh < nm:  # a humanoid taken now lies under this monster
        above = mons[nh]
        humanoid = _SUPPORTED if above["support"] is not None else _UNDER[above["card"]]
    else:
        humanoid = _humanoids_alone(rounds_left, nh - nm + 1)
    inn = state["inn"]
    if nm >= nh:
        monster = _monsters_alone(rounds_left)
        return [humanoid[c] if c in humanoid else monster[c] for c in inn]
    # A monster taken now lies on the humanoid at nm; support can protect it if the seat
    # has an unsupported monster of its kind.
    plain, protected = _ON[hums[nm]]
    open_kinds = {_INFO[m["card"]][3] for m in mons if m["support"] is None}
    return [
        humanoid[c] if c in humanoid else (protected if _INFO[c][3] in open_kinds else plain)[c] for c in inn
    ]


@functools.cache
def _monsters_alone(rounds_left: int) -> dict[str, float]:
    """Each monster's value with no humanoid below it yet (one may still arrive)."""
    share = min(1.0, rounds_left / 4)
    return {m: c.skulls - 0.15 * c.skulls * share for m, c in MONSTERS.items()}


@functools.cache
def _humanoids_alone(rounds_left: int, need: int) -> dict[str, float]:
    """Each humanoid's value with no monster above it yet, ``need`` monsters short."""
    chance = min(1.0, rounds_left / (2 * need)) if rounds_left > 0 else 0.0
    return {h: TREASURE - chance * _AVG_LOSS[c.range] for h, c in HUMANOIDS.items()}


def projected(state: dict[str, Any], seat: int) -> float:
    """The seat's fame at the end if its dungeon stays as it is, in expectation over
    what nobody knows: a humanoid under an unsupported monster costs its skulls times
    the chance its range is not weaker (its face is unknown to everyone, so the sampled
    face is not used: the expectation is the same and steadier); an open slot costs
    what a humanoid or monster still to come is expected to cost; treasure counts a
    third of a fame each (unrounded, so a treasure is never worth nothing)."""
    p = state["players"][seat]
    mons, hums = p["monsters"], p["humanoids"]
    rounds_left = len(state["deck"]) // state["seats"]
    fame = (p["gold"] + p["gem"]) / 3
    for i in range(max(len(mons), len(hums))):
        m = MONSTERS[mons[i]["card"]] if i < len(mons) else None
        h = _FACE[hums[i]] if i < len(hums) else None
        if m is None:
            assert h is not None
            need = i - len(mons) + 1  # monsters still to come before one lies above it
            chance = min(1.0, rounds_left / (2 * need)) if rounds_left > 0 else 0.0
            fame -= chance * _MEAN_LOSS[h["range"]]
        elif h is None:
            fame += m.skulls - 0.15 * m.skulls * min(1.0, rounds_left / 4)
        elif mons[i]["support"] is not None:
            fame += m.skulls
        else:
            fame += m.skulls - h["skulls"] * beat_chance(h["range"], m.value)
    return fame


def evaluate(state: dict[str, Any], seat: int) -> float:
    """Chance-like value in [0, 1] of a sampled non-terminal state: a logistic of the
    seat's projected fame less the best other seat's, flatter while many rounds are
    left (more can still change)."""
    mine = projected(state, seat)
    best = max(projected(state, s) for s in range(state["seats"]) if s != seat)
    rounds_left = len(state["deck"]) // state["seats"] + 1
    scale = 1.5 + 0.6 * rounds_left
    return 1.0 / (1.0 + math.exp(-(mine - best) / scale))


def match_stats(state: dict[str, Any], seat: int, log: list[tuple[int, Any]]) -> dict[str, float]:
    """Figures of one finished game for ``seat``: humanoids still under its own
    monsters at the end (they cost fame), its fame from monsters, from beaten monsters
    and from treasure, creatures taken for an empty pool, and treasure paid to remain."""
    res = _GAME.result(state)
    cols = rules.score_columns(state)[seat]
    b = res.breakdown[seat]
    remains = sum(1 for s, a in log if s == seat and a in ("gold", "gem"))
    swaps = sum(1 for s, a in log if s == seat and a == "swap")
    return {
        "humanoids_under_monsters": float(sum(1 for c in cols if c["outcome"] == "beaten")),
        "monster_fame": float(b["monsters"]),
        "beaten_fame": float(b["beaten"]),
        "treasure_fame": float(b["treasure"]),
        "monsters": float(len(state["players"][seat]["monsters"])),
        "supported": float(sum(1 for m in state["players"][seat]["monsters"] if m["support"])),
        "remains": float(remains),
        "swaps": float(swaps),
    }
