"""A sensible Dungeon Drawers player, and the candidate hero paths offered as legal moves.

The AI reads only ``Game.view(state, seat)``: its own sheet (with its treasures),
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

import random
from functools import cache
from itertools import product
from typing import TYPE_CHECKING, Any

from . import board
from .data import ACTIONS, CARDS, HEARTS, SHEET, TARGET, TRACKS, level, track_size

if TYPE_CHECKING:
    from .game import DungeonDrawers

MONSTERS = board.MONSTER_KINDS


@cache
def p_win(bonus: int, dice: int = 2) -> float:
    """Chance that ``dice`` d6 plus ``bonus`` reach the fight target."""
    rolls = list(product(range(1, 7), repeat=dice))
    return sum(1 for r in rolls if sum(r) + bonus >= TARGET) / len(rolls)


def _active(sheet: dict, cell: str) -> str | None:
    k = sheet["grid"].get(cell)
    return k if k in board.BLOCKER_KINDS and cell not in sheet["crossed"] else None


# ---- paths --------------------------------------------------------------------------------


def expected_owner_score(sheet: dict, lv: dict[str, int], path: list[str], treasures: int) -> float:
    """What the dungeon's owner may expect to score if the hero walks ``path``
    (dungeon actions are counted as +2 strength on average)."""
    hearts = float(HEARTS)
    survive: dict[str, float] = {}
    gone: set[str] = set()
    for cell in path:
        kind = _active(sheet, cell)
        if kind is None or cell in gone:
            continue
        if kind == "trap":
            hearts -= lv["trap"]
            gone.add(cell)
            continue
        s = survive.get(cell, 1.0)
        p = p_win(lv[kind] + 2)
        hearts -= s * p * SHEET["monsters"][kind]["damage"]
        survive[cell] = s * p
    monsters = [c for c, k in sheet["grid"].items() if k in MONSTERS and c not in sheet["crossed"]]
    share = min(1.0, treasures / len(monsters)) if monsters else 0.0
    total = 0.0
    for c in monsters:
        s = survive.get(c, 1.0)
        total += s * (SHEET["monsters"][sheet["grid"][c]]["points"] + share * lv["treasure"])
    total += SHEET["hero_death_points"] if hearts <= 0 else -hearts
    return total


def _tour(sheet: dict, targets: list[str], cost: dict[str, float]) -> list[str] | None:
    path = [board.ENTRANCE]
    left = list(targets)
    while left:
        dist = board.distances(sheet, path[-1])
        left.sort(key=lambda c: (dist.get(c, 999), board.INDEX[c]))
        target = left.pop(0)
        if target in path:
            continue
        leg = board.cost_path(sheet, path[-1], target, cost)
        finish = board.cost_path(sheet, target, board.EXIT, cost)
        if leg is None or finish is None:
            continue
        trial = path + leg[1:]
        if board.path_problem(sheet, trial + finish[1:]) is None:
            path = trial
    finish = board.cost_path(sheet, path[-1], board.EXIT, cost)
    if finish is None:
        return None
    full = path + finish[1:]
    return full if board.path_problem(sheet, full) is None else None


def candidate_paths(sheet: dict, lv: dict[str, int]) -> list[list[str]]:
    """A few valid paths: the shortest, a cautious one, and tours of the weak and of all monsters.
    The shortest path always exists (walls never cut the exit off) and is always valid."""
    danger: dict[str, float] = {}
    for c in board.ALL_CELLS:
        k = _active(sheet, c)
        if k == "trap":
            danger[c] = 3.0 * lv["trap"]
        elif k in MONSTERS:
            danger[c] = 20.0 * p_win(lv[k] + 2) * SHEET["monsters"][k]["damage"]
    weak = [c for c, d in danger.items() if _active(sheet, c) in MONSTERS and d < 2.0]
    strong = [c for c in danger if _active(sheet, c) in MONSTERS]
    found: list[list[str]] = []
    for cand in (
        board.cost_path(sheet, board.ENTRANCE, board.EXIT),
        board.cost_path(sheet, board.ENTRANCE, board.EXIT, danger),
        _tour(sheet, weak, danger),
        _tour(sheet, strong, danger),
    ):
        if cand and cand not in found and board.path_problem(sheet, cand) is None:
            found.append(cand)
    return found


# ---- building ------------------------------------------------------------------------------


def _shortest_set(sheet: dict) -> set[str]:
    p = board.cost_path(sheet, board.ENTRANCE, board.EXIT)
    return set(p or [])


def _chokepoint(sheet: dict, cell: str) -> bool:
    free = board.FULL & ~board.wall_mask(sheet) & ~board.bit(cell)
    return not board.flood(board.bit(board.ENTRANCE), free) & board.bit(board.EXIT)


def _element_value(sheet: dict, lv: dict[str, int], el: str, round_: int) -> float:
    if el.startswith("wall:"):
        return -0.15 * len(SHEET["walls"][el[5:]])
    if el in MONSTERS:
        room = len(board.blocker_cells(sheet))
        return SHEET["monsters"][el]["points"] * (1.0 if room > 3 else 0.2) + 0.3
    if el == "trap":
        return 0.6 * lv["trap"] + 0.4
    if el == "treasure":
        return 0.9 * lv["treasure"]
    return 1.1


def card_value(view: dict, seat: int, cid: int) -> float:
    me = view["players"][seat]
    sheet, lv = me["sheet"], me["levels"]
    card = CARDS[cid]
    value = sum(_element_value(sheet, lv, e, view["round"]) for e in card.elements)
    action = ACTIONS[card.action]
    value += 0.7 if action["type"] == "dungeon" else 0.5
    return value


def _improve_choice(sheet: dict, rnd: random.Random) -> str:
    """The box worth most per box spent. A monster track is valued by the chance of winning
    a fight it adds (with a card's +2 on average) up to the best level still reachable, so
    the AI concentrates on one monster type: +2 on a goblin that cannot reach 20 is worth
    nothing, while a dragon at +12 wins 4 fights in 10."""
    grid = sheet["grid"]
    counts = {k: sum(1 for v in grid.values() if v == k) for k in ("goblin", "orc", "dragon", "trap")}
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
                v = max(v, counts[t] * gain / need)
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


def wall_value(sheet: dict, cells: list[str]) -> float:
    """Walls against the border and other walls keep the middle open for monsters; never on
    a treasure (a treasure in a wall is lost)."""
    grid, treasures = sheet["grid"], set(sheet["treasures"])
    v = 0.0
    for c in cells:
        v -= 5.0 if c in treasures else 0.0
        nb = board.NEIGHBOURS[c]
        v += 4 - len(nb)  # border spaces
        v += sum(1 for n in nb if grid.get(n) == "wall")
    return v


def _install(view: dict, seat: int, el: str, rnd: random.Random) -> dict[str, Any]:
    me = view["players"][seat]
    sheet = me["sheet"]
    grid = sheet["grid"]
    treasures = set(sheet["treasures"])
    if el.startswith("wall:"):
        placements = board.wall_placements(sheet, el[5:])
        best = max(placements, key=lambda cells: wall_value(sheet, cells) + rnd.random() * 0.5)
        return {"t": "wall", "cells": best}
    if el in board.BLOCKER_KINDS:
        cells = board.blocker_cells(sheet)
        route = _shortest_set(sheet)
        dist = board.distances(sheet, board.ENTRANCE)
        strong = el in MONSTERS and p_win(me["levels"][el] + 2) >= 0.25

        def score(c: str) -> float:
            v = rnd.random() * 0.5
            if el == "trap":
                v += 1.0 if c in route else 0.0
                v += 3.0 if c in route and _chokepoint(sheet, c) else 0.0
                v -= 2.0 if c in treasures else 0.0
            elif strong:
                # a monster that often wins goes where the hero cannot avoid it
                v += 10.0 if c in treasures else 0.0
                v += 1.0 if c in route else 0.0
                v += 3.0 if c in route and _chokepoint(sheet, c) else 0.0
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
    return {"t": "improve", "track": _improve_choice(sheet, rnd)}


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
        gain = 6 * a["add"] - (sum(sorted(dice)[: a["drop"]]) if a["drop"] else 0)
        if strength + flat_total + gain >= TARGET:
            return {"t": "play", "card": c}
    for c, a in acts.items():
        if a["type"] == "dungeon" and a["effect"] == "reroll" and sum(dice) < 3.5 * len(dice):
            if strength - sum(dice) + 6 * len(dice) + flat_total >= TARGET:
                return {"t": "play", "card": c}
    return {"t": "resolve"}


def _actions(game: DungeonDrawers, view: dict, seat: int) -> dict[str, Any]:
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


def choose(game: DungeonDrawers, view: dict, seat: int, rnd: random.Random) -> Any:
    phase = view["phase"]
    me = view["players"][seat]
    if phase == "build":
        pend = me["pending"]
        if pend is None:
            return {"t": "take", "card": max(view["display"], key=lambda c: (card_value(view, seat, c), -c))}
        els = CARDS[pend["card"]].elements
        if pend["next"] >= len(els):
            return {"t": "done"}
        return _install(view, seat, els[pend["next"]], rnd)
    if phase == "path":
        n = view["seats"]
        owner = view["players"][(seat - 1) % n]
        sheet, lv = owner["sheet"], owner["levels"]
        cands = candidate_paths(sheet, lv)
        best = min(cands, key=lambda p: (expected_owner_score(sheet, lv, p, owner["treasure_count"]), len(p)))
        return {"t": "path", "cells": best}
    if view["step"] == "encounter":
        return _encounter(view, seat)
    return _actions(game, view, seat)
