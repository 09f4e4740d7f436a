"""The end: scoring (rulebook p.13, Chris's example), tie-breaks, data, and the AI's sense."""

from __future__ import annotations

import json

import pytest

from engine.dungeon_drawers import data
from engine.dungeon_drawers.data import track_size
from engine.dungeon_drawers.rules import score_player
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, cards_with, defend_state, sheet_from


def finished(sheet: dict, state_word: str, hearts: int) -> dict:
    return {"sheet": sheet, "hero": {"pos": 0, "hearts": hearts, "state": state_word}}


def chris() -> dict:
    rows = [
        "........",
        ".......d",  # H2 dragon
        "........",
        "g.......",  # A4 goblin (crossed off)
        ".o......",  # B5 orc
        "...o....",  # D6 orc
        "g.......",  # A7 goblin
        "........",
        "o.......",  # A9 orc
        ".d.g....",  # B10 dragon, D10 goblin (crossed off)
    ]
    sheet = sheet_from(rows, treasures=["A4", "D10", "B5", "A7", "B10"], imp={"treasure": 2})
    sheet["crossed"] = ["A4", "D10"]
    return sheet


def test_chris_scores_10_points() -> None:
    b = score_player(finished(chris(), "escaped", 9))
    assert b == {"treasures": 6, "monsters": 1 + 3 * 2 + 2 * 3, "hero death": 0, "hearts left": -9}
    assert sum(b.values()) == 10


def test_dead_hero_is_worth_5_and_no_heart_penalty() -> None:
    b = score_player(finished(chris(), "dead", 0))
    assert b["hero death"] == 5 and b["hearts left"] == 0


def test_unguarded_treasure_is_lost_even_if_the_hero_died() -> None:
    sheet = sheet_from(EMPTY, treasures=["C3"], imp={"treasure": 8})
    assert score_player(finished(sheet, "dead", 0))["treasures"] == 0


def over_state(sheets: list[dict], heroes: list[tuple[str, int]]) -> dict:
    path = GAME.parse("path A1 H1 H10")["cells"]
    state = defend_state(sheets, [path] * len(sheets), started=False)
    for p, (word, hearts) in zip(state["players"], heroes, strict=True):
        p["hero"] = {"pos": 0, "hearts": hearts, "state": word}
    state["phase"] = "over"
    return state


def test_tie_break_fewest_crossed_off_monsters_then_shared() -> None:
    a = sheet_from(["o......."] + EMPTY[1:])
    b = sheet_from(["o.o....."] + EMPTY[1:])
    b["crossed"] = ["C1"]
    c = sheet_from(["o......."] + EMPTY[1:])
    state = over_state([a, b, c], [("escaped", 2)] * 3)
    res = GAME.result(state)
    assert res.scores == [0, 0, 0]
    assert res.ranking == [[0, 2], [1]]
    assert res.tiebreak == [0, -1, 0]


def test_data_has_60_cards_with_the_named_actions() -> None:
    assert len(data.CARDS) == 60
    names = {a["name"] for a in data.ACTIONS.values()}
    assert {"Healing Potion", "Orc Club", "Talisman", "Ax", "Cursed Blade", "Bomb"} <= names
    assert all(cards_with(k) for k in data.ACTIONS)
    assert data.SHEET["monsters"]["orc"]["damage"] == 2


def test_invalid_data_is_refused_with_a_clear_error() -> None:
    bad = [data.Card(1, "nosuch", ("goblin",))] + list(data.CARDS.values())[1:]
    with pytest.raises(data.DataError, match="unknown action"):
        data._check_cards(bad, data.SHEET, data.ACTIONS)
    two_walls = [data.Card(1, "ax", ("wall:I2", "wall:L3"))] + list(data.CARDS.values())[1:]
    with pytest.raises(data.DataError, match="one formation"):
        data._check_cards(two_walls, data.SHEET, data.ACTIONS)
    sheet = {**data.SHEET, "tracks": {**data.SHEET["tracks"], "orc": {"base": 2, "groups": [[2, 1]]}}}
    with pytest.raises(data.DataError, match="rising level"):
        data._check_sheet(sheet)


# ---- the AI makes the obviously right choice -------------------------------------------------

DOWN = GAME.parse("path A1 A10 H10")["cells"]


