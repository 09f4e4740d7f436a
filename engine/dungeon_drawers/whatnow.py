"""The "What now?" answer (issue 28): the phase in a few sentences, what this seat can do, and
what each choice costs and gives. Only what the seat may see: its own treasures and hand, the
public sheets; a watcher (seat None) gets the phase and whose turn it is."""

from __future__ import annotations

from typing import Any

from engine.core import State, seat_ref

from . import board
from .build import current_element
from .data import (
    ACTIONS,
    CARDS,
    HEARTS,
    MAX_DICE,
    ROUNDS,
    SHEET,
    TARGET,
    TRACKS,
    card_name,
    card_text,
    element_label,
    level,
    track_size,
)
from .defend import dungeon_problem, hero_problem
from .rules import fight_strength, levels, p_win
from .views import final_scores_words, status

LIMIT = 1500


def _fit(parts: list[str]) -> str:
    """Whole sentences up to LIMIT characters (a list that runs over ends with 'and more')."""
    out = ""
    for part in parts:
        if len(out) + len(part) + 1 > LIMIT - 12:
            return out + " And more."
        out = f"{out} {part}" if out else part
    return out


def _levels_text(sheet: dict[str, Any]) -> str:
    lv = levels(sheet)
    mons = ", ".join(f"{t} +{lv[t]}" for t in ("goblin", "orc", "dragon"))
    return f"{mons}; traps deal {lv['trap']}; treasure scores {lv['treasure']}; hand of {lv['hand']}"


def _watch(state: State) -> list[str]:
    phase = state["phase"]
    intro = {
        "build": f"Phase A, round {state['round']} of {ROUNDS}: in turn each player takes a card from the "
        "display and draws its building elements into their own dungeon; the card is kept for Phase C.",
        "path": "Phase B: every player draws the hero's path through the dungeon of the player on their "
        "right, from A1 to H10; the paths are shown when all are drawn.",
        "defend": "Phase C: turn by turn the hero walks his path through each dungeon; traps hurt him and "
        f"monsters fight him on 2 dice plus their level, winning on {TARGET}.",
        "over": "The game is over.",
    }[phase]
    if phase == "over":
        return [intro, f"Final scores: {final_scores_words(state)}."]
    return [intro, status(state)]


