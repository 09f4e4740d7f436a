"""Rules revision 4 (issue 38): a goal scored face up stands, and a tile stored this
Build Phase waits for a later one. Games begun earlier are carried to it."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_decorators import GAME
from engine.dungeon_decorators.upgrade import CHANGES, REVISION

from .helpers import act, staged
from .test_dungeon_decorators_revision3 import _grim_hallway, _play


def test_a_goal_scored_face_up_cannot_be_taken_back() -> None:
    """ "play it face up, show where it exists": the table has seen the card, so
    /undo cannot return it to the hidden hand."""
    s = _grim_hallway(2)
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AQ41")
    scored, _ = act(s, 0, "score D19")
    assert not GAME.can_undo(s, scored, 0, GAME.parse("score D19"))


def test_before_revision_4_a_scored_goal_could_be_taken_back() -> None:
    s = _grim_hallway(2)
    s["revision"] = 3
    s, _ = act(s, 0, "draft 282")
    s, _ = act(s, 0, "282 D AQ41")
    scored, _ = act(s, 0, "score D19")
    assert GAME.can_undo(s, scored, 0, GAME.parse("score D19"))


def test_a_tile_stored_this_build_phase_waits_for_a_later_one() -> None:
    """ "Storage: ... These may be placed into your dungeon on any of your later
    Build Phases." """
    s = staged(blue=[297, 30, 111, 171, 4, 8, 12, 15, 19, 23])
    s, _ = act(s, 0, "draft 297")
    s, _ = act(s, 0, "store 297")
    legal = GAME.legal_actions(s, 0)
    assert {"a": "place", "tile": "G", "side": "R", "at": "AO40", "rot": 2} in legal, "the new tile may go in"
    assert not any(a.get("a") == "place" and a["tile"] == 297 for a in legal), "297 was stored this build"
    with pytest.raises(IllegalAction, match="later Build Phase"):
        act(s, 0, "297 X AN40 90")
    s, _ = act(s, 0, "store G")
    s, _ = act(s, 0, "done")
    assert s["players"][0]["storage"] == [297, "G"]
    # Player 2's turn, then player 1's next Build Phase: both stored tiles may go in now.
    s, _ = act(s, 1, "draft 111")
    while GAME.to_act(s) == {1}:
        s, _ = GAME.apply(s, 1, GAME.ai_action(s, 1))
    s, _ = act(s, 0, f"draft {[t for t in s['board'] if t][0]}")
    s, _ = act(s, 0, "G R AO40 180")
    s, _ = act(s, 0, "297 X AN40 90")
    assert s["players"][0]["dungeon"]["AN40"]["kind"] == "deco"


def test_a_build_carried_mid_way_keeps_its_stored_tiles_for_later() -> None:
    """The upgrade of a stored game: a tile stored in the build under way (not in
    storage when it began) counts as stored this Build Phase."""
    s = staged(blue=[297, 30, 111, 171, 4, 8, 12, 15, 19, 23], revision=3)
    s, _ = act(s, 0, "draft 297")
    s, _ = act(s, 0, "store G")
    assert GAME.rules_revision(s) == 3 and "stored_now" not in s
    up = GAME.upgrade(s)
    assert GAME.rules_revision(up) == REVISION == 4 and up["stored_now"] == ["G"]
    assert not any(a.get("a") == "place" and a["tile"] == "G" for a in GAME.legal_actions(up, 0))


def test_a_revision_3_game_replays_its_stored_tile_laid_at_once() -> None:
    """Games begun before keep the old rule for the moves already played."""
    s = staged(blue=[297, 30, 111, 171, 4, 8, 12, 15, 19, 23], revision=3)
    s, _ = act(s, 0, "draft 297")
    s, _ = act(s, 0, "store 297")
    s, _ = act(s, 0, "store G")
    s, _ = act(s, 0, "G R AO40 180")
    assert s["players"][0]["storage"] == [297]


def test_a_revision_3_game_carried_mid_way_plays_to_the_end() -> None:
    old = GAME.new(2, None, 11, revision=3)
    mid, _log = _play(old, 50)
    up = GAME.upgrade(mid)
    assert GAME.rules_revision(up) == 4
    end, _ = _play(up)
    assert GAME.is_over(end) and GAME.result(end).winners


def test_the_change_is_told_in_players_words() -> None:
    assert GAME.changes(3) == [CHANGES[4]]
    assert "undo" in CHANGES[4] and "later Build Phase" in CHANGES[4]
