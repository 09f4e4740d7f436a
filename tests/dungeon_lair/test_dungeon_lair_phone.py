"""Dungeon Lair boards read on a phone (issue 28): the type floor, a long map folded into
a near-square picture, the hand apart from the monster discs, a legend entry that says
what each mark does, and the last turn marked and told."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from engine.dungeon_lair import GAME
from engine.dungeon_lair.data import TILES
from render import base
from render import dungeon_lair as R
from tests.dungeon_lair.helpers import BRIDGE, CHASM, DOOR_NS, PORTCULLIS, position
from tests.dungeon_lair.test_dungeon_lair_render import long_line
from tests.phone_helpers import (
    BIG,
    FLOOR,
    check_upgrade_without_last,
    labels_over_floor,
    program_words,
    states,
)


@pytest.mark.parametrize("players", [2, 4])
def test_no_label_is_under_the_floor_and_the_key_ones_are_big(players: int) -> None:
    calls = labels_over_floor("dungeon-lair", players, 13)
    assert all(z >= BIG for s, z in calls if s.startswith("Dungeon Lair"))  # the title
    assert all(z >= BIG for s, z in calls if s.endswith(" rooms now") or s.startswith("Final score"))
    assert any(s.endswith(" rooms now") for s, _z in calls)


@pytest.mark.parametrize("players", [2, 4])
def test_a_final_board_is_near_square_and_small(players: int) -> None:
    """'A Dungeon Lair two-player final is 1,200 x 3,346 px, the dungeon cut into two stacked halves.'"""
    for seed in (1, 2, 3):
        final = states(GAME, players, seed)[-1]
        png = R.board(GAME.view(final, None), render.default_names(players))
        w, h = Image.open(io.BytesIO(png)).size
        assert w == 1200 and h <= 1.6 * w, (seed, h)
        assert len(png) <= 250 * 1024


def test_the_hand_line_never_runs_into_the_monster_discs(monkeypatch: pytest.MonkeyPatch) -> None:
    """'"0 tiles in hand" runs into the monster chips': the words end before the first disc."""
    spans: list[tuple[str, float]] = []
    discs: list[float] = []
    real_text, real_monster = R.text, R.monster
    monkeypatch.setattr(
        R, "text", lambda d, xy, s, *a, **k: (spans.append((s, xy[0])), real_text(d, xy, s, *a, **k))
    )
    monkeypatch.setattr(
        R, "monster", lambda d, seat, size, c, r: (discs.append(c[0] - r), real_monster(d, seat, size, c, r))
    )
    col_w = (R.WIDTH - 2 * R.MARGIN - 12) // 2
    two = GAME.new(2, None, 1)
    two["hands"][two["current"]] += [two["deck"].pop() for _ in range(8)]  # "to play: 10 tiles in hand"
    players = GAME.view(GAME.new(4, None, 1), None)["players"] + GAME.view(two, None)["players"]
    for p in players:
        view = {"current": p["seat"]}
        spans.clear()
        discs.clear()
        R._hand_line(
            R._canvas(R.WIDTH, 200)[1], p, p["seat"] == view["current"], (R.MARGIN, 0, R.MARGIN + col_w)
        )
        words, x = spans[0]
        assert "in hand" in words and discs
        assert x + base.text_width(words, FLOOR) + 20 <= min(discs)  # a clear gap, 7 px at a third


def test_seat_colours_are_no_tile_colour() -> None:
    tiles = [R.WALL, R.FLOOR, R.CORRIDOR, R.DOOR, R.DOOR_EDGE, R.BARS, R.CHASM, R.DARK]
    for seat in range(GAME.max_players):
        c = base.seat_colour(seat)
        assert all(sum(abs(a - b) for a, b in zip(c, t, strict=True)) > 90 for t in tiles), seat


def test_every_room_picture_and_mark_has_a_legend_entry_saying_what_it_does() -> None:
    """The legend named ten room features 'whose effects no text gives'."""
    kinds = ["trap", "pit", "darkness", "web", "rubble", "rotating", "catacomb-entrance"]
    ids = {k: next(t.id for t in TILES.values() if t.kind == k and t.edges[2] != "wall") for k in kinds}
    tiles = {f"0,{-i}": {"t": t, "r": 0, "by": 0} for i, t in enumerate([DOOR_NS[0], *ids.values()])}
    tiles["1,0"] = {"t": PORTCULLIS, "r": 90, "by": 0}
    tiles["-1,0"] = {"t": BRIDGE[0], "r": 90, "by": 0}
    tiles["-1,-1"] = {"t": CHASM[0], "r": 90, "by": 0}
    view = GAME.view(position(tiles, {0: [("L", "0,0")]}), None)
    items = R.legend_items(view)
    words = " | ".join(w for _k, w in items)
    for k in kinds:
        assert R.ROOM_WORDS[k] in words, k
    for mark in ("door:", "portcullis:", "bridge:", "chasm:", "monster, power"):
        assert mark in words, mark
    assert all(": " in w for _k, w in items)  # each entry says what its mark does
    assert all(R.text_width(w, FLOOR) + R._sample_width(k) + 40 <= R.WIDTH - 2 * R.MARGIN for k, w in items)


def _play_a_turn(state):  # type: ignore[no-untyped-def]
    seat = state["current"]
    tile = next(a for a in GAME.legal_actions(state, seat) if a["a"] == "tile")
    state, _ = GAME.apply(state, seat, tile)
    while state["phase"] == "chain":
        state, _ = GAME.apply(
            state, seat, next(a for a in GAME.legal_actions(state, seat) if a["a"] == "tile")
        )
    acts = GAME.legal_actions(state, seat)
    put = next((a for a in acts if a["a"] == "monster" and a["from"] == "hand"), None)
    state, events = GAME.apply(state, seat, put or next(a for a in acts if a["a"] == "pass"))
    return state, seat, tile["at"], put, events


def test_the_last_turn_is_marked_and_told_from_public_facts_only() -> None:
    state = GAME.new(2, None, 5)
    state, _seat, _cell, _put, _ev = _play_a_turn(state)
    state, seat, cell, put, events = _play_a_turn(state)
    view = GAME.view(state, None)
    last = view["last"]
    assert last["seat"] == seat and cell in last["cells"]
    assert put is None or last["to"] == put["to"]
    assert GAME.view(state, 0)["last"] == last == GAME.view(state, 1)["last"]
    assert not {e.text for e in events if e.seat is not None} & set(last["lines"])
    assert state["placed"] == []  # the new turn cleared it: only "last" still knows
    kinds = {k for k, _w in R.legend_items(view)}
    assert "last" in kinds and (put is None or "went" in kinds)
    with base.recording() as labels:
        R.board(view, render.default_names(2))
    said = [lab.s for lab in labels if lab.s.startswith("Last turn: ")]
    assert said and f"on {cell}" in " ".join(lab.s for lab in labels)


def test_a_stored_game_upgrades_to_an_empty_last_turn() -> None:
    check_upgrade_without_last(GAME, 2, 5)


def test_the_last_turns_words_are_a_players_words() -> None:
    """'placed a T-junction corridor on 1,0': names as the tiles read, no program data."""
    for players, seed in ((2, 3), (4, 4)):
        seen: list[str] = []
        for state in states(GAME, players, seed):
            seen += (GAME.view(state, None)["last"] or {}).get("lines", [])
        assert seen and not program_words(seen)
        assert all(" placed a " in line or "monster" in line or "placed no tile" in line for line in seen)
    state = position({"0,0": {"t": 17, "r": 0, "by": 0}}, {})  # a crossroads corridor
    state["placed"] = ["0,0"]
    from engine.dungeon_lair import last_turn

    last_turn.record(state, 0, {"a": "pass"})
    assert state["last"]["lines"][0] == "Player 1 placed a crossroads corridor on 0,0."


def test_a_crowded_room_keeps_readable_discs_inside_it_and_explains_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tiles = long_line(5)
    ms = {0: [("S", "0,0"), ("S", "0,0"), ("M", "0,0")], 1: [("S", "0,0"), ("M", "0,0"), ("L", "0,0")]}
    view = GAME.view(position(tiles, ms, players=2), None)
    cs = 61  # an 18 x 15 map's cells in one piece
    assert R.crowded(view, cs) and R.crowded(view, None) and not R.crowded(view, 130)
    assert not R.crowded(GAME.view(position(tiles, {0: [("S", "0,0")]}), None), cs)
    discs: list[tuple[float, float, float]] = []
    real = R.monster
    monkeypatch.setattr(
        R, "monster", lambda d, seat, size, c, r: (discs.append((*c, r)), real(d, seat, size, c, r))
    )
    with base.recording() as labels:
        R._monsters(R._canvas(200, 200)[1], view["monsters"], (10, 10, 10 + cs - 2, 10 + cs - 2), cs)
    assert discs and all(r >= R.MAP_R for _x, _y, r in discs)
    assert all(10 <= x - r and x + r <= 10 + cs for x, _y, r in discs)  # inside the room
    assert any(lab.s.startswith("+") for lab in labels)
    assert "more" in {k for k, _w in R.legend_items(view, R.crowded(view, cs))}
