"""Issue 28 for Dungeon Decorators: boards a phone reads (the type floor), goal shapes
as pictures, marks with a legend, seat colours apart from floor colours, the guide
sections and the "What now?" answer."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image

import render.dungeon_decorators as RD
from engine.core import seat_ref
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R
from render import default_names
from render.base import seat_colour

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "dungeon-decorators.md"
TEXT_MIN, TEXT_KEY = 30, 40  # issue 40: 30 px at 1,200 wide, key numbers 40 (issue 28 had 26, 36)


def _states(players: int, seed: int = 28) -> list[dict]:
    rng = random.Random(seed)
    s = GAME.new(players, None, seed)
    out = [s]
    while not GAME.is_over(s):
        seat = sorted(GAME.to_act(s))[0]
        s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        out.append(s)
    return out


def _record(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    seen: list[tuple[int, str]] = []
    real = RD.text

    def spy(d, xy, s, size=18, *a, **k):  # type: ignore[no-untyped-def]
        seen.append((size, s))
        return real(d, xy, s, size, *a, **k)

    monkeypatch.setattr(RD, "text", spy)
    return seen


@pytest.mark.parametrize("players", [2, 4])
def test_board_and_area_keep_the_type_floor(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _record(monkeypatch)
    states = _states(players)
    names = default_names(players)
    for st in (states[len(states) // 2], states[-1]):
        board = RD.board(GAME.view(st, None), names)
        assert len(board) <= 250 * 1024
        area = RD.area(GAME.view(st, 0), names)
        assert area is not None and len(area) <= 250 * 1024
    assert seen and min(size for size, _ in seen) >= TEXT_MIN, sorted(seen)[:5]
    key = {s for size, s in seen if size >= TEXT_KEY}
    assert "Dungeon Decorators" in key  # the title
    assert any(s.startswith("Round ") or s.startswith("Game over") for s in key)  # whose turn
    assert any(s.endswith(" pts") for s in key)  # the scores on the dungeons and goal cards
    for _, s in seen:
        assert not re.search(r"[{}\[\]]|\bNone\b|\bTrue\b|[a-z]+_[a-z]+|boss [AB]\b", s), s


def test_goal_shapes_are_pictures_with_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "Here is a symbol key for Shape Goal cards": every square code of every shape goal
    has a line of the key, and the guide's sheet draws every shape goal with its points."""
    used = {t for g in R.GOALS.values() if g["kind"] == "shape" for r in g["rows"] for t in r.split()}
    keyed = {tok for tok, _ in RD.SHAPE_KEY}
    assert {RD._key_token(t) for t in used} <= keyed
    seen = _record(monkeypatch)
    png = RD.GUIDE_PICTURES["Goal shapes"](GAME.guide_view("Goal shapes"))
    img = Image.open(io.BytesIO(png))
    assert img.width == 1200 and len(png) <= 250 * 1024
    names = {s for _, s in seen}
    for g in R.GOALS.values():
        if g["kind"] == "shape":
            assert any(n.rstrip("…") and g["name"].startswith(n.rstrip("…")) for n in names), g["name"]
    assert min(size for size, _ in seen) >= TEXT_MIN
    # The cards in a hand are pictures too: no square code is written out.
    s = GAME.new(2, None, 7)
    area_words = _record(monkeypatch)
    RD.area(GAME.view(s, 0), default_names(2))
    assert not any(re.search(r"\b(H|R)(red|green|blue|S|P|\d)\b", w) for _, w in area_words)


def test_every_picture_has_a_legend_entry() -> None:
    assert set(RD.DRAW_DECO) == set(RD.DECO_NAMES)
    assert set(RD.HELPER_COLOUR) == set(RD.HELPERS)
    assert set(R.DECOS) | {"*"} == set(RD.DECO_NAMES)
    doc = DOC.read_text()
    for word in ("wild icon", "Goblin Sapper", "Burrow Bro", "Arcane Architect", "Mimic", "ring", "star"):
        assert word in doc.split("## Guide: Marks on the board")[1].split("## Guide:")[0], word


def test_seat_colours_are_far_from_every_component_colour() -> None:
    """Issue 28: "Seat colours never equal a component's colour in the same game"; kept
    well apart, so a player's colour is never read as a floor."""
    components = [c for k, c in RD.FLOOR.items() if k != "star"] + list(RD.HELPER_COLOUR.values())
    for seat in range(4):
        for c in components:
            dist = sum((a - b) ** 2 for a, b in zip(seat_colour(seat), c, strict=True)) ** 0.5
            assert dist > 60, (seat, c)


