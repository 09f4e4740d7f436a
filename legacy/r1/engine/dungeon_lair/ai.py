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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .board import Dungeon, neighbour, passage, place
from .data import RULES

if TYPE_CHECKING:
    from .game import DungeonLair

EXIT_WEIGHT = 0.3
REMOVE_PENALTY = 0.1
# A zone whose runner-up can still catch up counts this much of its worth.
INSECURE = 0.4
# How much the best rival's worth counts against the AI's own. At 1 (pure margin) every AI
# spends its monsters spoiling the others' zones, and two-player games ended 0-0 in a single
# zone holding every monster; valuing its own rooms more makes it build zones it can hold.
RIVAL_WEIGHT = 0.25


@dataclass
class Zone:
    rooms: int
    exits: int
    power: list[int]
    reserve: list[int] | None = None  # per seat: the power she can still bring in from hand

    def owner(self) -> int | None:
        best = max(self.power, default=0)
        if best > 0 and self.power.count(best) == 1:
            return self.power.index(best)
        return None

    def worth(self) -> float:
        base = self.rooms + EXIT_WEIGHT * self.exits
        o = self.owner()
        if o is None or self.reserve is None:
            return base
        # A contested zone whose runner-up can still catch up with the monsters in her hand
        # (one a turn, in the turns she has left) is likely to end in a race that scores
        # nobody, so it counts for less.
        if any(p > 0 and p + self.reserve[s] >= self.power[o] for s, p in enumerate(self.power) if s != o):
            return base * INSECURE
        return base


