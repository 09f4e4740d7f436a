"""A sensible Dungeon Drawers player, from the seat's view only (the AI hook of engine/core.py).

It reads only ``Game.view(state, seat)``: its own sheet (with its treasures),
the public sheets, its hand. Heuristics, in short:

* build: take the card worth most for the dungeon; hide treasure under monsters,
  put monsters where the hero's shortest route does not pass, traps on spaces the
  hero cannot avoid, walls against the border and other walls;
* path: of several candidate paths, draw the one that minimises the expected
  score of the dungeon's owner (weak monsters fought, strong ones and traps avoided);
* defend: play a dungeon action when it can still win the fight, put hero actions
  on the leading opponent, put useless cards under the deck.
"""

from __future__ import annotations

import copy
import marshal
import math
import random
from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from ..timekeeping import Steps
from . import board
from .build import current_element, install, wall_value, wall_values
from .data import ACTIONS, CARDS, DEATH_POINTS, DIE, HEARTS, ROUNDS, SHEET, TARGET, TRACKS, level, track_size
from .paths import candidate_paths, expected_owner_score
from .rules import crossed_monsters, fight_strength, levels, p_win

MONSTERS = board.MONSTER_KINDS


def _active(sheet: dict, cell: str) -> str | None:
    k = sheet["grid"].get(cell)
    return k if k in board.BLOCKER_KINDS and cell not in sheet["crossed"] else None


# ---- building ------------------------------------------------------------------------------


def _shortest_set(sheet: dict) -> set[str]:
    p = board.cost_path(sheet, board.ENTRANCE, board.EXIT)
    return set(p or [])


def _chokepoint(sheet: dict, cell: str) -> bool:
    return _cut(board.wall_mask(sheet), cell)


_CUTS: dict[tuple[int, str], bool] = {}


def _cut(walls: int, cell: str) -> bool:
    """Whether ``cell`` stands on every way from the entrance to the exit past ``walls``.
    Remembered per walls: the heuristic asks for the spaces of the route at every install."""

    def cut() -> bool:
        free = board.FULL & ~walls & ~board.bit(cell)
        return not board.flood(board.bit(board.ENTRANCE), free) & board.bit(board.EXIT)

    return bool(board.remembered(_CUTS, (walls, cell), cut, size=4096))


@dataclass(frozen=True)
class Weights:
    """What the heuristic player's card choice and improvements make of a card's parts."""

    improvement: float  # an improvement box
    trap_per_level: float  # a trap: this much per level of trap damage, plus ``trap``
    trap: float
    monster_odds: float  # a monster: its points, plus this times its chance of winning (+2 from a card) times (points + damage)
    track_odds: float  # a box on a monster track: this times the fights it adds (points + damage)


# Today's player (Easy) as it always played.
EASY = Weights(improvement=1.1, trap_per_level=0.6, trap=0.4, monster_odds=0.0, track_odds=1.0)

# Normal's and Hard's: tuned by self-play against EASY (docs/ai/dungeon-drawers.md, fifth
# round): Easy undervalues improvement boxes, which turn weak monsters into ones that win, and
# overvalues traps, which fire once and take a space from a monster (about 71 % of 2-player
# games won against Easy by the heuristic alone).
TUNED = Weights(improvement=2.5, trap_per_level=0.0, trap=-0.3, monster_odds=0.5, track_odds=2.0)


def _element_value(sheet: dict, lv: dict[str, int], el: str, round_: int, w: Weights = EASY) -> float:
    if el.startswith("wall:"):
        return -0.15 * len(SHEET["walls"][el[5:]])
    if el in MONSTERS:
        room = len(board.blocker_cells(sheet))
        info = SHEET["monsters"][el]
        value = info["points"] * (1.0 if room > 3 else 0.2) + 0.3
        if w.monster_odds:
            value += w.monster_odds * p_win(lv[el] + 2) * (info["points"] + info["damage"])
        return value
    if el == "trap":
        return w.trap_per_level * lv["trap"] + w.trap
    if el == "treasure":
        return 0.9 * lv["treasure"]
    return w.improvement


def card_value(view: dict, seat: int, cid: int, w: Weights = EASY) -> float:
    me = view["players"][seat]
    sheet, lv = me["sheet"], me["levels"]
    card = CARDS[cid]
    value = sum(_element_value(sheet, lv, e, view["round"], w) for e in card.elements)
    action = ACTIONS[card.action]
    value += 0.7 if action["type"] == "dungeon" else 0.5
    return value


