"""Issue 29's last pass: the words the game shows are words a player would say (no state codes
like "(in)", no "card(s)"), and they say whose hero is meant: the hero in a player's dungeon
is the enemy who walks it, not that player's hero (issue 28: "Hearts 0/10 - DEAD")."""

from __future__ import annotations

import re

from engine.dungeon_drawers import board
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, defend_state, sheet_from

PROGRAM = re.compile(r"\{'|\['|\bNone\b|\bTrue\b|\bFalse\b|[a-z]+_[a-z]+|\((?:in|dead|escaped)\)|\(s\)")


def test_the_header_names_the_hero_in_your_dungeon_in_words() -> None:
    rows = ["........"] * 9 + [".......o"]
    path = board.expand(["A1", "A10", "H10"])
    state = defend_state([sheet_from(rows), sheet_from(EMPTY)], [path, path], dice=[10, 10])
    state, _ = act(state, 0, "resolve")  # the orc wins: 2 damage
    head = GAME.header(state, 0)
    assert "The hero in your dungeon: 8 of 10 hearts left." in head
    assert "cards in hand 1" in head  # the improvement track, not the cards held ("Hand:")
    assert not PROGRAM.search(head), head
    state, events = act(state, 0, "refill")
    state, events = act(state, 1, "refill")  # the hero in Player 1's dungeon escapes
    assert GAME.is_over(state)
    assert "The hero in your dungeon escaped with 8 hearts." in GAME.header(state, 0)


def test_every_text_of_an_ai_game_is_free_of_program_words() -> None:
    for players in (2, 4):
        state = GAME.new(players, None, 11)
        seen: list[str] = []
        while not GAME.is_over(state):
            seat = min(GAME.to_act(state))
            seen += [GAME.header(state, seat), GAME.private_text(state, seat), GAME.status(state)]
            state, events = GAME.apply(state, seat, GAME.ai_action(state, seat))
            seen += [e.text for e in events]
        bad = sorted({t for t in seen if PROGRAM.search(t)})
        assert not bad, bad[:5]
        assert any("refills the hand" in t or "under the action deck" in t for t in seen)
        assert any(re.search(r"The hero in Player \d's dungeon suffers \d+ damage", t) for t in seen)
