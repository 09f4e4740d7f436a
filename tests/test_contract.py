"""The engine contract, checked for every installed game."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import render
from engine import core
from tests.playout import ai_playout, random_playout, replay, roundtrip

GAMES = core.available()


def player_counts(game: core.Game) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


@pytest.mark.parametrize("key", GAMES)
def test_registry_and_metadata(key: str) -> None:
    game = core.get(key)
    assert game.key == key
    assert game.title and game.min_players <= game.max_players
    for name, opt in game.options.items():
        assert opt.default in opt.choices, name


@pytest.mark.parametrize("key", GAMES)
def test_random_games_end_replay_and_roundtrip(key: str) -> None:
    game = core.get(key)
    for players in player_counts(game):
        seed = 100 + players
        state, log = random_playout(game, players, seed, check=lambda s: json.dumps(s))
        assert game.is_over(state)
        assert roundtrip(state) == state
        assert replay(game, players, seed, None, log) == state, "seed + log must replay to the same state"
        result = game.result(state)
        assert len(result.scores) == players
        assert sorted(s for g in result.ranking for s in g) == list(range(players))


@pytest.mark.parametrize("key", GAMES)
def test_ai_plays_to_the_end(key: str) -> None:
    game = core.get(key)
    state = ai_playout(game, game.min_players, 7)
    assert game.is_over(state)


@pytest.mark.parametrize("key", GAMES)
def test_public_view_renders_png(key: str) -> None:
    game = core.get(key)
    state = game.new(game.min_players, None, 3)
    view = game.view(state, None)
    json.dumps(view)
    png = render.get(key).board(view, render.default_names(game.min_players))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    Image.open(io.BytesIO(png)).verify()


def test_unknown_game_is_a_clear_sentence() -> None:
    with pytest.raises(core.IllegalAction, match="no game called"):
        core.get("chess")


def test_yes_no_options_take_only_true_or_false() -> None:
    from tests.fakegame import Race

    game = Race()
    assert game.resolve_options({"open_cards": True})["open_cards"] is True
    for value in (1, 1.0, 0, "true"):
        with pytest.raises(core.IllegalAction, match="must be one of"):
            game.resolve_options({"open_cards": value})


# ---- hostile notation, for every game from one place ------------------------------
# Regression for the reliability fuzzer's crashes (docs/reliability.md): '①'.isdigit() is
# True but int('①') raises ValueError, and int() refuses strings of more than 4,300 digits.

HOSTILE = ["①", ",", "", " ", "1,,", ",,,", "\x00", "9" * 400, "9" * 5000, "٣", "Ａ１", "\u200b", "\ud800"]


def _real_moves(game: core.Game) -> list[str]:
    """The notation of real legal moves from an opening and a middle state."""
    import random as _random

    pick = _random.Random(5)
    state = game.new(game.min_players, None, 5)
    texts: list[str] = []
    for step in range(60):
        if game.is_over(state):
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if step in (0, 59) or len(texts) < 8:
            texts += [game.format(a) for a in legal[:6]]
        state, _ = game.apply(state, seat, pick.choice(legal))
    return texts


def _corrupted(text: str) -> list[str]:
    """A real move with a digit written in a way int() cannot read, or a huge number."""
    out = [text + "①", text + " " + "9" * 5000]
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if digits:
        i = digits[-1]
        out += [text[:i] + "①" + text[i + 1 :], text[:i] + "٣" + text[i + 1 :], text[:i] + "9" * 5000]
    return out


@pytest.mark.parametrize("key", GAMES)
def test_parse_refuses_hostile_text_with_a_sentence(key: str) -> None:
    game = core.get(key)
    moves = _real_moves(game)
    assert moves, "no real move to corrupt"
    for text in HOSTILE + [bad for m in moves for bad in _corrupted(m)]:
        with pytest.raises(core.IllegalAction) as refused:
            game.parse(text)
        sentence = str(refused.value)
        assert sentence.strip() and "Error" not in sentence and "Traceback" not in sentence, repr(text[:40])
    for text in moves:  # the same moves in plain digits still parse
        assert game.format(game.parse(text)) == text
