"""The build step of the move chooser: the pictures (``Choice.preview``) and the
Arcane Architect moves looked up one tile at a time.

Every step that chooses a square or a turn carries a preview: the player's own
dungeon with each candidate square labelled by the name the option gives it, the
tile drawn where only one turn fits, and, when the turn is chosen, the tile drawn
in each turn the options offer. Only the seat's own dungeon and the tiles lying in
front of it are used: the whole table sees them.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from . import architect as A
from . import rules as R

if TYPE_CHECKING:
    from .game import DungeonDecorators

_CACHE: dict[str, list[dict[str, Any]]] = {}
CACHE_SIZE = 64


def real_tokens(prefix: list[str]) -> list[str]:
    """The prefix without the picks of a group of options ("g1": AK39 … AP40)."""
    return [t for t in prefix if not (t[:1] == "g" and t[1:].isdigit())]


def _disconnects(grid: R.Grid, held: list[Any], src: R.Pos, broken: bool, first: bool, depth: int) -> Any:
    # The chooser asks for the same step again for every level of "So far": remember.
    key = json.dumps([R.from_grid(grid), held, src, broken, first, depth], sort_keys=True)
    if key not in _CACHE:
        if len(_CACHE) >= CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = A.disconnects(grid, held, src, legal_too=broken, first=first, depth=depth)
    return _CACHE[key]


def lazy_moves(game: DungeonDecorators, state: dict[str, Any], seat: int, prefix: list[str]) -> list[Any]:
    """Architect moves that leave the dungeon broken for the held tiles to mend
    ("disconnect and fill"): looked up only once the chooser is on the Architect,
    for the tile chosen (all tiles at once would take seconds)."""
    p = state["players"][seat]
    if p["tokens"]["architect"] < 1:
        return []
    grid = R.to_grid(p["dungeon"])
    held = game._held(state, seat)
    broken = bool(state["relaxed"]) and R.dungeon_problem(grid) is not None
    if not held or broken:
        return []
    starts = game.rules_revision(state) >= 3
    movable = [q for q in sorted(grid, key=lambda q: (q[1], q[0])) if grid[q]["t"] != "start" or starts]
    real = real_tokens(prefix)
    if len(real) >= 2 and real[1].startswith("f"):
        src = R.parse_coord(real[1][1:])
        if src not in movable:
            return []
        assert src is not None
        return list(_disconnects(grid, held, src, broken, False, min(A.MEND_DEPTH, len(held))))
    # The step choosing the tile: one move is enough to list a tile.
    out: list[Any] = []
    for src in movable:
        out += _disconnects(grid, held, src, broken, True, A.MOVE_DEPTH)
    return out


def _squares(moves: list[Any], key: str, cell_of: Any) -> tuple[dict[str, str], dict[str, Any]]:
    """Candidate squares labelled by name, with the tile drawn where only one turn fits."""
    by: dict[str, list[Any]] = {}
    for m in moves:
        by.setdefault(m[key], []).append(m)
    labels = {sq: sq for sq in by}
    ghosts = {sq: cell_of(ms[0]) for sq, ms in by.items() if len(ms) == 1}
    return labels, ghosts


def preview(state: dict[str, Any], seat: int, prefix: list[str], legal: list[Any]) -> dict[str, Any]:
    """What the renderer draws for this build step (render/dungeon_decorators.py: preview)."""
    cells = state["players"][seat]["dungeon"]
    out: dict[str, Any] = {
        "seat": seat,
        "title": "Your dungeon",
        "labels": {},
        "ghosts": {},
        "mark": [],
        "turns": [],
    }
    real = real_tokens(prefix)
    head = real[0] if real else ""
    if head.startswith("t"):
        moves = [a for a in legal if a["a"] == "place" and f"t{a['tile']}{a['side']}" == head]
        if not moves:
            return out
        name = "generic tile" if moves[0]["tile"] == "G" else f"tile {moves[0]['tile']}"

        def place_cell(m: dict[str, Any]) -> dict[str, Any]:
            return R.make_cell(m["tile"], m["side"], m["rot"])

        if len(real) == 1:
            out["labels"], out["ghosts"] = _squares(moves, "at", place_cell)
            out["title"] = f"Where {name} can go"
        else:
            at = real[1]
            out["labels"], out["mark"] = {at: at}, [at]
            out["turns"] = [[f"Turned {m['rot'] * 90}°", place_cell(m), at] for m in moves if m["at"] == at]
            out["title"] = f"How {name} lies on {at}"
    elif head == "arch":
        moves = [a for a in legal if a["a"] == "arch"]
        if len(real) == 1:
            out["labels"] = {m["from"]: m["from"] for m in moves}
            out["title"] = "The tiles an Arcane Architect can move or turn"
        else:
            src = real[1][1:]
            ms = [m for m in moves if m["from"] == src]

            def moved(m: dict[str, Any]) -> dict[str, Any]:
                return R.turned(cells[src], m["rot"])

            out["mark"] = [src]
            if len(real) == 2:
                out["labels"], out["ghosts"] = _squares(ms, "to", moved)
                out["ghosts"].pop(src, None)  # the tile itself stands there
                out["title"] = f"Where the tile at {src} can go"
            else:
                dst = real[2][1:]
                out["labels"] = {dst: dst}
                out["mark"] = [src, dst]
                out["turns"] = [[f"Turned {m['rot'] * 90}°", moved(m), dst] for m in ms if m["to"] == dst]
                out["hide"] = [src]  # the tile has left its square
                out["title"] = f"How the tile from {src} lies on {dst}"
    elif head == "swap":
        moves = [a for a in legal if a["a"] == "swap"]
        if len(real) == 1:
            out["labels"] = {m["at"][0]: m["at"][0] for m in moves}
        else:
            x = real[1][1:]
            out["mark"] = [x]
            out["labels"] = {m["at"][1]: m["at"][1] for m in moves if m["at"][0] == x}
            if len(real) >= 3:
                y = real[2][1:]
                out["mark"] = [x, y]
                for m in moves:
                    if m["at"] == [x, y]:
                        ra, rb = m["rot"]
                        out["turns"] += [
                            [f"At {y} turned {ra * 90}°", R.turned(cells[x], ra), y],
                            [f"at {x} turned {rb * 90}°", R.turned(cells[y], rb), x],
                        ]
                out["hide"] = [x, y]  # each shown with the other's tile gone
        out["title"] = "Swap two tiles (two Arcane Architects)"
    return out


def only_offered(pv: dict[str, Any], options: list[tuple[str, str]]) -> dict[str, Any]:
    """After a group of squares was picked ("AK39 … AP40"), label only the squares
    the step still offers; while groups are offered, every square stays named."""
    toks = {t for t, _ in options}
    keep = {sq for sq in pv["labels"] if toks & {sq, f"f{sq}", f"d{sq}", f"w{sq}"}}
    if keep:
        pv["labels"] = {sq: label for sq, label in pv["labels"].items() if sq in keep}
        pv["ghosts"] = {sq: cell for sq, cell in pv["ghosts"].items() if sq in keep}
    return pv


# ---- the line under a square (issue 40 item 2) ------------------------------------------

_SIDES = ("north", "east", "south", "west")


def _tile_words(cell: dict[str, Any] | None, at: R.Pos, grid: R.Grid) -> str | None:
    """A dungeon square's tile as the board shows it ("the start", "a red hallway",
    "a blue room", "a decoration tile"), or None when the square is empty."""
    if cell is None:
        return None
    if cell["kind"] != "dungeon":
        return "a decoration tile"
    if cell["t"] == "start":
        return "the start"
    kind = "room" if R.summarise_at(grid, at)["room"] else "hallway"
    return f"{'an' if cell['floor'][:1] in 'aeiou' else 'a'} {cell['floor']} {kind}"


def square_note(dungeon: dict[str, Any], square: str) -> str | None:
    """What is on ``square`` of the seat's dungeon and next to it, side by side."""
    at = R.parse_coord(square)
    if at is None:
        return None
    grid = R.to_grid(dungeon)
    here = _tile_words(grid.get(at), at, grid)
    near = [
        f"{words} {side}"
        for d, side in enumerate(_SIDES)
        if (words := _tile_words(grid.get(R.step(at, d)), R.step(at, d), grid)) is not None
    ]
    text = f"{square} holds {here}" if here else f"{square} is empty"
    text += "; next to " + ", ".join(near) if near else "; nothing next to it"
    return text if len(text) <= 100 else text[:98].rsplit(" ", 1)[0].rstrip(",;") + " …"


def square_notes(dungeon: dict[str, Any], options: list[tuple[str, str]]) -> dict[str, str]:
    """Token -> its square's line, for the options that choose a square ("AN39",
    "fAN39" the tile on it, "dAN39" where it goes)."""
    out = {}
    for tok, _label in options:
        square = tok[1:] if tok[:1].islower() else tok
        note = square_note(dungeon, square)
        if note is not None:
            out[tok] = note
    return out
