"""Festival Season: the unique opportunities, improved tunnels, the festival, pets,
rented rooms, installed traps - and that their secrets stay secret."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import IllegalAction
from engine.dungeon_lords import festival, production, scoring, tasks
from engine.dungeon_lords.data import BOARDS
from render import dungeon_lords as render

from .helpers import G, act, ai_until, new_x


def at_board(bid: str, n: int = 3, seed: int = 2) -> dict[str, Any]:
    """A state in the Orders resolution of season 2 with board ``bid`` on offer."""
    others = [b for b in BOARDS if b != bid]
    s = new_x(n, seed=seed, opps=[bid] + others)
    s = ai_until(s, lambda st: st["round"] == 2)
    assert s["opps"]["now"] == bid
    s["phase"] = "resolve"
    s["queue"] = []
    s["task"] = None
    for p in s["players"]:
        p.update(gold=6, food=6, imps=6, used=0, evil=5)
    return s


def resolve(s: dict[str, Any], seat: int, space: int) -> dict[str, Any]:
    """Resolve one minion on the board (the flow moves on to Production after each action)."""
    s["phase"] = "resolve"
    s["queue"] = []
    ev: list[Any] = []
    festival.resolve(G, s, seat, space, ev)
    return s


def test_boards_are_revealed_a_round_ahead_and_each_used_once() -> None:
    s = new_x(3, seed=3)
    first = s["opps"]["next"]
    assert first is not None and s["opps"]["now"] is None
    assert G.view(s, None)["opps"]["next"] == first
    seen = []
    for r in range(2, 6):
        s = ai_until(s, lambda st, r=r: st["round"] == r)
        seen.append(s["opps"]["now"])
        assert s["opps"]["next"] == (s["opps"]["1"][0] if r < 5 else None)
    assert seen[0] == first and len(set(seen)) == 4
    s = ai_until(s, lambda st: st["year"] == 2 and st["round"] == 2, limit=8000)
    assert s["opps"]["now"] not in seen


def test_the_board_replaces_its_location_and_resolves_in_its_own_order() -> None:
    s = new_x(3, seed=2, opps=["improve"] + [b for b in BOARDS if b != "improve"])
    s = ai_until(s, lambda st: st["round"] == 2 and st["phase"] == "orders")
    s["dummy"]["cards"] = ["food", "rep", "imps"]
    s["start"] = 0
    for seat in range(3):
        s["players"][seat]["inacc"] = []
        s["orders"][str(seat)] = ["dig", "food", "mine"]
    G._reveal_orders(s, [])
    assert s["board"]["dig"] == [0, 1, 2]
    assert [t["space"] for t in s["queue"] if t["loc"] == "dig"] == [1, 2, 0]  # Improve Tunnels: II, III, I
    s["queue"] = [t for t in s["queue"] if t["loc"] == "dig"]
    for p in s["players"]:
        p["grid"]["C2"]["c"] = True  # something to deconquer
    tasks.resolve_next(G, s, [])
    assert s["task"]["type"] == "improve" and s["task"]["seat"] == 1


def test_harvest_food_foreimps_and_space_three_lowers_evil() -> None:
    s = at_board("harvest")
    s = resolve(s, 0, 0)
    assert s["task"]["cap"] == 2
    s = act(s, 0, "harvest 2")
    p = s["players"][0]
    assert p["food"] == 8 and p["used"] == 3
    s = resolve(s, 1, 2)
    s = act(s, 1, "harvest 0")  # only the two foreimps: still Evil -1
    assert s["players"][1]["evil"] == 4 and s["players"][1]["used"] == 2


def test_masquerade_spaces() -> None:
    s = at_board("masquerade")
    s = resolve(s, 0, 0)
    assert s["players"][0]["gold"] == 7 and [p["evil"] for p in s["players"]] == [5, 6, 6]
    s = resolve(s, 1, 1)
    cards = list(s["decks"]["1"]["cards"])
    s, ev = G.apply(s, 1, "look 4")
    assert any(e.seat == 1 and "Combat Card 4" in e.text for e in ev)
    assert not any(e.seat is None and cards[3] in e.text for e in ev)
    s = act(s, 1, "put 1")
    assert s["decks"]["1"]["cards"][0] == cards[3]
    assert "put it in position 1" in s["log"][-1]
    s = resolve(s, 2, 2)  # pays 1 gold: Evil -1 for P3, +1 for the others, a look without moving
    assert s["players"][2]["gold"] == 5 and s["players"][2]["evil"] == 7 - 1
    s = act(s, 2, "look 2")
    assert s["task"] is None


def test_improve_tunnels_two_improvements_on_space_one_no_mixing() -> None:
    s = at_board("improve")
    p = s["players"][0]
    p["grid"]["C2"]["c"] = True
    s = resolve(s, 0, 0)
    acts = G.legal_actions(s, 0)
    assert "improve C3 mithril" in acts and "deconquer C2" in acts
    s = act(s, 0, "improve C3 mithril")
    assert s["task"] is not None and "deconquer C2" not in G.legal_actions(s, 0)  # no mixing
    s = act(s, 0, "improve C1 dark")
    assert s["task"] is None and s["players"][0]["used"] == 4
    assert "mithril" not in s["improved"] and s["players"][0]["grid"]["C3"]["imp"] == "mithril"
    s["players"][1]["grid"]["C3"] = {"k": "r", "room": "mint", "c": True}
    s = resolve(s, 1, 1)
    s = act(s, 1, "deconquer C3")
    assert not s["players"][1]["grid"]["C3"]["c"] and s["players"][1]["used"] == 3 and s["task"] is None


def test_invest_gold_pays_after_the_orders() -> None:
    s = at_board("invest")
    s = resolve(s, 0, 1)
    assert s["players"][0]["gold"] == 4 and s["players"][0]["invest"] == 4
    festival.after_orders(G, s, [])
    assert s["players"][0]["gold"] == 8 and s["players"][0]["invest"] == 0


def test_acquire_pet_is_private() -> None:
    s = at_board("petshop")
    ev: list[Any] = []
    pets = len(s["players"][0]["pets"])
    festival.resolve(G, s, 0, 0, ev)
    p = s["players"][0]
    assert p["imps"] == 8 and len(p["pets"]) == pets + 1 and p["food"] == 5 and p["gold"] == 5
    assert all(e.seat == 0 for e in ev if "pet:" in e.text)
    assert G.view(s, None)["players"][0]["pets"] == pets + 1 and "private" not in G.view(s, None)


def test_install_traps_order_cost_and_springing() -> None:
    s = at_board("install")
    s["opps"]["traps"] = ["stone", "door", "fire"]
    s["players"][2]["grid"]["C2"] = {"k": "r", "room": "mint", "c": False}
    s = resolve(s, 2, 2)
    s = act(s, 2, "install stone C2")  # space III: 2 gold + 1 gold in a room
    assert s["players"][2]["gold"] == 3 and s["players"][2]["installed"] == [{"trap": "stone", "cell": "C2"}]
    assert "install stone C1" not in G.legal_actions(resolve(s, 1, 1), 1)  # taken by P3
    assert BOARDS["install"]["resolve"] == [2, 1, 0]
    # it springs in the first battle there, besides the usual trap, and is then discarded
    s = act(s, 1, "install door C1")
    p = s["players"][1]
    p["party"] = [{"cls": "warrior", "level": 1, "hp": 20, "icons": 0, "dmg": 0, "uid": "w"}]
    p["traps"] = ["fire"]
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {"1": "fight C1 trap fire"}, "log": [], "card": None}
    G._combat_round(s, [])
    assert p["installed"] == [] and s["players"][1]["party"][0]["dmg"] >= 2 + 2


def test_installed_trap_is_lost_when_the_tile_changes() -> None:
    s = at_board("install")
    s["players"][0]["installed"] = [{"trap": "stone", "cell": "C3"}]
    festival.drop_installed(s["players"][0], "C3")
    assert s["players"][0]["installed"] == []


def test_expert_monster_surcharge_evil_and_pay_day() -> None:
    s = at_board("expert")
    s["offer"]["monsters"] = ["troll", "goblin", "ghost"]
    for q in s["players"]:
        q["monsters"] = []
    s = resolve(s, 0, 2)  # space III: clever (+1 gold) and 1 Evil
    s = act(s, 0, "hire troll")
    p = s["players"][0]
    assert p["food"] == 4 and p["gold"] == 5 and p["evil"] == 6 and p["monsters"][-1]["expert"] == "clever"
    assert tasks.payday_cost(p) == {"food": 2, "gold": 1}
    s = resolve(s, 1, 0)  # space I: large (+1 food)
    s = act(s, 1, "hire goblin")
    assert s["players"][1]["food"] == 4


def test_rent_rooms_gold_rule_and_rented_room_rules() -> None:
    s = at_board("rent")
    s["offer"]["rooms"] = ["mint", "shop"]
    s["board"]["room"] = [2, 1, None]
    assert festival.rent_pay(s, 2) == {}  # space III pays only when all three spaces are taken
    s["board"]["room"] = [2, 1, 0]
    s = resolve(s, 0, 2)
    s = act(s, 0, "rent mint")  # space III pays 1 gold
    assert s["players"][0]["gold"] == 5 and s["players"][0]["rented"][0]["room"] == "mint"
    s = resolve(s, 1, 1)
    assert "rent gold" not in G.legal_actions(s, 1)  # only space I may take the gold
    s = act(s, 1, "rent shop")
    s = resolve(s, 2, 0)
    assert G.legal_actions(s, 2) == ["rent gold", "rent none"]
    s = act(s, 2, "rent gold")
    assert s["players"][2]["gold"] == 7
    p = s["players"][0]
    # rented rooms: no tax, not a room at scoring, production once a round even in Year 2
    s["year"] = 2
    s["phase"] = "production"
    s["done"] = [1, 2]
    assert "use R1" in G.legal_actions(s, 0)
    s = act(s, 0, "use R1")
    assert "use R1" not in G.legal_actions(s, 0) if s["phase"] == "production" else True
    assert scoring.measures(s, 0)["rooms"] == 0
    p = s["players"][0]
    p["rented"][0]["c"] = True
    assert scoring.breakdown(s, 0)["conquered tiles"] == -2


def test_rented_combat_room_is_a_battle_option() -> None:
    s = new_x(2, seed=3)
    p = s["players"][0]
    p["rented"] = [{"k": "r", "room": "labyrinth", "c": False, "cell": "R1"}]
    from engine.dungeon_lords import board

    assert board.battle_tiles(p) == ["C1", "R1"]
    assert G.parse("fight r1 trap stone") == "fight R1 trap stone"


# ---- the festival ------------------------------------------------------------------------
def festival_state(n: int = 3) -> dict[str, Any]:
    s = new_x(n, seed=5)
    s = ai_until(s, lambda st: st["phase"] == "festival", limit=6000)
    return s


def test_festival_bids_are_secret_and_simultaneous() -> None:
    s = festival_state()
    assert G.to_act(s) == {0, 1, 2}
    free = [p["imps"] - p["used"] - p.get("trained", 0) for p in s["players"]]
    a = act(s, 0, f"bid {min(1, free[0])}")
    b = act(s, 0, "bid 0")
    assert G.view(a, None) == G.view(b, None)
    assert G.view(a, 1) == G.view(b, 1)
    assert render.render(G.view(a, None)) == render.render(G.view(b, None))
    assert G.public_format(s, 0, "bid 1") == "bid (secret)"
    assert G.to_act(a) == {1, 2}
    with pytest.raises(IllegalAction):
        G.apply(a, 1, G.parse(f"bid {free[1] + 1}"))


def test_festival_order_ties_to_the_most_evil_and_three_player_limit() -> None:
    s = festival_state()
    assert len(s["fest"]["boards"]) == 3  # 3 players: the round-5 board is left out
    for p in s["players"]:
        p.update(imps=5, used=0, trained=0, evil=5)
    s["players"][2]["evil"] = 9
    s = act(s, 0, "bid 2")
    s = act(s, 1, "bid 3")
    s = act(s, 2, "bid 3")
    assert G.view(s, None)["festival"]["bids"] == {"0": 2, "1": 3, "2": 3}
    assert s["task"]["seat"] == 2 and s["fest"]["order"] == [1, 0]  # tie 3-3: P3 is more evil
    assert s["players"][1]["used"] == 3


def test_festival_two_player_limit_and_prizes() -> None:
    s = festival_state(2)
    assert len(s["fest"]["boards"]) == 2
    s["fest"]["boards"] = ["improve", "expert"]
    s["discard"]["monsters"] = ["troll"]
    for p in s["players"]:
        p.update(imps=5, used=0, trained=0, food=4)
    s = act(s, 0, "bid 1")
    s = act(s, 1, "bid 0")  # sends nothing: gets nothing
    acts = G.legal_actions(s, 0)
    assert "prize monster troll" in acts and any(a.startswith("prize dig") for a in acts)
    s = act(s, 0, "prize monster troll")  # 1 food + the troll's 2 food
    assert s["players"][0]["food"] == 1 and s["players"][0]["monsters"][-1]["id"] == "troll"
    assert s["phase"] != "prize"


# ---- pets ---------------------------------------------------------------------------------
def test_pet_draft_pass_left_then_discard_secretly() -> None:
    s = new_x(3, seed=6)
    s = ai_until(s, lambda st: st["phase"] == "pet_pass")
    assert G.to_act(s) == {0, 1, 2} and all(len(p["pets"]) == 2 for p in s["players"])
    hands = [list(p["pets"]) for p in s["players"]]
    pub = G.view(s, None)
    assert "private" not in pub and all(p["pets"] == 2 for p in pub["players"])
    assert G.view(s, 1)["private"]["pets"] == hands[1] and G.view(s, 1)["players"][0]["pets"] == 2
    for seat in range(3):
        s = act(s, seat, f"pass {hands[seat][0]}")
    assert s["phase"] == "pet_discard"
    assert hands[0][0] in s["players"][1]["pets"]  # passed to the left
    for seat in range(3):
        s = act(s, seat, f"discard {s['players'][seat]['pets'][0]}")
    assert all(len(p["pets"]) == 1 for p in s["players"]) and len(s["pet_discard"]) == 3


def test_pet_draft_hidden_information_gives_identical_public_views() -> None:
    s = new_x(2, seed=7)
    s = ai_until(s, lambda st: st["phase"] == "pet_pass")
    other = dict(s)
    other["players"] = [dict(p) for p in s["players"]]
    other["players"][0]["pets"] = ["hen", "hen"]
    assert G.view(s, None) == G.view(other, None)
    assert G.view(s, 1) == G.view(other, 1)
    assert render.render(G.view(s, None)) == render.render(G.view(other, None))


def test_building_pet_used_once_and_pet_show_scores_unused_pets() -> None:
    s = new_x(2, seed=8)
    p = s["players"][0]
    p["pets"] = ["piggy", "hen", "magpie"]
    p["gold"] = 6
    s["phase"] = "production"
    s["done"] = [1]
    s = act(s, 0, "pet piggy")
    p = s["players"][0]
    assert p["gold"] == 8 and p["used_pets"] == ["piggy"] and "piggy" not in p["pets"]
    assert scoring.pet_points(s, 0) == 1 + 4  # hen at the show, the magpie's 8 gold / 2
    assert scoring.breakdown(s, 0)["pets"] == 5


def test_baby_golem_counts_as_a_monster_for_healing_but_ghosty_does_not() -> None:
    s = new_x(2, seed=9)
    p = s["players"][0]
    p["pets"] = ["babygolem", "ghosty"]
    p["party"] = [
        {"cls": "warrior", "level": 1, "hp": 20, "icons": 0, "dmg": 5, "uid": "w"},
        {"cls": "priest", "level": 1, "hp": 20, "icons": 2, "dmg": 0, "uid": "p"},
    ]
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {"0": "fight C1 pet babygolem"}, "log": [], "card": None}
    s["decks"]["1"]["cards"][0] = "invisibility"
    G._combat_round(s, [])
    assert p["party"][0]["dmg"] == 5 + 2 - 2  # hit for 2, then the priest healed 2
    assert any(m["id"] == "babygolem" for m in p["monsters"])
    s["combat"]["round"] = 1
    s["combat"]["plans"] = {"0": "fight C1 pet ghosty"}
    before = sum(a["dmg"] for a in p["party"])
    G._combat_round(s, [])
    assert sum(a["dmg"] for a in p["party"]) >= before + 2  # no monster attacked: no healing


def test_improved_tunnels_tool_shed_secret_passage_foyer() -> None:
    s = new_x(2, seed=10)
    p = s["players"][0]
    p["grid"]["B2"] = {"k": "t", "c": False, "imp": "shed"}
    p["grid"]["C2"] = {"k": "r", "room": "mint", "c": False}
    p["grid"]["D2"] = {"k": "t", "c": False, "imp": "secret"}
    p["grid"]["D3"] = {"k": "t", "c": False, "imp": "foyer"}
    p["grid"]["C3"] = {"k": "r", "room": "magic", "c": False}
    assert production.room_need(s, 0, "mint", "mint", "C2") == 2  # next to the tool shed
    assert scoring.measures(s, 0)["tunnels"] == 3  # C1, B2, D3: the secret passage does not count
    assert scoring.breakdown(s, 0)["foyer"] == 2  # 1 + the Magic Room next to it
    from engine.dungeon_lords import board

    assert len(board.counted(p)) == 5  # six tiles; the Secret Passage is not taxed


def test_mithril_vein_mines_beyond_the_limit() -> None:
    s = new_x(2, seed=11)
    s = ai_until(s, lambda st: st["phase"] in ("orders", "dummy"))
    p = s["players"][0]
    p["grid"]["C3"]["imp"] = "mithril"
    p.update(imps=6, used=0)
    s["phase"] = "resolve"
    s["queue"] = [{"loc": "mine", "space": 0, "seat": 0}]
    s["task"] = None
    tasks.resolve_next(G, s, [])
    assert s["task"]["cap"] == 2 + 2  # 2 on space I over C1, C2 ... + 2 in the vein
    s = act(s, 0, "mine 4")
    assert s["players"][0]["gold"] == 3 + 4