def _build(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    if p["pending"] is None and state["queue"] and state["queue"][0] == seat:
        parts = [
            "It is your pick. Each card gives its building elements now, left to right, and its "
            "action later in Phase C. On display:"
        ]
        parts += [f"{card_text(c)}." for c in state["display"]]
        parts.append(f"Your levels: {_levels_text(p['sheet'])}.")
        return parts
    if p["pending"] is None:
        busy = [f"{seat_ref(s)} is installing a card" for s, q in enumerate(state["players"]) if q["pending"]]
        if state["queue"]:
            busy.append(f"{seat_ref(state['queue'][0])} picks next")
        on = "; ".join(busy) or "the round is ending"
        return [
            f"You wait: {on}. You have taken {len(p['taken'])} cards; your levels: {_levels_text(p['sheet'])}."
        ]
    return _installing(state, seat)


def _installing(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    pend, sheet = p["pending"], p["sheet"]
    el = current_element(state, seat)
    els = [element_label(e) for e in CARDS[pend["card"]].elements]
    head = f"You are installing card #{pend['card']}: {', '.join(els)}."
    if el is None:
        return [head, "Every element is placed: turn the card over (final), or Erase to start it again."]
    if el.startswith("wall:"):
        n = len(board.wall_placements(sheet, el[5:]))
        what = (
            f"Next a wall formation ({el[5:]} shape): drawn whole, turned or mirrored as you like, on "
            f"empty spaces, never cutting a space off from the entrance or exit ({n} ways open). Walls "
            "make the hero's path longer and can force him past your monsters and traps."
        )
    elif el in board.BLOCKER_KINDS:
        n = len(board.blocker_cells(sheet))
        gain = (
            f"it deals the trap level ({levels(sheet)['trap']}) to the hero once"
            if el == "trap"
            else f"it fights with 2 dice {levels(sheet)[el]:+d}, wins on {TARGET}, and scores "
            f"{SHEET['monsters'][el]['points']} if it survives; a treasure under it is guarded"
        )
        what = f"Next a {el}: an empty space not beside another monster or trap ({n} open); {gain}."
    elif el == "treasure":
        what = (
            f"Next a treasure: name any space, kept secret. It scores {levels(sheet)['treasure']} "
            "(your treasure level) only if one of your monsters stands on that space at the end."
        )
    else:
        tracks = []
        for t in TRACKS:
            boxes = sheet["imp"][t]
            if boxes >= track_size(t):
                continue
            now, nxt = level(t, boxes), level(t, boxes + 1)
            tracks.append(f"{t} {now}" + (f" -> {nxt}" if nxt != now else " (box toward the next level)"))
        what = "Next an improvement: check one box: " + "; ".join(tracks) + "."
    return [head, what, "Erase starts this card again while it is face up."]


def _path(state: State, seat: int) -> list[str]:
    n = state["seats"]
    owner = (seat - 1) % n
    q = state["players"][owner]
    if q["path"] is not None:
        return ["You have drawn your path; the paths are shown when every player has drawn."]
    sheet = q["sheet"]
    return [
        f"You draw the hero's path through {seat_ref(owner)}'s dungeon, from A1 to H10.",
        "It never enters a wall, passes a space at most twice, and meets the same monster a second time "
        "only after another monster or trap.",
        f"{seat_ref(owner)} scores 1, 2 or 3 for every monster left standing and for treasure under them, "
        "5 if the hero dies there, and loses 1 a heart if he escapes: lead him past monsters he beats "
        "and away from strong ones and traps.",
        f"{seat_ref(owner)}'s levels: {_levels_text(sheet)}.",
    ]


def _fight(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    enc = state["encounter"]
    if enc["kind"] == "trap":
        dmg = levels(p["sheet"])["trap"] + enc["bonus"]
        parts = [
            f"The hero stands on your trap on {enc['cell']}: resolving deals {dmg} damage and crosses it off."
        ]
    else:
        s = fight_strength(state, seat)
        dmg = SHEET["monsters"][enc["kind"]]["damage"]
        parts = [
            f"The hero fights your {enc['kind']} on {enc['cell']}: dice {' and '.join(map(str, enc['dice']))}, "
            f"strength {s}. At {TARGET} or more it wins (the hero loses {dmg}); below, it is crossed off."
        ]
    for c in p["hand"]:
        if dungeon_problem(state, seat, c) is None:
            a = ACTIONS[CARDS[c].action]
            parts.append(f"Play #{c} {a['name']}: {a['short']}" + _after(state, seat, a) + ".")
    parts.append("Resolve ends the encounter.")
    return parts


def _after(state: State, seat: int, a: dict[str, Any]) -> str:
    """What a dungeon action makes of the fight (its strength, or the chance it wins)."""
    enc = state["encounter"]
    if enc["kind"] == "trap":
        return ""
    s = fight_strength(state, seat)
    if a["effect"] == "bonus":
        return f" (strength {s + a['amount']})"
    if a["effect"] == "dice":
        return f" (dice in the fight: {len(enc['dice']) + a['add'] - a['drop']}, at most {MAX_DICE})"
    chance = p_win(s - sum(enc["dice"]), len(enc["dice"]))
    return f" (a re-roll wins {round(chance * 100)} times in 100)"


def _actions(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    parts = []
    for c in p["hand"]:
        a = ACTIONS[CARDS[c].action]
        to = [seat_ref(t) for t in range(state["seats"]) if hero_problem(state, seat, c, t) is None]
        if to:
            parts.append(f"#{c} {a['name']} ({a['short']}) can go on {', '.join(to)}'s dungeon.")
    if parts:
        parts.insert(0, "Hero actions help the hero in an opponent's dungeon (2 at most on each):")
    want = levels(p["sheet"])["hand"]
    parts.append(
        f"Refill ends your turn: you draw up to {want} cards ({len(p['deck'])} in your deck); cards you "
        "put under the deck first come back later."
    )
    return parts


def _defend(state: State, seat: int) -> list[str]:
    p = state["players"][seat]
    hero = p["hero"]
    mine = {
        "in": f"The hero in your dungeon has {hero['hearts']} of {HEARTS} hearts.",
        "dead": "The hero in your dungeon is dead (+5 for you).",
        "escaped": f"The hero escaped your dungeon with {hero['hearts']} hearts (-{hero['hearts']} for you).",
    }[hero["state"]]
    if state["turn"] != seat:
        hand = ", ".join(f"#{c} {card_name(c)}" for c in p["hand"]) or "empty"
        return [f"It is {seat_ref(state['turn'])}'s turn.", mine, f"Your hand: {hand}."]
    if state["step"] == "encounter":
        return ["It is your turn.", mine, *_fight(state, seat)]
    return ["It is your turn.", mine, *_actions(state, seat)]


def what_now(state: State, seat: int | None) -> str:
    if seat is None or not 0 <= seat < state["seats"] or state["phase"] == "over":
        parts = _watch(state)
    else:
        parts = _watch(state)[:1] + {"build": _build, "path": _path, "defend": _defend}[state["phase"]](
            state, seat
        )
    return _fit(parts)
