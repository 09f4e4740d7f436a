"""A move played for a player (issue 38): the house rule that it never tells the
table a secret.

The bot plays a person's only move for them (``tables/turns.only_move``) and skips a
chooser step with one option. Whether a move is the *only* one can depend on what
that player hides (Monster Inn: an empty purse asked for gold can only leave), and
then playing it unasked, or waiting, tells everybody. So a move is played for a
player only when it would be the only one in every situation the other players
cannot tell apart from the real one.

Those situations are dealt by the game's own ``sample(view, rnd)`` (the one search
uses, engine/search.py) from each OTHER seat's view: that view keeps what the other
seat knows (its own secrets, everything public) and deals the rest again, the mover's
secrets included. ``SAMPLES`` deals in turn from each other seat's view; the seed is
derived from the public view and the seat, so that two games the table cannot tell
apart deal the same samples and get the same answer. A sample that cannot be dealt,
or in which the seat does not act or has another move, means "ask the player".

Sampling is a bound, not a proof: a situation dealt rarely may be missed. The
secrets-of-forced-moves test (tests/reliability/test_rel_forced.py) measures it over
pairs of games the others cannot tell apart."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator

from engine import core
from engine.core import Action, State

log = logging.getLogger("lairkeeper.tables")

# Situations dealt per check (spread over the other seats' views). With 16, a goal
# card held in about one Decorators deal in sixteen was missed (6 of 468 pairs of games
# another player cannot tell apart were answered differently), with 64 one, with 128
# none of 462 (tests/reliability/test_rel_forced.py). The check runs only where the
# real move is already the only one, deals one situation at a time and stops at the
# first with another move (most "no" answers come within a few deals); its cost is in
# docs/performance.md (bench/forced.py).
SAMPLES = 128

# Decisions kept, so the same question is not dealt again: the bot asks it after a
# person's move (tables/turns.only_move) and again for the private message's note at
# each of that player's clicks until they move (why_waiting). The key is the state's
# content (a game version names one state; the content also covers a state rewritten
# in place, as an upgrade to a new rules revision does, which a version number alone
# would answer from a stale entry). Entries are small (a digest and a bool).
KEPT = 4096
_decided: OrderedDict[tuple[object, ...], bool] = OrderedDict()
_decided_lock = threading.Lock()  # the checks run on worker threads (asyncio.to_thread)

# Why a move with one option waits for its player (shown in the private message).
WAITS_FOR_YOU = (
    "This is your only move, but playing it for you would tell the table something you keep "
    "hidden, so it waits for your click."
)


def seed_of(game: core.Game, state: State, seat: int) -> int:
    """A seed from what the table sees and whose move it is: the same for every
    situation the table cannot tell apart, different from one move to the next."""
    public = json.dumps(game.view(state, None), sort_keys=True, default=str)
    return zlib.crc32(f"{game.key}:{seat}:{public}".encode())


def _deals(game: core.Game, state: State, seat: int, others: list[int], n: int) -> Iterator[State]:
    """The ``n`` situations one at a time, each dealt only when asked for: the same
    states in the same order as dealing all at once (one ``rnd``, drawn from in turn),
    so a check that stops early decides as one that dealt them all. Raises when a
    view or a situation cannot be dealt."""
    views = [game.view(state, o) for o in others]
    rnd = random.Random(seed_of(game, state, seat))
    for i in range(n):
        yield game.sample(views[i % len(views)], rnd)


def situations(game: core.Game, state: State, seat: int, n: int = SAMPLES) -> list[State] | None:
    """``n`` situations the other seats cannot tell apart from ``state`` (the mover's
    secrets dealt again), or None when they cannot be dealt (nothing may be played then)."""
    others = [s for s in range(state["seats"]) if s != seat]
    if not others:
        return []
    try:
        return list(_deals(game, state, seat, others, n))
    except Exception:  # a game whose sampler cannot deal this view: ask the player
        log.debug("game %s: no samples for seat %s", game.key, seat, exc_info=True)
        return None


def same_everywhere(
    game: core.Game, state: State, seat: int, holds: Callable[[State], bool], n: int = SAMPLES
) -> bool:
    """Whether ``holds`` is true in every dealt situation the others cannot tell apart
    from ``state`` (a situation that cannot be dealt, or breaks the game's own checks,
    counts as false). Stops at the first situation where it is false."""
    others = [s for s in range(state["seats"]) if s != seat]
    dealt = _deals(game, state, seat, others, n) if others else iter(())
    while True:
        try:
            other = next(dealt)
        except StopIteration:
            return True
        except Exception:  # a game whose sampler cannot deal this view: ask the player
            log.debug("game %s: no samples for seat %s", game.key, seat, exc_info=True)
            return False
        try:
            if seat not in game.to_act(other) or not holds(other):
                return False
        except Exception:  # noqa: BLE001 - a dealt state the rules refuse: ask the player
            return False


def _key(
    game: core.Game, state: State, seat: int, text: str, only: Callable[..., Action | None]
) -> tuple[object, ...]:
    digest = hashlib.blake2b(json.dumps(state, sort_keys=True, default=str).encode(), digest_size=16).digest()
    return (game.key, digest, seat, text, only)


def tells_nothing(
    game: core.Game, state: State, seat: int, action: Action, only: Callable[..., Action | None]
) -> bool:
    """Whether ``action``, the seat's only move, would be its only move in every
    situation the other players cannot tell apart from the real one. ``only`` finds
    the seat's only move in a state (``turns.the_one_move``). Decided once per state
    and seat (``KEPT``)."""
    text = game.format(action)
    key = _key(game, state, seat, text, only)
    with _decided_lock:
        if key in _decided:
            _decided.move_to_end(key)
            return _decided[key]

    def forced(other: State) -> bool:
        move = only(game, other, seat)
        return move is not None and game.format(move) == text

    answer = same_everywhere(game, state, seat, forced)
    with _decided_lock:
        _decided[key] = answer
        while len(_decided) > KEPT:
            _decided.popitem(last=False)
    return answer


def forget() -> None:
    """Drop every kept decision (for tests and benchmarks that time the check itself)."""
    with _decided_lock:
        _decided.clear()


# ---- steps with one option (issue 40 point 5) -------------------------------------------------
def single_option_steps(
    game: core.Game, state: State, seat: int, prefix: list[str], finish: bool
) -> list[str]:
    """``prefix`` carried through every chooser step that offers one option and nothing
    else: picking it reveals nothing (the move is built privately) and decides nothing.
    ``finish``: also take a last such step that completes the move (after a pick of the
    player's own in this move: the move is then theirs); without it the chain stops
    before the move is complete, so a move nobody chose is never played from here."""
    prefix = list(prefix)
    for _ in range(16):  # a move is never deeper; a chooser that loops must not hang
        choice = game.chooser(state, seat, prefix)
        if choice.action is not None or len(choice.options) != 1:
            break
        token = choice.options[0][0]
        after = game.chooser(state, seat, [*prefix, token])
        if not finish and after.action is not None and not after.options:
            break
        prefix.append(token)
    return prefix


def why_waiting(game: core.Game, state: State, seat: int, only: Callable[..., Action | None]) -> str | None:
    """The sentence a player's private message carries when their only move waits for
    their click because playing it for them would tell the table a secret."""
    try:
        move = only(game, state, seat)
        if move is None or tells_nothing(game, state, seat, move, only):
            return None
    except Exception:  # noqa: BLE001 - an explanation is a courtesy
        return None
    return WAITS_FOR_YOU
