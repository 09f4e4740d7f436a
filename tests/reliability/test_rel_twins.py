"""Twin states: what one seat hides never changes what another seat is shown.

The older secrets tests (test_rel_secrets.py) call "hidden" whatever the public view
leaves out, so a secret that leaks into the public view itself, or into the text the
bot writes around it, can never show up there. These tests deal twins on purpose:
for a real state S, an owner seat O whose view holds more than the public's, and an
observer seat T, the twin S' is the game's own ``sample(view(S, T))``: everything T
cannot see dealt again (O's purse, hand, face-down cards, secret orders, the decks).
A pair counts only when O's secrets really differ between S and S'.

For every pair, everything T is shown must be the same, byte for byte, through the
real Tables code: the thread's board (text, PNG, buttons, pings), T's /hand text and
picture, and, after the same move by a seat to act, the next board and its words.
Each game must yield pairs (the test fails if it compared nothing).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import core
from store import Store
from tables import Tables
from tests.playout import random_states
from tests.reliability._util import games_at, keys, record, size


def twin(game: core.Game, state: dict[str, Any], owner: int, observer: int, rnd: random.Random) -> Any:
    """A state T cannot tell from ``state`` in which ``owner``'s secrets differ, or None."""
    mine = game.view(state, owner)
    for _ in range(8):
        other = game.sample(json.loads(json.dumps(game.view(state, observer))), rnd)
        if game.view(other, owner) != mine and game.view(other, observer) == game.view(state, observer):
            return other
    return None


def owners(game: core.Game, state: dict[str, Any]) -> list[int]:
    """Seats that hold a secret now: their own view shows more than the public's."""
    pub = game.view(state, None)
    return [s for s in range(state["seats"]) if game.view(state, s) != pub]


async def shown(t: Tables, gid: int, users: list[int], observer: int) -> tuple[Any, ...]:
    """Everything seat ``observer`` is shown of game ``gid``: the board and their hand."""
    board = await t.board(gid)
    hand = await t.hand(gid, users[observer])
    return (board.text, board.png, board.choose, [users.index(u) for u in board.ping], hand)


@pytest.mark.parametrize("key", keys())
async def test_one_seats_secrets_never_change_what_another_is_shown(key: str, tmp_path: Any) -> None:
    game = core.get(key)
    rnd = random.Random(f"twins:{key}")
    store = await Store(str(tmp_path / "twins.db")).open()
    t = Tables(store)
    want = size(4, 60)
    pairs = moves = 0
    try:
        for g in range(30):
            if pairs >= want:
                break
            states = random_states(game, 900 + g, 5)
            for state in states:
                secret_seats = owners(game, state)
                if not secret_seats:
                    continue
                owner = rnd.choice(secret_seats)
                observer = rnd.choice([s for s in range(state["seats"]) if s != owner])
                other = twin(game, state, owner, observer, rnd)
                if other is None:
                    continue
                pairs += 1
                (a, users_a), (b, users_b) = await games_at(t, key, state, other)
                sa, sb = await shown(t, a, users_a, observer), await shown(t, b, users_b, observer)
                assert sa[0] == sb[0], (
                    f"{key}: seat {owner + 1}'s secrets change the board's words: {sa[0]!r} / {sb[0]!r}"
                )
                assert sa == sb, f"{key}: seat {owner + 1}'s secrets change what seat {observer + 1} is shown"
                # The same move by a seat to act that the observer sees made (the observer
                # itself, or a public one): the next board must still agree.
                seat = min(game.to_act(state))
                if seat == owner:
                    continue  # the owner's move may depend on its secrets: that move is its own
                act = rnd.choice(game.legal_actions(state, seat))
                if act not in game.legal_actions(other, seat):
                    continue
                ua = await t.act(a, users_a[seat], game.format(act))
                ub = await t.act(b, users_b[seat], game.format(act))
                ra, rb = await store.get(a), await store.get(b)
                assert ra is not None and rb is not None and ra.state is not None and rb.state is not None
                if game.view(ra.state, observer) != game.view(rb.state, observer):
                    continue  # the move itself showed the observer the difference (a fight, a reveal)
                moves += 1
                assert ua.text == ub.text, (
                    f"{key}: the move's words differ by a hidden secret: {ua.text!r} / {ub.text!r}"
                )
                assert (ua.png, ua.choose) == (ub.png, ub.choose)
                assert await shown(t, a, users_a, observer) == await shown(t, b, users_b, observer)
    finally:
        await store.close()
    record("secrets_twins", game=key, pairs=pairs, moves_compared=moves)
    assert pairs >= want, f"{key}: only {pairs} twin pairs with different secrets were dealt (wanted {want})"
