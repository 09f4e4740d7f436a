"""Every label every renderer draws, on real boards of every game (opening, middle,
final, each seat's area), recorded through ``render.base.recording``:

- no label is cut off (issue 21 item 1): the ink ``text`` puts on the canvas is the
  ink Pillow draws for the whole string in the same mode (a mask sized too small
  loses the tail of the line: "'=' a ti..."), and the label lies inside the image;
- the type floor (issue 40: "Legends, "Last turn" and score breakdowns ... at least 30 px
  at 1,200 px wide (key numbers 40)"; issue 28 had 26 and 36), at 2 and 4 players;
- only words a player would say (issue 28: "a test over every label of every
  renderer ... fails on a Python repr, a snake_case key or an internal code"):
  ``tests/words.py``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

import render
from engine import core
from render import base
from tests.phone_helpers import states as game_states
from tests.words import not_words

GAMES = core.available()

# Games whose renderers are not yet drawn to the type floor (issue 28). Their floor
# test is expected to fail, strictly: once a game's renderer passes, the test says
# so (XPASS is an error) and its key must be taken out of this set. The lead empties
# it as each game's renderer is merged.
FLOOR_PENDING: set[str] = set()


def player_counts(game: core.Game) -> list[int]:
    """2 and 4 players where the game allows them (else its nearest counts)."""
    return sorted({max(game.min_players, 2), min(game.max_players, 4)})


def drawn(key: str, players: int, seed: int = 7) -> list[tuple[str, list[base.Label]]]:
    """(which picture, its labels) for the boards and seat 0's area of one game."""
    game = core.get(key)
    drawer = render.get(key)
    names = render.default_names(players)
    out: list[tuple[str, list[base.Label]]] = []
    states = game_states(game, players, seed)
    for when, state in zip(("opening", "middle", "final"), states, strict=True):
        jobs: list[tuple[str, Callable[[], object]]] = [
            (f"{when} board", lambda st=state: drawer.board(game.view(st, None), names))
        ]
        if drawer.area is not None:
            jobs.append((f"{when} area", lambda st=state: drawer.area(game.view(st, 0), names)))  # type: ignore[misc]
        for what, job in jobs:
            with base.recording() as labels:
                job()
            out.append((what, labels))
    return out


def _ink(s: str, size: int, mono: bool, via_base: bool) -> tuple[int, int, int, int] | None:
    size_px = (int(base.text_width(s, size, mono)) + 4 * size + 40, 4 * size)
    img = Image.new("P" if mono else "RGB", size_px, 0) if via_base else Image.new("L", size_px, 0)
    if via_base and mono:
        img.putpalette([0, 0, 0, 255, 255, 255])
    d = ImageDraw.Draw(img)
    if via_base:
        # The one-bit path is the one palette boards take.
        base.text(d, (20, size), s, size, fill=(255, 255, 255))
    else:
        d.fontmode = "1" if mono else "L"
        d.text((20, size), s, font=base.font(size), fill=255, anchor="la")
    return img.convert("L").point(lambda v: 255 if v else 0).getbbox()


@pytest.mark.parametrize("key", GAMES)
def test_no_label_is_cut_off(key: str) -> None:
    game = core.get(key)
    labels = [lab for _what, labs in drawn(key, game.max_players) for lab in labs]
    assert labels, "the renderer drew no label through render.base.text"
    cut: list[str] = []
    for s, size, mono in {(lab.s, lab.size, lab.mono) for lab in labels}:
        if _ink(s, size, mono, True) != _ink(s, size, mono, False):
            cut.append(f"{s!r} at {size} px")
    assert not cut, "labels drawn with a cut-off tail: " + "; ".join(sorted(cut)[:10])
    outside: list[str] = []
    for lab in set(labels):
        mask, x0, y0 = base._stamp(lab.s, lab.size, lab.anchor, "1" if lab.mono else "L")
        left, top = round(lab.xy[0]) + x0, round(lab.xy[1]) + y0
        w, h = lab.canvas
        if mask.getbbox() and (left < 0 or top < 0 or left + mask.width > w or top + mask.height > h):
            outside.append(f"{lab.s!r} at {lab.size} px, x {left}..{left + mask.width} of {w}")
    assert not outside, "labels running off the image: " + "; ".join(sorted(outside)[:10])


