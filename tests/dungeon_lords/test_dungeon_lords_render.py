"""Dungeon Lords boards for phones (issues 16, 20 item 12, 21): the renderer reads views
only, names the players, marks whose turn it is, draws words instead of abbreviations,
ends with the final scores and the winner, and gives each seat its own area image."""

from __future__ import annotations

import ast
import io
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
import render.dungeon_lords as R
from engine import core

G: Any = core.get("dungeon-lords")
NAMES = ["Alice", "Bartholomew", "Chen", "Dagny"]
ROOT = Path(__file__).resolve().parents[2]


@cache
def _views(players: int, seed: int) -> tuple[dict[str, Any], ...]:
    """(public view, view of the seat to act) after every move of an AI game."""
    state = G.new(players, None, seed)
    out = [(G.view(state, None), G.view(state, 0))]
    while not G.is_over(state):
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.ai_action(state, seat))
        out.append((G.view(state, None), G.view(state, seat)))
    return tuple(v for pair in out for v in pair)


def _public(players: int, seed: int) -> list[dict[str, Any]]:
    return [v for v in _views(players, seed) if v["viewer"] is None]


def _drawn(monkeypatch: pytest.MonkeyPatch, draw: Any, *args: Any) -> tuple[bytes, list[tuple[str, int]]]:
    """The PNG and every (text, size) a renderer function drew (render.base records
    every label, whichever helper of the renderer drew it)."""
    from render import base

    with base.recording() as labels:
        png = draw(*args)
    return png, [(lab.s, lab.size) for lab in labels]


def _image(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_the_renderer_modules_import_no_engine_code() -> None:
    """Issue 16: "renderers read views only (no engine data imports, no state)"."""
    for name in ("render/dungeon_lords.py", "render/dungeon_lords_combat.py"):
        tree = ast.parse((ROOT / name).read_text())
        mods = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        mods += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in mods if m.startswith("engine")], name
        assert "noqa: E402" not in (ROOT / name).read_text()


def test_renderer_protocol_names_board_area_and_steps() -> None:
    r = render.get("dungeon-lords")
    assert r.board is R.board and r.area is R.area and r.steps is not None


def test_the_board_names_every_player_and_marks_whose_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    checked = 0
    for view in _public(4, 11)[::25]:
        _, seen = _drawn(monkeypatch, R.board, view, NAMES)
        texts = [s for s, _ in seen]
        for s in range(4):
            assert any(t.startswith(NAMES[s]) for t in texts), NAMES[s]
        assert sum(t == "TO PLAY" for t in texts) == len(view["to_act"])
        assert not any(re.search(r"\bP[1-4]\b|Player [1-4]", t) for t in texts)
        checked += 1
    assert checked >= 5


def test_other_names_give_another_board() -> None:
    view = _public(2, 3)[10]
    assert R.board(view, ["Ann", "Bo"]) != R.board(view, ["Zed", "Yolanda"])


# The abbreviations players could not decode (issue 21 item 3) and the old room codes.
OLD = re.compile(
    r"\b(Wa|Th|Pr|Wz|Bd)\d|\bPAL\b|used bubl|\bWksh\b|\bHatch\b|\bMush\b|\bLaby\b|\bAntiM\b|\bconq\b"
)


def test_the_board_writes_words_not_abbreviations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms, monsters and adventurers by their printed names; levels written out."""
    for players, seed in ((4, 11), (2, 3)):
        views = _public(players, seed)
        for view in views[::15] + [views[-1]]:
            _, seen = _drawn(monkeypatch, R.board, view, NAMES[:players])
            joined = " ".join(s for s, _ in seen)  # wrapped lines join with a space
            assert not OLD.search(joined), OLD.search(joined)
            assert not re.search(r"\([lL]\d", joined)
            for p in view["players"]:
                for c, t in p["grid"].items():
                    if t["k"] == "r":
                        assert f"{c} {view['components']['rooms'][t['room']]}" in joined


def test_board_text_is_large_enough_for_a_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards are read at a third of their size: no text under 18 px, most at 22 px or more."""
    view = _public(4, 11)[120]
    png, seen = _drawn(monkeypatch, R.board, view, NAMES)
    sizes = [size for _, size in seen]
    assert min(sizes) >= 18
    assert sum(size >= 22 for size in sizes) / len(sizes) > 0.7
    img = _image(png)
    assert img.width == 1200 and abs(img.height / img.width - 1) > 0.1 and len(png) <= 250_000


