"""Carrying out the orders: each minion on the board in resolution order
(:func:`resolve_next`), and the decisions its action asks of the player (a *task*:
dig, mine, hire, build, return a Trap Card, Pay Day, and the Festival Season
tasks), through one dispatch table for the moves and one for the legal moves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Event, IllegalAction, State, rules_revision

from . import board, festival
from .board import fail, log, who
from .data import CARDS, LOC, MONSTERS, OPPS, ROOMS, RULES, TRAPS

# ---- resolving one minion ------------------------------------------------------------------


def resolve_next(g: Any, state: State, ev: list[Event]) -> None:
    """The next minion on the board does its location's action (or sets a task)."""
    t = state["queue"].pop(0)
    seat, loc, i = t["seat"], t["loc"], t["space"]
    if any(o["loc"] == loc and o.get("skip") for o in state["played"].get(str(seat), [])):
        fail(state, seat, loc, ev, "declined")
        return
    if loc == festival.replaced(state):
        festival.resolve(g, state, seat, i, ev)
        return
    RESOLVERS[loc](state, seat, loc, i, ev)


def _resolve_market(state: State, seat: int, loc: str, i: int, ev: list[Event]) -> None:
    """Get Food, Improve Reputation, Hire Imps, Buy Traps: pay, then gain."""
    p = state["players"][seat]
    sp = LOC[loc]["spaces"][i]
    gain = sp["gain"]
    if not board.can_pay(p, sp["pay"]):
        fail(state, seat, loc, ev, f"cannot pay {board.cost_text(sp['pay'])}")
        return
    board.pay(state, seat, sp["pay"], ev)
    got = []
    for k in ("food", "gold", "imps"):
        if gain.get(k):
            p[k] += gain[k]
            got.append(f"{gain[k]} {k}")
    if gain.get("evil"):
        board.move_evil(state, seat, gain["evil"], ev)
        got.append(f"Evil {gain['evil']:+d}")
    if gain.get("peek"):
        peek(state, seat, ev)
        got.append("a look at a Combat Card")
    if gain.get("traps"):
        k = gain["traps"] + (RULES["year2_trap_extra_draw"] if state["year"] == 2 else 0)
        drawn = board.draw_traps(state, k)
        p["traps"].extend(drawn)
        got.append(f"{len(drawn)} Trap Card{'' if len(drawn) == 1 else 's'}")
        ev.append(Event(f"You draw {', '.join(TRAPS[x]['name'] for x in drawn)}.", seat))
        if state["year"] == 2 and k > gain["traps"] and p["traps"]:
            state["task"] = {"type": "return", "seat": seat, "loc": loc}
    log(state, ev, f"{who(seat)} at {LOC[loc]['name']} ({'I' * (i + 1)}): {', '.join(got)}.")


def _resolve_work(state: State, seat: int, loc: str, i: int, ev: list[Event]) -> None:
    """Dig Tunnels and Mine Gold: how many imps may work; the player chooses the rest."""
    p = state["players"][seat]
    cap = imp_cap(p, LOC[loc]["spaces"][i]["gain"])
    extra = 0
    if loc == "mine":
        veins = [c for c in board.tunnels(p, unconquered_only=True) if p["grid"][c].get("imp") == "mithril"]
        cap = min(cap, len(board.tunnels(p, unconquered_only=True)) - len(veins))
        if veins:
            # Mithril Vein: up to 2 more imps mine there, beyond the space's limit.
            spare = board.free_imps(p) - max(cap, 0) - (1 if cap == 4 else 0)
            extra = max(0, min(2, spare))
            cap = max(cap, 0)
    elif not board.dig_cells(p):
        cap = 0
    if cap + extra <= 0:
        fail(state, seat, loc, ev, "no imps or no room to work")
        return
    task = {"type": loc, "seat": seat, "loc": loc, "space": i, "cap": cap + extra, "n": 0}
    if extra:
        task["normal"] = cap
    state["task"] = task


def _resolve_monster(state: State, seat: int, loc: str, i: int, ev: list[Event]) -> None:
    if not any(can_hire(state, seat, m, i) for m in state["offer"]["monsters"]):
        fail(state, seat, loc, ev, "no monster on offer is affordable")
        return
    state["task"] = {"type": "hire", "seat": seat, "loc": loc, "space": i}


