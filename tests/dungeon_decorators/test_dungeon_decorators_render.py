"""The board image: size, dimensions, and that it draws every phase."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.dungeon_decorators import GAME
from render.dungeon_decorators import RENDERER, render, render_private
from tests.playout import random_playout


def test_four_player_boards_stay_small_and_phone_sized_through_a_game() -> None:
    s = GAME.new(4, None, 21)
    r = random.Random(21)
    phases = set()
    step = 0
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, r.choice(GAME.legal_actions(s, seat)))
        step += 1
        if step % 100 == 0 or s["phase"] not in phases:
            phases.add(s["phase"])
            png = render(GAME.view(s, None))
            assert len(png) <= 250_000
            img = Image.open(io.BytesIO(png))
            assert img.width <= 1200
            private = render_private(GAME.view(s, seat))
            assert private is not None and len(private) <= 250_000
    end = render(GAME.view(s, None))
    assert len(end) <= 250_000 and Image.open(io.BytesIO(end)).width == 1200
    assert {"draft", "build", "over"} <= phases


def test_a_sprawling_dungeon_still_fits() -> None:
    state, _ = random_playout(GAME, 2, 77)
    png = render(GAME.view(state, None))
    assert len(png) <= 250_000


def test_render_is_quick() -> None:
    import time

    state, _ = random_playout(GAME, 4, 9)
    view = GAME.view(state, None)
    render(view)
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        render(view)
        times.append(time.perf_counter() - t0)
    assert sorted(times)[1] < 0.4  # ~0.05 s on an idle machine; generous for a busy CI box


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= 24


def _accent_rows(img: Image.Image, top: int) -> list[int]:
    """Rows in the top ``top`` pixels drawn mostly in the accent colour (a result panel's frame)."""
    from render.base import PALETTE

    rows = []
    for y in range(top):
        hits = sum(1 for x in range(0, img.width, 4) if _near(img.getpixel((x, y)), PALETTE["accent"]))
        if hits > img.width / 4 * 0.8:
            rows.append(y)
    return rows


def test_score_bars_show_true_points_not_points_modulo_50() -> None:
    # The physical track wraps at 50 ("take one of the '50 point' chits and continue counting from
    # the start"); the board shows the true total, so 102 has the longer bar than 60.
    from render.base import seat_colour

    s = GAME.new(2, None, 5)  # setup: nobody's turn yet, so no turn highlight in the panel
    s["players"][0]["score"], s["players"][1]["score"] = 102, 60
    img = _rgb(RENDERER.board(GAME.view(s, None), ["Ann", "Bob"]))
    ends = []
    for seat in (0, 1):
        c = seat_colour(seat)
        xs = [x for x in range(712, 1188) for y in range(80, 500) if _near(img.getpixel((x, y)), c)]
        ends.append(max(xs) - 728)
    assert ends[0] > ends[1] > 0
    assert abs(ends[1] / ends[0] - 60 / 102) < 0.03


def test_the_board_names_the_players_and_the_area_is_phone_sized() -> None:
    s = GAME.new(3, None, 8)
    r = random.Random(8)
    for _ in range(40):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, r.choice(GAME.legal_actions(s, seat)))
    view = GAME.view(s, None)
    a = RENDERER.board(view, ["Ann", "Bob", "Cy"])
    b = RENDERER.board(view, ["Zed", "Quinn", "Xavier"])
    assert a != b
    img = _rgb(a)
    assert img.width == 1200 and img.height > 1.1 * img.width  # clearly not square
    seat = GAME.current(s)
    area = _rgb(RENDERER.area(GAME.view(s, seat), ["Ann", "Bob", "Cy"]) or b"")
    assert 560 <= area.width <= 640


def test_the_final_board_shows_the_result() -> None:
    state, _ = random_playout(GAME, 3, 12)
    view = GAME.view(state, None)
    assert view["final"] and view["winners"] == GAME.result(state).winners
    over = _rgb(RENDERER.board(view, ["Ann", "Bob", "Cy"]))
    view_no_final = {**view, "final": None}
    plain = _rgb(RENDERER.board(view_no_final, ["Ann", "Bob", "Cy"]))
    # The result panel (winner line and one row a player) is framed at the top of the final board.
    assert _accent_rows(over, 150) and not _accent_rows(plain, 150)