def _improve_choice(sheet: dict, rnd: random.Random, w: Weights = EASY) -> str:
    """The box worth most per box spent. A monster track is valued by the chance of winning
    a fight it adds (with a card's +2 on average) up to the best level still reachable, so
    the AI concentrates on one monster type: +2 on a goblin that cannot reach 20 is worth
    nothing, while a dragon at +12 wins 4 fights in 10."""
    grid = sheet["grid"]
    counts = dict.fromkeys(("goblin", "orc", "dragon", "trap"), 0)
    for v in grid.values():
        if v in counts:
            counts[v] += 1
    best, best_v = "hand", -1.0
    for t in TRACKS:
        boxes = sheet["imp"][t]
        if boxes >= track_size(t):
            continue
        cur = level(t, boxes)
        v = 0.0
        used = 0
        for size, lvl in SHEET["tracks"][t]["groups"]:
            used += size
            if used <= boxes:
                continue
            need = used - boxes
            if t in MONSTERS:
                info = SHEET["monsters"][t]
                gain = (p_win(lvl + 2) - p_win(cur + 2)) * (info["points"] + info["damage"])
                v = max(v, w.track_odds * counts[t] * gain / need)
            elif t == "trap":
                v = max(v, 0.8 * counts["trap"] * (lvl - cur) / need)
            elif t == "treasure":
                v = max(v, 0.8 * (len(sheet["treasures"]) + 1) * (lvl - cur) / need)
            else:
                v = max(v, (3.0 if cur < 3 else 0.5) * (lvl - cur) / need)
        v += rnd.random() * 0.01
        if v > best_v:
            best, best_v = t, v
    return best


def _install(view: dict, seat: int, el: str, rnd: random.Random, w: Weights = EASY) -> dict[str, Any]:
    me = view["players"][seat]
    sheet = me["sheet"]
    grid = sheet["grid"]
    treasures = set(sheet["treasures"])
    if el.startswith("wall:"):
        placements = board.wall_placements(sheet, el[5:])
        values = wall_values(sheet, placements)
        best = max(range(len(placements)), key=lambda i: values[i] + rnd.random() * 0.5)
        return {"t": "wall", "cells": placements[best]}
    if el in board.BLOCKER_KINDS:
        cells = board.blocker_cells(sheet)
        route = _shortest_set(sheet)
        dist = board.distances(sheet, board.ENTRANCE)
        strong = el in MONSTERS and p_win(me["levels"][el] + 2) >= 0.25
        walls = board.wall_mask(sheet)

        def score(c: str) -> float:
            v = rnd.random() * 0.5
            if el == "trap":
                v += 1.0 if c in route else 0.0
                v += 3.0 if c in route and _cut(walls, c) else 0.0
                v -= 2.0 if c in treasures else 0.0
            elif strong:
                # a monster that often wins goes where the hero cannot avoid it
                v += 10.0 if c in treasures else 0.0
                v += 1.0 if c in route else 0.0
                v += 3.0 if c in route and _cut(walls, c) else 0.0
            else:
                v += 10.0 if c in treasures else 0.0
                v += 0.0 if c in route else 2.0 + 0.05 * dist.get(c, 0)
            return v

        return {"t": "place", "kind": el, "at": max(cells, key=score)}
    if el == "treasure":
        mine = [c for c, k in grid.items() if k in MONSTERS and c not in treasures]
        if mine:
            return {
                "t": "treasure",
                "at": max(mine, key=lambda c: (SHEET["monsters"][grid[c]]["points"], rnd.random())),
            }
        route = _shortest_set(sheet)
        spots = [c for c in board.blocker_cells(sheet) if c not in treasures]
        if spots:
            return {"t": "treasure", "at": max(spots, key=lambda c: (c not in route, rnd.random()))}
        free = [c for c in board.ALL_CELLS if c not in treasures]
        return {"t": "treasure", "at": rnd.choice(free)}
    return {"t": "improve", "track": _improve_choice(sheet, rnd, w)}


# ---- defending ----------------------------------------------------------------------------


def _public_score(p: dict) -> float:
    sheet = p["sheet"]
    monsters = sum(
        SHEET["monsters"][k]["points"]
        for c, k in sheet["grid"].items()
        if k in MONSTERS and c not in sheet["crossed"]
    )
    return monsters + p["treasure_count"] * p["levels"]["treasure"] * 0.5 - p["hero"]["hearts"] * 0.5


