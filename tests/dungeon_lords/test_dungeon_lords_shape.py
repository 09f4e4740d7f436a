"""The package's shape (issue 16): one data loader and DataError, one seat reference in
every engine text, the viewer key, the AI hook on views, no function over 80 lines."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from engine import core
from engine.dungeon_lords import data
from tests.dungeon_lords.helpers import G

PACKAGE = Path(__file__).resolve().parents[2] / "engine" / "dungeon_lords"
OLD_SEAT = re.compile(r"\bP[1-4]\b")


def test_data_goes_through_the_one_loader_and_its_data_error() -> None:
    assert data.DataError is core.DataError
    with pytest.raises(core.DataError, match="rules.json"):
        data.validate_rules({"years": 2})
    # A KeyError inside a validator becomes one DataError sentence naming the file.
    with pytest.raises(core.DataError, match="pets.json"):
        core.load_data(
            "dungeon-lords", "pets.json", lambda doc: data.validate_pets({"copies": 2, "pets": [{}]})
        )


def test_every_function_of_the_package_is_at_most_80_lines() -> None:
    long = []
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = (node.end_lineno or node.lineno) - node.lineno + 1
                if n > 80:
                    long.append(f"{path.name}:{node.name} {n}")
    assert not long


def test_views_name_their_viewer_and_texts_name_seats_as_player_n() -> None:
    rnd = random.Random(5)
    for n in (2, 3):
        s = G.new(n, None, 40 + n)
        seen_player_ref = False
        while not G.is_over(s):
            assert G.view(s, None)["viewer"] is None
            seat = min(G.to_act(s))
            assert G.view(s, seat)["viewer"] == seat
            assert not OLD_SEAT.search(G.status(s))
            s, ev = G.apply(s, seat, rnd.choice(G.legal_actions(s, seat)))
            for e in ev:
                assert not OLD_SEAT.search(e.text), e.text
                seen_player_ref |= core.SEAT_REF.search(e.text) is not None
        assert seen_player_ref
        assert not any(OLD_SEAT.search(line) for line in G.view(s, None)["combat_log_full"] + s["log"])


def test_the_ai_gets_the_view_the_legal_moves_and_its_own_randomness() -> None:
    from engine.dungeon_lords import ai

    s = G.new(3, None, 7)
    seat = min(G.to_act(s))
    assert "ai_action" not in type(G).__dict__  # the core hook, not an override
    move = ai.choose(G.view(s, seat), G.legal_actions(s, seat), G.ai_random(s, seat))
    assert move == G.ai_action(s, seat) and move in G.legal_actions(s, seat)
