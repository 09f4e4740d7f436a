"""Dungeon Lords: a complete state dealt from what one seat sees (issue 30), for search.

``sample(view, rnd)`` reads only the seat's view and the public component lists. What
the view shows is copied; what the seat cannot see is dealt at random from ``rnd`` among
the components not accounted for: the rest of each Year's decks (monsters, rooms,
adventurers, event tiles, special events, Combat Cards not yet turned or looked at), the
opportunity boards still to come, the other lords' Trap Cards and pets (how many is
public), their secret orders, festival imps, pet passes and discards, first drawn orders
and battle plans (dealt among their legal choices). The game's RNG is reseeded from
``rnd`` so no sample knows a future draw.

Approximated (seen once, no longer in the view): the cards already gone from this Year's
decks (the pools deal from the whole Year less what is still in sight, so a card the seat
saw leave may be dealt again into the unseen part of a deck while a twin is missing; the
deck sizes are right); the Trap Card discard pile (all unseen traps go to the deck); which
Combat Cards the other lords looked at; the log beyond the view's last lines.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

from engine.core import State

from . import board, expansion, plans, views
from .data import (
    ADVENTURERS,
    BOARDS,
    COMBAT,
    EVENTS,
    LOC_IDS,
    MONSTERS,
    PETS,
    PETS_DOC,
    ROOMS,
    RULES,
    TRAP_COPIES,
    TRAPS,
)
from .upgrade import REVISION

_UID = re.compile(r"^a(\d+)$")


def _minus(pool: list[Any], known: list[Any]) -> list[Any]:
    """``pool`` less one copy of each of ``known`` that it holds (a multiset difference)."""
    left = Counter(known)
    out = []
    for x in pool:
        if left[x] > 0:
            left[x] -= 1
        else:
            out.append(x)
    return out


def _deal(rnd: random.Random, pool: list[Any], k: int) -> list[Any]:
    """``k`` items of ``pool`` at random (fewer if the pool runs short), taken out of it."""
    rnd.shuffle(pool)
    out = pool[:k]
    del pool[:k]
    return out


def _year_pools(x: dict[str, Any], y: str) -> dict[str, Any]:
    """A Year's components (fresh lists: the caller deals from them)."""
    key = (x["exp"], x["bards"], x["seasons"], y)
    if key not in _POOLS:
        _POOLS[key] = _new_year_pools(x, y)
    return {k: list(v) for k, v in _POOLS[key].items()}


_POOLS: dict[tuple[Any, ...], dict[str, Any]] = {}


def _new_year_pools(x: dict[str, Any], y: str) -> dict[str, Any]:
    ok = expansion.keep(x)
    return {
        "monsters": [m for m, d in MONSTERS.items() if ok(d) for _ in range(d["copies"][int(y) - 1])],
        "rooms": [r for r, d in ROOMS.items() if d["year"] == int(y) and ok(d)],
        "advs": [a for a in ADVENTURERS["adventurers"][y] if ok(a) and (a["cls"] != "bard" or x["bards"])],
        "cards": [c["id"] for c in COMBAT["cards"][y] if ok(c)],
        "events": list(EVENTS["tiles_exp"] if x["seasons"] == 5 else EVENTS["tiles"]),
    }


def _adv_key(a: dict[str, Any]) -> tuple[Any, ...]:
    return (a.get("cls"), a.get("level"), a.get("hp"), a.get("icons"), a.get("name"))


