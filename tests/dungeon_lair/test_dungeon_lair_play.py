"""Dungeon Lair: notation, secrecy of the tile in hand, undo, the AI, the board image, random games."""

from __future__ import annotations

import io
import json
import random
import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from engine.core import IllegalAction
from engine.dungeon_lair import GAME
from engine.dungeon_lair.board import Dungeon, is_doorway, neighbour
from engine.dungeon_lair.data import BASE_IDS, TILES
from render import dungeon_lair as R
from tests.dungeon_lair.helpers import ROOM4, ROOM_NS, STRAIGHT, act, board, new, position
from tests.playout import ai_playout, random_playout

# ---- notation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, action",
    [
        ("T17 0,0 90", {"a": "tile", "t": 17, "at": "0,0", "r": 90}),
        ("t17 0, 0 90", {"a": "tile", "t": 17, "at": "0,0", "r": 90}),
        ("T17 -12,+103 90", {"a": "tile", "t": 17, "at": "-12,103", "r": 90}),
        ("#5 -6,4", {"a": "tile", "t": 5, "at": "-6,4", "r": 0}),
        ("17 0,0 270°", {"a": "tile", "t": 17, "at": "0,0", "r": 270}),
        ("T17 remove", {"a": "remove", "t": 17}),
        ("S 0,0", {"a": "monster", "s": "S", "from": "hand", "to": "0,0"}),
        ("huge 0,0N", {"a": "monster", "s": "L", "from": "hand", "to": "0,0n"}),
        ("M 0,0 2,1", {"a": "monster", "s": "M", "from": "0,0", "to": "2,1"}),
        ("L 0,0s hand", {"a": "monster", "s": "L", "from": "0,0s", "to": "hand"}),
        ("draw", {"a": "draw"}),
        ("Continue", {"a": "continue"}),
        ("pass", {"a": "pass"}),
    ],
)
def test_notation_reads_what_players_type(text: str, action: dict) -> None:
    assert GAME.parse(text) == action
    assert GAME.parse(GAME.format(action)) == action


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "Type a tile like"),
        ("dance", "Type a tile like"),
        ("T200 0,0", "no tile T200"),
        ("T17", "tile, cell, turn"),
        ("T17 P8 0", "not a cell"),
        ("T17 1,2,3 0", "not a cell"),
        ("T17 0,0 45", "0, 90, 180 or 270"),
        ("S Q3", "not a place on the map"),
        ("S 1;2", "not a place on the map"),
        ("S hand hand", "where the monster goes"),
    ],
)
def test_notation_errors_are_one_clear_sentence(text: str, message: str) -> None:
    with pytest.raises(IllegalAction, match=message) as exc:
        GAME.parse(text)
    assert str(exc.value).endswith(".")


# ---- the hidden tile in hand ----------------------------------------------------------------


def twin_states():
    """Two games that differ only in the tiles in hand and the order of the stack."""
    tiles = board(("0,0", ROOM4[0], 0))
    a = new(3, deck=[30, 31, 32, 33], hands=[[24], [25], [26]], tiles=tiles)
    b = new(3, deck=[40, 41, 42, 43], hands=[[44], [45], [46]], tiles=tiles)
    return a, b


def test_the_tile_in_hand_never_shows_in_public() -> None:
    a, b = twin_states()
    assert a["hands"] != b["hands"]
    assert GAME.view(a, None) == GAME.view(b, None)
    assert GAME.status(a) == GAME.status(b)
    assert R.render(GAME.view(a, None)) == R.render(GAME.view(b, None))
    # the owner sees her own tiles, in words and in a picture; others see only a count
    assert "T24 " in GAME.private_text(a, 0) and "T30 " in GAME.private_text(a, 0)
    assert "T25" not in GAME.private_text(a, 0)
    assert sorted(t["id"] for t in GAME.view(a, 0)["mine"]["tiles"]) == [24, 30]
    assert [p["tiles_in_hand"] for p in GAME.view(a, None)["players"]] == [2, 1, 1]
    assert R.render_private(GAME.view(a, 0))[:4] == b"\x89PNG"
    # seat 1's view of seat 0 is the public one plus seat 1's own tiles
    v1 = GAME.view(a, 1)
    assert v1["mine"]["tiles"][0]["id"] == 25 and "24" not in json.dumps(v1["players"])


