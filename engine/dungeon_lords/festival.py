"""Festival Season building rules: unique opportunities (8 boards), the festival
(secret imp bids, prizes), the pet draft and pets used while building, rented
rooms, installed traps, improved tunnels. Called from game.py; every function
takes the game (for its log helpers) and mutates the state it is given."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Event, IllegalAction, State, rules_revision

from . import board
from .board import fail, log, who
from .data import BOARDS, CARDS, IMPROVED, LOC, MONSTERS, OPPS, PETS, PETS_DOC, ROOMS, TRAPS
from .expansion import x

PRIZE = {
    "food": "gain 1 food",
    "rep": "lose 1 Evil",
    "dig": "dig 1 tunnel (no imp needed)",
    "mine": "gain 1 gold",
    "imps": "gain 1 imp",
    "traps": "draw 1 Trap Card",
    "monster": "pay 1 food to hire a monster from the discard pile",
    "room": "pay 1 gold to build a room from the discard pile",
}


# ---- the opportunity of the season -------------------------------------------------------------
def now_board(state: State) -> dict[str, Any] | None:
    o = state.get("opps")
    return BOARDS[o["now"]] if o and o.get("now") else None


def replaced(state: State) -> str | None:
    b = now_board(state)
    return str(b["replaces"]) if b else None


def new_round(g: Any, state: State, ev: list[Event]) -> None:
    """Rounds 2-5: this season's board covers its location; rounds 1-4: the next one is shown."""
    o = state.get("opps")
    if not o:
        return
    y = str(state["year"])
    r = state["round"]
    if r == 1:
        o["used"] = []
    o["now"] = None
    o["traps"] = []
    if r >= 2 and o[y]:
        o["now"] = o[y].pop(0)
        o["used"].append(o["now"])
        b = BOARDS[o["now"]]
        log(
            state,
            ev,
            f"Unique opportunity this season: {b['name']} (instead of {LOC[b['replaces']]['name']}).",
        )
        if b.get("deal"):
            o["traps"] = board.draw_traps(state, b["deal"])
            names = ", ".join(TRAPS[t]["name"] for t in o["traps"])
            log(state, ev, f"At the Trap Expo: {names}.")
    o["next"] = o[y][0] if r < state["seasons"] and o[y] else None


def end_round(state: State) -> None:
    o = state.get("opps")
    if o and o.get("traps"):
        state["trap_discard"].extend(o["traps"])
        o["traps"] = []
    if o and state["round"] >= state["seasons"]:
        o["now"] = None  # the last board leaves the Central Board with the festival


# ---- resolving a minion on the opportunity -------------------------------------------------
def resolve(g: Any, state: State, seat: int, i: int, ev: list[Event]) -> None:
    """A minion on this season's unique opportunity: pay, then act or set a task."""
    b = now_board(state)
    assert b is not None
    loc = b["replaces"]
    sp = b["spaces"][i]
    p = state["players"][seat]
    bid = b["id"]
    if not board.can_pay(p, sp.get("pay", {})):
        fail(state, seat, loc, ev, f"cannot pay {board.cost_text(sp.get('pay', {}))}")
        return
    if bid in INSTANT:
        INSTANT[bid](state, seat, i, sp, ev)
        return
    task = {"type": bid, "seat": seat, "loc": loc, "space": i}
    if bid == "harvest":
        free = board.free_imps(p)
        if free < sp["foreimps"] + (0 if sp.get("evil") else 1):
            fail(state, seat, loc, ev, "not enough imps")
            return
        task["cap"] = min(sp["max_food"], free - sp["foreimps"])
    elif bid == "improve":
        task.update(left=sp["actions"], kind=None)
    state["task"] = task
    possible: Callable[[], bool] | None = {
        "harvest": None,
        "improve": lambda: bool(improve_options(state, seat)),
        "install": lambda: bool(install_options(state, seat, i)),
        "expert": lambda: any(can_hire_expert(state, seat, m, i) for m in state["offer"]["monsters"]),
        "rent": lambda: bool(rent_options(state, seat, i)),
    }[bid]
    if possible is not None and not possible():
        state["task"] = None
        why = {"improve": "nothing to improve", "install": "no trap can be installed",
               "expert": "no expert monster is affordable", "rent": "no room to rent"}[bid]  # fmt: skip
        fail(state, seat, loc, ev, why)