def floor_faults(key: str, players: int) -> list[str]:
    """What breaks the type floor on one game's pictures: labels under the floor of
    their role, and boards that mark no title, no whose-turn line (before the end)
    or no score (at the end)."""
    faults: list[str] = []
    for what, labels in drawn(key, players):
        for lab in labels:
            least = base.floor_size(lab.role, lab.canvas[0])
            if lab.size < least:
                role = lab.role or "text"
                faults.append(f"{what}: {lab.s[:30]!r} ({role}) at {lab.size} px, under {least}")
        if what.endswith("board"):
            roles = {lab.role for lab in labels}
            wanted = ["title", "score" if what.startswith("final") else "turn"]
            faults += [f"{what}: no label marked role={r!r}" for r in wanted if r not in roles]
    return faults


def _floor_params() -> list[object]:
    out: list[object] = []
    for key in GAMES:
        marks = [pytest.mark.xfail(strict=True, reason="FLOOR_PENDING")] if key in FLOOR_PENDING else []
        out.append(pytest.param(key, marks=marks, id=key))
    return out


@pytest.mark.parametrize("key", _floor_params())
def test_type_floor(key: str) -> None:
    """Issue 40: "at least 30 px at 1,200 px wide (key numbers 40)": the title, whose
    turn, scores and the numbers a player decides by at 40 px or more, every board and area."""
    game = core.get(key)
    faults: list[str] = []
    for players in player_counts(game):
        faults += [f"{players} players, {f}" for f in floor_faults(key, players)]
    assert not faults, f"{len(faults)} labels under the type floor:\n" + "\n".join(faults[:40])


def test_floor_sizes() -> None:
    """The floor's named sizes and how the floor scales with the image's width."""
    assert base.TEXT_MIN == 30 and base.TEXT_KEY == 40
    assert base.TEXT_MIN <= base.TEXT_BODY < base.TEXT_KEY <= base.TEXT_TITLE
    assert base.floor_size(None, 1200) == 30 and base.floor_size("body", 600) == 30
    assert base.floor_size("turn", 1200) == 40 and base.floor_size("score", 2400) == 80
    img, d = base.canvas(1200, 200)
    with base.recording() as labels:
        base.header(d, 1200, "Title", "Bob is to play.")
    assert [(lab.role, lab.size) for lab in labels] == [("title", 44), ("turn", 40)]


def test_layout_helpers() -> None:
    """Four seats' panels in two columns of two; a long map folded near square."""
    boxes = base.panel_boxes(4, 1200, 300, top=100)
    assert len({b[0] for b in boxes}) == 2 and len({b[1] for b in boxes}) == 2
    assert boxes[0][1] == 100 and boxes[2][1] == 100 + 300 + 16
    assert base.panel_columns(1) == 1 and base.panel_columns(6) == 3
    assert base.fold_parts(3346, 1200) == 2 and base.fold_parts(800, 1200) == 1
    cuts = base.fold_cuts([400, 800, 1200, 1600, 2000, 2400, 3346], 2)
    assert cuts == [1600]
    img = Image.new("RGB", (100, 1000), (255, 0, 0))
    folded = base.fold(img, [500], gap=10)
    assert folded.size == (210, 500)


@pytest.mark.parametrize("key", GAMES)
def test_labels_are_words(key: str) -> None:
    """Issue 28: no Python repr, snake_case key or internal code on any picture."""
    game = core.get(key)
    bad: list[str] = []
    for players in player_counts(game):
        for what, labels in drawn(key, players, seed=11):
            bad += [
                f"{players} players, {what}: {lab.s!r} ({why})" for lab in labels for why in not_words(lab.s)
            ]
    bad = sorted(set(bad))
    if key in WORDS_PENDING:
        assert bad, f"{key} draws only words now: take it out of WORDS_PENDING"
        pytest.xfail(f"WORDS_PENDING, {len(bad)} labels: " + "; ".join(bad[:10]))
    assert not bad, f"{len(bad)} labels are not words:\n" + "\n".join(bad[:30])


# Games whose pictures still draw program data (issue 28), fixed by the engineer of
# each game's renderer; the lead empties this set as they are merged.
WORDS_PENDING: set[str] = set()
