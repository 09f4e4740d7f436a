"""Every select option says what THAT option does (issue 40 item 2): over the choice
menus met in whole games of every game, no two options of one menu carry the same
line, no line is over Discord's 100 characters, and no line is cut in a word.

A game is played with random legal moves; at a sample of its positions a seat to act
walks one random path through its chooser, and each step shown as a select menu (more
than five options) is checked as the private reply would show it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import render
from engine import core
from store.db import GameRow, SeatRow
from tables.chooser import build_step
from tables.descriptions import DESCRIPTION_MAX, fit_words
from tables.results import Step

GAMES = core.available()


class _NoPreview:
    preview = None
    board = None


def _row(key: str, state: dict[str, Any], players: int) -> GameRow:
    seats = [SeatRow(i, 100 + i, f"Ann {i}", False) for i in range(players)]
    return GameRow(
        1, None, None, None, None, key, {}, 1, "active", 1, 0, None, state, None, 0.0, 0.0, None, seats, {}
    )


def menus_of_a_game(
    key: str, seed: int, positions: int
) -> list[tuple[str, list[tuple[str, str]], list[str], dict]]:
    """(prompt, options, the line under each option, the game's own lines) of every
    select menu met at ``positions`` positions of one random game."""
    game = core.get(key)
    players = max(game.min_players, 3 if key == "dungeon-lords" else 2)
    pick = random.Random(seed)
    state = game.new(players, None, seed)
    every = 3
    out = []
    moves = 0
    while not game.is_over(state) and len(out) < positions * 3 and moves < positions * every:
        seat = pick.choice(sorted(game.to_act(state)))
        if moves % every == 0:
            row, prefix = _row(key, state, players), []
            for _ in range(8):
                step = build_step(row, seat, prefix)
                if len(step.options) > Step.FEW:
                    raw = core.get(key).chooser(state, seat, list(prefix)).descriptions or {}
                    lines = [
                        step.descriptions.get(t) or step.hints[k] for k, (t, _l) in enumerate(step.shown)
                    ]
                    out.append((step.prompt, step.shown, lines, raw))
                if not step.options:
                    break
                prefix.append(pick.choice(step.options)[0])
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
        moves += 1
    return out


def _check(key: str, seed: int, positions: int) -> int:
    menus = menus_of_a_game(key, seed, positions)
    for prompt, shown, lines, raw in menus:
        said = Counter(line for line in lines if line)
        assert not [x for x, n in said.items() if n > 1], (prompt, [x for x, n in said.items() if n > 1])
        assert all(len(line) <= DESCRIPTION_MAX for line in lines), prompt
        for (tok, _label), line in zip(shown, lines, strict=True):
            whole = " ".join(str(raw.get(tok, "")).split())
            if line.endswith("…") and whole:
                kept = line[:-1].rstrip()
                assert whole.startswith(kept) and whole[len(kept)] in " ,;:", (prompt, line)
    return len(menus)


@pytest.fixture(autouse=True)
def _no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The previews are drawn elsewhere; here only the words count."""
    monkeypatch.setattr(render, "get", lambda key: _NoPreview())


@pytest.mark.parametrize("key", GAMES)
def test_no_two_options_of_a_menu_say_the_same(key: str) -> None:
    """ "All 12 Lords order options carry the same cut-off text ... on the last step every
    option says 'Plays this move at once'": each option's line is its own, whole, <= 100."""
    menus = _check(key, seed=40, positions=6 if key == "dungeon-lair" else 25)
    if key != "monster-inn":  # Monster Inn's moves are buttons: no select menu to check
        assert menus > 0, f"{key}: no select menu met, the test checked nothing"


@pytest.mark.slow
@pytest.mark.parametrize("key", GAMES)
def test_no_two_options_of_a_menu_say_the_same_over_whole_games(key: str) -> None:
    for seed in (1, 2, 3):
        _check(key, seed=seed, positions=400)


def test_a_long_line_is_cut_between_words() -> None:
    text = (
        "Space I: up to 2 imps mine 1 gold each; if a rival is first, II: up to 3 imps mine more gold today"
    )
    cut = fit_words(text + " and tomorrow", 100)
    assert len(cut) <= 100 and cut.endswith("…")
    assert (text + " and tomorrow").startswith(cut[:-1]) and (text + " and tomorrow")[len(cut) - 1] == " "