def _encounter(view: dict, seat: int) -> dict[str, Any]:
    me = view["players"][seat]
    enc = view["encounter"]
    hand = me["hand"]
    acts = {c: ACTIONS[CARDS[c].action] for c in hand}
    if enc["kind"] == "trap":
        for c, a in acts.items():
            if a["type"] == "dungeon" and a["effect"] == "trap":
                return {"t": "play", "card": c}
        return {"t": "resolve"}
    strength = view["strength"]
    if strength >= TARGET:
        return {"t": "resolve"}
    flat = sorted(
        (
            (a["amount"], c)
            for c, a in acts.items()
            if a["type"] == "dungeon" and a["effect"] == "bonus" and a["monster"] in (None, enc["kind"])
        ),
        reverse=True,
    )
    flat_total = sum(x for x, _ in flat)
    if flat and strength + flat_total >= TARGET:
        # the smallest single card that is enough, else the biggest
        for amount, c in sorted(flat):
            if strength + amount >= TARGET:
                return {"t": "play", "card": c}
        return {"t": "play", "card": flat[0][1]}
    dice = enc["dice"]
    room = 4 - len(dice)
    order = {"talisman": 0, "blade": 1, "ax": 2}
    dice_cards = sorted(
        (c for c, a in acts.items() if a["type"] == "dungeon" and a["effect"] == "dice" and a["add"] <= room),
        key=lambda c: order.get(CARDS[c].action, 9),
    )
    for c in dice_cards:
        a = acts[c]
        gain = DIE * a["add"] - (sum(sorted(dice)[: a["drop"]]) if a["drop"] else 0)
        if strength + flat_total + gain >= TARGET:
            return {"t": "play", "card": c}
    for c, a in acts.items():
        if a["type"] == "dungeon" and a["effect"] == "reroll" and sum(dice) < (DIE + 1) / 2 * len(dice):
            if strength - sum(dice) + DIE * len(dice) + flat_total >= TARGET:
                return {"t": "play", "card": c}
    return {"t": "resolve"}


def _actions(view: dict, seat: int) -> dict[str, Any]:
    me = view["players"][seat]
    hand = me["hand"]
    opponents = sorted(
        (q for q in view["players"] if q["seat"] != seat and q["hero"]["state"] == "in" and len(q["on"]) < 2),
        key=lambda q: -_public_score(q),
    )
    for c in hand:
        a = ACTIONS[CARDS[c].action]
        if a["type"] != "hero":
            continue
        for q in opponents:
            if a["event"] == "turn" and q["hero"]["hearts"] > HEARTS - 2:
                continue
            return {"t": "hero", "card": c, "to": q["seat"]}
    # Put under the deck what cannot help soon: dungeon actions for monsters no longer ahead.
    ahead: set[str] = set()
    if me["hero"]["state"] == "in" and me["path"]:
        sheet = me["sheet"]
        ahead = {k for c in me["path"][me["hero"]["pos"] + 1 :] if (k := _active(sheet, c) or "")}
    under = []
    for c in hand:
        a = ACTIONS[CARDS[c].action]
        if a["type"] != "dungeon":
            continue
        if a["effect"] == "trap" and "trap" not in ahead:
            under.append(c)
        elif (
            a["effect"] == "bonus"
            and (ahead & {a["monster"]} if a["monster"] else ahead & set(MONSTERS)) == set()
        ):
            under.append(c)
        elif a["effect"] in ("dice", "reroll") and not ahead & set(MONSTERS):
            under.append(c)
    if me["deck_count"] == 0:
        under = []
    return {"t": "refill", "under": under}


def choose(view: dict, legal: list[Any], rnd: random.Random) -> Any:
    """The AI hook (engine/core.py): the seat's view, its legal moves and the AI's own randomness."""
    return _choose(view, rnd, EASY)


def choose_tuned(view: dict, legal: list[Any], rnd: random.Random) -> Any:
    """The heuristic player with the TUNED weights: the move Normal and Hard search around."""
    return _choose(view, rnd, TUNED)


def _choose(view: dict, rnd: random.Random, w: Weights) -> Any:
    seat = view["viewer"]
    phase = view["phase"]
    me = view["players"][seat]
    if phase == "build":
        pend = me["pending"]
        if pend is None:
            return {
                "t": "take",
                "card": max(view["display"], key=lambda c: (card_value(view, seat, c, w), -c)),
            }
        els = CARDS[pend["card"]].elements
        if pend["next"] >= len(els):
            return {"t": "done"}
        return _install(view, seat, els[pend["next"]], rnd, w)
    if phase == "path":
        n = view["seats"]
        owner = view["players"][(seat - 1) % n]
        sheet, lv = owner["sheet"], owner["levels"]
        cands = candidate_paths(sheet, lv)
        best = min(cands, key=lambda p: (expected_owner_score(sheet, lv, p, owner["treasure_count"]), len(p)))
        return {"t": "path", "cells": best}
    if view["step"] == "encounter":
        return _encounter(view, seat)
    return _actions(view, seat)


