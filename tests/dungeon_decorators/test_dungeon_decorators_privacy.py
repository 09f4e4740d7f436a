"""Hidden information: hands, bag and deck order and goal draws never go public; stored
and freshly drafted tiles lie in front of their owner, for everyone to see."""

from __future__ import annotations

import json
import random

import pytest

from engine.core import IllegalAction, copy_state
from engine.dungeon_decorators import GAME
from render import default_names
from render.dungeon_decorators import RENDERER, render

from .helpers import act, staged


def midgame(seed: int = 4, steps: int = 60) -> dict:
    s = GAME.new(3, None, seed)
    r = random.Random(seed)
    for _ in range(steps):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, r.choice(GAME.legal_actions(s, seat)))
    return s


def test_public_view_and_png_ignore_hands_and_bag_order() -> None:
    s = midgame()
    t = copy_state(s)
    # Swap seat 0's hand for other cards of the same types.
    p = t["players"][0]
    for i, g in enumerate(p["hand"]):
        deck = t["decks"][g[0]]
        p["hand"][i], deck[0] = deck[0], g
    t["red"] = list(reversed(t["red"]))
    t["blue"] = list(reversed(t["blue"]))
    assert GAME.view(s, None) == GAME.view(t, None)
    assert render(GAME.view(s, None)) == render(GAME.view(t, None))
    assert GAME.status(s) == GAME.status(t)
    # Each seat's own view does differ.
    assert GAME.view(s, 0)["mine"] != GAME.view(t, 0)["mine"]


def test_stored_and_new_tiles_are_shown_to_everyone() -> None:
    # "Storage: You may store up to two tiles on your player board" and a drafted tile is placed
    # "in front of you": both lie on the table in the physical game, so the board shows them.
    s = staged(blue=[297, 30, 111, 171, 4, 8])
    s, _ = act(s, 0, "draft 297")
    pub = GAME.view(s, None)["players"][0]
    assert [t["n"] for t in pub["new_tiles"]] == [297, "G"]
    s, ev = act(s, 0, "store 297")
    assert "tile 297" in " ".join(e.text for e in ev if e.seat is None)
    pub = GAME.view(s, None)["players"][0]
    assert [t["n"] for t in pub["storage"]] == [297]
    s2 = copy_state(s)
    s2["players"][0]["storage"] = [4]
    assert render(GAME.view(s, None)) != render(GAME.view(s2, None))


def test_public_view_holds_no_goal_ids_or_stored_tiles() -> None:
    s = midgame()
    pub = json.dumps(GAME.view(s, None))
    for p in s["players"]:
        for g in p["hand"]:
            assert f'"{g}"' not in pub
    v = GAME.view(s, None)
    assert v["viewer"] is None and v["mine"] is None
    assert all("hand" not in p for p in v["players"])


def test_private_view_and_text_show_your_goals_and_storage() -> None:
    s = staged(blue=[297, 30, 111, 171, 4, 8])
    s, _ = act(s, 0, "draft 297")
    s, _ = act(s, 0, "store 297")
    text = GAME.private_text(s, 0)
    assert "S3" in text and "D1 Sharp Pointy Object Storage" in text and "297" in text
    assert "S5" not in text  # another seat's card
    png = RENDERER.area(GAME.view(s, 0), default_names(2))
    assert png and png[:4] == b"\x89PNG"
    assert RENDERER.area(GAME.view(s, None), default_names(2)) is None


def test_goal_draws_are_private_tile_draws_public_and_neither_undoable() -> None:
    s = staged(blue=[30, 111, 171, 282, 46, 297, 4, 8])
    before = s
    s, ev = act(s, 0, "exchange")
    assert not GAME.can_undo(before, s, 0, GAME.parse("exchange"))
    # The tile is drawn "as your draft and place[d] in front of you": everyone sees it.
    assert "tile 46" in " ".join(e.text for e in ev if e.seat is None)
    s, ev = act(s, 0, "draw D")
    public = " ".join(e.text for e in ev if e.seat is None)
    private = " ".join(e.text for e in ev if e.seat == 0)
    drawn = s["players"][0]["hand"][-1]
    assert drawn not in public and drawn in private
    # Burrow Bro: "choose one tile from among the three in front of you" - on the table too.
    s, _ = act(s, 0, f"discard {s['players'][0]['hand'][0]}")
    assert [t["n"] for t in GAME.view(s, None)["burrow"]] == s["burrow"]


def test_placing_from_the_board_can_be_undone() -> None:
    s = staged(blue=[30, 111, 171, 282, 4, 8])
    s1, _ = act(s, 0, "draft 111")
    assert GAME.can_undo(s, s1, 0, GAME.parse("draft 111"))


def test_public_history_hides_discards_stores_and_burrow_choices() -> None:
    s = staged()
    assert GAME.public_format(s, 0, GAME.parse("discard S3 D1")) == "discard (face down)"
    assert GAME.public_format(s, 0, GAME.parse("store 171")) == "store 171"
    assert GAME.public_format(s, 0, GAME.parse("keep 171")) == "keep 171"
    assert GAME.public_format(s, 0, GAME.parse("171 D AP41 90")) == "171 D AP41 90"


def test_errors_do_not_reveal_other_hands() -> None:
    s = staged()
    s, _ = act(s, 0, "exchange")
    s, _ = act(s, 0, "draw D")
    with pytest.raises(IllegalAction) as exc:
        act(s, 0, "discard S5")  # S5 is in seat 1's hand: the answer is the same as for any card
    assert str(exc.value) == "S5 is not a goal card in your hand."


def test_status_names_the_new_tiles_wherever_they_came_from() -> None:
    s = staged(blue=[297, 111, 171, 282, 30, 4, 8])
    s1, _ = act(s, 0, "draft 297")
    assert "tile 297 and a generic tile" in GAME.status(s1)
    s2, _ = act(s, 0, "exchange")
    s2, _ = act(s2, 0, "draw S")
    s2, _ = act(s2, 0, f"discard {s2['players'][0]['hand'][0]}")
    assert s2["players"][0]["pending"][0]["t"] == 30
    assert "tile 30" in GAME.status(s2)
