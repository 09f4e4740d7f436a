"""Treasure coordinates, hands and pending choices never reach the public; the renderer."""

from __future__ import annotations

import copy
import io
import json
import re
import time

import pytest
from PIL import Image

from engine.core import IllegalAction
from engine.dungeon_drawers import board
from render import dungeon_drawers as R
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, cards_with, defend_state, sheet_from

DOWN = GAME.parse("path A1 A10 H10")["cells"]
COORD_AFTER_TREASURE = re.compile(r"treasure[^.;]*\b[A-H](10|[1-9])\b", re.I)


def mid_build() -> dict:
    state = GAME.new(3, None, 4)
    while state["round"] < 4:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    return state


def swap_treasures(state: dict, seat: int, cells: list[str]) -> dict:
    other = copy.deepcopy(state)
    other["players"][seat]["sheet"]["treasures"] = cells
    if other["players"][seat]["pending"]:
        other["players"][seat]["pending"]["before"]["treasures"] = cells
    return other


def test_states_differing_only_in_treasure_look_identical_in_public() -> None:
    a = mid_build()
    a["players"][0]["sheet"]["treasures"] = ["B2", "C7"]
    b = swap_treasures(a, 0, ["H1", "D4"])
    assert GAME.view(a, None) == GAME.view(b, None)
    assert GAME.view(a, 1) == GAME.view(b, 1)
    assert R.render(GAME.view(a, None)) == R.render(GAME.view(b, None))
    assert GAME.status(a) == GAME.status(b)
    assert GAME.view(a, 0) != GAME.view(b, 0)
    assert "B2" in GAME.private_text(a, 0) and "B2" not in GAME.private_text(a, 1)


def test_states_differing_only_in_hands_look_identical_in_public() -> None:
    ax, club, sword = cards_with("ax")[0], cards_with("club")[0], cards_with("sword")[0]
    sheet = sheet_from(["...g...."] + EMPTY[1:])
    a = defend_state([sheet, sheet_from(EMPTY)], [DOWN, DOWN], hands=[[ax], [club]], decks=[[sword], []])
    b = defend_state([sheet, sheet_from(EMPTY)], [DOWN, DOWN], hands=[[sword], [club]], decks=[[ax], []])
    b["players"][0]["taken"] = list(a["players"][0]["taken"])  # the same cards were drafted (public)
    assert GAME.view(a, None) == GAME.view(b, None)
    assert R.render(GAME.view(a, None)) == R.render(GAME.view(b, None))
    assert GAME.view(a, 1) == GAME.view(b, 1)
    assert GAME.view(a, 0)["players"][0]["hand"] == [ax]
    assert GAME.view(a, 1)["players"][0]["hand"] is None


def test_error_sentences_do_not_depend_on_anyone_elses_secrets() -> None:
    a = mid_build()
    a["players"][0]["sheet"]["treasures"] = ["B2", "C7"]
    b = swap_treasures(a, 0, ["H1", "D4"])
    tries = [
        "treasure B2",
        "treasure H1",
        "goblin B2",
        "take 1",
        "wall B2 B3 C3",
        "done",
        "erase",
        "play 3",
        "hero 3 P1",
        "improve orc",
        "path A1 H1 H10",
    ]
    for seat in (1, 2):
        for text in tries:
            outcomes = []
            for s in (a, b):
                try:
                    GAME.apply(s, seat, GAME.parse(text))
                    outcomes.append("ok")
                except IllegalAction as exc:
                    outcomes.append(str(exc))
            assert outcomes[0] == outcomes[1], text


def test_treasure_moves_are_hidden_in_public_history_and_events() -> None:
    state = GAME.new(2, None, 9)
    hidden = GAME.public_format(state, 0, GAME.parse("treasure C5"))
    assert "C5" not in hidden
    # a whole game: no public event ever names a treasure's space
    log_public: list[str] = []
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        action = GAME.ai_action(state, seat)
        state, events = GAME.apply(state, seat, action)
        log_public += [e.text for e in events if e.seat is None]
        if action["t"] == "treasure":
            assert any(action["at"] in e.text for e in events if e.seat == seat)
    assert not [t for t in log_public if COORD_AFTER_TREASURE.search(t)]


def test_pending_installation_is_hidden_until_the_card_is_turned_over() -> None:
    state = GAME.new(2, {"setup": {"deck": list(range(1, 43))}}, 1)
    state, _ = act(state, 0, "take 1")
    state, _ = act(state, 0, "wall B2 B3 C3")
    assert GAME.view(state, None)["players"][0]["sheet"]["grid"] == {}
    assert GAME.view(state, 1)["players"][0]["sheet"]["grid"] == {}
    assert "B2" in json.dumps(GAME.view(state, 0)["players"][0]["sheet"])
    assert "B2" not in GAME.public_format(state, 0, GAME.parse("wall B2 B3 C3"))
    for move in ("goblin E5", "goblin G5", "dragon E7", "done"):
        state, _ = act(state, 0, move)
    assert GAME.view(state, None)["players"][0]["sheet"]["grid"]["B2"] == "wall"