def test_errors_history_and_labels_never_tell_another_players_tile() -> None:
    a, b = twin_states()
    # Seat 0 names a tile another player holds, one in the stack, one on the map: the same
    # sentence as for any tile she does not hold, in both twins.
    for state, rival, stacked in ((a, 25, 31), (b, 45, 41)):
        for text in (f"T{rival} 0,-1 0", f"T{rival} remove", f"T{stacked} 0,-1 0", f"T{ROOM4[0]} 0,-1 0"):
            with pytest.raises(IllegalAction) as exc:
                GAME.apply(state, 0, GAME.parse(text))
            assert str(exc.value) == "You do not hold that tile; /hand shows the tiles you hold."
        # out of turn, even with her own tile
        with pytest.raises(IllegalAction, match="not your turn"):
            GAME.apply(state, 1, GAME.parse(f"T{state['hands'][1][0]} 0,-1 0"))
    # the public history of a move names only the tile it puts on the map (then public)
    for state in (a, b):
        hidden = {t for h in state["hands"] for t in h} | set(state["deck"])
        labels = []
        for action in GAME.legal_actions(state, 0):
            shown = {int(x) for x in HIDDEN.findall(GAME.public_format(state, 0, action))}
            assert shown <= {action.get("t")}, action
            labels.append(GAME.describe(state, action))
            assert not {int(x) for x in HIDDEN.findall(labels[-1])} & hidden
        assert len(labels) == len(set(labels)), "every button label is different"
    # the same public moves in both twins give the same public text
    for state in (a, b):
        state["hands"][0] = [STRAIGHT[0]] if state is a else [STRAIGHT[1]]
    ea = GAME.apply(act(a, 0, "T1 0,-1 0"), 0, GAME.parse("pass"))[1]
    eb = GAME.apply(act(b, 0, "T2 0,-1 0"), 0, GAME.parse("pass"))[1]
    assert [e.text for e in ea if e.seat is None] == [e.text for e in eb if e.seat is None]


def test_drawing_is_announced_but_the_tile_is_told_only_to_the_drawer() -> None:
    state = new(
        2,
        deck=[STRAIGHT[1], STRAIGHT[2], ROOM4[1]],
        hands=[[STRAIGHT[0]], [ROOM_NS[0]]],
        tiles=board(("0,0", ROOM4[0], 0)),
    )
    state = act(state, 0, "T1 0,-1 0")
    state, events = GAME.apply(state, 0, GAME.parse("draw"))
    public = [e.text for e in events if e.seat is None]
    private = [e.text for e in events if e.seat == 0]
    assert public and not any("T3" in t for t in public)
    assert private and "T3 " in private[0]
    state = act(state, 0, "T3 0,-2 0")
    state, events = GAME.apply(state, 0, GAME.parse("pass"))
    assert any(e.seat == 1 and "T22 " in e.text for e in events)
    assert not any(e.seat is None and "T22" in e.text for e in events)


def test_button_labels_do_not_name_a_tile_in_hand() -> None:
    # Buttons (describe) are posted in the public thread when few moves are legal.
    state = new(
        2,
        deck=[STRAIGHT[1], ROOM4[1]],
        hands=[[STRAIGHT[0]], [ROOM_NS[0]]],
        tiles=board(("0,0", ROOM4[0], 0)),
    )
    letters = GAME.hand_letters(state, 0)
    assert sorted(letters.values()) == ["A", "B"]
    for a in GAME.legal_actions(state, 0):
        label = GAME.describe(state, a)
        assert len(label) <= 80
        if a["a"] == "tile":
            assert label.startswith(f"Place tile {letters[a['t']]} on {a['at']}")
            assert "T1" not in label and "T2" not in label and "corridor" not in label
    # the owner learns which letter is which from /hand
    text = GAME.private_text(state, 0)
    assert all(f"tile {letter}: T{t} " in text for t, letter in letters.items())
    # the letters do not follow the tile numbers (which would hint at the kind of the hidden tile)
    orders = set()
    for seed in range(12):
        s = GAME.new(2, None, seed)
        hand = s["hands"][s["current"]]
        lt = GAME.hand_letters(s, s["current"])
        orders.add(lt[min(hand)])
    assert orders == {"A", "B"}


def test_undo_never_lets_a_player_peek_at_the_stack() -> None:
    state = new(
        2,
        deck=[STRAIGHT[1], STRAIGHT[2], ROOM4[1], ROOM4[2]],
        hands=[[STRAIGHT[0]], [ROOM_NS[0]]],
        tiles=board(("0,0", ROOM4[0], 0)),
    )
    placed = act(state, 0, "T1 0,-1 0")
    assert GAME.can_undo(state, placed, 0, GAME.parse("T1 0,-1 0"))
    drawn = act(placed, 0, "draw")
    assert not GAME.can_undo(placed, drawn, 0, GAME.parse("draw"))
    # ending the turn while a draw was open deals the next player the very tile she could draw
    ended = act(placed, 0, "pass")
    assert not GAME.can_undo(placed, ended, 0, GAME.parse("pass"))
    # ...and, with no corridor to continue, neither may a monster action that ended the turn
    # while the next player drew (issue 29: two take-backs in a row reached that tile)
    room_turn = act(act(ended, 1, "T28 1,0 90"), 1, "pass")
    plain = act(room_turn, 0, "T22 -1,0 0")
    done = act(plain, 0, "S -1,0")
    assert len(done["deck"]) < len(plain["deck"])
    assert not GAME.can_undo(plain, done, 0, GAME.parse("S -1,0"))