def _resolve_room(state: State, seat: int, loc: str, i: int, ev: list[Event]) -> None:
    p = state["players"][seat]
    if p["gold"] < RULES["build_room_gold"][i] or not any(
        board.room_cells(p, r) for r in state["offer"]["rooms"]
    ):
        fail(state, seat, loc, ev, "no room can be built")
        return
    state["task"] = {"type": "build", "seat": seat, "loc": loc, "space": i}


Resolver = Callable[[State, int, str, int, list[Event]], None]
RESOLVERS: dict[str, Resolver] = {
    "food": _resolve_market, "rep": _resolve_market, "imps": _resolve_market, "traps": _resolve_market,
    "dig": _resolve_work, "mine": _resolve_work, "monster": _resolve_monster, "room": _resolve_room,
}  # fmt: skip


def imp_cap(p: dict[str, Any], gain: dict[str, Any]) -> int:
    free = board.free_imps(p)
    cap = min(gain["max_imps"], free)
    over = gain.get("foreimp_over")
    if over is not None and cap > over and free < cap + 1:
        cap = max(over, free - 1)  # beyond the foreimp threshold one more imp must supervise
    return int(cap)


def peek(state: State, seat: int, ev: list[Event]) -> None:
    """Improve Reputation I and II: a private look at the next unseen Combat Card."""
    p = state["players"][seat]
    cards = state["decks"][str(state["year"])]["cards"]
    for idx, cid in enumerate(cards):
        if idx not in p["seen"] and idx >= state["combat"]["round"]:
            p["seen"].append(idx)
            ev.append(Event(f"Combat Card {idx + 1} of this Year is {CARDS[cid]['name']}.", seat))
            return


def hire_cost(state: State, seat: int, mid: str, space: int, way: str | None = None) -> dict[str, int] | None:
    """What hiring costs (None: unaffordable). A Cockatrice is paid with food or with Evil
    ('hire cockatrice evil'); without a word, food when you can, otherwise Evil."""
    p = state["players"][seat]
    if MONSTERS[mid].get("eats") and not board.edible(p):
        return None
    ways = board.cost_ways(mid)
    if way is not None and len(ways) > 1:
        ways = [way == "evil"]
    for alt in ways:
        cost = board.monster_cost(mid, alt)
        if space == 2:
            cost["food"] = cost.get("food", 0) + RULES["hire_space3_extra_food"]
        if board.can_pay(p, cost):
            return cost
    return None


def can_hire(state: State, seat: int, mid: str, space: int) -> bool:
    return hire_cost(state, seat, mid, space) is not None


def payday_bill(state: State, seat: int, by_evil: int | None = None) -> dict[str, int]:
    """What Pay Day costs the seat when ``by_evil`` of its Cockatrices are paid with Evil
    (None: the fewest that make the bill payable, food while it lasts). From revision 4 each
    Cockatrice is paid as its lord chooses, "You can choose differently each time you pay.
    (An Expertise Tile will add to whichever cost you choose to pay.)"; earlier revisions
    chose by the house rule of ``payday_cost``."""
    p = state["players"][seat]
    if rules_revision(state) < 4:
        return payday_cost(p)
    k = len(cockatrices(p))
    if by_evil is None:
        by_evil = next((n for n in range(k + 1) if board.can_pay(p, _bill(p, n))), 0)
    return _bill(p, min(by_evil, k))


def cockatrices(p: dict[str, Any]) -> list[dict[str, Any]]:
    """The monsters paid with food or Evil as their lord chooses (the Cockatrice)."""
    return [m for m in p["monsters"] if not m.get("pet") and MONSTERS[m["id"]].get("cost_alt")]


def _bill(p: dict[str, Any], by_evil: int) -> dict[str, int]:
    """Every monster's cost with its Expertise surcharge, ``by_evil`` Cockatrices paid with
    Evil (which ones does not matter: the surcharge is paid either way)."""
    total: dict[str, int] = {}
    alt = 0
    for m in p["monsters"]:
        if m.get("pet"):
            continue
        way = MONSTERS[m["id"]].get("cost_alt") is not None and alt < by_evil
        alt += way
        cost = board.monster_cost(m["id"], way)
        for k, v in list(cost.items()) + list(OPPS["expertise"].get(m.get("expert") or "", {}).items()):
            total[k] = total.get(k, 0) + v
    return total


