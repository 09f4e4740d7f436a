"""Final scoring: rooms, conquered tiles, prisoners, monsters, tax penalties,
scoring rooms, then the titles (3 points to a single leader, 2 each if tied)."""

from __future__ import annotations

from engine.core import Result, State, rank

from . import board
from .data import ROOMS, RULES


def measures(state: State, seat: int) -> dict[str, int]:
    p = state["players"][seat]
    return {
        "evil": p["evil"],
        "rooms": len(board.rooms(p)),
        "tunnels": len(board.tunnels(p)),
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
    for rid in board.room_ids(p):
        rule = ROOMS[rid].get("scoring")
        if not rule:
            continue
        for what in rule["per"]:
            if what == "prisoner":
                bonus += rule["points"] * len(p["prison"])
            else:
                bonus += rule["points"] * sum(1 for m in p["monsters"] if m["id"] == what)
    b["scoring rooms"] = bonus
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
