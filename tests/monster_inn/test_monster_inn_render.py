"""The board renders for phones: valid PNG, 900-1200 px wide and clearly not
square, small, fast; it draws the players' names; the area image is the seat's
own part at about 600 px."""

from __future__ import annotations

import copy
import io
import random
import time

import pytest
from PIL import Image

from render import default_names
from render import monster_inn as R
from tests.monster_inn.helpers import GAME, finished
from tests.playout import random_playout


def check_png(png: bytes | None, width: int = R.WIDTH) -> Image.Image:
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    img.load()
    assert img.width == width
    assert abs(img.height - img.width) > img.width // 7, "clearly non-square (Android crops squares)"
    assert len(png) <= 250_000
    return img


@pytest.mark.parametrize("players", [3, 4, 5])
def test_start_middle_and_end_render(players: int) -> None:
    names = default_names(players)
    s = GAME.new(players, None, 1)
    check_png(R.RENDERER.board(GAME.view(s, None), names))
    end, _ = random_playout(GAME, players, 2)
    check_png(R.RENDERER.board(GAME.view(end, None), names))
    assert R.RENDERER.area is not None
    check_png(R.RENDERER.area(GAME.view(end, 0), names), 600)


def test_longest_dungeon_fits() -> None:
    # 3 players, 13 rounds: one player with 13 monsters' worth of columns.
    mons = ["U20", "K19", "G18", "O17", "T16", "T15", "O14", "G13", "K12", "U11", "U10", "K9", "G8"]
    s = finished([{"monsters": mons, "humanoids": ["H20", "H1"], "gold": 25, "gem": 25}, {}, {}])
    check_png(R.render(GAME.view(s, None)))
    # The area draws the same dungeon at twice the scale, three columns a line.
    img = check_png(R.area(GAME.view(s, 0), default_names(3)), 600)
    assert img.height > 4 * 2 * 2 * R.DH


def test_the_board_draws_the_players_names() -> None:
    s = GAME.new(3, None, 1)
    view = GAME.view(s, None)
    assert R.board(view, ["alice", "bob", "carol"]) != R.board(view, ["alice", "bob", "dave"])


def test_the_area_is_the_viewers_own_and_never_the_publics() -> None:
    s, _ = random_playout(GAME, 4, 5)
    assert R.area(GAME.view(s, None), default_names(4)) is None
    mine = R.area(GAME.view(s, 1), default_names(4))
    assert mine is not None and mine != R.area(GAME.view(s, 2), default_names(4))


def test_render_is_fast() -> None:
    end, _ = random_playout(GAME, 5, 3)
    view = GAME.view(end, None)
    R.render(view)
    best = 9.0
    for _ in range(3):
        # CPU time of this process, best of three: other jobs on a busy CI box do not count.
        t0 = time.process_time()
        R.render(view)
        best = min(best, time.process_time() - t0)
    assert best < 0.4, best  # ~90 ms on an idle 2-core machine; catches a pathological regression


def test_open_and_hidden_treasure_draw_differently() -> None:
    hidden = GAME.new(3, None, 1)
    shown = GAME.new(3, {"open_treasure": True}, 1)
    assert R.render(GAME.view(hidden, None)) != R.render(GAME.view(shown, None))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_move_is_one_chooser_step_of_at_most_25_worded_options(players: int) -> None:
    # No move needs typing: each decision is one menu of <= 25 options whose labels say the
    # move in words (<= 80 characters) and whose tokens have no spaces.
    s = GAME.new(players, None, 40 + players)
    pick = random.Random(players)
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        choice = GAME.chooser(s, seat, [])
        legal = GAME.legal_actions(s, seat)
        assert 1 <= len(choice.options) <= 25 and len(choice.options) == len(legal)
        for token, label in choice.options:
            assert " " not in token and len(label) <= 80 and " " in label
            assert GAME.chooser(s, seat, [token]).action in legal
        token = pick.choice(choice.options)[0]
        s, _ = GAME.apply(s, seat, GAME.chooser(s, seat, [token]).action)


def test_face_down_humanoids_are_drawn_with_their_skulls() -> None:
    # Issue 17: the back shows the skulls as well as the range ("Facedown Humanoid Card ...
    # Skulls (1-4)"), in the inn and in the dungeons alike. A view whose humanoid backs differ
    # only in skulls must draw differently.
    from tests.monster_inn.helpers import play, stacked

    s = play(stacked(3, ["H17", "H12", "U10", "K2", "G3", "T5"], start=0), (0, "leave"), (0, "bonus gold"))
    view = GAME.view(s, None)
    assert view["inn"][0] == {"type": "humanoid", "range": "11-15", "skulls": 3}
    assert view["players"][0]["humanoids"] == [{"type": "humanoid", "range": "16-20", "skulls": 4}]
    names = default_names(3)
    for where in ("inn", "dungeon"):
        other = copy.deepcopy(view)
        back = other["inn"][0] if where == "inn" else other["players"][0]["humanoids"][0]
        back["skulls"] = 1
        assert R.board(other, names) != R.board(view, names), where
