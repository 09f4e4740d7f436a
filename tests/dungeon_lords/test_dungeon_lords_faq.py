"""The remaining official FAQ rulings (F-err, F-cmb, F-dummy, F-over, F-pal) as tests."""

from __future__ import annotations

from engine.dungeon_lords import board
from engine.dungeon_lords.scoring import title_holders

from .helpers import G, act, ai_until, new


def test_battle_tile_is_the_nearest_unconquered_tile_by_walking() -> None:
    # F-cmb: fight at the entrance, then further in; distance is walked through the dungeon.
    s = new(2)
    p = s["players"][0]
    p["grid"].update(
        {
            "D3": {"k": "t", "c": False},
            "D4": {"k": "t", "c": False},
            "B1": {"k": "r", "room": "shop", "c": False},
        }
    )
    assert board.battle_tiles(p) == ["C1"]
    p["grid"]["C1"]["c"] = True
    assert board.battle_tiles(p) == ["B1", "C2"]  # a tie: the owner chooses
    p["grid"]["B1"]["c"] = True
    p["grid"]["C2"]["c"] = True
    assert board.battle_tiles(p) == ["C3"]
    p["grid"]["C3"]["c"] = True
    assert board.battle_tiles(p) == ["D3"]  # D3 is 3 steps away walking


def test_plan_must_use_a_nearest_tile() -> None:
    s = new(2)
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {"0": None}, "log": [], "card": None}
    s["players"][0]["party"] = [{"cls": "warrior", "level": 1, "hp": 3, "icons": 0, "dmg": 0, "uid": "w"}]
    try:
        G.apply(s, 0, "fight C2")
    except Exception as exc:  # noqa: BLE001
        assert "C1" in str(exc)
    else:
        raise AssertionError("a far tile was accepted")


def test_monster_limit_per_battle() -> None:
    s = new(2)
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {"0": None}, "log": [], "card": None}
    p = s["players"][0]
    p["party"] = [{"cls": "warrior", "level": 1, "hp": 3, "icons": 0, "dmg": 0, "uid": "w"}]
    p["monsters"] = [{"id": m, "up": True} for m in ("goblin", "goblin", "troll")]
    try:
        G.apply(s, 0, "fight C1 send goblin goblin troll")
    except Exception as exc:  # noqa: BLE001
        assert "At most 2" in str(exc)
    else:
        raise AssertionError("three monsters fought in a tunnel")
    G.apply(s, 0, "fight C1 send goblin troll")


def test_dummy_never_takes_a_monster_or_room() -> None:
    # F-dummy: the non-player's minions only block spaces; it never hires a monster or
    # builds a room. Every state of round 1 from the orders to the round's end is checked:
    # its minion holds the first Hire Monster space and the offers stay whole.
    s = new(3, seed=12)
    s["dummy"]["cards"] = ["monster", "room", "food"]
    for p in s["players"]:
        p["inacc"] = []
    monsters, rooms = list(s["offer"]["monsters"]), list(s["offer"]["rooms"])
    for seat in range(3):
        s = act(s, seat, "orders rep mine dig")
    resolved = 0
    while s["round"] == 1:
        assert s["board"]["monster"][0] == -1, "the non-player's minion holds the first monster space"
        assert s["offer"]["monsters"] == monsters, "a monster left the offer in a round nobody hired"
        assert s["offer"]["rooms"] == rooms, "a room left the offer in a round nobody built"
        assert all(p["monsters"] == [] for p in s["players"])
        seat = min(G.to_act(s))
        s, _ = G.apply(s, seat, G.ai_action(s, seat))
        resolved += 1
    assert resolved > 0 and s["round"] == 2, "round 1 was played to its end"


def test_conquered_tunnels_cannot_be_mined_or_built_on() -> None:
    s = new(2)
    p = s["players"][0]
    for c in p["grid"].values():
        c["c"] = True
    assert board.tunnels(p, unconquered_only=True) == []
    assert board.room_cells(p, "chapel") == []


def test_non_player_evil_never_wins_lord_of_dark_deeds() -> None:
    s = new(2)
    s["dummy"]["evil"] = 15
    s["players"][0]["evil"] = 7
    assert title_holders(s)["dark-deeds"] == [0]


def test_non_player_counter_moves_down_two_at_the_start_of_year_two() -> None:
    s = new(2, seed=13)
    # From the last season's orders: +1 at its End of Round, then -2 as Year 2 starts (Combat
    # may pass without a decision, so the count starts before it).
    s = ai_until(s, lambda st: st["round"] == st["seasons"] and st["phase"] in ("orders", "dummy"))
    before = s["dummy"]["evil"]
    s = ai_until(s, lambda st: st["year"] == 2)
    assert s["dummy"]["evil"] == max(1, min(15, before + 1) - 2)


def test_second_year_paladin_goes_at_once_to_the_most_evil_player_on_the_space() -> None:
    s = new(3, seed=14)
    s["phase"] = "combat_end"
    s["players"][0]["evil"] = 11
    s["players"][2]["evil"] = 11
    s["start"] = 0
    G._advance(s, [])
    assert s["year"] == 2 and s["paladins"][-1]["status"] == "field" and s["paladins"][-1]["at"] == 2


def test_monsters_come_back_face_up_after_combat() -> None:
    s = new(2)
    s["phase"] = "combat_end"
    s["players"][0]["monsters"] = [{"id": "troll", "up": False}]
    G._advance(s, [])
    assert s["players"][0]["monsters"] == [{"id": "troll", "up": True}]


def test_plans_are_simultaneous_and_the_card_is_revealed_after_all_plans() -> None:
    s = new(2, seed=15)
    s = ai_until(s, lambda st: st["phase"] == "plan" and len(G.to_act(st)) == 2)
    assert G.view(s, None)["combat_cards"][s["combat"]["round"] - 1] is None
    s = act(s, 0, G.ai_action(s, 0))
    assert G.view(s, None)["combat_cards"][s["combat"]["round"] - 1] is None
