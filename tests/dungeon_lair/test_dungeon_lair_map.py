"""Dungeon Lair: the map without an edge, its coordinates, and the move chooser."""

from __future__ import annotations

import json
import random

import pytest

from engine.dungeon_lair import GAME
from engine.dungeon_lair.board import cell_pos
from tests.dungeon_lair.helpers import CROSS, ROOM4, STRAIGHT, act, board, legal_notes, new
from tests.playout import ai_playout

# ---- no edge -------------------------------------------------------------------------------


def test_the_dungeon_grows_in_every_direction_without_an_edge() -> None:
    # The rulebook has no board: a tile goes anywhere "so that it touches one or more tiles
    # already placed", and a corridor "with free exit(s)" may always be continued.
    far = 40  # far beyond the old 15 x 15 grid (7 cells each way)
    line = {
        f"{x},0": {"t": t, "r": 90, "by": 0} for x, t in zip(range(far - 3, far + 1), STRAIGHT, strict=False)
    }
    line.update(
        {
            f"0,{y}": {"t": t, "r": 0, "by": 0}
            for y, t in zip(range(-far, -far + 2), STRAIGHT[4:], strict=True)
        }
    )
    state = new(2, deck=[ROOM4[1], ROOM4[2]], hands=[[ROOM4[0]], [CROSS[1]]], tiles=line)
    notes = legal_notes(state, 0)
    assert f"T{ROOM4[0]} {far + 1},0 0" in notes and f"T{ROOM4[0]} {far - 4},0 0" in notes
    assert f"T{ROOM4[0]} 0,{-far - 1} 0" in notes
    # a corridor placed at the far end keeps its free exits: the chain is never cut
    after = act(
        new(2, deck=[ROOM4[1], ROOM4[2]], hands=[[CROSS[0]], [CROSS[1]]], tiles=line),
        0,
        f"T{CROSS[0]} {far + 1},0 0",
    )
    assert GAME.can_draw_more(after, 0) == "draw"
    assert set(GAME.chain_targets(after)) == {f"{far + 2},0", f"{far + 1},-1", f"{far + 1},1"}


def test_a_placed_tile_keeps_its_name_as_the_dungeon_grows() -> None:
    # Players cite cells in chat and /history: growing west or north never renames a tile.
    state = new(2, deck=[22, 23, 24, 25], hands=[[21], [28]], tiles=board(("0,0", STRAIGHT[0], 0)))
    before = {t["cell"]: t["id"] for t in GAME.view(state, None)["tiles"]}
    state = act(act(state, 0, "T21 0,-1 0"), 0, "pass")  # north of the first tile
    state = act(act(state, 1, "T28 0,-2 0"), 1, "pass")  # further north
    after = {t["cell"]: t["id"] for t in GAME.view(state, None)["tiles"]}
    assert {c: after[c] for c in before} == before
    assert after["0,-1"] == 21 and after["0,-2"] == 28


def test_ai_games_go_past_the_old_edge() -> None:
    # The old map was 15 x 15 around the first tile (-7..7 here); real games grew past it.
    spans = []
    for seed in range(3):
        state = ai_playout(GAME, 2, 40 + seed)
        xs, ys = zip(*(cell_pos(c) for c in state["board"]), strict=True)
        spans.append(max(max(map(abs, xs)), max(map(abs, ys))))
    assert max(spans) > 7, spans


# ---- the chooser -------------------------------------------------------------------------------


GROUPED: list[str] = []


def walk(state: dict, seat: int, prefix: list[str], found: list, depth: int = 0) -> None:
    choice = GAME.chooser(state, seat, prefix)
    assert len(choice.options) <= 25, (prefix, len(choice.options))
    assert choice.options or choice.action is not None
    for token, label in choice.options:
        assert token and " " not in token and len(token) <= 20
        assert 0 < len(label) <= 80 and not label.endswith(("…", "..."))
        if token.startswith("g") and token[1:].isdigit():
            GROUPED.append(label)
        walk(state, seat, [*prefix, token], found, depth + 1)
    if choice.action is not None:
        found.append(choice.action)
    assert depth <= 5


