"""Combat rules, each official FAQ ruling on combat as a test (constructed battles)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dungeon_lords import board
from engine.dungeon_lords.combat import Battle
from engine.dungeon_lords.data import CARDS

from .helpers import adv, new


def battle_state(
    party: list[dict[str, Any]], monsters: list[str] = (), traps: list[str] = (), year: int = 1
) -> dict:
    s = new(2, seed=4)
    s["year"] = year
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {}, "log": [], "card": None}
    p = s["players"][0]
    p["party"] = party
    p["monsters"] = [{"id": m, "up": True} for m in monsters]
    p["traps"] = list(traps)
    p["gold"] = p["food"] = 5
    return s


def fight(
    s: dict,
    tile: str = "C1",
    traps: list[str] = (),
    send: list[tuple[str, int]] = (),
    card: str = "fireball",
    target: int | None = None,
    seat: int = 0,
) -> list[str]:
    p = s["players"][seat]
    sent = []
    for mid, opt in send:
        m = next(m for m in p["monsters"] if m["id"] == mid and m["up"] is True)
        m["up"] = "busy"
        sent.append({"id": mid, "opt": opt, "state": "sent"})
    plan = {"tile": tile, "traps": list(traps), "target": target, "sent": sent}
    ev: list = []
    Battle(s, seat, plan, CARDS[card], ev).run()
    for m in p["monsters"]:
        if m["up"] == "busy":
            m["up"] = True
    return s["combat"]["log"]


def dmg(s: dict) -> list[int]:
    return [a["dmg"] for a in s["players"][0]["party"]]


def test_standard_attack_hits_first_and_next_becomes_first() -> None:
    s = battle_state([adv("warrior", 2, uid="w"), adv("priest", 3, 1, uid="p")], ["troll", "goblin"])
    fight(s, send=[("troll", 0), ("goblin", 0)])
    prison = s["players"][0]["prison"]
    assert [a["uid"] for a in prison] == ["w"]  # the Troll knocked the warrior out
    assert dmg(s)[0] >= 2  # the goblin then hit the priest, who became first


def test_goblin_spills_one_damage_after_a_knockout() -> None:
    s = battle_state([adv("warrior", 2, uid="w"), adv("wizard", 3, 1, uid="z")], ["goblin"])
    fight(s, send=[("goblin", 0)], card="fireball")
    assert s["players"][0]["party"][0]["dmg"] == 1 + 1  # spill 1 + fatigue 1 from conquering


def test_thief_icons_cancel_trap_damage_from_the_front() -> None:
    # Wall of Fire: 1 to each, +1 to the last. Two trap icons remove the front damage first.
    party = [adv("warrior", 5, uid="a"), adv("thief", 5, 2, uid="b"), adv("priest", 5, 1, uid="c")]
    s = battle_state(party, traps=["fire"])
    fight(s, traps=["fire"], card="invisibility")  # fatigue 0
    assert dmg(s) == [0, 0, 2]


def test_trap_side_effects_are_never_prevented_and_stop_conquering() -> None:
    s = battle_state([adv("thief", 5, 3, uid="t")], traps=["door"])
    fight(s, traps=["door"])
    assert dmg(s) == [0]
    assert not s["players"][0]["grid"]["C1"]["c"]  # Trap Door: no conquering, so no fatigue either


def test_poisoned_dart_extra_damage_at_end_of_round_even_without_conquering() -> None:
    party = [adv("warrior", 6, uid="w"), adv("thief", 6, 1, uid="t")]
    s = battle_state(party, ["slime"], traps=["dart"])
    fight(s, traps=["dart"], target=2, send=[("slime", 1)], card="invisibility")
    # The thief's icon cancels the dart's 1 damage, but the poison's 2 cannot be prevented.
    assert dmg(s) == [0, 2]
    assert not s["players"][0]["grid"]["C1"]["c"]


def test_poisoned_dart_is_lost_if_target_already_eliminated() -> None:
    party = [adv("warrior", 6, uid="w"), adv("wizard", 1, 1, uid="z")]
    s = battle_state(party, traps=["dart"])
    fight(s, traps=["dart"], target=2, card="invisibility")
    assert [a["uid"] for a in s["players"][0]["prison"]] == ["z"]


def test_trap_in_a_room_costs_one_gold_more_except_labyrinth() -> None:
    s = battle_state([adv("warrior", 9)], traps=["stone"])
    s["players"][0]["grid"]["C1"] = {"k": "r", "room": "barracks", "c": False}
    fight(s, traps=["stone"])
    assert s["players"][0]["gold"] == 4
    s = battle_state([adv("warrior", 9)], traps=["stone", "fire"])
    s["players"][0]["grid"]["C1"] = {"k": "r", "room": "labyrinth", "c": False}
    fight(s, traps=["stone", "fire"], card="invisibility")
    assert s["players"][0]["gold"] == 5 and dmg(s) == [3 + 2]


def test_labyrinth_second_trap_meets_only_leftover_icons() -> None:
    party = [adv("warrior", 9, uid="w"), adv("thief", 9, 2, uid="t")]
    s = battle_state(party, traps=["stone", "door"])
    s["players"][0]["grid"]["C1"] = {"k": "r", "room": "labyrinth", "c": False}
    fight(s, traps=["stone", "door"], card="invisibility")
    assert dmg(s) == [1 + 2, 0]  # 2 icons spent on the stone (3 -> 1), none left for the door


def test_healing_needs_an_attack_and_heals_front_first() -> None:
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 2, uid="p")]
    s = battle_state(party, ["troll"], traps=["fire"])
    fight(s, traps=["fire"], send=[("troll", 0)], card="invisibility")
    # fire: 1 + (1+1); troll 3 on the warrior -> warrior 4, priest 2; 2 hearts heal the warrior first.
    assert dmg(s) == [2, 2]
    s = battle_state([adv("warrior", 9, uid="w"), adv("priest", 9, 2, uid="p")], traps=["fire"])
    fight(s, traps=["fire"], card="invisibility")
    assert dmg(s) == [1, 2]  # no monster attacked: no healing


def test_dragon_stops_healing_but_not_regeneration() -> None:
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 2, uid="p")]
    s = battle_state(party, ["dragon"], year=2)
    fight(s, send=[("dragon", 0)], card="fireball")  # fatigue 1 on the warrior
    assert dmg(s) == [3, 2]
    s = battle_state(
        [adv("warrior", 9, uid="w"), adv("priest", 9, 2, uid="p"), adv("wizard", 9, 2, uid="z")],
        ["dragon"],
        year=2,
    )
    fight(s, send=[("dragon", 0)], card="regeneration")  # Regeneration heals 2, then fatigue 2
    assert sum(dmg(s)) == 6 - 2 + 2


def test_slime_option_prevents_conquering_and_counts_as_no_attack() -> None:
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 2, uid="p")]
    s = battle_state(party, ["slime"], traps=["fire"])
    fight(s, traps=["fire"], send=[("slime", 1)])
    assert dmg(s) == [1, 2]  # no healing, no fatigue
    assert not s["players"][0]["grid"]["C1"]["c"]


def test_conquering_costs_evil_and_causes_fatigue() -> None:
    s = battle_state([adv("warrior", 9)])
    evil = s["players"][0]["evil"]
    fight(s, card="peace")  # fatigue 2; no wizard so no spell
    assert s["players"][0]["grid"]["C1"]["c"] and s["players"][0]["evil"] == evil - 1
    assert dmg(s) == [2]


def test_demon_prevents_conquering() -> None:
    s = battle_state([adv("warrior", 9, uid="w"), adv("wizard", 3, 1, uid="z")], ["demon"], year=2)
    fight(s, send=[("demon", 0)])
    assert not s["players"][0]["grid"]["C1"]["c"]
    assert [a["uid"] for a in s["players"][0]["prison"]] == ["z"]


def test_monsters_are_knocked_out_except_golem_and_returning_vampire() -> None:
    s = battle_state([adv("warrior", 20)], ["golem", "vampire"], year=2)
    s["players"][0]["grid"]["C1"] = {"k": "r", "room": "labyrinth", "c": False}
    fight(s, send=[("golem", 0), ("vampire", 1)])
    assert all(m["up"] is True for m in s["players"][0]["monsters"])
    s = battle_state([adv("warrior", 20)], ["troll"])
    fight(s, send=[("troll", 0)])
    assert s["players"][0]["monsters"][0]["up"] is False


def test_vampire_cannot_attack_priests_but_may_still_return() -> None:
    s = battle_state([adv("priest", 5, 1, uid="p")], ["vampire"])
    fight(s, send=[("vampire", 1)], card="invisibility")
    assert dmg(s) == [0] and s["players"][0]["monsters"][0]["up"] is True


def test_ghost_cannot_hit_the_first_adventurer() -> None:
    s = battle_state([adv("warrior", 5, uid="w")], ["ghost"])
    fight(s, send=[("ghost", 0)], card="invisibility")
    assert dmg(s) == [0]
    s = battle_state([adv("warrior", 5, uid="w"), adv("priest", 5, 1, uid="p")], ["ghost"])
    fight(s, send=[("ghost", 0)], card="invisibility")
    assert dmg(s) == [0, 2 - 1]  # 2 damage to the priest, healed by 1 (the ghost did attack)


def test_spells_aimed_at_monsters_ignore_ghosts() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, 2, uid="z")]
    s = battle_state(party, ["ghost", "troll"], year=2)
    fight(s, send=[("ghost", 0), ("troll", 0)], card="metamorphosis")
    mons = {m["id"]: m["up"] for m in s["players"][0]["monsters"]}
    assert mons == {"ghost": False, "troll": False}
    assert dmg(s)[1] == 2 and dmg(s)[0] == 2  # ghost hit the wizard; the sheep did nothing; fatigue 2


def test_withdrawn_monster_returns_face_up() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, 2, uid="z")]
    s = battle_state(party, ["troll"], year=2)
    fight(s, send=[("troll", 0)], card="gate")
    assert s["players"][0]["monsters"][0]["up"] is True and dmg(s) == [1, 0]


def test_magic_shield_absorbs_first_point_even_from_a_ghost() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, 1, uid="z")]
    s = battle_state(party, ["ghost"])
    fight(s, send=[("ghost", 0)], card="shield")
    assert dmg(s) == [1, 1]  # ghost 2 -1 shield on the wizard; fatigue 1 on the warrior


def test_invisibility_protects_wizards() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 2, 1, uid="z")]
    s = battle_state(party, ["ghost"])
    fight(s, send=[("ghost", 0)], card="invisibility")
    assert dmg(s) == [0, 0]


def test_anti_magic_dart_on_a_wizard_stops_the_spell_and_on_a_priest_stops_healing() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, 1, uid="z")]
    s = battle_state(party, ["ghost"], traps=["antidart"])
    fight(s, traps=["antidart"], target=2, send=[("ghost", 0)], card="shield")
    assert dmg(s)[1] == 1 + 2  # no shield
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 2, uid="p")]
    s = battle_state(party, ["troll"], traps=["antidart"])
    fight(s, traps=["antidart"], target=2, send=[("troll", 0)], card="invisibility")
    assert dmg(s) == [3, 1]


def test_create_food_adds_max_hp_and_poisoned_meal_deals_one_more() -> None:
    party = [adv("warrior", 5, uid="w"), adv("wizard", 9, 2, uid="z")]
    s = battle_state(party, year=2)
    fight(s, card="food")  # slow: +1 max HP to the warrior, then fatigue 3
    w = s["players"][0]["party"][0]
    assert w.get("bonus") == 1 and w["dmg"] == 3
    s["players"][0]["traps"] = ["meal"]
    s["combat"]["round"] = 2
    fight(s, tile="C2", traps=["meal"], card="invisibility")
    assert [a["uid"] for a in s["players"][0]["prison"]] == ["w"]


def test_paladin_leads_the_party_and_vampire_may_hit_him_but_ghost_may_not() -> None:
    s = battle_state([adv("priest", 9, 1, uid="p")], ["vampire", "ghost"])
    pal = s["paladins"][0]
    pal.update(status="field", at=0)
    s["players"][0]["grid"]["C1"] = {"k": "r", "room": "labyrinth", "c": False}
    fight(s, send=[("ghost", 0), ("vampire", 0)], card="invisibility")
    # The vampire hit the paladin for 3, the ghost hit the priest for 2; the 2 hearts (priest and
    # paladin) heal the front first: the paladin.
    assert pal["dmg"] == 3 - 2
    assert s["players"][0]["party"][0]["dmg"] == 2


def test_pendulum_hits_the_first_adventurer_behind_the_paladin() -> None:
    s = battle_state([adv("warrior", 9, uid="w")], traps=["pendulum"])
    s["paladins"][0].update(status="field", at=0, trap=0)
    fight(s, traps=["pendulum"], card="invisibility")
    assert s["paladins"][0]["dmg"] == 0 and dmg(s) == [3]


def test_captured_paladin_goes_to_prison_and_never_moves_again() -> None:
    s = battle_state([], traps=["meal"])
    pal = s["paladins"][0]
    pal.update(status="field", at=0, trap=0)
    fight(s, traps=["meal"])
    assert pal["status"] == "captured" and s["players"][0]["prison"][0]["cls"] == "paladin"
    s["players"][1]["evil"] = 15
    board.check_paladin(s, [])
    assert pal["status"] == "captured"


def test_paladin_moves_mid_combat_and_keeps_damage() -> None:
    s = battle_state([adv("warrior", 9)])
    pal = s["paladins"][0]
    s["players"][0]["evil"] = 12
    s["players"][1]["evil"] = 12
    pal.update(status="field", at=0, dmg=2)  # wounded in P1's dungeon earlier this Combat
    fight(s, card="fireball")  # the party conquers: P1 drops to 11; P2 (12) is now strictly more evil
    assert pal["at"] == 1, "the paladin moves to the now most evil lord"
    assert pal["dmg"] == 2, "he keeps the damage he took before moving"


def test_kamikaze_imp_discards_an_imp_and_hits_everyone() -> None:
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 1, uid="p")]
    s = battle_state(party, traps=["kamikaze"])
    imps = s["players"][0]["imps"]
    fight(s, traps=["kamikaze"], card="invisibility")
    assert s["players"][0]["imps"] == imps - 1 and dmg(s) == [3, 1]


def test_cursed_ring_costs_gold_hits_all_and_stops_conquering() -> None:
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 1, uid="p")]
    s = battle_state(party, traps=["ring"])
    fight(s, traps=["ring"], card="peace")
    assert s["players"][0]["gold"] == 4 and dmg(s) == [1, 1]
    assert not s["players"][0]["grid"]["C1"]["c"]


def test_rolling_stone_is_stronger_in_year_two() -> None:
    s = battle_state([adv("warrior", 9, uid="w")], traps=["stone"], year=2)
    fight(s, traps=["stone"], card="gate")  # no wizard: no spell; fatigue 1
    assert dmg(s) == [4 + 1]


def test_fatigue_spreads_front_to_back() -> None:
    s = battle_state([adv("warrior", 1, uid="w"), adv("priest", 9, 1, uid="p")])
    fight(s, card="peace")  # fatigue 2: 1 knocks out the warrior, 1 hits the priest
    assert [a["uid"] for a in s["players"][0]["prison"]] == ["w"] and dmg(s) == [1]


def _fight_with_fatigue(s: dict, fatigue_add: int) -> list[str]:
    """A battle on C1 under Invisibility (printed fatigue 0) with ``fatigue_add`` more."""
    plan = {"tile": "C1", "traps": [], "target": None, "sent": [], "fatigue_add": fatigue_add}
    Battle(s, 0, plan, CARDS["invisibility"], []).run()
    return s["combat"]["log"]


@pytest.mark.timeout(10)  # it once looped for ever
def test_fatigue_cannot_hurt_invisible_wizards_and_is_then_lost() -> None:
    # Found by a random Festival Season game: a party of one wizard, Invisibility cast,
    # 1 fatigue from elsewhere - the battle looped for ever.
    s = battle_state([adv("wizard", 3, 2, uid="z")])
    log = _fight_with_fatigue(s, 1)
    assert dmg(s) == [0]
    assert "The invisible wizards shrug off 1 fatigue." in log


@pytest.mark.timeout(10)
def test_fatigue_passes_over_invisible_wizards_to_the_others() -> None:
    # Invisibility sends the wizard to the back; 3 fatigue: 1 knocks out the warrior,
    # the wizard cannot be hurt, the other 2 are lost.
    s = battle_state([adv("wizard", 3, 2, uid="z"), adv("warrior", 1, uid="w")])
    log = _fight_with_fatigue(s, 3)
    assert [a["uid"] for a in s["players"][0]["prison"]] == ["w"] and dmg(s) == [0]
    assert "The invisible wizards shrug off 2 fatigue." in log


# ---- found by mutation testing (docs/testing.md) -----------------------------------


def test_the_stareplant_hurts_the_first_adventurer_as_each_battle_begins() -> None:
    # Stareplant: "1 to the first at the start of each of your battles this Combat" (a pet
    # whose "effect ... lasts until that Year's Combat is done"): the first in line takes
    # it, not the last.
    def hurt_by_the_battle(stareplant: bool) -> list[int]:
        s = battle_state([adv("warrior", 9, uid="w"), adv("priest", 9, 1, uid="p")])
        if stareplant:
            s["players"][0]["stareplant"] = [s["year"]]
        fight(s)
        return dmg(s)

    without, with_pet = hurt_by_the_battle(False), hurt_by_the_battle(True)
    assert [b - a for a, b in zip(without, with_pet, strict=True)] == [1, 0]
