"""Setup and Phase A: the draft and every building law (DuBuL)."""

from __future__ import annotations

import copy

import pytest

from engine.core import IllegalAction
from engine.dungeon_drawers import board
from engine.dungeon_drawers.data import CARDS, HEARTS, level, track_size
from tests.dungeon_drawers.helpers import EMPTY, GAME, act, build_state, sheet_from


def ai_step(state: dict) -> dict:
    seat = min(GAME.to_act(state))
    return GAME.apply(state, seat, GAME.ai_action(state, seat))[0]


@pytest.mark.parametrize(("players", "removed", "shown"), [(2, 18, 3), (3, 4, 4), (4, 1, 5)])
def test_setup_removes_and_reveals_by_player_count(players: int, removed: int, shown: int) -> None:
    state = GAME.new(players, None, 11)
    assert state["boxed"] == removed
    assert len(state["display"]) == shown
    assert len(state["deck"]) == 60 - removed - shown
    assert state["round"] == 1 and state["phase"] == "build"
    assert all(p["hero"]["hearts"] == HEARTS == 10 for p in state["players"])


def test_picks_go_clockwise_and_each_build_turn_is_played_whole_before_the_next_pick() -> None:
    """Rulebook p.5: "When you first start, it's best to install building elements
    player-by-player" - revision 3 always does: the next seat takes its card once the card
    before it is turned over."""
    state = build_state(3, deck=list(range(1, 57)), start=1)
    assert state["display"] == [1, 2, 3, 4]
    assert GAME.to_act(state) == {1}
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 2, "take 2")
    state, _ = act(state, 1, "take 2")
    assert GAME.to_act(state) == {1}, "Player 3 waits until Player 2's card is turned over"
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, 2, "take 1")
    while state["players"][1]["pending"] is not None:
        state = ai_step(state)
    assert GAME.to_act(state) == {2}
    state, _ = act(state, 2, "take 1")
    assert GAME.to_act(state) == {2}
    with pytest.raises(IllegalAction, match="not on display"):
        state2 = state
        while state2["players"][2]["pending"] is not None:
            state2 = ai_step(state2)
        act(state2, 0, "take 2")


def test_revision_2_games_install_while_the_next_seat_picks() -> None:
    """A game begun under revision 2 keeps its rules: installing is simultaneous with the picks."""
    state = build_state(3, deck=list(range(1, 57)), start=1, revision=2)
    state, _ = act(state, 1, "take 2")
    # P2 installs while P3 picks: nobody waits on anybody they need not
    assert GAME.to_act(state) == {1, 2}
    state, _ = act(state, 2, "take 1")
    assert GAME.to_act(state) == {0, 1, 2}
    with pytest.raises(IllegalAction, match="not on display"):
        act(state, 0, "take 2")


def test_a_round_ends_when_every_card_is_turned_over_and_the_start_player_passes_left() -> None:
    state = build_state(2, deck=list(range(1, 43)))
    rounds_seen = []
    while state["phase"] == "build":
        rounds_seen.append((state["round"], state["start"]))
        state = ai_step(state)
    starts = dict(rounds_seen)
    assert sorted(starts) == list(range(1, 15))
    assert all(starts[r] == (r - 1) % 2 for r in starts)
    # the leftover card of each round went to the discard pile; the build deck is used up
    assert state["deck"] == [] and len(state["discard"]) == 14
    assert all(len(p["taken"]) == 14 for p in state["players"])
    assert state["phase"] == "path"


def test_four_players_reshuffle_the_discard_pile_in_round_12() -> None:
    state = GAME.new(4, None, 5)
    while state["round"] < 12:
        state = ai_step(state)
    # 59 cards - 11 rounds x 5 = 4 left: reveal them, reshuffle the 11 leftovers, reveal 1
    assert len(state["display"]) == 5
    assert state["discard"] == [] and len(state["deck"]) == 10
    assert any("shuffled into a new build deck" in n for n in state["news"])
    while state["round"] == 12:
        state = ai_step(state)
    assert len(state["discard"]) == 1  # the new discard pile holds round 12's leftover
    while state["phase"] == "build":
        state = ai_step(state)
    assert state["deck"] == [] and all(len(p["taken"]) == 14 for p in state["players"])


