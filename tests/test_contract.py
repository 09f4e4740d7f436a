"""The engine contract, checked for every installed game."""

from __future__ import annotations

import io
import json
import re

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
    """The notation of real legal moves of every shape met in a whole random game
    (a shape is the text with its digits blanked: "support 2 gold" ~ "support 3 gem")."""
    import random as _random

    pick = _random.Random(5)
    state = game.new(game.min_players, None, 5)
    texts: list[str] = []
    shapes: set[str] = set()
    for _step in range(3000):
        if game.is_over(state):
            break
        seat = pick.choice(sorted(game.to_act(state)))
        legal = game.legal_actions(state, seat)
        for a in legal[:40]:
            text = game.format(a)
            shape = (
                re.sub(r"[0-9]+", "#", re.sub(r"[a-z]+", "a", text))
                if len(text) > 30
                else re.sub(r"[0-9]+", "#", text)
            )
            if shape not in shapes and len(texts) < 150:
                shapes.add(shape)
                texts.append(text)
        state, _ = game.apply(state, seat, pick.choice(legal))
    return texts


def _corrupted(text: str) -> list[str]:
    """A real move with a digit written in a way int() cannot read, or a huge number."""
    out = [text + "①", text + " " + "9" * 5000]
    digits = [i for i, ch in enumerate(text) if ch.isdigit()]
    if digits:
        i = digits[-1]
        out += [text[:i] + "①" + text[i + 1 :], text[:i] + "٣" + text[i + 1 :], text[:i] + "9" * 5000]
        out.append(text[:i] + "²" + text[i + 1 :])  # '²'.isdigit() is True, int('²') raises
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


# ---- malformed move objects (issue 29 item 17) ------------------------------------
#
# A move reaches apply() as an object, not only as typed text: a button's index into
# the legal moves, a stored log line parsed back, a future client. Real legal moves
# with a field removed, retyped, emptied or swapped must be refused in one sentence
# with the state unchanged, never crash the engine.

WRONG_VALUES: list[object] = [None, "", " ", "①", "²", -1, 10**30, 0.5, True, [], {}, ["x"], {"a": 1}]


def _field_mutants(action: dict) -> list[object]:
    out: list[object] = [{}, {"zz": 1, **action}]
    keys = list(action)
    for k in keys:
        out.append({j: v for j, v in action.items() if j != k})  # a field removed
        out += [{**action, k: bad} for bad in WRONG_VALUES]  # retyped or emptied
        value = action[k]
        if isinstance(value, list | dict) and value:
            out.append({**action, k: type(value)()})
            if isinstance(value, list):
                out += [
                    {**action, k: value[1:]},
                    {**action, k: [*value, value[-1]]},
                    {**action, k: [str(value)]},
                ]
    for i, a in enumerate(keys):  # two fields' values swapped
        for b in keys[i + 1 :]:
            if action[a] != action[b]:
                out.append({**action, a: action[b], b: action[a]})
    return out


def _mutants(action: object) -> list[object]:
    out: list[object] = [None, 0, "", [], {}, [action], {"a": action}]
    if isinstance(action, dict):
        out += _field_mutants(action)
    elif isinstance(action, list | tuple):
        items = list(action)
        out += [items[:i] + items[i + 1 :] for i in range(len(items))]
        out += [items[:i] + [bad] + items[i + 1 :] for i in range(len(items)) for bad in WRONG_VALUES[:6]]
        out += [items[::-1], items + items[-1:]]
    elif isinstance(action, str):
        digits = [i for i, ch in enumerate(action) if ch.isdigit()]
        out += [action + "①", action[: len(action) // 2], action.upper(), " " + action + " "]
        out += [action[:i] + sup + action[i + 1 :] for i in digits[-2:] for sup in ("²", "①", "٣")]
    return out


def _states_along_a_game(game: core.Game, players: int, seed: int, every: int) -> list[core.State]:
    import random as _random

    pick = _random.Random(seed)
    state = game.new(players, None, seed)
    out = []
    for step in range(4000):
        if game.is_over(state):
            break
        if step % every == 0:
            out.append(state)
        seat = pick.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
    return out


@pytest.mark.parametrize("key", GAMES)
def test_malformed_move_objects_are_refused_in_one_sentence(key: str) -> None:
    """Issue 29 item 17: "The contract says IllegalAction" for a malformed move object."""
    import random as _random

    game = core.get(key)
    pick = _random.Random(17)
    tried = refused = 0
    for state in _states_along_a_game(game, game.min_players, 17, every=7)[:40]:
        before = json.dumps(state, sort_keys=True)
        for seat in sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            for action in pick.sample(legal, min(3, len(legal))):
                for bad in _mutants(action):
                    if bad in legal:
                        continue
                    tried += 1
                    try:
                        game.apply(state, seat, bad)
                    except core.IllegalAction as exc:
                        refused += 1
                        sentence = str(exc)
                        assert sentence.strip() and len(sentence) < 400, (bad, sentence)
                        assert "Error" not in sentence and "Traceback" not in sentence, (bad, sentence)
                    except Exception as exc:  # noqa: BLE001 - the point of the test
                        pytest.fail(f"{key}: {bad!r} crashed the engine with {type(exc).__name__}: {exc}")
                    assert json.dumps(state, sort_keys=True) == before, f"{bad!r} changed the state"
    assert tried > 200 and refused > tried // 2, (tried, refused)
