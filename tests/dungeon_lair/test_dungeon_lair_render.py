"""Dungeon Lair images, judged as a phone shows them: names, whose turn, final scores,
a legend for every mark, wrapping of a long dungeon, and the 'my area' image."""

from __future__ import annotations

import io
import json

from PIL import Image

from engine.dungeon_lair import GAME
from render import dungeon_lair as R
from render import get as get_renderer
from tests.dungeon_lair.helpers import PORTCULLIS, ROOM4, new, position
from tests.playout import ai_playout

NAMES = ["Alice", "Bartholomew", "Chen"]


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def long_line(n: int = 28) -> dict:
    """A straight east-west dungeon of n tiles: corridors and rooms open east and west."""
    ew = [1, 2, 3, 4, 5, 6, 28, 29, 30, 56, 57, 68, 70, 72, 76]
    round_ = [17, 18, 19, 20, 21, 22, 23, 52, 58, 59, 62, 63, 73]
    tiles = [(t, 90) for t in ew] + [(t, 0) for t in round_]
    tiles = tiles[:n]
    return {f"{i - len(tiles) // 2},0": {"t": t, "r": r, "by": i % 2} for i, (t, r) in enumerate(tiles)}


def test_the_renderer_is_registered_and_reads_the_view_only() -> None:
    renderer = get_renderer("dungeon-lair")
    state = GAME.new(3, None, 2)
    view = GAME.view(state, None)
    png = renderer.board(json.loads(json.dumps(view)), NAMES)
    assert png == renderer.board(view, NAMES)
    assert renderer.area is not None and renderer.area(GAME.view(state, 0), NAMES) is not None
    assert renderer.area(view, NAMES) is None  # the public has no area


def test_the_board_names_the_players_and_marks_whose_turn() -> None:
    state = new(3, deck=[22, 23], hands=[[24], [25], [26]], tiles={"0,0": {"t": ROOM4[0], "r": 0, "by": 0}})
    view = GAME.view(state, None)
    assert R.header_lines(view, NAMES, R.WIDTH)[0].startswith("Alice places a tile.")
    assert R.board(view, NAMES) != R.board(view, ["Dee", "Eve", "Fay"])
    # the player to act is framed in the accent colour: more yellow than when another acts
    other = json.loads(json.dumps(view))
    other["current"] = 1

    def yellow(png: bytes) -> int:
        img = Image.open(io.BytesIO(png)).convert("RGB")
        near = [
            n
            for n, c in img.getcolors(1 << 20)
            if sum(abs(a - b) for a, b in zip(c, (255, 200, 60), strict=True)) < 30
        ]
        return sum(near)

    mine, theirs = yellow(R.board(view, NAMES)), yellow(R.board(other, NAMES))
    assert mine > 1000 and theirs > 1000 and mine != theirs


def test_the_final_board_shows_the_final_scores_and_the_winner() -> None:
    state = ai_playout(GAME, 3, 9)
    view = GAME.view(state, None)
    res = GAME.result(state)
    winner = NAMES[res.winners[0]]
    assert view["over"] and view["winners"] == res.winners
    line = R.footer(view, NAMES)
    assert line.startswith(f"Final score: {winner}: {max(res.scores)} point")
    # Issue 40: "Bot 3: 9 points", not "Bot 3 9" (a computer's name ends in a number).
    assert all(f"{NAMES[s]}: {res.scores[s]} point" in line for s in range(3))
    assert R.header_lines(view, NAMES, R.WIDTH)[0].startswith(f"The game is over: {winner} wins")
    w, h = size(R.board(view, NAMES))
    assert w == 1200 and abs(w - h) > 0.15 * w  # clearly not square (Android crops squares)


def test_a_long_thin_dungeon_wraps_into_bands_that_stay_readable() -> None:
    tiles = long_line(28)
    view = GAME.view(position(tiles, {0: [("S", "0,0")]}), None)
    cs, bands = R.layout(view)
    assert cs >= R.MIN_CELL and len(bands) >= 3  # 36 columns do not fit one band at 84 px
    assert all(len(cols) * cs + R.LABEL_W + 2 * R.MARGIN <= R.WIDTH for cols, _rows in bands)
    covered = [x for cols, _rows in bands for x in cols]
    xs = [int(c.split(",")[0]) for c in tiles]
    assert covered == list(
        range(min(xs) - 1, max(xs) + 2)
    )  # every occupied column plus the margin, once, in order
    w, h = size(R.board(view, NAMES[:2]))
    assert w == 1200 and abs(w - h) > 0.1 * w
    # turned upright it wraps into bands side by side
    upright = {f"0,{k.split(',')[0]}": {**e, "r": (e["r"] + 90) % 360} for k, e in tiles.items()}
    cs, bands = R.layout(GAME.view(position(upright, {}), None))
    assert cs >= R.MIN_CELL and len(bands) >= 2 and bands[0][0] == bands[1][0]
    assert R.map_height(cs, bands) <= R.MAX_MAP_H + R.LABEL_H


def test_the_legend_names_every_mark_the_map_shows() -> None:
    tiles = {
        "0,0": {"t": 35, "r": 0, "by": 0},  # doors north and south
        "0,-1": {"t": 52, "r": 0, "by": 0},  # trap room
        "0,1": {"t": PORTCULLIS, "r": 180, "by": 0},  # portcullis room, open north
        "0,-2": {"t": 78, "r": 0, "by": 0},  # bridge
    }
    view = GAME.view(position(tiles, {0: [("L", "0,-1")], 1: [("L", "0,-2s"), ("S", "0,0")]}), None)
    words = " | ".join(w for _k, w in R.legend_items(view))
    for expected in ("door", "portcullis", "bridge", "trap room", "power", "holds it", "tie"):
        assert expected in words, expected
    assert "pit room" not in words  # only what the map shows


def test_my_area_is_600_wide_and_shows_each_turn_of_my_tiles() -> None:
    state = new(2, deck=[22, 23], hands=[[35], [25]], tiles={"0,0": {"t": ROOM4[0], "r": 0, "by": 0}})
    view = GAME.view(state, 0)
    w, h = size(R.area(view, NAMES[:2]))
    assert w == 600 and h > 300
    assert R._turns(view["mine"]["tiles"][0]) == [0, 90] or R._turns(view["mine"]["tiles"][1]) == [0, 90]
