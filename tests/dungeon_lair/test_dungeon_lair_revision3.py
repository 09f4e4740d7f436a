"""Issue 29 items 3, 4 and 17 and issue 26 for Dungeon Lair (rules revision 3): take-backs that
leak no tile, short refusals, malformed move objects, what a turn is, the private header, and the
chooser's one-step places with their preview pictures."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import render
from engine.core import IllegalAction
from engine.dungeon_lair.board import parse_area
from engine.dungeon_lair.data import TILES
from store import Store
from tables import TableError, Tables
from tests.dungeon_lair.helpers import GAME, ROOM4, STRAIGHT, act, board, new

ALICE, BOB = 11, 22
SEED = 14  # two players; seat 0 starts holding a straight corridor (T2, kept) and a room (T32, drawn)


def tables_undo(log: list[tuple[int, Any]], state0: dict, seat: int) -> list[tuple[int, Any]]:
    """The /undo rule of tables/history.py: the seat's own last move, if nobody acted since and
    the game's can_undo allows it. Returns the shorter log or raises TableError."""
    if not log or log[-1][0] != seat:
        raise TableError("You can only take back your own move, and only before anyone else acts.")
    before = replay(state0, log[:-1])
    if not GAME.can_undo(before, replay(state0, log), seat, log[-1][1]):
        raise TableError("That move revealed something new, so it stands.")
    return log[:-1]


def replay(state: dict, log: list[tuple[int, Any]]) -> dict:
    for seat, action in log:
        state, _ = GAME.apply(state, seat, action)
    return state


# ---- item 3: a tile is drawn "without revealing it to other players" ----------------------------


def test_the_issue_scenario_cannot_hand_the_next_players_tile_to_the_undoer() -> None:
    # "Keep a corridor, draw a room, place it, pass. The next player draws T23 and is told so
    # privately. Now take back the pass, then the placement ..."
    s0 = new(2, deck=[28, 23, 44, 45], hands=[[STRAIGHT[0]], [29]], tiles=board(("0,0", 30, 0)))
    assert sorted(s0["hands"][0]) == [STRAIGHT[0], 28]  # a corridor kept, a room drawn
    log = [(0, GAME.parse("T28 0,-1 0")), (0, GAME.parse("pass"))]
    after = replay(s0, log)
    assert after["hands"][1][-1] == 23  # seat 1 was shown T23
    with pytest.raises(TableError, match="revealed"):
        tables_undo(log, s0, 0)
    # The placement alone, before the pass, may still be taken back (nothing was drawn).
    assert tables_undo(log[:1], s0, 0) == []


def test_a_remove_cannot_be_taken_back() -> None:
    # "that tile is removed from the game": everyone saw it; it never goes back into a hand.
    # The corridor's free exit 0,-2 lies between two walls; the open room drawn fits nowhere there.
    tiles = board(("0,0", ROOM4[0], 0), ("-1,-2", 29, 0), ("1,-2", 30, 0))
    s = new(2, deck=[17, ROOM4[1], ROOM4[2]], hands=[[STRAIGHT[0]], [34]], tiles=tiles)
    s = act(act(s, 0, "T1 0,-1 0"), 0, "draw")
    removable = [a for a in GAME.legal_actions(s, 0) if a["a"] == "remove"]
    assert removable
    after, _ = GAME.apply(s, 0, removable[0])
    assert not GAME.can_undo(s, after, 0, removable[0])


def test_an_end_of_turn_with_an_empty_stack_may_still_be_taken_back() -> None:
    s = new(2, deck=[], hands=[[28], [29]], tiles=board(("0,0", 30, 0)))
    placed = act(s, 0, "T28 0,-1 0")
    ended = act(placed, 0, "pass")
    assert GAME.can_undo(placed, ended, 0, GAME.parse("pass"))  # nobody was shown a tile


@pytest.mark.parametrize("seed", range(6))
def test_no_take_back_ever_changes_the_stack_or_the_removed_tiles(seed: int) -> None:
    """Whatever chain of take-backs tables allows, each link restores the same stack and the same
    removed pile, so no tile anybody was shown comes back to be drawn or held."""
    rnd = random.Random(seed)
    s = GAME.new(2 + seed % 3, None, seed)
    while not GAME.is_over(s):
        seat = s["current"]
        move = rnd.choice(GAME.legal_actions(s, seat))
        after, _ = GAME.apply(s, seat, move)
        if GAME.can_undo(s, after, seat, move):
            assert after["deck"] == s["deck"] and after["removed"] == s["removed"], move
        s = after


