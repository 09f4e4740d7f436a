"""Views (what a seat may see), the status line and the private text."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from . import rules as R

if TYPE_CHECKING:
    from .game import DungeonDecorators

PHASE_WORDS = {
    "keep": "choose the goals to keep",
    "draft": "drafts a tile",
    "exchange_discard": "discards a goal card",
    "burrow": "chooses a Burrow Bro tile",
    "build": "builds",
    "score": "scores goals",
    "refill": "refills their hand",
}
NEED_WORDS = {"H": "hallway", "R": "room", "C": "coloured room or hallway"}


def tile_info(t: Any) -> dict[str, Any]:
    if t == "G":
        return {"n": "G", "generic": True}
    spec = R.TILES[int(t)]
    return {"n": t, "edges": list(spec["edges"]), "floor": spec["floor"], "assistant": spec["assistant"]}


def need_text(token: str) -> str:
    from .data import parse_need

    need = parse_need(token, R.COLOURS)
    words = NEED_WORDS[need["kind"]]
    if need["kind"] == "C":
        return words
    if need["star"]:
        words = "star " + words
    if need["colour"]:
        words = f"{need['colour']} {words}"
    if need["painted"]:
        words = "painted " + words
    if need["decos"]:
        words += f" with {need['decos']}+ decorations"
    return words


def goal_info(gid: str) -> dict[str, Any]:
    g = R.GOALS[gid]
    out = {"id": gid, "name": g["name"], "points": g["points"], "kind": g["kind"]}
    if g["kind"] == "shape":
        out["rows"] = g["rows"]
        kinds = Counter(t for row in g["rows"] for t in row.split() if t != ".")
        out["text"] = "Shape: " + ", ".join(f"{k}x {need_text(t)}" for t, k in kinds.items())
    else:
        out["type"] = g["type"]
        out["needs"] = g["needs"]
        names = Counter(R.DECOS[d] for d in g["needs"])
        where = "in one room" if g["type"] == "room" else "anywhere on your hallway"
        out["text"] = ", ".join(f"{k}x {n}" for n, k in names.items()) + f" {where}"
    return out


def boss_info(bid: str) -> dict[str, Any]:
    b = R.BOSSES[bid]
    return {"id": bid, "deck": b["deck"], "name": b["name"], "text": b["text"]}


def dungeon_view(dungeon: dict[str, Any]) -> dict[str, Any]:
    grid = R.to_grid(dungeon)
    summary = R.summarise(grid)
    cells = {}
    for p, cell in grid.items():
        c = {"t": cell["t"], "kind": cell["kind"], "e": list(cell["e"]), "floor": cell["floor"]}
        if p in summary:
            c["room"] = summary[p]["room"]
            c["decos"] = summary[p]["decos"]
        cells[R.coord(p)] = c
    return {
        "cells": cells,
        "rooms": sum(1 for s in summary.values() if s["room"]),
        "hallway_tiles": sum(1 for s in summary.values() if not s["room"]),
        "open_passages": R.open_passages(grid),
        "problem": R.dungeon_problem(grid),
    }


def view(game: DungeonDecorators, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    over = state["phase"] == "over"
    current = None if over or state["phase"] == "keep" else game.current(state)
    players = []
    for i, p in enumerate(state["players"]):
        players.append(
            {
                "seat": i,
                "score": p["score"],
                "track": p["score"] % 50,
                "chits": p["chits"],
                "tokens": dict(p["tokens"]),
                "dungeon": dungeon_view(p["dungeon"]),
                "storage_count": len(p["storage"]),
                "hand_count": len(p["hand"]),
                "scored_shape": sum(1 for g in p["scored"] if g.startswith("S")),
                "scored_deco": sum(1 for g in p["scored"] if g.startswith("D")),
                "new_tiles": [tile_info(x["t"]) if x["public"] else None for x in p["pending"]],
                "draft_pos": state["draft_pos"][i],
                "kept": p["kept"],
            }
        )
    out: dict[str, Any] = {
        "game": game.key,
        "seats": state["seats"],
        "round": state["round"],
        "phase": state["phase"],
        "current": current,
        "status": game.status(state),
        "order": list(state["order"]),
        "board": [tile_info(t) if t is not None else None for t in state["board"]],
        "exchange_taken": state["exchange_taken"],
        "bags": {"blue": len(state["blue"]), "red": len(state["red"])},
        "hourglasses": state["hourglasses"],
        "boss": [boss_info(b) for b in state["boss"]],
        "generic_left": state["generic_left"],
        "tokens_left": dict(state["tokens_left"]),
        "decks": {d: len(state["decks"][d]) for d in "SD"},
        "discards": {d: len(state["discards"][d]) for d in "SD"},
        "burrowing": state["burrow"] is not None,
        "relaxed": state["relaxed"],
        "players": players,
        "final": state["final"]["breakdown"] if over and state["final"] else None,
        "you": None,
    }
    if seat is not None:
        p = state["players"][seat]
        out["you"] = {
            "seat": seat,
            "hand": [goal_info(g) for g in p["hand"]],
            "storage": [tile_info(t) for t in p["storage"]],
            "new_tiles": [tile_info(x["t"]) for x in p["pending"]],
            "burrow": [tile_info(t) for t in state["burrow"]]
            if state["burrow"] and current == seat
            else None,
            "scored": [goal_info(g) for g in p["scored"]],
            "tokens": dict(p["tokens"]),
        }
    return out


def status(game: DungeonDecorators, state: dict[str, Any]) -> str:
    ph = state["phase"]
    if ph == "over":
        res = game.result(state)
        names = " and ".join(f"Player {s + 1}" for s in res.winners)
        return (
            f"Game over: {names} {'win' if len(res.winners) > 1 else 'wins'} with {max(res.scores)} points."
        )
    if ph == "keep":
        waiting = ", ".join(f"Player {s + 1}" for s in sorted(game.to_act(state)))
        return f"Setup: {waiting} must discard two of their six goal cards."
    seat = game.current(state)
    doing = PHASE_WORDS[ph]
    if ph == "build":
        # Only tiles that came off the draft board (or generic tiles) are public.
        shown = [
            "a generic tile" if x["t"] == "G" else f"tile {x['t']}"
            for x in state["players"][seat]["pending"]
            if x["public"]
        ]
        hidden = sum(1 for x in state["players"][seat]["pending"] if not x["public"])
        items = shown + (["a tile from the bag"] if hidden else [])
        doing = "places or stores " + " and ".join(items) if items else "may still build, then done"
    return f"Round {state['round']} (hourglasses {state['hourglasses']}/3): Player {seat + 1} {doing}."


def tile_text(info: dict[str, Any]) -> str:
    if info["n"] == "G":
        return "G (generic: room side R / straight hallway side H, grey)"
    edges = " ".join(
        f"{d}:{'wild' if e == '*' else '-' if e == '-' else R.DECOS[e]}"
        for d, e in zip("NESW", info["edges"], strict=True)
    )
    helper = f", {info['assistant']}" if info["assistant"] else ""
    return f"{info['n']} [{edges}] floor {info['floor']}{helper}"


def private_text(game: DungeonDecorators, state: dict[str, Any], seat: int) -> str:
    v = view(game, state, seat)["you"]
    lines = ["Your goals:"]
    for g in v["hand"]:
        shape = f"  [{' / '.join(g['rows'])}]" if g["kind"] == "shape" else ""
        lines.append(f"  {g['id']} {g['name']} ({g['points']}): {g['text']}{shape}")
    lines.append("Storage: " + ("; ".join(tile_text(t) for t in v["storage"]) or "empty"))
    if v["new_tiles"]:
        lines.append("New tiles to place: " + "; ".join(tile_text(t) for t in v["new_tiles"]))
    if v["burrow"]:
        lines.append("Burrow Bro choices: " + "; ".join(tile_text(t) for t in v["burrow"]))
    lines.append(
        f"Tokens: {v['tokens']['architect']} Arcane Architect, {v['tokens']['mimic']} Decorative Mimic"
    )
    if v["scored"]:
        lines.append("Scored: " + ", ".join(f"{g['id']} {g['name']}" for g in v["scored"]))
    return "\n".join(lines)
