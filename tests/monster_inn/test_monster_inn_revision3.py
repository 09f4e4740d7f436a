"""Issue 29 items 1, 2 and 17 and issue 26 for Monster Inn (rules revision 3): the back of the
deck's top card, the 3-player end, malformed moves, what a turn is, the private header."""

from __future__ import annotations

import json
import random

import pytest

import render
from engine.core import IllegalAction
from engine.monster_inn.data import BACKS, CARDS, HUMANOIDS, back_of, validate
from tests.monster_inn.helpers import GAME, play, stacked

HUM_16 = next(h for h in HUMANOIDS if HUMANOIDS[h].value == 17)  # 16-20, 4 skulls
MONS = ["U1", "K2", "G3", "O4", "T5", "U10", "K9", "G8", "O7"]


def _ai_game(players: int, seed: int, revision: int | None = None) -> tuple[dict, list]:
    """A whole AI game: the final state and every event."""
    state = GAME.new(players, None, seed, revision=revision)
    events = []
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        state, ev = GAME.apply(state, seat, GAME.ai_action(state, seat))
        events += ev
    return state, events


# ---- item 1: "place them facedown to create a draw deck in the center of the play area" ----------


def test_the_card_overview_backs_are_in_the_data() -> None:
    # "Facedown Humanoid Card ... Combat Value Range (1-5, 6-10, 11-15, 16-20) ... Skulls (1-4)";
    # the "Facedown Monster Card" names nothing (house decision: only that it is a monster).
    assert BACKS == {"monster": (), "humanoid": ("range", "skulls")}
    assert back_of("U20") == {"type": "monster"}
    assert back_of(HUM_16) == {"type": "humanoid", "range": "16-20", "skulls": 4}


def test_data_without_a_humanoid_range_on_the_back_is_refused() -> None:
    from engine.core import DATA_ROOT, DataError

    doc = json.loads((DATA_ROOT / "monster-inn" / "creatures.json").read_text())
    doc["backs"] = {"monster": [], "humanoid": ["skulls"]}
    with pytest.raises(DataError):
        validate(doc)


def test_everyone_sees_the_back_of_the_top_card() -> None:
    s = stacked(4, [*MONS[:4], HUM_16, *MONS[4:]])
    for seat in (None, 0, 1, 2, 3):
        assert GAME.view(s, seat)["deck_top"] == {"type": "humanoid", "range": "16-20", "skulls": 4}
    assert "value" not in GAME.view(s, None)["deck_top"]  # the face stays hidden
    s2 = stacked(4, [*MONS[:4], "K12", HUM_16, *MONS[4:]])
    assert GAME.view(s2, None)["deck_top"] == {"type": "monster"}  # no kind, no value


