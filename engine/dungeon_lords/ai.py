"""A Dungeon Lords player that weighs its choices like a player would.

``choose(view, legal, rnd)`` is the AI hook of engine/core.py: it reads only its own
seat's view (``view["viewer"]``) and the legal moves, draws its randomness from
``rnd``, and may use the printed component data and the pure board geometry.

What it weighs (docs/rules/dungeon-lords.md, AI notes):
- rooms: what each room on offer would bring for the rest of the game (2 points,
  production, combat help, scoring per monster it holds), and where: deep from the
  entrance, off the tiles a party fights on first;
- monsters: their rank against their upkeep at the next Pay Day, never more Evil
  upkeep than its Evil can carry;
- Pay Day: pays only while the Evil it adds keeps it below the paladin space (or the
  paladin is coming anyway); otherwise it lets go the monster costing most Evil;
- gold: spends it (rooms, traps) instead of mining more once it holds enough.
"""

from __future__ import annotations

import random
from typing import Any

from . import board
from .data import LOC_IDS, MONSTERS, OPPS, PETS, ROOMS, TRAPS

BOARD_LOC = {
    "harvest": "food", "masquerade": "rep", "improve": "dig", "invest": "mine", "petshop": "imps",
    "install": "traps", "expert": "monster", "rent": "room",
}  # fmt: skip
EXP_TASKS = {"harvest", "look", "put", "improve", "install", "expert", "rent", "prize"}
PET_VALUE = {"build": 2.0, "combat": 2.5, "scoring": 1.5}
PRIZE_ORDER = ["monster", "room", "traps", "mine", "food", "imps", "dig", "rep"]
IMPROVE_ORDER = ["dark", "mithril", "foyer", "shed", "secret"]
KEEP_ORDER = ["mine", "dig", "food", "monster", "imps", "room", "traps", "rep"]
# Gold it keeps in hand; more is spent rather than mined (the Lord of Riches counts gold
# and food alike, and an unspent gold is worth nothing else at the end).
GOLD_ENOUGH = 4
# The most Evil it lets its monsters cost at one Pay Day.
EVIL_UPKEEP_CAP = 3


def _seat(view: dict[str, Any]) -> int:
    seat = view["viewer"]
    assert isinstance(seat, int), "the AI plays a seat's own view"
    return seat


def _me(view: dict[str, Any]) -> dict[str, Any]:
    return view["players"][_seat(view)]  # type: ignore[no-any-return]


def _paladin(view: dict[str, Any]) -> int:
    return int(view["evilometer"]["paladin"])


def _monster_upkeep(mid: str, expert: str | None) -> dict[str, int]:
    """One monster's Pay Day cost: its printed cost plus its Expertise surcharge."""
    cost = dict(MONSTERS[mid]["cost"])
    for k, v in OPPS["expertise"].get(expert or "", {}).items():
        cost[k] = cost.get(k, 0) + v
    return cost


def _upkeep(me: dict[str, Any], extra: str | None = None) -> dict[str, int]:
    """What the monsters (plus ``extra``) cost at Pay Day, as the engine charges it: every
    monster's cost with Expertise surcharges; a Cockatrice takes food while it lasts, then
    Evil."""
    total: dict[str, int] = {}
    ids = [(m["id"], m.get("expert")) for m in me["monsters"] if not m.get("pet")]
    if extra:
        ids.append((extra, None))
    alts = [(mid, ex) for mid, ex in ids if MONSTERS[mid].get("cost_alt")]
    for mid, expert in [x for x in ids if x not in alts] + alts:
        cost = _monster_upkeep(mid, expert)
        if MONSTERS[mid].get("cost_alt") and me["food"] < total.get("food", 0) + cost.get("food", 0):
            cost = {**MONSTERS[mid]["cost_alt"], **{k: v for k, v in cost.items() if k != "food"}}
        for k, v in cost.items():
            total[k] = total.get(k, 0) + v
    return total


def _seasons_left(view: dict[str, Any]) -> int:
    """Production seasons still to come after this one, this Year and the next."""
    left = int(view["seasons"]) - int(view["round"])
    return left + (int(view["seasons"]) if view["year"] == 1 else 0)


def _payday_soon(view: dict[str, Any]) -> bool:
    return "payday" in (view["event"], view["next_event"])


