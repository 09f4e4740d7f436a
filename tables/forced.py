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

import json
import logging
import random
import zlib
from collections.abc import Callable

from engine import core
from engine.core import Action, State

log = logging.getLogger("lairkeeper.tables")

# Situations dealt per check (spread over the other seats' views). With 16, a goal
# card held in about one Decorators deal in sixteen was missed (6 of 468 pairs of games
# another player cannot tell apart were answered differently), with 64 one, with 128
# none of 462 (tests/reliability/test_rel_forced.py). The check runs only where the
# real move is already the only one and stops at the first deal with another move;
# its cost is in docs/performance.md (bench/forced.py).
SAMPLES = 128

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


def situations(game: core.Game, state: State, seat: int, n: int = SAMPLES) -> list[State] | None:
    """``n`` situations the other seats cannot tell apart from ``state`` (the mover's
    secrets dealt again), or None when they cannot be dealt (nothing may be played then)."""
    others = [s for s in range(state["seats"]) if s != seat]
    if not others:
        return []
    try:
        views = [game.view(state, o) for o in others]
        rnd = random.Random(seed_of(game, state, seat))
        return [game.sample(views[i % len(views)], rnd) for i in range(n)]
    except Exception:  # a game whose sampler cannot deal this view: ask the player
        log.debug("game %s: no samples for seat %s", game.key, seat, exc_info=True)
        return None


def same_everywhere(
    game: core.Game, state: State, seat: int, holds: Callable[[State], bool], n: int = SAMPLES
) -> bool:
    """Whether ``holds`` is true in every dealt situation the others cannot tell apart
    from ``state`` (a sample that breaks the game's own checks counts as false)."""
    dealt = situations(game, state, seat, n)
    if dealt is None:
        return False
    for other in dealt:
        try:
            if seat not in game.to_act(other) or not holds(other):
                return False
        except Exception:  # noqa: BLE001 - a dealt state the rules refuse: ask the player
            return False
    return True


def tells_nothing(
    game: core.Game, state: State, seat: int, action: Action, only: Callable[..., Action | None]
) -> bool:
    """Whether ``action``, the seat's only move, would be its only move in every
    situation the other players cannot tell apart from the real one. ``only`` finds
    the seat's only move in a state (``turns.the_one_move``)."""
    text = game.format(action)

    def forced(other: State) -> bool:
        move = only(game, other, seat)
        return move is not None and game.format(move) == text

    return same_everywhere(game, state, seat, forced)


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
