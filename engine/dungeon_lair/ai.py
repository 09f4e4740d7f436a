"""The Dungeon Lair AI: greedy, one action ahead, on a territory evaluation.

It reads only what its seat may see: the map, the monsters, its own tiles and
how many tiles are left in the stack - never the stack's order or another
player's tile. A position is worth, for each seat, the rooms of the zones it
controls plus a little for each free exit of those zones (they will grow) plus a
little for each monster still in hand while tiles remain to place it on (kept in
reserve, a monster can break a tie late in the game). A zone counts for less
while a rival there could still catch up with the monsters in her hand. The AI
maximises its own worth minus a quarter of the best rival's: with the full
rival's worth subtracted, AIs spent every monster spoiling each other's zones
and two-player games ended 0-0.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from .board import PASSAGES, Dungeon, place
from .data import RULES
from .notation import SIZES

EXIT_WEIGHT = 0.3
REMOVE_PENALTY = 0.1
IDLE_COST = 0.01
# A zone whose runner-up can still catch up counts this much of its worth.
INSECURE = 0.4
# How much the best rival's worth counts against the AI's own. At 1 (pure margin) every AI
# spends its monsters spoiling the others' zones, and two-player games ended 0-0 in a single
# zone holding every monster; valuing its own rooms more makes it build zones it can hold.
RIVAL_WEIGHT = 0.25


@dataclass(slots=True)
class Zone:
    rooms: int
    exits: int
    power: list[int]

    def owner(self) -> int | None:
        power = self.power
        best = max(power, default=0)
        if best > 0 and power.count(best) == 1:
            return power.index(best)
        return None

    def winner(self, reserve: list[int]) -> int | None:
        """Who is likely to hold the zone at the end: among the seats with monsters in it,
        the one whose power plus the power she can still bring in from hand is highest
        (None on a tie). Two rivals who can both still pour everything in are a tie: a race
        there ends with nobody scoring, so neither gains by joining it."""
        final = [p + r if p > 0 else 0 for p, r in zip(self.power, reserve, strict=True)]
        best = max(final, default=0)
        if best > 0 and final.count(best) == 1:
            return final.index(best)
        return None

    def outcome(self, reserve: list[int]) -> tuple[int | None, float]:
        """``(winner(reserve), worth(reserve))``, the winner worked out once."""
        base = self.rooms + EXIT_WEIGHT * self.exits
        power = self.power
        if not any(power):  # nobody there: nobody holds it now or is likely to
            return None, base
        # winner() and owner(), written out: search asks this for every zone of every what-if
        final = [p + r if p > 0 else 0 for p, r in zip(power, reserve, strict=True)]
        best = max(final)
        w = final.index(best) if best > 0 and final.count(best) == 1 else None
        best = max(power)
        owner = power.index(best) if best > 0 and power.count(best) == 1 else None
        return w, (base if w == owner else base * INSECURE)

    def worth(self, reserve: list[int]) -> float:
        base = self.rooms + EXIT_WEIGHT * self.exits
        # held now and likely held at the end: full worth; likely but not yet: less
        return base if self.winner(reserve) == self.owner() else base * INSECURE


# outcome() of a zone without monsters, as far as the totals are concerned
NOBODY: tuple[int | None, float] = (None, 0.0)


class Position:
    """Zone statistics of one map and monster layout, for quick what-ifs, built from the
    seat's view only (the map, the monsters, counts of what is in hand, turns left)."""

    def __init__(self, view: dict[str, Any]) -> None:
        catacombs = bool(view.get("catacombs"))
        board = {t["cell"]: {"t": t["id"], "r": t["rot"], "by": t["by"]} for t in view["tiles"]}
        players = view["players"]
        turns = [players[s]["turns_left"] for s in range(view["seats"])]
        self._build(
            view["viewer"], catacombs, Dungeon.of(board, catacombs), monsters_of(view), turns, view["deck"]
        )

    @classmethod
    def of_state(cls, state: dict[str, Any], seat: int) -> Position:
        """The Position of ``Position(game.view(state, seat))``, read straight from a state
        search owns (a sample): the same public facts, without building the view."""
        n = state["seats"]
        catacombs = bool(state["options"].get("catacombs"))
        tiles = len(state["deck"]) + sum(len(h) for h in state["hands"])
        turns = [
            max(0, (tiles - ((s - state["current"]) % n or n)) // n + 1) if tiles else 0 for s in range(n)
        ]
        pos = object.__new__(cls)
        monsters = [_monsters_seen(ms) for ms in state["monsters"]]
        pos._build(
            seat, catacombs, Dungeon.of(state["board"], catacombs), monsters, turns, len(state["deck"])
        )
        return pos

    def _build(
        self,
        seat: int,
        catacombs: bool,
        d: Dungeon,
        monsters: list[list[dict[str, Any]]],
        turns: list[int],
        deck: int,
    ) -> None:
        self.seat = seat
        self.seats = seats = len(turns)
        self.catacombs = catacombs
        self.dungeon = d
        self.monsters = monsters
        self.turns = turns
        power = RULES.power
        self.hand_power = [
            sorted((power[m["s"]] for m in ms if m["at"] is None), reverse=True) for ms in monsters
        ]
        self.reserve = reserve = [sum(self.hand_power[s][: turns[s]]) for s in range(seats)]
        self.zones: dict[str, Zone] = {
            z: Zone(rooms, exits, [0] * seats) for z, rooms, exits in d.zone_stats()
        }
        for s, ms in enumerate(monsters):
            for m in ms:
                if m["at"] is not None:
                    self.zones[d.zone(m["at"])].power[s] += power[m["s"]]
        # A monster in hand is worth something only while tiles remain to put it on.
        self.hand_value = 1.5 if deck >= 2 * seats else 0.05
        self.in_hand = [sum(1 for m in ms if m["at"] is None) for ms in monsters]
        # (likely holder, worth) of the zones with monsters in them; nobody holds the others
        self.contrib = {k: z.outcome(reserve) for k, z in self.zones.items() if any(z.power)}
        self.mine = {k for k, z in self.zones.items() if z.power[seat] > 0}
        self.memo: dict[tuple[int, ...], dict[str, tuple[int | None, float]]] = {}
        self.reserves: dict[tuple[int | None, int | None], list[int]] = {}
        totals = [self.in_hand[s] * self.hand_value for s in range(seats)]
        for o, w in self.contrib.values():
            if o is not None:
                totals[o] += w
        self.totals = totals

    def reserve_if(self, gained: int | None, lost: int | None) -> list[int]:
        """The reserves after one of our monsters of power ``lost`` leaves the hand and/or one of
        power ``gained`` comes back to it (the same few come back for every move weighed)."""
        hit = self.reserves.get((gained, lost))
        if hit is None:
            hit = self.reserves[gained, lost] = self._reserve_if(gained, lost)
        return hit

    def _reserve_if(self, gained: int | None, lost: int | None) -> list[int]:
        hand = list(self.hand_power[self.seat])
        if lost is not None:
            hand.remove(lost)
        if gained is not None:
            hand = sorted([*hand, gained], reverse=True)
        out = list(self.reserve)
        out[self.seat] = sum(hand[: self.turns[self.seat]])
        return out

    def score(self, dropped: set[str], added: list[Zone], reserve: list[int]) -> list[float]:
        """Every seat's worth with the zones ``dropped`` replaced by ``added``. Only zones whose
        outcome can change are evaluated again: the dropped ones and, when our reserve
        changes, the ones we have monsters in."""
        totals = list(self.totals)
        redo = dropped | (self.mine if reserve != self.reserve else set())
        kept = []
        for key in redo:
            o, w = self.contrib.get(key, NOBODY)
            if o is not None:
                totals[o] -= w
            if key not in dropped:
                kept.append(key)
        for zone in added:
            o, w = zone.outcome(reserve)
            if o is not None:
                totals[o] += w
        if kept:
            # the zones we hold, judged again under a changed reserve: the same few reserves
            # come back for every tile and turn weighed, so each zone's outcome is kept
            memo = self.memo.setdefault(tuple(reserve), {})
            for key in kept:
                hit = memo.get(key)
                if hit is None:
                    hit = memo[key] = self.zones[key].outcome(reserve)
                if hit[0] is not None:
                    totals[hit[0]] += hit[1]
        return totals

    def margin(self, totals: list[float]) -> float:
        seat = self.seat
        return totals[seat] - RIVAL_WEIGHT * max(totals[:seat] + totals[seat + 1 :], default=0.0)

    # ---- a tile placed, maybe with one of our monsters on it ---------------------------------
    def tile_value(self, tile_id: int, cell: str, rot: int, sizes_in_hand: list[str]) -> float:
        p = place(cell, tile_id, rot)
        around = self.dungeon.around(cell)
        # union-find over new areas and the old zones they open into
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        def union(a: str, b: str) -> None:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb

        exits_lost: dict[str, int] = {}
        new_exits: dict[str, int] = {}
        edges = p.edges
        for label, _room, sides in p.areas:
            new = "new:" + label
            find(new)
            free = 0
            for side in sides:
                there = around[side]
                if there is None:
                    free += 1
                    continue
                kind, oz = PASSAGES[edges[side], there[0]], there[1]
                if kind is None or oz is None:  # a wall on either side (oz: None behind a wall)
                    continue
                exits_lost[oz] = exits_lost.get(oz, 0) + 1
                if kind == "open":
                    union(new, oz)
            new_exits[label] = free
        if p.tile.link == "bridge" and not self.catacombs:
            union("new:" + p.areas[0][0], "new:" + p.areas[1][0])
        # walls of the new tile may also face old doorways? No: the placement rule forbids it.
        touched = set(exits_lost)
        groups: dict[str, Zone] = {}
        seats = self.seats
        for z in touched:
            zone = self.zones[z]
            root = find(z)
            g = groups.get(root)
            if g is None:
                g = groups[root] = Zone(0, 0, [0] * seats)
            g.rooms += zone.rooms
            g.exits += zone.exits - exits_lost[z]
            g.power = [a + b for a, b in zip(g.power, zone.power, strict=True)]
        new_groups: list[str] = []
        for label, room, _sides in p.areas:
            key = find("new:" + label)
            g = groups.get(key)
            if g is None:
                g = groups[key] = Zone(0, 0, [0] * seats)
            g.rooms += int(room)
            g.exits += new_exits[label]
            if key not in new_groups:
                new_groups.append(key)
        added = list(groups.values())
        best = self.margin(self.score(touched, added, self.reserve))
        seat, power = self.seat, RULES.power
        for key in new_groups:
            for size in set(sizes_in_hand):
                g = groups[key]
                g.power[seat] += power[size]
                totals = self.score(touched, added, self.reserve_if(None, power[size]))
                totals[seat] -= self.hand_value
                best = max(best, self.margin(totals))
                g.power[seat] -= power[size]
        return best

    # ---- a monster action ---------------------------------------------------------------
    def monster_value(self, action: dict[str, Any]) -> float:
        d = self.dungeon
        power = RULES.power[action["s"]]
        changes: dict[str, int] = {}
        gained = lost = None
        if action["from"] == "hand":
            lost = power
        else:
            changes[d.zone(action["from"])] = -power
        if action["to"] == "hand":
            gained = power
        else:
            z = d.zone(action["to"])
            changes[z] = changes.get(z, 0) + power
        added = []
        for z, delta in changes.items():
            zone = self.zones[z]
            after = Zone(zone.rooms, zone.exits, list(zone.power))
            after.power[self.seat] += delta
            added.append(after)
        totals = self.score(set(changes), added, self.reserve_if(gained, lost))
        totals[self.seat] += self.hand_value * ((gained is not None) - (lost is not None))
        return self.margin(totals)


def _monsters_seen(ms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One seat's monsters in the order ``monsters_of`` gives them: those on the map as
    they stand, then those in hand by size."""
    hand = [m["s"] for m in ms if m["at"] is None]
    return [m for m in ms if m["at"] is not None] + [
        {"s": z, "at": None} for z in SIZES for _ in range(hand.count(z))
    ]


def monsters_of(view: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Every seat's monsters as the view shows them: on the map, and counted in hand."""
    out: list[list[dict[str, Any]]] = [[] for _ in range(view["seats"])]
    for m in view["monsters"]:
        out[m["seat"]].append({"s": m["size"], "at": m["at"]})
    for p in view["players"]:
        for size, n in p["monsters_in_hand"].items():
            out[p["seat"]] += [{"s": size, "at": None}] * n
    return out


def choose(view: dict[str, Any], legal: list[Any], rnd: random.Random) -> Any:
    if not legal:
        raise ValueError("the AI was asked to move when it may not")
    return _choose(Position(view), legal, rnd)


def _choose(pos: Position, legal: list[Any], rnd: random.Random) -> Any:
    if not legal:
        raise ValueError("the AI was asked to move when it may not")
    sizes = [m["s"] for m in pos.monsters[pos.seat] if m["at"] is None]
    scored: list[tuple[float, float, int]] = []
    for i, a in enumerate(legal):
        kind = a["a"]
        if kind == "tile":
            v = pos.tile_value(a["t"], a["at"], a["r"], sizes)
        elif kind == "remove":
            v = pos.margin(pos.totals) - REMOVE_PENALTY
        elif kind in ("draw", "continue"):
            # another tile at the corridor's end costs nothing: the monster action still follows
            v = float("inf")
        elif kind == "pass":
            v = pos.margin(pos.totals)
        else:
            # a monster action that gains nothing is not taken: kept back, a monster can still
            # take rooms later, and stirring a tied zone only feeds a race nobody wins
            v = pos.monster_value(a) - IDLE_COST
        scored.append((v, rnd.random(), i))
    return legal[max(scored)[2]]


# ---- the searching player's hooks (issue 30) --------------------------------------------------
# They run on sampled states only (engine/dungeon_lair/sample.py), never on the real game.

# How search treats Dungeon Lair (fields of engine.search.Params). A turn is one to a few
# decisions (a tile, maybe more corridor tiles, a monster action), so a short rollout of a
# few turns, then the zone evaluation, scores a line.
SEARCH = {"rollout_moves": 3, "exploration": 0.4, "depth": 3, "iterations": 150}
# Rooms of projected margin that move the evaluation from 0.5 to about 0.73.
EVAL_SCALE = 3.0


def evaluate(state: dict[str, Any], seat: int) -> float:
    """From 0 to 1: a logistic of the seat's projected worth minus the best other seat's:
    the rooms of the zones it is likely to hold at the end (a zone a rival can still take
    counts for less), a little for their free exits, and its monsters in hand while tiles
    remain to put them on (Position's totals, from what the seat sees of the sample)."""
    totals = Position.of_state(state, seat).totals
    best_other = max(t for s, t in enumerate(totals) if s != seat)
    margin = totals[seat] - best_other
    return 1.0 / (1.0 + math.exp(-margin / EVAL_SCALE))


# Tile placements a rollout weighs: today's player weighs every tile, cell and turn (often
# over a hundred); a random handful keeps its judgement at a fraction of the cost.
ROLLOUT_TILES = 8


def rollout(state: dict[str, Any], seat: int, rnd: random.Random) -> Any:
    """Today's player (``choose``) on what the seat sees of the sample, read without
    building its view, weighing at most ROLLOUT_TILES of the tile placements (every
    monster action: those are few and cheap to weigh)."""
    from . import GAME

    legal = GAME.legal_actions(state, seat)
    if len(legal) > ROLLOUT_TILES and state["phase"] in ("place", "chain"):
        legal = rnd.sample(legal, ROLLOUT_TILES)
    return _choose(Position.of_state(state, seat), legal, rnd)


def match_stats(state: dict[str, Any], seat: int, log: list[tuple[int, Any]]) -> dict[str, float]:
    """Figures of a finished game for ``seat``: whether every score was zero, the seat's
    rooms, how many monsters it put on the map and took back, how many end on the map,
    its monster moves and passes, and the tiles it removed."""
    from . import GAME

    scores = GAME.result(state).scores
    mine = [a for s, a in log if s == seat]
    monster = [a for a in mine if a["a"] == "monster"]
    return {
        "all_zero": float(not any(scores)),
        "rooms": float(scores[seat]),
        "margin": float(scores[seat] - max(v for s, v in enumerate(scores) if s != seat)),
        "monsters_placed": float(sum(1 for a in monster if a["from"] == "hand")),
        "monsters_taken_back": float(sum(1 for a in monster if a["to"] == "hand")),
        "monsters_moved": float(sum(1 for a in monster if "hand" not in (a["from"], a["to"]))),
        "monsters_on_map_at_end": float(sum(1 for m in state["monsters"][seat] if m["at"] is not None)),
        "passes": float(sum(1 for a in mine if a["a"] == "pass")),
        "tiles_removed": float(sum(1 for a in mine if a["a"] == "remove")),
    }
