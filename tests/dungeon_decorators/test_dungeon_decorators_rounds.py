"""Setup, round setup, the bags, hourglasses, the draft board and turn order."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import IllegalAction
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R

from .helpers import act, staged


def test_setup_counts() -> None:
    for players in (2, 3, 4):
        s = GAME.new(players, None, 5)
        assert len(s["box"]) == 20
        assert len(s["blue"]) == 50 and 0 not in s["blue"]
        assert len(s["red"]) == 53 and s["red"].count(0) == 3
        everything = s["box"] + s["blue"] + [t for t in s["red"] if t]
        assert sorted(everything) == sorted(R.TILES)
        a, b = s["boss"]
        assert R.BOSSES[a]["deck"] == "A" and R.BOSSES[b]["deck"] == "B"
        for p in s["players"]:
            kinds = Counter(g[0] for g in p["hand"])
            assert kinds == {"S": 3, "D": 3}
            assert p["dungeon"] == {"AO41": R.start_cell()}
        assert sorted(s["order"]) == list(range(players))
        assert s["phase"] == "keep" and GAME.to_act(s) == set(range(players))


def test_players_discard_any_two_goals_face_down_then_round_one_starts() -> None:
    s = GAME.new(2, None, 5)
    h0 = s["players"][0]["hand"]
    shapes = [g for g in h0 if g.startswith("S")]
    s, ev = act(s, 0, f"discard {shapes[0]} {shapes[1]}")  # two of the same type is fine
    assert len(s["players"][0]["hand"]) == 4
    assert sorted(s["discards"]["S"]) == sorted(shapes[:2])
    assert all(shapes[0] not in e.text for e in ev if e.seat is None)  # face down
    assert s["phase"] == "keep" and GAME.to_act(s) == {1}
    with pytest.raises(IllegalAction):
        act(s, 1, "discard S99 D1")
    h1 = s["players"][1]["hand"]
    s, _ = act(s, 1, f"discard {h1[0]} {h1[5]}")
    assert s["phase"] == "draft" and s["round"] == 1 and len(s["board"]) == 4


def test_example_11_round_setup_in_number_order() -> None:
    s = staged(blue=[171, 282, 30, 111] + list(range(1, 3)))
    assert s["board"] == [30, 111, 171, 282]


def test_leftover_tiles_go_to_the_box_and_the_blue_bag_runs_into_the_red() -> None:
    s = staged(blue=[30, 111, 171, 282, 12, 15], red=[19, 23, 26, 28, 0, 0, 0])
    s, _ = act(s, 0, "draft 30")
    s = finish_turn(s, 0)
    s, _ = act(s, 1, "draft 111")
    s = finish_turn(s, 1)
    # Round 2: 171 and 282 went to the box; blue had 2 tiles left, red gives the other 2.
    assert {171, 282} <= set(s["box"])
    assert s["round"] == 2 and s["board"] == [12, 15, 19, 23]
    assert s["blue"] == [] and s["red"] == [26, 28, 0, 0, 0]


def test_hourglass_in_round_setup_is_set_aside_and_the_third_ends_the_game_at_once() -> None:
    s = staged(blue=[30, 111, 171, 282], red=[0, 12, 0, 15, 19, 23, 0, 26, 28, 1])
    for seat in (0, 1):
        s, _ = act(s, seat, f"draft {s['board'][seat]}")
        s = finish_turn(s, seat)
    assert s["hourglasses"] == 2 and s["board"] == [12, 15, 19, 23]
    for seat in (0, 1):
        s, _ = act(s, seat, f"draft {[t for t in s['board'] if t][0]}")
        s = finish_turn(s, seat)
    # The third hourglass comes up during round 3's setup: no round 3 is played.
    assert GAME.is_over(s) and s["round"] == 2 and s["hourglasses"] == 3


def test_third_hourglass_during_a_turn_lets_the_round_finish() -> None:
    s = staged(blue=[30, 111, 171, 282], red=[0, 0, 12, 0, 15, 19, 23, 26, 28])
    s, ev = act(s, 0, "exchange")  # draws two hourglasses, then tile 12
    assert s["hourglasses"] == 2 and s["players"][0]["pending"][0]["t"] == 12
    s, _ = act(s, 0, "draw S")
    s, _ = act(s, 0, f"discard {s['players'][0]['hand'][0]}")
    assert not s["end_after_round"]
    s2 = staged(blue=[46, 111, 171, 282], red=[0, 0, 0, 12, 15, 19, 23])
    s2, ev = act(s2, 0, "draft 46")  # 46 carries a Burrow Bro: its draws meet the third hourglass
    assert s2["hourglasses"] == 3 and s2["end_after_round"]
    assert any("after this round" in e.text for e in ev)
    s2, _ = act(s2, 0, "keep 46")
    s2 = finish_turn(s2, 0)
    assert not GAME.is_over(s2) and GAME.to_act(s2) == {1}
    s2, _ = act(s2, 1, "draft 111")
    s2 = finish_turn(s2, 1)
    assert GAME.is_over(s2)


def test_example_12_far_spots_draft_last_next_round() -> None:
    s = staged(players=4, blue=[30, 111, 171, 297] + list(range(1, 9)), order=[2, 0, 3, 1])
    assert GAME.to_act(s) == {2}  # the pawn on spot 1 acts first
    s, _ = act(s, 2, "draft 297")  # the rightmost spot
    s = finish_turn(s, 2)
    s, _ = act(s, 0, "exchange")  # the middle spot
    s, _ = act(s, 0, "draw D")
    s, _ = act(s, 0, f"discard {s['players'][0]['hand'][0]}")
    s = finish_turn(s, 0)
    with pytest.raises(IllegalAction, match="already been taken"):
        GAME.apply(s, 3, {"a": "exchange"})
    s, _ = act(s, 3, "draft 111")
    s = finish_turn(s, 3)
    s, _ = act(s, 1, "draft 30")
    s = finish_turn(s, 1)
    # Spot 1 (seat 1), spot 2 (seat 3), exchange (seat 0), spot 4 (seat 2).
    assert s["round"] == 2 and s["order"] == [1, 3, 0, 2]
    assert s["exchange_taken"] is None


def test_only_tiles_on_the_board_can_be_drafted() -> None:
    s = staged(blue=[30, 111, 171, 282, 1, 4])
    with pytest.raises(IllegalAction, match="not on the draft board"):
        act(s, 0, "draft 4")
    with pytest.raises(IllegalAction, match="not your turn"):
        act(s, 1, "draft 30")


def finish_turn(s: dict, seat: int) -> dict:
    """Play out the rest of ``seat``'s turn with the AI (build, score, refill)."""
    while not GAME.is_over(s) and GAME.to_act(s) == {seat} and s["phase"] != "draft":
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
    return s


def test_burrow_bro_draws_nothing_more_once_the_red_bag_is_empty() -> None:
    s = staged(blue=[30, 46, 111, 171], red=[0, 0, 0, 297])
    s, ev = act(s, 0, "draft 46")
    # The bag held three hourglasses and one tile: the Burrow Bro gets just that one.
    assert s["burrow"] == [46, 297] and s["red"] == [] and s["end_after_round"]
    s, _ = act(s, 0, "keep 297")
    assert [x["t"] for x in s["players"][0]["pending"]] == [297, "G"]


def test_a_player_with_nothing_to_draft_still_takes_a_turn() -> None:
    # Stacked bags without hourglasses: two tiles for three players, nothing left to draw.
    s = staged(revision=2, players=3, blue=[30, 111], red=[])
    s, _ = act(s, 0, "draft 30")
    s = finish_turn(s, 0)
    s, _ = act(s, 1, "draft 111")
    s = finish_turn(s, 1)
    assert GAME.is_over(s)  # player 3 had nothing to draft; the next round has no tiles at all