async def test_the_issue_scenario_through_the_tables_undo(tmp_path: Path) -> None:
    """The same scenario on the real /undo path (tables/history.py)."""
    store = await Store(str(tmp_path / "t.db")).open()
    try:
        t = Tables(store)
        lobby = await t.create(ALICE, "alice", "dungeon-lair", seed=SEED)
        await t.join(lobby.game_id, BOB, "bob")
        await t.start(lobby.game_id, ALICE)
        row = await store.get(lobby.game_id)
        assert row is not None and row.state is not None
        assert row.state["current"] == 0 and row.seats[0].user_id == ALICE
        assert sorted(row.state["hands"][0]) == [2, 32]
        room = next(a for a in GAME.legal_actions(row.state, 0) if a.get("t") == 32)
        await t.act(lobby.game_id, ALICE, GAME.format(room))
        await t.act(lobby.game_id, ALICE, "pass")
        row = await store.get(lobby.game_id)
        assert row is not None and row.state is not None
        shown = row.state["hands"][1][-1]  # what Bob was told he drew
        with pytest.raises(TableError):
            await t.undo(lobby.game_id, ALICE)
        row = await store.get(lobby.game_id)
        assert row is not None and row.state is not None
        assert shown in row.state["hands"][1] and shown not in row.state["deck"]
    finally:
        await store.close()


# ---- item 4: a refusal never repeats the whole input ---------------------------------------------


@pytest.mark.parametrize("text", ["T17 " + "x" * 3000, "S " + "y" * 3000, "M 0,0 " + "z" * 3000])
def test_a_refusal_quotes_at_most_40_characters(text: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        GAME.parse(text)
    sentence = str(refused.value)
    assert len(sentence) < 160 and "x" * 41 not in sentence and "y" * 41 not in sentence
    assert "z" * 41 not in sentence


# ---- item 17: malformed move objects ---------------------------------------------------------------


def _variants(move: dict[str, Any]) -> list[Any]:
    """The move with each field removed, retyped, emptied, and pairs of fields swapped."""
    out: list[Any] = []
    for k, v in move.items():
        out.append({x: y for x, y in move.items() if x != k})
        for bad in ("", None, [], True, 1.5, str(v), [v], {"v": v}):
            if bad != v or type(bad) is not type(v):
                out.append({**move, k: bad})
    keys = list(move)
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if move[a] != move[b]:
                out.append({**move, a: move[b], b: move[a]})
    return out


def test_the_issue_move_object_is_refused_in_one_sentence() -> None:
    s = new(2, deck=[ROOM4[1]], hands=[[28], [29]], tiles=board(("0,0", 30, 0)))
    s = act(s, 0, "T28 0,-1 0")
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, 0, {"a": "monster", "s": "S", "from": "hand", "to": ""})
    assert str(refused.value).endswith(".") and "\n" not in str(refused.value)
    assert json.dumps(s, sort_keys=True) == before


@pytest.mark.parametrize("seed", range(3))
def test_malformed_versions_of_legal_moves_are_refused_and_change_nothing(seed: int) -> None:
    rnd = random.Random(seed)
    s = GAME.new(3, None, seed)
    for _ in range(40):
        seat = s["current"]
        legal = GAME.legal_actions(s, seat)
        before = json.dumps(s, sort_keys=True)
        for move in rnd.sample(legal, min(4, len(legal))):
            for bad in _variants(move):
                if bad in legal:
                    continue
                with pytest.raises(IllegalAction) as refused:
                    GAME.apply(s, seat, bad)
                assert str(refused.value).strip() and len(str(refused.value)) < 200, bad
                assert json.dumps(s, sort_keys=True) == before, bad
        s, _ = GAME.apply(s, seat, rnd.choice(legal))
        if GAME.is_over(s):
            break


# ---- issue 26: what a turn is, the header, the chooser -----------------------------------------------


def test_a_turn_is_the_tiles_placed_and_one_monster_action() -> None:
    s = new(
        2,
        deck=[STRAIGHT[1], STRAIGHT[2], ROOM4[1], ROOM4[2]],
        hands=[[STRAIGHT[0]], [29]],
        tiles=board(("0,0", ROOM4[0], 0)),
    )
    turn = GAME.turn_id(s)
    s = act(s, 0, "T1 0,-1 0")  # a corridor with a free exit: the chain goes on in the same turn
    s = act(s, 0, "draw")
    assert GAME.turn_id(s) == turn
    chain = next(a for a in GAME.legal_actions(s, 0) if a["a"] == "tile")
    s, _ = GAME.apply(s, 0, chain)
    assert GAME.turn_id(s) == turn
    s = act(s, 0, "pass")
    assert GAME.turn_id(s) != turn and GAME.to_act(s) == {1}


