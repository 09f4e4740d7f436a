"""The engine contract every game implements, and the helpers games share.

A game is a subclass of :class:`Game`. State is a plain JSON-able ``dict``; the
seeded RNG lives inside it (``state["rng"]``), so ``seed + action log`` always
replays to the same state. Nothing here does I/O, asyncio, discord or Pillow.

Seats are ints ``0..n-1`` in table order (clockwise). The tables layer maps
seats to Discord users; the engine never sees a user.

An *action* is any JSON-able value the game chooses (usually a small dict).
``format(action)`` gives its short typeable notation and ``parse(text)`` reads
it back: ``parse(format(a)) == a`` for every legal action. The action log
stores the notation.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import marshal
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

State = dict[str, Any]
Action = Any
Seat = int


DATA_ROOT = Path(__file__).resolve().parents[1] / "data"


class DataError(ValueError):
    """Component data under ``data/<game>/`` is missing or inconsistent.

    Raised at start-up by a game's ``data.py`` (through :func:`load_data`), so a
    broken data file stops the bot with one sentence instead of a wrong game."""


def load_data(game_key: str, name: str, check: Callable[[Any], None] | None = None) -> Any:
    """Read ``data/<game_key>/<name>`` (JSON) and run ``check`` on it.

    ``check`` raises :class:`DataError` (or ``AssertionError``/``KeyError``/
    ``TypeError``/``ValueError``, which are turned into one) naming what is wrong.
    Every game's ``data.py`` loads its files through this one function."""
    path = DATA_ROOT / game_key / name
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: cannot be read ({exc}).") from None
    if check is not None:
        try:
            check(doc)
        except DataError:
            raise
        except (AssertionError, KeyError, TypeError, ValueError, IndexError) as exc:
            raise DataError(f"{path}: {exc or type(exc).__name__}") from None
    return doc


# ---- seats in texts -------------------------------------------------------------
#
# Every engine text (events, status, private text, IllegalAction sentences,
# describe labels, view strings) names a seat with seat_ref(seat), always
# "Player N" (1-based). The tables layer swaps each one for the player's Discord
# display name with name_seats(); nothing else may spell a seat.

SEAT_REF = re.compile(r"\bPlayer ([1-9])\b")


def seat_ref(seat: Seat) -> str:
    """The one way an engine text names a seat."""
    return f"Player {seat + 1}"


def name_seats(text: str, names: list[str]) -> str:
    """``text`` with every :func:`seat_ref` replaced by ``names[seat]``."""

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(1)) - 1
        return names[k] if 0 <= k < len(names) else m.group(0)

    return SEAT_REF.sub(sub, text)


# What a chooser says when a reply's tokens lead nowhere (the moves changed since).
STALE_CHOICE = "That choice is no longer open; open your moves again."


class IllegalAction(Exception):
    """A move the rules refuse. ``str(exc)`` is one sentence a player understands.

    It must never contain hidden information of another seat.
    """

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


@dataclass(frozen=True)
class Event:
    """Something that happened during ``apply``.

    ``seat is None``: public, safe to post in the game's thread.
    ``seat == k``: private to seat ``k`` (shown ephemerally / by DM only).
    """

    text: str
    seat: Seat | None = None


@dataclass(frozen=True)
class Option:
    """One game option (a rulebook variant) offered at ``/game new``."""

    default: Any
    help: str
    choices: tuple[Any, ...] = (True, False)


@dataclass
class Result:
    """Final result. ``scores[seat]``; ``ranking`` is a list of seat groups,
    best first (a group of several seats is a shared place after every
    tie-break); ``breakdown[seat]`` maps a category name to its points."""

    scores: list[int]
    ranking: list[list[Seat]]
    breakdown: list[dict[str, int]] = field(default_factory=list)
    tiebreak: list[int] | None = None  # the value used for the first tie-break, per seat

    @property
    def winners(self) -> list[Seat]:
        return list(self.ranking[0]) if self.ranking else []

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "ranking": self.ranking,
            "breakdown": self.breakdown,
            "tiebreak": self.tiebreak,
            "winners": self.winners,
        }


