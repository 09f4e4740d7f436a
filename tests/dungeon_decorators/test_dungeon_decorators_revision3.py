"""Rules revision 3 (issues 26 and 29): the Score step that tells nothing, the
Architect's disconnect-and-fill by clicks, the starting tile, turns as the table
sees them, the chooser's picks and pictures, malformed move objects."""

from __future__ import annotations

from typing import Any

import pytest

import render
from engine.core import IllegalAction, copy_state
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators import rules as R
from engine.dungeon_decorators.upgrade import CHANGES, REVISION

from .helpers import act, deco, grid, room_or_hall, set_dungeon, staged

BOARD = [30, 111, 171, 282]


def _grim_hallway(skulls: int) -> dict[str, Any]:
    """Player 1 holds D19 Grim Hallway (two skulls on the hallway); the dungeon shows ``skulls``."""
    s = staged(blue=BOARD + [1, 4, 8], hands=[["S3", "S4", "D1", "D19"], ["S5", "S6", "D3", "D4"]])
    g = grid({"AO40": room_or_hall("S"), "AP41": room_or_hall("WE")})
    g[R.parse_coord("AP40")] = deco("--SS" if skulls == 2 else "---S")
    g[R.parse_coord("AP42")] = deco("S---")
    set_dungeon(s, 0, g)
    return s


def test_declining_a_goal_looks_the_same_as_having_none() -> None:
    """ "If your dungeon fulfills the conditions ... you may play those cards": the
    table sees the same status, events and turn flow whether a goal is met or not."""
    seen = []
    for skulls in (1, 2):
        s = _grim_hallway(skulls)
        s, _ = act(s, 0, "draft 282")
        s, placed = act(s, 0, "282 D AQ41")
        assert s["phase"] == "score" and GAME.to_act(s) == {0}
        status, turn = GAME.status(s), GAME.turn_id(s)
        s, done = act(s, 0, "done")
        public = [e.text for e in placed + done if e.seat is None]
        seen.append((status, turn, public, GAME.to_act(s), s["phase"]))
    assert seen[0] == seen[1]
    assert "scores goals" not in seen[0][0]
    s = _grim_hallway(2)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AQ41")
    assert {"a": "score", "goal": "D19"} in GAME.legal_actions(s, 0)


def test_after_scoring_the_step_waits_for_done_either_way() -> None:
    s = _grim_hallway(2)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AQ41")
    s, _ = act(s, 0, "score D19")
    assert s["phase"] == "score" and GAME.legal_actions(s, 0) == [{"a": "done"}]
    s, _ = act(s, 0, "done")
    assert GAME.to_act(s) == {0} and s["phase"] == "refill"  # one card to draw, two decks