def _decks(view: dict[str, Any], rnd: random.Random, x: dict[str, Any]) -> dict[str, Any]:
    year, r, seasons = view["year"], view["round"], view["seasons"]
    n = view["seats"]
    priv = view.get("private") or {}
    decks: dict[str, Any] = {}
    in_combat = view["phase"] in ("plan", "over") or view["combat_round"] > 0
    for y in ("1", "2"):
        pools = _year_pools(x, y)
        yi = int(y)
        if yi < year:  # a past Year's decks are never read again: empty
            decks[y] = {"monsters": [], "rooms": [], "advs": [], "cards": [], "events": [], "specials": []}
            continue
        # Rounds whose offer has been drawn from this Year's decks (0 for a Year to come).
        drawn = 0 if yi > year else (seasons if in_combat or view["phase"] == "over" else r)
        m_left = max(0, len(pools["monsters"]) - drawn * RULES["monsters_per_round"])
        r_left = max(0, len(pools["rooms"]) - drawn * RULES["rooms_per_round"])
        in_sight = list(view["offer"]["monsters"]) if yi == year else []
        rooms_sight = list(view["offer"]["rooms"]) if yi == year else []
        mons = _minus(pools["monsters"], in_sight)
        rooms = _minus(pools["rooms"], rooms_sight)
        k = RULES["adventurers_per_round"][str(n)]
        adv_drawn = 0
        if yi == year:
            for rr in range(1, min(drawn, seasons - 1) + 1):
                adv_drawn += 0 if rr == 1 and x["beginners"] else k
        a_left = max(0, len(pools["advs"]) - adv_drawn)
        seen_advs = [_adv_key(a) for a in view["next_advs"] + view.get("advs", [])] if yi == year else []
        advs = [dict(a) for a in pools["advs"]]
        left = Counter(seen_advs)
        unseen_advs = []
        for a in advs:
            key = _adv_key(a)
            if left[key] > 0:
                left[key] -= 1
            else:
                unseen_advs.append(a)
        # Events: index r-1 was read at round r; the tiles still to come are the unseen ones.
        tiles = pools["events"]
        known = [t for t in ((view["event"], view["next_event"]) if yi == year else ()) if t]
        unseen = _minus(tiles, known)
        rnd.shuffle(unseen)
        used = min(len(tiles), drawn) if yi == year else 0
        past = known + unseen[: max(0, used - len(known))]
        future = unseen[max(0, used - len(known)) :]
        events = (past + future)[: len(tiles)]
        # Combat Cards: the ones turned and the ones this seat looked at stay where they are.
        ncards = x["combat_rounds"]
        slots: list[str | None] = [None] * ncards
        if yi == year:
            for i, cid in enumerate(view["combat_cards"]):
                if cid is not None and i < ncards:
                    slots[i] = cid
            for i, cid in (priv.get("seen_cards") or {}).items():
                if int(i) - 1 < ncards:
                    slots[int(i) - 1] = cid
        rest = _minus(pools["cards"], [c for c in slots if c])
        rnd.shuffle(rest)
        cards = [c if c is not None else rest.pop() for c in slots]
        decks[y] = {
            "monsters": _deal(rnd, mons, m_left),
            "rooms": _deal(rnd, rooms, r_left),
            "advs": _deal(rnd, unseen_advs, a_left),
            "cards": cards,
            "events": events,
        }
    # Special events: those not yet turned, so many a Year.
    specials = [s["id"] for s in EVENTS["specials"] if expansion.keep(x)(s)]
    pool = _minus(specials, view["specials_seen"])
    rnd.shuffle(pool)
    k = EVENTS["special_per_year_exp"] if x["seasons"] == 5 else EVENTS["special_per_year"]
    for y in ("1", "2"):
        if int(y) < year:
            continue
        if int(y) == year:
            # This Year's specials already turned are in specials_seen; the rest of k may come.
            seen_y = len(view["specials_seen"]) - (k if year == 2 else 0)
            decks[y]["specials"] = _deal(rnd, pool, max(0, k - max(0, seen_y)))
        else:
            decks[y]["specials"] = _deal(rnd, pool, k)
    return decks


def sample(view: dict[str, Any], rnd: random.Random) -> State:
    """A full state consistent with ``view`` (see the module docstring)."""
    n = view["seats"]
    x = dict(view["x"]) if view.get("x") else expansion.flags({"expansion": False})
    phase = view["phase"]
    c_log = list(view["combat_log_full"])
    st: dict[str, Any] = {
        "game": view["game"], "seats": n, "year": view["year"], "round": view["round"], "phase": phase,
        "start": view["start"], "turn": 0, "seasons": view["seasons"], "combat_rounds": view["combat_rounds"],
        "log": list(view["log"]), "trap_discard": [], "orders": {}, "played": {},
        "board": {k: list(v) for k, v in view["board"].items()}, "queue": _copy(view.get("queue", [])),
        "task": _copy(view["task"]), "offer": _copy(view["offer"]), "next_advs": _copy(view["next_advs"]),
        "advs": _copy(view.get("advs", [])), "next_event": view["next_event"], "event": view["event"],
        "combat": {"round": view["combat_round"], "plans": {}, "log": c_log, "card": None},
        "specials_seen": list(view["specials_seen"]), "x": x, "discard": _copy(view.get("discard")),
        "improved": list(view.get("improved", [])), "payq": list(view.get("payq", [])),
        "pal_ignore": _copy(view.get("pal_ignore", {})), "y1_start": view.get("y1_start", 0),
        "options": {}, "revision": view.get("revision") or REVISION,
        "rng": {"seed": rnd.randrange(2**31), "n": 0},
        "dummy": _copy(view["dummy"]), "done": [], "inacc_draw": {}, "inacc_pick": {},
    }  # fmt: skip
    if n < 4:
        st["players_dummy"] = True
    if st["discard"] is None:
        st.pop("discard")
    st["paladins"] = [_paladin(p) for p in view["paladins"]]
    c = view["combat_round"]
    if c and phase != "plan":
        cards_seen = view["combat_cards"]
        if c - 1 < len(cards_seen) and cards_seen[c - 1] is not None:
            st["combat"]["card"] = cards_seen[c - 1]
    # Adventurers are numbered as they are drawn; the newest are in sight (parties, prisons,
    # this season's and next season's arrivals).
    advs = [*view["next_advs"], *view.get("advs", []), *view["dummy"]["party"]]
    for vp in view["players"]:
        advs += [*vp["party"], *vp["prison"]]
    uids = [int(m.group(1)) for m in (_UID.match(str(a.get("uid", ""))) for a in advs) if m]
    st["uid"] = max(uids, default=0)
    st["decks"] = _decks(view, rnd, x)

    _players(st, view, rnd, x)
    _secrets(st, view, rnd)
    _last(st, view)
    return st