def test_the_header_shows_the_seats_own_tiles_and_monsters_only() -> None:
    s = GAME.new(3, None, 5)
    for seat in range(3):
        head = GAME.header(s, seat)
        letters = GAME.hand_letters(s, seat)
        assert len(head) <= 400 and "Monsters in hand: 3 small, 2 big, 1 huge." in head
        for t in s["hands"][seat]:
            assert f"{letters[t]} {TILES[t].name} (T{t})" in head
        for other in range(3):
            if other != seat:
                assert all(f"(T{t})" not in head for t in s["hands"][other])


def _walk(state: dict, seat: int, prefix: list[str], seen: list) -> None:
    choice = GAME.chooser(state, seat, prefix)
    tokens = [t for t, _ in choice.options]
    places = bool(tokens) and all(parse_area(t) == t for t in tokens)
    turns = bool(tokens) and all(t[0] == "r" and t[1:].isdigit() for t in tokens)
    groups = bool(tokens) and all(t[0] == "g" and t[1:].isdigit() for t in tokens)
    if places or turns or groups:
        assert choice.preview is not None, prefix
        shown = [p["label"] for p in choice.preview["places"]]
        if groups:  # every place of every part, labelled "Part N" as its option begins
            assert set(shown) == {label.split(":")[0] for _, label in choice.options}
            seen.append(("group", choice.preview, GAME.view(state, seat)))
        else:
            assert shown == [label.split(":")[0] for _, label in choice.options]
            seen.append(("place", choice.preview, GAME.view(state, seat)))
        if places:
            assert shown == tokens  # each place labelled exactly as its option names it
    for token in tokens[:2]:
        _walk(state, seat, [*prefix, token], seen)


def test_every_place_or_turn_step_has_a_labelled_preview(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import dungeon_lair as R

    rnd = random.Random(2)
    s = GAME.new(2, None, 3)
    seen: list = []
    for k in range(120):
        seat = s["current"]
        if k % 3 == 0:
            _walk(s, seat, [], seen)
        s, _ = GAME.apply(s, seat, rnd.choice(GAME.legal_actions(s, seat)))
        if GAME.is_over(s):
            break
    assert {pv["kind"] for _, pv, _ in seen} == {"tile", "monster"}
    assert {step for step, _, _ in seen} == {"place", "group"}  # more than 25 places were grouped
    drawn: list[str] = []
    real = R.text
    monkeypatch.setattr(R, "text", lambda d, xy, s, *a, **k: (drawn.append(s), real(d, xy, s, *a, **k)))
    # Every monster preview (a bridge's two rooms share a cell) and a sample of the tile ones.
    for k, (_, pv, view) in enumerate(seen):
        if pv["kind"] == "tile" and k % 6:
            continue
        drawn.clear()
        png = R.preview(view, pv, render.default_names(2))
        assert png.startswith(b"\x89PNG")
        assert all(p["label"] in drawn for p in pv["places"]), pv


def test_a_place_is_one_step_when_25_or_fewer_are_open() -> None:
    rnd = random.Random(1)
    s = GAME.new(2, None, 8)
    checked = 0
    for _ in range(60):
        seat = s["current"]
        legal = GAME.legal_actions(s, seat)
        several = len({a["t"] for a in legal if a["a"] in ("tile", "remove")}) > 1
        for a in legal:
            if a["a"] != "tile":
                continue
            cells = {b["at"] for b in legal if b.get("t") == a["t"] and b["a"] == "tile"}
            turns = sum(1 for b in legal if b.get("t") == a["t"] and b.get("at") == a["at"])
            if len(cells) <= 25:
                steps = GAME.segments(s, seat, a)
                assert len(steps) == int(several) + 1 + int(turns > 1), steps
                checked += 1
        s, _ = GAME.apply(s, seat, rnd.choice(legal))
    assert checked > 50


# ---- the revision ---------------------------------------------------------------------------------------


def test_a_revision_2_game_replays_exactly_and_an_upgraded_one_plays_to_the_end() -> None:
    a, b = GAME.new(2, None, 9, revision=2), GAME.new(2, None, 9)
    assert GAME.rules_revision(a) == 2 and GAME.rules_revision(b) == 3
    rnd = random.Random(9)
    for _ in range(30):
        seat = a["current"]
        move = rnd.choice(GAME.legal_actions(a, seat))
        a, _ = GAME.apply(a, seat, move)
        b, _ = GAME.apply(b, seat, move)
        assert {k: v for k, v in a.items() if k not in ("revision", "last")} == {
            k: v for k, v in b.items() if k not in ("revision", "last")
        }
    up = GAME.upgrade(a)
    assert GAME.rules_revision(up) == 3 and GAME.changes(2)
    while not GAME.is_over(up):
        seat = up["current"]
        up, _ = GAME.apply(up, seat, GAME.ai_action(up, seat))
    assert GAME.result(up).winners
