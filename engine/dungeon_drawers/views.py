"""What each seat may see: the view (for images and the AI), the status line, the private text.

Public: every sheet as it stands except the card being installed, treasure counts,
the display and discard, taken cards, hand and deck sizes, hero actions on
dungeons, heroes, and every path once all are drawn. Private: the seat's treasure
spaces (public at the end), hand, the installs of its face-up card, and the path it
drew before every path is drawn.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core import State, seat_ref

from . import board
from .build import current_element
from .data import (
    ACTIONS,
    CARDS,
    DIE,
    HEARTS,
    ROUNDS,
    SHEET,
    TARGET,
    TRACKS,
    card_name,
    card_text,
    element_label,
    track_size,
)
from .rules import copy_sheet, fight_strength, levels


def card_info(cid: int) -> dict[str, Any]:
    a = ACTIONS[CARDS[cid].action]
    return {
        "name": a["name"],
        "type": a["type"],
        "short": a["short"],
        "effect": a["text"],
        "elements": [element_label(e) for e in CARDS[cid].elements],
        "text": card_text(cid),
    }


def _player(state: State, s: int, seat: int | None) -> dict[str, Any]:
    p = state["players"][s]
    n = state["seats"]
    own = seat == s
    over = state["phase"] == "over"
    pend = p["pending"]
    sheet = p["sheet"] if (own or pend is None) else pend["before"]
    shown = {k: v for k, v in copy_sheet(sheet).items() if k != "treasures"}
    shown["treasures"] = list(sheet["treasures"]) if (own or over) else []
    path = p["path"]
    if state["phase"] == "path" and path is not None and seat != (s + 1) % n:
        path = None
    pending = None
    if pend:
        pending = {k: pend[k] for k in ("card", "next", "lost", "log")} if own else {"card": pend["card"]}
    return {
        "seat": s,
        "name": seat_ref(s),
        "sheet": shown,
        "treasure_count": len(sheet["treasures"]),
        "levels": levels(sheet),
        "taken": list(p["taken"]),
        "pending": pending,
        "path": list(path) if path else None,
        "path_drawn": p["path"] is not None,
        "hero": dict(p["hero"]),
        "hand": list(p["hand"]) if own else None,
        "hand_count": len(p["hand"]),
        "deck_count": len(p["deck"]),
        "on": [dict(h) for h in p["on"]],
        "started": p["started"],
    }


# ---- what the last turn changed (issue 28): public facts only ---------------------------------


def snapshot(state: State) -> list[dict[str, Any]]:
    """Each dungeon as the table sees it now: the sheet (before the installs of a card still
    face up), the crossed-off spaces and the hero's place on his path."""
    out = []
    for p in state["players"]:
        sheet = p["pending"]["before"] if p["pending"] else p["sheet"]
        out.append(
            {
                "grid": dict(sheet["grid"]),
                "crossed": list(sheet["crossed"]),
                "pos": p["hero"]["pos"],
            }
        )
    return out


def changes(before: list[dict[str, Any]], state: State, lines: list[str]) -> dict[str, Any]:
    """What changed since ``before`` (a :func:`snapshot`): per dungeon the spaces drawn or
    crossed off and the spaces the hero walked, and the public events in words."""
    now = snapshot(state)
    cells: list[list[str]] = []
    for b, n, p in zip(before, now, state["players"], strict=True):
        got = [c for c, k in n["grid"].items() if b["grid"].get(c) != k]
        got += [c for c in n["crossed"] if c not in b["crossed"]]
        path = p["path"] or []
        got += path[b["pos"] + 1 : n["pos"] + 1] if n["pos"] > b["pos"] else []
        cells.append(sorted(set(got), key=board.INDEX.__getitem__))
    return {"cells": cells, "lines": list(lines)}


def _cards_in_view(state: State, seat: int | None) -> list[int]:
    ids = set(state["display"])
    for s, p in enumerate(state["players"]):
        ids.update(p["taken"])
        ids.update(h["card"] for h in p["on"])
        if p["pending"]:
            ids.add(p["pending"]["card"])
        if s == seat:
            ids.update(p["hand"])
    return sorted(ids)


def view(state: State, seat: int | None, to_act: list[int], result: dict[str, Any] | None) -> dict[str, Any]:
    enc = state["encounter"]
    return {
        "game": "dungeon-drawers",
        "viewer": seat,
        "seats": state["seats"],
        "phase": state["phase"],
        "round": state["round"],
        "rounds": ROUNDS,
        "start": state["start"],
        "display": list(state["display"]),
        "queue": list(state["queue"]),
        "deck_count": len(state["deck"]),
        "discard": list(state["discard"]),
        "turn": state["turn"],
        "step": state["step"],
        "encounter": copy.deepcopy(enc),
        "strength": fight_strength(state, state["turn"]) if enc and enc["kind"] != "trap" else None,
        "target": TARGET,
        "die": DIE,
        "hearts": HEARTS,
        "tracks": {
            t: {"base": SHEET["tracks"][t]["base"], "groups": SHEET["tracks"][t]["groups"]} for t in TRACKS
        },
        "to_act": to_act,
        "status": status(state),
        "news": [final_scores_shown(state, line) for line in state["news"]],
        "last": _last_shown(state),
        "players": [_player(state, s, seat) for s in range(state["seats"])],
        "cards": {str(c): card_info(c) for c in _cards_in_view(state, seat)},
        "result": result,
    }


FINAL = "Final scores: "


def final_scores_words(state: State) -> str:
    """ "Player 1: 20 points; Player 2: 1 point": a score apart from the name before it
    (a computer's name ends in a number: "Bot 3 9" read as one number)."""
    from .rules import score_player

    scores = [sum(score_player(p).values()) for p in state["players"]]
    return "; ".join(f"{seat_ref(s)}: {v} point{'' if v == 1 else 's'}" for s, v in enumerate(scores))


