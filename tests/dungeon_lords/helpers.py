"""Shared helpers for the Dungeon Lords tests."""

from __future__ import annotations

from typing import Any

from engine import core

G: Any = core.get("dungeon-lords")


# The base-game tests run the base game explicitly (the expansion is on by default).
BASE: dict[str, Any] = {"inaccessible": "random", "expansion": False}


def new(n: int = 2, seed: int = 1, **setup: Any) -> dict[str, Any]:
    return G.new(n, {**BASE, "setup": setup} if setup else dict(BASE), seed)


def new_x(n: int = 2, seed: int = 1, options: dict[str, Any] | None = None, **setup: Any) -> dict[str, Any]:
    """A Festival Season game (every expansion option at its default unless given)."""
    opts: dict[str, Any] = {"inaccessible": "random", **(options or {})}
    if setup:
        opts["setup"] = setup
    return G.new(n, opts, seed)


def act(state: dict[str, Any], seat: int, text: str) -> dict[str, Any]:
    new_state, _ = G.apply(state, seat, G.parse(text))
    return new_state  # type: ignore[no-any-return]


def act_ev(state: dict[str, Any], seat: int, text: str) -> tuple[dict[str, Any], list[Any]]:
    return G.apply(state, seat, G.parse(text))  # type: ignore[no-any-return]


def ai_until(state: dict[str, Any], stop: Any, limit: int = 3000) -> dict[str, Any]:
    """Let the AI play every seat until ``stop(state)`` holds."""
    for _ in range(limit):
        if stop(state) or G.is_over(state):
            return state
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.ai_action(state, seat))
    raise AssertionError("stop condition never reached")


def adv(cls: str, hp: int, icons: int = 0, level: int = 1, uid: str = "") -> dict[str, Any]:
    return {
        "cls": cls,
        "level": level,
        "hp": hp,
        "icons": icons,
        "dmg": 0,
        "uid": uid or f"{cls}{hp}{icons}{level}",
    }
