"""Phase B: the hero's path. Ready-made candidate paths (offered as moves and used by
the AI), the path drawn step by step (the chooser), and drawing a path.

The path laws themselves (one step at a time, never a wall, at most twice a space,
a monster a second time only after another monster or trap) are
:func:`board.path_problem`; the step-by-step drawing offers only steps after which
the path can still be finished under those laws.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.core import Event, IllegalAction, State, seat_ref

from . import board
from .data import HEARTS, SHEET
from .rules import MONSTERS, p_win

STEPS = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
STEP_WORDS = {"U": "Up", "D": "Down", "L": "Left", "R": "Right"}
MORE = "more"  # chooser token: turn earlier than the runs offered


def _active(sheet: dict, cell: str) -> str | None:
    k = sheet["grid"].get(cell)
    return k if k in board.BLOCKER_KINDS and cell not in sheet["crossed"] else None


# ---- ready-made paths --------------------------------------------------------------------


def expected_owner_score(sheet: dict, lv: dict[str, int], path: list[str], treasures: int) -> float:
    """What the dungeon's owner may expect to score if the hero walks ``path``
    (dungeon actions are counted as +2 strength on average)."""
    hearts = float(HEARTS)
    survive: dict[str, float] = {}
    gone: set[str] = set()
    for cell in path:
        kind = _active(sheet, cell)
        if kind is None or cell in gone:
            continue
        if kind == "trap":
            hearts -= lv["trap"]
            gone.add(cell)
            continue
        s = survive.get(cell, 1.0)
        p = p_win(lv[kind] + 2)
        hearts -= s * p * SHEET["monsters"][kind]["damage"]
        survive[cell] = s * p
    monsters = [c for c, k in sheet["grid"].items() if k in MONSTERS and c not in sheet["crossed"]]
    share = min(1.0, treasures / len(monsters)) if monsters else 0.0
    total = 0.0
    for c in monsters:
        s = survive.get(c, 1.0)
        total += s * (SHEET["monsters"][sheet["grid"][c]]["points"] + share * lv["treasure"])
    total += SHEET["hero_death_points"] if hearts <= 0 else -hearts
    return total


def _tour(sheet: dict, targets: list[str], route: Callable[[str, str], list[str] | None]) -> list[str] | None:
    """The path that visits ``targets`` nearest first where it can, by ``route`` (the cheapest
    route between two spaces under the dungeon's danger costs)."""
    path = [board.ENTRANCE]
    left = list(targets)
    while left:
        dist = board.distances(sheet, path[-1])
        left.sort(key=lambda c: (dist.get(c, 999), board.INDEX[c]))
        target = left.pop(0)
        if target in path:
            continue
        leg = route(path[-1], target)
        finish = route(target, board.EXIT)
        if leg is None or finish is None:
            continue
        trial = path + leg[1:]
        if board.path_valid(sheet, trial + finish[1:]):
            path = trial
    finish = route(path[-1], board.EXIT)
    if finish is None:
        return None
    full = path + finish[1:]
    return full if board.path_valid(sheet, full) else None


# The candidate paths of a dungeon are asked for twice a path drawn (the legal moves and the
# heuristic player) and by every sample of a search in Phase B; the tours cost milliseconds.
_CANDIDATES: dict[tuple[Any, ...], tuple[tuple[str, ...], ...]] = {}


def candidate_paths(sheet: dict, lv: dict[str, int]) -> list[list[str]]:
    """A few valid paths: the shortest, a cautious one, and tours of the weak and of all monsters.
    The shortest path always exists (walls never cut the exit off) and is always valid.
    Remembered per dungeon (its spaces, the crossed-off ones, the levels the paths weigh)."""
    key = (
        frozenset(sheet["grid"].items()),
        frozenset(sheet["crossed"]),
        tuple(lv[k] for k in ("trap", *MONSTERS)),
    )
    got = board.remembered(_CANDIDATES, key, lambda: tuple(tuple(p) for p in _candidate_paths(sheet, lv)))
    return [list(p) for p in got]


def _candidate_paths(sheet: dict, lv: dict[str, int]) -> list[list[str]]:
    danger: dict[str, float] = {}
    for c in board.ALL_CELLS:
        k = _active(sheet, c)
        if k == "trap":
            danger[c] = 3.0 * lv["trap"]
        elif k in MONSTERS:
            danger[c] = 20.0 * p_win(lv[k] + 2) * SHEET["monsters"][k]["damage"]
    weak = [c for c, d in danger.items() if _active(sheet, c) in MONSTERS and d < 2.0]
    strong = [c for c in danger if _active(sheet, c) in MONSTERS]
    find = board.router(sheet, danger)
    routes: dict[tuple[str, str], list[str] | None] = {}

    def route(a: str, b: str) -> list[str] | None:
        # the tours ask for the same routes (the finishes to H10); the routes are never changed
        if (a, b) not in routes:
            routes[a, b] = find(a, b)
        return routes[a, b]

    found: list[list[str]] = []
    for cand in (
        board.cost_path(sheet, board.ENTRANCE, board.EXIT),
        route(board.ENTRANCE, board.EXIT),
        _tour(sheet, weak, route),
        _tour(sheet, strong, route),
    ):
        if cand and cand not in found and board.path_valid(sheet, cand):
            found.append(cand)
    return found


# ---- drawing step by step -------------------------------------------------------------------


def step_cell(cell: str, token: str) -> str | None:
    x, y = board.xy(cell)
    dx, dy = STEPS[token]
    return board.at(x + dx, y + dy)


RUN = re.compile(r"([UDLR])([1-9][0-9]?)?")


def run_parts(token: str) -> list[tuple[str, int]] | None:
    """'R' (one space), 'R3' (three spaces right) or 'R3D2' (a run round a bend) ->
    [('R', 3), ('D', 2)]; None if the token is not a run."""
    parts = []
    pos = 0
    while pos < len(token):
        m = RUN.match(token, pos)
        if m is None or m.end() == pos:
            return None
        parts.append((m.group(1), int(m.group(2) or 1)))
        pos = m.end()
    return parts or None


def run_token(start: str, run: list[str]) -> str:
    """The token of the run ``run`` from ``start``: its straight stretches, like 'R3D2'."""
    out: list[list[Any]] = []
    for step in steps_of([start, *run]):
        if out and out[-1][0] == step:
            out[-1][1] += 1
        else:
            out.append([step, 1])
    return "".join(f"{d}{n}" for d, n in out)


def cells_of(tokens: list[str]) -> list[str] | None:
    """The spaces of a path that starts on A1 and takes the steps or runs ``tokens``
    (None if one leaves the grid or is not a step)."""
    cells = [board.ENTRANCE]
    for t in tokens:
        if t == MORE:
            continue  # the step that opens every stop of the lines: no space of its own
        parts = run_parts(t)
        if parts is None:
            return None
        for step, n in parts:
            for _ in range(n):
                nxt = step_cell(cells[-1], step)
                if nxt is None:
                    return None
                cells.append(nxt)
    return cells


def steps_of(cells: list[str]) -> list[str]:
    """The step tokens of a path (inverse of :func:`cells_of`)."""
    out = []
    for a, b in zip(cells, cells[1:], strict=False):
        (ax, ay), (bx, by) = board.xy(a), board.xy(b)
        out.append(next(t for t, d in STEPS.items() if d == (bx - ax, by - ay)))
    return out


class _Walk:
    """A path under construction with what the laws need to judge the next step:
    visits per space, and for each monster visited once whether another monster or
    trap has been crossed since (then it may be crossed once more)."""

    def __init__(self, sheet: dict) -> None:
        self.grid = sheet["grid"]
        self.count: dict[str, int] = {}
        self.armed: dict[str, bool] = {}  # monster visited once -> still waiting for another blocker

    def can_enter(self, cell: str) -> bool:
        if self.grid.get(cell) == "wall":
            return False
        k = self.count.get(cell, 0)
        if k >= 2:
            return False
        return not (k == 1 and self.armed.get(cell, False))

    def enter(self, cell: str) -> tuple[Any, ...]:
        undo = (cell, self.count.get(cell, 0), dict(self.armed))
        if self.grid.get(cell) in board.BLOCKER_KINDS:
            for m in self.armed:
                if m != cell:
                    self.armed[m] = False
        self.count[cell] = self.count.get(cell, 0) + 1
        if self.grid.get(cell) in MONSTERS:
            self.armed[cell] = self.count[cell] == 1
        return undo

    def leave(self, undo: tuple[Any, ...]) -> None:
        cell, k, armed = undo
        self.count[cell] = k
        self.armed = armed

    def exit_reachable(self, cell: str) -> bool:
        """A relaxation (every space passed fewer than twice, the monster law ignored):
        if even this cannot reach the exit, no finish exists."""
        free = board.mask(
            c for c in board.ALL_CELLS if self.grid.get(c) != "wall" and self.count.get(c, 0) < 2
        )
        return bool(board.flood(board.bit(cell), free | board.bit(cell)) & board.bit(board.EXIT) & free)


def _finishable(walk: _Walk, cell: str, dist: dict[str, int], budget: list[int], seen: set[Any]) -> bool:
    """Whether the path now standing on ``cell`` can still reach H10 under the laws: a
    depth-first search towards the exit, pruned by the relaxation and by states already
    known to fail. ``budget`` bounds the work; when it runs out the answer is yes
    (the drawn path is still checked in full by Done)."""
    if cell == board.EXIT:
        return True
    budget[0] -= 1
    if budget[0] < 0:
        return True
    key = (cell, tuple(sorted(walk.count.items())), tuple(sorted(walk.armed.items())))
    if key in seen or not walk.exit_reachable(cell):
        return False
    seen.add(key)
    for nxt in sorted(board.NEIGHBOURS[cell], key=lambda c: dist.get(c, 999)):
        if walk.can_enter(nxt):
            undo = walk.enter(nxt)
            ok = _finishable(walk, nxt, dist, budget, seen)
            walk.leave(undo)
            if ok:
                return True
    return False


SEARCH_BUDGET = 4000


def _walk_of(sheet: dict, cells: list[str]) -> _Walk | None:
    walk = _Walk(sheet)
    for i, c in enumerate(cells):
        if (i and c not in board.NEIGHBOURS[cells[i - 1]]) or not walk.can_enter(c):
            return None
        walk.enter(c)
    return walk


def _sides(walk: _Walk, cell: str, token: str) -> tuple[bool, bool]:
    """Whether the path could turn off to either side of ``cell`` when moving along ``token``."""
    sides = ("L", "R") if token in ("U", "D") else ("U", "D")
    out = []
    for s in sides:
        nxt = step_cell(cell, s)
        out.append(nxt is not None and walk.can_enter(nxt))
    return out[0], out[1]


BACK = {"U": "D", "D": "U", "L": "R", "R": "L"}
LONGEST_RUN = 40


def _straight(walk: _Walk, start: str, token: str, run: list[str], undos: list[Any]) -> bool:
    """Extend ``run`` straight along ``token`` to the next stop; True if it stopped because
    the way ahead is blocked (a turn), False at a junction or H10."""
    cur, prev = start, None
    while len(run) < LONGEST_RUN:
        nxt = step_cell(cur, token)
        if nxt is None or not walk.can_enter(nxt):
            return True
        undos.append(walk.enter(nxt))
        run.append(nxt)
        if nxt == board.EXIT:
            return False
        ahead = step_cell(nxt, token)
        if ahead is None or not walk.can_enter(ahead):
            return True  # a corner: _run decides whether it is a bend or a choice
        now = _sides(walk, nxt, token)
        if prev is not None and any(n and not p for n, p in zip(now, prev, strict=True)):
            return False  # a way off to a side opens here
        if any(n and not a for n, a in zip(now, _sides(walk, ahead, token), strict=True)):
            return False  # the last space before a way off to a side closes
        prev, cur = now, nxt
    return False


def _run(walk: _Walk, start: str, token: str, dist: dict[str, int]) -> list[str]:
    """The run from ``start`` along ``token`` to the next stop: H10, a junction - the first
    space where a way off to a side opens, or the last one before it closes - or a turn with
    a choice. Where the way ahead is blocked and only one way goes on (a bend of a corridor),
    the run follows it round the bend. It runs over monsters and traps (the labels name
    them), and is shortened to the furthest space from which the path can still be finished."""
    run: list[str] = []
    undos: list[Any] = []
    cur = start
    while _straight(walk, cur, token, run, undos) and run:
        cur = run[-1]
        ways = [d for d in STEPS if d != BACK[token] and (n := step_cell(cur, d)) and walk.can_enter(n)]
        if len(ways) != 1 or cur == board.EXIT:
            break
        token = ways[0]
    while run and not _finishable(walk, run[-1], dist, [SEARCH_BUDGET], set()):
        walk.leave(undos.pop())
        run.pop()
    for undo in reversed(undos):
        walk.leave(undo)
    return run


def next_runs(sheet: dict, cells: list[str]) -> list[tuple[str, list[str]]] | None:
    """The runs (token like 'R3', spaces entered) the path ``cells`` may take next, one per
    direction, or None if ``cells`` itself already breaks a law (a stale or forged prefix)."""
    walk = _walk_of(sheet, cells)
    if walk is None:
        return None
    dist = board.distances(sheet, board.EXIT)
    out = []
    for token in STEPS:
        run = _run(walk, cells[-1], token, dist)
        if run:
            out.append((run_token(cells[-1], run), run))
    return out


def next_steps(sheet: dict, cells: list[str]) -> list[tuple[str, str]] | None:
    """The steps (token, space) that keep the path ``cells`` finishable, or None if
    ``cells`` itself already breaks a law (a stale or forged prefix)."""
    walk = _walk_of(sheet, cells)
    if walk is None:
        return None
    dist = board.distances(sheet, board.EXIT)
    out = []
    for token in STEPS:
        nxt = step_cell(cells[-1], token)
        if nxt is None or not walk.can_enter(nxt):
            continue
        undo = walk.enter(nxt)
        if _finishable(walk, nxt, dist, [SEARCH_BUDGET], set()):
            out.append((token, nxt))
        walk.leave(undo)
    return out


# ---- drawing the path -----------------------------------------------------------------------


def begin(state: State, events: list[Event]) -> None:
    state["phase"] = "path"
    counts = ", ".join(
        f"{seat_ref(s)} {len(p['sheet']['treasures'])}" for s, p in enumerate(state["players"])
    )
    events.append(Event(f"Phase A is over. Treasures hidden: {counts}."))
    events.append(
        Event("Phase B: every player draws the hero's path through the dungeon of the player on their right.")
    )


def draw(state: State, seat: int, action: dict, events: list[Event]) -> bool:
    """Draw ``seat``'s path; returns True when it was the last one."""
    n = state["seats"]
    owner = (seat - 1) % n
    cells = action.get("cells")
    if not isinstance(cells, list) or any(not isinstance(c, str) or board.parse_cell(c) != c for c in cells):
        raise IllegalAction("A path is a list of spaces like A1 A5 C5 C10 H10.")
    problem = board.path_problem(state["players"][owner]["sheet"], cells)
    if problem:
        raise IllegalAction(problem)
    state["players"][owner]["path"] = cells
    corners = " ".join(board.compress(cells))
    events.append(Event(f"{seat_ref(seat)} has drawn the hero's path (shown when every path is drawn)."))
    events.append(Event(f"Your path through {seat_ref(owner)}'s dungeon: path {corners}.", seat))
    return all(p["path"] is not None for p in state["players"])


def straight_options(sheet: dict, cells: list[str]) -> list[tuple[str, list[str]]] | None:
    """Every stop on the four straight lines from the path's end (token like 'R2', spaces
    entered) from which the path can still be finished; None for a prefix that breaks a law."""
    walk = _walk_of(sheet, cells)
    if walk is None:
        return None
    dist = board.distances(sheet, board.EXIT)
    out = []
    for token in STEPS:
        line: list[str] = []
        undos = []
        cur = cells[-1]
        while (nxt := step_cell(cur, token)) is not None and walk.can_enter(nxt):
            undos.append(walk.enter(nxt))
            line.append(nxt)
            if _finishable(walk, nxt, dist, [SEARCH_BUDGET], set()):
                out.append((f"{token}{len(line)}", list(line)))
            cur = nxt
        for undo in reversed(undos):
            walk.leave(undo)
    return out


def run_tokens(sheet: dict, cells: list[str]) -> list[str]:
    """The chooser's tokens that draw ``cells``: a run wherever one follows the path, else
    "more" and the straight stretch to the path's next corner."""
    out: list[str] = []
    i = 0
    while i < len(cells) - 1:
        runs = next_runs(sheet, cells[: i + 1]) or []
        match = next((tok for tok, run in runs if cells[i + 1 : i + 1 + len(run)] == run), None)
        if match is None:
            token = steps_of(cells[i : i + 2])[0]
            k = 1
            while i + k + 1 < len(cells) and steps_of(cells[i + k : i + k + 2])[0] == token:
                k += 1
            out += [MORE, f"{token}{k}"]
            i += k
        else:
            out.append(match)
            i += sum(n for _, n in run_parts(match) or [])
    return out
