"""The Production Phase: using the production rooms (and build pets) after the orders.
Year-1 rooms work once a round in Year 1 and twice in Year 2; rented rooms once."""

from __future__ import annotations

from typing import Any

from engine.core import Event, IllegalAction, State, rules_revision

from . import board, festival, hidden
from .board import log, who
from .data import MONSTERS, ROOMS, RULES, TRAPS


def room_sources(state: State, seat: int) -> list[tuple[str, str, str | None]]:
    """Production rooms a player may use: (key, room id, dungeon cell or None). Rented rooms
    have the key R1, R2... and work once a round, also in Year 2 (Festival Season)."""
    p = state["players"][seat]
    out: list[tuple[str, str, str | None]] = []
    # A conquered room is turned to its dark side and no longer works (house decision 39).
    for c in board.rooms(p):
        rid = p["grid"][c]["room"]
        if ROOMS[rid]["year"] == 1 and not p["grid"][c]["c"]:
            out.append((rid, rid, c))
    for r in p.get("rented", []):
        if ROOMS[r["room"]]["year"] == 1 and not r["c"]:
            out.append((r["cell"], r["room"], None))
    return out


def room_need(state: State, seat: int, key: str, rid: str, cell: str | None) -> int:
    """Imps a use needs: 1 fewer next to an unconquered Tool Shed, once per room a round."""
    p = state["players"][seat]
    need = int(ROOMS[rid]["imps"])
    if cell and key not in p.get("shed_used", []):
        if any(
            p["grid"].get(n, {}).get("imp") == "shed" and not p["grid"][n]["c"]
            for n in board.neighbours(cell)
        ):
            need -= 1
    return max(0, need)


def actions(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    uses = RULES["room_uses_per_round"][str(state["year"])]
    tokens = sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"]
    out: list[str] = []
    for key, rid, cell in room_sources(state, seat):
        r = ROOMS[rid]
        limit = 1 if cell is None else uses
        if r.get("train"):
            limit = RULES["expansion"]["training_per_round"][str(state["year"])]
            if cell is None and rules_revision(state) >= 3:
                # A rented Training Room is a rented production room: "they can be used only
                # once per round (even during the Second Year)" (revision 2 allowed 2 in Year 2).
                limit = 1
            used = p["uses"].get(key, 0)
            if used >= limit:
                continue
            way = p.get("train_dir")
            if way in (None, "in") and board.free_imps(p) >= 1:
                out.append(f"use {key} in")
            if way in (None, "out") and p.get("trained", 0) >= 1:
                out.append(f"use {key} out")
            continue
        if p["uses"].get(key, 0) >= limit:
            continue
        if board.free_imps(p) + tokens < room_need(state, seat, key, rid, cell):
            continue
        if not board.can_pay(p, r["pay"]):
            continue
        if r["gain"].get("tunnels"):
            out += [f"use {key} {c}" for c in board.dig_cells(p)]
        elif r.get("choice"):
            out.append(f"use {key} food")
            if p["evil"] > board.EVIL["min"]:
                out.append(f"use {key} evil")
        elif r["gain"].get("evil") and p["evil"] <= board.EVIL["min"]:
            continue
        else:
            out.append(f"use {key}")
    return out + festival.build_pet_actions(state, seat)


def start(state: State, ev: list[Event]) -> None:
    state["phase"] = "production"
    state["done"] = [s for s in range(state["seats"]) if finished(state, s)]


def finished(state: State, seat: int) -> bool:
    """Whether the seat's Production ends by itself: nothing left to use, and (revision 4)
    no face-down pet whose use the table cannot rule out (a building pet is used here, and
    stopping only for the lords who hold one would show who does)."""
    return not actions(state, seat) and hidden.may_enter_for(state, seat)


def produce(state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    p = state["players"][seat]
    key = words[1]
    src = next(x for x in room_sources(state, seat) if x[0] == key)
    rid, cell = src[1], src[2]
    r = ROOMS[rid]
    p["uses"][key] = p["uses"].get(key, 0) + 1
    if r.get("train"):
        p["train_dir"] = words[2]
        p["trained"] = p.get("trained", 0) + (1 if words[2] == "in" else -1)
        log(
            state,
            ev,
            f"{who(seat)} sends an imp {words[2]} {'to' if words[2] == 'in' else 'of'} the Training Room.",
        )
        return
    tokens = sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"]
    need = room_need(state, seat, key, rid, cell)
    if need < r["imps"]:
        p.setdefault("shed_used", []).append(key)
    use_tok = min(tokens, need)
    p["tok"] += use_tok
    p["used"] += need - use_tok
    board.pay(state, seat, r["pay"], ev)
    gain = dict(r["gain"])
    if r.get("choice"):
        gain = r["choice"][0] if words[2] == "food" else r["choice"][1]
    where = words[2] if gain.get("tunnels") else None
    for k in ("food", "gold", "imps"):
        if gain.get(k):
            p[k] += gain[k]
    if gain.get("evil"):
        board.move_evil(state, seat, gain["evil"], ev)
    if gain.get("traps"):
        drawn = board.draw_traps(state, gain["traps"])
        p["traps"].extend(drawn)
        ev.append(Event(f"Your {r['name']} makes {', '.join(TRAPS[x]['name'] for x in drawn)}.", seat))
    if where:
        p["grid"][where] = {"k": "t", "c": False}
    log(state, ev, f"{who(seat)} uses the {r['name']}{' on ' + where if where else ''}.")


def do_produce(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    if seat in state["done"]:
        raise IllegalAction("You have finished production this season.")
    if words == ["done"]:
        state["done"].append(seat)
        return
    acts = actions(state, seat)
    text = " ".join(words)
    if words[0] == "pet":
        festival.use_build_pet(g, state, seat, words, ev)
    elif text in acts:
        produce(state, seat, words, ev)
    elif words[0] != "use" or len(words) not in (2, 3):
        raise IllegalAction("Use a room ('use mint', 'use toolroom B3') or type 'done'.")
    elif not any(a.split()[1] == words[1] for a in acts):
        rid = words[1]
        raise IllegalAction(f"You cannot use a {ROOMS.get(rid, {}).get('name', rid)} now.")
    elif any(a.startswith(f"use {words[1]} ") for a in acts) and len(words) == 2:
        raise IllegalAction(
            f"Say how to use it, e.g. '{next(a for a in acts if a.startswith('use ' + words[1]))}'."
        )
    elif ROOMS.get(words[1], {}).get("gain", {}).get("tunnels"):
        raise IllegalAction("Say where the new tunnel goes, e.g. 'use toolroom B3', next to your dungeon.")
    else:
        raise IllegalAction("That room takes no coordinate.")
    if finished(state, seat):
        state["done"].append(seat)
