"""The nonce each board is sent with (cogs/common.py ``board_nonce``): Discord drops a
second message with a nonce it saw a few minutes before, so a re-sent board posts once,
and a different board must never look like a re-send. (Found by mutation testing,
docs/testing.md.)"""

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