def _reserve(view: dict[str, Any], me: dict[str, Any]) -> dict[str, int]:
    """Food and gold it must keep for a Pay Day or taxes due this season or next."""
    need = {"food": 0, "gold": 0}
    if _payday_soon(view):
        up = _upkeep(me)
        need["food"] += up.get("food", 0)
        need["gold"] += up.get("gold", 0)
    if "taxes" in (view["event"], view["next_event"]):
        tiles = sum(1 for t in me["grid"].values() if t.get("imp") != "secret")
        need["gold"] += (tiles + 1) // 2
    return need


def _order_scores(view: dict[str, Any]) -> dict[str, float]:
    me = _me(view)
    evil, pal = me["evil"], _paladin(view)
    tunnels = sum(1 for t in me["grid"].values() if t["k"] == "t")
    free_t = sum(1 for t in me["grid"].values() if t["k"] == "t" and not t["c"])
    need = _reserve(view, me)
    food_up = _upkeep(me).get("food", 0)
    spare = me["gold"] - need["gold"]
    last = view["year"] == 2 and view["round"] >= view["seasons"] - 1
    s: dict[str, float] = {
        "food": 9 if me["food"] < need["food"] else (6 if me["food"] < 2 + food_up else 3),
        "mine": (6 + (3 if me["gold"] < 3 else 0)) if free_t >= 2 and me["imps"] >= 2 else 1,
        "dig": 7 if tunnels < 6 else 2,
        "imps": _imps_score(view, me, need),
        "monster": (9 if len(me["monsters"]) < 4 else 5)
        if me["food"] + me["gold"] >= 2 and view["offer"]["monsters"]
        else 0,
        "room": (7 if spare >= 2 else 5) if spare >= 1 and view["offer"]["rooms"] else 0,
        "traps": (7 if view["round"] >= view["seasons"] - 1 else 4) if spare >= 2 else 1,
        "rep": 9 if evil >= pal - 2 else 1,
    }
    if last:
        # Gold, tunnels and imps gained now hardly pay back before the end.
        s["mine"], s["dig"], s["imps"] = min(s["mine"], 2), min(s["dig"], 2), min(s["imps"], 2)
    if spare < 0:
        # Each gold short at taxes costs 3 points; on Pay Day it costs a monster. Tunnels dug
        # before the taxes are taxed too, and traps cost gold.
        s["mine"] += 5 + 2 * min(3, -spare)
        s["monster"] = min(s["monster"], 3)
        s["traps"] = min(s["traps"], 1)
        if "taxes" in (view["event"], view["next_event"]):
            s["dig"] = min(s["dig"], 1)
    elif spare >= GOLD_ENOUGH:
        # Enough gold in hand: spend it rather than mine more.
        s["mine"] = min(s["mine"], 2)
        s["room"] += 2 if view["offer"]["rooms"] else 0
        s["traps"] += 2
    if me["food"] < need["food"]:
        # Each monster unpaid on Pay Day leaves and costs 1 Evil: worse than the Evil of food
        # spaces II and III, and a monster hired now is paid again then.
        s["monster"] = min(s["monster"], 2)
    elif evil >= pal - 2:
        s["food"] = min(s["food"], 2)  # spaces II and III cost Evil
    _opportunity(view, me, s)
    return s


def _imps_score(view: dict[str, Any], me: dict[str, Any], need: dict[str, int]) -> float:
    """Imps mine the gold and run the rooms: worth most early, while food allows."""
    if me["imps"] >= 7 or me["food"] < 1 + need["food"]:
        return 1
    early = view["year"] == 1 and view["round"] <= 3
    return 8 if early and me["imps"] < 5 else 5


def _opportunity(view: dict[str, Any], me: dict[str, Any], s: dict[str, float]) -> None:
    """The season's unique opportunity replaces a location: value the board instead."""
    now = (view.get("opps") or {}).get("now")
    if not now:
        return
    evil, pal = me["evil"], _paladin(view)
    conquered = sum(1 for t in me["grid"].values() if t["c"])
    free = me["imps"] - me["used"]
    upkeep = _upkeep(me).get("food", 0)
    s[BOARD_LOC[now]] = {
        "harvest": 8 if me["food"] < 2 + upkeep else 4,
        "masquerade": 7 if evil >= pal - 3 else 4,
        "improve": 7 if conquered else (5 if free >= 2 else 1),
        "invest": 8 if me["gold"] >= 2 else (4 if me["gold"] >= 1 else 0),
        "petshop": 5 if me["food"] >= 1 else 3,
        "install": 7 if me["gold"] >= 1 else 3,
        "expert": s["monster"],
        "rent": 5 if view["offer"]["rooms"] and me["gold"] >= 1 else 1,
    }[now]


