"""Issue 26 for Dungeon Lords: what a turn is (turn_id), the private turn message's header,
the picture of every place chosen, and Combat Cards in words on the boards."""

from __future__ import annotations

import random
from typing import Any

import pytest

import render
from engine.dungeon_lords import board
from engine.dungeon_lords.data import TRAPS
from render import dungeon_lords as R

from .helpers import G, act, new_x

SIMULTANEOUS = ("inacc", "orders", "plan", "production", "festival", "pet_pass", "pet_discard")


def _game(players: int, seed: int, options: dict[str, Any] | None = None) -> list[tuple[dict, int, Any]]:
    """Every (state, seat, move) of one AI game, random seats among those to act."""
    rnd = random.Random(seed)
    s = G.new(players, options, seed)
    out = []
    while not G.is_over(s):
        seat = rnd.choice(sorted(G.to_act(s)))
        move = G.ai_action(s, seat)
        out.append((s, seat, move))
        s, _ = G.apply(s, seat, move)
    out.append((s, -1, None))
    return out


GAMES = [(2, 1, None), (3, 2, {"expansion": False}), (4, 3, None)]


@pytest.fixture(scope="module")
def games() -> list[list[tuple[dict, int, Any]]]:
    return [_game(*g) for g in GAMES]


def test_a_simultaneous_phase_is_one_turn_until_every_choice_is_in(games: list) -> None:
    # "In a simultaneous phase (Dungeon Lords orders and battle plans ...) the board comes when the
    # phase's choices are all in": while several seats still choose, the turn does not change.
    phases = 0
    for moves in games:
        for (s, _, _), (after, _, _) in zip(moves, moves[1:], strict=False):
            if s["phase"] in SIMULTANEOUS and len(G.to_act(s)) > 1:
                assert G.turn_id(after) == G.turn_id(s), (s["phase"], G.turn_id(after))
            if s["phase"] == "orders" and after["phase"] != "orders":
                phases += 1
                assert G.turn_id(after) != G.turn_id(s)
    assert phases >= 3 * 8


def test_every_move_that_ends_a_lord_s_turn_changes_the_turn(games: list) -> None:
    """A minion's action on its space (all its tunnels, a room, a monster, a Trap Card given back)
    is one turn; the next minion is a new turn even when it is the same lord's."""
    same_lord_twice = digs_in_one_turn = 0
    for moves in games:
        for (s, _seat, move), (after, _, _) in zip(moves, moves[1:], strict=False):
            t, t2 = s.get("task"), after.get("task")
            if s["phase"] in SIMULTANEOUS or not t:
                continue
            key = (s["phase"], len(s["queue"]), len(s.get("payq") or []))
            key2 = (after["phase"], len(after["queue"]), len(after.get("payq") or []))
            if t2 and key == key2 and t2["seat"] == t["seat"]:
                assert G.turn_id(after) == G.turn_id(s), move  # the turn goes on
                digs_in_one_turn += t["type"] == "dig"
            else:
                assert G.turn_id(after) != G.turn_id(s), (move, G.turn_id(s))
                same_lord_twice += bool(t2 and t2["seat"] == t["seat"])
    assert digs_in_one_turn >= 3 and same_lord_twice >= 3, (digs_in_one_turn, same_lord_twice)


def test_digging_every_tunnel_of_one_order_is_one_turn() -> None:
    s = new_x(2, seed=4)
    s["phase"], s["queue"] = "resolve", []
    s["played"] = {"0": [{"loc": "dig", "ok": True}], "1": []}
    s["task"] = {"type": "dig", "seat": 0, "loc": "dig", "space": 2, "cap": 3, "n": 0}
    turn = G.turn_id(s)
    s = act(s, 0, "dig B1")
    assert G.turn_id(s) == turn and s["task"]
    s = act(s, 0, "dig D3")
    assert G.turn_id(s) == turn
    assert G.header(s, 0).endswith("This turn: 2 tunnels dug, at most 3")  # what the turn has done
    s = act(s, 0, "done")
    assert G.turn_id(s) != turn


def test_the_header_shows_the_seat_s_resources_and_hand_only(games: list) -> None:
    checked = 0
    for moves in games:
        for s, _, _ in moves[::7]:
            for seat in range(s["seats"]):
                h = G.header(s, seat)
                p = s["players"][seat]
                assert 0 < len(h) <= 400, h
                assert h.startswith(f"Gold {p['gold']} · Food {p['food']} · Imps ")
                assert f"Evil {p['evil']}" in h and "Monsters: " in h and "Trap Cards: " in h
                assert "{" not in h and "_" not in h, h
                others = {t for q in s["players"] if q is not p for t in q["traps"]} - set(p["traps"])
                assert not any(TRAPS[t]["name"] in h for t in others), h
                checked += 1
    assert checked > 100