# ---- search hooks (issue 30): evaluate, a fast rollout, SEARCH, match figures ----------------

# engine.search.Params. Most moves are installs whose worth shows only once the hero walks,
# hundreds of moves later, and full playouts vary by about 20 points a game (the dice of Phase
# C), so the root moves are compared on the same samples ("playouts") a short way: after the
# move, the other seats play up to this seat's next decision and the projection below scores
# the position. On one sample two moves then differ only by what they changed (the difference
# has a standard error of about 0.001), and a move replaces the heuristic's own choice only if
# it gains more than one standard error.
# Normal and Hard search around the heuristic with the TUNED weights (fifth round,
# docs/ai/dungeon-drawers.md): Normal won 73 of 99 decided games against Easy on seed 1.
# Hard settles its path and fights by playouts to the end (``settle``, SETTLED), its other
# decisions searched as Normal's (25 x 4 = 100 playouts): at 100 the paired search is already an
# argmax of the projection, and neither four times the playouts (9 of 20) nor a wider root
# (13 of 30 on the tuned heuristic) beat Normal; settled, 38 of 60.
SEARCH = {
    "method": "playouts",
    "horizon": "mine",
    "iterations": 100,
    "confidence": 1.0,
    "hard": {"settle": 64, "iterations": 25},
}

# Points of projected final score (own minus the best other's) that move the evaluation from
# 0.5 to about 0.73: a dragon and its treasure, or a hero's death against his escape.
SCALE = 4.0

# What one card adds to a dungeon's projected score on average (games of the heuristic
# player: about 31 points projected after the 14 picks of Phase A).
PICK = 2.2


@cache
def _card_win(strength: int, kind: str, action: str | None) -> float:
    """The chance a monster of ``kind`` with ``strength`` (its level) wins a fight in which its
    owner plays dungeon action ``action`` if needed (None: no card)."""
    a: dict[str, Any] = ACTIONS[action] if action else {"effect": None}
    if a["effect"] == "bonus" and a["monster"] in (None, kind):
        return p_win(strength + a["amount"])
    if a["effect"] == "dice" and not a["drop"]:
        return p_win(strength, 2 + a["add"])
    if a["effect"] == "dice":  # Talisman: the best 2 of 2 + add dice
        rolls = list(product(range(1, DIE + 1), repeat=2 + a["add"]))
        return sum(1 for r in rolls if sum(sorted(r)[-2:]) + strength >= TARGET) / len(rolls)
    if a["effect"] == "reroll":
        return 1.0 - (1.0 - p_win(strength)) ** 2
    return p_win(strength)


def _held(state: dict, s: int, kind: str) -> list[str]:
    """The actions of ``kind`` ("dungeon" or "hero") ``s`` may still play: in Phase A those of
    every card it took (and its face-up one), in Phase B the same (hands are dealt only when
    Phase C begins), later of its hand and action deck."""
    p = state["players"][s]
    if state["phase"] != "defend":
        cards = p["taken"] + ([p["pending"]["card"]] if p["pending"] else [])
    else:
        cards = p["hand"] + p["deck"]
    return [CARDS[c].action for c in cards if ACTIONS[CARDS[c].action]["type"] == kind]


def _best_card(cards: list[str], strength: int, kind: str) -> str | None:
    """The owner's dungeon action that helps most in this fight (None: none helps)."""
    bare = _card_win(strength, kind, None)
    best = max(cards, key=lambda a: _card_win(strength, kind, a), default=None)
    return best if best is not None and _card_win(strength, kind, best) > bare else None


# A hostile hero action still in an opponent's hand or action deck (or taken in Phase A) counts
# this much: it may come too late or go to another dungeon. One lying on the dungeon counts 1.
HELD = 0.6


def _hostile(state: dict, s: int) -> dict[str, float]:
    """The hero actions the others may use for ``s``'s hero, by name, as expected counts."""
    n = state["seats"]
    out: dict[str, float] = {}
    for h in state["players"][s]["on"]:
        a = CARDS[h["card"]].action
        out[a] = out.get(a, 0.0) + 1.0
    for o in range(n):
        for a in _held(state, o, "hero") if o != s else []:
            out[a] = out.get(a, 0.0) + HELD / (n - 1)
    return out


def _spend(hostile: dict[str, float], name: str, at_most: float = 1.0) -> float:
    """The weight of hero action ``name`` used up at this step (at most ``at_most``)."""
    x = min(at_most, hostile.get(name, 0.0))
    if x > 0.0:
        hostile[name] -= x
    return x


