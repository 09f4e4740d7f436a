"""The Event Phase (seasons 2-5): Taxes, Pay Day and the Special Events."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Event, State, rules_revision

from . import board, expansion
from .board import log, who
from .data import MONSTERS, PETS, RULES, SPECIAL


def event(state: State, ev: list[Event]) -> None:
    tile = state["event"]
    state["phase"] = "adventurers"
    if tile == "taxes":
        rate = RULES["taxes"]["tiles_per_gold"]
        for s in range(state["seats"]):
            p = state["players"][s]
            # 1 gold per 2 tunnels or rooms, rounded up (issue 20's source); rented rooms and the
            # Secret Passage are not taxed.
            due = -(-len(board.counted(p)) // rate)
            paid = min(due, p["gold"])
            p["gold"] -= paid
            p["penalty"] += due - paid
            log(
                state,
                ev,
                f"Taxes: {who(s)} owes {due} gold, pays {paid}"
                + (f", {due - paid} penalty." if due > paid else "."),
            )
    elif tile == "payday":
        state["phase"] = "payday"
        state["payq"] = [s for s in board.play_order(state) if state["players"][s]["monsters"]]
        log(state, ev, "Pay Day: every monster must be paid again.")
    elif tile == "special":
        y = str(state["year"])
        cards = state["decks"][y]["specials"]
        if cards:
            special(state, cards.pop(0), ev)


def next_payday(state: State, ev: list[Event]) -> None:
    if not state["payq"]:
        state["phase"] = "adventurers"
        return
    s = state["payq"].pop(0)
    state["task"] = {"type": "payday", "seat": s}


# The words a revision-2 game printed for Monster Strike (they said the unpaid monster leaves;
# it was turned face down all along): kept so such a game's log replays word for word.
STRIKE_TEXT_2 = (
    "Pay 1 food per monster (not ghosts); for each food you cannot pay, "
    "your most expensive unpaid monster leaves (no Evil)."
)


def special(state: State, sid: str, ev: list[Event]) -> None:
    """A Special Event Card is turned over and resolved at once."""
    card = SPECIAL[sid]
    state["specials_seen"].append(sid)
    words = STRIKE_TEXT_2 if sid == "strike" and rules_revision(state) < 3 else card["text"]
    log(state, ev, f"Special event: {card['name']} - {words}")
    SPECIALS[sid](state, sid, ev)


def _witchhunt(state: State, sid: str, ev: list[Event]) -> None:
    for p in state["players"]:
        for m in [m for m in p["monsters"] if m["id"] == "witch"]:
            if p["gold"] >= 1:
                p["gold"] -= 1
            else:
                p["monsters"].remove(m)
                if rules_revision(state) >= 3:
                    # She is discarded, so the festival may hire her back ("discarded for some
                    # other reason"); revision 2 put her back in the box.
                    state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(m["id"])


def _strike(state: State, sid: str, ev: list[Event]) -> None:
    for s, p in enumerate(state["players"]):
        down = []
        for m in sorted([m for m in p["monsters"] if not MONSTERS[m["id"]].get("ghost")],
                        key=lambda m: MONSTERS[m["id"]]["rank"]):  # fmt: skip
            if p["food"] >= 1:
                p["food"] -= 1
            else:
                m["up"] = False  # unpaid: turned face down until the end of this Year's Combat (B-sf)
                down.append(MONSTERS[m["id"]]["name"])
        if down and rules_revision(state) >= 3:
            # What happened, in words (issue 29 item 14): the monster stays, face down.
            stay = "they stay" if len(down) > 1 else "it stays"
            log(state, ev, f"Monster Strike: {who(s)} cannot pay the {', the '.join(down)}; "
                           f"{stay} face down until this Year's Combat ends.")  # fmt: skip


def _audit(state: State, sid: str, ev: list[Event]) -> None:
    for p in state["players"]:
        p["gold"] -= p["gold"] // 2


def _harvest(state: State, sid: str, ev: list[Event]) -> None:
    for p in state["players"]:
        p["food"] += 2


def _goldrush(state: State, sid: str, ev: list[Event]) -> None:
    for p in state["players"]:
        p["gold"] += min(2, board.counted_tunnels(p, unconquered_only=True))


def _inquisition_pilgrims(state: State, sid: str, ev: list[Event]) -> None:
    seats = range(state["seats"])
    evil = [state["players"][s]["evil"] for s in seats]
    pick = max(evil) if sid == "inquisition" else min(evil)
    for s in seats:
        if evil[s] == pick:
            if sid == "inquisition":
                board.move_evil(state, s, 1, ev)
            else:
                state["players"][s]["gold"] += 2


def _impflu(state: State, sid: str, ev: list[Event]) -> None:
    for p in state["players"]:
        if p["imps"] > 4:
            p["imps"] -= 1
            p["used"] = min(p["used"], p["imps"])
            p["trained"] = max(0, min(p.get("trained", 0), p["imps"] - p["used"]))


def _pardon(state: State, sid: str, ev: list[Event]) -> None:
    for s in board.play_order(state):
        board.move_evil(state, s, -1, ev)


def _petfair(state: State, sid: str, ev: list[Event]) -> None:
    for s in board.play_order(state):
        if expansion.x(state)["pets"] and state.get("pet_deck"):
            pet = state["pet_deck"].pop(0)
            state["players"][s]["pets"].append(pet)
            ev.append(Event(f"Pet Fair: you get a {PETS[pet]['name']}.", s))
        else:
            state["players"][s]["food"] += 1


def _feast_tunnelaudit(state: State, sid: str, ev: list[Event]) -> None:
    # House rule: the choice is automatic - pay if you can, otherwise gain 1 Evil.
    players = state["players"]
    res = "food" if sid == "feast" else "gold"
    if rules_revision(state) >= 3:
        # "Any card or rule or effect that counts your tunnels or dungeon tiles ignores your
        # secret passage" (issue 29 item 15).
        count = {s: board.counted_tunnels(players[s]) for s in range(state["seats"])}
    else:
        count = {s: len(board.tunnels(players[s])) for s in range(state["seats"])}
    for s in board.play_order(state):
        if sid == "tunnelaudit" and count[s] < max(count.values()):
            continue
        if players[s][res] >= 1:
            players[s][res] -= 1
        else:
            board.move_evil(state, s, 1, ev)


def muster(state: State, ev: list[Event]) -> None:
    """Paladins' Muster (house decision 36). With a single paladin the elf and the dwarf
    join him for this Year as in Three Paladins - elf, human, dwarf in entry order - so the
    one paladin rule (board.check_paladin) places all three and nobody loses the paladin he
    has. Where they are already in, this Year's paladins still to fight get +1 hit point."""
    year = state["year"]
    mine = [p for p in state["paladins"] if p["year"] == year]
    cards = expansion.muster_cards(state)
    if not cards:
        for pal in mine:
            if pal["status"] in ("tent", "field"):
                pal["hp"] += 1
        log(state, ev, "The paladins muster: every paladin of this Year gets +1 hit point.")
        return
    elf, dwarf = expansion.new_paladins(state, cards)
    state["paladins"] = [p for p in state["paladins"] if p["year"] != year] + [elf, *mine, dwarf]
    beside = f" beside the {mine[0]['name']}" if mine else ""
    log(state, ev, f"The {elf['name']} and the {dwarf['name']} come into the game{beside} this Year.")
    board.check_paladin(state, ev)


SPECIALS: dict[str, Callable[[State, str, list[Event]], None]] = {
    "witchhunt": _witchhunt, "strike": _strike, "audit": _audit, "harvest": _harvest, "goldrush": _goldrush,
    "inquisition": _inquisition_pilgrims, "pilgrims": _inquisition_pilgrims, "impflu": _impflu,
    "pardon": _pardon, "petfair": _petfair, "feast": _feast_tunnelaudit, "tunnelaudit": _feast_tunnelaudit,
    "muster": lambda state, sid, ev: muster(state, ev),
}  # fmt: skip
