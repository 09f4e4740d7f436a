"""Whole games: random play with invariants (hypothesis), the AI, notation and bad input."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import IllegalAction, copy_state
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R
from tests.playout import random_playout

from .helpers import act, deco, grid, room_or_hall, set_dungeon, staged


def tile_census(s: dict) -> Counter:
    """Where every numbered tile is: each must be in exactly one place."""
    places: list = (
        [t for t in s["box"] if t != "G"]
        + [t for t in s["blue"] + s["red"] if t]
        + [t for t in s["board"] if t]
    )
    for p in s["players"]:
        places += [c["t"] for c in p["dungeon"].values() if isinstance(c["t"], int)]
        places += [t for t in p["storage"] if t != "G"]
        places += [x["t"] for x in p["pending"] if x["t"] != "G"]
    if s["burrow"]:
        places += s["burrow"][1:]  # the first is the tile in hand (pending)
    return Counter(places)


def check(s: dict) -> None:
    census = tile_census(s)
    assert set(census) == set(R.TILES) and set(census.values()) == {1}
    generics = sum(
        sum(1 for c in p["dungeon"].values() if c["t"] == "G")
        + p["storage"].count("G")
        + sum(1 for x in p["pending"] if x["t"] == "G")
        for p in s["players"]
    )
    assert generics + s["generic_left"] + s["box"].count("G") == 10
    for kind in ("architect", "mimic"):
        assert sum(p["tokens"][kind] for p in s["players"]) + s["tokens_left"][kind] == 10
    assert s["hourglasses"] <= 3
    for i, p in enumerate(s["players"]):
        assert len(p["storage"]) <= 2 and len(p["hand"]) <= 6
        mid_architect = s["relaxed"] and s["phase"] == "build" and GAME.to_act(s) == {i}
        if not mid_architect:
            assert R.dungeon_problem(R.to_grid(p["dungeon"])) is None
        assert p["chits"] == p["score"] // 50
    if s["phase"] not in ("keep", "over"):
        goals = [g for p in s["players"] for g in p["hand"] + p["scored"]]
        goals += [g for d in "SD" for g in s["decks"][d] + s["discards"][d]]
        assert sorted(goals) == sorted(R.GOALS)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_random_games_end_with_invariants(seed: int, players: int) -> None:
    scores: list[int] = [0] * players

    def monotone(s: dict) -> None:
        check(s)
        for i, p in enumerate(s["players"]):
            assert p["score"] >= scores[i]
            scores[i] = p["score"]

    state, log = random_playout(GAME, players, seed, check=monotone)
    assert GAME.is_over(state) and state["hourglasses"] == 3 or not (state["blue"] or state["red"])
    res = GAME.result(state)
    assert res.scores == [p["score"] for p in state["players"]]
    assert [sum(b.values()) for b in res.breakdown] == res.scores
    assert GAME.legal_actions(state, 0) == [] and GAME.to_act(state) == set()


def test_ai_beats_random_play() -> None:
    wins = 0
    margins = []
    for game_no in range(2):
        s = GAME.new(2, None, 500 + game_no)
        ai_seat = game_no % 2
        r = random.Random(game_no)
        while not GAME.is_over(s):
            seat = min(GAME.to_act(s))
            a = GAME.ai_action(s, seat) if seat == ai_seat else r.choice(GAME.legal_actions(s, seat))
            s, _ = GAME.apply(s, seat, a)
        res = GAME.result(s)
        wins += res.winners == [ai_seat]
        margins.append(res.scores[ai_seat] - res.scores[1 - ai_seat])
    assert wins == 2 and min(margins) > 15


def test_ai_scores_a_goal_it_has_met() -> None:
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")
    g[R.parse_coord("AN40")] = deco("-P--")
    set_dungeon(s, 0, g)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    assert GAME.ai_action(s, 0) == {"a": "score", "goal": "D1"}


def test_ai_drafts_and_places_the_tile_that_completes_a_goal() -> None:
    # Room AO40 already has swords on its north wall; tile 283 (-P-P) as a decoration tile west of
    # it puts spikes on the room's west wall and completes Sharp Pointy Object Storage (10).
    s = staged(blue=[30, 111, 171, 283, 4, 8])
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("--X-")
    set_dungeon(s, 0, g)
    assert GAME.ai_action(s, 0) == {"a": "draft", "tile": 283}
    s, _ = act(s, 0, "draft 283")
    a = GAME.ai_action(s, 0)
    s, _ = GAME.apply(s, 0, a)
    assert R.deco_cost(R.summarise(R.to_grid(s["players"][0]["dungeon"])), "D1") == 0


def test_ai_only_reads_its_own_view() -> None:
    s = staged(blue=[30, 111, 171, 283, 4, 8])
    t = copy_state(s)
    t["players"][1]["hand"] = ["S20", "S21", "D20", "D21"]
    t["red"] = list(reversed(t["red"]))
    assert GAME.ai_action(s, 0) == GAME.ai_action(t, 0)


@pytest.mark.parametrize(
    "text",
    [
        "171 D AP41",
        "171 X AP41 90",
        "G R AN41 270",
        "210 x ao42 90",
        "draft 30",
        "exchange",
        "swap AP41 AO40",
        "swap AP41 AO40 90 180",
        "swap AP41 AO40 0 270",
        "discard S3 D7",
        "keep 46",
        "store G",
        "box 12",
        "move AP41 AR41 90",
        "turn AP41 180",
        "reset",
        "done",
        "score s12",
        "draw D",
    ],
)
def test_notation_round_trips(text: str) -> None:
    a = GAME.parse(text)
    assert GAME.parse(GAME.format(a)) == a
    assert len(GAME.describe(staged(), a)) <= 80


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "171",
        "171 Q AP41",
        "171 D Z99",
        "171 D AP41 45",
        "999 D AP41",
        "draft",
        "score Q1",
        "exchange X",
        "exchange S",
        "171 D AP41 90 f",
        "swap AP41",
        "discard S1 S2 S3",
        "move AP41",
        "G D AP41",
    ],
)
def test_bad_input_is_one_clear_sentence(text: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        GAME.parse(text)
    msg = str(exc.value)
    assert msg.endswith(".") and "\n" not in msg


def test_a_mirror_image_is_refused_in_one_sentence() -> None:
    # "rotate or flip them": a flip shows the other printed side; a tile is never mirrored.
    with pytest.raises(IllegalAction, match="cannot be mirrored"):
        GAME.parse("111 X AP41 270 f")


def test_illegal_moves_change_nothing() -> None:
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    frozen = copy_state(s)
    for text in ("draft 4", "171 D AP41", "done", "score D1", "draw S"):
        with pytest.raises(IllegalAction):
            act(s, 0, text)
    s, _ = act(s, 0, "draft 30")
    frozen = copy_state(s)
    for text in ("30 D AP43", "30 X AP41", "30 D AO40", "171 D AO40 180", "box 30", "move AP41 AP42", "done"):
        with pytest.raises(IllegalAction):
            act(s, 0, text)
    assert s == frozen
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, "garbage")


def test_ai_spends_an_architect_when_a_turn_completes_a_goal() -> None:
    s = staged(revision=2, blue=[30, 111, 171, 282, 4, 8])
    g = grid({"AO40": room_or_hall("S")})
    g[R.parse_coord("AO39")] = deco("-XT-")  # table on the room's wall, swords pointing east
    g[R.parse_coord("AN40")] = deco("-P--")  # spikes on the room's west wall
    set_dungeon(s, 0, g)
    s["players"][0]["tokens"]["architect"] = 1
    s["tokens_left"]["architect"] = 9
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AP41")
    assert GAME.ai_action(s, 0) == {"a": "arch", "from": "AO39", "to": "AO39", "rot": 1}
    s, _ = act(s, 0, "turn AO39 90")
    s, _ = GAME.apply(s, 0, GAME.ai_action(s, 0))  # done
    assert GAME.ai_action(s, 0) == {"a": "score", "goal": "D1"}