def test_ai_plays_the_orc_club_only_when_it_turns_the_fight() -> None:
    club = cards_with("club")[0]
    sheet = sheet_from(["........"] * 3 + ["o......."] + EMPTY[4:], imp={"orc": 6})
    losing = defend_state([sheet, sheet_from(EMPTY)], [DOWN, DOWN], hands=[[club], []], dice=[7, 2])
    assert GAME.ai_action(losing, 0) == {"t": "play", "card": club}
    winning = defend_state([sheet, sheet_from(EMPTY)], [DOWN, DOWN], hands=[[club], []], dice=[6, 6])
    assert GAME.ai_action(winning, 0) == {"t": "resolve"}


def test_ai_hides_treasure_under_its_monsters_and_guards_loose_treasure() -> None:
    card = next(c.id for c in data.CARDS.values() if c.elements[0] == "treasure")
    state = GAME.new(2, {"setup": {"deck": [card] + [c for c in range(1, 61) if c != card][:41]}}, 1)
    state["players"][0]["sheet"] = sheet_from(["....d..."] + EMPTY[1:])
    state, _ = act(state, 0, f"take {card}")
    assert GAME.ai_action(state, 0) == {"t": "treasure", "at": "E1"}
    goblin_card = next(c.id for c in data.CARDS.values() if c.elements[0] == "goblin")
    state = GAME.new(
        2, {"setup": {"deck": [goblin_card] + [c for c in range(1, 61) if c != goblin_card][:41]}}, 1
    )
    state["players"][0]["sheet"] = sheet_from(EMPTY, treasures=["F7"])
    state, _ = act(state, 0, f"take {goblin_card}")
    assert GAME.ai_action(state, 0) == {"t": "place", "kind": "goblin", "at": "F7"}


def test_ai_puts_hero_actions_on_an_opponent() -> None:
    sword = cards_with("sword")[0]
    state = defend_state(
        [sheet_from(EMPTY), sheet_from(EMPTY)], [DOWN, DOWN], hands=[[sword], []], started=False
    )
    assert GAME.ai_action(state, 0) == {"t": "hero", "card": sword, "to": 1}


def test_ai_concentrates_improvements_on_the_monster_that_can_win() -> None:
    """+2 on a goblin (+0: two d10 reach 20 once in 100) is worth little; boxes go where fights
    turn (a dragon starts at +4 and its boxes unlock levels faster)."""
    import random

    from engine.dungeon_drawers.ai import _improve_choice

    rnd = random.Random(0)
    sheet = sheet_from(["g.g.g.g.", "........", "d.d....."] + EMPTY[3:], imp={"hand": 4})
    assert _improve_choice(sheet, rnd) == "dragon"
    sheet["imp"]["dragon"] = track_size("dragon")  # full: +12
    assert _improve_choice(sheet, rnd) != "dragon"


def test_the_odds_shown_for_a_fight_count_every_roll_of_the_dice() -> None:
    # "Carry out the fight by rolling 2 dice and adding together the numbers rolled":
    # the odds "What now?" gives count every face 1..DIE of each die once. Found by
    # mutation testing (a die from 0, a die one face short, > for >= all survived).
    from engine.dungeon_drawers.data import DIE, TARGET
    from engine.dungeon_drawers.rules import p_win

    assert p_win(TARGET - 2) == 1.0, "the lowest roll, 1 and 1, reaches the target exactly"
    assert p_win(TARGET - 2 * DIE) == 1 / DIE**2, "only the highest roll reaches it"
    assert p_win(TARGET - 2 * DIE - 1) == 0.0
    assert p_win(TARGET - DIE, 1) == 1 / DIE and p_win(TARGET - 1, 1) == 1.0


# ---- found by mutation testing (docs/testing.md) -----------------------------------


@pytest.mark.parametrize(
    ("state_word", "hearts", "part", "points"),
    [("dead", 0, "hero death", 5), ("escaped", 3, "hearts left", -3)],
)
def test_a_stored_game_scores_the_heros_fate(state_word: str, hearts: int, part: str, points: int) -> None:
    # "Hero's death: Gain 5 points if the Hero in your dungeon dies" and "you lose 1 point
    # for every [heart] they had left": also for a game read back from the database, whose
    # words are new strings (a check by identity, `is "dead"`, passed only in memory).
    stored = json.loads(json.dumps(finished(chris(), state_word, hearts)))
    assert score_player(stored)[part] == points