def _masquerade(state: State, seat: int, i: int, sp: dict[str, Any], ev: list[Event]) -> None:
    p = state["players"][seat]
    board.pay(state, seat, sp.get("pay", {}), ev)
    if sp.get("gold"):
        p["gold"] += sp["gold"]
    deltas = {s: sp["others_evil"] for s in range(state["seats"]) if s != seat}
    deltas[seat] = sp.get("evil", 0)
    evil_all(state, deltas, ev)
    log(state, ev, f"{who(seat)} at the Masquerade ({'I' * (i + 1)}): every other dungeon lord gains 1 Evil.")
    if sp.get("snoop") or sp.get("peek"):
        state["task"] = {
            "type": "look",
            "seat": seat,
            "loc": "rep",
            "space": i,
            "move": bool(sp.get("snoop")),
        }


def _invest(state: State, seat: int, i: int, sp: dict[str, Any], ev: list[Event]) -> None:
    p = state["players"][seat]
    board.pay(state, seat, sp["pay"], ev)
    p["invest"] = p.get("invest", 0) + sp["later_gold"]
    log(state, ev, f"{who(seat)} invests {sp['pay']['gold']} gold for {sp['later_gold']} after the Orders.")


def _petshop(state: State, seat: int, i: int, sp: dict[str, Any], ev: list[Event]) -> None:
    p = state["players"][seat]
    board.pay(state, seat, sp["pay"], ev)
    p["imps"] += sp["imps"]
    got = draw_pets(state, seat, sp["pets"], ev)
    imps, pets = (
        f"{sp['imps']} imp{'' if sp['imps'] == 1 else 's'}",
        f"{got} Pet Card{'' if got == 1 else 's'}",
    )
    log(state, ev, f"{who(seat)} at the pet shop ({'I' * (i + 1)}): {imps}, {pets}.")


def evil_all(state: State, deltas: dict[int, int], ev: list[Event]) -> None:
    """Several counters move at the same time (the Masquerade): the paladins look once."""
    lo, hi = board.EVIL["min"], board.EVIL["max"]
    for s, d in deltas.items():
        p = state["players"][s]
        p["evil"] = max(lo, min(hi, p["evil"] + d))
    board.check_paladin(state, ev)


def improve_options(state: State, seat: int) -> list[str]:
    t = state["task"]
    p = state["players"][seat]
    cost = BOARDS["improve"]["imps"]
    free = board.free_imps(p)
    out: list[str] = []
    kind = t.get("kind")
    if kind in (None, "improve") and free >= cost["improve"]:
        tiles = [k for k in state.get("improved", []) if k in IMPROVED]
        for c in board.tunnels(p, unconquered_only=True):
            if p["grid"][c].get("imp"):
                continue
            out += [f"improve {c} {k}" for k in tiles]
    if kind in (None, "tunnel") and free >= cost["tunnel"]:
        out += [f"deconquer {c}" for c, tl in p["grid"].items() if tl["c"] and tl["k"] == "t"]
    if kind is None and t["left"] >= 1 and free >= cost["room"]:
        out += [f"deconquer {c}" for c, tl in p["grid"].items() if tl["c"] and tl["k"] == "r"]
    return out


