"""Issue 29 item 17: a malformed move object is refused in one sentence and changes nothing.
The moves of each kind are taken from real positions and broken: a field removed, retyped,
emptied, or two fields swapped."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core import IllegalAction
from tests.dungeon_drawers.helpers import GAME, cards_with, defend_state, path_state, sheet_from

EMPTY_ROWS = ["........"] * 10
BAD_VALUES: list[Any] = [
    None,
    5,
    -1,
    10**9,
    True,
    12.0,
    "x",
    "",
    "Z9",
    [],
    [5],
    ["Z9"],
    [["A1"]],
    {},
    {"a": 1},
]


def positions() -> list[tuple[dict, int]]:
    """A position for every kind of move: a pick, each kind of element, turning over, a path,
    an encounter, hero actions and the refill."""
    out: list[tuple[dict, int]] = []
    state = GAME.new(2, None, 11)
    kinds: set[str] = set()
    while state["phase"] == "build" and len(kinds) < 7:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        kind = legal[0]["t"] + str(legal[0].get("kind", ""))
        if kind not in kinds:
            kinds.add(kind)
            out.append((state, seat))
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    out.append((path_state([sheet_from(EMPTY_ROWS), sheet_from(EMPTY_ROWS)]), 1))
    goblin = sheet_from(["........", "g......."] + ["........"] * 8)
    down = GAME.parse("path A1 A10 H10")["cells"]
    club, sword = cards_with("spear")[0], cards_with("sword")[0]
    fight = defend_state(
        [goblin, sheet_from(EMPTY_ROWS)], [down, down], hands=[[club, sword], []], dice=[3, 4]
    )
    out.append((fight, 0))
    after = GAME.apply(fight, 0, {"t": "resolve"})[0]
    out.append((after, 0))
    return out


def broken(move: dict) -> list[Any]:
    """``move`` with each field removed, given each bad value, and each pair of fields swapped."""
    out: list[Any] = [{}, [], "take 12", None, {"t": move["t"]}]
    for k in move:
        out.append({x: v for x, v in move.items() if x != k})
        out += [{**move, k: bad} for bad in BAD_VALUES]
    keys = list(move)
    out += [{**move, a: move[b], b: move[a]} for i, a in enumerate(keys) for b in keys[i + 1 :]]
    return out


@pytest.mark.parametrize("move", [{"t": "wall"}, {"t": "refill", "under": 5}, {"t": "take"}, {"t": "path"}])
def test_the_moves_the_owners_found_are_refused_in_one_sentence(move: dict) -> None:
    for state, seat in positions():
        before = json.dumps(state, sort_keys=True)
        with pytest.raises(IllegalAction) as refused:
            GAME.apply(state, seat, move)
        sentence = str(refused.value)
        assert sentence.endswith(".") and "Error" not in sentence and "\n" not in sentence
        # the game's own sentence, not the contract's catch-all for a move that crashed
        assert "pick one from the list" not in sentence, sentence
        assert json.dumps(state, sort_keys=True) == before


def test_every_legal_move_broken_is_refused_or_is_another_legal_move() -> None:
    """A broken move is either refused with a sentence, state unchanged, or happens to be one
    of the seat's legal moves itself (a refill with the cards list emptied, say)."""
    tried = 0
    for state, seat in positions():
        legal = GAME.legal_actions(state, seat)
        before = json.dumps(state, sort_keys=True)
        for move in legal[:6]:
            for bad in broken(move):
                tried += 1
                try:
                    GAME.apply(state, seat, bad)
                except IllegalAction as refused:
                    assert str(refused).strip() and "Error" not in str(refused)
                else:
                    assert bad in legal or GAME.parse(GAME.format(bad)) == bad, bad
                assert json.dumps(state, sort_keys=True) == before
    assert tried > 500


def test_a_card_named_by_true_or_a_float_is_refused_not_read_as_a_number() -> None:
    """True == 1 and 12.0 == 12 in Python: a card number must be a whole number, not a yes."""
    state, seat = positions()[0]
    card = state["display"][0]
    for bad in (float(card), True if card == 1 else float(card)):
        with pytest.raises(IllegalAction):
            GAME.apply(state, seat, {"t": "take", "card": bad})


def test_parse_raises_only_a_sentence_for_any_mix_of_words() -> None:
    """parse never raises anything but IllegalAction: random mixes of move words, spaces,
    numbers and stray characters."""
    import random

    words = ["take", "wall", "goblin", "treasure", "improve", "path", "play", "hero", "refill", "erase"]
    words += ["done", "resolve", "A1", "H10", "Z9", "12", "0", "-3", "99", "P2", "Player", "①", "٣", "#7", ""]
    rnd = random.Random(17)
    for _ in range(3000):
        text = " ".join(rnd.choice(words) for _ in range(rnd.randint(1, 6)))
        try:
            move = GAME.parse(text)
        except IllegalAction as refused:
            assert str(refused).strip()
        else:
            assert GAME.parse(GAME.format(move)) == move, text
