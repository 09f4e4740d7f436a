"""A greedy AI: it values a dungeon by its final-scoring points, the goals in its
hand it can score (and progress towards the others) and its room to grow, and
picks the draft, placement and Arcane Architect use that value most. It gets only
its seat's view, the legal moves and its own random generator (the contract's
``choose(view, legal, rnd)``); the rules helpers it calls are pure functions."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from . import architect as A
from . import rules as R

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


def dungeon_value(
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
    for side, pos, rot in R.legal_placements(grid, tile):
        g = dict(grid)
        cell = g[pos] = R.make_cell(tile, side, rot)
        act = {"a": "place", "tile": tile, "side": side, "at": R.coord(pos), "rot": rot}
        near = [q for q in [pos] + [R.step(pos, d) for d in range(4)] if q in g and g[q]["kind"] == "dungeon"]
        summary = R.resummarise(g, base, pos)
        v = dungeon_value(
            g, hand, mimics, boss, False, summary, R.open_after(g, pos, cell, open_now), known, near
        )
        scored.append((v, act))
    scored.sort(key=lambda t: -t[0])
    top = []
    for _, act in scored[:prune]:
        g = dict(grid)
        at = R.parse_coord(act["at"])
        assert at is not None
        g[at] = R.make_cell(tile, act["side"], act["rot"])
        top.append((dungeon_value(g, hand, mimics, boss, True), act))
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


KEYS = ("t", "side", "rot", "kind", "e", "floor")
ARCH_TOP = 6  # Architect uses re-scored in full after the quick pass
ARCH_SAMPLE = 40  # Architect moves and swaps looked at a turn (turns in place: all of them)


def grid_of(view: dict[str, Any], seat: int) -> R.Grid:
    """The seat's dungeon, rebuilt from its (public) view."""
    cells = view["players"][seat]["dungeon"]["cells"]
    return R.to_grid({c: {k: cell[k] for k in KEYS} for c, cell in cells.items()})


def _late(view: dict[str, Any]) -> bool:
    """The end is near: two hourglasses are out, or the bags are almost empty."""
    bags = view["bags"]["blue"] + view["bags"]["red"]
    return bool(view["hourglasses"] >= 2 or bags <= 4 * view["seats"])


class Ctx:
    """What every decision reads from the view."""

    def __init__(self, view: dict[str, Any], rnd: random.Random) -> None:
        self.view = view
        self.rnd = rnd
        seat = view["viewer"]
        me = view["players"][seat]
        self.grid = grid_of(view, seat)
        self.hand = [g["id"] for g in view["mine"]["hand"]]
        self.mimics = me["tokens"]["mimic"]
        self.architects = me["tokens"]["architect"]
        self.boss = [b["id"] for b in view["boss"]]
        self.pending = [t["n"] for t in me["new_tiles"]]
        self.late = _late(view)
        self.summary = R.summarise(self.grid)

    def value(self, grid: R.Grid, full: bool = True) -> float:
        return dungeon_value(grid, self.hand, self.mimics, self.boss, full)


def _discard(ctx: Ctx, legal: list[Any], n: int) -> Any:
    worst = sorted(ctx.hand, key=lambda g: _goal_keep_value(g, ctx.summary))[:n]
    for a in legal:
        if sorted(a["cards"]) == sorted(worst):
            return a
    return legal[0]


def _score(ctx: Ctx, legal: list[Any]) -> Any:
    scores = [a for a in legal if a["a"] == "score"]
    # Cheapest in Mimic tokens first, then the most points.
    costs = {a["goal"]: R.goal_cost(ctx.summary, a["goal"]) or 0 for a in scores}
    scores.sort(key=lambda a: (costs[a["goal"]], -R.GOALS[a["goal"]]["points"]))
    return scores[0] if scores else {"a": "done"}


def _draw(ctx: Ctx, legal: list[Any]) -> Any:
    shapes = sum(1 for g in ctx.hand if g.startswith("S"))
    want = "S" if shapes < 2 else "D"
    return next((a for a in legal if a["deck"] == want), legal[0])


def _draft(ctx: Ctx, legal: list[Any], base: float) -> Any:
    best: tuple[float, Any] = (-1e9, legal[0])
    for a in legal:
        if a["a"] == "draft":
            v = _tile_value(ctx.grid, a["tile"], ctx.hand, ctx.mimics, ctx.boss, base)
        else:
            v = 2.2  # a random tile plus a fresh goal card
        if v > best[0]:
            best = (v, a)
    return best[1]