def take_card(card: int, sheet: dict | None = None) -> dict:
    """A 2-player state where P1 has just taken ``card`` onto ``sheet``."""
    state = build_state(2, deck=[card] + [c for c in range(1, 61) if c != card][:41])
    if sheet is not None:
        state["players"][0]["sheet"] = sheet
    state, _ = act(state, 0, f"take {card}")
    return state


def test_elements_are_installed_left_to_right_annas_card() -> None:
    # Card 1 is the rulebook's example card: a 3-part wall formation, 2 goblins, 1 dragon.
    assert CARDS[1].elements == ("wall:L3", "goblin", "goblin", "dragon")
    state = take_card(1)
    with pytest.raises(IllegalAction, match="left to right: next is the wall formation"):
        act(state, 0, "goblin C5")
    with pytest.raises(IllegalAction, match="every element"):
        act(state, 0, "done")
    state, _ = act(state, 0, "wall B2 B3 C3")
    with pytest.raises(IllegalAction, match="next is the goblin"):
        act(state, 0, "dragon E5")
    state, _ = act(state, 0, "goblin E5")
    state, _ = act(state, 0, "goblin G5")
    state, _ = act(state, 0, "dragon E7")
    state, _ = act(state, 0, "done")
    grid = state["players"][0]["sheet"]["grid"]
    assert grid == {"B2": "wall", "B3": "wall", "C3": "wall", "E5": "goblin", "G5": "goblin", "E7": "dragon"}
    assert state["players"][0]["taken"] == [1]


def test_an_element_that_cannot_be_installed_is_lost_and_only_then() -> None:
    # A checkerboard of goblins: no empty space is free of monster neighbours, and no
    # L-shaped formation fits on the empty spaces, so card 1's four elements are all lost.
    rows = ["g.g.g.g." if y % 2 == 0 else ".g.g.g.g" for y in range(10)]
    state = take_card(1, sheet_from(rows))
    pend = state["players"][0]["pending"]
    assert pend["next"] == 4 and pend["lost"] == [0, 1, 2, 3]
    assert [a["t"] for a in GAME.legal_actions(state, 0)] == ["done", "erase"]
    state, _ = act(state, 0, "done")
    assert len(state["players"][0]["sheet"]["grid"]) == 40


def test_erase_and_redo_while_the_card_is_face_up_then_final() -> None:
    state = take_card(1)
    state, _ = act(state, 0, "wall B2 B3 C3")
    state, _ = act(state, 0, "goblin E5")
    state, _ = act(state, 0, "erase")
    assert state["players"][0]["sheet"]["grid"] == {}
    assert state["players"][0]["pending"]["next"] == 0
    state, _ = act(state, 0, "wall F8 G8 G9")
    for move in ("goblin A5", "goblin C5", "dragon E5", "done"):
        state, _ = act(state, 0, move)
    with pytest.raises(IllegalAction, match="no card to turn over|not your turn|Only the card still face up"):
        act(state, 0, "erase")


def test_undo_is_allowed_only_while_the_card_is_face_up() -> None:
    before = take_card(1)
    after, _ = act(before, 0, "wall B2 B3 C3")
    assert GAME.can_undo(before, after, 0, GAME.parse("wall B2 B3 C3"))
    s = after
    for move in ("goblin E5", "goblin G5", "dragon E7"):
        s, _ = act(s, 0, move)
    done, _ = act(s, 0, "done")
    assert not GAME.can_undo(s, done, 0, GAME.parse("done"))
    erased, _ = act(s, 0, "erase")
    assert GAME.can_undo(s, erased, 0, GAME.parse("erase"))


def test_undo_never_takes_back_a_card_pick() -> None:
    """ "As long as your Card for the current round is still faceup, you can erase and rebuild
    elements installed using this Card": the installs may be taken back, the pick may not (the
    card left the display in front of the next player)."""
    state = build_state(2, 3)
    card = state["display"][0]
    after, _ = act(state, 0, f"take {card}")
    assert state["rng"]["n"] == after["rng"]["n"]  # nothing random happened, and still
    assert not GAME.can_undo(state, after, 0, GAME.parse(f"take {card}"))