def _players(st: State, view: dict[str, Any], rnd: random.Random, x: dict[str, Any]) -> None:
    """The lords: public parts from the view, the seat's own hidden parts from its private
    view, the others' Trap Cards and pets dealt from the unseen ones (how many is public)."""
    me = view["viewer"]
    priv = view.get("private") or {}
    players = []
    for vp in view["players"]:
        p = {
            k: _copy(vp[k])
            for k in (
                "gold",
                "food",
                "imps",
                "used",
                "evil",
                "grid",
                "monsters",
                "prison",
                "party",
                "penalty",
            )
        }
        p["inacc"] = list(vp["inaccessible"])
        p["tok"] = sum(1 for m in vp["monsters"] if MONSTERS[m["id"]].get("token")) - vp["tokens"]
        p["traps"] = []
        p["uses"] = dict(vp.get("uses", {}))
        p["seen"] = []
        for key in ("train_dir", "shed_used", "illusion"):
            if vp.get(key) is not None:
                p[key] = _copy(vp[key])
        if x["exp"]:
            p.update(pets=[], used_pets=list(vp["used_pets"]), trained=vp["trained"], rented=_copy(vp["rented"]),
                     installed=_copy(vp["installed"]), invest=vp["invest"], xp={})  # fmt: skip
        if "mourn" in vp and (vp["mourn"] or view["combat_round"]):
            p["mourn"] = vp["mourn"]
        players.append(p)
    st["players"] = players
    if priv.get("seen_cards"):
        players[me]["seen"] = sorted(int(i) - 1 for i in priv["seen_cards"])

    # Trap Cards: the seat's own from its hand; the others' from the unseen ones.
    all_traps = [t for t in TRAPS if expansion.keep(x)(TRAPS[t]) for _ in range(TRAP_COPIES)]
    opps_traps = list((view.get("opps") or {}).get("traps", []))
    installed = [it["trap"] for vp in view["players"] for it in vp.get("installed", [])]
    trap_pool = _minus(all_traps, list(priv.get("traps", [])) + opps_traps + installed)
    rnd.shuffle(trap_pool)
    for s, vp in enumerate(view["players"]):
        players[s]["traps"] = list(priv.get("traps", [])) if s == me else _deal(rnd, trap_pool, vp["traps"])
    st["trap_deck"] = trap_pool

    # Opportunities and pets (Festival Season).
    if view.get("opps"):
        st["opps"] = _opps(view, rnd)
    if x["exp"]:
        all_pets = [p for p in PETS for _ in range(PETS_DOC["copies"])]
        gone = [u for vp in view["players"] for u in vp.get("used_pets", [])]
        pet_pool = _minus(all_pets, list(priv.get("pets", [])) + gone)
        rnd.shuffle(pet_pool)
        for s, vp in enumerate(view["players"]):
            players[s]["pets"] = list(priv.get("pets", [])) if s == me else _deal(rnd, pet_pool, vp["pets"])
        st["pet_deck"] = pet_pool
        st["pet_discard"] = []