# ---- the AI ----------------------------------------------------------------------------------


def play(players: int, seed: int, ai_seats: set[int]):
    state = GAME.new(players, None, seed)
    pick = random.Random(seed)
    while not GAME.is_over(state):
        seat = state["current"]
        legal = GAME.legal_actions(state, seat)
        action = GAME.ai_action(state, seat) if seat in ai_seats else pick.choice(legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)
    return GAME.result(state)


def test_ai_beats_random_play_on_most_seeds() -> None:
    games = [(2, s) for s in range(5)] + [(3, s) for s in range(5, 9)]
    wins = 0
    for players, seed in games:
        ai = seed % players
        res = play(players, seed, {ai})
        wins += res.ranking[0] == [ai]
    assert wins >= len(games) - 2, wins


def test_ai_games_are_won_not_tied_at_nothing() -> None:
    # Issue 17.6: two AIs used to pour all 11 power into one zone and tie every room (about 30 %
    # of 2-player games ended 0-0). Valuing a zone by who can still win it, they now hold their
    # own zones: 2 of 120 games scored nobody (docs/rules/dungeon-lair.md, "The AI").
    results = [GAME.result(ai_playout(GAME, 2, seed)) for seed in range(10)]
    nil = sum(1 for r in results if max(r.scores) == 0)
    assert nil <= 1, [r.scores for r in results]
    assert sum(max(r.scores) for r in results) >= 10 * 25, [r.scores for r in results]


def test_ai_takes_a_zone_it_can_win() -> None:
    # The AI just placed 0,-1 (open to a 3-room zone where the rival has a small monster).
    tiles = {**board(("0,-2", ROOM_NS[0], 0), ("0,0", ROOM_NS[1], 0), ("0,1", ROOM_NS[2], 0))}
    state = new(2, deck=[ROOM4[1], ROOM4[2]], hands=[[ROOM4[0]], [24]], tiles=tiles)
    state["monsters"][1][0]["at"] = "0,1"
    state = act(state, 0, "T21 0,-1 0")
    choice = GAME.format(GAME.ai_action(state, 0))
    assert choice in ("M 0,-1", "L 0,-1"), choice


def test_ai_does_not_give_a_rival_rooms() -> None:
    # The rival holds the zone 0,0-0,1 with a huge monster. Whatever the AI's turn (tile, then
    # monster action), the rival must not end it with more rooms than before.
    tiles = board(("0,0", ROOM_NS[0], 0), ("0,1", ROOM_NS[1], 0))
    state = new(2, deck=[ROOM4[1], ROOM4[2]], hands=[[ROOM_NS[2]], [24]], tiles=tiles)
    state["monsters"][1] = [{"s": "L", "at": "0,1"}] + state["monsters"][1][1:]
    before = GAME.dungeon(state).scores(state["monsters"])
    assert before == [0, 2]
    while state["current"] == 0:
        state, _ = GAME.apply(state, 0, GAME.ai_action(state, 0))
    after = GAME.dungeon(state).scores(state["monsters"])
    assert after[1] <= before[1] and after[0] >= before[0]


def test_ai_uses_only_what_its_seat_may_see() -> None:
    a, b = twin_states()
    # same own tiles, different rival tiles and stack
    b = json.loads(json.dumps(a))
    b["hands"][1], b["hands"][2] = [45], [46]
    b["deck"] = [40, 41, 42, 43]
    assert GAME.ai_action(a, 0) == GAME.ai_action(b, 0)


# ---- the board image --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 6])
def test_board_renders_at_every_stage(players: int) -> None:
    state = GAME.new(players, None, 21)
    pick = random.Random(3)
    seen = 0
    while True:
        if seen % 60 == 0 or GAME.is_over(state):
            t0 = time.perf_counter()
            png = R.render(GAME.view(state, None))
            elapsed = time.perf_counter() - t0
            img = Image.open(io.BytesIO(png))
            assert img.width <= 1200 and len(png) <= 250_000
            assert elapsed < 2.0  # generous for a loaded CI box; about 0.1 s here
        if GAME.is_over(state):
            break
        seat = state["current"]
        action = (
            GAME.ai_action(state, seat)
            if pick.random() < 0.5
            else pick.choice(GAME.legal_actions(state, seat))
        )
        state, _ = GAME.apply(state, seat, action)
        seen += 1