def _plan_value(text: str) -> float:
    mode = None
    v = 0.0
    for w in text.split()[2:]:
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


# ---- rooms --------------------------------------------------------------------------------------
def room_value(view: dict[str, Any], rid: str) -> float:
    """What a room would bring this player over the rest of the game, in points."""
    me = _me(view)
    room = ROOMS[rid]
    left = _seasons_left(view)
    v = 2.0  # every room scores 2 at the end
    gain = room.get("gain") or {}
    if room.get("choice"):
        gain = {"food": 1}
    per_use = {"food": 0.5, "gold": 0.6, "imps": 0.6, "traps": 0.7, "tunnels": 0.4}
    for k, n in gain.items():
        if k == "evil":
            # A Printing Press pays while its owner fears the paladin.
            v += left * (0.9 if me["evil"] >= _paladin(view) - 4 else 0.3)
        else:
            v += left * per_use.get(k, 0.3) * n
    if room.get("train"):
        v += 0.3 * left
    combat = room.get("combat") or {}
    if combat:
        boosted = sum(1 for m in me["monsters"] if m["id"] in combat.get("boost", []))
        v += 1.5 + boosted + (1.0 if combat.get("traps") else 0)
    rule = room.get("scoring")
    if rule:
        for what in rule["per"]:
            pts = rule.get("points_by", {}).get(what, rule["points"])
            held = (
                len(me["prison"]) + 1 if what == "prisoner" else sum(m["id"] == what for m in me["monsters"])
            )
            v += pts * held
    return v


def place_value(view: dict[str, Any], cell: str) -> float:
    """How safe a room is there: deep from the entrance, off the tiles a party reaches first
    (a conquered room scores nothing and costs 2 points)."""
    me = _me(view)
    dist = board.distances(me).get(cell, 0)
    front = 1.5 if cell in board.battle_tiles(me) else 0.0
    # A room on a dead end blocks no tunnel a later room or the party's path needs.
    ends = sum(1 for n in board.neighbours(cell) if n in me["grid"])
    return 0.6 * dist - front - 0.2 * ends


def _build(view: dict[str, Any], legal: list[Any], rnd: random.Random) -> str:
    builds = [a for a in legal if a != "build none"]
    if not builds:
        return "build none"

    def worth(a: str) -> float:
        _, rid, cell = a.split()
        return room_value(view, rid) + place_value(view, cell) + rnd.random() * 0.01

    return max(builds, key=worth)


# ---- monsters and Pay Day -----------------------------------------------------------------------
def _evil_room(view: dict[str, Any], me: dict[str, Any], evil_cost: int) -> bool:
    """Whether ``evil_cost`` more Evil (now and at each Pay Day) keeps it below the paladin."""
    upkeep = _upkeep(me).get("evil", 0)
    due = upkeep + evil_cost if _payday_soon(view) else 0
    return me["evil"] + evil_cost + due < _paladin(view) and upkeep + evil_cost <= EVIL_UPKEEP_CAP


def _hire(view: dict[str, Any], legal: list[Any], near: bool) -> str:
    me = _me(view)
    best, best_v = None, 0.0
    for a in legal:
        if a == "hire none":
            continue
        words = a.split()
        mid = words[1]
        cost = {"evil": 1} if words[-1] == "evil" and MONSTERS[mid].get("cost_alt") else MONSTERS[mid]["cost"]
        evil = cost.get("evil", 0)
        if evil and (near or not _evil_room(view, me, evil)):
            continue
        if view["event"] == "payday":
            # Hired this season, it is paid again at this season's Pay Day.
            after = _upkeep(me, mid)
            if any(me.get(k, 0) - cost.get(k, 0) < after.get(k, 0) for k in ("food", "gold")):
                continue
        v = float(MONSTERS[mid]["rank"]) + 1  # its point at the end and its blows in battle
        v -= 0.5 * cost.get("food", 0) + 0.6 * cost.get("gold", 0) + 0.8 * evil
        if v > best_v:
            best, best_v = a, v
    return best or "hire none"