def _architect(ctx: Ctx, legal: list[Any], base: float) -> tuple[float, Any] | None:
    """The best Architect use whose result is a legal dungeon, with its gain net of
    the token(s) it spends (worth little once the game is about to end)."""
    # A token left at the end scores nothing: worth little near the end, nothing in the last round.
    token = 0.0 if ctx.view["hourglasses"] >= 3 else 0.3 if ctx.late else 2.0
    turns = [a for a in legal if a["a"] == "arch" and a["from"] == a["to"]]
    moves = [a for a in legal if a["a"] == "swap" or (a["a"] == "arch" and a["from"] != a["to"])]
    if len(moves) > ARCH_SAMPLE:
        moves = ctx.rnd.sample(moves, ARCH_SAMPLE)  # its own randomness: the game's RNG is untouched
    quick = []
    for a in turns + moves:
        g = A.apply_use(ctx.grid, a)
        if R.dungeon_problem(g) is None:
            quick.append((ctx.value(g, full=False), a, g))
        elif ctx.pending:
            # Disconnect and fill: judge the move by the dungeon a new tile mends it into.
            mended = _mended(ctx, g)
            if mended is not None:
                quick.append((ctx.value(mended, full=False), a, mended))
    quick.sort(key=lambda t: -t[0])
    best: tuple[float, Any] | None = None
    for _, a, g in quick[:ARCH_TOP]:
        cost = token * (2 if a["a"] == "swap" else 1)
        gain = ctx.value(g) - base - cost
        if best is None or gain > best[0]:
            best = (gain, a)
    return best


def _mended(ctx: Ctx, grid: R.Grid) -> R.Grid | None:
    """The best dungeon one new tile makes legal again after a disconnecting move."""
    best: tuple[float, R.Grid] | None = None
    for t in dict.fromkeys(ctx.pending):
        for side, pos, rot in R.repairs(grid, t):
            g = dict(grid)
            g[pos] = R.make_cell(t, side, rot)
            v = ctx.value(g, full=False)
            if best is None or v > best[0]:
                best = (v, g)
    return best[1] if best else None


def _mend(ctx: Ctx, legal: list[Any]) -> Any:
    """Mid-Architect, the dungeon broken: the offered placement that values best."""
    best: tuple[float, Any] | None = None
    for a in legal:
        if a["a"] == "place":
            at = R.parse_coord(a["at"])
            assert at is not None
            g = dict(ctx.grid)
            g[at] = R.make_cell(a["tile"], a["side"], a["rot"])
            v = ctx.value(g, full=False)
            if best is None or v > best[0]:
                best = (v, a)
    if best is not None:
        return best[1]
    return next((a for a in legal if a["a"] == "reset"), legal[0])


def _best_placement(ctx: Ctx, legal: list[Any], base: float) -> tuple[float, Any] | None:
    """The best placement of a new or stored tile. A stored tile may find a better
    home later, until the end is near: then storage scores nothing, so empty it."""
    best: tuple[float, Any] | None = None
    for tile in dict.fromkeys(a["tile"] for a in legal if a["a"] == "place"):
        for v, act in best_placements(ctx.grid, tile, ctx.hand, ctx.mimics, ctx.boss)[:1]:
            gain = v - base
            if tile not in ctx.pending and not ctx.late:
                gain -= 1.0
            if best is None or gain > best[0]:
                best = (gain, act)
    return best


def _build(ctx: Ctx, legal: list[Any], base: float) -> Any:
    if ctx.view["relaxed"] and R.dungeon_problem(ctx.grid) is not None:
        return _mend(ctx, legal)
    place = _best_placement(ctx, legal, base)
    arch = _architect(ctx, legal, base) if ctx.architects else None
    if arch is not None and arch[0] > 0 and (place is None or arch[0] > place[0]):
        return arch[1]
    stores = [a for a in legal if a["a"] == "store"]
    if place is not None:
        new = place[1]["tile"] in ctx.pending
        if place[0] > 0.5 or (new and not stores) or (not new and ctx.late and place[0] >= 0):
            return place[1]
    if stores:
        return stores[0]
    if place is not None and ctx.pending:
        return place[1]
    if any(a["a"] == "score" for a in legal):
        return _score(ctx, legal)  # revision 3: the build may end by scoring
    for kind in ("box", "done", "reset"):
        for a in legal:
            if a["a"] == kind:
                return a
    return legal[0]


