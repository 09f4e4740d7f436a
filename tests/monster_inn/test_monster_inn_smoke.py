"""First smoke checks: a game for each player count plays to the end."""

from __future__ import annotations

import pytest

from engine import core
from tests.playout import random_playout

GAME = core.get("monster-inn")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_game_ends_with_every_creature_dealt(players: int) -> None:
    state, _ = random_playout(GAME, players, 11)
    assert GAME.is_over(state)
    held = sum(len(p["monsters"]) + len(p["humanoids"]) for p in state["players"])
    assert held == 40 - (1 if players == 3 else 0)
