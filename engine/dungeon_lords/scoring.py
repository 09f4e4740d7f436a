"""Final scoring: rooms, conquered tiles, prisoners, monsters, tax penalties,
scoring rooms, then the titles (3 points to a single leader, 2 each if tied)."""

from __future__ import annotations

from engine.core import Result, State, rank

from . import board
from .data import PETS, ROOMS, RULES


def measures(state: State, seat: int) -> dict[str, int]:
    p = state["players"][seat]
    return {
        "evil": p["evil"],
        "rooms": len(board.rooms(p)),
        "tunnels": board.counted_tunnels(p),
        "monsters": len(p["monsters"]),
        "imps": p["imps"],
        "gold_food": p["gold"] + p["food"],
        "battle": len(p["prison"]) - board.conquered(p),
    }


def title_holders(state: State) -> dict[str, list[int]]:
    """Title id -> the seats that hold it. A title needs a positive value (the Evilometer
    always has a leader); several leaders share it."""
    n = state["seats"]
    table = [measures(state, s) for s in range(n)]
    out: dict[str, list[int]] = {}
    for t in RULES["titles"]:
        vals = [table[s][t["measure"]] for s in range(n)]
        best = max(vals)
        if best <= 0 and t["measure"] != "evil":
            out[t["id"]] = []
            continue
        out[t["id"]] = [s for s in range(n) if vals[s] == best]
    return out


def pet_value(state: State, seat: int, pid: str) -> int:
    """What a scoring pet is worth if revealed for its effect."""
    p = state["players"][seat]
    pet = PETS[pid]
    if pet.get("per_gold"):
        return int(p["gold"] // pet["per_gold"])
    if pet.get("per_room"):
        return len(board.rooms(p)) * int(pet["per_room"])
    if pet.get("per_prisoners"):
        return int(len(p["prison"]) // pet["per_prisoners"])
    return 0


def pet_points(state: State, seat: int) -> int:
    """The pet show: each face-down scoring pet is used when its effect beats the show point
    (house rule: the choice is automatic); every other face-down pet scores 1."""
    show = RULES["expansion"]["pet_show"]
    total = 0
    for pid in state["players"][seat].get("pets", []):
        value = pet_value(state, seat, pid) if PETS[pid]["when"] == "scoring" else 0
        total += max(value, show)
    return total


def breakdown(state: State, seat: int) -> dict[str, int]:
    sc = RULES["scoring"]
    p = state["players"][seat]
    b: dict[str, int] = {}
    b["rooms"] = sc["room"] * len(board.rooms(p))
    b["conquered tiles"] = sc["conquered"] * board.conquered(p)
    b["prisoners"] = sum(
        a.get("points", sc["adventurer"]) if a["cls"] == "paladin" else sc["adventurer"] for a in p["prison"]
    )
    b["monsters"] = sc["monster"] * len(p["monsters"])
    b["tax penalties"] = -RULES["taxes"]["penalty_points"] * p["penalty"]
    bonus = 0
    # Rented scoring rooms score too (Festival Season), though rented rooms are not rooms.
    # A conquered scoring room has lost its effect (its dark side shows none; house decision 39).
    working = [t for t in p["grid"].values() if t["k"] == "r" and not t["c"]] + p.get("rented", [])
    for rid in [t["room"] for t in working if not t["c"]]:
        rule = ROOMS[rid].get("scoring")
        if not rule:
            continue
        for what in rule["per"]:
            pts = rule.get("points_by", {}).get(what, rule["points"])
            if what == "prisoner":
                bonus += pts * len(p["prison"])
            else:
                bonus += pts * sum(1 for m in p["monsters"] if m["id"] == what)
    b["scoring rooms"] = bonus
    foyer = 0
    for c, t in p["grid"].items():
        if t.get("imp") == "foyer" and not t["c"]:
            rooms = [
                n
                for n in board.neighbours(c)
                if p["grid"].get(n, {}).get("k") == "r" and not p["grid"][n]["c"]
            ]
            foyer += 1 + len(rooms)
    if foyer:
        b["foyer"] = foyer
    if p.get("pets") is not None and state.get("x", {}).get("exp"):
        b["pets"] = pet_points(state, seat)
    holders = title_holders(state)
    for t in RULES["titles"]:
        who = holders[t["id"]]
        if seat in who:
            b[t["name"]] = sc["title_single"] if len(who) == 1 else sc["title_shared"]
    return b


def score(state: State) -> Result:
    n = state["seats"]
    bds = [breakdown(state, s) for s in range(n)]
    scores = [sum(b.values()) for b in bds]
    tie = [len(state["players"][s]["prison"]) for s in range(n)]
    return Result(scores=scores, ranking=rank(scores, tie), breakdown=bds, tiebreak=tie)