def _damage(dist: list[float], damage: int, chance: float, hostile: dict[str, float]) -> list[float]:
    """A hit of ``damage`` landing with ``chance``, softened by the Shield the hero may hold."""
    x = _spend(hostile, "shield", chance)
    soft = max(0, damage - ACTIONS["shield"]["amount"])
    return _hit(dist, ((damage, chance - x), (soft, x)) if x > 0.0 else ((damage, chance),))


def _projection(state: dict, s: int, path: list[str], start: int) -> tuple[float, float]:
    """The score ``s`` may expect if its hero walks ``path`` from index ``start``: the hearts
    he has now, or 3 more with the chance he drinks a Healing Potion first. Two parts: the
    dungeon as it stands, and in Phase A what its being unfinished adds (``_walk``)."""
    hostile = _hostile(state, s)
    hearts = int(state["players"][s]["hero"]["hearts"])
    potion = min(1.0, hostile.get("potion", 0.0))
    value, more = _walk(state, s, path, start, hearts, dict(hostile))
    if potion <= 0.0 or hearts >= HEARTS or state["players"][s]["hero"]["state"] != "in":
        return value, more
    healed, more_healed = _walk(
        state, s, path, start, min(HEARTS, hearts + ACTIONS["potion"]["amount"]), hostile
    )
    return (1.0 - potion) * value + potion * healed, (1.0 - potion) * more + potion * more_healed


def _walk(
    state: dict, s: int, path: list[str], start: int, hearts: int, hostile: dict[str, float]
) -> tuple[float, float]:
    """The score ``s`` may expect if its hero walks ``path`` from index ``start`` with
    ``hearts``: every monster ahead wins with the odds of its level and the owner's best
    dungeon action left for it (spent there), less a Sword the hero may hold; traps hit for
    their level (a Rope may stop one, Rusty Spikes add 2); a Bomb may cross off the first
    monster. Monsters he may beat and the treasures under them count by the chance they
    survive. A fight under way counts with its strength now."""
    p = state["players"][s]
    sheet = p["sheet"]
    lv = levels(sheet)
    hero = p["hero"]
    survive: dict[str, float] = {}
    # dist[d]: the chance the hero has lost d hearts so far (d == hearts: dead). Every monster
    # ahead hits him with its chance of winning, so a trap or a strong monster on his way counts
    # for the hearts it takes and for the death it makes likelier, not only once the expected
    # hearts reach 0.
    dist = [0.0] * (hearts + 1)
    dist[0] = 1.0
    cards = _held(state, s, "dungeon")
    if hero["state"] == "in":
        gone: set[str] = set()
        enc = state["encounter"] if state["turn"] == s else None
        for i in range(start, len(path)):
            cell = path[i]
            kind = _active(sheet, cell)
            if kind is None or cell in gone:
                continue
            now = bool(enc and i == start and enc["cell"] == cell)
            if kind == "trap":
                hit = lv["trap"] + (enc["bonus"] if now and enc else 0)
                if "spikes" in cards and not now:
                    cards.remove("spikes")
                    hit += ACTIONS["spikes"]["amount"]
                dist = _damage(dist, hit, 1.0 - _spend(hostile, "rope"), hostile)
                gone.add(cell)
                continue
            sv = before = survive.get(cell, 1.0)
            alive = 1.0 - dist[hearts]  # the chance he reaches this fight alive
            if now:
                pw = 1.0 if fight_strength(state, s) >= TARGET else 0.1
            else:
                sv *= 1.0 - _spend(hostile, "bomb")
                card = _best_card(cards, lv[kind], kind)
                if card is not None:
                    cards.remove(card)
                sword = _spend(hostile, "sword")
                pw = (1.0 - sword) * _card_win(lv[kind], kind, card) + sword * _card_win(
                    lv[kind] - ACTIONS["sword"]["amount"], kind, card
                )
            dist = _damage(dist, SHEET["monsters"][kind]["damage"], sv * pw, hostile)
            # a monster the hero never reaches (he died before) survives too
            survive[cell] = (1.0 - alive) * before + alive * sv * pw
    total = more = keep = 0.0
    if state["phase"] == "build":
        # The dungeon is not finished: the path the neighbour draws on it cannot tour every
        # monster it tours now, and a dungeon action no fight of this path needs may serve a
        # monster placed later. Without these the search took cards with fewer monsters and
        # without actions (docs/ai/dungeon-drawers.md, third round). The share kept falls with
        # the picks left: at the last the dungeon is almost the one the hero walks (4th round).
        keep = KEEP * min(1.0, (ROUNDS - len(p["taken"])) / KEEP_PICKS)
        more += SPARE * len(cards)
    for c, k in sheet["grid"].items():
        if k in MONSTERS and c not in sheet["crossed"]:
            v = survive.get(c, 1.0)
            total += v * SHEET["monsters"][k]["points"]
            more += keep * (1.0 - v) * SHEET["monsters"][k]["points"]
    for c in sheet["treasures"]:
        if _active(sheet, c) in MONSTERS:
            v = survive.get(c, 1.0)
            total += v * lv["treasure"]
            more += keep * (1.0 - v) * lv["treasure"]
    if hero["state"] == "dead":
        return total + DEATH_POINTS, more
    # a dead hero scores the death points, an escaped one costs the hearts he kept
    return total + dist[hearts] * DEATH_POINTS - sum(
        q * (hearts - d) for d, q in enumerate(dist[:hearts])
    ), more