class Position:
    """Zone statistics of one map and monster layout, for quick what-ifs."""

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        self.seat = seat
        self.seats = state["seats"]
        self.dungeon = Dungeon.of(state["board"])
        self.monsters = state["monsters"]
        d = self.dungeon
        self.reserve = [reserve(ms, turns_left(state, s)) for s, ms in enumerate(self.monsters)]
        self.zones: dict[str, Zone] = {}
        for z, labels in d.zones().items():
            self.zones[z] = Zone(sum(1 for lab in labels if d.room[lab]), 0, [0] * self.seats, self.reserve)
        for (cell, side), label in d.area_at.items():
            other = neighbour(cell, side)
            if other is not None and other not in d.tiles:
                self.zones[d.zone(label)].exits += 1
        for s, ms in enumerate(self.monsters):
            for m in ms:
                if m["at"] is not None:
                    self.zones[d.zone(m["at"])].power[s] += RULES.power[m["s"]]
        # A monster in hand is worth something only while tiles remain to put it on.
        self.hand_value = 1.5 if state_tiles_left(state) >= 2 * self.seats else 0.05
        self.in_hand = [sum(1 for m in ms if m["at"] is None) for ms in self.monsters]
        self.totals = [self.in_hand[s] * self.hand_value for s in range(self.seats)]
        for zone in self.zones.values():
            o = zone.owner()
            if o is not None:
                self.totals[o] += zone.worth()

    def margin(self, totals: list[float]) -> float:
        others = [t for s, t in enumerate(totals) if s != self.seat]
        return totals[self.seat] - RIVAL_WEIGHT * max(others, default=0.0)

    def _with(self, old: list[Zone], new: list[Zone]) -> list[float]:
        totals = list(self.totals)
        for zone in old:
            o = zone.owner()
            if o is not None:
                totals[o] -= zone.worth()
        for zone in new:
            o = zone.owner()
            if o is not None:
                totals[o] += zone.worth()
        return totals

    # ---- a tile placed, maybe with one of our monsters on it ---------------------------------
    def tile_value(self, tile_id: int, cell: str, rot: int, sizes_in_hand: list[str]) -> float:
        d = self.dungeon
        p = place(cell, tile_id, rot)
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
        for label, _room, sides in p.areas:
            find("new:" + label)
            new_exits[label] = 0
            for side in sides:
                other = neighbour(cell, side)
                if other is None:
                    continue
                if other not in d.tiles:
                    new_exits[label] += 1
                    continue
                theirs = d.tiles[other].edges[(side + 2) % 4]
                kind = passage(p.edges[side], theirs)
                if kind is None:
                    continue
                oz = d.zone(d.area_at[(other, (side + 2) % 4)])
                exits_lost[oz] = exits_lost.get(oz, 0) + 1
                if kind == "open":
                    union("new:" + label, oz)
        if p.tile.link == "bridge":
            union("new:" + p.areas[0][0], "new:" + p.areas[1][0])
        # walls of the new tile may also face old doorways? No: the placement rule forbids it.
        touched = set(exits_lost)
        old = [self.zones[z] for z in touched]
        groups: dict[str, Zone] = {}
        for z in touched:
            zone = self.zones[z]
            g = groups.setdefault(find(z), Zone(0, 0, [0] * self.seats, self.reserve))
            g.rooms += zone.rooms
            g.exits += zone.exits - exits_lost[z]
            g.power = [a + b for a, b in zip(g.power, zone.power, strict=True)]
        new_groups: list[str] = []
        for label, room, _sides in p.areas:
            key = find("new:" + label)
            g = groups.setdefault(key, Zone(0, 0, [0] * self.seats, self.reserve))
            g.rooms += int(room)
            g.exits += new_exits[label]
            if key not in new_groups:
                new_groups.append(key)
        best = self.margin(self._with(old, list(groups.values())))
        for key in new_groups:
            for size in set(sizes_in_hand):
                g = groups[key]
                g.power[self.seat] += RULES.power[size]
                totals = self._with(old, list(groups.values()))
                totals[self.seat] -= self.hand_value
                best = max(best, self.margin(totals))
                g.power[self.seat] -= RULES.power[size]
        return best

    # ---- a monster action ---------------------------------------------------------------
    def monster_value(self, action: dict[str, Any]) -> float:
        d = self.dungeon
        power = RULES.power[action["s"]]
        changes: dict[str, int] = {}
        totals = list(self.totals)
        if action["from"] == "hand":
            totals[self.seat] -= self.hand_value
        else:
            changes[d.zone(action["from"])] = -power
        if action["to"] == "hand":
            totals[self.seat] += self.hand_value
        else:
            z = d.zone(action["to"])
            changes[z] = changes.get(z, 0) + power
        for z, delta in changes.items():
            zone = self.zones[z]
            o = zone.owner()
            if o is not None:
                totals[o] -= zone.worth()
            after = Zone(zone.rooms, zone.exits, list(zone.power), self.reserve)
            after.power[self.seat] += delta
            o = after.owner()
            if o is not None:
                totals[o] += after.worth()
        return self.margin(totals)


def turns_left(state: dict[str, Any], seat: int) -> int:
    """How many more turns ``seat`` gets, about: one a turn while tiles remain (from the next one
    on for the player whose turn it is)."""
    n = state["seats"]
    tiles = len(state["deck"]) + sum(len(h) for h in state["hands"])
    after = (seat - state["current"]) % n or n
    return max(0, (tiles - after) // n + 1) if tiles else 0


def reserve(monsters: list[dict[str, Any]], turns: int) -> int:
    """The power a player can still bring in: one monster from hand a turn, biggest first."""
    hand = sorted((RULES.power[m["s"]] for m in monsters if m["at"] is None), reverse=True)
    return sum(hand[:turns])


def state_tiles_left(state: dict[str, Any]) -> int:
    return len(state["deck"])


def choose(game: DungeonLair, state: dict[str, Any], seat: int) -> Any:
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError("the AI was asked to move when it may not")
    rnd = game.ai_random(state, seat)
    pos = Position(state, seat)
    sizes = [m["s"] for m in state["monsters"][seat] if m["at"] is None]
    scored: list[tuple[float, float, int]] = []
    for i, a in enumerate(actions):
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
            v = pos.monster_value(a)
        scored.append((v, rnd.random(), i))
    return actions[max(scored)[2]]