def test_the_chooser_narrows_every_move_in_steps_of_at_most_25() -> None:
    # Issue 21: "Dungeon Lair's 182 ... placements" must not need typing.
    rnd = random.Random(4)
    state = GAME.new(2, None, 11)
    biggest = 0
    for _ in range(140):
        seat = state["current"]
        legal = GAME.legal_actions(state, seat)
        if len(legal) > biggest + 30:
            found: list = []
            walk(state, seat, [], found)
            assert sorted(map(GAME.format, found)) == sorted(map(GAME.format, legal))
            biggest = max(biggest, len(legal))
        state, _ = GAME.apply(state, seat, rnd.choice(legal))
    assert biggest > 100, biggest  # a position with many placements was walked
    assert GROUPED, "more than 25 places for one tile were grouped by rows first"


def test_chooser_labels_say_the_move_in_words() -> None:
    state = new(2, deck=[ROOM4[1], ROOM4[2]], hands=[[35], [CROSS[1]]], tiles=board(("0,0", ROOM4[0], 0)))
    letters = GAME.hand_letters(state, 0)
    first = GAME.chooser(state, 0, [])
    labels = dict(first.options)
    a = letters[35]
    assert labels[f"t{a}"].startswith(f"Tile {a}: Door room")  # private reply: the tile is named
    places = dict(GAME.chooser(state, 0, [f"t{a}"]).options)
    assert places["0,-1"] == "0,-1"  # exactly as the preview picture labels it
    # Only one turn of this door room fits on 0,-1: picking the place completes the move
    # (issue 26: fewer steps), no turn step follows.
    done = GAME.chooser(state, 0, [f"t{a}", "0,-1"])
    assert done.action == {"a": "tile", "t": 35, "at": "0,-1", "r": 0} and not done.options
    for a in GAME.legal_actions(state, 0):
        last = GAME.segments(state, 0, a)[-1][0]
        assert last in ("r0", "r90", "r180", "r270", "remove") or last == a.get("at")


def test_a_game_saved_with_the_old_grid_names_is_read_with_the_new_ones() -> None:
    # Games begun on the 15 x 15 grid (first tile on H8) keep playing after the change: their
    # cells are renamed once (H8 -> 0,0, G7 -> -1,-1) and their logs still parse.
    state = new(2, deck=[22, 23], hands=[[28], [29]], tiles=board(("0,0", ROOM4[0], 0), ("-1,0", 78, 90)))
    state = act(state, 0, "T28 0,-1 0")
    state["monsters"][0][0]["at"] = "-1,0e"
    old = json.loads(
        json.dumps(state).replace('"0,0"', '"H8"').replace('"-1,0"', '"G8"').replace('"0,-1"', '"H7"')
    )
    old["monsters"][0][0]["at"] = "G8e"
    del old["cells"]
    assert GAME.parse("T28 H7 0") == GAME.parse("T28 0,-1 0") and GAME.parse("S g8E") == GAME.parse("S -1,0e")
    assert GAME.view(old, None)["tiles"] == GAME.view(state, None)["tiles"]
    assert old == state
    after, _ = GAME.apply(old, 0, GAME.parse("S H7"))
    assert after["monsters"][0][1]["at"] == "0,-1"


def _finished_boards(catacombs: bool) -> list[dict]:
    game = GAME
    boards = []
    for seed in (3, 8):
        rnd = random.Random(seed)
        st = game.new(3, {"catacombs": True} if catacombs else None, seed)
        while not game.is_over(st):
            seat = rnd.choice(sorted(game.to_act(st)))
            st, _ = game.apply(st, seat, rnd.choice(game.legal_actions(st, seat)))
        boards.append(dict(st["board"]))
    return boards


@pytest.mark.parametrize("catacombs", [False, True])
def test_a_map_read_after_a_restart_joins_the_same_areas_as_in_play(catacombs: bool) -> None:
    """In play each tile is added to the map already built; after a restart the map is
    read from the stored board at once. Both must give the same zones, reaches and doors
    (a monster controls the same areas, and scores the same, before and after a restart).
    Found by mutation testing: the whole-board reading's joins could be dropped unseen."""
    from engine.dungeon_lair.board import Dungeon

    for laid in _finished_boards(catacombs):
        read = Dungeon(dict(laid), catacombs)
        built = Dungeon({}, catacombs)
        for cell, entry in laid.items():
            built = built.plus(cell, entry)
        labels = sorted(read.room)
        assert [read.zone(x) for x in labels] == [built.zone(x) for x in labels]
        assert [read.reach(x) for x in labels] == [built.reach(x) for x in labels]
        assert sorted(read.doors) == sorted(built.doors)