def choose(view: dict[str, Any], legal: list[Any], rnd: random.Random) -> Any:
    """The contract's AI hook: the seat's view, its legal moves, its own randomness."""
    if len(legal) == 1:
        return legal[0]
    ctx = Ctx(view, rnd)
    phase = view["phase"]
    if phase in ("keep", "exchange_discard"):
        return _discard(ctx, legal, 2 if phase == "keep" else 1)
    if phase == "score":
        return _score(ctx, legal)
    if phase in ("refill", "exchange_draw"):
        return _draw(ctx, legal)
    base = ctx.value(ctx.grid)
    if phase == "draft":
        return _draft(ctx, legal, base)
    if phase == "burrow":
        vals = [
            (_tile_value(ctx.grid, a["tile"], ctx.hand, ctx.mimics, ctx.boss, base), i)
            for i, a in enumerate(legal)
        ]
        return legal[max(vals)[1]]
    return _build(ctx, legal, base)


# ---- the searching player's hooks (issue 30; engine/search.py) ----------------------

# How many points of lead make a position a near-sure win: the logistic's scale.
LEAD_SCALE = 8.0
# A goal in hand counts this share of its points when met now (it is scored at the next
# Score step unless an Architect breaks it first), and this share of its progress else.
MET_SHARE = 0.9
# Tiles in both bags at the start (50 each): the game's clock for what is still to come.
BAG_TILES = 100
# Worth of growth room, a stored tile and an Architect token while the game has long to go.
GROWTH = 0.7
STORED = 1.5
TOKEN = 2.0
# Moves played by the heuristic player after the tree: about one turn of each seat, so
# the evaluation sees the dungeons the current drafts lead to.
SEARCH = {
    "rollout_moves": 6,
    "exploration": 0.5,
    "depth": 1,
    "walk_moves": 60,
    "iterations": 75,
    # Hard: every root move played on the same samples, each judged at the start of the
    # seat's next turn (its own turn finished and the other seats' replies played).
    "hard": {"method": "playouts", "horizon": "turn"},
}


ROLLOUT_PLACEMENTS = 16  # placements of a tile the rollout judges (at random among the legal ones)


def _quick_best(
    grid: R.Grid, tile: Any, hand: list[str], mimics: int, boss: list[str], rnd: random.Random
) -> tuple[float, dict[str, Any]] | None:
    """The best of a few legal placements of ``tile`` by the quick pass of
    ``best_placements`` (no shape re-scoring): the rollout's cheap judgement."""
    best: tuple[float, dict[str, Any]] | None = None
    spots = R.legal_placements(grid, tile)
    if len(spots) > ROLLOUT_PLACEMENTS:
        spots = rnd.sample(spots, ROLLOUT_PLACEMENTS)
    if not spots:
        return None
    base = R.summarise(grid)
    open_now = R.open_passages(grid)
    known = {gid: R.goal_cost(base, gid) for gid in hand}
    for side, pos, rot in spots:
        g = dict(grid)
        cell = g[pos] = R.make_cell(tile, side, rot)
        near = [q for q in [pos] + [R.step(pos, d) for d in range(4)] if q in g and g[q]["kind"] == "dungeon"]
        summary = R.resummarise(g, base, pos)
        v = dungeon_value(
            g, hand, mimics, boss, False, summary, R.open_after(g, pos, cell, open_now), known, near
        )
        if best is None or v > best[0]:
            best = (v, {"a": "place", "tile": tile, "side": side, "at": R.coord(pos), "rot": rot})
    return best


def _quick_tile(grid: R.Grid, floors: Counter[str], tile: Any) -> float:
    """A draft's worth without trying its placements: its helper, a star, and what its
    floor adds to the colour scores; a tile that fits nowhere is worth little."""
    if not R.has_placement(grid, tile):
        return -1.0
    spec = R.TILES[tile]
    v = ASSISTANT_VALUE[spec["assistant"]]
    floor = spec["floor"]
    if floor == "star":
        v += 3.0
    elif R.is_colour(floor):
        v += 2.0 if floors[floor] == 0 else 1.0 + 0.5 * (floors[floor] == max(floors.values()))
    return v


