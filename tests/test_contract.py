"""The engine contract, checked for every installed game."""

from __future__ import annotations

import importlib
import io
import json

import pytest
from PIL import Image

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
    module = importlib.import_module(f"render.{core.MODULES[key]}")
    png = module.render(view)
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
