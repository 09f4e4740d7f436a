"""Hidden information: hands, storage, bag and deck order, private draws never go public."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import IllegalAction, copy_state
from engine.dungeon_decorators import GAME
from render.dungeon_decorators import render, render_private

from .helpers import act, staged


def midgame(seed: int = 4, steps: int = 60) -> dict:
    s = GAME.new(3, None, seed)
    r = random.Random(seed)
    for _ in range(steps):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, r.choice(GAME.legal_actions(s, seat)))
    return s


def test_public_view_and_png_ignore_hands_storage_and_bag_order() -> None:
    s = midgame()
    t = copy_state(s)
    # Swap seat 0's hand for other cards of the same types, and seat 1's stored tile for another.
    p = t["players"][0]
    for i, g in enumerate(p["hand"]):
        deck = t["decks"][g[0]]
        p["hand"][i], deck[0] = deck[0], g
    s["players"][1]["storage"] = [4]
    t["players"][1]["storage"] = [8]
    t["red"] = list(reversed(t["red"]))
    t["blue"] = list(reversed(t["blue"]))
    assert GAME.view(s, None) == GAME.view(t, None)
    assert render(GAME.view(s, None)) == render(GAME.view(t, None))
    assert GAME.status(s) == GAME.status(t)
    # Each seat's own view does differ.
    assert GAME.view(s, 0)["you"] != GAME.view(t, 0)["you"]


def test_public_view_holds_no_goal_ids_or_stored_tiles() -> None:
    s = midgame()
    pub = json.dumps(GAME.view(s, None))
    for p in s["players"]:
        for g in p["hand"]:
            assert f'"{g}"' not in pub
    v = GAME.view(s, None)
    assert v["you"] is None
    assert all("hand" not in p and "storage" not in p for p in v["players"])


def test_private_view_and_text_show_your_goals_and_storage() -> None:
    s = staged(blue=[297, 30, 111, 171, 4, 8])
    s, _ = act(s, 0, "draft 297")
    s, _ = act(s, 0, "store 297")
    text = GAME.private_text(s, 0)
    assert "S3" in text and "D1 Sharp Pointy Object Storage" in text and "297" in text
    assert "S5" not in text  # another seat's card
    png = render_private(GAME.view(s, 0))
    assert png and png[:4] == b"\x89PNG"
    assert render_private(GAME.view(s, None)) is None


def test_draws_are_private_events_and_not_undoable() -> None:
    s = staged(blue=[30, 111, 171, 282, 46, 297, 4, 8])
    before = s
    s, ev = act(s, 0, "exchange D")
    public = " ".join(e.text for e in ev if e.seat is None)
    private = " ".join(e.text for e in ev if e.seat == 0)
    drawn = s["players"][0]["hand"][-1]
    assert drawn not in public and drawn in private
    assert "46" in private and "46" not in public
    assert not GAME.can_undo(before, s, 0, GAME.parse("exchange D"))
    # Burrow Bro choices are the drawer's alone.
    s, _ = act(s, 0, f"discard {s['players'][0]['hand'][0]}")
    assert GAME.view(s, 0)["you"]["burrow"] and GAME.view(s, 1)["you"]["burrow"] is None
    assert "burrow" not in json.dumps(GAME.view(s, None)["players"])


def test_placing_from_the_board_can_be_undone() -> None:
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    s1, _ = act(s, 0, "draft 111")
    assert GAME.can_undo(s, s1, 0, GAME.parse("draft 111"))


def test_public_history_hides_discards_stores_and_burrow_choices() -> None:
    s = staged()
    assert GAME.public_format(s, 0, GAME.parse("discard S3 D1")) == "discard (face down)"
    assert GAME.public_format(s, 0, GAME.parse("store 171")) == "store a tile"
    assert GAME.public_format(s, 0, GAME.parse("keep 171")) == "keep a tile"
    assert GAME.public_format(s, 0, GAME.parse("171 D H7 90")) == "171 D H7 90"


def test_errors_do_not_reveal_other_hands() -> None:
    s = staged()
    s, _ = act(s, 0, "exchange D")
    with pytest.raises(IllegalAction) as exc:
        act(s, 0, "discard S5")  # S5 is in seat 1's hand: the answer is the same as for any card
    assert str(exc.value) == "S5 is not a goal card in your hand."


def test_status_names_board_tiles_but_not_bag_draws() -> None:
    s = staged(blue=[297, 111, 171, 282, 30, 4, 8])
    s1, _ = act(s, 0, "draft 297")
    assert "tile 297 and a generic tile" in GAME.status(s1)
    s2, _ = act(s, 0, "exchange S")
    s2, _ = act(s2, 0, f"discard {s2['players'][0]['hand'][0]}")
    assert s2["players"][0]["pending"][0]["t"] == 30
    assert "a tile from the bag" in GAME.status(s2) and "30" not in GAME.status(s2)
    assert GAME.view(s2, None)["players"][0]["new_tiles"] == [None]