def _payday(view: dict[str, Any], legal: list[Any]) -> str:
    """Pays while the Evil of the payment keeps it below the paladin space (or the paladin is
    on its way anyway); else lets go the monster that costs most Evil to keep. Releasing a
    monster costs 1 Evil, so only a monster whose upkeep is over 1 Evil saves any. When it
    cannot pay, it lets go the weakest monster among those that cost what it lacks."""
    me = _me(view)
    cost = _upkeep(me)
    releases = [a for a in legal if a.startswith("release")]
    # 'pay' (Cockatrices with food), else the fewest Cockatrices with Evil that can be paid.
    pay = next((a for a in legal if a.startswith("pay")), None)
    if not releases:
        return pay or "pay"
    pal = _paladin(view)
    over = me["evil"] < pal <= me["evil"] + cost.get("evil", 0)
    evil_of = {m["id"]: _monster_upkeep(m["id"], m.get("expert")).get("evil", 0) for m in me["monsters"]}
    heavy = [a for a in releases if evil_of.get(a.split()[1], 0) > 1]
    if pay and not (over and heavy):
        return pay
    if pay:
        return min(heavy, key=lambda a: MONSTERS[a.split()[1]]["rank"])
    return _release(me, releases)


def _release(me: dict[str, Any], releases: list[str]) -> str:
    """The monster to let go when it cannot pay: the weakest whose leaving makes the rest
    payable; else the weakest of those that cost what it lacks."""

    def rest(a: str) -> dict[str, Any]:
        gone = a.split()[1]
        mons = list(me["monsters"])
        mons.remove(next(m for m in mons if m["id"] == gone and not m.get("pet")))
        return {**me, "monsters": mons}

    def payable(a: str) -> bool:
        left = rest(a)
        cost = _upkeep(left)
        return all(me.get(k, 0) >= v for k, v in cost.items() if k in ("food", "gold"))

    rank = {a: MONSTERS[a.split()[1]]["rank"] for a in releases}
    enough = [a for a in releases if payable(a)]
    if enough:
        return min(enough, key=rank.__getitem__)
    cost = _upkeep(me)
    short = {k for k, v in cost.items() if k in ("food", "gold") and me.get(k, 0) < v}
    costly = [a for a in releases if short & set(MONSTERS[a.split()[1]]["cost"])]
    return min(costly or releases, key=rank.__getitem__)


# ---- the hook -----------------------------------------------------------------------------------
def choose(view: dict[str, Any], legal: list[Any], rnd: random.Random) -> Any:
    """One legal move for the view's seat (core.Game.ai_action calls this)."""
    me = _me(view)
    ph = view["phase"]
    if ph == "inacc":
        drawn = view["private"]["inacc_draw"]
        return "keep " + min(drawn, key=KEEP_ORDER.index)
    if ph == "dummy":
        return next(
            (f"dummy {x}" for x in ("monster", "room", "mine", "dig") if f"dummy {x}" in legal), legal[0]
        )
    if ph == "orders":
        hand = [x for x in LOC_IDS if x not in me["inaccessible"]]
        sc = _order_scores(view)
        ranked = sorted(hand, key=lambda x: sc[x] + rnd.random() * 2, reverse=True)[:3]
        return "orders " + " ".join(ranked)
    near = me["evil"] >= _paladin(view) - 3
    if ph == "production":
        return _production(view, legal, near)
    if ph == "plan":
        return max(legal, key=lambda a: (_plan_value(a), -len(a)))
    if (
        ph in ("festival", "pet_pass", "pet_discard", "prize")
        or (view["task"] or {}).get("type") in EXP_TASKS
    ):
        return _expansion_choice(view, legal, near)
    return _task(view, legal, rnd, near)


def _task(view: dict[str, Any], legal: list[Any], rnd: random.Random, near: bool) -> Any:
    kind = view["task"]["type"]
    if kind == "dig":
        digs = [a for a in legal if a.startswith("dig ")]
        if not digs:
            return "done"
        # Prefer cells far from the entrance: the near ones stay free for rooms and battles.
        return max(digs, key=lambda a: (board.coords(a.split()[1])[1], rnd.random()))
    if kind == "mine":
        return legal[0]
    if kind == "hire":
        return _hire(view, legal, near)
    if kind == "build":
        return _build(view, legal, rnd)
    if kind == "return":
        return min(legal, key=lambda a: max(TRAPS[a.split()[1]]["dmg"]))
    if kind == "payday":
        return _payday(view, legal)
    return legal[0]


