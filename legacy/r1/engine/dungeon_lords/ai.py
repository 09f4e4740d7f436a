"""A simple, sensible Dungeon Lords player. It reads only its own seat's view
(and the legal actions) and draws its randomness from Game.ai_random."""

from __future__ import annotations

from typing import Any

from legacy.r1.engine.core import State

from . import board
from .data import LOC_IDS, MONSTERS, PETS, ROOMS, TRAPS

BOARD_LOC = {
    "harvest": "food", "masquerade": "rep", "improve": "dig", "invest": "mine", "petshop": "imps",
    "install": "traps", "expert": "monster", "rent": "room",
}  # fmt: skip
EXP_TASKS = {"harvest", "look", "put", "improve", "install", "expert", "rent", "prize"}
PET_VALUE = {"build": 2.0, "combat": 2.5, "scoring": 1.5}
PRIZE_ORDER = ["monster", "room", "traps", "mine", "food", "imps", "dig", "rep"]
IMPROVE_ORDER = ["dark", "mithril", "foyer", "shed", "secret"]

KEEP_ORDER = ["mine", "dig", "food", "monster", "imps", "room", "traps", "rep"]


def _order_scores(view: dict[str, Any], seat: int) -> dict[str, float]:
    me = view["players"][seat]
    evil, pal = me["evil"], view["evilometer"]["paladin"]
    tunnels = sum(1 for t in me["grid"].values() if t["k"] == "t")
    free_t = sum(1 for t in me["grid"].values() if t["k"] == "t" and not t["c"])
    upkeep = sum(MONSTERS[m["id"]]["cost"].get("food", 0) for m in me["monsters"])
    s: dict[str, float] = {
        "food": 8 if me["food"] < 2 + upkeep else 3,
        "mine": (6 + (3 if me["gold"] < 3 else 0)) if free_t >= 2 and me["imps"] >= 2 else 1,
        "dig": 7 if tunnels < 6 else 2,
        "imps": 5 if me["food"] >= 2 and me["imps"] < 7 else 1,
        "monster": (9 if len(me["monsters"]) < 4 else 5)
        if me["food"] + me["gold"] >= 2 and view["offer"]["monsters"]
        else 0,
        "room": 5 if me["gold"] >= 1 and view["offer"]["rooms"] else 0,
        "traps": (7 if view["round"] >= view["seasons"] - 1 else 4) if me["gold"] >= 2 else 1,
        "rep": 9 if evil >= pal - 2 else 1,
    }
    if evil >= pal - 2:
        s["food"] = min(s["food"], 2)  # spaces II and III cost Evil
    if "taxes" in (view["event"], view["next_event"]):
        # Taxes are due this season (after the orders) or next: every unpaid gold costs 3 points.
        due = sum(1 for t in me["grid"].values() if t.get("imp") != "secret") // 2
        if me["gold"] < due:
            s["mine"] += 5
            s["room"] = min(s["room"], 2)
            s["traps"] = min(s["traps"], 2)
    now = (view.get("opps") or {}).get("now")
    if now:
        # The season's unique opportunity replaces a location: value the board instead.
        conquered = sum(1 for t in me["grid"].values() if t["c"])
        free = me["imps"] - me["used"]
        board_score = {
            "harvest": 8 if me["food"] < 2 + upkeep else 4,
            "masquerade": 7 if evil >= pal - 3 else 4,
            "improve": 7 if conquered else (5 if free >= 2 else 1),
            "invest": 8 if me["gold"] >= 2 else (4 if me["gold"] >= 1 else 0),
            "petshop": 5 if me["food"] >= 1 else 3,
            "install": 7 if me["gold"] >= 1 else 3,
            "expert": s["monster"],
            "rent": 5 if view["offer"]["rooms"] and me["gold"] >= 1 else 1,
        }[now]
        s[BOARD_LOC[now]] = board_score
    return s


def _plan_value(text: str, view: dict[str, Any]) -> float:
    words = text.split()
    mode = None
    v = 0.0
    for w in words[2:]:
        if w in ("trap", "send", "at", "pet"):
            mode = w
        elif mode == "trap":
            v += max(TRAPS[w]["dmg"]) + (3 if TRAPS[w].get("kill") else 0) + 1
        elif mode == "pet":
            v += 2.5  # a pet revealed in battle beats its 1 point at the pet show
        elif mode == "send":
            v += MONSTERS[w.rstrip("+")]["rank"] + (0.5 if w.endswith("+") and w.startswith("troll") else 0)
            if w == "slime+":
                v -= 1
    return v


