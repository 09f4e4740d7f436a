"""Half-made moves carried with their game to newer rules (issue 39).

A player's half-made move (the chooser's tokens so far, ``drafts``) is carried
with the game when the game is carried to a newer rules revision, as long as it
still describes a legal move: kept as it is when today's chooser still accepts
it step by step on the carried state; else translated by the game's own
``DRAFTS[n]`` (``engine/<game>/upgrade.py``: a revision ``n-1`` prefix, read on
the state before the carry, in revision ``n``'s tokens) where a revision changed
the chooser's tokens, and then kept as far as today's chooser follows it (two
picks that became one are that one; a token that names only the start of one
option, as "tile 17" of "tile 17, this side up" when only one side is offered,
is that option). Only a draft of which
not even its first choice still stands is dropped (the player is told "no longer
fits" when they next open their move, as before: such a draft is left as it was).

Pure and CPU-bound: run off the event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import core
from engine.core import IllegalAction
from store import GameRow
from tables.chooser import still_accepted
from tables.replay import current_revision

# A game's translation of a half-made move from revision n-1 to n:
# (state before the carry, seat, prefix) -> the prefix in revision n's tokens, or None.
Translate = Callable[[dict[str, Any], int, list[str]], "list[str] | None"]


def translations(game: core.Game, frm: int, to: int) -> list[Translate]:
    """The game's draft translations from revision ``frm`` up to ``to``, in order."""
    table: dict[int, Translate] = getattr(game._upgrade_module(), "DRAFTS", {})
    return [table[n] for n in range(frm + 1, to + 1) if n in table]


def carried_draft(before: GameRow, after: GameRow, seat: int, prefix: list[str]) -> list[str] | None:
    """``prefix`` as the carried game's chooser reads it, or None when it no longer
    describes a legal move."""
    if not prefix or after.status != "active":
        return None
    if still_accepted(after, seat, prefix):
        return prefix
    assert before.state is not None
    game = core.get(before.game_key)
    now: list[str] | None = prefix
    for step in translations(game, current_revision(before), current_revision(after)):
        now = step(before.state, seat, now) if now else None
    if now and still_accepted(after, seat, now):
        return now
    kept = followed(after, seat, now or [])
    return kept or None


def _names_start_of(token: str, option: str) -> bool:
    """``option`` is ``token`` with more after it, not a longer number ('c2' is not
    the start of 'c26p2'; 't17' is the start of 't17D')."""
    return (
        option.startswith(token)
        and len(option) > len(token)
        and not (token[-1:].isdigit() and option[len(token)].isdigit())
    )


def followed(row: GameRow, seat: int, prefix: list[str]) -> list[str]:
    """The longest start of ``prefix`` the chooser accepts step by step on ``row``.
    Where a revision made two picks one ('put', 'S' -> 'putS'), the two tokens
    together are that option; a token that names the start of exactly one option
    at its step is that option."""
    assert row.state is not None
    game = core.get(row.game_key)
    out: list[str] = []
    rest = list(prefix)
    while rest:
        try:
            options = [tok for tok, _label in game.chooser(row.state, seat, list(out)).options]
        except IllegalAction:
            break
        token = rest.pop(0)
        if token not in options and rest and token + rest[0] in options:
            token += rest.pop(0)
        elif token not in options:
            longer = [tok for tok in options if _names_start_of(token, tok)]
            if len(longer) != 1:
                break
            token = longer[0]
        out.append(token)
    return out


def carried_drafts(
    before: GameRow, after: GameRow, drafts: list[tuple[int, int, list[str]]]
) -> dict[int, list[str]]:
    """The kept half-made moves (user id, version, prefix) of ``before`` that carry
    to ``after``: user id -> the prefix to keep. The others are left as they were,
    so the player hears that the move no longer fits (tables/chooser.py)."""
    out: dict[int, list[str]] = {}
    for user_id, _version, prefix in drafts:
        seat = after.seat_of(user_id)
        now = None if seat is None else carried_draft(before, after, seat, list(prefix))
        if now is not None:
            out[user_id] = now
    return out
