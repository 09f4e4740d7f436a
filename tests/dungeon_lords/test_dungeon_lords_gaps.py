"""Issue-9 gaps closed after the first version (base game, expansion off): declining
any location action, aiming 'any adventurer' attacks, choosing the Demon's meal,
and priests healing only those with nobody wounded in front of them."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.dungeon_lords.notation import parse_plan

from .helpers import G, act, adv, new
from .test_dungeon_lords_combat import battle_state, dmg, fight


def orders_state(n: int = 4) -> dict:
    s = new(n, seed=3)
    for p in s["players"]:
        p["inacc"] = []
    return s


def test_a_declined_order_places_the_minion_but_skips_the_action() -> None:
    s = orders_state()
    s["start"] = 0
    evil = s["players"][2]["evil"]
    for seat in range(4):
        s = act(s, seat, "orders food- rep mine" if seat == 2 else "orders food rep mine")
    # P3 took Get Food III (Evil +2) but declined it: no food, no Evil, the card comes back.
    assert s["board"]["food"][2] == 2
    p = s["players"][2]
    assert p["food"] == 3 and "food" not in p["inacc"]
    assert p["evil"] <= evil  # only the reputation space moved the counter
    assert G.parse("orders food- rep mine") == "orders food- rep mine"
    assert "Get Food (declined)" in G.describe(s, "orders food- rep mine")


def test_a_declined_order_stays_secret_until_revealed() -> None:
    s = orders_state(2)
    s = act(s, s["start"], G.legal_actions(s, s["start"])[0])
    a = act(s, 0, "orders food- rep mine")
    b = act(s, 0, "orders food rep mine")
    assert G.view(a, None) == G.view(b, None) and G.view(a, 1) == G.view(b, 1)
    assert G.public_format(s, 0, "orders food- rep mine") == "orders (secret)"
    with pytest.raises(IllegalAction):
        G.parse("orders food-- rep mine")


def test_aimed_attack_hits_the_named_adventurer() -> None:
    party = [adv("warrior", 9, uid="w"), adv("thief", 9, 1, uid="t"), adv("wizard", 9, 1, uid="z")]
    s = battle_state(party, ["ghost"])
    fight(s, send=[("ghost", 0)], card="fireball")  # a slow spell: nothing happens to the battle
    auto = dmg(s)
    assert auto == [1, 0, 2]  # automatic: the wizard (fatigue 1 on the warrior)
    s = battle_state([dict(a, dmg=0) for a in party], ["ghost"])
    s["players"][0]["monsters"][0]["up"] = "busy"
    plan = parse_plan("fight C1 send ghost@2")
    assert plan["aim"] == {0: 2}
    from engine.dungeon_lords.combat import Battle
    from engine.dungeon_lords.data import CARDS

    plan["sent"] = [{"id": "ghost", "opt": 0, "state": "sent", "aim": 2}]
    Battle(s, 0, plan, CARDS["peace"], []).run()  # Word of Peace does not touch ghosts; fatigue 2
    assert dmg(s) == [2, 2, 0]


def test_aim_that_breaks_the_rules_falls_back_to_the_automatic_choice() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, 1, uid="z")]
    s = battle_state(party, ["ghost"])
    from engine.dungeon_lords.combat import Battle
    from engine.dungeon_lords.data import CARDS

    s["players"][0]["monsters"][0]["up"] = "busy"
    plan = {
        "tile": "C1",
        "traps": [],
        "target": None,
        "sent": [{"id": "ghost", "opt": 0, "state": "sent", "aim": 1}],
    }
    Battle(s, 0, plan, CARDS["peace"], []).run()
    assert dmg(s) == [2, 2]  # a ghost may not hit the first in line: the wizard; fatigue 2 on the warrior


def test_plan_notation_with_aims_round_trips() -> None:
    for text in ("fight C1 send ghost@2 witch+@1", "fight C1 trap dart at 2 send vampire@3"):
        assert G.parse(text) == text
    with pytest.raises(IllegalAction):
        G.parse("fight C1 send ghost@x")


def test_the_player_chooses_what_the_demon_eats() -> None:
    s = new(2, seed=4)
    s["year"] = 2
    p = s["players"][0]
    p["monsters"] = [{"id": "goblin", "up": True}, {"id": "troll", "up": True}]
    p.update(evil=5, food=5, gold=5)
    s["phase"] = "resolve"
    s["offer"]["monsters"] = ["demon", "golem", "dragon"]
    s["task"] = {"type": "hire", "seat": 0, "loc": "monster", "space": 0}
    s["queue"] = []
    with pytest.raises(IllegalAction):
        G.apply(s, 0, G.parse("hire golem goblin"))
    s2 = act(s, 0, "hire demon troll")
    assert [m["id"] for m in s2["players"][0]["monsters"]] == ["goblin", "demon"]
    s3 = act(s, 0, "hire demon")
    assert [m["id"] for m in s3["players"][0]["monsters"]] == ["troll", "demon"]


def test_priests_heal_only_adventurers_with_nobody_wounded_in_front() -> None:
    # The wounded priest behind a wounded warrior is healed only once the warrior is whole.
    party = [adv("warrior", 9, uid="w"), adv("priest", 9, 1, uid="p")]
    party[0]["dmg"] = 3
    party[1]["dmg"] = 2
    s = battle_state(party, ["ghost"])
    s["players"][0]["party"][1]["icons"] = 2
    fight(s, send=[("ghost", 0)], card="invisibility")  # the ghost hits the priest for 2 (4 now)
    assert dmg(s) == [1, 4]


def test_word_of_peace_and_suggestion_answered_in_the_plan() -> None:
    from engine.dungeon_lords.combat import Battle
    from engine.dungeon_lords.data import CARDS

    def run(answer: str, card: str) -> dict:
        party = [adv("warrior", 9, uid="w"), adv("wizard", 9, 1, uid="z")]
        s = battle_state(party, ["troll"])
        s["players"][0]["evil"] = 5
        s["players"][0]["monsters"][0]["up"] = "busy"
        plan = parse_plan(f"fight C1 send troll {answer}".strip())
        plan["sent"] = [{"id": "troll", "opt": 0, "state": "sent"}]
        Battle(s, 0, plan, CARDS[card], []).run()
        return s

    kept = run("peace:keep", "peace")
    assert kept["players"][0]["evil"] == 5 + 2 - 1 and kept["players"][0]["party"][0]["dmg"] >= 3
    gone = run("peace:withdraw", "peace")
    assert gone["players"][0]["evil"] == 5 - 1 and gone["players"][0]["party"][0]["dmg"] == 2  # fatigue only
    paid = run("", "suggestion")
    assert paid["players"][0]["food"] == 5 - 2
    refused = run("suggestion:withdraw", "suggestion")
    assert refused["players"][0]["food"] == 5
    assert G.parse("fight C1 send troll peace:keep") == "fight C1 send troll peace:keep"
    with pytest.raises(IllegalAction):
        G.parse("fight C1 peace:keep peace:withdraw")


def test_a_game_saved_before_the_expansion_plays_on_as_the_base_game() -> None:
    from .helpers import ai_until

    s = new(3, seed=21)
    for key in ("x", "discard", "y1_start"):
        s.pop(key)
    s["options"] = {"inaccessible": "random"}
    s = ai_until(s, lambda st: False, limit=6000)
    assert G.is_over(s) and s["seasons"] == 4 and "x" not in s
    assert len(G.result(s).scores) == 3


@pytest.mark.parametrize(
    "text", [",", " , ", "①", "mine ①", "dig C①", "bid 99999999999999999999", "fight C1 at 123456", "x " * 50]
)
def test_hostile_notation_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        G.parse(text)
    assert err.value.sentence.endswith(".")