@dataclass
class Choice:
    """One step of the move chooser (``Game.chooser``): the private reply shows
    ``options`` as a select menu or buttons and, when ``action`` is set, a Done
    button that makes that move. The path of tokens chosen so far is the prefix;
    tables keeps it (it never saves a move before Done)."""

    prompt: str  # e.g. "Choose the tile to place." (may use seat_ref)
    options: list[tuple[str, str]]  # (token, label); tokens are short, labels <= 80 chars
    action: Action | None = None  # the prefix already names this complete move
    # Data the renderer's optional preview() draws after each step (e.g. a hero
    # path so far). Derived from the acting seat's own view only.
    preview: dict[str, Any] | None = None
    # token -> a line under the option in the select menu (<= 100 characters): what
    # the choice costs and gives, so the label itself can stay short (issue 28).
    descriptions: dict[str, str] | None = None


def rank(scores: list[int], *tiebreaks: list[int]) -> list[list[Seat]]:
    """Seats grouped by (score, tiebreak...) descending; equal keys share a place."""
    keys = {s: (scores[s], *(t[s] for t in tiebreaks)) for s in range(len(scores))}
    groups: list[list[Seat]] = []
    for s in sorted(keys, key=lambda s: keys[s], reverse=True):
        if groups and keys[groups[-1][0]] == keys[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    return groups


class Rng:
    """Deterministic randomness stored in the state.

    Each call derives a fresh ``random.Random`` from ``(seed, counter)`` and bumps
    the counter, so the state stays small and JSON-able and any replay of the same
    actions draws the same numbers.
    """

    def __init__(self, state: State) -> None:
        self._r = state["rng"]

    def _next(self) -> random.Random:
        self._r["n"] += 1
        return random.Random(f"{self._r['seed']}:{self._r['n']}")

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def randint(self, a: int, b: int) -> int:
        return self._next().randint(a, b)

    def choice(self, items: list[Any] | tuple[Any, ...]) -> Any:
        return self._next().choice(items)

    def dice(self, n: int, sides: int = 6) -> list[int]:
        r = self._next()
        return [r.randint(1, sides) for _ in range(n)]

    def random(self) -> float:
        return self._next().random()


def new_rng(seed: int) -> dict[str, int]:
    return {"seed": int(seed), "n": 0}


def copy_state(state: State) -> State:
    """A deep copy that also proves the state is plain JSON."""
    return json.loads(json.dumps(state))


def copy_plain_state(state: State) -> State:
    """A deep copy of a state already known to be plain JSON: ``marshal`` at version 2 keeps
    no shared references, so the copy is a tree like :func:`copy_state`'s, in a third to a
    half of the time."""
    return marshal.loads(marshal.dumps(state, 2))  # type: ignore[no-any-return]


class Game:
    """The protocol. Subclasses set the class attributes and implement the
    ``_``-prefixed hooks; the public methods add the checks every game shares."""

    key: ClassVar[str]  # e.g. "monster-inn"
    title: ClassVar[str]  # e.g. "Monster Inn"
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[dict[str, Option]] = {}
    # Shown by /rules and in the lobby: one or two sentences.
    blurb: ClassVar[str] = ""
    # True for a game whose states stay plain JSON after every move (tests/test_plain_copy.py
    # checks every such game): ``apply`` then copies with :func:`copy_plain_state`,
    # since the copy was most of a move's cost for search's policy (issue 30).
    plain_copy: ClassVar[bool] = False

    # ---- setup -----------------------------------------------------------
    def new(
        self, seats: int, options: dict[str, Any] | None = None, seed: int = 0, revision: int | None = None
    ) -> State:
        """A new game for ``seats`` players. ``options`` holds variant switches
        (validated against :attr:`options`) and, for tests only, ``setup``: a
        game-specific override that stacks decks and bags. ``revision`` is the rules
        revision the game is played under (default: this engine's newest); a replay
        of a stored game passes the revision the game was begun under."""
        if not self.min_players <= seats <= self.max_players:
            raise IllegalAction(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {seats}."
            )
        opts = self.resolve_options(options or {})
        state: State = {
            "game": self.key,
            "seats": seats,
            "options": {k: v for k, v in opts.items() if k != "setup"},
            "rng": new_rng(seed),
            "revision": self.revision if revision is None else self.check_revision(revision),
        }
        self._setup(state, opts.get("setup"))
        return state

    def resolve_options(self, options: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {k: o.default for k, o in self.options.items()}
        for k, v in options.items():
            if k == "setup":
                out[k] = v
                continue
            if k not in self.options:
                raise IllegalAction(f"{self.title} has no option called '{k}'.")
            # 1 == True in Python: a yes/no option takes only true or false.
            bools = all(isinstance(c, bool) for c in self.options[k].choices)
            if v not in self.options[k].choices or bools != isinstance(v, bool):
                allowed = ", ".join(str(c) for c in self.options[k].choices)
                raise IllegalAction(f"Option '{k}' must be one of: {allowed}.")
            out[k] = v
        return out

    def _setup(self, state: State, setup: Any) -> None:
        raise NotImplementedError

    # ---- rules revisions (docs/storage.md, "Changing a game's rules") ----------
    @property
    def revision(self) -> int:
        """This engine's newest rules revision: ``REVISION`` of engine/<game>/upgrade.py."""
        return int(self._upgrade_module().REVISION)

    def _upgrade_module(self) -> Any:
        package = type(self).__module__.rpartition(".")[0]
        try:
            return importlib.import_module(f"{package}.upgrade")
        except ModuleNotFoundError:  # a game outside engine/ (a test's stand-in game)
            return _NO_UPGRADES

    def check_revision(self, revision: int) -> int:
        if not FIRST_CARRIED_REVISION <= revision <= self.revision:
            raise IllegalAction(f"{self.title} has no rules revision {revision}.")
        return revision

    def rules_revision(self, state: State) -> int:
        """The revision whose rules are in force for ``state``. A rule changed in
        revision N is written ``if game.rules_revision(state) >= N: new rule``, so a
        stored game replays under the rules each of its moves was played with."""
        return rules_revision(state)

    def upgrade(self, state: State, frm: int | None = None, to: int | None = None) -> State:
        """``state`` carried from its revision (``frm`` where the state cannot say: a
        revision-1 state has no ``revision`` field) to ``to`` (default: this engine's
        newest), one step at a time, on a copy. A change to a game's rules, components, notation or state shape bumps
        ``REVISION`` in engine/<game>/upgrade.py and adds, for the new number n:
        ``STEPS[n](state) -> state``, which carries a state of revision n-1 to n from any
        point of a game (new fields, renamed squares); ``CHANGES[n]``, one or two
        sentences a player understands, told once in the thread of every game carried
        across it; and in the rules, ``if rules_revision(state) >= n`` around the changed
        rule, so a stored game replays every earlier move under the rules it was played
        with. Revision 1 is release f63664e (replayed on its frozen engine, legacy/r1)."""
        module = self._upgrade_module()
        start = self.rules_revision(state) if frm is None else frm
        new = copy_state(state)
        for n in range(start + 1, (self.revision if to is None else to) + 1):
            new = module.STEPS[n](new) if n in module.STEPS else new
            new["revision"] = n
        return new

    def changes(self, from_revision: int) -> list[str]:
        """What changed for the rest of a game carried from ``from_revision``, in
        sentences a player understands (``CHANGES[n]`` of upgrade.py)."""
        module = self._upgrade_module()
        return [module.CHANGES[n] for n in range(from_revision + 1, self.revision + 1) if n in module.CHANGES]

    # ---- turn structure ----------------------------------------------------
    def turn_id(self, state: State) -> str:
        """Which turn the game is in, as the table sees turns (docs/rules/<game>.md,
        "What a turn is"). The tables layer posts one board, pings and arms deadlines
        when it changes, and a deadline plays the seat's moves until it changes.
        A simultaneous phase is ONE turn id while its choices come in. Default: the
        seats to act; games whose seat plays two turns in a row, or whose seats
        choose at once, override it."""
        return ",".join(str(s) for s in sorted(self.to_act(state)))

    def to_act(self, state: State) -> set[Seat]:
        """Seats that may act now (several when choices are simultaneous)."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every legal action of ``seat`` now (empty if it may not act). Games with
        huge action spaces may return a representative, finite list that still
        contains at least one legal move and let ``apply`` validate anything else."""
        raise NotImplementedError

    def apply(self, state: State, seat: Seat, action: Action) -> tuple[State, list[Event]]:
        """Apply ``action`` for ``seat`` to a copy of ``state``. Raises
        :class:`IllegalAction` (and leaves ``state`` untouched) if refused."""
        if self.is_over(state):
            raise IllegalAction("The game is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("It is not your turn.")
        new = copy_plain_state(state) if self.plain_copy else copy_state(state)
        try:
            events = self._apply(new, seat, action)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # A malformed move object (a field missing, retyped or emptied) is the
            # sender's mistake, refused in one sentence; a legal move that raises
            # is the engine's bug and must surface.
            if action in self.legal_actions(state, seat):
                raise
            raise IllegalAction(f"That is not a move in {self.title}; pick one from the list.") from None
        return new, events

    def _apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        raise NotImplementedError

    def can_undo(self, before: State, after: State, seat: Seat, action: Action) -> bool:
        """Whether ``seat`` may take back ``action`` (the tables layer also checks
        that no other seat has acted since). Default: only if nothing random was
        drawn. Games whose moves can reveal hidden information without the RNG
        (turning a card face up, revealing secret orders) override this."""
        return bool(before["rng"]["n"] == after["rng"]["n"])

    # ---- notation ----------------------------------------------------------
    def parse(self, text: str) -> Action:
        """Read a typed move. Raises :class:`IllegalAction` with a sentence that
        shows the expected form when the text is not a move at all."""
        raise NotImplementedError

    def format(self, action: Action) -> str:
        raise NotImplementedError

    def public_format(self, state: State, seat: Seat, action: Action) -> str:
        """How the move appears in the public history (``/history``), given the
        state before it. Games whose moves carry a secret (a hidden coordinate, a
        secret order) override this to hide it. Default: the full notation."""
        return self.format(action)

    def may_play_for(self, state: State, seat: Seat, action: Action) -> bool:
        """Whether the bot may play ``action``, the seat's ONLY legal move, for it at
        once (issue 26: no click where nothing is left to choose). False where being
        the only move depends on what the seat hides, so that playing it unasked would
        tell the table something. Default: True (the tables layer also requires that
        the move reveals nothing, ``can_undo``)."""
        return True

    def pass_action(self, state: State, seat: Seat) -> Action | None:
        """The move that skips ``seat``'s turn where the rules allow a pass (used when
        a turn deadline passes with the 'skip' setting), or None if there is none."""
        return None

    # ---- the move chooser ---------------------------------------------------------
    def segments(self, state: State, seat: Seat, action: Action) -> list[tuple[str, str]]:
        """How the chooser narrows to ``action``: a list of (token, label) steps,
        e.g. [("t39", "Tile 39"), ("c4", "at C4"), ("r90", "turned 90°")].
        Default: one step, the whole move with its describe() label."""
        return [(self.format(action), self.describe(state, action))]

    def chooser(self, state: State, seat: Seat, prefix: list[str]) -> Choice:
        """The next step of the chooser after the tokens ``prefix``. Default:
        narrows the seat's legal actions by their :meth:`segments`. Games whose
        moves are built step by step (a path, a set of orders) override this.
        Raises :class:`IllegalAction` when ``prefix`` leads nowhere (a stale reply)."""
        return self.narrow(state, seat, self.legal_actions(state, seat), prefix, "Choose your move.")

    def narrow(
        self, state: State, seat: Seat, moves: Iterable[Action], prefix: list[str], prompt: str
    ) -> Choice:
        """The chooser step after ``prefix`` among ``moves``, narrowed by their
        :meth:`segments`: the next tokens on offer, and the move ``prefix`` completes
        if any. Overriding choosers call this for the moves they offer.
        Raises :class:`IllegalAction` when ``prefix`` leads nowhere (a stale reply)."""
        return narrow_steps(((a, self.segments(state, seat, a)) for a in moves), prefix, prompt)

    def describe(self, state: State, action: Action) -> str:
        """A short human label for a button or autocomplete entry (<= 80 chars).
        Must not reveal anything the acting seat cannot see."""
        return self.format(action)

    # ---- views ---------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public). JSON-able. Rendering and
        every message use views only, so hidden information cannot leak.
        Every view carries ``"viewer": seat`` (None for the public view)."""
        raise NotImplementedError

    def status(self, state: State) -> str:
        """One public sentence: whose turn and what they decide. No secrets."""
        return ""

    def private_text(self, state: State, seat: Seat) -> str:
        """What only ``seat`` may see, as text (``/hand``)."""
        return "You hold nothing secret in this game."

    def what_now(self, state: State, seat: Seat | None) -> str:
        """The "What now?" answer for ``seat`` (None: a watcher): the current phase in
        two or three sentences, what this seat can do now, and what each choice costs
        and gives. Only what ``seat`` may see; at most 1,500 characters. Default: the
        public status."""
        return self.status(state)

    def guide_view(self, section: str) -> dict[str, Any] | None:
        """The view the renderer's ``guide`` draws beside the ``/rules`` guide's section
        ``section`` (public component data, no game), or None for no picture."""
        return None

    def header(self, state: State, seat: Seat) -> str:
        """The top of the seat's private turn message: its own resources and hand in
        a few short lines (at most 400 characters). Default: the private text."""
        return self.private_text(state, seat)

    # ---- end -------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def result(self, state: State) -> Result:
        raise NotImplementedError

    # ---- AI ----------------------------------------------------------------------
    def ai_action(self, state: State, seat: Seat) -> Action:
        """A legal, sensible action for ``seat``, chosen by the game's AI from the
        seat's view only: the AI hook never receives the state, so it cannot see
        what the seat cannot (the contract, not a discipline)."""
        return self.ai_choose(
            self.view(state, seat), self.legal_actions(state, seat), self.ai_random(state, seat)
        )

    def ai_choose(self, view: dict[str, Any], legal: list[Action], rnd: random.Random) -> Action:
        """The AI hook: ``choose(view, legal, rnd)`` of ``engine/<game>/ai.py``.
        ``view`` is ``self.view(state, seat)`` (its ``viewer`` is the seat),
        ``legal`` the seat's legal actions, ``rnd`` the AI's own randomness."""
        return self._ai_module().choose(view, legal, rnd)

    def ai_random(self, state: State, seat: Seat) -> random.Random:
        """Deterministic randomness for the AI that does not touch the game RNG."""
        return random.Random(f"ai:{state['rng']['seed']}:{state['rng']['n']}:{seat}:{state.get('turn', 0)}")

    # ---- search (issue 30; engine/search.py) ------------------------------------------
    def _ai_module(self) -> Any:
        # Looked up once a game: search calls the hooks on every move it plays.
        module = self.__dict__.get("_ai")
        if module is None:
            module = self.__dict__["_ai"] = importlib.import_module(f"engine.{MODULES[self.key]}.ai")
        return module

    def ai_move(
        self, view: dict[str, Any], legal: list[Action], rnd: random.Random, level: str | None = None
    ) -> Action:
        """The move of a computer player of strength ``level`` ("easy", "normal",
        "hard"; None: the default) from the seat's view and legal moves only."""
        from . import search

        return search.choose(self, view, legal, rnd, level)

    def sample(self, view: dict[str, Any], rnd: random.Random) -> State:
        """A complete state consistent with everything the viewing seat has seen
        (``view`` is ``self.view(state, seat)``): what the seat cannot see is dealt at
        random from ``rnd`` among the places it could be, counts respected, and the
        game's own RNG is reseeded from ``rnd`` so no sample knows a future draw.
        ``engine/<game>/sample.py``: ``sample(view, rnd)``."""
        module = importlib.import_module(f"engine.{MODULES[self.key]}.sample")
        return module.sample(view, rnd)  # type: ignore[no-any-return]

    def play(self, state: State, seat: Seat, action: Action) -> None:
        """Apply a legal ``action`` to ``state`` in place, without the checks and the
        copy of :meth:`apply`: for search, on states it owns (samples)."""
        self._apply(state, seat, action)

    def evaluate(self, state: State, seat: Seat) -> float:
        """How good ``state`` is for ``seat``, from 0 (a sure loss) to 1 (a sure win):
        the result when the game is over, else ``evaluate(state, seat)`` of the
        game's ``ai.py``. Called by search on sampled states only."""
        if self.is_over(state):
            from .search import terminal_value

            return terminal_value(self, state, seat)
        return float(self._ai_module().evaluate(state, seat))

    def rollout_action(self, state: State, seat: Seat, rnd: random.Random) -> Action:
        """The move search plays for ``seat`` outside its tree (other seats, and the
        rollout): ``rollout(state, seat, rnd)`` of the game's ``ai.py`` if it has one,
        else the heuristic player on the seat's view of the (sampled) state."""
        fast = getattr(self._ai_module(), "rollout", None)
        if fast is not None:
            return fast(state, seat, rnd)
        return self.ai_choose(self.view(state, seat), self.legal_actions(state, seat), rnd)

    def search_moves(
        self,
        view: dict[str, Any],
        legal: list[Action],
        rnd: random.Random,
        wide: float = 1.0,
        settle: int = 0,
        deadline: float | None = None,
    ) -> list[Action]:
        """The moves worth searching at the root among ``legal`` (from the seat's view):
        ``search_moves(view, legal, rnd)`` of the game's ``ai.py`` if it has one (a game
        whose seat may have a hundred moves, like Dungeon Lords' orders, narrows them to
        the heuristic's best few), else all of them. ``wide`` (``Params.wide``, not 1) is
        passed on as ``wide=``: keep that many times the usual number of moves; ``settle``
        (``Params.settle``, not 0) as ``settle=`` with ``deadline=`` (``time.perf_counter``
        seconds or None): full playouts the game may spend to decide a move by itself."""
        narrow = getattr(self._ai_module(), "search_moves", None)
        if narrow is None:
            return legal
        more: dict[str, Any] = {}
        if wide != 1.0:
            more["wide"] = wide
        if settle:
            more["settle"], more["deadline"] = settle, deadline
        return list(narrow(view, legal, rnd, **more))

    def search_params(self) -> Any:
        """How search treats this game: ``SEARCH`` (a dict of
        :class:`engine.search.Params` fields) in the game's ``ai.py``."""
        from .search import Params

        return Params(**getattr(self._ai_module(), "SEARCH", {}))


# ---- registry -------------------------------------------------------------------

# Games stored before rules revisions were recorded (release f63664e, store schema
# 2) are revision 1 and replay on the frozen engine of that release; schemas 3-4
# (up to 4f183ac) are revision 2, the first revision the engines here still carry.
FIRST_CARRIED_REVISION = 2


class _NoUpgrades:
    REVISION = FIRST_CARRIED_REVISION
    STEPS: dict[int, Callable[[State], State]] = {}
    CHANGES: dict[int, str] = {}


_NO_UPGRADES = _NoUpgrades()


def rules_revision(state: State) -> int:
    """The rules revision in force for ``state`` (see ``Game.rules_revision``), for
    rule modules that have the state but not the game."""
    return int(state.get("revision", FIRST_CARRIED_REVISION))


# Game key -> module that defines ``GAME``. Rendering lives at render/<module name>.py.
MODULES: dict[str, str] = {
    "monster-inn": "monster_inn",
    "dungeon-lair": "dungeon_lair",
    "dungeon-decorators": "dungeon_decorators",
    "dungeon-drawers": "dungeon_drawers",
    "dungeon-lords": "dungeon_lords",
}

_loaded: dict[str, Game] = {}


def available() -> list[str]:
    """Keys of the games whose engine is installed, in menu order."""
    return [k for k, m in MODULES.items() if importlib.util.find_spec(f"engine.{m}") is not None]


def get(key: str) -> Game:
    """The game for ``key``; raises :class:`IllegalAction` for an unknown key."""
    if key not in _loaded:
        if key not in MODULES or key not in available():
            names = ", ".join(available())
            raise IllegalAction(f"There is no game called '{key}'. Choose one of: {names}.")
        module = importlib.import_module(f"engine.{MODULES[key]}")
        _loaded[key] = module.GAME
    return _loaded[key]


def narrow_steps(
    steps: Iterable[tuple[Action, list[tuple[str, str]]]], prefix: list[str], prompt: str
) -> Choice:
    """The chooser step after ``prefix`` among moves given with their (token, label)
    segments: the next tokens on offer, and the move ``prefix`` completes if any.
    Raises :class:`IllegalAction` when ``prefix`` leads nowhere (a stale reply)."""
    depth = len(prefix)
    options: dict[str, str] = {}
    done: Action | None = None
    for action, segs in steps:
        if [t for t, _ in segs[:depth]] != prefix:
            continue
        if len(segs) == depth:
            done = action
        else:
            token, label = segs[depth]
            options.setdefault(token, label)
    if done is None and not options:
        raise IllegalAction(STALE_CHOICE)
    return Choice(prompt=prompt, options=list(options.items()), action=done)


def iter_games() -> Iterable[Game]:
    for k in available():
        yield get(k)
