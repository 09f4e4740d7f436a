"""Ratings (issue 41): OpenSkill's Plackett-Luce model over a server's stored
results, game after game in the order they ended.

Pure: no I/O, no clock. The same finished games give the same numbers, so the
ratings are never a second source of truth: the games table is, and a rebuild
(after a restart, a migration, an upgrade) gives what the cache held. Why this
model, the provisional games and the overall pool: docs/ratings.md."""

from __future__ import annotations

import functools
import json
import math
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import search
from store import SeatRow

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

# Plackett-Luce: a full ranking of 2-6 seats with shared places, one rating per
# player, fast; the library's defaults (mu 25, sigma 25/3), so its own tests'
# numbers are ours. Written out here so that the library is imported when the first
# rating is computed, after "ready", not before it (start-up, docs/performance.md);
# tests/test_ratings.py holds every rating to the library's own numbers.
MU = 25.0
SIGMA = MU / 3


@functools.cache
def model() -> PlackettLuce:
    from openskill.models import PlackettLuce

    return PlackettLuce()


# The most seats an update reuses the library's rating objects for (plackett_luce).
SLOTS = 8
# A person's (or a strength's) first games in a pool: the rating is shown, marked
# provisional, and ranked after the established ones.
PROVISIONAL_GAMES = 5
# The pool of every game together (the overall leaderboard); other pools are game keys.
OVERALL = "*"
# How many games' rating moves a book keeps (dict order: the latest).
KEEP_MOVES = 2000


def person(user_id: int) -> str:
    return f"p:{user_id}"


def computer(level: str) -> str:
    return f"ai:{level}"


def computer_name(level: str) -> str:
    lv = search.LEVELS.get(level)
    return f"{lv.name if lv else level.title()} computer"


@dataclass
class Played:
    """One game that ended, as the store hands it (no snapshot)."""

    game_id: int
    game_key: str
    status: str  # over | abandoned
    ended: float
    seats: list[SeatRow]
    ranking: list[list[int]] | None  # seat groups best first; None: nothing to rank
    replaced: bool = False  # a person's seat changed hands mid-game


def counts(g: Played, rate_unfinished: bool) -> bool:
    """Whether ``g`` is rated: a game played to its end by the people who began it;
    with the server's ``rate_unfinished`` setting, also an abandoned game (by the
    standings when it stopped) and one where a person was replaced."""
    if g.ranking is None or len(g.seats) < 2:
        return False
    if g.status == "over" and not g.replaced:
        return True
    return rate_unfinished


def holder(s: SeatRow) -> str:
    """Whose rating a seat's result moves: its person (also one who left it to the
    computer: leaving is their result), else its computer strength."""
    if s.user_id is not None:
        return person(s.user_id)
    return computer(s.level)