def test_treasures_are_revealed_only_when_the_game_is_over() -> None:
    from tests.playout import ai_playout

    state = ai_playout(GAME, 2, 21)
    view = GAME.view(state, None)
    assert [p["sheet"]["treasures"] for p in view["players"]] == [
        p["sheet"]["treasures"] for p in state["players"]
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_render_every_phase_is_phone_sized_and_fast(players: int) -> None:
    state = GAME.new(players, None, 2)
    seen = set()
    steps = 0
    while not GAME.is_over(state):
        phase = (state["phase"], state["step"])
        if phase not in seen or steps % 97 == 0:
            seen.add(phase)
            t = time.perf_counter()
            png = R.render(GAME.view(state, None))
            elapsed = time.perf_counter() - t
            img = Image.open(io.BytesIO(png))
            assert img.width <= 1200 and len(png) <= 250_000
            assert elapsed < 0.5
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
        steps += 1
    png = R.render(GAME.view(state, None))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert {"build", "path", "defend"} <= {p for p, _ in seen}


def test_private_render_shows_only_the_viewers_secrets() -> None:
    state = mid_build()
    state["players"][0]["sheet"]["treasures"] = ["B2"]
    mine = R.render_private(GAME.view(state, 0))
    assert mine is not None and mine != R.render(GAME.view(state, None))
    assert R.render_private(GAME.view(state, None)) is None


def secret_twin(state: dict, keep: int) -> dict:
    """The same position with every other seat's secrets changed: treasures moved to other
    spaces, hand and action deck dealt anew from the same cards."""
    import random

    twin = copy.deepcopy(state)
    rnd = random.Random(state["rng"]["n"])
    for s, p in enumerate(twin["players"]):
        if s == keep:
            continue
        moved = [c for c in board.ALL_CELLS if c not in p["sheet"]["treasures"]][
            : len(p["sheet"]["treasures"])
        ]
        rnd.shuffle(moved)
        p["sheet"]["treasures"] = moved
        if p["pending"]:
            p["pending"]["before"]["treasures"] = moved[: len(p["pending"]["before"]["treasures"])]
        cards = p["hand"] + p["deck"]
        rnd.shuffle(cards)
        p["hand"], p["deck"] = cards[: len(p["hand"])], cards[len(p["hand"]) :]
    return twin


@pytest.mark.parametrize("players", [2, 4])
def test_adversarial_twins_agree_on_everything_public(players: int) -> None:
    """Along a whole AI game, a twin whose other seats hold different secrets gives the same
    public view, status, history line and public events for every move made."""
    state = GAME.new(players, None, 31 + players)
    step = 0
    secrets_differed = 0
    while not GAME.is_over(state):
        seat = min(GAME.to_act(state))
        action = GAME.ai_action(state, seat)
        if step % 7 == 0:
            twin = secret_twin(state, seat)
            other = (seat + 1) % players
            secrets_differed += GAME.view(twin, other) != GAME.view(state, other)
            assert GAME.view(twin, None) == GAME.view(state, None)
            assert GAME.status(twin) == GAME.status(state)
            assert GAME.public_format(twin, seat, action) == GAME.public_format(state, seat, action)
            after_a, ev_a = GAME.apply(state, seat, action)
            after_b, ev_b = GAME.apply(twin, seat, action)
            if not GAME.is_over(after_a):  # the last move scores: the treasures are revealed
                assert [e.text for e in ev_a if e.seat is None] == [e.text for e in ev_b if e.seat is None]
                assert GAME.view(after_a, None) == GAME.view(after_b, None)
        state, _ = GAME.apply(state, seat, action)
        step += 1
    assert secrets_differed > 10  # the twins really hid different things


def test_cards_put_under_the_deck_stay_secret_in_the_public_history() -> None:
    ax, club = cards_with("ax")[0], cards_with("club")[0]
    state = defend_state(
        [sheet_from(EMPTY), sheet_from(EMPTY)], [DOWN, DOWN], hands=[[ax], []], decks=[[club], []]
    )
    action = GAME.parse(f"refill {ax}")
    shown = GAME.public_format(state, 0, action)
    assert str(ax) not in shown and "1 card" in shown
    after, events = GAME.apply(state, 0, action)
    assert not [e.text for e in events if e.seat is None and (f"#{ax}" in e.text or f"#{club}" in e.text)]
    assert any(f"#{club}" in e.text for e in events if e.seat == 0)
    assert GAME.public_format(state, 0, GAME.parse("refill")) == "refill"
