"""Dungeon Lords views: what a seat (or the public) may see, the public status
sentence and the private text of /hand. Everything the bot shows is built from these."""

from __future__ import annotations

from typing import Any

from engine import core
from engine.core import State

from . import board
from .data import CARDS, IMPROVED, LOC, MONSTERS, PETS, ROOMS, TRAPS

# The printed names (and a Combat Card's speed and fatigue) of the components: the renderers
# read them from the view, never from the data (issue 16).
COMPONENTS: dict[str, dict[str, Any]] = {
    "monsters": {k: m["name"] for k, m in MONSTERS.items()},
    "rooms": {k: r["name"] for k, r in ROOMS.items()},
    "traps": {k: t["name"] for k, t in TRAPS.items()},
    "cards": {k: {"name": c["name"], "speed": c["speed"], "fatigue": c["fatigue"]} for k, c in CARDS.items()},
    "improved": {k: t["name"] for k, t in IMPROVED.items()},
    "pets": {k: p["name"] for k, p in PETS.items()},
}


def view(g: Any, state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (None: the public). ``viewer`` names the seat; the other keys
    are read by the renderer and the AI (search's rollouts build only what the heuristic
    reads: ai.rollout_view)."""
    y = str(state["year"])
    c = state["combat"]
    cards = state["decks"][y]["cards"]
    revealed = c["round"] - (0 if c.get("card") or state["phase"] != "plan" else 1) if c["round"] else 0
    v: dict[str, Any] = {
        "game": g.key, "viewer": seat, "seat": seat, "seats": state["seats"], "year": state["year"],
        "round": state["round"], "seasons": state["seasons"], "phase": state["phase"], "start": state["start"],
        "status": status(g, state), "to_act": sorted(g.to_act(state)),
        "players": [_player(state, s) for s in range(state["seats"])], "offer": state["offer"],
        "board": state["board"], "event": state["event"], "next_event": state["next_event"],
        "next_advs": state["next_advs"],
        "dummy": {"cards": state["dummy"]["cards"], "evil": state["dummy"]["evil"], "party": state["dummy"]["party"]},
        "paladins": [{**{k: pal[k] for k in ("name", "hp", "dmg", "status", "at", "trap", "heal", "spell")},
                      "year": pal.get("year", state["year"]), "points": pal.get("points")} for pal in state["paladins"]],
        "evilometer": board.EVIL, "log": state["log"][-8:], "combat_log": c["log"][-14:], "combat_log_full": list(c["log"]),
        "combat_round": c["round"], "combat_rounds": state["combat_rounds"],
        "combat_cards": [cards[i] if i < revealed else None for i in range(len(cards))],
        "planned": sorted(int(s) for s, x in c.get("plans", {}).items() if x is not None),
        "task": state["task"], "specials_seen": state["specials_seen"], "x": state.get("x"),
        "discard": state.get("discard"), "improved": state.get("improved", []),
        "changed": changed(state),
        # Public pieces a searching player needs to deal a full state (issue 30): the adventurers
        # who arrived this season, the minions still to resolve, the lords still to pay at Pay Day,
        # the lords a paladin ignores, and who started the First Year.
        "advs": state.get("advs", []), "queue": state.get("queue", []), "payq": state.get("payq", []),
        "pal_ignore": state.get("pal_ignore", {}), "y1_start": state.get("y1_start", 0),
        "revision": state.get("revision"),
    }  # fmt: skip
    if state["dummy"].get("pal_ignored"):
        v["dummy"]["pal_ignored"] = True
    _expansion_view(state, v)
    if seat is not None and 0 <= seat < state["seats"]:
        v["private"] = _private(state, seat, cards)
    if state["phase"] == "over":
        v["result"] = g.result(state).to_json()  # the last board shows the final scores
    v["components"] = component_names(v)
    return v


def snapshot(state: State) -> dict[str, Any]:
    """The public pieces as they stand: each dungeon's tiles (kind, conquered, improved) and
    the minions on the order spaces, to compare with when the turn is over."""
    grids = {
        str(s): {c: f"{t['k']}{'c' if t.get('c') else ''}{t.get('imp') or ''}{t.get('room') or ''}"
                 for c, t in p["grid"].items()}
        for s, p in enumerate(state["players"])
    }  # fmt: skip
    return {"grids": grids, "board": {k: list(v) for k, v in state["board"].items()}}


def changed(state: State) -> dict[str, Any]:
    """What the last turn changed, all public: per seat the squares whose tile changed, and
    the order spaces (location, space) that have a new minion."""
    last = state.get("last")
    if not last:
        return {"cells": {}, "spaces": []}
    now = snapshot(state)
    cells = {
        s: sorted(c for c, code in grid.items() if last["grids"].get(s, {}).get(c) != code)
        for s, grid in now["grids"].items()
    }
    spaces = [
        [loc, i]
        for loc, occ in now["board"].items()
        for i, o in enumerate(occ)
        if o is not None and (last["board"].get(loc) or [None] * 3)[i : i + 1] != [o]
    ]
    return {"cells": {s: c for s, c in cells.items() if c}, "spaces": spaces}


def component_names(view: dict[str, Any]) -> dict[str, Any]:
    """The printed names of the components this view shows (by the ids it holds), so a
    view names nothing it does not already show; every location's name."""
    ids: set[str] = set()
    todo: list[Any] = [view]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
        elif isinstance(node, str) and len(node) <= 12:
            ids.add(node)
    out: dict[str, Any] = {
        kind: {k: v for k, v in names.items() if k in ids} for kind, names in COMPONENTS.items()
    }
    out["locations"] = {k: loc["name"] for k, loc in LOC.items()}
    return out


def _player(state: State, s: int) -> dict[str, Any]:
    p = state["players"][s]
    return {
        "seat": s, "gold": p["gold"], "food": p["food"], "imps": p["imps"], "used": p["used"],
        "evil": p["evil"], "grid": p["grid"], "monsters": p["monsters"], "traps": len(p["traps"]),
        "prison": p["prison"], "party": p["party"], "penalty": p["penalty"],
        "inaccessible": p["inacc"] if state["phase"] != "inacc" else [],
        "ordered": str(s) in state["orders"],
        "played": [o["loc"] for o in state["played"].get(str(s), [])],
        "tokens": sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"],
        "pets": len(p.get("pets", [])), "used_pets": p.get("used_pets", []), "trained": p.get("trained", 0),
        "rented": p.get("rented", []), "installed": p.get("installed", []), "invest": p.get("invest", 0),
        # Adventurers (not paladins) captured this Combat: each bard sings that much less. Public
        # ("you can tell how many ... by counting the empty spaces"), and the bard's public line
        # depends on it, so the view carries it (house decision 37).
        "mourn": p.get("mourn", 0),
        # An Illusion still standing in front of the party from an earlier round (public).
        "illusion": p.get("illusion"),
        # This season's room uses (imps on the rooms), public: what production may still do.
        "uses": p.get("uses", {}), "train_dir": p.get("train_dir"), "shed_used": p.get("shed_used"),
        # Whether each played order found room on the board (public once revealed).
        "played_ok": [o["ok"] for o in state["played"].get(str(s), [])],
    }  # fmt: skip


def _expansion_view(state: State, v: dict[str, Any]) -> None:
    o = state.get("opps")
    if o:
        v["opps"] = {"now": o.get("now"), "next": o.get("next"), "used": o.get("used", []),
                     "traps": o.get("traps", []), "rent_gold": o.get("rent_gold", 0)}  # fmt: skip
    fest = state.get("fest")
    if fest:
        revealed = len(fest["bids"]) == state["seats"]
        v["festival"] = {
            "boards": fest["boards"], "order": fest["order"],
            "bid": sorted(int(s) for s in fest["bids"]),  # who has bid - never how many, until all are in
            "bids": fest["bids"] if revealed else None,
        }  # fmt: skip
    if state["phase"] == "pet_pass":
        v["pet_chosen"] = sorted(int(s) for s in state["pet_pass"])
    if state["phase"] == "pet_discard":
        v["pet_chosen"] = sorted(state["pet_discard_done"])


def _private(state: State, seat: int, cards: list[str]) -> dict[str, Any]:
    p = state["players"][seat]
    fest = state.get("fest")
    return {
        "traps": list(p["traps"]),
        "orders": state["orders"].get(str(seat)),
        "inacc_draw": state["inacc_draw"].get(str(seat)) if state["phase"] == "inacc" else None,
        "seen_cards": {str(i + 1): cards[i] for i in p["seen"] if i < len(cards)},
        "pets": list(p.get("pets", [])),
        "pet_pass": (state.get("pet_pass") or {}).get(str(seat)),
        "bid": (fest["bids"].get(str(seat)) if fest else None),
        # The seat's own revealed orders it declined ('-'), its own pick among the first drawn
        # orders, and the pet it is discarding: its own choices, until they are carried out.
        "declined": [i for i, o in enumerate(state["played"].get(str(seat), [])) if o.get("skip")],
        "inacc_pick": state["inacc_pick"].get(str(seat)) if state["phase"] == "inacc" else None,
        "pet_discard": (state.get("pet_discards") or {}).get(str(seat)),
    }


# The status sentence of each phase that waits on the seats to act ({where}: year and
# season, {who}: the seats to act); combat planning and tasks are worded in status().
PHASE_STATUS = {
    "inacc": "{where}: waiting for {who} to choose which order to keep (the other two become inaccessible).",
    "dummy": "{where}: {who} chooses the non-player's third order.",
    "orders": "{where}: waiting for orders from {who}.",
    "production": "{where}, production: {who} may use rooms (or 'done').",
    "festival": "{where}, festival: waiting for {who} to send imps (secretly).",
    "pet_pass": "{where}, Pet Phase: waiting for {who} to pass a pet to the left.",
    "pet_discard": "{where}, Pet Phase: waiting for {who} to discard a pet.",
}


def status(g: Any, state: State) -> str:
    ph = state["phase"]
    who = ", ".join(core.seat_ref(s) for s in sorted(g.to_act(state)))
    where = f"Year {state['year']}, season {state['round']}"
    if ph == "over":
        return "The game is over."
    if ph == "plan":
        return f"Year {state['year']} combat, round {state['combat']['round']}: {who} {'plans' if len(g.to_act(state)) == 1 else 'plan'} the battle."
    if ph in PHASE_STATUS:
        return PHASE_STATUS[ph].format(where=where, who=who)
    t = state["task"]
    if t:
        what = {"dig": "digs tunnels", "mine": "mines gold", "hire": "hires a monster", "build": "builds a room",
                "return": "returns a Trap Card", "payday": "pays the monsters (Pay Day)",
                "harvest": "harvests food", "look": "picks a Combat Card to look at",
                "put": "puts the Combat Card back", "improve": "improves tunnels",
                "install": "installs a trap", "expert": "hires an expert monster", "rent": "rents a room",
                "prize": "chooses a festival prize"}[t["type"]]  # fmt: skip
        return f"{where}: {who} {what}."
    return where


def private_text(g: Any, state: State, seat: int) -> str:
    p = state["players"][seat]
    lines = []
    if state["phase"] == "inacc":
        lines.append(
            "Drawn orders (keep one): " + ", ".join(LOC[c]["name"] for c in state["inacc_draw"][str(seat)])
        )
    if str(seat) in state["orders"]:
        orders = state["orders"][str(seat)]
        lines.append(
            "Your orders: "
            + ", ".join(
                LOC[o.rstrip("-")]["name"] + (" (declined)" if o.endswith("-") else "") for o in orders
            )
        )
    lines.append("Trap Cards: " + (", ".join(f"{TRAPS[t]['name']} ({t})" for t in p["traps"]) or "none"))
    if p.get("pets"):
        lines.append(
            "Pets (face down): " + ", ".join(f"{PETS[x]['name']} ({x}): {PETS[x]['text']}" for x in p["pets"])
        )
    fest = state.get("fest")
    if fest and str(seat) in fest["bids"]:
        lines.append(f"Imps you sent to the festival: {fest['bids'][str(seat)]}")
    cards = state["decks"][str(state["year"])]["cards"]
    if p["seen"]:
        lines.append(
            "Combat Cards seen: " + ", ".join(f"#{i + 1} {CARDS[cards[i]]['name']}" for i in p["seen"])
        )
    return "\n".join(lines)


def _names(ids: list[str], names: dict[str, Any]) -> str:
    """'Troll x2, Goblin' - each kind once, with how many."""
    counts: dict[str, int] = {}
    for i in ids:
        counts[i] = counts.get(i, 0) + 1
    return ", ".join(names[i] + (f" x{k}" if k > 1 else "") for i, k in counts.items()) or "none"


def header(g: Any, state: State, seat: int) -> str:
    """The top of the seat's private turn message: its own resources and hand, a few lines
    (at most 400 characters), only what this seat may see."""
    p = state["players"][seat]
    free = board.free_imps(p)
    lines = [f"Gold {p['gold']} · Food {p['food']} · Imps {free} free of {p['imps']} · "
             f"Evil {p['evil']} (paladin at {board.EVIL['paladin']})"]  # fmt: skip
    ready = [m["id"] for m in p["monsters"] if m["up"] is True]
    down = [m["id"] for m in p["monsters"] if m["up"] is not True]
    mons = _names(ready, COMPONENTS["monsters"])
    lines.append(
        "Monsters: " + mons + (f" (face down: {_names(down, COMPONENTS['monsters'])})" if down else "")
    )
    lines.append("Trap Cards: " + _names(p["traps"], COMPONENTS["traps"]))
    given = state["orders"].get(str(seat))
    if given:
        lines.append("Orders given: " + ", ".join(LOC[o.rstrip("-")]["name"] for o in given))
    elif state["phase"] in ("orders", "dummy", "inacc", "new_round"):
        lines.append("Orders in hand: " + ", ".join(LOC[c]["name"] for c in board.hand(p)))
    if p.get("pets"):
        lines.append("Pets: " + _names(p["pets"], COMPONENTS["pets"]))
    cards = state["decks"][str(state["year"])]["cards"]
    if p["seen"]:
        lines.append(
            "Combat Cards seen: " + ", ".join(f"{i + 1} {CARDS[cards[i]]['name']}" for i in p["seen"])
        )
    t = state.get("task") or {}
    if t.get("seat") == seat and t.get("type") == "dig" and t.get("n"):
        # What the turn has done so far (issue 26): the tunnels this order has dug.
        lines.append(f"This turn: {t['n']} tunnel{'s' if t['n'] > 1 else ''} dug, at most {t['cap']}")
    text = "\n".join(lines)
    return text if len(text) <= 400 else text[:399].rsplit(" ", 1)[0] + "…"