@pytest.mark.parametrize(
    "cells",
    ["B2 B3 C3", "C2 B3 C3", "B2 C2 B3", "B2 C2 C3", "A8 A9 B9"],
    ids=["as-is", "mirror", "rot", "rot2", "edge"],
)
def test_wall_formation_may_be_rotated_and_mirrored(cells: str) -> None:
    state = take_card(1)
    state, _ = act(state, 0, f"wall {cells}")
    assert sorted(c for c, k in state["players"][0]["sheet"]["grid"].items() if k == "wall") == sorted(
        cells.split()
    )


@pytest.mark.parametrize("cells", ["B2 C2 D2", "B2 B3", "B2 B3 C3 C4", "B2 C3 D4"])
def test_wall_formation_must_keep_its_shape_and_be_drawn_whole(cells: str) -> None:
    state = take_card(1)
    with pytest.raises(IllegalAction, match="not the L3 wall formation"):
        act(state, 0, f"wall {cells}")


def test_wall_examples_positions_4_to_7() -> None:
    rows = ["....d...", *["........"] * 9]
    rows[4] = "######.."
    state = take_card(1, sheet_from(rows))
    # 4: the formation would wall the top right corner (H1) off
    with pytest.raises(IllegalAction, match="cut spaces off"):
        act(state, 0, "wall G1 G2 H2")
    # 5: no continuous path from entrance to exit would remain (row 5 closed)
    with pytest.raises(IllegalAction, match="cut spaces off"):
        act(state, 0, "wall G5 H5 H6")
    # 6: E1 already holds a dragon: walls go on empty spaces only
    with pytest.raises(IllegalAction, match="E1 is not empty"):
        act(state, 0, "wall E1 E2 F2")
    # 7: the whole formation must be inside the dungeon
    with pytest.raises(IllegalAction, match="not a space"):
        GAME.parse("wall H9 H10 I10")
    # diagonal walls block the hero too: closing A1 in diagonally is refused
    state2 = take_card(1, sheet_from(["........", "#.......", *["........"] * 8]))
    with pytest.raises(IllegalAction, match="cut spaces off"):
        act(state2, 0, "wall B1 C1 C2")


def test_entrance_and_exit_spaces_can_never_be_walled() -> None:
    state = take_card(1)
    with pytest.raises(IllegalAction, match="cut spaces off"):
        act(state, 0, "wall A1 A2 B2")
    with pytest.raises(IllegalAction, match="cut spaces off"):
        act(state, 0, "wall G9 G10 H10")


def test_monsters_and_traps_never_orthogonally_next_to_monsters_or_traps() -> None:
    rows = list(EMPTY)
    rows[2] = "..t....."
    rows[5] = "....#..."
    state = take_card(1, sheet_from(rows))
    state, _ = act(state, 0, "wall F8 G8 G9")
    for bad in ("C2", "B3", "D3", "C4", "C3"):
        with pytest.raises(IllegalAction):
            act(state, 0, f"goblin {bad}")
    for good in ("B2", "D4", "E7", "F5"):  # diagonal neighbours and walls are fine
        act(state, 0, f"goblin {good}")


def test_treasure_is_hidden_anywhere_but_at_most_one_a_space() -> None:
    # card 2: wall S4, goblin, orc ... find a card with a treasure first in line
    card = next(c.id for c in CARDS.values() if c.elements[0] == "treasure")
    rows = list(EMPTY)
    rows[0] = "....d..."
    rows[9] = "#......."
    state = take_card(card, sheet_from(rows, treasures=["E1"]))
    with pytest.raises(IllegalAction, match="already hid a treasure on E1"):
        act(state, 0, "treasure E1")
    state, _ = act(state, 0, "treasure A10")  # even in a wall (it will be lost)
    assert state["players"][0]["sheet"]["treasures"] == ["E1", "A10"]