def _hit(dist: list[float], outcomes: tuple[tuple[int, float], ...]) -> list[float]:
    """The hearts-lost distribution after one encounter that deals each (damage, chance) of
    ``outcomes`` (the rest of the time nothing; the last entry, death, absorbs)."""
    top = len(dist) - 1
    out = [q * (1.0 - sum(c for _, c in outcomes)) for q in dist[:top]] + [dist[top]]
    for d in range(top):
        for damage, chance in outcomes:
            out[min(top, d + damage)] += dist[d] * chance
    return out


def projected_score(state: dict, s: int) -> float:
    """``s``'s expected final score: along its hero's path once drawn, else along the candidate
    path worst for ``s`` by this projection (the neighbour draws it on the finished dungeon, so a
    dungeon must hold against every path it may draw)."""
    p = state["players"][s]
    if p["path"] is not None:
        start = p["hero"]["pos"] + (0 if state["encounter"] and state["turn"] == s else 1)
        return sum(_projection(state, s, p["path"], start))
    # From the entrance (index 0: the hero's first step stops on it; before the fourth round
    # the projection skipped it, so a trap there counted nothing). The worst path is the worst
    # for the dungeon as it stands; what its being unfinished adds is counted on that path
    # (counted in the choice, it made the projection pick short paths that avoid the fights,
    # where the hero rarely dies, and search neglected hearts taken).
    worst = min(
        (_projection(state, s, c, 0) for c in candidate_paths(p["sheet"], levels(p["sheet"]))),
        key=lambda v: v[0],
    )
    return sum(worst)


# In Phase A: the share of a monster's loss on the path projected now that counts as kept,
# and the points a dungeon action no fight of that path uses still counts (the heuristic's
# card_value gives a dungeon action 0.7).
KEEP = 0.5
SPARE = 0.7
KEEP_PICKS = 7  # KEEP in full while this many picks or more are left, then less each pick


def _installed(state: dict) -> dict:
    """``state`` with every face-up card's remaining elements installed by the heuristic
    player (on a copy of the players). Without it a search prefers to erase its card and
    install it again: an unfinished card is worth nothing yet, and erasing keeps the others'
    next card out of the few moves searched before the position is scored."""
    if state["phase"] != "build" or all(p["pending"] is None for p in state["players"]):
        return state
    state = {**state, "players": copy.deepcopy(state["players"])}
    rnd = random.Random(0)
    for s, p in enumerate(state["players"]):
        while p["pending"] is not None and (el := current_element(state, s)) is not None:
            install(state, s, _install(quick_view(state, s), s, el, rnd), [])
    return state


def evaluate(state: dict, seat: int) -> float:
    """From 0 to 1: a logistic of ``seat``'s projected final score minus the best other's,
    face-up cards counted as installed."""
    state = _installed(state)
    scores = [projected_score(state, s) for s in range(state["seats"])]
    if state["phase"] == "build":
        # picks still to come are worth what a pick adds on average, so that stalling (erasing
        # a card, or anything that keeps the others from their next pick) gains nothing
        for s, p in enumerate(state["players"]):
            scores[s] += PICK * (ROUNDS - len(p["taken"]) - (p["pending"] is not None))
    mine = scores[seat]
    best = max(v for s, v in enumerate(scores) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / SCALE))


# Placements searched at the root besides the heuristic's own: its best few by its own
# measure. A blocker may go on up to 80 spaces; at ~100 iterations a decision, searching them
# all gives each about one sample, so search would pick nearly at random. 8 since the fourth
# round (4 before): with the paired playouts 12 samples a move still separate them, and the
# projection's fixes made the wider choice pay (docs/ai/dungeon-drawers.md); the playouts a
# decision stay 100, so the time does not change.
ROOT_PLACES = 8