def do_improve(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words == ["done"]:
        if t.get("kind") is None:
            fail(state, seat, t["loc"], ev, "declined")
        state["task"] = None
        return
    text = " ".join(words)
    if text not in improve_options(state, seat):
        raise IllegalAction(
            "Improve an unconquered tunnel ('improve B2 shed'), deconquer a tile ('deconquer C2'), or 'done'."
        )
    cost = BOARDS["improve"]["imps"]
    c = words[1]
    if words[0] == "improve":
        p["grid"][c]["imp"] = words[2]
        state["improved"].remove(words[2])
        drop_installed(p, c)
        p["used"] += cost["improve"]
        t["kind"] = "improve"
        log(state, ev, f"{who(seat)} turns {c} into a {IMPROVED[words[2]]['name']}.")
    else:
        kind = "room" if p["grid"][c]["k"] == "r" else "tunnel"
        p["grid"][c]["c"] = False
        p["used"] += cost[kind]
        t["kind"] = kind
        log(state, ev, f"{who(seat)} deconquers {c}.")
    t["left"] -= 1
    if t["kind"] == "room" or t["left"] <= 0 or not improve_options(state, seat):
        state["task"] = None


def drop_installed(p: dict[str, Any], cell: str) -> None:
    """An installed trap is discarded when its tile is altered."""
    p["installed"] = [it for it in p.get("installed", []) if it["cell"] != cell]


def install_cost(state: State, seat: int, tid: str, cell: str, space: int) -> dict[str, int]:
    p = state["players"][seat]
    need = dict(BOARDS["install"]["spaces"][space]["pay"])
    for k, v in TRAPS[tid]["cost"][state["year"] - 1].items():
        need[k] = need.get(k, 0) + v
    if p["grid"][cell]["k"] == "r":
        need["gold"] = need.get("gold", 0) + 1  # installing in a room costs 1 gold, as using a trap there
    return need


def install_cells(p: dict[str, Any]) -> list[str]:
    taken = {it["cell"] for it in p.get("installed", [])}
    return [c for c, t in p["grid"].items() if not t["c"] and c not in taken]


def install_options(state: State, seat: int, space: int) -> list[str]:
    p = state["players"][seat]
    out = []
    for tid in dict.fromkeys(state["opps"].get("traps", [])):
        for c in install_cells(p):
            if board.can_pay(p, install_cost(state, seat, tid, c, space)):
                out += [f"install {tid} {c}{' ' + m if m else ''}" for m in catapult_loads(state, seat, tid)]
    return out


def catapult_loads(state: State, seat: int, tid: str) -> list[str | None]:
    """The monsters a Monster Catapult installed now may be loaded with (revision 4: the
    lord chooses, house decision 51); [None] for another trap or an older game."""
    if not TRAPS[tid]["cost"][state["year"] - 1].get("monster") or rules_revision(state) < 4:
        return [None]
    p = state["players"][seat]
    return list(dict.fromkeys(m["id"] for m in p["monsters"] if m["up"] is True and not m.get("pet")))


def do_install(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    if words == ["install", "none"]:
        fail(state, seat, t["loc"], ev, "declined")
        state["task"] = None
        return
    if " ".join(words) not in install_options(state, seat, t["space"]):
        raise IllegalAction(
            "Install one of the traps on offer on an unconquered tile you can pay for, or 'install none'."
        )
    tid, c = words[1], words[2]
    cost = install_cost(state, seat, tid, c, t["space"])
    load = None
    if len(words) == 4:
        cost.pop("monster")
        load = board.load_catapult(state, seat, words[3])
    board.pay(state, seat, cost, ev)
    state["opps"]["traps"].remove(tid)
    state["players"][seat]["installed"].append({"trap": tid, "cell": c, **({"load": load} if load else {})})
    log(state, ev, f"{who(seat)} installs a {TRAPS[tid]['name']} on {c}.")
    state["task"] = None


def expert_cost(state: State, seat: int, mid: str, space: int, alt: bool = False) -> dict[str, int]:
    sp = BOARDS["expert"]["spaces"][space]
    cost = board.monster_cost(mid, alt)
    for k, v in list(OPPS["expertise"][sp["expertise"]].items()) + list(sp.get("pay", {}).items()):
        cost[k] = cost.get(k, 0) + v
    return cost


def can_hire_expert(state: State, seat: int, mid: str, space: int) -> bool:
    p = state["players"][seat]
    if MONSTERS[mid].get("eats") and not board.edible(p):
        return False
    return any(board.can_pay(p, expert_cost(state, seat, mid, space, alt)) for alt in board.cost_ways(mid))


def do_expert(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words == ["hire", "none"]:
        fail(state, seat, t["loc"], ev, "declined")
        state["task"] = None
        return
    mid = words[1] if len(words) in (2, 3) else ""
    ways = board.cost_ways(mid) if mid in MONSTERS else []
    if len(words) == 3 and rules_revision(state) >= 4 and len(ways) > 1:
        # Revision 4: the lord says how the Cockatrice is paid ('hire cockatrice evil'),
        # "you can either pay 1 Food or pay 1 Evil when paying his cost".
        ways = [words[2] == "evil"]
    elif len(words) == 3:
        mid = ""
    if mid not in state["offer"]["monsters"] or not can_hire_expert(state, seat, mid, t["space"]):
        raise IllegalAction("Hire an expert monster on offer that you can pay for, or 'hire none'.")
    # Without a word, a Cockatrice is paid with food when you can, otherwise with Evil.
    cost = next(
        (c for c in (expert_cost(state, seat, mid, t["space"], alt) for alt in ways) if board.can_pay(p, c)),
        None,
    )
    if cost is None:
        raise IllegalAction(f"You cannot pay for an expert {MONSTERS[mid]['name']} that way.")
    if MONSTERS[mid].get("eats"):
        board.feed_demon(state, seat, ev)
    board.pay(state, seat, cost, ev)
    state["offer"]["monsters"].remove(mid)
    kind = BOARDS["expert"]["spaces"][t["space"]]["expertise"]
    p["monsters"].append({"id": mid, "up": True, "expert": kind})
    log(state, ev, f"{who(seat)} hires an extra {kind} {MONSTERS[mid]['name']} for {board.cost_text(cost)}.")
    state["task"] = None


def rent_pay(state: State, space: int) -> dict[str, int]:
    """Space III pays 1 gold only "if all 3 spaces are taken" (OFF)."""
    full = None not in state["board"]["room"]
    return dict(BOARDS["rent"]["spaces"][space].get("pay", {})) if full else {}


def rent_options(state: State, seat: int, space: int) -> list[str]:
    p = state["players"][seat]
    sp = BOARDS["rent"]["spaces"][space]
    out = []
    if board.can_pay(p, rent_pay(state, space)):
        out += [f"rent {r}" for r in dict.fromkeys(state["offer"]["rooms"])]
    if sp.get("take_gold") and state["opps"].get("rent_gold"):
        out.append("rent gold")
    return out


def do_rent(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    if words == ["rent", "none"]:
        fail(state, seat, t["loc"], ev, "declined")
        state["task"] = None
        return
    if " ".join(words) not in rent_options(state, seat, t["space"]):
        raise IllegalAction(
            "Rent a room on offer ('rent mint'), take the gold paid before you ('rent gold'), or 'rent none'."
        )
    if words[1] == "gold":
        p["gold"] += state["opps"]["rent_gold"]
        state["opps"]["rent_gold"] = 0
        log(state, ev, f"{who(seat)} takes the gold paid for a rented room.")
    else:
        rid = words[1]
        pay = rent_pay(state, t["space"])
        board.pay(state, seat, pay, ev)
        if pay.get("gold"):
            state["opps"]["rent_gold"] = state["opps"].get("rent_gold", 0) + pay["gold"]
        state["offer"]["rooms"].remove(rid)
        cell = f"R{len(p['rented']) + 1}"
        p["rented"].append({"k": "r", "room": rid, "c": False, "cell": cell})
        log(state, ev, f"{who(seat)} rents a {ROOMS[rid]['name']} in town ({cell}).")
    state["task"] = None


def do_harvest(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    sp = BOARDS["harvest"]["spaces"][t["space"]]
    if words[0] != "harvest" or len(words) != 2 or not board.is_number(words[1]) or int(words[1]) > t["cap"]:
        raise IllegalAction(f"Harvest with 0 to {t['cap']} imps, e.g. 'harvest {t['cap']}'.")
    k = int(words[1])
    if k == 0 and not sp.get("evil"):
        fail(state, seat, t["loc"], ev, "no imps sent")
    else:
        p["used"] += k + sp["foreimps"]
        p["food"] += k
        if sp.get("evil"):
            board.move_evil(state, seat, sp["evil"], ev)
        log(state, ev, f"{who(seat)} harvests {k} food" + (" and loses 1 Evil." if sp.get("evil") else "."))
    state["task"] = None


def look_options(state: State) -> list[int]:
    cards = state["decks"][str(state["year"])]["cards"]
    return list(range(state["combat"]["round"] + 1, len(cards) + 1))


def do_look(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    t = state["task"]
    p = state["players"][seat]
    cards = state["decks"][str(state["year"])]["cards"]
    if t["type"] == "look":
        opts = look_options(state)
        if (
            words[0] != "look"
            or len(words) != 2
            or not board.is_number(words[1])
            or int(words[1]) not in opts
        ):
            raise IllegalAction(f"Look at one of this Year's Combat Cards: 'look 1' to 'look {opts[-1]}'.")
        k = int(words[1]) - 1
        ev.append(Event(f"Combat Card {k + 1} of this Year is {CARDS[cards[k]]['name']}.", seat))
        if k not in p["seen"]:
            p["seen"].append(k)
        log(state, ev, f"{who(seat)} looks at Combat Card {k + 1}.")
        if t["move"]:
            state["task"] = {"type": "put", "seat": seat, "loc": t["loc"], "card": k}
        else:
            state["task"] = None
        return
    opts = look_options(state)
    if words[0] != "put" or len(words) != 2 or not board.is_number(words[1]) or int(words[1]) not in opts:
        raise IllegalAction(
            f"Put the card back at a position from {opts[0]} to {opts[-1]}, e.g. 'put {opts[0]}'."
        )
    k, j = t["card"], int(words[1]) - 1
    card = cards.pop(k)
    cards.insert(j, card)
    # Positions you saw move with the card (you know where it went).
    seen = []
    for idx in p["seen"]:
        if idx == k:
            seen.append(j)
        elif k < idx <= j:
            seen.append(idx - 1)
        elif j <= idx < k:
            seen.append(idx + 1)
        else:
            seen.append(idx)
    p["seen"] = seen
    for s, q in enumerate(state["players"]):
        if s != seat:
            q["seen"] = [idx for idx in q["seen"] if not (min(k, j) <= idx <= max(k, j))]
    log(state, ev, f"{who(seat)} looked at Combat Card {k + 1} and put it in position {j + 1}.")
    state["task"] = None


def after_orders(g: Any, state: State, ev: list[Event]) -> None:
    """Invest Gold pays when the Orders Phase is done; in season 5 the festival follows."""
    for s, p in enumerate(state["players"]):
        if p.get("invest"):
            p["gold"] += p["invest"]
            log(state, ev, f"{who(s)}'s investment pays {p['invest']} gold.")
            p["invest"] = 0
    o = state.get("opps")
    if x(state)["festival"] and state["round"] == state["seasons"] and o and o.get("used"):
        limit = OPPS["festival"]["prizes_by_players"][str(state["seats"])]
        state["fest"] = {"bids": {}, "boards": list(o["used"][:limit]), "order": []}
        state["phase"] = "festival"
        log(
            state, ev, "Festival! Every dungeon lord secretly sends imps; the most imps choose a prize first."
        )
        return
    g._start_production(state, ev)


# ---- the festival ---------------------------------------------------------------------------------
def do_bid(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    free = board.free_imps(p)
    if words[0] != "bid" or len(words) != 2 or not board.is_number(words[1]) or int(words[1]) > free:
        raise IllegalAction(f"Send 0 to {free} of your available imps to the festival, e.g. 'bid {free}'.")
    fest = state["fest"]
    fest["bids"][str(seat)] = int(words[1])
    ev.append(Event(f"{who(seat)} has sent imps to the festival (secretly)."))
    ev.append(Event(f"You send {words[1]} imp{'' if words[1] == '1' else 's'} to the festival.", seat))
    if len(fest["bids"]) < state["seats"]:
        return
    bids = {int(s): b for s, b in fest["bids"].items()}
    for s, b in bids.items():
        state["players"][s]["used"] += b  # the festival imps are busy for the rest of the round
    order = [
        s
        for s in sorted(bids, key=lambda s: (bids[s], board.evil_rank_key(state, s)), reverse=True)
        if bids[s]
    ]
    fest["order"] = order
    text = ", ".join(f"{who(s)} {bids[s]}" for s in sorted(bids))
    log(state, ev, f"Festival bids revealed: {text}.")
    state["phase"] = "prize"
    next_prize(g, state, ev)


def next_prize(g: Any, state: State, ev: list[Event]) -> None:
    fest = state["fest"]
    while fest["order"]:
        s = fest["order"].pop(0)
        if prize_options(state, s):
            state["task"] = {"type": "prize", "seat": s}
            return
    state["task"] = None
    state["fest"] = None
    g._start_production(state, ev)


def prize_locs(state: State) -> list[str]:
    return [BOARDS[b]["replaces"] for b in state["fest"]["boards"]]


def prize_options(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    out = []
    for loc in prize_locs(state):
        if loc == "dig":
            out += [f"prize dig {c}" for c in board.dig_cells(p)]
        elif loc == "monster":
            for m in dict.fromkeys(state["discard"]["monsters"]):
                if festival_monster_pay(state, p, m) is not None and not (
                    MONSTERS[m].get("eats") and not board.edible(p)
                ):
                    out.append(f"prize monster {m}")
        elif loc == "room":
            if p["gold"] >= OPPS["festival"]["room_gold"]:
                for r in dict.fromkeys(state["discard"]["rooms"]):
                    out += [f"prize room {r} {c}" for c in board.room_cells(p, r)]
        elif loc == "rep" and p["evil"] <= board.EVIL["min"]:
            continue
        else:
            out.append(f"prize {loc}")
    return out


def festival_monster_cost(mid: str, alt: bool = False) -> dict[str, int]:
    cost = board.monster_cost(mid, alt)
    cost["food"] = cost.get("food", 0) + OPPS["festival"]["monster_food"]
    return cost


def festival_monster_pay(state: State, p: dict[str, Any], mid: str) -> dict[str, int] | None:
    """What a festival monster costs this player (None: unaffordable). From revision 3 a
    Cockatrice may be paid with 1 Evil when the food runs short ("you can either pay 1 Food
    or pay 1 Evil when paying his cost"; house decision 32: food when you can); revision 2
    knew only the food."""
    ways = board.cost_ways(mid) if rules_revision(state) >= 3 else [False]
    for alt in ways:
        cost = festival_monster_cost(mid, alt)
        if board.can_pay(p, cost):
            return cost
    return None


def do_prize(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    text = " ".join(words)
    if text == "prize none":
        log(state, ev, f"{who(seat)} takes no festival prize.")
        next_prize(g, state, ev)
        return
    if text not in prize_options(state, seat):
        raise IllegalAction(
            "Choose a festival prize still on offer that you can take, e.g. 'prize food', or 'prize none'."
        )
    loc = words[1]
    if loc == "food":
        p["food"] += 1
    elif loc == "rep":
        board.move_evil(state, seat, -1, ev)
    elif loc == "dig":
        p["grid"][words[2]] = {"k": "t", "c": False}
    elif loc == "mine":
        p["gold"] += 1
    elif loc == "imps":
        p["imps"] += 1
    elif loc == "traps":
        drawn = board.draw_traps(state, 1)
        p["traps"].extend(drawn)
        ev.append(
            Event(f"Your festival imps bring back a {', '.join(TRAPS[t]['name'] for t in drawn)}.", seat)
        )
    elif loc == "monster":
        mid = words[2]
        if MONSTERS[mid].get("eats"):
            board.feed_demon(state, seat, ev)
        cost = festival_monster_pay(state, p, mid)
        assert cost is not None  # prize_options offered it
        board.pay(state, seat, cost, ev)
        state["discard"]["monsters"].remove(mid)
        p["monsters"].append({"id": mid, "up": True})
    elif loc == "room":
        p["gold"] -= OPPS["festival"]["room_gold"]
        state["discard"]["rooms"].remove(words[2])
        p["grid"][words[3]] = {"k": "r", "room": words[2], "c": False}
        drop_installed(p, words[3])
    for b in state["fest"]["boards"]:
        if BOARDS[b]["replaces"] == loc:
            state["fest"]["boards"].remove(b)
            break
    if rules_revision(state) >= 3:
        log(state, ev, f"{who(seat)} takes the festival prize: {prize_words(words)}.")
    else:  # a revision-2 game's log keeps its words ('(monster troll)')
        log(
            state,
            ev,
            f"{who(seat)} takes the festival prize: {PRIZE[loc]}"
            + (f" ({' '.join(words[2:])})." if len(words) > 2 else "."),
        )
    next_prize(g, state, ev)


def prize_words(words: list[str]) -> str:
    """A prize taken, in words: 'a tunnel on B3', 'the Troll from the discard pile'."""
    loc = words[1]
    if loc == "dig":
        return f"a tunnel on {words[2]} (no imp needed)"
    if loc == "monster":
        return f"the {MONSTERS[words[2]]['name']} from the discard pile"
    if loc == "room":
        return f"the {ROOMS[words[2]]['name']} on {words[3]} from the discard pile"
    return PRIZE[loc]


# ---- pets -------------------------------------------------------------------------------------------
def draw_pets(state: State, seat: int, k: int, ev: list[Event]) -> int:
    got = 0
    for _ in range(k):
        if not state.get("pet_deck"):
            if not state.get("pet_discard"):
                break
            state["pet_deck"] = state["pet_discard"]
            state["pet_discard"] = []
        pet = state["pet_deck"].pop(0)
        state["players"][seat]["pets"].append(pet)
        ev.append(Event(f"You get a pet: {PETS[pet]['name']} - {PETS[pet]['text']}", seat))
        got += 1
    return got


def start_pet_draft(g: Any, state: State, ev: list[Event]) -> None:
    for s in range(state["seats"]):
        draw_pets(state, s, PETS_DOC["draft_deal"], ev)
    state["pet_pass"] = {}
    state["phase"] = "pet_pass"
    log(state, ev, "Pet Phase: everyone draws 2 Pet Cards, passes 1 to the left, then discards 1.")


def do_pet_pass(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    if words[0] != "pass" or len(words) != 2 or words[1] not in p["pets"]:
        raise IllegalAction(f"Pass one of your face-down pets to the left, e.g. 'pass {p['pets'][0]}'.")
    state["pet_pass"][str(seat)] = words[1]
    ev.append(Event(f"{who(seat)} has chosen a pet to pass."))
    if len(state["pet_pass"]) < state["seats"]:
        return
    n = state["seats"]
    for s in range(n):
        state["players"][s]["pets"].remove(state["pet_pass"][str(s)])
    for s in range(n):
        got = state["pet_pass"][str((s - 1) % n)]  # from the player on your right
        state["players"][s]["pets"].append(got)
        ev.append(Event(f"You receive a {PETS[got]['name']} from the right.", s))
    state["pet_pass"] = {}
    state["pet_discard_done"] = []
    state["phase"] = "pet_discard"


def do_pet_discard(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    if words[0] != "discard" or len(words) != 2 or words[1] not in p["pets"]:
        raise IllegalAction(f"Discard one of your face-down pets, e.g. 'discard {p['pets'][0]}'.")
    state.setdefault("pet_discards", {})[str(seat)] = words[1]
    state["pet_discard_done"].append(seat)
    ev.append(Event(f"{who(seat)} has discarded a pet."))
    if len(state["pet_discard_done"]) < state["seats"]:
        return
    for s, pet in state["pet_discards"].items():
        state["players"][int(s)]["pets"].remove(pet)
        state["pet_discard"].append(pet)
    state["pet_discards"] = {}
    state["pet_discard_done"] = []
    state["phase"] = "end_round"


def use_build_pet(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    pid = words[1] if len(words) >= 2 else ""
    if pid not in p["pets"] or PETS[pid]["when"] != "build":
        raise IllegalAction("You have no such building pet face down.")
    gain = PETS[pid]["gain"]
    if gain.get("tunnel"):
        if len(words) != 3 or words[2] not in board.dig_cells(p):
            raise IllegalAction(
                f"Say where the {PETS[pid]['name']} digs, e.g. 'pet {pid} B3', next to your dungeon."
            )
        p["grid"][words[2]] = {"k": "t", "c": False}
    elif len(words) != 2:
        raise IllegalAction("That pet takes no coordinate.")
    for k in ("gold", "food", "imps"):
        p[k] += gain.get(k, 0)
    if gain.get("evil"):
        board.move_evil(state, seat, gain["evil"], ev)
    p["pets"].remove(pid)
    p["used_pets"].append(pid)
    log(state, ev, f"{who(seat)} reveals a pet: {PETS[pid]['name']} - {PETS[pid]['text']}")


def build_pet_actions(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    out = []
    for pid in dict.fromkeys(p.get("pets", [])):
        if PETS[pid]["when"] != "build":
            continue
        if PETS[pid]["gain"].get("tunnel"):
            out += [f"pet {pid} {c}" for c in board.dig_cells(p)]
        elif PETS[pid]["gain"].get("evil") and p["evil"] <= board.EVIL["min"]:
            continue
        else:
            out.append(f"pet {pid}")
    return out


def use_combat_pet(g: Any, state: State, seat: int, plan: dict[str, Any], ev: list[Event]) -> None:
    """A combat pet named in the plan is revealed as the battle starts."""
    pid = plan.get("pet")
    p = state["players"][seat]
    if not pid or pid not in p.get("pets", []):
        return
    p["pets"].remove(pid)
    p["used_pets"].append(pid)
    pet = PETS[pid]
    log(state, ev, f"{who(seat)} reveals a pet: {pet['name']} - {pet['text']}")
    if pid == "babygolem":
        # Baby Golem fights like a monster until this Year's Combat ends (he is sent now).
        p["monsters"].append({"id": "babygolem", "up": True, "pet": True})
        plan["send"].append(("babygolem", 0))
    elif pid == "stareplant":
        p.setdefault("stareplant", []).append(state["year"])
    elif pet.get("fatigue_add"):
        plan["fatigue_add"] = pet["fatigue_add"]
    elif pet.get("dmg"):
        plan["pet_dmg"] = (pet["name"], pet["dmg"])


# Opportunities whose action happens at once (the others set a task for the player).
INSTANT = {"masquerade": _masquerade, "invest": _invest, "petshop": _petshop}
