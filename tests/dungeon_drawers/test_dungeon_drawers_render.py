"""What the images and texts show a player: card effects where cards are chosen, the hero
path drawing, the display line, names and whose turn, the final board, my area."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.dungeon_drawers import board
from engine.dungeon_drawers.data import ACTIONS, CARDS
from render import default_names
from render import dungeon_drawers as R
from render.base import PALETTE, canvas, seat_colour, text_width
from tests.dungeon_drawers.helpers import EMPTY, GAME, cards_with, defend_state, sheet_from
from tests.playout import ai_playout

DOWN = GAME.parse("path A1 A10 H10")["cells"]
NAMES = ["Anna", "Chris", "Bartholomew", "Dee"]


def short(cid: int) -> str:
    return str(ACTIONS[CARDS[cid].action]["short"])


# ---- issue 19.4: a card's defence-phase effect wherever the player chooses it -----------------


def test_hand_private_text_and_hand_event_say_what_each_card_does() -> None:
    sword, club = cards_with("sword")[0], cards_with("club")[0]
    state = defend_state([sheet_from(EMPTY), sheet_from(EMPTY)], [DOWN, DOWN], hands=[[sword, club], []])
    text = GAME.private_text(state, 0)
    assert short(sword) in text and short(club) in text
    # the "Your hand" line of the start of Phase C
    state = GAME.new(2, None, 3)
    while state["phase"] != "defend":
        seat = min(GAME.to_act(state))
        state, events = GAME.apply(state, seat, GAME.ai_action(state, seat))
    hand_lines = [e for e in events if e.seat == 0 and e.text.startswith("Your hand")]
    assert hand_lines and all(short(c) in hand_lines[0].text for c in state["players"][0]["hand"])


def test_hero_action_take_and_play_labels_carry_the_effect_in_80_characters() -> None:
    for cid in CARDS:
        a = ACTIONS[CARDS[cid].action]
        labels = [GAME.describe(None, {"t": "take", "card": cid})]
        move = {"t": "hero", "card": cid, "to": 1} if a["type"] == "hero" else {"t": "play", "card": cid}
        labels.append(GAME.describe(None, move))
        for label in labels:
            assert len(label) <= 80 and not label.endswith("..."), label
            assert a["short"] in label, label
        elements = CARDS[cid].elements
        assert all((e[5:] if e.startswith("wall:") else e) in labels[0] for e in elements)
        if a["type"] == "hero":
            assert labels[1].endswith("on Player 2's dungeon")


def test_my_area_lists_the_hand_with_each_effect() -> None:
    sword, club = cards_with("sword")[0], cards_with("club")[0]
    state = defend_state([sheet_from(EMPTY), sheet_from(EMPTY)], [DOWN, DOWN], hands=[[sword, club], []])
    lines = " ".join(
        line for line, _, _ in R._hand_lines(GAME.view(state, 0), GAME.view(state, 0)["players"][0], NAMES)
    )
    for c in (sword, club):
        assert " ".join(ACTIONS[CARDS[c].action]["text"].split()) in " ".join(lines.split())
    png = R.RENDERER.area(GAME.view(state, 0), NAMES)
    assert Image.open(io.BytesIO(png)).width == R.AREA_W == 1200  # the floor holds at 1,200 px (issue 28)
    assert R.RENDERER.area(GAME.view(state, None), NAMES) is None


# ---- issue 19.5: the hero path drawing ----------------------------------------------------------


def _grid_image(path: list[str] | None, sheet: dict) -> Image.Image:
    img, d = canvas(500, 560)
    p = {
        "sheet": sheet,
        "path": path,
        "path_drawn": bool(path),
        "hero": {"pos": -1, "hearts": 10, "state": "in"},
    }
    R.draw_grid(d, R.Grid(60, 60, 40), p, seat_colour(0), 26)
    return img


def test_the_path_never_covers_a_monster_or_trap_letter() -> None:
    sheet = sheet_from(["........", "..g.....", ".t......"] + ["........"] * 7)
    path = board.expand(["A1", "C1", "C3", "B3", "B2", "C2", "D2", "D10", "H10"])
    assert board.path_problem(sheet, path) is None
    with_path, without = _grid_image(path, sheet), _grid_image(None, sheet)
    g = R.Grid(60, 60, 40)
    for cell in ("C2", "B3"):
        cx, cy = g.centre(cell)
        box = (int(cx - 9), int(cy - 9), int(cx + 9), int(cy + 9))  # inside the token's disc
        assert with_path.crop(box).tobytes() == without.crop(box).tobytes()


def test_steps_are_straight_and_a_second_pass_is_drawn_apart() -> None:
    sheet = sheet_from(EMPTY)
    path = board.expand(["A1", "C1", "A1", "A10", "H10"])  # B1 and C1 are passed there and back
    img = _grid_image(path, sheet).convert("RGB")
    g = R.Grid(60, 60, 40)
    colour, white = seat_colour(0), PALETTE["white"]
    ax, ay = g.centre("A3")
    # a first pass down column A lies on the line through the centres (no offset, no diagonal)
    assert img.getpixel((int(ax), int(ay + 8))) == colour
    # the way back from C1 over B1 is dashed in white beside the first pass's colour
    (cx, cy), (dx, _dy) = g.centre("C1"), g.centre("B1")
    row = [img.getpixel((x, int(cy))) for x in range(int(dx), int(cx))]
    assert white in row and colour in row
    once = [img.getpixel((x, int(ay))) for x in range(int(ax) - 2, int(ax) + 3)]
    assert white not in once


# ---- issue 19.7 and 21: the display, names, whose turn, the final board ---------------------------


def test_the_four_player_display_shows_every_card_whole() -> None:
    state = GAME.new(4, None, 7)
    view = GAME.view(state, None)
    info = R._info(view, NAMES)
    lines = [line for line, _, _, _ in info]
    assert all(text_width(line, size) <= R.W - 32 for line, _, size, _ in info)
    joined = " ".join(lines)
    assert len(view["display"]) == 5
    for c in view["display"]:
        assert view["cards"][str(c)]["text"] in joined
    assert "..." not in joined


def test_the_player_to_act_has_a_filled_name_bar_in_their_colour() -> None:
    state = GAME.new(2, None, 7)
    view = GAME.view(state, None)
    assert view["to_act"] == [0]
    img, d = canvas(600, 100)
    for seat in (0, 1):
        R._name_bar(d, 0, seat * 50, 590, view["players"][seat], view, NAMES, 24)
    assert img.getpixel((585, 5)) == seat_colour(0)
    assert img.getpixel((585, 55)) == PALETTE["panel2"]


def test_boards_draw_the_players_names() -> None:
    view = GAME.view(GAME.new(3, None, 7), None)
    assert R.RENDERER.board(view, NAMES[:3]) != R.RENDERER.board(view, ["Xu", "Yves", "Zoe"])
    assert R.render(view) == R.RENDERER.board(view, default_names(3))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_final_board_names_the_winner_and_every_score_and_is_phone_shaped(players: int) -> None:
    state = ai_playout(GAME, players, 40 + players)
    view = GAME.view(state, None)
    res = view["result"]
    info = [line for line, _, _, _ in R._info(view, NAMES[:players])]
    assert info[0] == "Winner: " + " and ".join(NAMES[s] for s in res["winners"])
    scores = " ".join(info[1:3])
    for s in range(players):
        assert f"{NAMES[s]}: {res['scores'][s]} point" in scores  # issue 40: never "Bot 3 9"
    img = Image.open(io.BytesIO(R.RENDERER.board(view, NAMES[:players])))
    # issue 28: two columns (two rows of two at four players), never a square preview
    assert img.width == 1200 and abs(img.height - img.width) > 0.05 * img.width
    # Issue 40's 30-px floor makes the words taller (1.25 and 1.9 at 26 px).
    assert img.height <= (1.4 if players == 2 else 2.2) * img.width


def test_every_place_preview_draws_the_seats_dungeon_with_the_places_named() -> None:
    """Issue 26: every step choosing a place shows the player's own dungeon with the candidate
    places labelled as the options name them: spaces, the quarters "Q1".."Q4", and the wall
    formation's placements on small copies ("W1"..); each is a PNG of phone size."""
    state = GAME.new(2, None, 3)
    drawn: set[str] = set()
    labels: list[str] = []
    real = R.text

    def spy(d, xy, s, *a, **k):  # type: ignore[no-untyped-def]
        labels.append(s)
        return real(d, xy, s, *a, **k)

    R.text = spy  # type: ignore[assignment]
    try:
        while state["phase"] == "build" and len(drawn) < 4:
            seat = min(GAME.to_act(state))
            steps = [GAME.chooser(state, seat, [])]
            steps += [
                GAME.chooser(state, seat, [t]) for t, _ in steps[0].options if t.startswith(("q:", "at:"))
            ][:3]
            for choice in steps:
                pv = choice.preview
                if not pv or (pv["kind"] == "cells" and not pv["labels"]):
                    continue
                labels.clear()
                png = R.preview(GAME.view(state, seat), pv, default_names(2))
                img = Image.open(io.BytesIO(png))
                assert img.width <= 700 and img.height <= 700
                names = pv["labels"].values() if pv["kind"] == "cells" else [s["label"] for s in pv["shapes"]]
                assert set(names) <= set(labels)
                assert {q["label"] for q in pv.get("quarters", [])} <= set(labels)
                drawn.add(pv["kind"] + ("+quarters" if pv.get("quarters") else ""))
            state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    finally:
        R.text = real  # type: ignore[assignment]
    assert drawn == {"cells", "cells+quarters", "shapes", "shapes+quarters"}
