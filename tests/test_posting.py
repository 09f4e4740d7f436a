"""Posting a board (cogs/common.py), without Discord. The nonce each board is sent with
(``board_nonce``): Discord drops a second message with a nonce it saw a few minutes
before, so a re-sent board posts once, and a different board must never look like a
re-send. (Found by mutation testing, docs/testing.md.)"""

from __future__ import annotations

from types import SimpleNamespace

from cogs.common import board_nonce


def nonce(game_id: int, version: int) -> str:
    return board_nonce(SimpleNamespace(game_id=game_id, version=version))  # type: ignore[arg-type]


def test_every_board_of_a_game_is_posted_and_a_resent_board_only_once() -> None:
    boards = [nonce(7, v) for v in range(1, 40)]
    assert len(set(boards)) == len(boards), "a later board would be dropped as a repeat"
    assert nonce(7, 12) == nonce(7, 12), "a board sent again after a crash carries the same nonce"
    assert nonce(7, 12) != nonce(8, 12)
    # Discord refuses a nonce over 25 characters: the longest game and version numbers fit.
    assert len(nonce(10**12 - 1, 10**9 - 1)) <= 25


async def test_an_older_board_is_never_posted_under_a_newer_one() -> None:
    """A board that arrives after a newer board of the game went out (a slow answer, a
    retry) is skipped: the thread never shows an old position last."""
    from cogs.common import post_board

    class Tables:
        marked: list[int] = []

        async def posted_version(self, game_id: int) -> int:
            return 5

        async def mark_posted(self, update: object) -> None:
            self.marked.append(1)

    client = SimpleNamespace(tables=Tables())  # no channel: a send would fail the test
    old = SimpleNamespace(post=True, game_id=7, version=3)
    assert await post_board(client, old) is None  # type: ignore[arg-type]
    assert Tables.marked == []
