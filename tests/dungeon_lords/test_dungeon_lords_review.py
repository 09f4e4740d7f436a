"""Issue 29's closing pass: Dungeon Lords with Festival Season played once more against its
rulebook, move kind by move kind. Each test quotes the passage it checks; a rule changed in
revision 3 is also checked under revision 2 (a stored game replays as it was played)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.dungeon_lords import events, festival

from .helpers import G, adv, new_x
from .test_dungeon_lords_issue29 import plan, plan_state


def expert(s: dict[str, Any], kind: str = "clever") -> dict[str, Any]:
    s["players"][0]["monsters"][0]["expert"] = kind
    return s


# ---- Expertise: "The expert monster's (or ghost's) first attack is at +2 strength" ----------------


@pytest.mark.parametrize(("revision", "kept"), [(None, True), (2, False)])
def test_an_expert_ghost_that_finds_nobody_to_haunt_keeps_its_expertise(
    revision: int | None, kept: bool
) -> None:
    # A ghost cannot hit the first adventurer; alone in line, he is all there is: no attack, so
    # the "+2 on its first attack" is still to come (revision 2 spent it).
    s = expert(plan_state(revision=revision, party=[adv("warrior", 9, uid="w")], monsters=["ghost"]))
    after = plan(s, "fight C1 send ghost")
    ghost = after["players"][0]["monsters"][0]
    assert ("xp_used" not in ghost) is kept
    assert ("The expert Ghost strikes with +2." in after["combat"]["log"]) is not kept


def test_an_expert_vampire_facing_only_priests_keeps_its_expertise_then_strikes_with_it() -> None:
    s = expert(plan_state(party=[adv("priest", 9, 1, uid="p")], monsters=["vampire"]))
    after = plan(s, "fight C1 send vampire")
    assert "xp_used" not in after["players"][0]["monsters"][0]
    s = expert(plan_state(party=[adv("warrior", 9, uid="w")], monsters=["vampire"]))
    after = plan(s, "fight C1 send vampire")
    assert "The expert Vampire strikes with +2." in after["combat"]["log"]
    assert after["players"][0]["party"][0]["dmg"] == 3 + 2 + 1  # the bite, the expertise, fatigue


def test_an_expert_slime_deals_3_to_the_first_and_1_to_the_others() -> None:
    # "An expert slime will do 3 damage to the first adventurer in line, but only 1 to all the others."
    s = expert(
        plan_state(party=[adv("warrior", 9, uid="w"), adv("thief", 9, 1, uid="t")], monsters=["slime"])
    )
    after = plan(s, "fight C1 send slime")
    assert [a["dmg"] for a in after["players"][0]["party"]] == [3 + 1, 1]  # fatigue 1 on the first


# ---- Festival: a Cockatrice from the discard pile may be paid with Evil -----------------------------


def prize_state(revision: int | None, food: int) -> dict[str, Any]:
    s = G.new(2, {"inaccessible": "random"}, 3, revision=revision)
    s["phase"], s["task"] = "prize", {"type": "prize", "seat": 0}
    s["fest"] = {"boards": ["expert"], "order": [], "bids": {"0": 1, "1": 0}}
    s["discard"] = {"monsters": ["cockatrice"], "rooms": []}
    s["players"][0]["food"] = food
    return s


@pytest.mark.parametrize(("revision", "offered"), [(None, True), (2, False)])
def test_a_festival_cockatrice_may_be_paid_with_evil(revision: int | None, offered: bool) -> None:
    # Festival: "Pay 1 Food to hire 1 monster (or ghost) from the discard pile. Pay the monster's
    # cost according to the usual rules"; Cockatrice: "you can either pay 1 Food or pay 1 Evil when
    # paying his cost". With 1 food: the festival's food and 1 Evil (house decision 32).
    s = prize_state(revision, food=1)
    assert ("prize monster cockatrice" in festival.prize_options(s, 0)) is offered
    if offered:
        from engine.dungeon_lords import notation

        label = "Festival prize: the Cockatrice from the discard pile for 1 Evil and 1 food"
        assert notation.describe(s, 0, "prize monster cockatrice") == label
        evil = s["players"][0]["evil"]
        after = plan(s, "prize monster cockatrice")
        me = after["players"][0]
        assert (me["food"], me["evil"]) == (0, evil + 1)
        assert {"id": "cockatrice", "up": True} in me["monsters"]


def test_a_festival_cockatrice_is_paid_with_food_when_the_food_is_there() -> None:
    s = prize_state(None, food=2)
    evil = s["players"][0]["evil"]
    me = plan(s, "prize monster cockatrice")["players"][0]
    assert (me["food"], me["evil"]) == (0, evil)


# ---- The discard pile holds every discarded monster ------------------------------------------------


@pytest.mark.parametrize(("revision", "pile"), [(None, ["witch"]), (2, [])])
def test_a_witch_the_witch_hunt_drives_out_goes_to_the_discard_pile(
    revision: int | None, pile: list[str]
) -> None:
    # Festival: "you can use any tile that has been discarded so far. It does not matter whether it
    # was discarded because no one chose it during the Orders Phase or whether it was discarded for
    # some other reason."
    s = new_x(2, seed=4) if revision is None else G.new(2, {"inaccessible": "random"}, 4, revision=2)
    s["discard"] = {"monsters": [], "rooms": []}
    p = s["players"][0]
    p["gold"], p["monsters"] = 0, [{"id": "witch", "up": True}]
    events.special(s, "witchhunt", [])
    assert p["monsters"] == [] and s["discard"]["monsters"] == pile


@pytest.mark.parametrize(("revision", "pile"), [(None, ["troll"]), (2, [])])
def test_the_monster_loaded_into_the_catapult_goes_to_the_discard_pile(
    revision: int | None, pile: list[str]
) -> None:
    # "If you use a Monster Catapult, you have to immediately discard the monster".
    s = plan_state(revision=revision, monsters=["goblin", "troll"], traps=["catapult", "kamikaze"])
    s["discard"] = {"monsters": [], "rooms": []}
    after = plan(s, "fight C1 trap catapult send goblin")
    assert after["discard"]["monsters"] == pile


# ---- Song of Courage: "fatigue happens more than once (as in Song of Courage)" ---------------------


def song_state(revision: int | None) -> dict[str, Any]:
    party = [adv("warrior", 20, uid="w"), adv("wizard", 20, 2, uid="z")]
    s = plan_state(revision=revision, card="courage", party=party)
    s["players"][0]["party"][0]["dmg"] = 1
    return s


def test_song_of_courage_makes_the_party_conquer_once_more_and_take_the_fatigue_again() -> None:
    # Training Room: "only once per round unless fatigue happens more than once (as in Song of
    # Courage)"; Install Traps: a trap goes "if it is somehow conquered without a battle".
    s = song_state(None)
    s["players"][0]["installed"] = [{"trap": "stone", "cell": "C2"}]
    evil = s["players"][0]["evil"]
    after = plan(s, "fight C1")
    me = after["players"][0]
    assert me["grid"]["C1"]["c"] and me["grid"]["C2"]["c"] and not me["grid"]["C3"]["c"]
    assert me["evil"] == evil - 2
    assert [a["dmg"] for a in me["party"]] == [1 + 3 + 3, 0]  # the card's fatigue 3, twice
    assert me["installed"] == []
    assert "Heartened by the Song of Courage, the party presses on." in after["combat"]["log"]


def test_song_of_courage_in_a_revision_2_game_still_heals() -> None:
    after = plan(song_state(2), "fight C1")
    me = after["players"][0]
    assert not me["grid"]["C2"]["c"]
    assert [a["dmg"] for a in me["party"]] == [1 - 1 + 3, 0]


def test_song_of_courage_needs_a_conquest_first() -> None:
    s = song_state(None)
    s["players"][0]["traps"] = ["door", "kamikaze"]  # Trap Door: "skip Conquering this round"
    me = plan(s, "fight C1 trap door")["players"][0]
    assert not me["grid"]["C1"]["c"] and not me["grid"]["C2"]["c"]


# ---- Courage with traps: the rulebook's own examples --------------------------------------------------


@pytest.mark.parametrize(
    ("trap", "dealt"), [("meal", [1, 0, 0, 0]), ("stone", [0, 0, 0, 0]), ("ring", [0, 0, 1, 1])]
)
def test_courage_after_the_thief_as_in_the_rulebook_examples(trap: str, dealt: list[int]) -> None:
    # "If you use the Poisoned Meal instead, it tries to deal 5 damage ... The thief prevents 2, and 2
    # more are canceled by removing both Courage Tokens. The warrior will get 1 Damage Counter."
    # Rolling Stone: "the thief will reduce the damage to 1. The warrior will lose 1 Courage";
    # Cursed Ring: "The two bards in the rear each get 1 Damage Counter".
    party = [adv("warrior", 5, uid="w"), adv("thief", 3, 2, uid="t"), adv("bard", 3, 1, uid="b1"),
             adv("bard", 3, 1, uid="b2")]  # fmt: skip
    s = plan_state(party=party, traps=[trap, "kamikaze"], card="invisibility")
    after = plan(s, f"fight C1 trap {trap}")
    assert [a["dmg"] for a in after["players"][0]["party"]] == dealt  # Invisibility: no fatigue


# ---- Invisibility: wizards "can't be hurt this round" ----------------------------------------------------


@pytest.mark.parametrize(("revision", "hit"), [(None, 2), (2, 0)])
def test_an_attack_on_anyone_is_not_wasted_on_an_invisible_wizard(revision: int | None, hit: int) -> None:
    # Invisibility: "Wizards go to the back of the line and can't be hurt this round". The ghost
    # (anyone but the first) hits the priest, not the wizard it could have knocked out; aimed at
    # the wizard ('@3'), it goes to the one it can hurt too. Revision 2 wasted the blow.
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 1, uid="p"), adv("wizard", 2, 1, level=3, uid="z")]
    s = plan_state(revision=revision, card="invisibility", party=party, monsters=["ghost"])
    for aim in ("", "@3"):
        after = plan(s, f"fight C1 send ghost{aim}")
        log = after["combat"]["log"]
        assert (f"Ghost deals {hit} to the priest (level 1) (7 left)." in log) is bool(hit), log
        assert after["players"][0]["party"][2]["dmg"] == 0


def test_ghosty_does_not_waste_its_blow_on_an_invisible_wizard() -> None:
    # Ghosty: "2 to any adventurer" (house decision 29); Invisibility: wizards "can't be hurt this round".
    party = [adv("warrior", 9, uid="w"), adv("wizard", 2, 1, level=3, uid="z")]
    s = plan_state(card="invisibility", party=party, pets=["ghosty"])
    after = plan(s, "fight C1 pet ghosty")
    assert [a["dmg"] for a in after["players"][0]["party"]] == [2, 0]


# ---- Rented rooms: "they can be used only once per round (even during the Second Year)" -----------


@pytest.mark.parametrize(("revision", "uses"), [(None, 1), (2, 2)])
def test_a_rented_training_room_trains_once_a_round_in_the_second_year(
    revision: int | None, uses: int
) -> None:
    # The Training Room is a production room ("In the Second Year, you can send in 1 or 2"), and
    # "Rented production rooms ... can be used only once per round (even during the Second Year)".
    from engine.dungeon_lords import production

    s = G.new(2, {"inaccessible": "random"}, 3, revision=revision)
    s["year"], s["phase"], s["done"] = 2, "production", []
    p = s["players"][0]
    p["imps"], p["used"] = 5, 0
    p["rented"] = [{"k": "r", "room": "training", "c": False, "cell": "R1"}]
    done = 0
    while "use R1 in" in production.actions(s, 0):
        production.produce(s, 0, ["use", "R1", "in"], [])
        done += 1
    assert done == uses and p["trained"] == uses
