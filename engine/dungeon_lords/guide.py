"""The "What now?" answer (issue 28): the current phase in two or three sentences, what
the asking seat can do now, and what each choice costs and gives. Built from the state
but only from what that seat may see (its own hand, Trap Cards, pets, peeked cards); a
watcher (seat None) gets the public part. The guide sections of docs/rules/dungeon-lords.md
hold the full rules; this answer points at the decision in front of the player."""

from __future__ import annotations

from typing import Any

from engine import core
from engine.core import State

from . import board, festival, notation, production, tasks
from .data import CARDS, LOC, MONSTERS, PETS, ROOMS, TRAPS

LIMIT = 1500

# What each order space costs and gives, in the words of the guide (locations.json).
SPACES = {
    "food": "I 1 gold: 2 food; II Evil +1: 3 food; III Evil +2: 3 food and 1 gold",
    "rep": "I Evil -1 and a look at a Combat Card; II Evil -2; III 1 gold: Evil -2 and a look",
    "dig": "I up to 2 imps dig a tunnel each; II up to 3; III up to 4 (4 need a 5th imp)",
    "mine": "I up to 2 imps mine 1 gold each; II up to 3; III up to 4 (4 need a 5th imp)",
    "imps": "I 1 food: 1 imp; II 2 food: 2 imps; III 1 food and 1 gold: 2 imps",
    "traps": "I 1 gold: 1 Trap Card; II free: 1 card; III 2 gold: 2 cards",
    "monster": "pay the monster's cost; III (picks first) 1 food more",
    "room": "I free; II 1 gold; III (picks first) 1 gold",
}
# The Festival Season boards that cover a location for a season (opportunities.json).
BOARDS = {
    "harvest": "Harvest Food: 1 food per imp (I up to 2, II and III up to 3) plus supervising imps; III Evil -1",
    "masquerade": "Masquerade: I +1 gold; II look at a Combat Card and move it; III 1 gold: Evil -1 and a "
    "look; the others Evil +1",
    "improve": "Improve Tunnels: 2 imps improve a tunnel or deconquer one, 3 a room; II acts first, I may act twice",
    "invest": "Invest Gold: pay 1/2/3 gold, get 3/4/5 back after the orders",
    "petshop": "Acquire Pet: I 1 food + 1 gold: 2 imps and a pet; II 2 food: 1 imp and a pet; III a pet",
    "install": "Install Traps: install a Trap Card on a tile, I free, II 1 gold, III 2 gold, plus its cost",
    "expert": "Hire Expert Monster: a monster and 1 more for good: I 1 food, II 1 Evil, III 1 gold and Evil +1",
    "rent": "Rent Rooms: a room in town (no tax, no room points); III pays 1 gold, I may take that gold",
}
PHASE = {
    "inacc": "Game start: each lord drew 3 Orders Cards and keeps one; the other two cannot be played in "
    "season 1.",
    "dummy": "Two players: the non-player gives orders too, blocking spaces. The starting player picks "
    "its third order.",
    "production": "Production: everyone uses their Year-1 rooms at once. A room takes free imps (Troll "
    "tokens count as imps) and gives its output at once.",
    "festival": "Festival: everyone secretly sends free imps. Most imps picks a prize first (ties: the "
    "more evil), then the next; 0 imps gets nothing; all imps sent are busy this season.",
    "prize": "Festival: the lords choose their prizes, most imps first.",
    "pet_pass": "Pet Phase: everyone passes one face-down pet to the left, in secret.",
    "pet_discard": "Pet Phase: everyone discards one pet, in secret; the rest stay face down (1 point "
    "each at the end if never used).",
    "payday": "Pay Day: every lord pays each monster its cost again (an expert its surcharge too; a "
    "Cockatrice with food or Evil, as he chooses), or releases monsters (Evil +1 each) until the rest can "
    "be paid.",
}
TASK = {
    "dig": "Dig Tunnels: each free imp (up to {cap}) digs one tunnel, free; the imps are busy until "
    "the season ends. A tunnel goes next to your dungeon and may not close a 2x2 block.",
    "mine": "Mine Gold: each imp (up to {cap}) mines 1 gold; you need one unconquered tunnel per imp; "
    "the imps are busy until the season ends.",
    "hire": "Hire Monster: pick a monster on offer and pay its cost (it is paid again at Pay Day).",
    "build": "Build Room: pick a room on offer and the tunnel it replaces (its zone, not next to a room).",
    "return": "Buy Traps in Year 2: you drew one card more; give one back (secret).",
    "harvest": "Harvest Food: choose how much food to harvest (1 imp each, plus supervisors).",
    "look": "Masquerade: look at one face-down Combat Card of this Year in secret.",
    "put": "Masquerade: put the card you looked at back in any place (announced, not shown).",
    "improve": "Improve Tunnels: 2 imps turn an unconquered tunnel into an improved tunnel, or remove "
    "a conquered mark (3 imps for a room); actions may not be mixed. Tool Shed: rooms next to it "
    "need 1 imp less; Foyer: 1 point + 1 per room next to it; Dark Tunnel: fatigue counts double there; "
    "Secret Passage: ignored by taxes and counts; Mithril Vein: 2 more imps may mine.",
    "install": "Install Traps: put a Trap Card on a tile; it springs in the first battle there (a Monster "
    "Catapult is loaded now with the monster you choose).",
    "expert": "Hire Expert Monster: a monster with its surcharge for good; its first attack each Year "
    "deals 2 more.",
    "rent": "Rent Rooms: a room in town beside your dungeon: no tax, no room points.",
    "prize": "Festival prize: choose one of the prizes left.",
    "payday": "Your monsters cost {cost} this Pay Day.",
}