@dataclass
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> float:
        """The number players see: the conservative estimate mu - 3 sigma (the
        library's ordinal), 0 for a newcomer."""
        return round(self.mu - 3 * self.sigma, 1)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def plackett_luce(players: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The library's ``rate`` of one player a team, ``players`` as (mu, sigma), to the bit: the
    same steps (tau added to each sigma, the teams ordered by rank, the library's own
    update, the order undone), without what a rebuild of 20,000 updates cannot afford:
    the library checks its arguments, deep-copies its input and creates rating objects
    with random ids on every call (three quarters of its time). Checked against
    the library's ``rate`` in tests/test_ratings.py."""
    lib = model()
    if len(players) > SLOTS:  # more seats than any game has: the library's own way
        rated = lib.rate([[lib.create_rating([mu, sigma])] for mu, sigma in players], ranks=list(ranks))
        return [(t[0].mu, t[0].sigma) for t in rated]
    slots = _slots()
    tau_squared = lib.tau * lib.tau
    order = sorted(range(len(players)), key=ranks.__getitem__)  # stable, as the library's
    teams: list[list[PlackettLuceRating]] = []
    for i, k in enumerate(order):
        slot = slots[i]
        mu, sigma = players[k]
        slot.mu, slot.sigma = mu, math.sqrt(sigma * sigma + tau_squared)
        teams.append([slot])
    result = lib._compute(teams=teams, ranks=[ranks[k] for k in order])
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(players)
    for k, team in zip(order, result, strict=True):
        out[k] = (team[0].mu, team[0].sigma)
    return out


_local = threading.local()


def _slots() -> list[PlackettLuceRating]:
    """This thread's reusable rating objects (a rebuild runs in a worker thread while
    the event loop adds a game of another server): created once, because creating
    one draws a random id, half of an update's time."""
    slots: list[PlackettLuceRating] | None = getattr(_local, "slots", None)
    if slots is None:
        slots = _local.slots = [model().create_rating([MU, SIGMA]) for _ in range(SLOTS)]
    return slots


@dataclass
class Move:
    """How one player's rating moved in one game (the final board says it)."""

    who: str
    before: float
    after: float
    provisional: bool


@dataclass
class Record:
    """A person against one computer strength: places ahead, behind, shared."""

    ahead: int = 0
    behind: int = 0
    shared: int = 0


@dataclass
class Book:
    """Every pool's ratings after the games added so far, with each rating's history."""

    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)  # (pool, who)
    history: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # shown, game by game
    # Game id -> how its game pool's ratings moved, for the last KEEP_MOVES games (the
    # final board of the game that just ended, tonight's table).
    moves: dict[int, list[Move]] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    against: dict[tuple[str, str, str], Record] = field(default_factory=dict)  # (pool, person, level)
    games: dict[str, int] = field(default_factory=dict)  # pool -> rated games
    count: int = 0  # games added (rated or not)
    last: tuple[float, int] = (0.0, 0)  # (ended, id) of the last game added

    def add(self, g: Played, rate_unfinished: bool = False) -> None:
        self.count += 1
        self.last = (g.ended, g.game_id)
        if not counts(g, rate_unfinished):
            return
        assert g.ranking is not None
        for s in g.seats:
            who = holder(s)
            self.names[who] = s.name if who.startswith("p:") else computer_name(s.level)
        place = {seat: i for i, group in enumerate(g.ranking) for seat in group}
        seats = [s for s in g.seats if s.seat in place]
        if len(seats) < 2:
            return
        self.moves[g.game_id] = self._rate(g.game_key, g, seats, place)
        for pool in (g.game_key, OVERALL):
            self.games[pool] = self.games.get(pool, 0) + 1
        if len(self.moves) > KEEP_MOVES:
            del self.moves[next(iter(self.moves))]
        self._rate(OVERALL, g, seats, place)

    def _rate(self, pool: str, g: Played, seats: list[SeatRow], place: dict[int, int]) -> list[Move]:
        whos = [holder(s) for s in seats]
        before = {w: self.ratings.setdefault((pool, w), Rating()) for w in whos}
        out = plackett_luce(
            [(before[w].mu, before[w].sigma) for w in whos], [place[s.seat] + 1 for s in seats]
        )
        # A strength playing several seats of one game: its new rating is the mean of
        # its seats' (each seat was rated from the same rating before the game).
        new: dict[str, list[tuple[float, float]]] = {}
        for w, rating in zip(whos, out, strict=True):
            new.setdefault(w, []).append(rating)
        won = {w for s, w in zip(seats, whos, strict=True) if place[s.seat] == 0}
        moves = []
        for w, results in new.items():
            old = before[w]
            shown = old.shown
            r = Rating(
                sum(m for m, _ in results) / len(results),
                sum(s for _, s in results) / len(results),
                old.games + 1,
                old.wins + (w in won),
            )
            self.ratings[(pool, w)] = r
            self.history.setdefault((pool, w), []).append(r.shown)
            moves.append(Move(w, shown, r.shown, r.provisional))
        self._records(pool, seats, whos, place)
        return moves

    def _records(self, pool: str, seats: list[SeatRow], whos: list[str], place: dict[int, int]) -> None:
        for s, w in zip(seats, whos, strict=True):
            if not w.startswith("p:"):
                continue
            for o, ow in zip(seats, whos, strict=True):
                if not ow.startswith("ai:"):
                    continue
                rec = self.against.setdefault((pool, w, ow[3:]), Record())
                if place[s.seat] < place[o.seat]:
                    rec.ahead += 1
                elif place[s.seat] > place[o.seat]:
                    rec.behind += 1
                else:
                    rec.shared += 1

    def board(self, pool: str) -> list[tuple[str, Rating]]:
        """A pool's leaderboard: established ratings first, best first; then the
        provisional ones, best first; ties by name."""
        rows = [(w, r) for (p, w), r in self.ratings.items() if p == pool]
        return sorted(rows, key=lambda e: (e[1].provisional, -e[1].shown, self.names.get(e[0], e[0])))


# Bumped whenever what a book holds or how it is computed changes: a kept book of
# another format is not read (the ratings are rebuilt from the games).
FORMAT = 2


def to_json(book: Book) -> str:
    """The book as the store keeps it (a cache of the games table, tables/stats.py)."""

    def pairs(d: dict[Any, Any], value: Any) -> list[Any]:
        return [[*k, value(v)] if isinstance(k, tuple) else [k, value(v)] for k, v in d.items()]

    return json.dumps(
        {
            "format": FORMAT,
            "ratings": pairs(book.ratings, lambda r: [r.mu, r.sigma, r.games, r.wins]),
            "history": pairs(book.history, list),
            "moves": pairs(book.moves, lambda ms: [[m.who, m.before, m.after, m.provisional] for m in ms]),
            "names": book.names,
            "against": pairs(book.against, lambda r: [r.ahead, r.behind, r.shared]),
            "games": book.games,
            "count": book.count,
            "last": list(book.last),
        },
        separators=(",", ":"),
    )


def is_current(head: str) -> bool:
    """Whether a kept book whose text starts with ``head`` is of this format (to_json
    writes the format first), so that a start-up need not read whole books to know."""
    return head.startswith(f'{{"format":{FORMAT},')


def from_json(text: str) -> Book | None:
    """A kept book, or None when it is of another format (rebuild)."""
    d = json.loads(text)
    if d.get("format") != FORMAT:
        return None
    return Book(
        ratings={(p, w): Rating(*v) for p, w, v in d["ratings"]},
        history={(p, w): [float(x) for x in v] for p, w, v in d["history"]},
        moves={int(g): [Move(*m) for m in v] for g, v in d["moves"]},
        names=dict(d["names"]),
        against={(p, w, lv): Record(*v) for p, w, lv, v in d["against"]},
        games={str(k): int(v) for k, v in d["games"].items()},
        count=int(d["count"]),
        last=(float(d["last"][0]), int(d["last"][1])),
    )


def rate_all(games: Iterable[Played], rate_unfinished: bool = False) -> Book:
    """The ratings of ``games`` taken in order (the caller orders them by when they ended)."""
    book = Book()
    for g in games:
        book.add(g, rate_unfinished)
    return book