def test_revision_2_keeps_the_old_score_flow() -> None:
    s = staged(revision=2, blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 30")
    s, _ = act(s, 0, "30 D AO40 180")
    assert GAME.to_act(s) == {1}  # nothing to score: the turn passed at once


def test_a_turn_is_one_id_from_draft_to_finish() -> None:
    """ "each player plays their complete 5-phase turn": one turn id for all of it."""
    s = staged(blue=BOARD + [1, 4, 8])
    first = GAME.turn_id(s)
    s, _ = act(s, 0, "draft 30")
    assert GAME.turn_id(s) == first
    s, _ = act(s, 0, "30 D AO40 180")
    assert GAME.turn_id(s) == first and s["phase"] == "score"
    s, _ = act(s, 0, "done")
    assert GAME.turn_id(s) != first and GAME.to_act(s) == {1}


def test_header_shows_own_score_tokens_tiles_and_goals_briefly() -> None:
    s = staged(blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 171")
    head = GAME.header(s, 0)
    assert len(head) <= 400 and "Score 0" in head and "New: 171" in head and "S3" in head
    assert "S5" not in head  # the other player's cards


def test_placing_is_two_picks_with_a_picture_naming_the_squares() -> None:
    s = staged(blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 171")  # a room: one turn fits each square
    root = GAME.chooser(s, 0, [])
    assert "t171D" in dict(root.options)
    step = GAME.chooser(s, 0, ["t171D"])
    assert step.preview is not None
    names = {label.split(":")[0] for _, label in step.options}
    assert names == set(step.preview["labels"].values()) == {"AO40", "AO42", "AN41", "AP41"}
    assert set(step.preview["ghosts"]) == names  # the room drawn as it would lie
    done = GAME.chooser(s, 0, ["t171D", "AP41"])
    assert done.options == [] and done.action == GAME.parse("171 D AP41 270")
    png = render.get(GAME.key).preview(GAME.view(s, 0), step.preview, ["Ann", "Bob"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_turn_is_asked_only_where_several_fit_and_the_picture_shows_each() -> None:
    s = staged(blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 111")  # a two-way hallway: several turns fit next to the start
    squares = dict(GAME.chooser(s, 0, ["t111D"]).options)
    at = next(c for c, label in squares.items() if ":" not in label)
    turn = GAME.chooser(s, 0, ["t111D", at])
    assert len(turn.options) >= 2 and turn.preview is not None
    captions = [c for c, _cell, _at in turn.preview["turns"]]
    assert all(any(label.startswith(c) for _, label in turn.options) for c in captions)
    assert len(captions) == len(turn.options)


def test_finishing_the_turn_is_one_pick() -> None:
    s = staged(blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 30")
    s, _ = act(s, 0, "30 D AO40 180")
    root = GAME.chooser(s, 0, [])
    assert ("done", "Finish your turn (score nothing more)") in root.options and root.action is None
    assert GAME.chooser(s, 0, ["done"]).action == {"a": "done"}


def test_architect_may_move_the_starting_tile() -> None:
    """ "rotate and/or move one tile in your dungeon. It may be a dungeon tile or a decoration tile"."""
    s = staged(blue=[73, 111, 171, 282, 4, 8])  # 73: a straight hallway
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange"), "AQ41": room_or_hall("W", "blue")}))
    s["players"][0]["tokens"]["architect"] = 1
    s["tokens_left"]["architect"] -= 1
    s, _ = act(s, 0, "draft 73")
    s2, _ = act(s, 0, "move AO41 AN41")
    assert s2["players"][0]["dungeon"]["AN41"]["t"] == "start" and "AO41" not in s2["players"][0]["dungeon"]
    s2, _ = act(s2, 0, "73 D AO41 90")  # the gap filled: start - 73 - AP41 - AQ41
    assert R.dungeon_problem(R.to_grid(s2["players"][0]["dungeon"])) is None
    with pytest.raises(IllegalAction, match="changes nothing"):
        act(s, 0, "turn AO41 90")
    old = staged(revision=2, blue=[73, 111, 171, 282, 4, 8])
    set_dungeon(old, 0, grid({"AP41": room_or_hall("WE", "orange")}))
    old["players"][0]["tokens"]["architect"] = 1
    old, _ = act(old, 0, "draft 73")
    with pytest.raises(IllegalAction, match="starting tile stays"):
        act(old, 0, "move AO41 AO40")


def _walk_to(s: dict[str, Any], seat: int, prefix: list[str]) -> Any:
    """Play the chooser's picks one by one, as a player clicks them; the last one must complete a move."""
    for k in range(len(prefix)):
        assert prefix[k] in dict(GAME.chooser(s, seat, prefix[:k]).options), (prefix[k], prefix[:k])
    choice = GAME.chooser(s, seat, prefix)
    assert choice.action is not None and choice.options == []
    return choice.action


def test_disconnect_and_fill_two_spaces_by_clicks() -> None:
    """ "you may temporarily "disconnect" your dungeon while using Arcane Architects and fill
    the resulting spaces with newly-drafted tiles or tiles from storage"."""
    s = staged(blue=[73, 111, 171, 282, 4, 8])
    set_dungeon(s, 0, grid({"AP41": room_or_hall("WE", "orange"), "AQ41": room_or_hall("W", "blue")}))
    s["players"][0]["tokens"]["architect"] = 1
    s["tokens_left"]["architect"] -= 1
    s["players"][0]["storage"] = ["G"]
    s["generic_left"] -= 1
    s, _ = act(s, 0, "draft 73")
    # The room moves two squares out: the new tile and the stored generic fill both gaps.
    move = _walk_to(s, 0, ["arch", "fAQ41", "dAS41"])
    assert move == {"a": "arch", "from": "AQ41", "to": "AS41", "rot": 0}
    s, _ = GAME.apply(s, 0, move)
    assert R.dungeon_problem(R.to_grid(s["players"][0]["dungeon"])) is not None
    first = [a for a in GAME.legal_actions(s, 0) if a["a"] == "place"]
    assert {(a["tile"], a["at"]) for a in first} >= {(73, "AQ41"), ("G", "AQ41")}
    s, _ = GAME.apply(s, 0, _walk_to(s, 0, ["t73D", "AQ41"]))
    s, _ = GAME.apply(s, 0, _walk_to(s, 0, ["tGH", "AR41"]))
    assert R.dungeon_problem(R.to_grid(s["players"][0]["dungeon"])) is None
    assert {"a": "done"} in GAME.legal_actions(s, 0)


def test_the_ai_uses_disconnect_and_fill_where_it_helps() -> None:
    """The computer player moves a tile so that the dungeon breaks, then mends it with
    its new tile (seed 1006 does it on its 33rd move); the build still ends legal."""
    s = GAME.new(2, None, 1006)
    for _ in range(60):
        seat = sorted(GAME.to_act(s))[0]
        a = GAME.ai_action(s, seat)
        s, _ = GAME.apply(s, seat, a)
        if a["a"] == "arch" and R.dungeon_problem(R.to_grid(s["players"][seat]["dungeon"])) is not None:
            break
    else:
        pytest.fail("the AI never disconnected its dungeon to fill it")
    while s["phase"] == "build":
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
    assert R.dungeon_problem(R.to_grid(s["players"][seat]["dungeon"])) is None


@pytest.mark.parametrize(
    "bad",
    [
        {"a": ["place"]},
        {"a": "place", "tile": 171, "side": "D", "at": "AP41"},
        {"a": "place", "tile": 171, "side": "D", "at": "AP41", "rot": True},
        {"a": "place", "tile": "171", "side": "D", "at": "AP41", "rot": 0},
        {"a": "place", "tile": 171.0, "side": "D", "at": "AP41", "rot": 0},
        {"a": "place", "tile": 171, "side": "D", "at": "", "rot": 0},
        {"a": "place", "tile": 171, "side": "AP41", "at": "D", "rot": 0},
        {"a": "place", "tile": 171, "side": "D", "at": "AP41", "rot": 0, "x": 1},
        {"a": "store", "tile": None},
        {"a": "arch", "from": "AO41", "to": ["AO40"], "rot": 0},
        {"a": "swap", "at": "AO41", "rot": [0, 0]},
        {"a": "score", "goal": 19},
        {"a": "draft"},
        {"a": "done", "extra": True},
        {"a": {}},
        ["place"],
        None,
    ],
)
def test_a_malformed_move_object_is_refused_in_one_sentence(bad: Any) -> None:
    s = staged(blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 171")
    before = copy_state(s)
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(s, 0, bad)
    sentence = str(exc.value)
    assert s == before and sentence[:1].isupper() and sentence.endswith(".") and "{" not in sentence


def test_the_build_hint_names_current_squares() -> None:
    s = staged(blue=BOARD + [1, 4, 8])
    s, _ = act(s, 0, "draft 171")
    with pytest.raises(IllegalAction) as exc:
        act(s, 0, "draft 30")
    assert "AP41" in str(exc.value) and "G6" not in str(exc.value)


def test_revision_3_is_recorded_with_words_for_players() -> None:
    assert REVISION >= 3 and GAME.revision == REVISION
    assert GAME.changes(2)[0] == CHANGES[3] and "Finish your turn" in CHANGES[3]


def _play(s: dict[str, Any], moves: int | None = None) -> tuple[dict[str, Any], list[str]]:
    log = []
    while not GAME.is_over(s) and (moves is None or len(log) < moves):
        seat = sorted(GAME.to_act(s))[0]
        a = GAME.ai_action(s, seat)
        log.append(f"{seat}:{GAME.format(a)}")
        s, _ = GAME.apply(s, seat, a)
    return s, log


def test_a_revision_2_game_replays_and_an_upgraded_one_plays_on() -> None:
    old = GAME.new(2, None, 7, revision=2)
    mid, log = _play(copy_state(old), 60)
    # The same moves replay to the same state under the old rules.
    again = copy_state(old)
    for entry in log:
        seat, text = entry.split(":", 1)
        again, _ = GAME.apply(again, int(seat), GAME.parse(text))
    assert again == mid and GAME.rules_revision(mid) == 2
    up = GAME.upgrade(mid)
    assert GAME.rules_revision(up) == GAME.revision
    end, _ = _play(up)
    assert GAME.is_over(end) and GAME.result(end).winners


def test_a_big_build_names_every_square_then_only_the_group_picked() -> None:
    cells = {R.coord((R.ORIGIN + k, R.ORIGIN)): room_or_hall("WE") for k in range(1, 17)}
    s = staged(blue=[282, 111, 171, 30, 4, 8])
    set_dungeon(s, 0, grid(cells))
    s, _ = act(s, 0, "draft 282")
    groups = GAME.chooser(s, 0, ["t282X"])
    assert all(t.startswith("g") for t, _ in groups.options) and groups.preview is not None
    every = set(groups.preview["labels"])
    assert len(every) > 25
    picked = GAME.chooser(s, 0, ["t282X", groups.options[0][0]])
    named = set(picked.preview["labels"])
    assert named < every and named == {label.split(":")[0] for _, label in picked.options}


def _generic_jammed(revision: int | None) -> dict:
    """Storage full (a room and a generic tile) and none of the tiles fits anywhere."""
    from .test_dungeon_decorators_turns import closed_dungeon

    s = staged(blue=[30, 111, 171, 282, 4, 8], revision=revision)
    g = closed_dungeon()
    g[R.parse_coord("AO44")] = deco("****")  # the last open passage now needs a three-way tile
    set_dungeon(s, 0, g)
    s["players"][0]["storage"] = [4, "G"]
    s["generic_left"] -= 1
    s, _ = act(s, 0, "draft 30")
    return s


def test_a_forced_discard_puts_a_generic_tile_into_the_box() -> None:
    """ "discard tiles into the box from your newly-acquired tiles or from your storage": a
    generic tile discarded so leaves the game; it does not go back to the generic supply."""
    s = _generic_jammed(None)
    assert {a["a"] for a in GAME.legal_actions(s, 0)} == {"box"}
    left = s["generic_left"]
    s, _ = act(s, 0, "box G")
    assert s["generic_left"] == left and s["box"].count("G") == 1
    assert s["players"][0]["storage"] == [4]


def test_revision_2_returned_a_discarded_generic_tile_to_the_supply() -> None:
    s = _generic_jammed(2)
    left = s["generic_left"]
    s, _ = act(s, 0, "box G")
    assert s["generic_left"] == left + 1 and "G" not in s["box"]
