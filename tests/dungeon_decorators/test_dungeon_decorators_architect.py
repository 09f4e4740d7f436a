"""Arcane Architects (swap, every use offered) and the step-by-step move chooser."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import architect as A
from engine.dungeon_decorators import rules as R

from .helpers import act, grid, room_or_hall, set_dungeon, staged


def with_tokens(state: dict[str, Any], seat: int, n: int) -> None:
    state["players"][seat]["tokens"]["architect"] = n
    state["tokens_left"]["architect"] = 10 - n


def test_swapping_two_tiles_takes_two_architects() -> None:
    # "if you wish to swap two tiles in your dungeon, you must use two Arcane Architects."
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange"), "AQ41": room_or_hall("WE", "blue")}))
    with_tokens(s, 0, 2)
    s, _ = act(s, 0, "draft 282")
    assert {"a": "swap", "at": ["AP41", "AQ41"], "rot": [0, 0]} in GAME.legal_actions(s, 0)
    s, ev = act(s, 0, "swap AP41 AQ41")
    cells = s["players"][0]["dungeon"]
    assert cells["AP41"]["floor"] == "blue" and cells["AQ41"]["floor"] == "orange"
    assert s["players"][0]["tokens"]["architect"] == 0 and s["tokens_left"]["architect"] == 10
    assert "swaps the tiles at AP41 and AQ41" in ev[0].text


def test_a_swap_with_one_token_or_of_the_start_is_refused_and_changes_nothing() -> None:
    s = staged(revision=2, blue=[30, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange"), "AQ41": room_or_hall("WE", "blue")}))
    with_tokens(s, 0, 1)
    s, _ = act(s, 0, "draft 282")
    before = dict(s)
    with pytest.raises(IllegalAction, match="two Arcane Architect"):
        act(s, 0, "swap AP41 AQ41")
    assert not [a for a in GAME.legal_actions(s, 0) if a["a"] == "swap"]
    with_tokens(s, 0, 2)
    with pytest.raises(IllegalAction, match="starting tile"):
        act(s, 0, "swap AO41 AP41")
    assert s["players"][0]["dungeon"] == before["players"][0]["dungeon"]


def test_moves_are_offered_not_only_turns() -> None:
    # "discard a token, then rotate and/or move one tile in your dungeon"
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange")}))
    with_tokens(s, 0, 1)
    s, _ = act(s, 0, "draft 282")
    legal = GAME.legal_actions(s, 0)
    moves = [a for a in legal if a["a"] == "arch"]
    # The orange hallway may go to the start's north, south or west, turned to join it.
    assert {"a": "arch", "from": "AP41", "to": "AO40", "rot": 1} in moves
    assert {"a": "arch", "from": "AP41", "to": "AN41", "rot": 0} in moves
    # Every offered use leaves a legal dungeon (or one a held tile can make legal).
    for a in moves:
        after = A.apply_use(R.to_grid(s["players"][0]["dungeon"]), a)
        assert R.dungeon_problem(after) is None or R.repairs(after, 282)


def test_disconnect_and_fill_is_offered() -> None:
    # "you may temporarily 'disconnect' your dungeon while using Arcane Architects and fill the
    # resulting spaces with newly-drafted tiles or tiles from storage."
    s = staged(blue=[73, 111, 171, 282, 4, 8])  # 73: a straight hallway
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange")}))
    with_tokens(s, 0, 1)
    s, _ = act(s, 0, "draft 73")
    move = {"a": "arch", "from": "AP41", "to": "AQ41", "rot": 0}
    assert move in GAME.legal_actions(s, 0)  # only legal once 73 fills AP41
    s, _ = GAME.apply(s, 0, move)
    assert {"a": "place", "tile": 73, "side": "D", "at": "AP41", "rot": 1} in GAME.legal_actions(s, 0)


def walk(state: dict[str, Any], seat: int) -> list[Any]:
    """Every move the chooser leads to, checking each step on the way."""
    found = []
    todo: list[list[str]] = [[]]
    while todo:
        prefix = todo.pop()
        choice = GAME.chooser(state, seat, prefix)
        assert len(choice.options) <= 25, (prefix, len(choice.options))
        for token, label in choice.options:
            assert " " not in token and len(label) <= 80 and label
        if choice.action is not None:
            found.append(choice.action)
        todo += [prefix + [t] for t, _ in choice.options]
    return found


def test_every_legal_move_is_reachable_through_the_chooser_in_small_steps() -> None:
    s = staged(blue=[73, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange"), "AQ41": room_or_hall("WE", "blue")}))
    with_tokens(s, 0, 2)
    s, _ = act(s, 0, "draft 73")
    legal = GAME.legal_actions(s, 0)
    assert any(a["a"] == "arch" for a in legal) and any(a["a"] == "swap" for a in legal)
    found = walk(s, 0)
    key = GAME.format
    assert set(map(key, found)) >= set(map(key, legal))
    # Beyond the list: Architect moves found once a tile is chosen ("disconnect and
    # fill"), each one a move the game accepts.
    for extra in [a for a in found if key(a) not in set(map(key, legal))]:
        assert extra["a"] == "arch"
        GAME.apply(s, 0, extra)


def test_a_big_build_narrows_in_steps_of_at_most_25() -> None:
    # A dungeon that sprawls (a long hallway with rooms off it): well over 100 placements.
    cells = {R.coord((R.ORIGIN + k, R.ORIGIN)): room_or_hall("WE") for k in range(1, 12)}
    s = staged(blue=[282, 111, 171, 30, 4, 8])
    set_dungeon(s, 0, grid(cells))
    s, _ = act(s, 0, "draft 282")
    legal = GAME.legal_actions(s, 0)
    assert len([a for a in legal if a["a"] == "place"]) > 25
    first = GAME.chooser(s, 0, [])
    assert first.prompt and {t for t, _ in first.options} >= {"t282D", "t282X", "store282"}
    assert sorted(map(GAME.format, walk(s, 0))) == sorted(map(GAME.format, legal))
    # The labels say in words what a placement does.
    path = GAME.segments(s, 0, {"a": "place", "tile": 282, "side": "D", "at": "AO40", "rot": 0})
    words = " ".join(label for _, label in path)
    assert "tile 282" in words and "dungeon side" in words and "AO40" in words and "hallway" in words


def test_the_how_to_play_examples_are_real_chooser_steps() -> None:
    """The three examples in docs/rules/dungeon-decorators.md are what the chooser shows."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs/rules/dungeon-decorators.md").read_text()
    how = doc.split("## How to play", 1)[1].split("\n## ", 1)[0]
    assert len(how.strip()) <= 1800
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    labels = [label for _, label in GAME.chooser(s, 0, []).options]
    s, _ = act(s, 0, "draft 171")
    labels += [label for _, label in GAME.segments(s, 0, GAME.parse("171 D AP41 270"))]
    a = staged(blue=[30, 111, 171, 282, 4, 8])
    with_tokens(a, 0, 1)
    a, _ = act(a, 0, "draft 30")
    a, _ = act(a, 0, "30 D AO40 180")
    labels += [label for _, label in GAME.segments(a, 0, GAME.parse("move AO40 AN41 270"))]
    for label in [
        "Draft tile 171: room, red floor; table, Decorative Mimic",
        "Place new tile 171, dungeon side up",
        "AP41: room, door west",
        "Arcane Architect: move or turn a tile in your dungeon",
        "AO40: the tile 30",
        "AN41, turned 270°: room, door east",
    ]:
        assert label in labels and f'"{label}"' in how