def test_improvement_levels_pinned_by_the_rulebook_examples() -> None:
    # Anna "has checked off 4 boxes for Dragon thereby unlocking Improvement level +8" and
    # with 2 more "she could use both under Dragon and unlock +10": the +10 group is 2 boxes,
    # so one box alone unlocks nothing.
    assert level("dragon", 4) == 8 and level("dragon", 5) == 8 and level("dragon", 6) == 10
    # Orc: nothing checked, then the second box unlocks +4 (the first alone does not).
    assert level("orc", 0) == 2 and level("orc", 1) == 2 and level("orc", 2) == 4
    # Trap: 2 boxes have not unlocked level 2 yet; the third does.
    assert level("trap", 2) == 1 and level("trap", 3) == 2
    # Cards in hand start at 1; Chris has not checked the second box for level 2.
    assert level("hand", 0) == 1 and level("hand", 1) == 1 and level("hand", 2) == 2
    assert level("hand", 4) == 3  # Anna's level 3
    assert level("goblin", 0) == 0


def test_improvements_fill_their_category_and_refuse_a_full_one() -> None:
    card = next(c.id for c in CARDS.values() if c.elements[0] == "improvement")
    state = take_card(card, sheet_from(EMPTY, imp={"dragon": track_size("dragon"), "trap": 2}))
    with pytest.raises(IllegalAction, match="Every dragon box"):
        act(state, 0, "improve dragon")
    state, _ = act(state, 0, "improve trap")
    assert state["players"][0]["sheet"]["imp"]["trap"] == 3
    assert GAME.view(state, 0)["players"][0]["levels"]["trap"] == 2


def test_placement_lists_are_unique_short_and_put_useful_spaces_first() -> None:
    """Monster, trap and treasure placements list up to 80 spaces; autocomplete shows 25, so a
    monster is first offered on a treasure still unguarded, a treasure under one of your monsters,
    and a trap never first on a treasure's space."""
    state = GAME.new(2, None, 1)
    sheet = sheet_from(["........", "..o....."] + EMPTY[2:], treasures=["F7"])
    state["players"][0]["sheet"] = sheet
    card = {"goblin": 7, "trap": 5, "treasure": 6}
    for el, cid in card.items():
        s = copy.deepcopy(state)
        pos = list(CARDS[cid].elements).index(el)
        s["players"][0]["pending"] = {"card": cid, "next": pos, "lost": [], "log": [], "before": sheet}
        acts = GAME.legal_actions(s, 0)
        labels = [GAME.describe(s, a) for a in acts]
        assert len(set(labels)) == len(labels) and max(map(len, labels)) <= 24
        if el == "goblin":
            assert labels[0] == "Goblin on F7"
        elif el == "trap":
            assert labels[-1] == "Trap on F7" and labels[0] == "Trap on A1"
        else:
            assert labels[0] == "Hide the treasure on C2" and "Hide the treasure on F7" not in labels
            # then spaces where a monster may still go, before spaces next to the orc
            assert labels.index("Hide the treasure on D2") > labels.index("Hide the treasure on H10")


def test_walls_may_be_built_next_to_monsters_traps_and_walls() -> None:
    """DuBuL §3(3): walls are not affected by the distance rule, either way round."""
    rows = list(EMPTY)
    rows[3] = "..g.t..."  # C4 goblin, E4 trap
    rows[6] = ".....#.."  # F7 wall
    state = take_card(1, sheet_from(rows))
    state, _ = act(state, 0, "wall D4 D5 E5")  # between the goblin and the trap, under the trap
    state, _ = act(state, 0, "goblin G7")  # next to the wall on F7
    state, _ = act(state, 0, "goblin D6")  # next to the new wall on D5
    grid = state["players"][0]["sheet"]["grid"]
    assert [grid[c] for c in ("D4", "D5", "E5", "G7", "D6")] == ["wall"] * 3 + ["goblin"] * 2


def test_wall_list_offers_border_placements_first_and_a_sample_of_the_rest() -> None:
    state = take_card(1, sheet_from(EMPTY))
    acts = GAME.legal_actions(state, 0)
    labels = [GAME.describe(state, a) for a in acts]
    assert len(acts) == 40 and len(set(labels)) == 40
    first = acts[0]["cells"]
    assert sum(len(board.NEIGHBOURS[c]) < 4 for c in first) == 3  # all against the border
    assert any(all(len(board.NEIGHBOURS[c]) == 4 for c in a["cells"]) for a in acts)  # inner ones too
