"""The fast paths of the engine (issue 30 item 6) say what the plain rules say: wall placements
against every formation tried at every place with the whole-sheet flood, blocker spaces against
blocker_problem, path_valid against path_problem, routes from one search tree against a search
that stops at its goal, and Game.play against Game.apply (all but the table's record). ``apply``
copies with marshal (``plain_copy``), which would keep a tuple or a number as a dict key where
core's JSON round trip changes or refuses it, so every state must stay plain JSON."""

from __future__ import annotations

import heapq
import random

from engine.core import copy_state
from engine.dungeon_drawers import board, paths
from engine.dungeon_drawers.data import SHEET
from tests.dungeon_drawers.helpers import GAME

KINDS = ["wall"] * 6 + ["goblin", "orc", "dragon", "trap"]


def _random_sheets(n: int, seed: int) -> list[dict]:
    # random walls cut sheets apart too: the fast check must then fall back to the whole flood
    r = random.Random(seed)
    return [
        {
            "grid": {c: r.choice(KINDS) for c in r.sample(board.ALL_CELLS, r.randint(0, 40))},
            "crossed": [],
            "treasures": [],
            "imp": {},
        }
        for _ in range(n)
    ]


def _every_placement(sheet: dict, shape: str) -> list[list[str]]:
    """Every orientation at every offset, on empty spaces, kept if every space stays reachable."""
    walls = board.wall_mask(sheet)
    found = set()
    for orient in board.orientations(SHEET["walls"][shape]):
        for y0 in range(board.NR):
            for x0 in range(board.NC):
                cells = [board.at(x0 + x, y0 + y) for x, y in orient]
                if None in cells or any(c in sheet["grid"] for c in cells):
                    continue
                if board.all_accessible(walls | board.mask(cells)):  # type: ignore[arg-type]
                    found.add(tuple(board.sort_cells(cells)))  # type: ignore[arg-type]
    return sorted((list(cs) for cs in found), key=lambda cs: [board.INDEX[c] for c in cs])


def test_wall_placements_are_every_placement_that_keeps_the_sheet_connected() -> None:
    for sheet in _random_sheets(150, 1):
        for shape in SHEET["walls"]:
            assert board.wall_placements(sheet, shape) == _every_placement(sheet, shape)
            assert board.can_place_wall(sheet, shape) == bool(_every_placement(sheet, shape))


def test_remembered_placements_are_handed_out_as_fresh_lists() -> None:
    sheet = _random_sheets(1, 2)[0]
    first = board.wall_placements(sheet, "L3")
    first[0].append("Z9")
    first.pop()
    assert board.wall_placements(sheet, "L3") == _every_placement(sheet, "L3")


def test_blocker_cells_are_the_spaces_blocker_problem_allows() -> None:
    for sheet in _random_sheets(300, 3):
        want = [c for c in board.ALL_CELLS if board.blocker_problem(sheet, c) is None]
        assert board.blocker_cells(sheet) == want


def test_path_valid_agrees_with_path_problem() -> None:
    r = random.Random(4)
    valid = 0
    for _ in range(4000):
        kinds = ["wall", "goblin", "orc", "dragon", "trap", "trap"]
        grid = {c: r.choice(kinds) for c in r.sample(board.ALL_CELLS[1:-1], r.randint(0, 30))}
        sheet = {"grid": grid, "crossed": [], "treasures": [], "imp": {}}
        cells = [board.ENTRANCE]
        while cells[-1] != board.EXIT and len(cells) < 120:
            # mostly down and right round the walls, sometimes back over its own spaces or
            # through a wall, so that every law is broken now and then
            ways = [c for c in board.NEIGHBOURS[cells[-1]] if grid.get(c) != "wall" or r.random() < 0.01]
            ways = [c for c in ways if cells.count(c) < 2 or r.random() < 0.02] or board.NEIGHBOURS[cells[-1]]
            cells.append(max(ways, key=lambda c: r.random() + 0.02 * sum(board.xy(c))))
        ok = board.path_valid(sheet, cells)
        assert ok == (board.path_problem(sheet, cells) is None)
        valid += ok
    assert 100 < valid < 3900


def _stop_at_goal(sheet: dict, a: str, b: str, cost: dict[str, float]) -> list[str] | None:
    """Dijkstra that stops when it takes the goal off the heap (the plain way)."""
    s, g = board.INDEX[a], board.INDEX[b]
    dist = {s: 0.0}
    prev: dict[int, int] = {}
    heap = [(0.0, s)]
    while heap:
        d, c = heapq.heappop(heap)
        if c == g:
            out = [c]
            while out[-1] != s:
                out.append(prev[out[-1]])
            return [board.ALL_CELLS[i] for i in reversed(out)]
        if d > dist[c]:
            continue
        for n in board.NEIGHBOURS[board.ALL_CELLS[c]]:
            k = board.INDEX[n]
            nd = d + 1 + cost.get(n, 0.0)
            if sheet["grid"].get(n) != "wall" and nd < dist.get(k, float("inf")):
                dist[k], prev[k] = nd, c
                heapq.heappush(heap, (nd, k))
    return None


def test_routes_are_the_routes_of_a_search_that_stops_at_the_goal() -> None:
    # one search tree a start serves every goal; without costs, a breadth-first search
    r = random.Random(6)
    for sheet in _random_sheets(60, 7):
        cost = {c: r.choice([0.0, 0.6, 2.4, 7.2]) for c in r.sample(board.ALL_CELLS, 20)}
        route = board.router(sheet, cost)
        for _ in range(10):
            a, b = r.sample(board.ALL_CELLS, 2)
            assert route(a, b) == _stop_at_goal(sheet, a, b, cost)
            assert board.cost_path(sheet, a, b) == _stop_at_goal(sheet, a, b, {})


def test_candidate_paths_are_valid_and_remembered_as_fresh_lists() -> None:
    state = GAME.new(2, None, 8)
    while state["phase"] == "build":
        seat = min(GAME.to_act(state))
        GAME.play(state, seat, GAME.rollout_action(state, seat, random.Random(0)))
    sheet = state["players"][0]["sheet"]
    lv = GAME.view(state, 0)["players"][0]["levels"]
    got = paths.candidate_paths(sheet, lv)
    assert got and all(board.path_problem(sheet, p) is None for p in got)
    got[0].clear()
    assert paths.candidate_paths(sheet, lv)[0]


def test_play_leaves_the_state_apply_leaves_but_the_table_s_record() -> None:
    record = ("news", "last", "mark")
    for seed in (9, 10):
        pick = random.Random(seed)
        state = GAME.new(2 + seed % 2, None, seed)
        while not GAME.is_over(state):
            seat = pick.choice(sorted(GAME.to_act(state)))
            action = pick.choice(GAME.legal_actions(state, seat))
            played = copy_state(state)
            GAME.play(played, seat, action)
            state, _ = GAME.apply(state, seat, action)
            assert {k: v for k, v in played.items() if k not in record} == {
                k: v for k, v in state.items() if k not in record
            }
