"""Shared helpers for the Monster Inn tests: stacked games and constructed positions."""

from __future__ import annotations

from typing import Any

from engine import core
from engine.core import State

GAME = core.get("monster-inn")


def stacked(
    players: int,
    deck: list[str],
    start: int = 0,
    treasure: list[list[int]] | None = None,
    seed: int = 1,
    **options: Any,
) -> State:
    """A new game whose deck (top first), start player and purses are fixed."""
    setup: dict[str, Any] = {"deck": deck, "start": start}
    if treasure is not None:
        setup["treasure"] = treasure
    return GAME.new(players, {**options, "setup": setup}, seed)


def play(state: State, *moves: tuple[int, str]) -> State:
    for seat, text in moves:
        state, _ = GAME.apply(state, seat, GAME.parse(text))
    return state


def total_treasure(state: State) -> int:
    support = sum(1 for p in state["players"] for m in p["monsters"] if m["support"])
    return (
        state["supply"]["gold"]
        + state["supply"]["gem"]
        + state["pool"]["n"]
        + sum(p["gold"] + p["gem"] for p in state["players"])
        + support
    )


def finished(players: list[dict[str, Any]], **options: Any) -> State:
    """A game over with the given dungeons and purses: each entry has ``monsters``
    (card ids, or (card id, support type)), ``humanoids`` and ``gold``/``gem``."""
    state = GAME.new(len(players), options or None, 5)
    used: set[str] = set()
    for s, spec in enumerate(players):
        mons = []
        for m in spec.get("monsters", []):
            cid, sup = (m, None) if isinstance(m, str) else m
            mons.append({"card": cid, "support": sup})
            used.add(cid)
        used.update(spec.get("humanoids", []))
        state["players"][s] = {
            "gold": spec.get("gold", 0),
            "gem": spec.get("gem", 0),
            "monsters": mons,
            "humanoids": list(spec.get("humanoids", [])),
        }
    state.update(deck=[], inn=[], in_round=[], pending=None, over=True)
    state["box"] = sorted(c for c in state["box"] + state["deck"] if c not in used)
    return state