def _production(view: dict[str, Any], legal: list[Any], near: bool) -> str:
    me = _me(view)
    for a in legal:
        w = a.split()
        if w[0] == "pet":
            if PETS[w[1]]["gain"].get("evil") and not near:
                continue
            return str(a)
        if w[0] != "use":
            continue
        rid = _room_of(me, w[1])
        if ROOMS[rid]["gain"].get("evil") and not near:
            continue
        if ROOMS[rid].get("choice") and w[2] == ("food" if near else "evil"):
            continue
        if ROOMS[rid].get("train") and (w[2] == "out" or view["year"] == 2 or me["imps"] - me["used"] < 3):
            continue
        return str(a)
    return "done"


def _room_of(me: dict[str, Any], key: str) -> str:
    for r in me.get("rented", []):
        if r["cell"] == key:
            return str(r["room"])
    return key


def _expansion_choice(view: dict[str, Any], legal: list[Any], near: bool) -> str:
    """Festival Season decisions: imps for the festival, prizes, pets, the opportunities."""
    me = _me(view)
    ph = view["phase"]
    if ph == "festival":
        # Keep imps for the production rooms; the rest go to the festival (at most 3).
        need = max((ROOMS[t["room"]].get("imps", 0) for t in me["grid"].values() if t["k"] == "r"), default=0)
        free = me["imps"] - me["used"] - me.get("trained", 0)
        return f"bid {max(0, min(3, free - need))}"
    if ph in ("pet_pass", "pet_discard"):
        return str(min(legal, key=lambda a: (PET_VALUE[PETS[a.split()[1]]["when"]], a)))
    kind = view["task"]["type"]
    if kind == "prize":
        order = (["rep"] if near else []) + PRIZE_ORDER
        return str(min(legal, key=lambda a: order.index(a.split()[1]) if a != "prize none" else 99))
    if kind == "put":
        put = f"put {view['task']['card'] + 1}"
        return put if put in legal else str(legal[0])
    if kind == "improve":
        dec = [a for a in legal if a.startswith("deconquer")]
        imp = [a for a in legal if a.startswith("improve")]
        if dec:
            return str(dec[0])
        return str(min(imp, key=lambda a: (IMPROVE_ORDER.index(a.split()[2]), a))) if imp else "done"
    if kind == "install":
        opts = [a for a in legal if a != "install none"]
        if not opts:
            return "install none"
        return str(max(opts, key=lambda a: (max(TRAPS[a.split()[1]]["dmg"]), -board.coords(a.split()[2])[1])))
    if kind == "expert":
        return _hire(view, legal, near)
    if kind == "rent":
        return "rent gold" if "rent gold" in legal else str(legal[0])
    return str(legal[0])


# ---- search (issue 30; engine/search.py) ----------------------------------------------------------
# How the shared search treats Dungeon Lords: a game is ~140 decisions of one seat and many are
# tasks with a single sensible answer, so the tree stays shallow and the rollout short; the
# position is then scored by the game's own final scoring (evaluate below).
SEARCH = {"rollout_moves": 20, "exploration": 0.5, "depth": 4, "walk_moves": 300, "iterations": 40}

# Points of lead that make a game about three quarters won (the logistic's scale).
EVAL_SCALE = 6.0


def projected(state: dict[str, Any], seat: int) -> float:
    """The seat's score if the game ended now (the game's own scoring), less what the
    adventurers already in its dungeon are likely to conquer: one tile each, 2 points."""
    from . import scoring

    bd = scoring.breakdown(state, seat)
    p = state["players"][seat]
    threat = len(p["party"]) * 2 if state["phase"] != "over" else 0
    return float(sum(bd.values()) - threat)


def evaluate(state: dict[str, Any], seat: int) -> float:
    """In [0, 1]: a logistic of the seat's projected score minus the best other's."""
    import math

    n = state["seats"]
    mine = projected(state, seat)
    best = max(projected(state, s) for s in range(n) if s != seat)
    return 1.0 / (1.0 + math.exp(-(mine - best) / EVAL_SCALE))