def what_now(g: Any, state: State, seat: int | None) -> str:
    """The answer: the phase, then what ``seat`` can do now and what each choice costs and
    gives (a watcher, or a seat with nothing to do, hears who is acting)."""
    parts = [_phase(g, state)]
    acting = sorted(g.to_act(state))
    if seat is not None and seat in acting:
        parts.append(_choices(g, state, seat))
    elif state["phase"] != "over":
        who = ", ".join(core.seat_ref(s) for s in acting) or "the game"
        parts.append(f"Nothing for you to do now: waiting for {who}." if seat is not None
                     else f"Waiting for {who}.")  # fmt: skip
    if seat is not None and state["phase"] != "over":
        parts.append(_mine(state, seat))
    text = "\n".join(p for p in parts if p)
    return text if len(text) <= LIMIT else text[: LIMIT - 1].rsplit(" ", 1)[0] + "…"


def _phase(g: Any, state: State) -> str:
    ph = state["phase"]
    where = f"Year {state['year']}, season {state['round']} of {state['seasons']}."
    if ph == "over":
        r = g.result(state)
        scores = ", ".join(f"{core.seat_ref(s)} {v}" for s, v in enumerate(r.scores))
        won = " and ".join(core.seat_ref(s) for s in r.winners)
        return f"The game is over: {won} won. Scores: {scores}. The last board shows each lord's points."
    if ph == "plan":
        c = state["combat"]
        return (f"Year {state['year']} Combat, round {c['round']} of {state['combat_rounds']}: every lord "
                "with a party plans one battle in secret. Then the Combat Card is turned and each battle "
                "runs: bards, trap, fast spell, monsters, slow spell, healing, conquering and fatigue, poison.")  # fmt: skip
    if ph == "orders":
        return (f"{where} Orders: everyone secretly picks 3 different Orders Cards. Then everyone's first "
                "minion goes, then the seconds, then the thirds, each to the lowest free space (I, II, III) "
                "of its location; a full location sends it back.")  # fmt: skip
    if ph == "resolve" and state.get("task"):
        t = state["task"]
        return f"{where} The orders are carried out; now {core.seat_ref(t['seat'])}'s minion acts."
    if ph in PHASE:
        return f"{where} {PHASE[ph]}"
    return f"{where} The game moves on by itself."


def _choices(g: Any, state: State, seat: int) -> str:
    ph = state["phase"]
    if ph == "orders":
        return _orders(state, seat)
    if ph == "plan":
        return _plan(state, seat)
    t = state.get("task") or {}
    head = ""
    if ph in ("resolve", "payday") and t.get("type") in TASK:
        cost = board.cost_text(tasks.payday_bill(state, seat))
        head = TASK[t["type"]].format(cap=t.get("cap", "?"), cost=cost) + " "
        if t.get("type") == "dig" and t.get("n"):
            head += f"Dug so far: {t['n']}. "
    elif ph == "production":
        head = _production(state, seat)
    return head + "You can: " + _options(g, state, seat)


