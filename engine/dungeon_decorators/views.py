"""Views (what a seat may see), the status line and the private text."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.core import seat_ref

from . import rules as R

if TYPE_CHECKING:
    from .game import DungeonDecorators

PHASE_WORDS = {
    "keep": "choose the goals to keep",
    "draft": "drafts a tile",
    "exchange_draw": "chooses a goal deck to draw from",
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


def last_turn_info(state: dict[str, Any]) -> dict[str, Any] | None:
    """What the last finished turn changed, in words and squares (all public)."""
    last = state.get("last_turn")
    if not last:
        return None
    parts = []
    if last["squares"]:
        parts.append("changed " + ", ".join(last["squares"]) + " in their dungeon")
    if last["goals"]:
        parts.append(f"scored {last['goals']} goal card{'s' if last['goals'] > 1 else ''}")
    if last["points"]:
        parts.append(f"gained {last['points']} points")
    done = " and ".join(parts) if parts else "changed nothing in their dungeon"
    words = f"Last turn: {seat_ref(last['seat'])} {done}."
    return {
        "seat": last["seat"],
        "squares": list(last["squares"]),
        "points": last["points"],
        "goals": last["goals"],
        "words": words,
    }


def guide_view(section: str) -> dict[str, Any]:
    """What a guide picture draws (public card data, no game): "Goal shapes" gives
    every shape goal card."""
    if section == "Goal shapes":
        return {"shapes": [goal_info(g) for g in R.GOALS if R.GOALS[g]["kind"] == "shape"]}
    return {}


def boss_info(bid: str) -> dict[str, Any]:
    b = R.BOSSES[bid]
    return {"id": bid, "deck": b["deck"], "name": b["name"], "text": b["text"]}


def dungeon_view(dungeon: dict[str, Any]) -> dict[str, Any]:
    grid = R.to_grid(dungeon)
    summary = R.summarise(grid)
    cells = {}
    for p, cell in grid.items():
        c = {
            "t": cell["t"],
            "side": cell["side"],
            "rot": cell["rot"],
            "kind": cell["kind"],
            "e": list(cell["e"]),
            "floor": cell["floor"],
        }
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
        "start": R.START,
    }


def _copy_snapshot(snap: dict[str, Any]) -> dict[str, Any]:
    return {
        "dungeon": R.copy_dungeon(snap["dungeon"]),
        "storage": list(snap["storage"]),
        "pending": [dict(x) for x in snap["pending"]],
        "architect": snap["architect"],
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
                "chits": p["chits"],
                "tokens": dict(p["tokens"]),
                "dungeon": dungeon_view(p["dungeon"]),
                # Stored tiles lie on the player board and new tiles in front of the
                # player, for the whole table to see (rulebook: "place it in front of you").
                "storage": [tile_info(t) for t in p["storage"]],
                "hand_count": len(p["hand"]),
                "scored_shape": sum(1 for g in p["scored"] if g.startswith("S")),
                "scored_deco": sum(1 for g in p["scored"] if g.startswith("D")),
                "new_tiles": [tile_info(x["t"]) for x in p["pending"]],
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
        # "choose one tile from among the three in front of you"
        "burrow": [tile_info(t) for t in state["burrow"]] if state["burrow"] else None,
        "relaxed": state["relaxed"],
        # Tiles stored this Build Phase (said in the thread): not placeable before a later one.
        "stored_now": list(state.get("stored_now") or []),
        "players": players,
        "last_turn": last_turn_info(state),
        "final": state["final"]["breakdown"] if over and state["final"] else None,
        "winners": game.result(state).winners if over else None,
        "viewer": seat,
        "mine": None,
    }
    if seat is not None:
        p = state["players"][seat]
        snap = state["snapshot"] if current == seat else None
        out["mine"] = {
            "hand": [goal_info(g) for g in p["hand"]],
            "scored": [goal_info(g) for g in p["scored"]],
            # The seat's own build as it began (its dungeon, stored and new tiles, Architect
            # tokens): what "reset" returns to, which the seat saw a moment ago. A
            # computer player's sample needs it (engine/dungeon_decorators/sample.py).
            "build_start": _copy_snapshot(snap) if snap else None,
        }
    return out


def status(game: DungeonDecorators, state: dict[str, Any]) -> str:
    ph = state["phase"]
    if ph == "over":
        res = game.result(state)
        names = " and ".join(seat_ref(s) for s in res.winners)
        return (
            f"Game over: {names} {'win' if len(res.winners) > 1 else 'wins'} with {max(res.scores)} points."
        )
    if ph == "keep":
        waiting = ", ".join(seat_ref(s) for s in sorted(game.to_act(state)))
        return f"Setup: {waiting} must discard two of their six goal cards."
    seat = game.current(state)
    doing = PHASE_WORDS[ph]
    if ph == "score" and game.rules_revision(state) >= 3:
        # Entered every turn: the words do not tell whether a goal card is met.
        doing = "may score goals, then finishes their turn"
    if ph == "build":
        items = [
            "a generic tile" if x["t"] == "G" else f"tile {x['t']}" for x in state["players"][seat]["pending"]
        ]
        doing = "places or stores " + " and ".join(items) if items else "may still build, then done"
    return f"Round {state['round']} (hourglasses {state['hourglasses']}/3): {seat_ref(seat)} {doing}."


def tile_text(info: dict[str, Any]) -> str:
    from .whatnow import tile_words

    return tile_words(info["n"])


def shape_words(rows: list[str]) -> str:
    """A shape goal's squares row by row in words ("any" is a square that may be
    anything, built or not)."""
    from .data import parse_need

    def word(tok: str) -> str:
        return "any" if tok == "." else need_text(tok) if parse_need(tok, R.COLOURS) else tok

    return " / ".join(" · ".join(word(t) for t in row.split()) for row in rows)


def private_text(game: DungeonDecorators, state: dict[str, Any], seat: int) -> str:
    full = view(game, state, seat)
    v = {**full["mine"], **full["players"][seat]}
    v["burrow"] = full["burrow"] if full["current"] == seat else None
    lines = ["Your goals:"]
    for g in v["hand"]:
        what = f"shape, row by row: {shape_words(g['rows'])}" if g["kind"] == "shape" else g["text"]
        lines.append(f"  {g['id']} {g['name']} ({g['points']}): {what}")
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


def _held_words(t: Any) -> str:
    if t == "G":
        return "generic"
    spec = R.TILES[int(t)]
    shape = "room" if sum(1 for e in spec["edges"] if e not in "-*") == 1 else "hallway"
    return f"{t} ({shape}, {'star' if spec['floor'] == 'star' else spec['floor']})"


def header(game: DungeonDecorators, state: dict[str, Any], seat: int) -> str:
    """The top of the seat's private turn message: score, tokens, the tiles it holds,
    its goal cards (at most 400 characters; only what this seat may see)."""
    p = state["players"][seat]
    tok = p["tokens"]
    lines = [f"Score {p['score']} · Architect {tok['architect']} · Mimic {tok['mimic']}"]
    if p["pending"]:
        lines.append("New: " + ", ".join(_held_words(x["t"]) for x in p["pending"]))
    lines.append("Storage: " + (", ".join(_held_words(t) for t in p["storage"]) or "empty"))
    goals = ", ".join(f"{g} {R.GOALS[g]['name']} ({R.GOALS[g]['points']})" for g in p["hand"])
    lines.append("Goals: " + (goals or "none"))
    text = "\n".join(lines)
    return text if len(text) <= 400 else text[:399] + "…"