def _secrets(st: State, view: dict[str, Any], rnd: random.Random) -> None:
    """Secret choices made and not yet revealed, dealt among the other seats' legal ones."""
    me = view["viewer"]
    n = view["seats"]
    priv = view.get("private") or {}
    phase = view["phase"]
    players = st["players"]
    to_act = set(view["to_act"])
    if phase == "orders":
        for s, vp in enumerate(view["players"]):
            if s == me and priv.get("orders"):
                st["orders"][str(s)] = list(priv["orders"])
            elif vp["ordered"]:
                h = board.hand(players[s])
                st["orders"][str(s)] = rnd.sample(h, RULES["orders_per_round"])
    for s, vp in enumerate(view["players"]):
        if vp["played"] or str(s) in view.get("played_seats", ()):
            declined = set(priv.get("declined", [])) if s == me else set()  # others': not known
            st["played"][str(s)] = [
                {"loc": loc, "ok": ok, **({"skip": True} if i in declined else {})}
                for i, (loc, ok) in enumerate(zip(vp["played"], vp["played_ok"], strict=True))
            ]
    if phase == "production":
        st["done"] = [s for s in range(n) if s not in to_act]
    if phase == "inacc":
        for s in range(n):
            if s == me:
                st["inacc_draw"][str(s)] = list(priv["inacc_draw"])
            else:
                st["inacc_draw"][str(s)] = rnd.sample(list(LOC_IDS), RULES["initial_inaccessible_draw"])
            if s not in to_act:
                st["inacc_pick"][str(s)] = rnd.choice(st["inacc_draw"][str(s)])
        if me not in to_act and priv.get("inacc_pick"):
            st["inacc_pick"][str(me)] = priv["inacc_pick"]
    if view.get("festival") is not None:
        f = view["festival"]
        bids = f["bids"]
        if bids is None:
            bids = {}
            for s in f["bid"]:
                if s == me:
                    bids[str(s)] = priv["bid"]
                else:
                    bids[str(s)] = rnd.randint(0, board.free_imps(players[s]) + 0)
        st["fest"] = {"bids": dict(bids), "boards": list(f["boards"]), "order": list(f["order"])}
    elif "fest" in view.get("state_keys", ()):
        st["fest"] = None
    if phase == "pet_pass":
        st["pet_pass"] = {}
        for s in view.get("pet_chosen", []):
            if s == me:
                st["pet_pass"][str(s)] = priv["pet_pass"]
            else:
                st["pet_pass"][str(s)] = rnd.choice(players[s]["pets"])
    if phase == "pet_discard":
        st["pet_discard_done"] = list(view.get("pet_chosen", []))
        st["pet_discards"] = {}
        for s in st["pet_discard_done"]:
            if s == me and priv.get("pet_discard"):
                st["pet_discards"][str(s)] = priv["pet_discard"]
            else:
                st["pet_discards"][str(s)] = rnd.choice(players[s]["pets"])
    if phase == "plan":
        for s in view["to_act"]:
            st["combat"]["plans"][str(s)] = None
        for s in view["planned"]:
            st["combat"]["plans"][str(s)] = None
        for s in view["planned"]:
            opts = plans.options(st, s)
            st["combat"]["plans"][str(s)] = rnd.choice(opts) if opts else None


def _last(st: State, view: dict[str, Any]) -> None:
    """What the last turn changed, as the view outlines it: a board as the turn began that
    differs from now exactly on the outlined squares and spaces (their earlier contents are
    not in the view; only the outline is ever read)."""
    ch = view.get("changed") or {}
    now = views.snapshot(st)
    st["mark"] = now
    if not ch.get("cells") and not ch.get("spaces"):
        return
    last = _copy(now)
    for s, cells in ch.get("cells", {}).items():
        for c in cells:
            last["grids"][s][c] = "?"
    for loc, i in ch.get("spaces", []):
        last["board"][loc][i] = None
    st["last"] = last


def _opps(view: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    o = view["opps"]
    year, r = view["year"], view["round"]
    seasons = view["seasons"]
    known = [b for b in [*o.get("used", []), o.get("now"), o.get("next")] if b]
    pool = [b for b in BOARDS if b not in known]
    rnd.shuffle(pool)
    out: dict[str, Any] = {"used": list(o.get("used", [])), "now": o.get("now"), "next": o.get("next"),
                           "traps": list(o.get("traps", [])), "rent_gold": o.get("rent_gold", 0)}  # fmt: skip
    for y in ("1", "2"):
        yi = int(y)
        if yi < year:
            out[y] = []
            continue
        if yi > year:
            out[y] = _deal(rnd, pool, 4)
            continue
        left = max(0, 4 - max(0, min(r, seasons) - 1))  # boards popped in rounds 2..r
        stack = [o["next"]] if o.get("next") else []
        stack += _deal(rnd, pool, left - len(stack))
        out[y] = stack
    return out


def _paladin(p: dict[str, Any]) -> dict[str, Any]:
    """A paladin piece: its printed card (public component data) and where it stands."""
    y = str(p["year"])
    cards = [*ADVENTURERS["paladins"][y], *ADVENTURERS["paladins_exp"][y]]
    card = next(c for c in cards if c["name"] == p["name"])
    pal: dict[str, Any] = {**card, "cls": "paladin", "uid": card["id"], "year": p["year"]}
    for k in ("hp", "dmg", "status", "at", "trap", "heal", "spell", "points"):
        pal[k] = _copy(p[k])
    if p.get("points") is None and "points" not in card:
        pal.pop("points")
    return pal


def _copy(x: Any) -> Any:
    # Leaves are kept without a call each: most of what a sample copies is strings and numbers.
    if isinstance(x, dict):
        return {k: _copy(v) if isinstance(v, _NESTED) else v for k, v in x.items()}
    if isinstance(x, list):
        return [_copy(v) if isinstance(v, _NESTED) else v for v in x]
    return x


_NESTED = (dict, list)