def test_the_final_table_names_the_bosses_by_colour() -> None:
    res = GAME.result(_states(2)[-1])
    assert res.breakdown and {"boss (yellow)", "boss (blue)"} <= set(res.breakdown[0])


def _guide() -> dict[str, str]:
    doc = DOC.read_text()
    parts = re.split(r"(?m)^## Guide: *(.+?)[ \t]*$", doc)
    out = {}
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        out[name] = re.split(r"(?m)^#{1,2} ", body)[0].strip()
    return out


def test_guide_sections_are_present_and_fit_an_embed() -> None:
    guide = _guide()
    for need in ("The goal", "Setup", "A round", "Scoring", "Marks on the board", "Variants", "The board"):
        assert need in guide, need
    assert "Goal shapes" in guide and "Goal shapes" in RD.GUIDE_PICTURES
    assert [n for n in guide if n.startswith("Phase: ")]
    for name, body in guide.items():
        assert 0 < len(body) < 4096, name
    scoring = guide["Scoring"]
    # "Stars: For each star in your dungeon, score 3 points", the two colour tables, every boss.
    assert "3 points for each star" in scoring
    assert "6 colours 16" in scoring and "6 or more 24" in scoring
    for b in R.BOSSES.values():
        assert b["name"].split(",")[0].split()[0] in scoring, b["name"]
    assert re.findall(r"(?m)^\d+\. \[[^\]]+\]", guide["The board"])


def _phases(players: int = 3) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for seed in (4, 5, 6):
        for st in _states(players, seed):
            found.setdefault(st["phase"], st)
    return found


def test_what_now_in_every_phase() -> None:
    phases = _phases()
    assert {
        "keep",
        "draft",
        "exchange_draw",
        "exchange_discard",
        "burrow",
        "build",
        "score",
        "refill",
    } <= set(phases)
    for ph, st in phases.items():
        if ph == "over":
            assert "Game over" in GAME.what_now(st, None)
            continue
        acting = sorted(GAME.to_act(st))
        actor = acting[0]
        mine = GAME.what_now(st, actor)
        assert "Your choices:" in mine and "\n- " in mine and len(mine) <= 1500, (ph, mine)
        watcher = GAME.what_now(st, None)
        assert "Your choices" not in watcher and "you" not in watcher.lower().split(), watcher
        assert seat_ref(actor) in watcher
        for other in range(3):
            if other in acting:
                continue
            theirs = GAME.what_now(st, other)
            assert "Your choices" not in theirs
            # Goal cards in hand are the owner's alone.
            for g in st["players"][actor]["hand"]:
                assert R.GOALS[g]["name"] not in theirs


def test_what_now_says_what_each_draft_choice_gives() -> None:
    st = _phases()["draft"]
    text = GAME.what_now(st, sorted(GAME.to_act(st))[0])
    for t in st["board"]:
        if t is not None:
            assert f"tile {t} (" in text
    assert "Draw/Exchange: a random tile from the bag, then a goal card" in text


def test_private_text_has_no_codes() -> None:
    for st in _states(2)[:40]:
        for seat in range(2):
            text = GAME.private_text(st, seat)
            assert not re.search(r"[\[\]{}]|\b[NESW]:", text), text


def test_the_board_marks_what_the_last_turn_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: "every board marks what the last turn changed (outlined pieces and a
    line in words)": the squares laid in the turn just finished, and nothing hidden."""
    from .helpers import act, staged

    s = staged(blue=[30, 111, 171, 282, 4, 8])
    assert GAME.view(s, None)["last_turn"] is None
    s, _ = act(s, 0, "draft 282")
    square = next(a["at"] for a in GAME.legal_actions(s, 0) if a["a"] == "place" and a["side"] == "D")
    place = next(a for a in GAME.legal_actions(s, 0) if a["a"] == "place" and a["at"] == square)
    s, _ = GAME.apply(s, 0, place)
    while 0 in GAME.to_act(s) and GAME.current(s) == 0:
        s, _ = GAME.apply(s, 0, GAME.legal_actions(s, 0)[-1])
    last = GAME.view(s, None)["last_turn"]
    assert last["seat"] == 0 and last["squares"] == [square]
    assert last["words"] == f"Last turn: {seat_ref(0)} changed {square} in their dungeon."
    seen = _record(monkeypatch)
    RD.board(GAME.view(s, None), default_names(2))
    assert any(w.startswith("Last turn: Player 1 changed") for _, w in seen)
    assert any(w == "last turn" for _, w in seen)  # its legend entry
