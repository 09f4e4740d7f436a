"""How the clicks benchmark and tests/e2e/test_e2e_clicks.py count turns and choose
what to click (tests/e2e/clicker.py), checked on hand-made move logs and messages."""

from __future__ import annotations

from typing import Any

from engine import core
from tests.e2e.clicker import is_done, offered, turns_of
from tests.standin.server import Message


class Scripted(core.Game):
    """A game whose states say who is to act (and, when given, the turn id)."""

    key = "test-scripted"

    def to_act(self, state: dict[str, Any]) -> set[int]:
        return set(state["act"])

    def is_over(self, state: dict[str, Any]) -> bool:
        return not state["act"]

    def turn_id(self, state: dict[str, Any]) -> str:
        return str(state["id"]) if "id" in state else super().turn_id(state)


def states(*acts: Any) -> list[dict[str, Any]]:
    return [a if isinstance(a, dict) else {"act": list(a)} for a in acts]


def test_alternating_moves_are_one_turn_each() -> None:
    cut = turns_of(Scripted(), states([0], [1], [0], []), [0, 1, 0])
    assert cut.seat_of_turn == [0, 1, 0] and cut.turn_of_move == [0, 1, 2]
    assert cut.simultaneous_phases == 0


def test_a_turn_lasts_until_the_game_waits_on_somebody_else() -> None:
    # seat 0 moves three times in a row, then seat 1 twice
    cut = turns_of(Scripted(), states([0], [0], [0], [1], [1], []), [0, 0, 0, 1, 1])
    assert cut.seat_of_turn == [0, 1] and cut.turn_of_move == [0, 0, 0, 1, 1]


def test_a_new_turn_id_starts_a_new_turn_for_the_same_seat() -> None:
    # a game that says seat 0 plays two rulebook turns in a row
    s = states({"act": [0], "id": "a"}, {"act": [0], "id": "a"}, {"act": [0], "id": "b"}, [])
    cut = turns_of(Scripted(), s, [0, 0, 0])
    assert cut.seat_of_turn == [0, 0] and cut.turn_of_move == [0, 0, 1]


def test_a_simultaneous_phase_is_one_turn_per_seat_and_one_phase() -> None:
    # both choose at once (default turn ids: the seats to act); seat 1 finishes first,
    # seat 0 chooses twice; then a new phase where both choose again
    s = states([0, 1], [0], [0], [0, 1], [1], [])
    cut = turns_of(Scripted(), s, [1, 0, 0, 0, 1])
    assert cut.seat_of_turn == [1, 0, 0, 1]
    assert cut.turn_of_move == [0, 1, 1, 2, 3]
    assert cut.simultaneous_phases == 2


def test_a_phase_where_only_one_seat_moved_is_not_simultaneous() -> None:
    # both may choose in phase p, but seat 0's move ends it (the game's own turn ids)
    s = states({"act": [0, 1], "id": "p"}, {"act": [0], "id": "q"}, [])
    cut = turns_of(Scripted(), s, [0, 0])
    assert cut.simultaneous_phases == 0 and cut.seat_of_turn == [0, 0]


def test_a_game_s_own_ids_keep_a_phase_together() -> None:
    s = states({"act": [0, 1], "id": "p"}, {"act": [1], "id": "p"}, {"act": [0], "id": "q"}, [])
    cut = turns_of(Scripted(), s, [0, 1, 0])
    assert cut.seat_of_turn == [0, 1, 0] and cut.simultaneous_phases == 1


def message(items: list[dict[str, Any]]) -> Message:
    return Message(1, 2, 3, {}, components=[{"type": 1, "components": items}])