def _blocker_rank(view: dict, seat: int, el: str) -> list[str]:
    """The spaces for blocker ``el``, best first by the heuristic's measure without its noise."""
    me = view["players"][seat]
    sheet = me["sheet"]
    treasures = set(sheet["treasures"])
    route = _shortest_set(sheet)
    dist = board.distances(sheet, board.ENTRANCE)
    strong = el in MONSTERS and p_win(me["levels"][el] + 2) >= 0.25

    def score(c: str) -> float:
        choke = c in route and _chokepoint(sheet, c)
        if el == "trap":
            return (c in route) + 3.0 * choke - 2.0 * (c in treasures)
        if strong:
            return 10.0 * (c in treasures) + (c in route) + 3.0 * choke
        return 10.0 * (c in treasures) + (0.0 if c in route else 2.0 + 0.05 * dist.get(c, 0))

    return sorted(board.blocker_cells(sheet), key=score, reverse=True)


# The decisions searched (the rest are the heuristic's): takes, blockers, walls, treasures, the
# path and fights. Improvements searched lost (13 of 40 games): the projection values a level
# only for the monsters already placed. Hero actions and refills: no measurable gain, and the
# projection cannot tell most refills apart.
SEARCHED = frozenset({"take", "place", "wall", "treasure", "path", "fight"})

# Takes searched: the heuristic's card and those within this many points of it by card_value,
# so search only picks among cards the heuristic rates alike (all cards searched: 17 of 40).
TAKE_SPREAD = 1.0


def _decision(view: dict, own: Any) -> str:
    """The kind of decision: take, an install by the heuristic's move (place, wall,
    treasure, improve, done), path, fight, or turn (hero actions and refill)."""
    if view["phase"] == "build":
        return "take" if view["players"][view["viewer"]]["pending"] is None else own["t"]
    if view["phase"] == "path":
        return "path"
    return "fight" if view["step"] == "encounter" else "turn"


def search_moves(
    view: dict,
    legal: list[Any],
    rnd: random.Random,
    wide: float = 1.0,
    settle: int = 0,
    deadline: float | None = None,
) -> list[Any]:
    """The moves searched at the root (``Game.search_moves``). Erase is left out: the
    heuristic never erases, and Erase only gives back installs that could have been chosen
    at once (searching it, the projection's horizon made it win; docs/ai/dungeon-drawers.md).
    Only the decisions in SEARCHED are searched (the others: the heuristic's move alone). An
    element's placements narrow to the heuristic's own choice and its best few, a take to the
    cards card_value rates within TAKE_SPREAD of the heuristic's, so search only chooses among
    moves the heuristic rates alike or near. Path and fights: all moves. ``wide`` (hard's
    ``SEARCH["hard"]``) multiplies the placements kept and the take's spread. ``settle``
    (hard's): a decision in SETTLED is decided here by that many full playouts
    (:func:`settle_move`)."""
    keep = [a for a in legal if a["t"] != "erase"] or legal
    own = choose_tuned(view, keep, rnd)
    kind = _decision(view, own)
    if kind not in SEARCHED:  # the heuristic's move, even a refill ``legal`` does not list
        return [own]
    if own not in keep:
        return keep
    keep = [own] + [a for a in keep if a != own]  # search keeps it unless another does better
    if settle and kind in SETTLED:
        return [settle_move(view, keep, rnd, settle, deadline)]
    seat = view["viewer"]
    if kind == "take":
        top = card_value(view, seat, own["card"], TUNED)
        return [
            a
            for a in keep
            if a == own or card_value(view, seat, a["card"], TUNED) >= top - TAKE_SPREAD * wide
        ]
    places = round(ROOT_PLACES * wide)
    if len(keep) <= places + 1 or view["phase"] != "build":
        return keep
    me = view["players"][seat]
    t = keep[0]["t"]
    el = CARDS[me["pending"]["card"]].elements[me["pending"]["next"]]
    sheet = me["sheet"]
    if t == "place":
        ranked = [{"t": "place", "kind": el, "at": c} for c in _blocker_rank(view, seat, el)]
    elif t == "wall":
        ranked = [
            {"t": "wall", "cells": cs}
            for cs in sorted((a["cells"] for a in keep), key=lambda cs: -wall_value(sheet, cs))
        ]
    elif t == "treasure":
        route = _shortest_set(sheet)

        def worth(c: str) -> tuple[float, bool]:
            k = _active(sheet, c)
            return (SHEET["monsters"][k]["points"] if k in MONSTERS else 0.0, c not in route)

        ranked = [
            {"t": "treasure", "at": c} for c in sorted((a["at"] for a in keep), key=worth, reverse=True)
        ]
    else:
        return keep
    return [own] + [a for a in ranked if a in keep and a != own][:places]


