"""Dungeon Lair's sample(view, rnd) for the searching player (issue 30).

The rulebook hides two things: "deal one tile to each player, face-down" and "she first
draws a new tile, without revealing it to other players" - so a seat cannot see the
other players' tiles in hand nor the order of the shuffled stack. A sample deals those
at random and copies everything else from the view. States come from real games of
today's player (easy), with 2 and 6 players and the Catacomb extra rules."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from engine.core import State
from engine.dungeon_lair import GAME
from engine.dungeon_lair.data import BASE_IDS, TILES
from engine.dungeon_lair.sample import sample
from engine.dungeon_lair.views import hand_letters
from tests.playout import assert_sample_like_real


def _positions(players: int, seed: int, options: dict[str, Any] | None = None) -> list[State]:
    """Early, middle and late positions of one game of easy players."""
    state = GAME.new(players, options, seed=seed)
    states = [state]
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        states.append(state)
    states.pop()  # the finished game: nothing left to search
    n = len(states)
    return [states[i] for i in (1, 2, n // 3, n // 2, (2 * n) // 3, n - 2, n - 1)]


CASES = [
    (2, 11, None),
    (6, 12, None),
    (2, 13, {"catacombs": True}),
    (3, 14, {"beginner": True}),
]
POSITIONS = [(s, i) for players, seed, opts in CASES for i, s in enumerate(_positions(players, seed, opts))]


def _tile_ids(state: State) -> list[int]:
    return sorted(
        state["deck"]
        + [t for h in state["hands"] for t in h]
        + [e["t"] for e in state["board"].values()]
        + state["removed"]
    )


def _twin(state: State, seat: int, rnd: random.Random) -> State:
    """The same game as ``seat`` sees it, with everything it cannot see dealt anew: the
    stack and the other players' tiles reshuffled among themselves, and a different seed
    (the seed is never shown; one is picked that names the seat's own tiles by the same
    letters, as the view shows those)."""
    twin = copy.deepcopy(state)
    others = [s for s in range(twin["seats"]) if s != seat]
    pool = list(twin["deck"]) + [t for s in others for t in twin["hands"][s]]
    rnd.shuffle(pool)
    for s in others:
        n = len(twin["hands"][s])
        twin["hands"][s], pool = pool[:n], pool[n:]
    twin["deck"] = pool
    letters = hand_letters(state, seat)
    for _ in range(500):
        twin["rng"] = {"seed": rnd.randrange(2**31), "n": state["rng"]["n"]}
        if twin["rng"]["seed"] != state["rng"]["seed"] and hand_letters(twin, seat) == letters:
            break
    else:  # pragma: no cover - 500 tries for at most a few letters
        raise AssertionError("no seed gives the same letters")
    return twin


@pytest.mark.parametrize("state,i", POSITIONS)
def test_a_sample_shows_the_seat_exactly_its_view(state: State, i: int) -> None:
    components = sorted(TILES if state["options"].get("catacombs") else BASE_IDS)
    for seat in range(state["seats"]):
        view = GAME.view(state, seat)
        for k in range(3):
            s = sample(view, random.Random(k))
            # every field of the view, the letters of the seat's own tiles included
            assert_sample_like_real(GAME, s, state, seat)
            assert _tile_ids(s) == components
            assert [len(h) for h in s["hands"]] == [len(h) for h in state["hands"]]
            assert s["rng"]["seed"] != state["rng"]["seed"]
        assert "rng" not in view and "deck" not in view.get("mine", {})


@pytest.mark.parametrize("players,seed,options", CASES)
def test_a_sample_plays_on_to_the_end(players: int, seed: int, options: dict[str, Any] | None) -> None:
    state = _positions(players, seed, options)[3]
    s = sample(GAME.view(state, state["current"]), random.Random(5))
    moves = 0
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
        moves += 1
    assert moves > 0 and len(GAME.result(s).scores) == players


@pytest.mark.parametrize("state,i", POSITIONS[::2])
def test_what_the_seat_cannot_see_does_not_change_the_samples(state: State, i: int) -> None:
    for seat in range(state["seats"]):
        twin = _twin(state, seat, random.Random(seat + 100 * i))
        hidden_differs = twin["deck"] != state["deck"] or twin["hands"] != state["hands"]
        if len(state["deck"]) > 1:
            assert hidden_differs
        assert GAME.view(twin, seat) == GAME.view(state, seat)
        for k in range(3):
            a = sample(GAME.view(state, seat), random.Random(k))
            b = sample(GAME.view(twin, seat), random.Random(k))
            assert a == b


@pytest.mark.parametrize("players,seed,options", CASES[:2])
def test_the_hidden_tiles_are_dealt_differently_each_time(
    players: int, seed: int, options: dict[str, Any] | None
) -> None:
    state = _positions(players, seed, options)[3]
    seat = (state["current"] + 1) % players  # not the player to move: a rival holds a tile
    view = GAME.view(state, seat)
    samples = [sample(view, random.Random(k)) for k in range(40)]
    tops = Counter(s["deck"][0] for s in samples)
    rival = next(s for s in range(players) if s != seat and state["hands"][s])
    held = Counter(tuple(sorted(s["hands"][rival])) for s in samples)
    assert len(tops) >= 20, tops  # some 60 tiles could be on top
    assert len(held) >= 20, held
    assert sum(s["deck"] == state["deck"] for s in samples) == 0
    # the seat's own tiles and the map never vary
    assert all(s["hands"][seat] == samples[0]["hands"][seat] for s in samples)
    assert all(s["board"] == state["board"] for s in samples)


@pytest.mark.parametrize("players,seed,options", CASES[:3])
def test_a_map_extended_tile_by_tile_equals_one_built_at_once(
    players: int, seed: int, options: dict[str, Any] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Search lays thousands of tiles: Dungeon.of extends the map it built for the board
    before the last tile. Zones ("it holds every room it can walk to without passing a door
    or a portcullis"), reaches and doors must be those of the map built from scratch."""
    from engine.dungeon_lair.board import Dungeon, distinct_rotations

    plus = Dungeon.plus
    calls = []

    def counted(self: Dungeon, cell: str, entry: dict[str, Any]) -> Dungeon:
        calls.append(cell)
        return plus(self, cell, entry)

    monkeypatch.setattr(Dungeon, "plus", counted)
    state = GAME.new(players, options, seed=seed)
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        before = len(state["board"])
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        if len(state["board"]) == before:
            continue
        got = GAME.dungeon(state)
        want = Dungeon(dict(state["board"]), bool(state["options"].get("catacombs")))
        assert list(got.area_at.items()) == list(want.area_at.items())
        assert {lab: (got.zone(lab), got.reach(lab)) for lab in got.room} == {
            lab: (want.zone(lab), want.reach(lab)) for lab in want.room
        }
        assert sorted(got.doors) == sorted(want.doors)
        assert got.frontier() == want.frontier()
        # what the players' what-ifs read, carried over from the map before the tile
        assert got.zone_stats() == want.zone_stats()
        assert {lab: got.moves_from(lab) for lab in got.room} == {
            lab: want.moves_from(lab) for lab in want.room
        }
        assert [got.around(c) for c in want.frontier()] == [want.around(c) for c in want.frontier()]
        cells = want.frontier()
        for t in (1, 17, 21, 34, 35, 51, 78, 82):  # every kind of edge, turned every way
            fault_free = [
                (c, r) for c in cells for r in distinct_rotations(t) if want.placement_fault(t, c, r) is None
            ]
            assert got.fits(t, cells) == fault_free
    assert len(calls) > 30  # the maps above were extended, not rebuilt


@pytest.mark.parametrize("state,i", POSITIONS)
def test_the_rollout_s_position_is_the_one_of_the_seat_s_view(state: State, i: int) -> None:
    """Rollouts and evaluate read the seat's zones straight from the sample, without
    building its view: what they read must be exactly what today's player reads from the
    view (same zones in the same order, same powers, reserves and totals)."""
    from engine.dungeon_lair.ai import Position

    for seat in range(state["seats"]):
        fast, slow = Position.of_state(state, seat), Position(GAME.view(state, seat))
        assert list(fast.zones.items()) == list(slow.zones.items())
        assert (fast.monsters, fast.turns, fast.reserve, fast.hand_value) == (
            slow.monsters,
            slow.turns,
            slow.reserve,
            slow.hand_value,
        )
        assert fast.totals == slow.totals and fast.dungeon is slow.dungeon