def payday_cost(p: dict[str, Any]) -> dict[str, int]:
    """Every monster's cost again, with Expertise surcharges; Cockatrices take food while it
    lasts, then Evil (house rule). Baby Golem is a pet: no pay."""
    total: dict[str, int] = {}
    alts = []
    for m in p["monsters"]:
        if m.get("pet"):
            continue
        if MONSTERS[m["id"]].get("cost_alt"):
            alts.append(m)
            continue
        for k, v in MONSTERS[m["id"]]["cost"].items():
            total[k] = total.get(k, 0) + v
    for m in alts:
        cost = board.monster_cost(m["id"], p["food"] < total.get("food", 0) + 1)
        for k, v in cost.items():
            total[k] = total.get(k, 0) + v
    for m in p["monsters"]:
        for k, v in OPPS["expertise"].get(m.get("expert") or "", {}).items():
            total[k] = total.get(k, 0) + v
    return total


# ---- the tasks: moves -------------------------------------------------------------------------------


def do_task(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    HANDLERS[state["task"]["type"]](g, state, seat, words, ev)


def _do_dig(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words == ["done"]:
        if t["n"] == 0:
            fail(state, seat, "dig", ev, "no tunnel dug")
        state["task"] = None
        return
    if words[0] != "dig" or len(words) != 2:
        raise IllegalAction("Dig a tunnel ('dig B2') or type 'done'.")
    if words[1] not in board.dig_cells(p):
        raise IllegalAction(f"{words[1]} is not next to your dungeon, is taken, or would make a 2x2 block.")
    p["grid"][words[1]] = {"k": "t", "c": False}
    p["used"] += 1
    t["n"] += 1
    if t["n"] == 4 and t["cap"] == 4:
        p["used"] += 1  # the foreimp supervising the fourth digger
    log(state, ev, f"{who(seat)} digs a tunnel on {words[1]}.")
    if t["n"] >= t["cap"] or not board.dig_cells(p):
        state["task"] = None


def _do_mine(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words[0] != "mine" or len(words) != 2 or not board.is_number(words[1]) or int(words[1]) > t["cap"]:
        raise IllegalAction(f"Mine with 0 to {t['cap']} imps, e.g. 'mine {t['cap']}'.")
    k = int(words[1])
    normal = min(k, t.get("normal", k))
    p["used"] += k + (1 if normal == 4 else 0)
    p["gold"] += k
    if k == 0:
        fail(state, seat, "mine", ev, "no imps sent")
    else:
        log(state, ev, f"{who(seat)} mines {k} gold.")
    state["task"] = None


def _do_hire(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words[0] != "hire" or len(words) not in (2, 3):
        raise IllegalAction("Hire a monster on offer ('hire troll') or 'hire none'.")
    if words[1] == "none":
        fail(state, seat, "monster", ev, "declined")
        state["task"] = None
        return
    mid = words[1]
    if mid not in state["offer"]["monsters"]:
        raise IllegalAction("That monster is not on offer.")
    if not can_hire(state, seat, mid, t["space"]):
        raise IllegalAction(f"You cannot pay for the {MONSTERS[mid]['name']}.")
    way = words[2] if len(words) == 3 and words[2] in ("food", "evil") else None
    cost = hire_cost(state, seat, mid, t["space"], way)
    if cost is None:
        raise IllegalAction(f"You cannot pay for the {MONSTERS[mid]['name']} with {way}.")
    meal = words[2] if len(words) == 3 and way is None else None
    if meal and not (MONSTERS[mid].get("eats") and any(m["id"] == meal for m in board.edible(p))):
        raise IllegalAction("Only a Demon eats, and only one of your own monsters (not a Demon or a pet).")
    if MONSTERS[mid].get("eats"):
        # The Demon eats the monster you name ('hire demon goblin'), else your cheapest.
        food = min(board.edible(p), key=lambda m: (m["id"] != meal, MONSTERS[m["id"]]["rank"]))
        p["monsters"].remove(food)
        state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(food["id"])
        log(state, ev, f"{who(seat)}'s new Demon eats a {MONSTERS[food['id']]['name']}.")
    board.pay(state, seat, cost, ev)
    state["offer"]["monsters"].remove(mid)
    p["monsters"].append({"id": mid, "up": True})
    log(state, ev, f"{who(seat)} hires a {MONSTERS[mid]['name']} for {board.cost_text(cost)}.")
    state["task"] = None


def _do_build(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words[0] != "build" or len(words) not in (2, 3):
        raise IllegalAction("Build a room on a tunnel ('build mint C3') or 'build none'.")
    if words[1] == "none":
        fail(state, seat, "room", ev, "declined")
        state["task"] = None
        return
    rid = words[1]
    if rid not in state["offer"]["rooms"] or len(words) != 3:
        raise IllegalAction("Name a room on offer and a tunnel, e.g. 'build mint C3'.")
    if words[2] not in board.room_cells(p, rid):
        raise IllegalAction(
            f"The {ROOMS[rid]['name']} cannot go on {words[2]} (unconquered tunnel, zone, no room next to it)."
        )
    p["gold"] -= RULES["build_room_gold"][t["space"]]
    p["grid"][words[2]] = {"k": "r", "room": rid, "c": False}
    festival.drop_installed(p, words[2])
    state["offer"]["rooms"].remove(rid)
    log(state, ev, f"{who(seat)} builds a {ROOMS[rid]['name']} on {words[2]}.")
    state["task"] = None


def _do_return(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    """Year 2, Buy Traps: one Trap Card of the hand goes back, face down, under the deck.
    Nobody sees which: the public event and history never name it."""
    p = state["players"][seat]
    if words[0] != "return" or len(words) != 2 or words[1] not in p["traps"]:
        raise IllegalAction("Return one of your Trap Cards, e.g. 'return " + p["traps"][0] + "'.")
    p["traps"].remove(words[1])
    state["trap_deck"].append(words[1])
    ev.append(Event(f"{who(seat)} returns a Trap Card."))
    ev.append(Event(f"You return the {TRAPS[words[1]]['name']} under the Trap deck.", seat))
    state["task"] = None


def _do_payday(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    if words[0] == "pay" and (len(words) == 1 or rules_revision(state) >= 4):
        by_evil = int(words[2]) if len(words) == 3 and words[1] == "evil" else None
        if by_evil is not None and not 1 <= by_evil <= len(cockatrices(p)):
            raise IllegalAction(f"You have {len(cockatrices(p))} Cockatrice(s) to pay with Evil.")
        cost = payday_bill(state, seat, by_evil)
        if not board.can_pay(p, cost):
            raise IllegalAction(f"You cannot pay {board.cost_text(cost)}; release a monster first.")
        board.pay(state, seat, cost, ev)
        log(state, ev, f"{who(seat)} pays {board.cost_text(cost)} for the monsters.")
        state["task"] = None
        return
    m = next((m for m in p["monsters"] if len(words) == 2 and m["id"] == words[1] and not m.get("pet")), None)
    if words[0] != "release" or m is None:
        raise IllegalAction(
            "Pay every monster (type 'pay'), or let one go by name, for example 'release troll'."
        )
    p["monsters"].remove(m)
    state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(m["id"])
    log(state, ev, f"{who(seat)} cannot or will not pay: the {MONSTERS[m['id']]['name']} leaves (Evil +1).")
    board.move_evil(state, seat, 1, ev)
    if not [m for m in p["monsters"] if not m.get("pet")]:
        state["task"] = None


Handler = Callable[[Any, State, int, list[str], list[Event]], None]
HANDLERS: dict[str, Handler] = {
    "dig": _do_dig, "mine": _do_mine, "hire": _do_hire, "build": _do_build, "return": _do_return,
    "payday": _do_payday, "harvest": festival.do_harvest, "look": festival.do_look, "put": festival.do_look,
    "improve": festival.do_improve, "install": festival.do_install, "expert": festival.do_expert,
    "rent": festival.do_rent, "prize": festival.do_prize,
}  # fmt: skip


# ---- the tasks: legal moves -----------------------------------------------------------------------


def task_actions(state: State, seat: int) -> list[str]:
    t = state["task"]
    return OPTIONS[t["type"]](state, seat, t)


def _hire_options(state: State, seat: int, t: dict[str, Any]) -> list[str]:
    mons = [m for m in dict.fromkeys(state["offer"]["monsters"]) if can_hire(state, seat, m, t["space"])]
    out = []
    for m in mons:
        if MONSTERS[m].get("cost_alt"):
            # Only the explicit ways ('hire cockatrice food' / 'evil'); the bare form still parses.
            out += [f"hire {m} {w}" for w in ("food", "evil") if hire_cost(state, seat, m, t["space"], w)]
        else:
            out.append(f"hire {m}")
        if MONSTERS[m].get("eats"):
            # The meal may be named ('hire demon goblin'); the bare form eats the cheapest, so
            # that one is not listed twice (the same move under two names).
            food = board.edible(state["players"][seat])
            cheapest = min(food, key=lambda e: MONSTERS[e["id"]]["rank"])["id"] if food else None
            out += [f"hire {m} {x}" for x in dict.fromkeys(e["id"] for e in food) if x != cheapest]
    return out + ["hire none"]


def _build_options(state: State, seat: int, t: dict[str, Any]) -> list[str]:
    p = state["players"][seat]
    out = []
    if p["gold"] >= RULES["build_room_gold"][t["space"]]:
        for rid in state["offer"]["rooms"]:
            out += [f"build {rid} {c}" for c in board.room_cells(p, rid)]
    return out + ["build none"]


def _payday_options(state: State, seat: int, t: dict[str, Any]) -> list[str]:
    p = state["players"][seat]
    out = ["pay"] if board.can_pay(p, payday_bill(state, seat, 0)) else []
    if rules_revision(state) >= 4:
        # Each Cockatrice paid with food or Evil: the bills differ only by how many take Evil.
        k = len(cockatrices(p))
        out += [f"pay evil {n}" for n in range(1, k + 1) if board.can_pay(p, payday_bill(state, seat, n))]
    return out + [f"release {m}" for m in dict.fromkeys(m["id"] for m in p["monsters"] if not m.get("pet"))]


def _expert_options(state: State, seat: int, t: dict[str, Any]) -> list[str]:
    mons = [
        m
        for m in dict.fromkeys(state["offer"]["monsters"])
        if festival.can_hire_expert(state, seat, m, t["space"])
    ]
    out = []
    for m in mons:
        if MONSTERS[m].get("cost_alt") and rules_revision(state) >= 4:
            # Both ways to pay a Cockatrice, as at the ordinary Hire Monster (house decision 32).
            p = state["players"][seat]
            for word, alt in (("food", False), ("evil", True)):
                if board.can_pay(p, festival.expert_cost(state, seat, m, t["space"], alt)):
                    out.append(f"hire {m} {word}")
        else:
            out.append(f"hire {m}")
    return out + ["hire none"]


Options = Callable[[State, int, dict[str, Any]], list[str]]
OPTIONS: dict[str, Options] = {
    "dig": lambda s, seat, t: [f"dig {c}" for c in board.dig_cells(s["players"][seat])] + ["done"],
    "mine": lambda s, seat, t: [f"mine {k}" for k in range(t["cap"], -1, -1)],
    "hire": _hire_options,
    "build": _build_options,
    "return": lambda s, seat, t: [f"return {x}" for x in dict.fromkeys(s["players"][seat]["traps"])],
    "payday": _payday_options,
    "prize": lambda s, seat, t: festival.prize_options(s, seat) + ["prize none"],
    "harvest": lambda s, seat, t: [f"harvest {k}" for k in range(t["cap"], -1, -1)],
    "look": lambda s, seat, t: [f"look {k}" for k in festival.look_options(s)],
    "put": lambda s, seat, t: [f"put {k}" for k in festival.look_options(s)],
    "improve": lambda s, seat, t: festival.improve_options(s, seat) + ["done"],
    "install": lambda s, seat, t: festival.install_options(s, seat, t["space"]) + ["install none"],
    "expert": _expert_options,
    "rent": lambda s, seat, t: festival.rent_options(s, seat, t["space"]) + ["rent none"],
}
