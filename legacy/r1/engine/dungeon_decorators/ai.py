"""A greedy AI: it values a dungeon by its final-scoring points, the goals in its
hand it can score (and progress towards the others) and its room to grow, and
picks the draft and placement that value most. It only reads its own view of
the game (its hand, storage and the public board)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from . import rules as R

if TYPE_CHECKING:
    from .game import DungeonDecorators

ASSISTANT_VALUE = {"sapper": 2.5, "burrow": 2.0, "architect": 0.5, "mimic": 1.0, None: 0.0}
PRUNE = 6  # candidates kept for the full (shape-aware) evaluation


def _deco_progress(
    summary: dict[Any, dict[str, Any]], gid: str, pool: tuple[Counter[str], int] | None = None
) -> float:
    need = R.NEEDS[gid]
    total = sum(k for _, k in need)
    if R.GOALS[gid]["type"] == "hallway":
        have = (pool or R.hallway_pool(summary))[0]
        return sum(min(k, have[d]) for d, k in need) / total
    best = 0
    for s in summary.values():
        if s["room"]:
            decos = s["decos"]
            best = max(best, sum(min(k, decos.count(d)) for d, k in need))
    return best / total


def _shape_progress(summary: dict[Any, dict[str, Any]], gid: str) -> float:
    best = 0
    for form in R.SHAPE_FORMS[gid]:
        for ax, ay, aneed in form:
            # The best match has some satisfied cell: anchoring on those finds it.
            for (px, py), s in summary.items():
                if R.cell_cost(s, aneed) != 0:
                    continue
                n = sum(
                    1
                    for x, y, need in form
                    if R.cell_cost(summary.get((px + x - ax, py + y - ay)), need) == 0
                )
                best = max(best, n)
    return best / len(R.GOALS[gid]["cells"])


def evaluate(
    grid: R.Grid,
    hand: list[str],
    mimics: int,
    boss: list[str],
    full: bool,
    summary: Any = None,
    open_now: int | None = None,
    known: dict[str, int | None] | None = None,
    near: list[Any] | None = None,
) -> float:
    """How good a dungeon is for this player. ``known`` (goal costs before one
    placement) and ``near`` (the squares it changed) make the quick pass cheap:
    a goal already met stays met, and a new match must cover a changed square."""
    if summary is None:
        summary = R.summarise(grid)
    if open_now is None:
        open_now = R.open_passages(grid)
    stars, diff, common = R.colour_points(grid)
    value = float(stars + diff + common)
    a_metric = R.BOSSES[boss[0]]["metric"]
    b_metric = R.BOSSES[boss[1]]["metric"]
    value += R.boss_a_points(a_metric, R.metric(grid, a_metric, mimics, summary))
    if b_metric != "room_path" or full:
        value += 1.2 * R.metric(grid, b_metric, mimics, summary)
    pool = R.hallway_pool(summary)
    for gid in hand:
        goal = R.GOALS[gid]
        if known is not None and known[gid] is not None:
            cost = known[gid]
        else:
            cost = R.goal_cost(summary, gid, near, pool)
        if cost is not None and cost <= mimics:
            value += goal["points"] - 0.5 * cost
        elif goal["kind"] == "decoration":
            value += 0.3 * goal["points"] * _deco_progress(summary, gid, pool)
        elif full:
            value += 0.45 * goal["points"] * _shape_progress(summary, gid)
    value += 0.7 * min(open_now, 6)
    # Walls next to empty squares are where decorations can still go.
    value += 0.15 * sum(s["free_walls"] for s in summary.values())
    return value


def best_placements(
    grid: R.Grid, tile: Any, hand: list[str], mimics: int, boss: list[str], prune: int = PRUNE
) -> list[tuple[float, dict[str, Any]]]:
    """Legal placements of ``tile``, best first (cheap scores, then the top few re-scored fully)."""
    scored = []
    base = R.summarise(grid)
    open_now = R.open_passages(grid)
    known = {gid: R.goal_cost(base, gid) for gid in hand}
    for side, pos, rot, flip in R.legal_placements(grid, tile):
        g = dict(grid)
        cell = g[pos] = R.make_cell(tile, side, rot, flip)
        act = {"a": "place", "tile": tile, "side": side, "at": R.coord(pos), "rot": rot, "flip": flip}
        near = [q for q in [pos] + [R.step(pos, d) for d in range(4)] if q in g and g[q]["kind"] == "dungeon"]
        summary = R.resummarise(g, base, pos)
        v = evaluate(g, hand, mimics, boss, False, summary, R.open_after(g, pos, cell, open_now), known, near)
        scored.append((v, act))
    scored.sort(key=lambda t: -t[0])
    top = []
    for _, act in scored[:prune]:
        g = dict(grid)
        at = R.parse_coord(act["at"])
        assert at is not None
        g[at] = R.make_cell(tile, act["side"], act["rot"], act["flip"])
        top.append((evaluate(g, hand, mimics, boss, True), act))
    top.sort(key=lambda t: -t[0])
    return top


def _tile_value(grid: R.Grid, tile: Any, hand: list[str], mimics: int, boss: list[str], base: float) -> float:
    best = best_placements(grid, tile, hand, mimics, boss, prune=3)
    gain = best[0][0] - base if best else -1.0
    helper = R.TILES[tile]["assistant"] if tile != "G" else None
    return gain + ASSISTANT_VALUE[helper]


def _goal_keep_value(gid: str, summary: dict[Any, dict[str, Any]]) -> float:
    goal = R.GOALS[gid]
    if goal["kind"] == "decoration":
        size = len(goal["needs"])
        ease = 1.0 if goal["type"] == "hallway" else 0.8
        return goal["points"] * ease / (1 + 0.35 * size) + 2 * _deco_progress(summary, gid)
    cells = len(goal["cells"])
    return goal["points"] / (1 + 0.3 * cells) + 2 * _shape_progress(summary, gid)


def choose(game: DungeonDecorators, state: dict[str, Any], seat: int) -> Any:
    view = game.view(state, seat)
    me = view["you"]
    legal = game.legal_actions(state, seat)
    phase = view["phase"]
    grid = R.to_grid(state["players"][seat]["dungeon"])  # own dungeon: public anyway
    hand = [g["id"] for g in me["hand"]]
    mimics = me["tokens"]["mimic"]
    boss = [b["id"] for b in view["boss"]]
    summary = R.summarise(grid)
    if phase == "keep" or phase == "exchange_discard":
        n = 2 if phase == "keep" else 1
        worst = sorted(hand, key=lambda g: _goal_keep_value(g, summary))[:n]
        for a in legal:
            if sorted(a["cards"]) == sorted(worst):
                return a
        return legal[0]
    if phase == "score":
        scores = [a for a in legal if a["a"] == "score"]
        # Cheapest in Mimic tokens first, then the most points.
        costs = {a["goal"]: R.goal_cost(summary, a["goal"]) or 0 for a in scores}
        scores.sort(key=lambda a: (costs[a["goal"]], -R.GOALS[a["goal"]]["points"]))
        return scores[0] if scores else {"a": "done"}
    if phase == "refill":
        shapes = sum(1 for g in hand if g.startswith("S"))
        want = "S" if shapes < 2 else "D"
        return next((a for a in legal if a["deck"] == want), legal[0])
    base = evaluate(grid, hand, mimics, boss, True)
    if phase == "draft":
        best: tuple[float, Any] = (-1e9, legal[0])
        for a in legal:
            if a["a"] == "draft":
                v = _tile_value(grid, a["tile"], hand, mimics, boss, base)
            else:
                v = 2.0 + (0.5 if a["deck"] == "D" else 0.0)  # a random tile plus a fresh goal
            if v > best[0]:
                best = (v, a)
        return best[1]
    if phase == "burrow":
        vals = [(_tile_value(grid, a["tile"], hand, mimics, boss, base), i) for i, a in enumerate(legal)]
        return legal[max(vals)[1]]
    # Build: place the best new or stored tile while it helps; store what does not fit well.
    places = [a for a in legal if a["a"] == "place"]
    pending = [x["t"] for x in state["players"][seat]["pending"]]
    best_act: tuple[float, Any] | None = None
    for tile in dict.fromkeys(a["tile"] for a in places):
        for v, act in best_placements(grid, tile, hand, mimics, boss)[:1]:
            gain = v - base
            if tile not in pending:
                gain -= 1.0  # a stored tile may find a better home later
            if best_act is None or gain > best_act[0]:
                best_act = (gain, act)
    # An Arcane Architect turn that completes a goal or gains clearly is worth its token.
    for a in legal:
        if a["a"] == "arch" and not pending:
            g = dict(grid)
            src = R.parse_coord(a["from"])
            assert src is not None
            g[src] = R.turned(g[src], a["rot"])
            gain = evaluate(g, hand, mimics, boss, True) - base - 2.0
            if best_act is None or gain > best_act[0]:
                best_act = (gain, a)
    if best_act is not None and best_act[1]["a"] == "arch":
        return best_act[1] if best_act[0] > 0 else {"a": "done"}
    stores = [a for a in legal if a["a"] == "store"]
    if best_act is not None and (best_act[0] > 0.5 or not stores):
        if best_act[1]["tile"] in pending or best_act[0] > 0.5:
            return best_act[1]
    if stores:
        return stores[0]
    if best_act is not None and pending:
        return best_act[1]
    for kind in ("box", "done", "reset"):
        for a in legal:
            if a["a"] == kind:
                return a
    return legal[0]
