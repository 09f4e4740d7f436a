"""The searching computer player, the same code for every game (issue 30).

Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012,
"single observer" ISMCTS): every iteration deals a complete state consistent with
what the searching seat has seen (``Game.sample(view, rnd)``, a *determinization*),
walks one shared tree over the searching seat's own decisions, lets every other
seat move by the game's heuristic player (the "easy" player), plays on for a few
moves by the rollout policy, then scores the position from the searching seat's
side (``Game.evaluate``: 1 a sure win, 0 a sure loss). Children are chosen by UCB1
with availability counts, since a move of the tree may not be legal in every
determinization.

The searcher only ever receives ``(view, legal, rnd)``, like the heuristic player:
it cannot read the real state, and neither can anything it calls, because the
states it plays on are samples dealt from the view.

Strengths (``LEVELS``): easy is the game's heuristic player; normal and hard search
until the game's iteration budget (``SEARCH["iterations"]``, four times it for hard)
or the level's time budget (0.5 s and 2 s a decision) ends, whichever comes first;
a search ends within its time budget, not a step after it (engine/timekeeping.py).
Measured matches (``python -m bench.ai``) fix the iteration budget and no time
budget, so a seed replays the same match on any machine.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from . import timekeeping
from .timekeeping import Steps

if TYPE_CHECKING:  # pragma: no cover
    from .core import Action, Game, Seat, State


@dataclass(frozen=True)
class Level:
    """One strength a host may choose for a computer player."""

    key: str  # "easy", "normal", "hard"
    name: str  # what players read: "Easy"
    seconds: float  # time budget a decision (0: no search)
    scale: int  # iteration budget a decision: this many times the game's ``iterations``
    blurb: str  # what the lobby and /settings say of it


LEVELS: dict[str, Level] = {
    "easy": Level("easy", "Easy", 0.0, 0, "plays by rules of thumb, at once"),
    "normal": Level("normal", "Normal", 0.5, 1, "thinks about half a second a move"),
    "hard": Level("hard", "Hard", 2.0, 4, "thinks about two seconds a move"),
}
DEFAULT_LEVEL = "normal"


def level(key: str | None) -> Level:
    """The level for ``key``; an unknown or missing key is the default level."""
    return LEVELS.get(key or DEFAULT_LEVEL, LEVELS[DEFAULT_LEVEL])


def action_key(action: Action) -> str:
    """A hashable, stable name for a move (moves are strings or small dicts)."""
    if isinstance(action, str):
        return action
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


class Node:
    __slots__ = ("action", "avail", "children", "visits", "wins")

    def __init__(self, action: Action = None) -> None:
        self.action = action
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.wins = 0.0
        self.avail = 0


@dataclass
class Params:
    """How a game wants to be searched (``SEARCH`` in ``engine/<game>/ai.py``)."""

    # Moves played by the rollout policy after the tree before the position is scored.
    rollout_moves: int = 30
    # UCB1 exploration constant (values are in [0, 1]).
    exploration: float = 0.7
    # The tree grows over at most this many of the searching seat's own decisions.
    depth: int = 12
    # Moves a single tree walk may play in all (own and others'), so a walk always ends.
    walk_moves: int = 400
    # Normal's iteration budget a decision (hard: four times it), the budget its strength
    # was measured at (docs/ai.md); the level's time budget stops a search earlier on a
    # slow or busy machine, so a decision never takes longer than the level says.
    iterations: int = 200
    # False while a game's searching player measures weaker than its heuristic player
    # (docs/ai.md): every level then plays the heuristic, never a weaker "normal".
    searching: bool = True
    # "tree": the ISMCTS below. "playouts": every root move is played on the same sampled
    # states, each played on by the rollout policy as far as ``horizon`` says and scored
    # (:func:`playouts`), for a game whose moves differ by less than its samples do.
    method: str = "tree"
    # With "playouts": standard errors by which a move's mean gain over the game's own choice
    # (the first root move) must exceed zero to replace it (0: the best mean wins).
    confidence: float = 0.0
    # With "playouts": "end" plays every sample to the end of the game; "mine" stops when the
    # seat is to move again and scores the position with ``Game.evaluate`` (a short horizon,
    # so the moves compared on one sample differ only by what they changed); "turn" stops when
    # the seat is to move again after another seat has moved: at the start of its next turn,
    # the rest of its own turn and the others' replies played (a game whose turn is several
    # of the seat's moves, so "mine" would score it mid-turn, and a fixed number of moves
    # would catch the others at a different point of their turn after different moves).
    horizon: str = "end"
    # "policy": the other seats move by the rollout policy (the heuristic player), so the tree
    # is a best answer to it. "tree": their moves are nodes of the tree too, each chosen by
    # UCB1 from that seat's own side (on the sample, so they play as if they saw it), which
    # models opponents who search.
    others: str = "policy"
    # How many times its usual number of moves a game's ``search_moves`` keeps at the root
    # (a hard player's larger budget can compare more of them).
    wide: float = 1.0
    # Full playouts a game's ``search_moves`` may play to decide a move by itself before the
    # search (0: none; passed on as ``settle=`` with the search's deadline): for a decision
    # whose worth shows only at the end of the game, which the search's horizon cannot see
    # (Dungeon Drawers' hard: its path and its fights).
    settle: int = 0
    # Fields a hard player changes (e.g. {"others": "tree"}): what four times the budget buys
    # best in this game.
    hard: dict[str, Any] = field(default_factory=dict)


@dataclass
class Report:
    """What a search did (for the benchmark and the logs; no move's secrets)."""

    iterations: int = 0
    seconds: float = 0.0
    visits: int = 0  # visits of the chosen move
    # Every searched root move as (move, playouts, summed value), the chosen move first,
    # then best first as the search ranks them: what a hint shows (tables/hints.py).
    moves: list[tuple[Action, int, float]] = field(default_factory=list)


def search(
    game: Game,
    view: dict[str, Any],
    legal: list[Action],
    rnd: random.Random,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    report: Report | None = None,
    params: Params | None = None,
) -> Action:
    """The move the searching seat (``view["viewer"]``) makes, among ``legal``.
    ``params``: the game's ``search_params()`` when the caller already has them."""
    if len(legal) == 1:
        return legal[0]
    me: Seat = view["viewer"]
    params = params or game.search_params()
    start = timekeeping.clock()
    deadline = start + seconds if seconds else None
    budget = iterations if iterations else (10**9 if deadline else 200)
    searched = game.search_moves(view, legal, rnd, wide=params.wide, settle=params.settle, deadline=deadline)
    legal_keys = {action_key(a): a for a in searched or legal}
    if len(legal_keys) == 1:  # the game narrowed the choice to one move: nothing to search
        return next(iter(legal_keys.values()))
    if params.method == "playouts":
        return playouts(game, view, list(legal_keys.values()), rnd, params, budget, deadline, start, report)
    root = Node()
    steps = Steps(deadline)
    while steps.done < budget and steps.another():
        state = game.sample(view, rnd)
        _iterate(game, state, me, root, legal_keys, params, rnd)
        steps.took()
    done = steps.done
    best_key = max(
        (k for k in root.children if k in legal_keys),
        key=lambda k: (root.children[k].visits, root.children[k].wins),
        default=None,
    )
    if report is not None:
        report.iterations = done
        report.seconds = timekeeping.clock() - start
        report.visits = root.children[best_key].visits if best_key else 0
        ranked = sorted(
            (k for k in root.children if k in legal_keys),
            key=lambda k: (root.children[k].visits, root.children[k].wins),
            reverse=True,
        )
        report.moves = [(legal_keys[k], root.children[k].visits, root.children[k].wins) for k in ranked]
    if best_key is None:  # nothing searched (a zero budget): the heuristic decides
        return game.ai_choose(view, legal, rnd)
    return legal_keys[best_key]


def _iterate(
    game: Game,
    state: State,
    me: Seat,
    root: Node,
    legal_keys: dict[str, Action],
    params: Params,
    rnd: random.Random,
) -> None:
    # path: the nodes walked and the seat whose move led to each (its value is that seat's).
    node, path, depth, moves = root, [(root, me)], 0, 0
    expanded = False
    while not game.is_over(state) and moves < params.walk_moves:
        acting = game.to_act(state)
        seat = me if me in acting else min(acting)
        if seat != me and (params.others != "tree" or expanded or depth >= params.depth):
            game.play(state, seat, game.rollout_action(state, seat, rnd))
            moves += 1
            continue
        if expanded or depth >= params.depth:
            break
        if node is root:
            options = legal_keys  # the real legal moves, whatever the sample says
        else:
            options = {action_key(a): a for a in game.legal_actions(state, seat)}
        # another seat's moves are kept apart from the searching seat's under the same node
        tag = "" if seat == me else f"{seat}|"
        child, expanded = _select(node, options, tag, params.exploration, rnd)
        game.play(state, seat, child.action)
        moves += 1
        node = child
        path.append((node, seat))
        depth += 1
    values = _rollout(game, state, me, {s for _, s in path}, params, rnd)
    for n, s in path:
        n.visits += 1
        n.wins += values[s]


def _select(
    node: Node, options: dict[str, Action], tag: str, c: float, rnd: random.Random
) -> tuple[Node, bool]:
    """The child of ``node`` to walk among ``options`` (keys prefixed by ``tag``): an untried
    move at random (expanded: True), else by UCB1 with availability counts."""
    for k in options:
        child = node.children.get(tag + k)
        if child is not None:
            child.avail += 1
    untried = [k for k in options if tag + k not in node.children]
    if untried:
        k = untried[rnd.randrange(len(untried))]
        child = node.children[tag + k] = Node(options[k])
        child.avail = 1
        return child, True
    kids = [node.children[tag + k] for k in options]
    best = max(kids, key=lambda n: n.wins / n.visits + c * math.sqrt(math.log(max(1, n.avail)) / n.visits))
    return best, False


def _rollout(
    game: Game, state: State, me: Seat, seats: set[Seat], params: Params, rnd: random.Random
) -> dict[Seat, float]:
    """Plays ``params.rollout_moves`` moves by the rollout policy, then scores the position
    for every seat in ``seats``."""
    for _ in range(params.rollout_moves):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        game.play(state, seat, game.rollout_action(state, seat, rnd))
    return {s: game.evaluate(state, s) for s in seats}


def playouts(
    game: Game,
    view: dict[str, Any],
    moves: list[Action],
    rnd: random.Random,
    params: Params,
    budget: int,
    deadline: float | None,
    start: float,
    report: Report | None,
) -> Action:
    """Rollout policy improvement with common random numbers: round after round, one sample
    seed deals the same state for every move in ``moves``, the move is played, and the game is
    played on by the rollout policy with the same randomness (to the end, to the seat's next
    decision, or to the start of its next turn: ``params.horizon``) and scored; the first move
    (a game lists its heuristic's choice first) is kept unless another gains enough
    (:func:`_best_paired`). ``budget`` counts playouts; a round is never cut short, so every
    move has as many samples: the deadline is kept by rounds (:class:`Steps`)."""
    me: Seat = view["viewer"]
    values: list[list[float]] = [[] for _ in moves]
    done = 0
    rounds = Steps(deadline)
    while done + len(moves) <= max(budget, len(moves)) and rounds.another():
        seed = rnd.getrandbits(64)
        for i, move in enumerate(moves):
            state = game.sample(view, random.Random(seed))
            game.play(state, me, move)
            values[i].append(_play_out(game, state, me, params, random.Random(seed + 1)))
        done += len(moves)
        rounds.took()
    best = _best_paired(values, params.confidence)
    if report is not None:
        report.iterations = done
        report.seconds = timekeeping.clock() - start
        report.visits = rounds.done
        others = sorted((i for i in range(len(moves)) if i != best), key=lambda i: -sum(values[i]))
        report.moves = [(moves[i], len(values[i]), sum(values[i])) for i in (best, *others)]
    return moves[best]


def _best_paired(values: list[list[float]], confidence: float) -> int:
    """The move with the best mean value, measured against the first move (the game's own
    choice) sample by sample; another move replaces the first only if its mean gain exceeds
    ``confidence`` standard errors of that gain, so noise alone does not move search off a
    good heuristic."""
    base = values[0]
    best, best_gain = 0, 0.0
    for i in range(1, len(values)):
        gains = [v - b for v, b in zip(values[i], base, strict=True)]
        n = len(gains)
        mean = sum(gains) / n
        spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n) if n > 1 else 0.0
        if mean > best_gain and mean > confidence * spread:
            best, best_gain = i, mean
    return best