def test_two_player_board_is_clearly_not_square() -> None:
    for view in _public(2, 3)[::20]:
        img = _image(R.board(view, NAMES[:2]))
        assert abs(img.height / img.width - 1) > 0.1, img.size


def test_the_final_board_shows_the_final_scores_and_the_winner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20 item 12: not titled "round 6/5"; the last board shows the result."""
    final = _public(4, 11)[-1]
    assert final["phase"] == "over" and final["result"]
    res = final["result"]
    assert R._title(final) == "Dungeon Lords - final scores"
    winner = NAMES[res["winners"][0]]
    assert R.status_line(final, NAMES).startswith(winner)
    _, seen = _drawn(monkeypatch, R.board, final, NAMES)
    texts = [s for s, _ in seen]
    for s, score in enumerate(res["scores"]):
        assert f"{score} point{'' if abs(score) == 1 else 's'}" in texts
        assert any(t.endswith(NAMES[s]) or NAMES[s] + "  - WINNER" in t for t in texts)
    assert any(t.endswith(f"{winner}  - WINNER") for t in texts)
    big = {size for s, size in seen if "points" in s or "WINNER" in s}
    assert min(big) >= 30
    assert not any(re.search(r"season \d+ of|round \d+ of", t) for t in texts)


def test_a_running_board_is_titled_by_year_and_season() -> None:
    view = _public(2, 3)[5]
    assert R._title(view) == f"Dungeon Lords - Year 1, season {view['round']} of {view['seasons']}"


def test_the_area_is_the_seats_own_dungeon_and_hand_at_twice_the_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    views = [v for v in _views(4, 11) if v["viewer"] is not None and v["private"]["traps"]]
    view = views[len(views) // 2]
    seat = view["viewer"]
    png, seen = _drawn(monkeypatch, R.area, view, NAMES)
    img = _image(png)
    assert img.width == 600 and img.height > img.width * 1.1
    texts = " | ".join(s for s, _ in seen)
    assert NAMES[seat] in texts and "Only you can see this." in texts
    for t in view["private"]["traps"]:
        assert view["components"]["traps"][t] in texts
    assert min(size for _, size in seen) >= 24
    assert R.area(_public(4, 11)[3], NAMES) is None


def test_the_public_view_names_no_secret_component() -> None:
    """The view's component names are those of the ids it already shows: another Trap
    Card in a hand leaves the public view (and its names) unchanged, and names it in the
    seat's own view."""
    import copy

    state = G.new(2, None, 3)
    while not any(p["traps"] for p in state["players"]):
        seat = min(G.to_act(state))
        state, _ = G.apply(state, seat, G.ai_action(state, seat))
    seat = next(s for s, p in enumerate(state["players"]) if p["traps"])
    other = copy.deepcopy(state)
    unseen = [t for t in G.view(state, seat)["components"]["traps"]] + state["players"][seat]["traps"]
    from engine.dungeon_lords.data import TRAPS

    fresh = next(t for t in TRAPS if t not in unseen and t not in str(G.view(state, None)))
    other["players"][seat]["traps"][0] = fresh
    assert G.view(state, None) == G.view(other, None)
    assert fresh not in G.view(other, None)["components"]["traps"]
    assert G.view(other, seat)["components"]["traps"][fresh] == TRAPS[fresh]["name"]