def test_the_header_lists_the_orders_in_hand_while_orders_are_given() -> None:
    s = new_x(3, seed=2)
    while s["phase"] != "orders":
        seat = min(G.to_act(s))
        s, _ = G.apply(s, seat, G.ai_action(s, seat))
    seat = min(G.to_act(s))
    h = G.header(s, seat)
    hand = board.hand(s["players"][seat])
    assert "Orders in hand: " in h and all(
        name in h for name in [G.view(s, seat)["components"]["locations"][c] for c in hand]
    )


def _place_steps(moves: list) -> list[tuple[dict, int, list[str], Any]]:
    """Chooser steps whose options name a square of the seat's dungeon."""
    from engine.dungeon_lords.notation import place_of

    out = []
    for s, seat, move in moves[:-1]:
        segs = [t for t, _ in G.segments(s, seat, move)] if s["phase"] != "orders" else []
        for k in range(len(segs) + 1):
            ch = G.chooser(s, seat, segs[:k])
            if any(place_of(t, s["phase"] == "plan") for t, _ in ch.options):
                out.append((s, seat, segs[:k], ch))
    return out


def test_every_step_choosing_a_place_carries_its_picture_labelled_as_the_options_name_it(
    games: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    real = R.text
    monkeypatch.setattr(R, "text", lambda d, xy, s, *a, **k: (drawn.append(s), real(d, xy, s, *a, **k)))
    kinds = set()
    for moves in games:
        for s, seat, prefix, ch in _place_steps(moves):
            kinds.add(((s.get("task") or {}).get("type") or s["phase"], len(prefix)))
            assert ch.preview and ch.preview["seat"] == seat, ch
            places = ch.preview["places"]
            assert len(ch.options) <= 25
            for c in places:  # each candidate is named by an option, by the same name
                assert any(c in lbl.split() or f"{c}:" in lbl or f"{c}," in lbl for _, lbl in ch.options), (
                    c,
                    ch,
                )
            if len(kinds) < 12 or random.Random(len(drawn)).random() < 0.05:
                drawn.clear()
                png = render.get("dungeon-lords").preview(
                    G.view(s, seat), ch.preview, render.default_names(s["seats"])
                )
                assert png.startswith(b"\x89PNG")
                assert all(c in drawn for c in places if not c.startswith("R")), (places, drawn)
    assert {("dig", 0), ("build", 1), ("plan", 0)} <= kinds, kinds


def test_a_place_step_is_one_select_and_a_non_place_step_has_no_picture() -> None:
    s = new_x(2, seed=4)
    s["phase"], s["queue"] = "resolve", []
    s["played"] = {"0": [{"loc": "dig", "ok": True}], "1": []}
    s["task"] = {"type": "dig", "seat": 0, "loc": "dig", "space": 2, "cap": 3, "n": 0}
    ch = G.chooser(s, 0, [])
    assert ch.prompt.startswith("Dig Tunnels: choose the square")
    assert sorted(ch.preview["places"]) == sorted(board.dig_cells(s["players"][0]))
    assert ("done", "Stop digging") in ch.options
    s2 = new_x(4, seed=1)  # the orders name no place: no picture
    while s2["phase"] != "orders":
        seat = min(G.to_act(s2))
        s2, _ = G.apply(s2, seat, G.ai_action(s2, seat))
    assert G.chooser(s2, 0, []).preview is None


def test_combat_cards_are_printed_in_words(games: list) -> None:
    seen = 0
    for moves in games:
        for s, _, _ in moves:
            if not s["combat"]["round"]:
                continue
            view = G.view(s, None)
            lines = " ".join(x for x, _ in R._offer_lines(view, render.default_names(s["seats"])))
            assert "{" not in lines and "'name'" not in lines, lines
            if any(view["combat_cards"]):
                assert "spell, fatigue " in lines, lines
                seen += 1
    assert seen > 10
    view = G.view(games[0][0][0], 0)
    view["private"]["seen_cards"] = {"1": "invisibility"}
    view["components"]["cards"]["invisibility"] = {"name": "Invisibility", "speed": "fast", "fatigue": 0}
    text = " ".join(x for x, _ in R.hand_lines(view))
    assert "1 Invisibility (fast spell, fatigue 0)" in text and "{" not in text