def rollout(state: dict[str, Any], seat: int, rnd: random.Random) -> Any:
    """The move search plays outside its tree (other seats, and after the tree): the
    heuristic player's choices by its quick pass only, with no Arcane Architect, on
    the sampled state itself (no view is built). Mid-Architect, the heuristic player
    mends the dungeon."""
    from engine import core

    game: Any = core.get("dungeon-decorators")
    phase = state["phase"]
    p = state["players"][seat]
    if phase == "build" and state["relaxed"]:
        return choose(game.view(state, seat), game.legal_actions(state, seat), rnd)
    if phase in ("keep", "exchange_discard"):
        summary = R.summarise(R.to_grid(p["dungeon"]))
        k = 2 if phase == "keep" else 1
        worst = set(sorted(p["hand"], key=lambda g: _goal_keep_value(g, summary))[:k])
        return {"a": "discard", "cards": [g for g in p["hand"] if g in worst]}
    if phase in ("refill", "exchange_draw"):
        ready = [d for d in "SD" if state["decks"][d] or state["discards"][d]]
        want = "S" if sum(1 for g in p["hand"] if g.startswith("S")) < 2 else "D"
        return {"a": "draw", "deck": want if want in ready else ready[0]}
    if phase == "score":
        met = game._scorable(state, seat)
        if not met:
            return {"a": "done"}
        met.sort(key=lambda gc: (gc[1], -R.GOALS[gc[0]]["points"]))
        return {"a": "score", "goal": met[0][0]}
    grid = R.to_grid(p["dungeon"])
    hand, mimics, boss = p["hand"], p["tokens"]["mimic"], state["boss"]
    if phase in ("draft", "burrow"):
        floors = Counter(
            c["floor"] for c in grid.values() if c["kind"] == "dungeon" and R.is_colour(c["floor"])
        )
        tiles = [t for t in state["board"] if t is not None] if phase == "draft" else state["burrow"]
        best: tuple[float, Any] = (2.2 if phase == "draft" and game._exchange_open(state) else -1e9, None)
        for t in tiles:
            v = _quick_tile(grid, floors, t) + rnd.random()
            if v > best[0]:
                best = (v, t)
        if best[1] is None:
            return {"a": "exchange"}
        return {"a": "draft" if phase == "draft" else "keep", "tile": best[1]}
    # build
    if p["pending"]:
        t = p["pending"][0]["t"]
        placed = _quick_best(grid, t, hand, mimics, boss, rnd)
        if placed is not None:
            return placed[1]
        if len(p["storage"]) < 2:
            return {"a": "store", "tile": t}
        # Not a tile stored this Build Phase: "placed ... on any of your later Build Phases".
        usable = game._old_storage(state, seat)
        for s in usable:
            placed = _quick_best(grid, s, hand, mimics, boss, rnd)
            if placed is not None:
                return placed[1]
        if game._forced_discard(state, seat):
            return {"a": "box", "tile": t}
        # Another new tile fits, or the dungeon must be mended first: the quick pass
        # above does not know; the heuristic player's full choice does.
        return choose(game.view(state, seat), game.legal_actions(state, seat), rnd)
    usable = game._old_storage(state, seat)
    if usable and _late_state(state):
        for s in usable:
            placed = _quick_best(grid, s, hand, mimics, boss, rnd)
            if placed is not None:
                return placed[1]
    met = game._scorable(state, seat)
    if met and game.rules_revision(state) >= 3:
        return {"a": "score", "goal": min(met, key=lambda gc: (gc[1], -R.GOALS[gc[0]]["points"]))[0]}
    return {"a": "done"}


def _late_state(state: dict[str, Any]) -> bool:
    bags = len(state["blue"]) + len(state["red"])
    return bool(state["hourglasses"] >= 2 or bags <= 4 * state["seats"])


def _left(state: dict[str, Any]) -> float:
    """The share of the game still to come, by the tiles left in the bags."""
    bags = len(state["blue"]) + len(state["red"])
    return min(1.0, bags / BAG_TILES) if state["hourglasses"] < 3 else 0.0


