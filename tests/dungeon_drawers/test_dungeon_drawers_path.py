"""Phase B: the hero's path, drawn by the left neighbour, and every path law."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_drawers import board
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, path_state, sheet_from

SHORT = "path A1 H1 H10"


def test_path_notation_is_corners_joined_by_straight_runs() -> None:
    a = GAME.parse("path a1 a4 c4 c10 h10")
    assert a["cells"][:5] == ["A1", "A2", "A3", "A4", "B4"]
    assert a["cells"][-1] == "H10" and len(a["cells"]) == 3 + 2 + 6 + 5 + 1
    assert GAME.format(a) == "path A1 A4 C4 C10 H10"
    # a 180 degree turn is a corner too
    back = GAME.parse("path A1 A4 A2 H2 H10")
    assert GAME.format(back) == "path A1 A4 A2 H2 H10"
    assert back["cells"][:7] == ["A1", "A2", "A3", "A4", "A3", "A2", "B2"]


def test_every_player_draws_at_once_in_the_dungeon_on_their_right() -> None:
    state = path_state([sheet_from(EMPTY) for _ in range(3)])
    assert GAME.to_act(state) == {0, 1, 2}
    state, _ = act(state, 1, SHORT)  # P2 draws in P1's dungeon
    assert state["players"][0]["path"] is not None
    assert GAME.to_act(state) == {0, 2}
    # the drawn path stays hidden until every path is drawn, except from its drawer
    assert GAME.view(state, None)["players"][0]["path"] is None
    assert GAME.view(state, 0)["players"][0]["path"] is None
    assert GAME.view(state, 2)["players"][0]["path"] is None
    assert GAME.view(state, 1)["players"][0]["path"] is not None
    assert "path A1" not in GAME.public_format(state, 1, GAME.parse(SHORT))
    state, _ = act(state, 2, SHORT)
    state, _ = act(state, 0, "path A1 A10 H10")  # P1 draws in P3's dungeon
    assert state["phase"] == "defend"
    assert GAME.view(state, None)["players"][2]["path"][:3] == ["A1", "A2", "A3"]


INVALID = sheet_from(
    [
        "........",
        "......#.",
        "..g.....",
        ".t......",
        "........",
        "........",
        "........",
        "........",
        "........",
        "........",
    ]
)


@pytest.mark.parametrize(
    ("path", "law"),
    [
        ("path A1 F1 F2 G6 G10 H10", "not a straight line"),  # 1 a branch (F2, G6)
        ("path A1 E1 E2 D3 D10 H10", "not a straight line"),  # 2 diagonal E2 to D3
        ("path A1 F1 F2 H2 H10", r"never pass through a wall \(G2\)"),  # 3 wall on G2
        ("path A1 A8 D8 D7 C7 C9 B9 B8 D8 D10 H10", r"at most twice \(C8\)"),  # 4 C8 three times
        ("path A1 C1 C4 D4 D3 C3 C2 E2 E10 H10", "monster on C3 a second time"),  # 5 C3 twice in a row
    ],
    ids=["branch", "diagonal", "wall", "thrice", "monster-twice"],
)
def test_rulebook_invalid_path_example(path: str, law: str) -> None:
    state = path_state([INVALID, sheet_from(EMPTY)])
    with pytest.raises(IllegalAction, match=law):
        act(state, 1, path)
    assert state["players"][0]["path"] is None


def test_a_monster_may_be_crossed_again_after_another_monster_or_trap() -> None:
    # C3 twice with the trap on B4 in between is allowed
    state = path_state([INVALID, sheet_from(EMPTY)])
    state, _ = act(state, 1, "path A1 C1 C4 B4 B3 C3 D3 D10 H10")
    assert state["players"][0]["path"].count("C3") == 2


def test_rulebook_valid_path_example_turns_crossings_and_parallel_runs() -> None:
    # 180 degree turns at A4 and H2, a crossing at G6, parallel runs down C and D
    path = "path A1 A4 A2 H2 G2 G7 F7 F6 H6 H8 C8 C10 D10 D9 H9 H10"
    cells = GAME.parse(path)["cells"]
    assert board.path_problem(sheet_from(EMPTY), cells) is None
    state = path_state([sheet_from(EMPTY), sheet_from(EMPTY)])
    state, _ = act(state, 1, path)
    assert state["players"][0]["path"] == cells


def test_path_must_run_from_the_entrance_to_the_exit() -> None:
    state = path_state([sheet_from(EMPTY), sheet_from(EMPTY)])
    with pytest.raises(IllegalAction, match="start at A1"):
        act(state, 1, "path B1 H1 H10")
    with pytest.raises(IllegalAction, match="end at H10"):
        act(state, 1, "path A1 H1 H9")
    with pytest.raises(IllegalAction, match="Phase B"):
        act(state, 1, "take 3")


def test_offered_paths_are_few_valid_and_include_the_shortest() -> None:
    rows = list(EMPTY)
    rows[4] = "#####.g."
    rows[2] = ".o....t."
    sheet = sheet_from(rows, imp={"orc": 11})
    state = path_state([sheet, sheet_from(EMPTY)])
    offered = GAME.legal_actions(state, 1)
    assert 1 <= len(offered) <= 4
    lengths = [len(a["cells"]) for a in offered]
    assert min(lengths) == 17  # the shortest route A1 -> H10
    for a in offered:
        assert board.path_problem(sheet, a["cells"]) is None
        assert GAME.parse(GAME.format(a)) == a


def test_ai_draws_around_strong_monsters_and_traps() -> None:
    # the top corridor holds a +12 orc and a level-4 trap; the open way down column A is as short
    rows = list(EMPTY)
    rows[0] = "..o.t..."
    rows[1] = ".######."
    sheet = sheet_from(rows, imp={"orc": 11, "trap": 10})
    state = path_state([sheet, sheet_from(EMPTY)])
    action = GAME.ai_action(state, 1)
    assert board.path_problem(sheet, action["cells"]) is None
    assert "C1" not in action["cells"] and "E1" not in action["cells"]
    # the shortest path offered does go through them: the AI chose, it was not handed the answer
    assert any("C1" in a["cells"] for a in GAME.legal_actions(state, 1))


def test_long_path_labels_are_elided_in_the_middle_and_stay_unique() -> None:
    from engine.dungeon_drawers import board

    rows = [c for r in range(1, 10) for c in ((f"A{r}", f"H{r}") if r % 2 else (f"H{r}", f"A{r}"))]
    stairs = ["A5", "B5", "B6", "C6", "C7", "D7", "D8", "E8", "E9", "F9", "F10", "G10", "G9"]
    cells = board.expand([*rows[:8], *stairs, "H9", "H10"])  # 23 corners
    other = board.expand([*rows[:8], *stairs[:-2], "H10"])  # the same start, another end
    state = path_state([sheet_from(EMPTY), sheet_from(EMPTY)])
    labels = [GAME.describe(state, {"t": "path", "cells": c}) for c in (cells, other)]
    assert all(len(x) <= 80 and x.endswith("H10") for x in labels)
    assert " ... " in labels[0] and " ... " not in labels[1]  # only a label too long is elided
    assert labels[0].startswith(f"Path, {len(cells)} spaces: A1 H1 H2 A2")
    assert labels[0] != labels[1]
