"""The Dungeon Lair AI: greedy, one action ahead, on a territory evaluation.

It reads only what its seat may see: the map, the monsters, its own tiles and
how many tiles are left in the stack - never the stack's order or another
player's tile. A position is worth, for each seat, the rooms of the zones it
controls plus a little for each free exit of those zones (they will grow) plus a
little for each monster still in hand while tiles remain to place it on (kept in
reserve, a monster can break a tie late in the game); the AI
maximises its own worth minus the best rival's.
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


@dataclass
class Zone:
    rooms: int
    exits: int
    power: list[int]

    def owner(self) -> int | None:
        best = max(self.power, default=0)
        if best > 0 and self.power.count(best) == 1:
            return self.power.index(best)
        return None

    def worth(self) -> float:
        return self.rooms + EXIT_WEIGHT * self.exits


class Position:
    """Zone statistics of one map and monster layout, for quick what-ifs."""

    def __init__(self, state: dict[str, Any], seat: int) -> None:
        self.seat = seat
        self.seats = state["seats"]
        self.dungeon = Dungeon.of(state["board"])
        self.monsters = state["monsters"]
        d = self.dungeon
        self.zones: dict[str, Zone] = {}
        for z, labels in d.zones().items():
            self.zones[z] = Zone(sum(1 for lab in labels if d.room[lab]), 0, [0] * self.seats)
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
        return totals[self.seat] - max(others, default=0.0)

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
            g = groups.setdefault(find(z), Zone(0, 0, [0] * self.seats))
            g.rooms += zone.rooms
            g.exits += zone.exits - exits_lost[z]
            g.power = [a + b for a, b in zip(g.power, zone.power, strict=True)]
        new_groups: list[str] = []
        for label, room, _sides in p.areas:
            key = find("new:" + label)
            g = groups.setdefault(key, Zone(0, 0, [0] * self.seats))
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
            after = Zone(zone.rooms, zone.exits, list(zone.power))
            after.power[self.seat] += delta
            o = after.owner()
            if o is not None:
                totals[o] += after.worth()
        return self.margin(totals)


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