def search_moves(view: dict[str, Any], legal: list[Any], rnd: random.Random) -> list[Any]:
    """The moves worth searching among ``legal`` (``Game.search_moves``, the root of a search:
    see docs/ai/dungeon-lords.md). Orders: the up to 120
    ordered triples become those of the heuristic's five best cards (each three in the
    heuristic's order) and every order of its best three, about 15; other decisions: all."""
    from itertools import combinations, permutations

    if view["phase"] != "orders" or len(legal) <= 16:
        return legal
    me = _me(view)
    hand = [x for x in LOC_IDS if x not in me["inaccessible"]]
    sc = _order_scores(view)
    ranked = sorted(hand, key=lambda x: -sc[x])
    out = ["orders " + " ".join(c) for c in combinations(ranked[:5], 3)]
    out += ["orders " + " ".join(c) for c in permutations(ranked[:3])]
    keep = [a for a in dict.fromkeys(out) if a in legal]
    return keep or legal


def rollout(state: dict[str, Any], seat: int, rnd: random.Random) -> Any:
    """The move search plays outside its tree: the heuristic player (choose) on the part of
    the seat's view it reads (``rollout_view``), with the legal moves where it reads them."""
    from engine import core

    legal = [] if state["phase"] in _NO_LEGAL else core.get("dungeon-lords").legal_actions(state, seat)
    return choose(rollout_view(state, seat), legal, rnd)


# Phases whose heuristic move is built from the view alone (the orders from the cards in
# hand, the first inaccessible orders from those drawn, the festival's imps from the free
# ones): the rollout does not list their legal moves (120 ordered triples for the orders).
_NO_LEGAL = frozenset(("orders", "inacc", "festival"))


def rollout_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """What ``choose`` reads of ``views.view(game, state, seat)``, the same values, built in a
    fraction of its time: the public turn, the seat's own player (the others are None) and the
    cards it drew for its first inaccessible orders (test_dungeon_lords_search.py holds the
    rollout's moves equal to choose's on the full view)."""
    p = state["players"][seat]
    ph = state["phase"]
    me = {
        "gold": p["gold"], "food": p["food"], "imps": p["imps"], "used": p["used"], "evil": p["evil"],
        "grid": p["grid"], "monsters": p["monsters"], "prison": p["prison"],
        "inaccessible": p["inacc"] if ph != "inacc" else [], "trained": p.get("trained", 0),
        "rented": p.get("rented", []),
    }  # fmt: skip
    players: list[Any] = [None] * state["seats"]
    players[seat] = me
    v = {
        "viewer": seat, "phase": ph, "year": state["year"], "round": state["round"],
        "seasons": state["seasons"], "event": state["event"], "next_event": state["next_event"],
        "offer": state["offer"], "task": state["task"], "evilometer": board.EVIL, "players": players,
        "private": {"inacc_draw": state["inacc_draw"].get(str(seat)) if ph == "inacc" else None},
    }  # fmt: skip
    opps = state.get("opps")
    if opps:
        v["opps"] = {"now": opps.get("now")}
    return v


def match_stats(state: dict[str, Any], seat: int, log: list[tuple[int, Any]]) -> dict[str, float]:
    """The seat's figures at the end of a match: points, conquered tiles, Evil, monsters
    hired, rooms built, prisoners, tax penalties."""
    from . import scoring
    from .data import RULES

    p = state["players"][seat]
    mine = [str(a) for s, a in log if s == seat]
    return {
        "points": float(sum(scoring.breakdown(state, seat).values())),
        "conquered": float(board.conquered(p)),
        "evil": float(p["evil"]),
        "evil gained": float(p["evil"] - RULES["evilometer"]["start"]),
        # Monsters hired at the Monster location or its Expert board, or taken as a festival prize.
        "hired": float(
            sum(1 for a in mine if a.split()[0] in ("hire", "expert") and a.split()[-1] != "none")
            + sum(1 for a in mine if a.startswith("prize monster "))
        ),
        "monsters": float(len(p["monsters"])),
        "rooms": float(len(board.rooms(p))),
        "prisoners": float(len(p["prison"])),
        "penalty": float(p["penalty"]),
    }
