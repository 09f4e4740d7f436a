"""Paladin, adventurers, locations, production, events, Year 2, scoring."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_lords import board
from engine.dungeon_lords.scoring import breakdown, title_holders

from .helpers import G, act, adv, ai_until, new

# ---- the paladin (F-pal) ------------------------------------------------------------------


def pal_state(n: int = 3) -> dict:
    s = new(n, seed=6)
    s["start"] = 0
    return s


def test_paladin_enters_when_a_counter_reaches_the_paladin_space() -> None:
    s = pal_state()
    ev: list = []
    board.move_evil(s, 1, 4, ev)  # 5 -> 9: below the space
    assert s["paladins"][0]["status"] == "tent"
    board.move_evil(s, 1, 1, ev)
    assert s["paladins"][0]["status"] == "field" and s["paladins"][0]["at"] == 1
    assert any("paladin" in e.text.lower() for e in ev)


def test_paladin_moves_only_to_a_strictly_more_evil_player_on_the_space() -> None:
    s = pal_state()
    board.move_evil(s, 1, 5, [])  # P2 at 10 gets him
    board.move_evil(s, 2, 5, [])  # P3 at 10: a tie -> he stays
    assert s["paladins"][0]["at"] == 1
    board.move_evil(s, 2, 1, [])  # P3 at 11 -> he moves
    assert s["paladins"][0]["at"] == 2
    board.move_evil(s, 1, -5, [])  # P2 drops to 5
    board.move_evil(s, 2, -5, [])  # P3 drops below the space: he does not leave
    assert s["paladins"][0]["at"] == 2 and s["paladins"][0]["status"] == "field"
    board.move_evil(s, 1, 5, [])  # P2 back on the space, above P3: he moves
    assert s["paladins"][0]["at"] == 1


def test_paladin_never_goes_to_a_player_below_the_space() -> None:
    s = pal_state()
    board.move_evil(s, 1, 5, [])
    board.move_evil(s, 1, -3, [])  # P2 at 7 keeps him
    board.move_evil(s, 0, 4, [])  # P1 at 9 is more evil but below the space
    assert s["paladins"][0]["at"] == 1


def test_paladin_ties_between_new_candidates_go_last_in_play_order() -> None:
    s = pal_state()
    for p in s["players"]:
        p["evil"] = 12
    board.check_paladin(s, [])
    assert s["paladins"][0]["at"] == 2  # start is P1: P3 is last in play order
    s = pal_state()
    s["start"] = 2
    for p in s["players"]:
        p["evil"] = 12
    board.check_paladin(s, [])
    assert s["paladins"][0]["at"] == 1


# ---- adventurers ---------------------------------------------------------------------------


def test_adventurers_go_by_evilness_warriors_in_front() -> None:
    s = new(3, seed=7)
    s["start"] = 0
    s["players"][0]["evil"] = 3
    s["players"][1]["evil"] = 8
    s["players"][2]["evil"] = 6
    s["players"][1]["party"] = [adv("priest", 3, 1, uid="old")]
    s["advs"] = [adv("thief", 3, 1, 1, "t"), adv("priest", 3, 1, 2, "p"), adv("warrior", 5, 0, 3, "w")]
    G._assign_adventurers(s, [])
    assert [a["uid"] for a in s["players"][1]["party"]] == ["w", "old"]  # strongest, warrior to the front
    assert [a["uid"] for a in s["players"][2]["party"]] == ["p"]
    assert [a["uid"] for a in s["players"][0]["party"]] == ["t"]


def test_evil_ties_make_the_later_player_more_evil() -> None:
    s = new(3, seed=7)
    s["start"] = 1
    s["advs"] = [adv("thief", 3, 1, 1, "t"), adv("priest", 3, 1, 2, "p"), adv("wizard", 3, 1, 3, "z")]
    G._assign_adventurers(s, [])
    # play order 2,3,1: P1 (seat 0) is last and most evil, P2 (the starting player) the nicest.
    assert s["players"][0]["party"][0]["uid"] == "z" and s["players"][1]["party"][0]["uid"] == "t"


def test_two_player_non_player_dungeon_takes_an_adventurer() -> None:
    s = new(2, seed=7)
    s["dummy"]["evil"] = 15
    s["advs"] = [adv("thief", 3, 1, 1, "t"), adv("priest", 3, 1, 2, "p"), adv("wizard", 3, 1, 3, "z")]
    G._assign_adventurers(s, [])
    assert [a["uid"] for a in s["dummy"]["party"]] == ["z"]


# ---- locations -----------------------------------------------------------------------------


def resolve_state(locs: list[list[str]], n: int = 4, seed: int = 3) -> dict:
    s = new(n, seed=seed)
    for p in s["players"]:
        p["inacc"] = []
    if s["phase"] == "dummy":
        s = act(s, s["start"], G.legal_actions(s, s["start"])[0])
    for seat in range(n):
        s = act(s, seat, "orders " + " ".join(locs[seat]))
    return s


def test_get_food_spaces() -> None:
    s = resolve_state([["food", "rep", "mine"]] * 4)
    order = board.play_order(s)
    # The first three minions in play order took spaces I, II, III.
    p1, p2, p3 = (s["players"][x] for x in order[:3])
    assert (p1["food"], p1["gold"]) == (5, 2)
    assert p2["food"] == 6
    assert (p3["food"], p3["gold"]) == (6, 3 + 1 - 1)  # +1 gold from food III, -1 for reputation III


def test_reputation_peek_is_private() -> None:
    s = new(2, seed=3)
    for p in s["players"]:
        p["inacc"] = []
    s = act(s, s["start"], "dummy food")
    s, ev = G.apply(s, 0, G.parse("orders rep mine dig"))
    s, ev = G.apply(s, 1, G.parse("orders rep mine dig"))
    private = [e for e in ev if e.seat is not None and "Combat Card" in e.text]
    public = [e.text for e in ev if e.seat is None]
    assert private and not any("Combat Card 1" in t for t in public)
    seer = private[0].seat
    assert G.view(s, seer)["private"]["seen_cards"] and "private" not in G.view(s, None)


def test_dig_tunnels_adjacent_no_square_and_imps_busy() -> None:
    s = resolve_state(
        [["dig", "food", "rep"], ["food", "rep", "imps"], ["food", "rep", "imps"], ["rep", "food", "imps"]]
    )
    seat = s["task"]["seat"]
    assert s["task"]["type"] == "dig" and s["task"]["cap"] == 2
    with pytest.raises(IllegalAction):
        act(s, seat, "dig A1")  # not next to the dungeon
    s = act(s, seat, "dig B1")
    assert s["players"][seat]["used"] == 1
    with pytest.raises(IllegalAction):
        act(s, seat, "dig B2")  # would complete a 2x2 block with B1, C1, C2
    s = act(s, seat, "dig D3")
    assert {"B1", "D3"} <= set(s["players"][seat]["grid"])


def test_mine_needs_unconquered_tunnels() -> None:
    s = resolve_state(
        [["mine", "food", "rep"], ["food", "rep", "imps"], ["food", "rep", "imps"], ["rep", "food", "imps"]]
    )
    seat = s["task"]["seat"]
    s2 = s
    assert s["task"]["cap"] == 2
    s["players"][seat]["grid"]["C1"]["c"] = True
    s["players"][seat]["grid"]["C2"]["c"] = True
    s["task"]["cap"] = min(s["task"]["cap"], len(board.tunnels(s["players"][seat], True)))
    assert s2["task"]["cap"] == 1


def test_hire_space_three_chooses_first_and_pays_one_food_more() -> None:
    s = resolve_state([["monster", "food", "rep"]] * 4, seed=5)
    t = s["task"]
    assert t["space"] == 2
    seat = t["seat"]
    offer = list(s["offer"]["monsters"])
    mid = next(m for m in offer if "food" in G_cost(m))
    food = s["players"][seat]["food"]
    s = act(s, seat, f"hire {mid}")
    assert s["players"][seat]["food"] == food - G_cost(mid)["food"] - 1
    assert s["players"][seat]["monsters"] == [{"id": mid, "up": True}]
    assert len(s["offer"]["monsters"]) == 2


def G_cost(mid: str) -> dict:
    return board.monster_cost(mid)


def test_build_room_only_on_an_unconquered_tunnel_in_its_zone_not_next_to_a_room() -> None:
    s = new(2)
    p = s["players"][0]
    assert board.room_cells(p, "hatchery") == ["C1", "C2"]
    assert board.room_cells(p, "mint") == ["C3"]
    p["grid"]["C2"] = {"k": "r", "room": "press", "c": False}
    assert board.room_cells(p, "hatchery") == [] and board.room_cells(p, "mint") == []
    p["grid"]["C1"]["c"] = True
    assert "C1" not in board.room_cells(p, "labyrinth")
    assert board.room_cells(p, "labyrinth") == []  # C3 is next to the room on C2


def test_year_two_rooms_have_no_zone() -> None:
    s = new(2)
    p = s["players"][0]
    assert board.room_cells(p, "chapel") == ["C1", "C2", "C3"]


def test_year_two_buy_traps_draws_one_extra_and_returns_one() -> None:
    s = new(4, seed=3)
    s["year"] = 2
    for p in s["players"]:
        p["inacc"] = []
        p["gold"] = 9
    for seat in range(4):
        s = act(s, seat, "orders traps food rep")
    t = s["task"]
    assert t["type"] == "return"
    seat = t["seat"]
    assert len(s["players"][seat]["traps"]) == 2
    s = act(s, seat, f"return {s['players'][seat]['traps'][0]}")
    assert len(s["players"][seat]["traps"]) == 1


def test_unpayable_order_returns_to_hand() -> None:
    s = new(4, seed=3)
    for p in s["players"]:
        p["inacc"] = []
        p["gold"] = 0
    for seat in range(4):
        s = act(s, seat, "orders food traps rep")  # food I costs gold; traps I costs gold
    s = ai_until(s, lambda st: st["round"] == 2)
    first = board.play_order({**s, "start": (s["start"] - 1) % 4})[0]
    assert "traps" not in s["players"][first]["inacc"]


# ---- production ---------------------------------------------------------------------------


def prod_state() -> dict:
    s = new(2)
    s["phase"] = "production"
    s["done"] = [1]
    p = s["players"][0]
    p["grid"]["C2"] = {"k": "r", "room": "magic", "c": False}
    p["imps"] = 4
    return s


def test_magic_room_new_imp_is_usable_at_once_and_rooms_once_a_round_in_year_one() -> None:
    s = prod_state()
    s["players"][0]["grid"]["C1"] = {"k": "t", "c": False}
    s["players"][0]["grid"]["C3"] = {"k": "r", "room": "mint", "c": False}
    s = act(s, 0, "use magic")
    p = s["players"][0]
    assert (p["imps"], p["used"], p["food"]) == (5, 2, 2)
    s = act(s, 0, "use mint")  # 3 free imps: the new one works at once
    assert s["players"][0]["gold"] == 4
    assert s["phase"] != "production" or 0 in s["done"]


def test_year_two_allows_first_year_rooms_twice() -> None:
    s = prod_state()
    s["year"] = 2
    s["players"][0]["imps"] = 8
    s = act(s, 0, "use magic")
    s = act(s, 0, "use magic")
    assert s["players"][0]["imps"] == 10
    with pytest.raises(IllegalAction):
        act(s, 0, "use magic")


def test_troll_tokens_work_rooms_but_are_not_imps() -> None:
    s = prod_state()
    p = s["players"][0]
    p["imps"] = 0
    p["monsters"] = [{"id": "troll", "up": True}, {"id": "troll", "up": True}]
    s = act(s, 0, "use magic")  # two Troll Tokens make a real imp
    assert s["players"][0]["imps"] == 1
    # Lord of Imps counts imps, not Troll Tokens: with 1 imp and 2 trolls against a lord
    # with 2 imps, the title is the other lord's alone (3 points), none for this one.
    s["players"][1]["imps"] = 2
    assert breakdown(s, 0).get("Lord of Imps", 0) == 0
    assert breakdown(s, 1).get("Lord of Imps", 0) == 3


# ---- events -------------------------------------------------------------------------------


def event_state(tile: str) -> dict:
    s = new(2)
    s["round"] = 2
    s["event"] = tile
    s["phase"] = "event"
    s["advs"] = []
    return s


def test_taxes_and_penalties() -> None:
    s = event_state("taxes")
    s["players"][0]["grid"].update(
        {"B1": {"k": "t", "c": False}, "D1": {"k": "r", "room": "shop", "c": True}}
    )
    s["players"][0]["gold"] = 1
    G._advance(s, [])
    # Issue 20's one source for the amount: "1 gold per two rooms or tunnels, rounded up".
    assert s["players"][0]["gold"] == 0 and s["players"][0]["penalty"] == 2  # 5 tiles -> 3 gold due
    assert s["players"][1]["gold"] == 1  # 3 tiles -> 2 gold (rounded up, not down)


def test_pay_day_pay_or_release_for_one_evil() -> None:
    s = event_state("payday")
    s["start"] = 0
    s["players"][0]["monsters"] = [{"id": "troll", "up": True}, {"id": "ghost", "up": True}]
    s["players"][0]["food"] = 1
    G._advance(s, [])
    assert G.to_act(s) == {0}
    assert G.legal_actions(s, 0) == ["release troll", "release ghost"]
    evil = s["players"][0]["evil"]
    s = act(s, 0, "release troll")
    assert s["players"][0]["evil"] == evil + 1
    s = act(s, 0, "pay")
    assert s["players"][0]["evil"] == evil + 2 and [m["id"] for m in s["players"][0]["monsters"]] == ["ghost"]


@pytest.mark.parametrize(
    "sid",
    ["witchhunt", "strike", "audit", "harvest", "goldrush", "inquisition", "pilgrims", "impflu", "pardon"],
)
def test_special_events(sid: str) -> None:
    s = event_state("special")
    s["decks"]["1"]["specials"] = [sid]
    p = s["players"][0]
    p.update(gold=5, food=0, imps=6, evil=8)
    p["monsters"] = [{"id": "witch", "up": True}, {"id": "troll", "up": True}]
    G._advance(s, [])
    p = s["players"][0]
    expect = {
        "witchhunt": lambda: p["gold"] == 4 and len(p["monsters"]) == 2,
        # B-sf (the one source): a monster not paid for "is turned face down" - it stays.
        "strike": lambda: len(p["monsters"]) == 2 and all(m["up"] is False for m in p["monsters"]),
        "audit": lambda: p["gold"] == 3,
        "harvest": lambda: p["food"] == 2,
        "goldrush": lambda: p["gold"] == 7,
        "inquisition": lambda: p["evil"] == 9,
        "pilgrims": lambda: p["gold"] == 5 and s["players"][1]["gold"] == 5,
        "impflu": lambda: p["imps"] == 5 and s["players"][1]["imps"] == 3,
        "pardon": lambda: p["evil"] == 7,
    }
    assert expect[sid](), sid
    assert sid in G.view(s, None)["specials_seen"]


# ---- Year 2 and scoring ---------------------------------------------------------------------------


def test_second_year_resets_monsters_and_brings_a_new_paladin() -> None:
    s = new(2, seed=11)
    s = ai_until(s, lambda st: st["year"] == 2)
    assert s["round"] == 1 and all(m["up"] is True for p in s["players"] for m in p["monsters"])
    assert len(s["paladins"]) == 2 and s["paladins"][0]["status"] in ("gone", "captured")
    assert all(not p["party"] for p in s["players"])


def test_titles_single_and_shared() -> None:
    s = new(3)
    ps = s["players"]
    ps[0]["evil"], ps[1]["evil"], ps[2]["evil"] = 9, 9, 3
    ps[0]["imps"] = 8
    holders = title_holders(s)
    assert holders["dark-deeds"] == [0, 1] and holders["imps"] == [0]
    assert holders["halls"] == []  # nobody has a room
    b0 = breakdown(s, 0)
    assert b0["Lord of Dark Deeds"] == 2 and b0["Lord of Imps"] == 3


def test_scoring_categories() -> None:
    s = new(2)
    p = s["players"][0]
    p["grid"]["C2"] = {"k": "r", "room": "chapel", "c": True}
    p["prison"] = [adv("thief", 3, 1), {"cls": "paladin", "points": 5, "hp": 6, "dmg": 6}]
    p["monsters"] = [{"id": "ghost", "up": True}]
    p["penalty"] = 1
    b = breakdown(s, 0)
    assert b["rooms"] == 2 and b["conquered tiles"] == -2 and b["prisoners"] == 7
    # The conquered Chapel still counts as a room ("Conquered rented rooms do count as conquered
    # dungeon tiles (but not as rooms)" - so other conquered rooms do), but its effect is gone:
    # tiles "lose their effect when conquered" (Festival Season, Secret Passage).
    assert b["monsters"] == 1 and b["tax penalties"] == -3 and b["scoring rooms"] == 0
    r = G.result({**s, "phase": "over"})
    assert r.scores[0] == sum(b.values())
    p["grid"]["C2"]["c"] = False
    assert breakdown(s, 0)["scoring rooms"] == 2


def test_evil_costs_cannot_push_past_the_top() -> None:
    s = new(2)
    p = s["players"][0]
    p["evil"] = 15
    assert not board.can_pay(p, {"evil": 1})
    board.move_evil(s, 0, 3, [])
    assert p["evil"] == 15
    board.move_evil(s, 0, -30, [])
    assert p["evil"] == 1
