"""Phase C: moving the hero, traps, fights, dice limit, dungeon and hero actions, refills."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_drawers.data import HEARTS, track_size
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, cards_with, defend_state, path_state, sheet_from

DOWN = GAME.parse("path A1 A10 H10")["cells"]  # column A, then row 10
CLUB, AX, TALISMAN, BLADE, EYE = (cards_with(k)[0] for k in ("club", "ax", "talisman", "blade", "eye"))
SPIKES, SPEAR, DRUM = (cards_with(k)[0] for k in ("spikes", "spear", "drum"))
POTION, BOMB, SHIELD, SWORD, ROPE = (cards_with(k)[0] for k in ("potion", "bomb", "shield", "sword", "rope"))


def rows_with(**cells: str) -> list[str]:
    rows = [list(r) for r in EMPTY]
    for cell, ch in cells.items():
        x, y = "ABCDEFGH".index(cell[0]), int(cell[1:]) - 1
        rows[y][x] = ch
    return ["".join(r) for r in rows]


def quiet() -> dict:
    return sheet_from(EMPTY)


def test_first_turn_is_only_hero_actions_and_refill() -> None:
    state = defend_state([sheet_from(rows_with(A3="g")), quiet()], [DOWN, DOWN], started=False)
    assert state["step"] == "actions" and state["players"][0]["hero"]["pos"] == -1
    with pytest.raises(IllegalAction, match="only during your own encounter"):
        act(state, 0, "resolve")
    state, _ = act(state, 0, "refill")
    assert state["turn"] == 1 and state["players"][0]["hero"]["pos"] == -1


def test_hero_moves_until_a_monster_and_fights_on_two_dice() -> None:
    state = defend_state([sheet_from(rows_with(A5="g")), quiet()], [DOWN, DOWN], dice=[3, 4])
    assert state["players"][0]["hero"]["pos"] == 4
    enc = state["encounter"]
    assert enc == {"cell": "A5", "kind": "goblin", "dice": [3, 4], "bonus": 0, "played": []}
    assert state["step"] == "encounter"
    state, _ = act(state, 0, "resolve")
    assert "A5" in state["players"][0]["sheet"]["crossed"]  # 7 < 20: the goblin flees
    assert state["players"][0]["hero"]["hearts"] == HEARTS


def test_trap_deals_its_level_once_then_the_space_is_empty_annas_example() -> None:
    sheet = sheet_from(rows_with(A3="t"), imp={"trap": 3})  # trap level 2
    path = GAME.parse("path A1 A4 A2 H2 H10")["cells"]  # passes A3 twice
    state = defend_state([sheet, quiet()], [path, DOWN])
    assert state["encounter"]["cell"] == "A3" and state["encounter"]["dice"] == []
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - 2
    assert "A3" in state["players"][0]["sheet"]["crossed"]
    state, _ = act(state, 0, "refill")
    # P2's turn (its empty dungeon: the hero walks straight out)
    assert state["players"][1]["hero"]["state"] == "escaped"
    state, _ = act(state, 1, "refill")
    # back to P1: the hero walks over the spent trap and out of the dungeon
    assert state["players"][0]["hero"]["state"] == "escaped"
    assert GAME.is_over(state)


def chris_orc(hand: list[int]) -> dict:
    sheet = sheet_from(rows_with(A4="o"), imp={"orc": 6})  # orc level +8
    return defend_state([sheet, quiet()], [DOWN, DOWN], hands=[hand, []], dice=[7, 2])


def test_the_dice_are_ten_sided() -> None:
    """ "He rolls 2 dice: 7 and 2": the game's dice show more than six faces (a store listing of
    the game names ten-sided dice). Every face 1-10 comes up, nothing else."""
    from engine.dungeon_drawers.defend import roll

    state = GAME.new(2, None, 5)
    faces = [d for _ in range(400) for d in roll(state, 2)]
    assert set(faces) == set(range(1, 11))
    with pytest.raises(IllegalAction, match="face of the game's dice"):
        GAME.new(2, {"setup": {"dice": [11]}}, 1)
    with pytest.raises(AssertionError, match="not faces"):
        defend_state([quiet(), quiet()], [DOWN, DOWN], dice=[7, 0])


def test_chris_orc_loses_with_17() -> None:
    state = chris_orc([])
    assert GAME.view(state, None)["strength"] == 17
    state, _ = act(state, 0, "resolve")
    assert "A4" in state["players"][0]["sheet"]["crossed"]
    assert state["players"][0]["hero"]["hearts"] == HEARTS


def test_chris_orc_club_wins_with_21_and_the_hero_suffers_2() -> None:
    state = chris_orc([CLUB])
    state, _ = act(state, 0, f"play {CLUB}")
    assert GAME.view(state, None)["strength"] == 21
    state, _ = act(state, 0, "resolve")
    p = state["players"][0]
    assert "A4" not in p["sheet"]["crossed"] and p["hero"]["hearts"] == HEARTS - 2
    assert p["hero"]["pos"] == 3  # the hero stays on the orc's space
    assert CLUB in state["discard"]


@pytest.mark.parametrize(("kind", "damage"), [("g", 1), ("o", 2), ("d", 3)])
def test_a_winning_monster_deals_its_type_damage(kind: str, damage: int) -> None:
    sheet = sheet_from(
        rows_with(A4=kind), imp={t: track_size(t) for t in ("goblin", "orc", "dragon")}
    )  # +12 each
    state = defend_state([sheet, quiet()], [DOWN, DOWN], dice=[6, 6])
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - damage


def test_orc_club_works_only_for_an_orc() -> None:
    state = defend_state([sheet_from(rows_with(A4="g")), quiet()], [DOWN, DOWN], hands=[[CLUB, SPEAR], []])
    with pytest.raises(IllegalAction, match="only for an orc"):
        act(state, 0, f"play {CLUB}")
    state, _ = act(state, 0, f"play {SPEAR}")
    assert state["encounter"]["bonus"] == 4


def test_dice_limit_annas_ax_and_talisman() -> None:
    def goblin(dice: list[int]) -> dict:
        return defend_state(
            [sheet_from(rows_with(A4="g")), quiet()], [DOWN, DOWN], hands=[[AX, TALISMAN], []], dice=dice
        )

    # Ax first: 3 dice, so the Talisman's 2 more would make 5
    state, _ = act(goblin([3, 4, 5]), 0, f"play {AX}")
    assert state["encounter"]["dice"] == [5, 4, 3]
    with pytest.raises(IllegalAction, match="more than 4 dice"):
        act(state, 0, f"play {TALISMAN}")
    assert {"t": "play", "card": TALISMAN} not in GAME.legal_actions(state, 0)
    # Talisman first: roll 2 more, drop the 2 lowest, then the Ax still fits
    state, _ = act(goblin([3, 4, 6, 1, 5]), 0, f"play {TALISMAN}")
    assert state["encounter"]["dice"] == [6, 4]
    state, _ = act(state, 0, f"play {AX}")
    assert state["encounter"]["dice"] == [6, 5, 4]


def test_cursed_blade_and_evil_eye() -> None:
    state = defend_state(
        [sheet_from(rows_with(A4="g")), quiet()],
        [DOWN, DOWN],
        hands=[[BLADE, EYE], []],
        dice=[1, 1, 6, 6, 5, 5, 5, 5],
    )
    state, _ = act(state, 0, f"play {BLADE}")
    assert sorted(state["encounter"]["dice"]) == [1, 1, 6, 6]
    state, _ = act(state, 0, f"play {EYE}")
    assert state["encounter"]["dice"] == [5, 5, 5, 5]
    assert GAME.view(state, None)["strength"] == 20
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - 1


def test_spikes_only_on_a_trap_and_monster_cards_never_on_a_trap() -> None:
    sheet = sheet_from(rows_with(A4="t"))
    state = defend_state([sheet, quiet()], [DOWN, DOWN], hands=[[SPIKES, DRUM], []])
    with pytest.raises(IllegalAction, match="only in a fight"):
        act(state, 0, f"play {DRUM}")
    state, _ = act(state, 0, f"play {SPIKES}")
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - 1 - 2


def test_dungeon_actions_only_in_your_encounter_hero_actions_only_on_opponents() -> None:
    state = defend_state([sheet_from(rows_with(A4="g")), quiet()], [DOWN, DOWN], hands=[[SWORD, AX], []])
    with pytest.raises(IllegalAction, match="hero action"):
        act(state, 0, f"play {SWORD}")
    with pytest.raises(IllegalAction, match="Finish the encounter"):
        act(state, 0, f"hero {SWORD} P2")
    state, _ = act(state, 0, "resolve")
    with pytest.raises(IllegalAction, match="only during your own encounter"):
        act(state, 0, f"play {AX}")
    with pytest.raises(IllegalAction, match="dungeon action"):
        act(state, 0, f"hero {AX} P2")
    with pytest.raises(IllegalAction, match="never your own"):
        act(state, 0, f"hero {SWORD} P1")
    state, _ = act(state, 0, f"hero {SWORD} P2")
    assert state["players"][1]["on"] == [{"card": SWORD, "by": 0}]


def test_at_most_two_hero_actions_on_a_dungeon_and_none_on_a_finished_one() -> None:
    sheets = [sheet_from(rows_with(A4="g")), quiet(), sheet_from(rows_with(A4="g"))]
    hands = [[SWORD, SHIELD, ROPE, POTION], [], []]
    state = defend_state(sheets, [DOWN] * 3, hands=hands, turn=0, started=[False, True, True])
    for move in (f"hero {SWORD} P3", f"hero {SHIELD} P3"):
        state, _ = act(state, 0, move)
    with pytest.raises(IllegalAction, match="already has 2 hero actions"):
        act(state, 0, f"hero {ROPE} P3")
    state["players"][1]["hero"]["state"] = "escaped"
    with pytest.raises(IllegalAction, match="already dead or has escaped"):
        act(state, 0, f"hero {ROPE} P2")


def test_hero_actions_resolve_when_their_event_happens() -> None:
    # P1's dungeon: trap A3, goblin B5 next to A5 (bomb), orc A7 (+12), trap A9
    sheet = sheet_from(rows_with(A3="t", B5="g", A7="o", A9="t"), imp={"orc": 11})
    state = defend_state(
        [sheet, quiet()],
        [DOWN, DOWN],
        hands=[[], [ROPE, SWORD, SHIELD, BOMB]],
        turn=1,
        started=[True, False],
        dice=[6, 6],
    )
    state, _ = act(state, 1, f"hero {ROPE} P1")
    state, _ = act(state, 1, f"hero {BOMB} P1")
    state, _ = act(state, 1, "refill")
    p = state["players"][0]
    # the rope: the trap on A3 will deal no damage
    assert state["encounter"]["cell"] == "A3"
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS and ROPE in state["discard"]
    state, _ = act(state, 0, "refill")
    state, _ = act(state, 1, f"hero {SWORD} P1")
    state, _ = act(state, 1, "refill")
    p = state["players"][0]
    # the bomb: passing A5, the hero blows up the goblin on B5 and walks on to the orc
    assert "B5" in p["sheet"]["crossed"] and BOMB in state["discard"]
    assert state["encounter"]["cell"] == "A7"
    # the sword: 6+6+12 = 24, minus 4 = 20 - still a win
    assert GAME.view(state, None)["strength"] == 20
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - 2
    assert state["players"][0]["on"] == [] and SWORD in state["discard"]


def test_shield_takes_two_damage_off_the_next_damage() -> None:
    sheet = sheet_from(rows_with(A3="d"), imp={"dragon": 7})
    state = defend_state(
        [sheet, quiet()], [DOWN, DOWN], hands=[[], [SHIELD]], turn=1, started=[True, False], dice=[6, 6]
    )
    state, _ = act(state, 1, f"hero {SHIELD} P1")
    state, _ = act(state, 1, "refill")
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - (3 - 2)
    assert SHIELD in state["discard"]


def test_healing_potion_at_the_start_of_the_next_turn_never_above_the_start() -> None:
    sheet = sheet_from(rows_with(A5="g"))
    state = defend_state(
        [sheet, quiet()],
        [DOWN, DOWN],
        hands=[[], [POTION, cards_with("potion")[1]]],
        turn=1,
        started=[True, False],
    )
    state["players"][0]["hero"]["hearts"] = HEARTS - 5
    state, _ = act(state, 1, f"hero {POTION} P1")
    state, _ = act(state, 1, "refill")
    assert state["players"][0]["hero"]["hearts"] == HEARTS - 2  # regains 3
    # the second potion meets a hero one heart short: never above the starting hearts
    state["players"][0]["hero"]["hearts"] = HEARTS - 1
    state, _ = act(state, 0, "resolve")  # the goblin on A5 (+0) cannot reach 20 and flees
    state, _ = act(state, 0, "refill")
    state, _ = act(state, 1, f"hero {cards_with('potion')[1]} P1")
    state, _ = act(state, 1, "refill")
    assert state["players"][0]["hero"]["hearts"] == HEARTS


def test_refill_puts_cards_under_the_deck_in_order_and_draws_to_the_hand_level() -> None:
    sheet = sheet_from(EMPTY, imp={"hand": 4})  # level 3
    state = defend_state(
        [sheet, quiet()], [DOWN, DOWN], hands=[[AX, CLUB], []], decks=[[SWORD, ROPE], []], started=False
    )
    state, _ = act(state, 0, f"refill {CLUB} {AX}")
    p = state["players"][0]
    assert p["hand"] == [SWORD, ROPE, CLUB] and p["deck"] == [AX]
    with pytest.raises(IllegalAction):
        act(state, 1, f"refill {AX}")


def test_phase_c_starts_with_a_hand_of_the_cards_in_hand_level() -> None:
    anna = sheet_from(EMPTY, imp={"hand": 4})  # level 3
    chris = sheet_from(EMPTY, imp={"hand": 1})  # second box not checked: level 1
    state = path_state([anna, chris])
    state, _ = act(state, 0, "path A1 H1 H10")
    state, _ = act(state, 1, "path A1 H1 H10")
    assert state["phase"] == "defend"
    assert len(state["players"][0]["hand"]) == 3 and len(state["players"][1]["hand"]) == 1
    assert len(state["players"][0]["deck"]) == 11
    assert state["turn"] == state["start"] and state["step"] == "actions"


def test_a_dead_hero_scores_and_the_phase_ends_when_every_hero_is_done() -> None:
    sheet = sheet_from(rows_with(A4="d"), imp={"dragon": 7})
    state = defend_state([sheet, quiet()], [DOWN, DOWN], dice=[6, 6])
    state["players"][0]["hero"]["hearts"] = 3
    state["players"][1]["hero"]["state"] = "escaped"
    state, _ = act(state, 0, "resolve")
    assert state["players"][0]["hero"]["state"] == "dead"
    assert GAME.is_over(state)
    assert GAME.result(state).breakdown[0]["hero death"] == 5


def test_a_winning_monster_stays_and_is_fought_again_when_the_path_returns() -> None:
    # orc A4 (+12), trap A6: the path goes down to A6 and turns back over A4
    sheet = sheet_from(rows_with(A4="o", A6="t"), imp={"orc": 11})
    path = GAME.parse("path A1 A6 A2 H2 H10")["cells"]
    state = defend_state([sheet, quiet()], [path, DOWN], dice=[6, 6, 1, 1])
    state, _ = act(state, 0, "resolve")  # 24: the orc wins and stays
    assert state["players"][0]["hero"]["hearts"] == HEARTS - 2
    state, _ = act(state, 0, "refill")
    state, _ = act(state, 1, "refill")  # P2's hero walked out of its empty dungeon
    assert state["encounter"]["cell"] == "A6"
    state, _ = act(state, 0, "resolve")
    state, _ = act(state, 0, "refill")
    state, _ = act(state, 1, "refill")
    assert state["encounter"] == {"cell": "A4", "kind": "orc", "dice": [1, 1], "bonus": 0, "played": []}
    state, _ = act(state, 0, "resolve")  # 14: now it flees
    assert "A4" in state["players"][0]["sheet"]["crossed"]