def test_the_board_names_the_top_card(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import monster_inn as R

    drawn: list[str] = []
    real = R.text
    monkeypatch.setattr(R, "text", lambda d, xy, s, *a, **k: (drawn.append(s), real(d, xy, s, *a, **k)))
    s = stacked(4, [*MONS[:4], HUM_16, *MONS[4:]])
    R.board(GAME.view(s, None), render.default_names(4))
    assert "Top of the deck: humanoid 16-20, 4 skulls" in drawn


def test_the_ai_view_carries_the_top_card_and_the_header_names_it() -> None:
    s = stacked(4, [*MONS[:4], HUM_16, *MONS[4:]])
    assert GAME.view(s, s["turn"])["deck_top"]["range"] == "16-20"
    header = GAME.header(s, 0)
    assert "next round's first card shows a humanoid 16-20 with 4 skulls" in header
    # Issue 40: not beside the pool, as if it were what leaving takes.
    assert "Pool" not in next(line for line in header.splitlines() if "16-20" in line)


def test_a_revision_2_game_does_not_show_the_top_card_until_upgraded() -> None:
    s = GAME.new(4, None, 8, revision=2)
    assert GAME.view(s, None)["deck_top"] is None
    up = GAME.upgrade(s)
    assert GAME.rules_revision(up) == 3
    assert GAME.view(up, None)["deck_top"] == back_of(s["deck"][0])
    assert "top card" in " ".join(GAME.changes(2))


def test_a_mid_game_revision_2_state_upgraded_plays_to_the_end() -> None:
    s = GAME.new(3, None, 11, revision=2)
    pick = random.Random(3)
    for _ in range(25):
        (seat,) = GAME.to_act(s)
        s, _ = GAME.apply(s, seat, pick.choice(GAME.legal_actions(s, seat)))
    s = GAME.upgrade(s)
    while not GAME.is_over(s):
        (seat,) = GAME.to_act(s)
        assert GAME.view(s, seat)["deck_top"] == (back_of(s["deck"][0]) if s["deck"] else None)
        s, _ = GAME.apply(s, seat, pick.choice(GAME.legal_actions(s, seat)))
    assert GAME.result(s).winners


def test_a_revision_2_game_replays_its_moves_exactly() -> None:
    """The same seed and moves give the same states under revision 2 and 3: only what is shown
    changed."""
    a, b = GAME.new(4, None, 21, revision=2), GAME.new(4, None, 21)
    while not GAME.is_over(a):
        (seat,) = GAME.to_act(a)
        move = GAME.ai_action(b, seat)
        a, _ = GAME.apply(a, seat, move)
        b, _ = GAME.apply(b, seat, move)
        assert {k: v for k, v in a.items() if k not in ("revision", "last")} == {
            k: v for k, v in b.items() if k not in ("revision", "last")
        }


# ---- item 2: "For 3 players, it ends after the round in which only 1 Creature remains" -----------


def test_three_player_end_says_the_last_card_goes_back_to_the_box() -> None:
    state, events = _ai_game(3, 4)
    words = " ".join(e.text for e in events if e.seat is None)
    assert "exhausted" not in words
    assert "1 card is left in the deck, too few for a round, and goes back to the box unseen" in words
    assert len(state["box"]) == 1 and GAME.view(state, None)["deck_top"] is None


def test_four_player_end_says_the_deck_is_exhausted() -> None:
    _state, events = _ai_game(4, 4)
    assert any("The deck is exhausted" in e.text for e in events)


# ---- item 17: malformed moves and odd typed text -----------------------------------------------------


@pytest.mark.parametrize("text", ["support ² gold", "support ① gem", "support ٣ gold", "support 1234 gold"])
def test_odd_digits_are_refused_in_one_sentence(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.parse(text)
    assert "support 2 gold (your monster's number, then gold or gem)" in str(refused.value)


def test_support_is_explained_in_words_not_in_placeholders() -> None:
    # "you may request Support for any 1 of your Monsters of the same Kind ... Place 1 Treasure of
    # your choice": the refusals and the board's legend say how to ask for it in words a player
    # would use ("support 2 gold"), not in program placeholders ("<monster number> gold|gem").
    from render.monster_inn import LEGEND

    texts = [" ".join(LEGEND)]
    for bad in ("support", "support 2", "bonus"):
        with pytest.raises(IllegalAction) as refused:
            GAME.parse(bad)
        texts.append(str(refused.value))
    # round 1: U1, K2, U10 go to seats 0, 1, 2; round 2 (G3, G8, U11): seat 0 ends with U11
    s = stacked(3, ["U1", "K2", "U10", "U11", "G3", "G8", "K9", "O7", "T5"])
    s = play(s, (0, "leave"), (1, "leave"), (0, "gold"), (1, "leave"), (2, "leave"))
    assert s["pending"] == {"seat": 0, "kind": "support", "monster_kind": "Undead"}
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, 0, "bonus gold")
    texts.append(str(refused.value))
    assert "like support 2 gold" in texts[-1]
    for t in texts:
        assert not any(ch in t for ch in "<>|"), t


@pytest.mark.parametrize("move", [None, 5, ["leave"], {"a": "leave"}, "", "leave leave", "bonus", b"leave"])
def test_malformed_move_objects_are_refused_and_change_nothing(move: object) -> None:
    s = stacked(3, [*MONS[:3], HUM_16, *MONS[3:]])
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, s["turn"], move)
    assert str(refused.value).endswith(".") and len(str(refused.value)) < 200
    assert json.dumps(s, sort_keys=True) == before


# ---- issue 26: "On your turn, you must decide whether you want to Remain or Leave" ---------------


def test_a_turn_is_one_decision_with_its_bonus() -> None:
    s = stacked(3, [HUM_16, *MONS])  # the inn: the humanoid leftmost
    first = GAME.turn_id(s)
    s = play(s, (0, "leave"))
    assert s["pending"]["kind"] == "bonus" and GAME.turn_id(s) == first  # the bonus is the same turn
    s = play(s, (0, "bonus gold"))
    assert GAME.turn_id(s) != first


def test_the_player_who_ends_a_round_and_starts_the_next_gets_a_new_turn() -> None:
    # Seat 0 leaves, seat 1 adds gold, seat 2 leaves: seat 1 "must also Leave and take the last
    # remaining Creature", and "The Dungeon Master on your left" of seat 1 - seat 2 - begins.
    s = stacked(3, MONS, start=0)
    s = play(s, (0, "leave"), (1, "gold"))
    before = GAME.turn_id(s)
    assert GAME.to_act(s) == {2}
    s = play(s, (2, "leave"))
    assert s["round"] == 2 and GAME.to_act(s) == {2}
    assert GAME.turn_id(s) != before  # two turns of one seat in a row: two boards


def test_the_header_is_short_and_shows_only_the_seats_own_purse() -> None:
    s = GAME.new(3, None, 9)
    pick = random.Random(1)
    for _ in range(30):
        (seat,) = GAME.to_act(s)
        s, _ = GAME.apply(s, seat, pick.choice(GAME.legal_actions(s, seat)))
    for seat in range(3):
        head = GAME.header(s, seat)
        p = s["players"][seat]
        assert len(head) <= 400
        assert f"Your treasure: {p['gold']} gold" in head
        for h in p["humanoids"]:
            assert f"{CARDS[h].range}/{CARDS[h].skulls}" in head
        others = [o for o in range(3) if o != seat]
        assert all(
            f"{s['players'][o]['gold']} gold, {s['players'][o]['gem']} gem" not in head
            for o in others
            if (s["players"][o]["gold"], s["players"][o]["gem"]) != (p["gold"], p["gem"])
        )