def projected_scores(state: dict[str, Any], seat: int | None = None) -> list[float]:
    """Every player's score if the game ended now (the rulebook's final scoring, the
    bosses judged between the players), plus the goals in hand (met ones nearly in
    full, the others by how likely they still are, which fades as the bags empty) and
    the room a dungeon has to grow, by the same share. Shape progress, the costly
    part, is judged for ``seat`` only; the others' unmet shapes by their size."""
    from engine import core

    final = core.get("dungeon-decorators")._final_scores(state)  # type: ignore[attr-defined]
    left = _left(state)
    out = []
    for i, (p, b) in enumerate(zip(state["players"], final["breakdown"], strict=True)):
        total = float(sum(b.values()))
        grid = R.to_grid(p["dungeon"])
        summary = R.summarise(grid)
        pool = R.hallway_pool(summary)
        mimics = p["tokens"]["mimic"]
        for gid in p["hand"]:
            goal = R.GOALS[gid]
            cost = R.goal_cost(summary, gid, None, pool)
            if cost is not None and cost <= mimics:
                total += MET_SHARE * goal["points"]
            elif left > 0:
                if goal["kind"] == "decoration":
                    total += left * _goal_keep_value(gid, summary)
                elif i == seat:
                    total += left * _goal_keep_value(gid, summary)
                else:
                    total += left * goal["points"] / (1 + 0.3 * len(goal["cells"]))
        growth = GROWTH * min(R.open_passages(grid), 6) + 0.15 * sum(
            s["free_walls"] for s in summary.values()
        )
        total += left * (growth + STORED * len(p["storage"]) + TOKEN * p["tokens"]["architect"])
        out.append(total)
    return out


def evaluate(state: dict[str, Any], seat: int) -> float:
    """From 0 to 1, how likely ``seat`` wins from a sampled position: a logistic of its
    projected score's lead over the best other player."""
    scores = projected_scores(state, seat)
    lead = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
    return 1.0 / (1.0 + math.exp(-lead / LEAD_SCALE))


def match_stats(state: dict[str, Any], seat: int, log: list[tuple[int, Any]]) -> dict[str, float]:
    """The figures bench/ai.py reports per level: tiles left in storage at the end,
    Arcane Architect uses (moves, turns, swaps; a use that disconnects the dungeon and
    is then filled counts as one use), goal cards scored."""
    p = state["players"][seat]
    arch = sum(1 for s, a in log if s == seat and isinstance(a, dict) and a.get("a") in ("arch", "swap"))
    return {"stored": float(len(p["storage"])), "architect": float(arch), "goals": float(len(p["scored"]))}


CANDIDATE_PLACEMENTS = 6  # best placements of each tile kept by ``candidates``
CANDIDATE_ARCHITECT = 3  # best Architect uses kept


def candidates(view: dict[str, Any], legal: list[Any], rnd: random.Random) -> list[Any]:
    """The moves worth searching in a build, best first by the heuristic's quick pass:
    the heuristic player's own choice, the best few placements of each tile, the best
    few Architect uses, and every other move (store, box, score, done, reset). A build
    offers a median of 56 moves (up to several hundred), more than a 0.5 s search
    tries once, so search expands only these (``search_moves``)."""
    if view["phase"] != "build" or len(legal) <= CANDIDATE_PLACEMENTS * 2:
        return legal
    ctx = Ctx(view, rnd)
    if view["relaxed"] and R.dungeon_problem(ctx.grid) is not None:
        return legal
    keep: list[Any] = [choose(view, legal, random.Random(rnd.random()))]
    for tile in dict.fromkeys(a["tile"] for a in legal if a["a"] == "place"):
        for _, act in best_placements(
            ctx.grid, tile, ctx.hand, ctx.mimics, ctx.boss, prune=CANDIDATE_PLACEMENTS
        ):
            keep.append(act)
    uses: list[tuple[float, int, Any]] = []
    for a in legal:
        if a["a"] in ("arch", "swap"):
            g = A.apply_use(ctx.grid, a)
            if R.dungeon_problem(g) is None:
                uses.append((ctx.value(g, full=False), len(uses), a))
    keep += [a for _, _, a in sorted(uses, key=lambda t: (-t[0], t[1]))[:CANDIDATE_ARCHITECT]]
    keep += [a for a in legal if a["a"] not in ("place", "arch", "swap")]
    out: list[Any] = []
    for a in keep:
        if a in legal and a not in out:
            out.append(a)
    return out


# The root of a search (Game.search_moves): a build searches the heuristic's candidates.
search_moves = candidates
