"""Builders for Dungeon Decorators tests: hand-made dungeons and staged games."""

from __future__ import annotations

from typing import Any

from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R

DIR = {"N": 0, "E": 1, "S": 2, "W": 3}


def room_or_hall(passages: str, floor: str = "grey", t: Any = "x") -> dict[str, Any]:
    """A dungeon-side cell with passageways on the named edges, e.g. 'NS'."""
    e = [1 if d in passages else 0 for d in "NESW"]
    return {"t": t, "side": "D", "rot": 0, "kind": "dungeon", "e": e, "floor": floor}


def deco(icons: str, t: Any = "y") -> dict[str, Any]:
    """A decoration-side cell; icons is four characters N, E, S, W ('-' none, '*' wild)."""
    return {"t": t, "side": "X", "rot": 0, "kind": "deco", "e": list(icons), "floor": "grey"}


def grid(cells: dict[str, dict[str, Any]]) -> R.Grid:
    """A dungeon with the starting tile at AO41 plus ``cells``."""
    g = {R.parse_coord(R.START): R.start_cell()}
    for c, cell in cells.items():
        p = R.parse_coord(c)
        assert p is not None
        g[p] = cell
    return g  # type: ignore[return-value]


def staged(
    players: int = 2,
    blue: list[Any] | None = None,
    red: list[Any] | None = None,
    hands: list[list[str]] | None = None,
    boss: list[str] | None = None,
    order: list[int] | None = None,
    seed: int = 1,
    revision: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A game whose bags, hands, bosses and order are stacked; hands of four skip the discard step.
    ``revision``: the rules revision (default the newest; 2 for the rules before this session)."""
    numbers = sorted(R.TILES)
    setup: dict[str, Any] = {
        "blue": blue if blue is not None else numbers[:50],
        "red": red if red is not None else numbers[50:100] + [0, 0, 0],
        "hands": hands
        or [
            ["S3", "S4", "D1", "D2"],
            ["S5", "S6", "D3", "D4"],
            ["S7", "S8", "D5", "D6"],
            ["S9", "S10", "D7", "D8"],
        ][:players],
        "boss": boss or ["A1", "B1"],
        "order": order or list(range(players)),
    }
    setup.update(extra)
    return GAME.new(players, {"setup": setup}, seed, revision=revision)


def act(state: dict[str, Any], seat: int, text: str) -> tuple[dict[str, Any], list[Any]]:
    return GAME.apply(state, seat, GAME.parse(text))


def set_dungeon(state: dict[str, Any], seat: int, g: R.Grid) -> None:
    state["players"][seat]["dungeon"] = R.from_grid(g)