def test_offered_is_every_button_and_option_but_navigation() -> None:
    m = message(
        [
            {"type": 2, "style": 1, "label": "Tile 3", "custom_id": "lk:cx:1:2:0:pick:0"},
            {"type": 2, "style": 2, "label": "Back", "custom_id": "lk:cx:1:2:1:back:0"},
            {"type": 2, "style": 2, "label": "Next", "custom_id": "lk:cx:1:2:1:page:1"},
            {"type": 2, "style": 2, "label": "Show my hand", "custom_id": "lk:hand:1"},
            {"type": 2, "style": 1, "label": "Off", "custom_id": "x", "disabled": True},
            {"type": 2, "style": 3, "label": "Done", "custom_id": "lk:cx:1:2:1:done:0"},
            {
                "type": 3,
                "custom_id": "lk:cs:1:2:0",
                "options": [{"label": "A1", "value": "0"}, {"value": "1"}],
            },
        ]
    )
    got = [(c["custom_id"], v) for c, v in offered(m)]
    assert got == [
        ("lk:cx:1:2:0:pick:0", None),
        ("lk:cx:1:2:1:done:0", None),
        ("lk:cs:1:2:0", "0"),
        ("lk:cs:1:2:0", "1"),
    ]
    assert [is_done(c) for c, _v in offered(m)] == [False, True, False, False]
    assert offered(None) == [] and offered(message([])) == []


def test_starting_over_is_never_clicked_at_random() -> None:
    """Dungeon Drawers' Erase begins the face-up card again (rulebook: "erase and rebuild
    elements installed using this Card"): like Back, never a random pick, as a button or as
    a select option; a label that only contains the word stays on offer."""
    erase = "Erase what this card installed and start it again"
    m = message(
        [
            {"type": 2, "style": 2, "label": "Start over", "custom_id": "lk:cx:1:2:1:pick:1"},
            {"type": 2, "style": 2, "label": erase, "custom_id": "lk:cx:1:2:1:pick:2"},
            {
                "type": 3,
                "custom_id": "lk:cs:1:2:0",
                "options": [{"label": "C5", "value": "0"}, {"label": erase, "value": "1"}],
            },
            {
                "type": 2,
                "style": 1,
                "label": "Turn #3 over: no more erasing",
                "custom_id": "lk:cx:1:2:1:pick:3",
            },
        ]
    )
    got = [(c["custom_id"], v) for c, v in offered(m)]
    assert got == [("lk:cs:1:2:0", "0"), ("lk:cx:1:2:1:pick:3", None)]


def test_a_ping_of_someone_not_to_act_is_counted() -> None:
    from types import SimpleNamespace

    from tests.e2e.clicker import wrong_pings
    from tests.standin.server import Attachment

    row = SimpleNamespace(
        seats=[
            SimpleNamespace(seat=0, user_id=10, is_ai=False),
            SimpleNamespace(seat=1, user_id=11, is_ai=False),
        ]
    )

    def board(k: int, pinged: list[int]) -> Message:
        m = Message(k, 2, 3, {}, attachments=[Attachment(k, f"game1-move{k}.png", "image/png", b"")])
        m.pinged = pinged
        return m

    s = states([0], [1], [0, 1], [])
    assert wrong_pings(Scripted(), row, s, [board(1, [11]), board(2, [10, 11])]) == 0
    assert wrong_pings(Scripted(), row, s, [board(1, [10, 11]), board(3, [10])]) == 2


def test_where_turns_begin() -> None:
    # seat 0 twice, seat 1, then a phase where both choose (1 first), then the end
    s = states([0], [0], [1], [0, 1], [0], [])
    assert turns_of(Scripted(), s, [0, 0, 1, 1, 0]).starts == {2, 3, 5}


def test_a_board_with_no_new_turn_since_the_one_before_is_counted() -> None:
    from tests.e2e.clicker import inside_turns

    starts = {2, 3, 5}
    assert inside_turns([0, 2, 3, 5], starts) == 0
    assert inside_turns([0, 3, 5], starts) == 0  # a board may follow a turn change
    assert inside_turns([0, 1, 2, 3, 4, 5], starts) == 2  # after moves 1 and 4: inside turns
    assert inside_turns([0, 2, 2, 3], starts) == 1  # the same board twice
