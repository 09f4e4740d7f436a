"""The orders menu says what each order costs and gives (issue 40 item 2: "All 12 Lords
order options carry the same cut-off text"): each option's line names the space its minion
would take, with that space's cost and gain, the non-player's public cards counted."""

from __future__ import annotations

import random

from engine import core
from engine.dungeon_lords.order_notes import SPACE, first_free, order_note

GAME = core.get("dungeon-lords")


def _orders_state(players: int, seed: int) -> dict:
    state, pick = GAME.new(players, None, seed), random.Random(seed)
    while state["phase"] != "orders":
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, pick.choice(GAME.legal_actions(state, seat)))
    return state


def test_each_order_option_says_its_own_cost_and_gain() -> None:
    state = _orders_state(3, 1)
    seat = min(GAME.to_act(state))
    step = GAME.chooser(state, seat, [])
    notes = step.descriptions or {}
    assert set(notes) == {tok for tok, _ in step.options}
    assert len(set(notes.values())) == len(notes), "no two orders say the same"
    assert all(len(n) <= 100 for n in notes.values())
    if "food" in notes and first_free(state, "food", 0) == 0:
        assert notes["food"].startswith("Space I: pay 1 gold: 2 food")
    declined = [t for t in notes if t.endswith("-")]
    assert declined and all("costs and gives nothing" in notes[t] for t in declined)


def test_the_non_players_card_takes_space_one_first() -> None:
    """Two lords: the non-player's card goes first each round of placing ("the non-player
    gives orders too, blocking spaces"), so a lord's minion there takes Space II."""
    state = _orders_state(2, 1)
    dummy = state["dummy"]["cards"]
    assert dummy
    first = dummy[0]
    assert first_free(state, first, 0) == 1
    assert order_note(state, first, 0, False).startswith(f"Space II: {SPACE[first][1]}")
    later = dummy[1] if len(dummy) > 1 else None
    if later is not None and later != first:
        assert first_free(state, later, 0) == 0, "its second card is placed after the first orders"