def _play_out(game: Game, state: State, me: Seat, params: Params, rnd: random.Random) -> float:
    others = False  # another seat has moved (horizon "turn")
    for _ in range(params.walk_moves):
        if game.is_over(state):
            break
        acting = game.to_act(state)
        if me in acting and (params.horizon == "mine" or (params.horizon == "turn" and others)):
            return game.evaluate(state, me)
        seat = min(acting)
        others = others or seat != me
        game.play(state, seat, game.rollout_action(state, seat, rnd))
    return game.evaluate(state, me)


def terminal_value(game: Game, state: State, me: Seat) -> float:
    """1 for a sole win, a share of 1 for a shared win, 0 otherwise."""
    winners = game.result(state).winners
    return 1.0 / len(winners) if me in winners else 0.0


def level_params(game: Game, level_key: str) -> Params:
    """The game's search settings for a level: hard's with ``SEARCH["hard"]`` applied."""
    params: Params = game.search_params()
    return replace(params, **params.hard) if level_key == "hard" and params.hard else params


def level_budget(params: Params, level_key: str) -> int:
    """The playouts or iterations a decision of the level may spend: the level's scale times
    ``iterations`` of its settings (``level_params``), the budget its strength is measured at."""
    return params.iterations * level(level_key).scale


def choose(
    game: Game,
    view: dict[str, Any],
    legal: list[Action],
    rnd: random.Random,
    level_key: str | None,
    *,
    iterations: int | None = None,
    report: Report | None = None,
    force_search: bool = False,
) -> Action:
    """The move of a computer player of strength ``level_key``. ``iterations`` (for
    measured matches) replaces the level's budgets by a fixed iteration count;
    ``force_search`` searches even a game whose search is off (to measure it)."""
    lv = level(level_key)
    params = level_params(game, lv.key)  # read once a decision: a game builds them from its ai module
    if lv.key == "easy" or len(legal) == 1 or not (force_search or params.searching):
        return game.ai_choose(view, legal, rnd)
    if iterations is not None:
        return search(game, view, legal, rnd, iterations=iterations, report=report, params=params)
    return search(
        game,
        view,
        legal,
        rnd,
        seconds=lv.seconds,
        iterations=level_budget(params, lv.key),
        report=report,
        params=params,
    )