def test_board_shows_monsters_and_the_rooms_they_hold() -> None:
    tiles = board(("0,-1", ROOM_NS[0], 0), ("0,0", STRAIGHT[0], 0), ("0,1", ROOM_NS[1], 0))
    empty = R.render(GAME.view(position(tiles, {}), None))
    held = R.render(GAME.view(position(tiles, {1: [("M", "0,0")]}), None))
    assert empty != held

    def seat2_pixels(png: bytes) -> int:
        img = Image.open(io.BytesIO(png)).convert("RGB")
        near = lambda c: sum(abs(a - b) for a, b in zip(c, (86, 180, 233), strict=True)) < 24  # noqa: E731
        return sum(n for n, c in img.getcolors(1 << 20) if near(c))

    # seat 2's monster is a disc in its colour, big enough to see on a phone: a disc of
    # radius >= 18 px (6 px at a third); one monster in hand fewer takes a smaller disc away
    assert seat2_pixels(held) - seat2_pixels(empty) > 3.14 * 18 * 18 - 3.14 * 16 * 16


# ---- random full games ------------------------------------------------------------------------

HIDDEN = re.compile(r"\bT(\d+)\b")


class Invariants:
    """Checked after every move of a random game; the (slower) secrecy check every 4th move."""

    def __init__(self) -> None:
        self.moves = 0

    def __call__(self, state: dict) -> None:
        self.moves += 1
        check_invariants(state, secrecy=self.moves % 4 == 0 or GAME.is_over(state))


def check_invariants(state: dict, secrecy: bool = True) -> None:
    placed = [e["t"] for e in state["board"].values()]
    everywhere = state["deck"] + [t for h in state["hands"] for t in h] + placed + state["removed"]
    catacombs = state["options"]["catacombs"]
    expected = sorted(TILES) if catacombs else list(BASE_IDS)
    assert sorted(everywhere) == expected, "every tile is in the stack, a hand, the map or out"
    dungeon = Dungeon.of(state["board"], catacombs)
    for cell, p in dungeon.tiles.items():
        for side in range(4):
            other = neighbour(cell, side)
            if other in dungeon.tiles:
                assert is_doorway(p.edges[side]) == is_doorway(dungeon.tiles[other].edges[(side + 2) % 4])
    # the map is one connected piece
    if state["board"]:
        seen, todo = set(), [next(iter(state["board"]))]
        while todo:
            c = todo.pop()
            if c in seen:
                continue
            seen.add(c)
            todo += [n for s in range(4) if (n := neighbour(c, s)) in state["board"]]
        assert seen == set(state["board"])
    sizes = [sorted(m["s"] for m in ms) for ms in state["monsters"]]
    assert all(s == sizes[0] for s in sizes)
    for ms in state["monsters"]:
        for m in ms:
            assert m["at"] is None or m["at"] in dungeon.room
    scores = dungeon.scores(state["monsters"])
    assert sum(scores) <= (93 if catacombs else 73) and min(scores) >= 0
    if not secrecy:
        return
    if not GAME.is_over(state):
        legal = GAME.legal_actions(state, state["current"])
        assert 0 < len(legal) <= 600
        labels = [GAME.describe(state, a) for a in legal]
        assert all(len(label) <= 80 for label in labels)
        assert len(set(labels)) == len(labels), "button labels must be unique"
    view = json.dumps(GAME.view(state, None)) + GAME.status(state)
    hidden = {t for h in state["hands"] for t in h} | set(state["deck"])
    assert not {int(x) for x in HIDDEN.findall(view)} & hidden
    assert '"mine"' not in view


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), beginner=st.booleans(), catacombs=st.booleans())
def test_random_games_end_with_every_rule_kept(
    seed: int, players: int, beginner: bool, catacombs: bool
) -> None:
    options = {"beginner": beginner, "catacombs": catacombs}
    state, log = random_playout(GAME, players, seed, options, check=Invariants())
    assert GAME.is_over(state)
    assert state["deck"] == [] and not any(state["hands"])
    res = GAME.result(state)
    assert res.scores == [b["rooms"] for b in res.breakdown]
    assert sum(res.scores) <= (93 if catacombs else 73)
    # a tile placed or removed in every turn but the monster-only ones
    assert len(state["board"]) + len(state["removed"]) == (103 if catacombs else 85)
