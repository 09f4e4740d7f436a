""" "What now?" (issue 28 item 5): "the current phase in two or three sentences, what
this player can do, and what each choice costs and gives"; a watcher gets the phase
without anyone's secrets."""

from __future__ import annotations

import random

import pytest

from engine import core

# Every game writes its own "What now?" (none is left on the default status line).
WHAT_NOW_PENDING: set[str] = set()


def _walk(key: str, players: int, seed: int, moves: int) -> list[core.State]:
    game = core.get(key)
    pick = random.Random(seed)
    state = game.new(players, None, seed)
    out = [state]
    for _ in range(moves):
        if game.is_over(state):
            break
        seat = pick.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
        out.append(state)
    return out


@pytest.mark.parametrize("key", sorted(core.available()))
def test_what_now_explains_the_choices(key: str) -> None:
    """Every game answers "What now?" itself (not the status line): the seat to act is
    told what it may do, a seat that waits is told whom it waits for, a watcher is not
    addressed as a player."""
    game = core.get(key)
    players = max(game.min_players, 3)
    waited = 0
    for state in _walk(key, players, 4, 60):
        if game.is_over(state):
            continue
        actor = sorted(game.to_act(state))[0]
        mine = game.what_now(state, actor)
        assert mine != game.status(state), f"{key}: What now? is only the status line"
        assert len(mine) <= 1500
        others = [s for s in range(players) if s not in game.to_act(state)]
        if others:
            waited += 1
            theirs = game.what_now(state, others[0])
            assert theirs != mine, f"{key}: the seat to act and a waiting seat are told the same"
            assert "Your choices" not in theirs and "You can:" not in theirs
        watcher = game.what_now(state, None)
        assert "Your choices" not in watcher and "you" not in watcher.lower().split()
    assert waited or key == "dungeon-decorators", f"{key}: no state where a seat waited was checked"


def test_monster_inn_says_what_leaving_and_the_exchange_cost() -> None:
    """ "pay the same number of gems plus 2" (the exchange) and what leaving takes."""
    game = core.get("monster-inn")
    state = game.new(4, None, 1)
    seat = sorted(game.to_act(state))[0]
    state, _ = game.apply(state, seat, "gold")
    actor = sorted(game.to_act(state))[0]
    text = game.what_now(state, actor)
    assert "take the pool's 1 gold and pay 3 gems" in text
    assert "Leave: take" in text and "out until the next round" in text


def test_monster_inn_what_now_keeps_purses_secret() -> None:
    """A watcher's answer never tells a purse (hidden treasure is the default)."""
    game = core.get("monster-inn")
    for state in _walk("monster-inn", 4, 9, 30):
        assert "you hold" not in game.what_now(state, None).lower()


def test_dungeon_lair_counts_the_places_a_tile_fits() -> None:
    game = core.get("dungeon-lair")
    state = game.new(2, None, 3)
    actor = state["current"]
    text = game.what_now(state, actor)
    assert "fits in" in text and "tile A" in text


@pytest.mark.parametrize("key", ["monster-inn", "dungeon-lair"])
def test_chooser_descriptions_fit_a_select_option(key: str) -> None:
    """Every description the chooser gives fits Discord's 100 characters (tables never
    has to cut one) and names a real option."""
    game = core.get(key)
    seen = 0
    for state in _walk(key, max(game.min_players, 3), 6, 80):
        if game.is_over(state):
            continue
        seat = sorted(game.to_act(state))[0]
        choice = game.chooser(state, seat, [])
        notes = choice.descriptions or {}
        assert set(notes) <= {tok for tok, _label in choice.options}
        assert all(0 < len(n) <= 100 for n in notes.values()), notes
        seen += len(notes)
    assert seen