def final_scores_shown(state: State, line: str) -> str:
    """A stored news line as the board shows it: its final scores in today's words (the
    stored line of a game in progress keeps its words)."""
    if state["phase"] != "over" or FINAL not in line:
        return line
    return line.split(FINAL)[0] + FINAL + final_scores_words(state) + "."


def _last_shown(state: State) -> dict[str, Any] | None:
    last = copy.deepcopy(state.get("last"))
    if last and last.get("lines"):
        last["lines"] = [final_scores_shown(state, line) for line in last["lines"]]
    return last


def status(state: State) -> str:
    phase = state["phase"]
    if phase == "build":
        installing = [seat_ref(s) for s, p in enumerate(state["players"]) if p["pending"]]
        parts = [f"Phase A, round {state['round']} of {ROUNDS}."]
        if state["queue"]:
            parts.append(f"{seat_ref(state['queue'][0])} picks a card.")
        if installing:
            parts.append(f"Installing: {', '.join(installing)}.")
        return " ".join(parts)
    if phase == "path":
        n = state["seats"]
        left = [
            f"{seat_ref(s)} (in {seat_ref((s - 1) % n)}'s dungeon)"
            for s in range(n)
            if state["players"][(s - 1) % n]["path"] is None
        ]
        return "Phase B: drawing hero paths: " + ", ".join(left) + "."
    if phase == "defend":
        s = state["turn"]
        enc = state["encounter"]
        head = f"Phase C, {seat_ref(s)}'s turn:"
        if enc is None:
            return f"{head} hero actions, then refill."
        if enc["kind"] == "trap":
            return f"{head} the hero stands on the trap on {enc['cell']}."
        return (
            f"{head} the hero fights the {enc['kind']} on {enc['cell']} "
            f"(strength {fight_strength(state, s)}, needs {TARGET})."
        )
    return "The game is over."


def private_text(state: State, seat: int) -> str:
    p = state["players"][seat]
    sheet = p["sheet"]
    lines = [f"Your treasures: {', '.join(sheet['treasures']) or 'none yet'}."]
    if p["pending"]:
        el = current_element(state, seat)
        nxt = element_label(el) if el else "done"
        lines.append(f"Installing {card_text(p['pending']['card'])}; next: {nxt}.")
    if p["hand"]:
        lines.append("Your hand:")
        lines += [f"- {card_text(c)}" for c in p["hand"]]
    if state["phase"] == "defend":
        lines.append(f"Cards left in your action deck: {len(p['deck'])}.")
    elif p["taken"]:
        lines.append("Your action cards:")
        lines += [f"- {card_text(c)}" for c in p["taken"]]
    n = state["seats"]
    drawn = state["players"][(seat - 1) % n]["path"]
    if state["phase"] == "path" and drawn:
        corners = " ".join(board.compress(drawn))
        lines.append(f"Your path in {seat_ref((seat - 1) % n)}'s dungeon: path {corners}.")
    return "\n".join(lines)


def _tracks_line(sheet: dict[str, Any], boxes: bool) -> str:
    """The improvement levels, with the boxes checked of each track while they can still grow."""
    lv = levels(sheet)
    parts = []
    for t in TRACKS:
        plus = "+" if t in ("goblin", "orc", "dragon") else ""
        count = f" ({sheet['imp'][t]}/{track_size(t)})" if boxes else ""
        name = "cards in hand" if t == "hand" else t
        parts.append(f"{name} {plus}{lv[t]}{count}")
    return "Improvements: " + ", ".join(parts) + "."


def _card_line(state: State, seat: int) -> str | None:
    """The face-up card: what it has installed so far and what comes next."""
    pend = state["players"][seat]["pending"]
    if pend is None:
        return None
    els = [element_label(e) for e in CARDS[pend["card"]].elements]
    done = "; ".join(pend["log"]) or "nothing yet"
    rest = els[pend["next"] :]
    nxt = f" Next: {', '.join(rest)}." if rest else " All placed: turn it over."
    return f"Card #{pend['card']} {card_name(pend['card'])}: installed {done}.{nxt}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def hero_line(hero: dict[str, Any]) -> str:
    """The hero who walks your dungeon (not yours: he is the enemy), in words, not his state code."""
    h = hero["hearts"]
    if hero["state"] == "dead":
        return "The hero in your dungeon is dead."
    if hero["state"] == "escaped":
        return f"The hero in your dungeon escaped with {plural(h, 'heart')}."
    return f"The hero in your dungeon: {h} of {HEARTS} hearts left."


def header(state: State, seat: int) -> str:
    """The top of the seat's private turn message (at most 400 characters): its treasures,
    its improvement tracks, the card in play and what it placed, its hand and deck."""
    p = state["players"][seat]
    sheet = p["sheet"]
    lines = [f"Your treasures: {', '.join(sheet['treasures']) or 'none'}."]
    card = _card_line(state, seat)
    if card:
        lines.append(card)
    if state["phase"] in ("defend", "over"):
        hand = "; ".join(f"#{c} {card_name(c)} ({ACTIONS[CARDS[c].action]['short']})" for c in p["hand"])
        lines.append(f"Hand: {hand or 'empty'}. Deck: {len(p['deck'])} cards.")
        lines.append(hero_line(p["hero"]))
    else:
        lines.append(f"Action deck: {plural(len(p['taken']), 'card')} taken.")
    lines.append(_tracks_line(sheet, state["phase"] == "build"))
    text = "\n".join(lines)
    return text if len(text) <= 400 else text[:397] + "..."