def _options(g: Any, state: State, seat: int) -> str:
    """Each legal move in words (what it costs and gives); squares grouped by what they do."""
    labels: list[str] = []
    cells: dict[str, list[str]] = {}
    for a in g.legal_actions(state, seat):
        label = notation.describe(state, seat, a).rstrip(".")
        cell = next((w for w in str(a).split()[1:] if board.is_cell(w)), "")
        if cell and f" on {cell}" in label:
            # One entry per kind of move, with the squares it may go on.
            cells.setdefault(label.replace(f" on {cell}", ""), []).append(cell)
        else:
            labels.append(label)
    out = [f"{k}: {', '.join(v)}" for k, v in cells.items()] + list(dict.fromkeys(labels))
    return "; ".join(out) + "."


def _orders(state: State, seat: int) -> str:
    p = state["players"][seat]
    hand = board.hand(p)
    swapped = festival.replaced(state)
    lines = ["Your Orders Cards in hand, with what each space costs and gives:"]
    for loc in hand:
        what = BOARDS[state["opps"]["now"]] if loc == swapped else SPACES[loc]
        lines.append(f"- {LOC[loc]['name']}: {what}")
    if p["inacc"]:
        lines.append("Inaccessible this season: " + ", ".join(LOC[c]["name"] for c in p["inacc"]) + ".")
    offer = state["offer"]
    mons = ", ".join(
        f"{MONSTERS[m]['name']} ({board.cost_text(MONSTERS[m]['cost'])})" for m in offer["monsters"]
    )
    rooms = ", ".join(ROOMS[r]["name"] for r in offer["rooms"])
    lines.append(f"On offer: {mons or 'no monster'}; rooms {rooms or 'none'}.")
    lines.append("An order marked 'only to block a space' takes the space and does nothing. Your 2nd and "
                 "3rd orders are inaccessible next season.")  # fmt: skip
    return "\n".join(lines)


def _plan(state: State, seat: int) -> str:
    p = state["players"][seat]
    tiles = ", ".join(board.battle_tiles(p)) or "none"
    ready = [MONSTERS[m["id"]]["name"] for m in p["monsters"] if m["up"] is True]
    traps = ", ".join(TRAPS[t]["name"] for t in p["traps"]) or "none"
    text = (f"Plan your battle: the tile (closest to the entrance: {tiles}); a Trap Card to spring "
            f"(yours: {traps}; its cost, 1 gold more in a room); monsters to send, in attack order "
            f"(2 on a tunnel, 3 in a room; ready: {', '.join(ready) or 'none'}); a sent monster is "
            "spent for this Combat unless it comes back.")  # fmt: skip
    pets = [x for x in p.get("pets", []) if PETS[x]["when"] == "combat"]
    if pets:
        text += " Combat pets: " + ", ".join(f"{PETS[x]['name']} ({PETS[x]['text']})" for x in pets)
    return text


def _production(state: State, seat: int) -> str:
    p = state["players"][seat]
    rooms = [
        f"{ROOMS[rid]['name']} ({production.room_need(state, seat, key, rid, cell)} imps)"
        for key, rid, cell in production.room_sources(state, seat)
    ]
    have = f"You have {board.free_imps(p)} free imps"
    toks = sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"]
    if toks:
        have += f" and {toks} Troll tokens"
    return f"{have}; your rooms: {', '.join(rooms) or 'none'}. "


def _mine(state: State, seat: int) -> str:
    """The seat's own stock, and what is coming, in one line."""
    if not 0 <= seat < state["seats"]:
        return ""
    p = state["players"][seat]
    line = (f"You: {p['gold']} gold, {p['food']} food, {board.free_imps(p)} of {p['imps']} imps free, "
            f"Evil {p['evil']} (paladin at {board.EVIL['paladin']}), {_n(len(p['monsters']), 'monster')}, "
            f"{_n(len(p['traps']), 'Trap Card')}.")  # fmt: skip
    nxt = {"taxes": "Taxes (1 gold per 2 tiles, rounded up; -3 points per gold unpaid)",
           "payday": f"Pay Day (your monsters cost {board.cost_text(tasks.payday_bill(state, seat))})",
           "special": "a Special Event"}.get(state.get("next_event") or "")  # fmt: skip
    if nxt and state["phase"] not in ("plan", "over"):
        line += f" Next season: {nxt}."
    if p["seen"]:
        cards = state["decks"][str(state["year"])]["cards"]
        line += (
            " Combat Cards you saw: "
            + ", ".join(f"{i + 1} {CARDS[cards[i]]['name']}" for i in p["seen"] if i < len(cards))
            + "."
        )
    return line


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")
