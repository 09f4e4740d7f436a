"""Pure helpers on a Dungeon Lords state: cells, dungeon grids, resources, the
Evilometer and the paladin. No phase logic lives here (see game.py)."""

from __future__ import annotations

from typing import Any

from engine.core import Event, State

from .data import LOC_IDS, MONSTERS, ROOMS, RULES

COLS = RULES["grid"]["cols"]
ROWS = RULES["grid"]["rows"]
ENTRANCE = RULES["grid"]["entrance"]
EVIL = RULES["evilometer"]

Player = dict[str, Any]


# ---- cells -------------------------------------------------------------------------


def cell(col: int, row: int) -> str:
    return f"{chr(65 + col)}{row + 1}"


def coords(c: str) -> tuple[int, int]:
    return ord(c[0]) - 65, int(c[1:]) - 1


def is_cell(c: str) -> bool:
    if len(c) < 2 or not c[1:].isdigit() or not c[0].isalpha():
        return False
    col, row = coords(c.upper())
    return 0 <= col < COLS and 0 <= row < ROWS


def neighbours(c: str) -> list[str]:
    col, row = coords(c)
    out = []
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        nc, nr = col + dc, row + dr
        if 0 <= nc < COLS and 0 <= nr < ROWS:
            out.append(cell(nc, nr))
    return out


def all_cells() -> list[str]:
    return [cell(c, r) for r in range(ROWS) for c in range(COLS)]


# ---- the dungeon -------------------------------------------------------------------


def tunnels(p: Player, unconquered_only: bool = False) -> list[str]:
    return [c for c, t in p["grid"].items() if t["k"] == "t" and not (unconquered_only and t["c"])]


def rooms(p: Player) -> list[str]:
    return [c for c, t in p["grid"].items() if t["k"] == "r"]


def room_ids(p: Player) -> list[str]:
    return [t["room"] for t in p["grid"].values() if t["k"] == "r"]


def conquered(p: Player) -> int:
    return sum(1 for t in p["grid"].values() if t["c"])


def makes_square(grid: dict[str, Any], c: str) -> bool:
    """Would a tile on ``c`` complete a 2x2 block of dungeon tiles?"""
    col, row = coords(c)
    for dc in (-1, 0):
        for dr in (-1, 0):
            block = [cell(col + dc + i, row + dr + j) for i in (0, 1) for j in (0, 1)]
            if all(
                0 <= coords(b)[0] < COLS and 0 <= coords(b)[1] < ROWS and (b == c or b in grid) for b in block
            ):
                return True
    return False


def dig_cells(p: Player) -> list[str]:
    """Empty cells a new tunnel may go on: next to the dungeon, no 2x2 block."""
    grid = p["grid"]
    return [
        c
        for c in all_cells()
        if c not in grid and any(n in grid for n in neighbours(c)) and not makes_square(grid, c)
    ]


def in_zone(room_id: str, c: str) -> bool:
    zone = ROOMS[room_id].get("zone")
    if not zone:
        return True
    col, row = coords(c)
    if "rows" in zone and row not in zone["rows"]:
        return False
    if "cols" in zone and col not in zone["cols"]:
        return False
    if zone.get("edge") and not (col in (0, COLS - 1) or row in (0, ROWS - 1)):
        return False
    return True


def room_cells(p: Player, room_id: str) -> list[str]:
    """Unconquered tunnels a room may replace: in its zone, not next to another room."""
    grid = p["grid"]
    return [
        c
        for c in tunnels(p, unconquered_only=True)
        if in_zone(room_id, c) and not any(grid.get(n, {}).get("k") == "r" for n in neighbours(c))
    ]


def distances(p: Player) -> dict[str, int]:
    """Steps from the entrance, walking through the dungeon's tiles."""
    grid = p["grid"]
    dist = {ENTRANCE: 0}
    todo = [ENTRANCE]
    while todo:
        c = todo.pop(0)
        for n in neighbours(c):
            if n in grid and n not in dist:
                dist[n] = dist[c] + 1
                todo.append(n)
    return dist


def battle_tiles(p: Player) -> list[str]:
    """The unconquered tiles closest to the entrance (the party may fight on any of them)."""
    dist = distances(p)
    free = [c for c in dist if not p["grid"][c]["c"]]
    if not free:
        return []
    best = min(dist[c] for c in free)
    return sorted(c for c in free if dist[c] == best)


# ---- resources -----------------------------------------------------------------------


def free_imps(p: Player) -> int:
    return int(p["imps"] - p["used"])


def can_pay(p: Player, cost: dict[str, int]) -> bool:
    for k, v in cost.items():
        if k == "evil":
            if p["evil"] + v > EVIL["max"]:
                return False
        elif k == "imps":
            if free_imps(p) < v:
                return False
        elif k == "traps":
            if len(p["traps"]) < v:
                return False
        elif p[k] < v:
            return False
    return True


def cost_text(cost: dict[str, int]) -> str:
    if not cost:
        return "free"
    return ", ".join(f"{v} {k}" for k, v in cost.items())


def pay(state: State, seat: int, cost: dict[str, int], ev: list[Event]) -> None:
    """Pay a cost the caller has checked with can_pay (Evil moves the counter up)."""
    p = state["players"][seat]
    for k, v in cost.items():
        if k == "evil":
            move_evil(state, seat, v, ev)
        elif k == "imps":
            p["imps"] -= v
        else:
            p[k] -= v


def monster_cost(mid: str) -> dict[str, int]:
    return dict(MONSTERS[mid]["cost"])


# ---- Evilometer and paladin ---------------------------------------------------------------


def play_order(state: State) -> list[int]:
    n = state["seats"]
    return [(state["start"] + i) % n for i in range(n)]


def evil_rank_key(state: State, seat: int) -> tuple[int, int]:
    """Bigger = more evil. Ties: later in play order is more evil (the starting player is nicest)."""
    order = play_order(state)
    return state["players"][seat]["evil"], order.index(seat)


def move_evil(state: State, seat: int, delta: int, ev: list[Event]) -> None:
    p = state["players"][seat]
    before = p["evil"]
    p["evil"] = max(EVIL["min"], min(EVIL["max"], before + delta))
    if p["evil"] != before:
        check_paladin(state, ev)


def check_paladin(state: State, ev: list[Event]) -> None:
    """Place or move the paladin after any Evil change (counters never move together).

    He enters for the most evil player on or above the paladin space; he moves only to a
    player on/above the space who is strictly more evil than his current player."""
    for pal in state.get("paladins", []):
        if pal["status"] in ("tent", "field"):
            _check_one(state, pal, ev)


def _check_one(state: State, pal: dict[str, Any], ev: list[Event]) -> None:
    line = EVIL["paladin"]
    evil = {s: state["players"][s]["evil"] for s in range(state["seats"])}
    if pal["status"] == "field":
        if pal["at"] is None:
            return
        cands = [s for s in evil if evil[s] >= line and evil[s] > evil[pal["at"]]]
    else:
        cands = [s for s in evil if evil[s] >= line]
    if not cands:
        return
    top = max(evil[s] for s in cands)
    order = play_order(state)
    target = max((s for s in cands if evil[s] == top), key=order.index)
    if pal["status"] == "tent":
        pal["status"] = "field"
        ev.append(Event(f"The {pal['name']} sets out for the dungeon of P{target + 1}."))
    else:
        ev.append(Event(f"The {pal['name']} moves from P{pal['at'] + 1}'s dungeon to P{target + 1}'s."))
    pal["at"] = target


def hand(p: Player) -> list[str]:
    return [loc for loc in LOC_IDS if loc not in p["inacc"]]