def choose(game: Any, state: State, seat: int) -> Any:
    view = game.view(state, seat)
    acts = game.legal_actions(state, seat)
    rnd = game.ai_random(state, seat)
    me = view["players"][seat]
    ph = view["phase"]
    if ph == "inacc":
        drawn = view["private"]["inacc_draw"]
        return "keep " + min(drawn, key=KEEP_ORDER.index)
    if ph == "dummy":
        for loc in ("monster", "room", "mine", "dig"):
            if f"dummy {loc}" in acts:
                return f"dummy {loc}"
        return acts[0]
    if ph == "orders":
        hand = [x for x in LOC_IDS if x not in me["inaccessible"]]
        sc = _order_scores(view, seat)
        ranked = sorted(hand, key=lambda x: sc[x] + rnd.random() * 2, reverse=True)[:3]
        return "orders " + " ".join(ranked)
    near_paladin = me["evil"] >= view["evilometer"]["paladin"] - 3
    if ph == "production":
        for a in acts:
            w = a.split()
            if w[0] == "pet":
                if PETS[w[1]]["gain"].get("evil") and not near_paladin:
                    continue
                return a
            if w[0] != "use":
                continue
            rid = _room_of(view, seat, w[1])
            if ROOMS[rid]["gain"].get("evil") and not near_paladin:
                continue
            if ROOMS[rid].get("choice") and w[2] == ("food" if near_paladin else "evil"):
                continue
            if ROOMS[rid].get("train") and (
                w[2] == "out" or view["year"] == 2 or me["imps"] - me["used"] < 3
            ):
                continue
            return a
        return "done"
    if ph == "plan":
        return max(acts, key=lambda a: (_plan_value(a, view), -len(a)))
    if (
        ph in ("festival", "pet_pass", "pet_discard", "prize")
        or (view["task"] or {}).get("type") in EXP_TASKS
    ):
        return _expansion_choice(view, seat, acts, rnd)
    task = view["task"]
    kind = task["type"]
    if kind == "dig":
        digs = [a for a in acts if a.startswith("dig ")]
        if not digs:
            return "done"
        # Prefer cells far from the entrance: the near ones stay free for rooms and battles.
        return max(digs, key=lambda a: (board.coords(a.split()[1])[1], rnd.random()))
    if kind == "mine":
        return acts[0]
    if kind == "hire":
        best = None
        for a in acts:
            if a == "hire none":
                continue
            mid = a.split()[1]
            evil_cost = MONSTERS[mid]["cost"].get("evil", 0)
            if evil_cost and me["evil"] + evil_cost >= view["evilometer"]["paladin"]:
                continue
            if best is None or MONSTERS[mid]["rank"] > MONSTERS[best]["rank"]:
                best = mid
        return f"hire {best}" if best else "hire none"
    if kind == "build":
        builds = [a for a in acts if a != "build none"]
        return rnd.choice(builds) if builds else "build none"
    if kind == "return":
        return min(acts, key=lambda a: max(TRAPS[a.split()[1]]["dmg"]))
    if kind == "payday":
        if "pay" in acts:
            return "pay"
        return min((a for a in acts if a.startswith("release")), key=lambda a: MONSTERS[a.split()[1]]["rank"])
    return acts[0]


def _room_of(view: dict[str, Any], seat: int, key: str) -> str:
    for r in view["players"][seat].get("rented", []):
        if r["cell"] == key:
            return str(r["room"])
    return key


def _expansion_choice(view: dict[str, Any], seat: int, acts: list[str], rnd: Any) -> str:
    """Festival Season decisions: imps for the festival, prizes, pets, the opportunities."""
    me = view["players"][seat]
    ph = view["phase"]
    near_paladin = me["evil"] >= view["evilometer"]["paladin"] - 3
    if ph == "festival":
        # Keep imps for the production rooms; the rest go to the festival (at most 3).
        need = max((ROOMS[t["room"]].get("imps", 0) for t in me["grid"].values() if t["k"] == "r"), default=0)
        free = me["imps"] - me["used"] - me.get("trained", 0)
        return f"bid {max(0, min(3, free - need))}"
    if ph in ("pet_pass", "pet_discard"):
        return min(acts, key=lambda a: (PET_VALUE[PETS[a.split()[1]]["when"]], a))
    kind = view["task"]["type"]
    if kind == "prize":
        order = list(PRIZE_ORDER)
        if near_paladin:
            order.insert(0, "rep")
        return min(acts, key=lambda a: order.index(a.split()[1]) if a != "prize none" else 99)
    if kind == "harvest":
        return acts[0]
    if kind == "look":
        return acts[0]
    if kind == "put":
        return f"put {view['task']['card'] + 1}" if f"put {view['task']['card'] + 1}" in acts else acts[0]
    if kind == "improve":
        dec = [a for a in acts if a.startswith("deconquer")]
        if dec:
            return dec[0]
        imp = [a for a in acts if a.startswith("improve")]
        if imp:
            return min(imp, key=lambda a: (IMPROVE_ORDER.index(a.split()[2]), a))
        return "done"
    if kind == "install":
        opts = [a for a in acts if a != "install none"]
        if not opts:
            return "install none"
        return max(opts, key=lambda a: (max(TRAPS[a.split()[1]]["dmg"]), -board.coords(a.split()[2])[1]))
    if kind == "expert":
        best = None
        for a in acts:
            if a == "hire none":
                continue
            mid = a.split()[1]
            if MONSTERS[mid]["cost"].get("evil") and near_paladin:
                continue
            if best is None or MONSTERS[mid]["rank"] > MONSTERS[best]["rank"]:
                best = mid
        return f"hire {best}" if best else "hire none"
    if kind == "rent":
        return "rent gold" if "rent gold" in acts else acts[0]
    return acts[0]
