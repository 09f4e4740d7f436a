"""Monster Inn boards read on a phone (issue 28): the type floor, the last turn marked,
a legend entry for every mark, seat colours that are no monster kind's colour."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from engine import core
from render import base
from render import monster_inn as R
from tests.monster_inn.helpers import GAME
from tests.phone_helpers import (
    BIG,
    FLOOR,
    check_upgrade_without_last,
    labels_over_floor,
    program_words,
    states,
)


@pytest.mark.parametrize("players", [3, 5])
def test_no_label_is_under_the_floor_and_the_key_ones_are_big(players: int) -> None:
    calls = labels_over_floor("monster-inn", players, 11)
    sizes = {s: z for s, z in calls}
    titles = [s for s in sizes if s.startswith("Monster Inn - ")]
    assert titles and all(sizes[t] >= BIG for t in titles)
    assert all(z >= BIG for s, z in calls if s.startswith("Round ") and " adds " in s)  # whose turn
    assert all(z >= BIG for s, z in calls if s.endswith(" fame") and ". " in s)  # the places at the end


def test_seat_colours_are_no_monster_kinds_colour() -> None:
    """Issue 28: 'Bot 1 and Kobolds both orange'."""
    components = {**R.KIND_COLOURS, "back": R.BACK, "face": R.FACE, "gold": R.GOLD, "gem": R.GEM}
    for seat in range(GAME.max_players):
        c = R.seat_colour(seat)
        for what, k in components.items():
            assert sum(abs(a - b) for a, b in zip(c, k, strict=True)) > 90, (seat, what)
    assert len({R.seat_colour(s) for s in range(GAME.max_players)}) == GAME.max_players


def test_the_last_turn_is_marked_and_told_from_public_facts_only() -> None:
    s = GAME.new(3, None, 4)
    seat = sorted(GAME.to_act(s))[0]
    s, events = GAME.apply(s, seat, "leave")
    last = GAME.view(s, None)["last"]
    assert last["seat"] == seat
    private = [e.text for e in events if e.seat is not None]
    assert not set(private) & set(last["lines"])  # "You now hold ..." never reaches the board
    assert any(" leaves " in line or " takes " in line for line in last["lines"])
    p = GAME.view(s, None)["players"][seat]
    n = max(len(p["monsters"]), len(p["humanoids"]))
    assert any(c[0] == seat and c[2] == n - 1 for c in last["cards"])  # the creature just taken
    assert GAME.view(s, (seat + 1) % 3)["last"] == last  # the same for every viewer
    with base.recording() as labels:
        R.board(GAME.view(s, None), render.default_names(3))
    drawn = [lab.s for lab in labels]
    assert any(t.startswith("Last turn: ") for t in drawn)
    assert R.FRAME_WORDS in drawn  # the frame drawn has its legend entry


def test_a_support_continues_the_turn_it_belongs_to() -> None:
    """'A turn is one Remain or Leave decision, with the humanoid bonus or the support'."""
    s = GAME.new(3, None, 4)
    for _ in range(400):
        if GAME.is_over(s):
            break
        seat = sorted(GAME.to_act(s))[0]
        pend = s["pending"]
        acts = GAME.legal_actions(s, seat)
        before = s.get("last")
        s, _ = GAME.apply(s, seat, acts[0])
        if pend is not None:
            assert s["last"]["lines"][: len(before["lines"])] == before["lines"]
            return
    pytest.fail("no bonus or support choice came up")


def test_a_stored_game_upgrades_to_an_empty_last_turn() -> None:
    check_upgrade_without_last(GAME, 3, 4)


def test_every_legend_line_says_what_a_mark_does_and_fits() -> None:
    for state in states(GAME, 4, 5):
        view = GAME.view(state, None)
        for line in R._legend_lines(view):
            assert R.text_width(line, FLOOR) <= R.WIDTH - 2 * R.PAD


@pytest.mark.parametrize("players", [3, 5])
def test_boards_stay_small(players: int) -> None:
    for state in states(GAME, players, 3):
        png = R.board(GAME.view(state, None), render.default_names(players))
        assert len(png) <= 250 * 1024
        assert Image.open(io.BytesIO(png)).width == 1200
    assert core.get("monster-inn") is GAME


def test_the_final_boards_last_turn_leaves_the_scoring_to_the_scores() -> None:
    final = states(GAME, 3, 11)[-1]
    last = GAME.view(final, None)["last"]
    assert last["lines"] and not any(" fame (" in line or "game is over" in line for line in last["lines"])


def test_the_last_turns_words_are_a_players_words() -> None:
    seen: list[str] = []
    for state in states(GAME, 4, 8):
        seen += (GAME.view(state, None)["last"] or {}).get("lines", [])
    assert seen and not program_words(seen)