# Hard's decisions settled by playouts to the end (``SEARCH["hard"]["settle"]``): the path and
# the fights, where what is left of the game is short (a playout from Phase B costs about 4 ms),
# its dice decide it, and the projection judges it worst (its correlation with the final
# difference is about 0.37 at the start of Phase C: docs/ai/dungeon-drawers.md, fourth round).
SETTLED = frozenset({"path", "fight"})


def settle_move(
    view: dict, moves: list[Any], rnd: random.Random, samples: int, deadline: float | None
) -> Any:
    """The move among ``moves`` (the heuristic's first) whose games end best for the seat: on
    each of ``samples`` states dealt from the view (:func:`sample`), every move is played and
    the game played to its end by the tuned heuristic for every seat, with the same dice and
    the same heuristic randomness for every move; a move's worth is the mean of the seat's final
    score minus the best other's, and the heuristic's move stays unless another's is higher.
    Stops before ``deadline`` (``engine.timekeeping.clock``): a sample starts only while it
    is likely to end before it, after one sample at least (``Steps``)."""
    from engine import core

    from .sample import sample

    game = core.get("dungeon-drawers")
    seat = view["viewer"]
    totals = [0.0] * len(moves)
    steps = Steps(deadline)
    while steps.done < samples and steps.another():
        seed = rnd.getrandbits(64)
        dealt = marshal.dumps(sample(view, random.Random(seed)))
        for i, move in enumerate(moves):
            state = marshal.loads(dealt)
            game.play(state, seat, move)
            own = random.Random(seed + 1)
            while not game.is_over(state):
                s = min(game.to_act(state))
                game.play(state, s, choose_tuned(quick_view(state, s), [], own))
            scores = game.result(state).scores
            totals[i] += scores[seat] - max(v for o, v in enumerate(scores) if o != seat)
        steps.took()
    best = max(range(len(moves)), key=lambda i: (totals[i], i == 0))
    return moves[best]


def quick_view(state: dict, seat: int) -> dict[str, Any]:
    """What :func:`choose` reads of ``views.view(state, seat)``, built without copies (for
    rollouts on sampled states, which nobody else holds): the same facts the seat may see."""
    n = state["seats"]
    players = []
    for s, p in enumerate(state["players"]):
        own = s == seat
        pend = p["pending"]
        sheet = p["sheet"] if (own or pend is None) else pend["before"]
        path = p["path"]
        if state["phase"] == "path" and path is not None and seat != (s + 1) % n:
            path = None
        players.append(
            {
                "seat": s,
                "sheet": sheet if own else {**sheet, "treasures": []},
                "treasure_count": len(sheet["treasures"]),
                "levels": levels(sheet),
                "pending": (pend if own else {"card": pend["card"]}) if pend else None,
                "path": path,
                "hero": p["hero"],
                "hand": p["hand"] if own else None,
                "hand_count": len(p["hand"]),
                "deck_count": len(p["deck"]),
                "on": p["on"],
            }
        )
    enc = state["encounter"]
    return {
        "viewer": seat,
        "seats": n,
        "phase": state["phase"],
        "round": state["round"],
        "display": state["display"],
        "step": state["step"],
        "encounter": enc,
        "strength": fight_strength(state, state["turn"]) if enc and enc["kind"] != "trap" else None,
        "players": players,
    }


def rollout(state: dict, seat: int, rnd: random.Random) -> Any:
    """The heuristic player's move on a sampled state, from what ``seat`` may see."""
    return choose(quick_view(state, seat), [], rnd)


def match_stats(state: dict, seat: int, log: list[tuple[int, Any]]) -> dict[str, float]:
    """Figures of a finished game for ``seat`` (bench.ai): the hero killed in its dungeon,
    treasures hidden and scored, monsters left and beaten, hearts the hero left with, cards played."""
    p = state["players"][seat]
    sheet = p["sheet"]
    moves = [a for s, a in log if s == seat and isinstance(a, dict)]
    return {
        "hero_killed": float(p["hero"]["state"] == "dead"),
        "escaped_hearts": float(p["hero"]["hearts"] if p["hero"]["state"] == "escaped" else 0),
        "treasures_hidden": float(len(sheet["treasures"])),
        "treasures_scored": float(sum(1 for c in sheet["treasures"] if _active(sheet, c) in MONSTERS)),
        "monsters_left": float(
            sum(1 for c, k in sheet["grid"].items() if k in MONSTERS and c not in sheet["crossed"])
        ),
        "monsters_beaten": float(crossed_monsters(p)),
        "dungeon_actions": float(sum(1 for a in moves if a["t"] == "play")),
        "hero_actions": float(sum(1 for a in moves if a["t"] == "hero")),
    }
