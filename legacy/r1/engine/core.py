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
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

State = dict[str, Any]
Action = Any
Seat = int


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

    # ---- setup -----------------------------------------------------------
    def new(self, seats: int, options: dict[str, Any] | None = None, seed: int = 0) -> State:
        """A new game for ``seats`` players. ``options`` holds variant switches
        (validated against :attr:`options`) and, for tests only, ``setup``: a
        game-specific override that stacks decks and bags."""
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

    # ---- turn structure ----------------------------------------------------
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
        new = copy_state(state)
        events = self._apply(new, seat, action)
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

    def pass_action(self, state: State, seat: Seat) -> Action | None:
        """The move that skips ``seat``'s turn where the rules allow a pass (used when
        a turn deadline passes with the 'skip' setting), or None if there is none."""
        return None

    def describe(self, state: State, action: Action) -> str:
        """A short human label for a button or autocomplete entry (<= 80 chars).
        Must not reveal anything the acting seat cannot see."""
        return self.format(action)

    # ---- views ---------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public). JSON-able. Rendering and
        every message use views only, so hidden information cannot leak."""
        raise NotImplementedError

    def status(self, state: State) -> str:
        """One public sentence: whose turn and what they decide. No secrets."""
        return ""

    def private_text(self, state: State, seat: Seat) -> str:
        """What only ``seat`` may see, as text (``/hand``)."""
        return "You hold nothing secret in this game."

    # ---- end -------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        raise NotImplementedError

    def result(self, state: State) -> Result:
        raise NotImplementedError

    # ---- AI ----------------------------------------------------------------------
    def ai_action(self, state: State, seat: Seat) -> Action:
        """A legal, sensible action for ``seat``. Must only use what ``seat`` can
        see (``self.view(state, seat)``); its own randomness must be derived from
        the state without advancing ``state["rng"]``."""
        raise NotImplementedError

    def ai_random(self, state: State, seat: Seat) -> random.Random:
        """Deterministic randomness for the AI that does not touch the game RNG."""
        return random.Random(f"ai:{state['rng']['seed']}:{state['rng']['n']}:{seat}:{state.get('turn', 0)}")


# ---- registry -------------------------------------------------------------------

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
    return [k for k, m in MODULES.items() if importlib.util.find_spec(f"legacy.r1.engine.{m}") is not None]


def get(key: str) -> Game:
    """The game for ``key``; raises :class:`IllegalAction` for an unknown key."""
    if key not in _loaded:
        if key not in MODULES or key not in available():
            names = ", ".join(available())
            raise IllegalAction(f"There is no game called '{key}'. Choose one of: {names}.")
        module = importlib.import_module(f"legacy.r1.engine.{MODULES[key]}")
        _loaded[key] = module.GAME
    return _loaded[key]


def iter_games() -> Iterable[Game]:
    for k in available():
        yield get(k)
