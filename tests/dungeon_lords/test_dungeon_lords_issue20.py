"""Issue 20: rules corrected from the sources' words (each test quotes its passage)."""

from __future__ import annotations

from typing import Any

from engine.dungeon_lords import board, events, production
from engine.dungeon_lords.combat import Battle
from engine.dungeon_lords.data import CARDS, MONSTERS

from .helpers import G, act_ev, adv, ai_until, new_x


def _battle(party: list[dict[str, Any]], year: int = 2) -> dict[str, Any]:
    s = new_x(2, seed=4)
    s["year"] = year
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {}, "log": [], "card": None}
    p = s["players"][0]
    p.update(party=party, monsters=[{"id": "troll", "up": True}], traps=[], gold=5, food=5, mourn=0)
    return s


def _fight(s: dict[str, Any], card: str, send: bool = False) -> list[str]:
    p = s["players"][0]
    sent = [{"id": "troll", "opt": 0, "state": "sent"}] if send else []
    before = len(s["combat"]["log"])
    Battle(s, 0, {"tile": "C1", "traps": [], "target": None, "sent": sent}, CARDS[card], []).run()
    for m in p["monsters"]:
        m["up"] = True
    return list(s["combat"]["log"][before:])


# ---- 4. Illusion ----------------------------------------------------------------------------------
def test_an_illusion_from_an_earlier_round_stays_in_front_and_takes_the_first_hit() -> None:
    # FAQ (Create Food): "if an Illusion adventurer from an earlier round is first, it becomes a 2-HP
    # illusion" - so an Illusion outlives its round and stands first until it is hit.
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, icons=2, uid="z")]
    s = _battle(party)
    _fight(s, "illusion")  # round 1: the party casts Illusion; nobody attacks it
    p = s["players"][0]
    assert p["illusion"] is not None and G.view(s, None)["players"][0]["illusion"]["hp"] == 1
    lines = _fight(s, "fireball", send=True)  # round 2: the Troll's standard attack hits the first
    assert "Troll deals 1 to the illusion (0 left)." in lines and "The illusion vanishes." in lines
    assert p.get("illusion") is None and not any(
        ln.startswith("Troll deals") and "warrior" in ln for ln in lines
    )


def test_create_food_on_an_illusion_from_an_earlier_round_makes_it_a_two_hp_illusion() -> None:
    party = [adv("warrior", 9, uid="w"), adv("wizard", 9, icons=2, uid="z")]
    s = _battle(party)
    _fight(s, "illusion")
    _fight(s, "food")  # Create Food (slow): "it becomes a 2-HP illusion"
    ill = s["players"][0]["illusion"]
    assert ill["hp"] + ill.get("bonus", 0) == 2
    assert "bonus" not in s["players"][0]["party"][0]


def test_the_illusion_goes_at_the_end_of_combat() -> None:
    s = _battle([adv("warrior", 9, uid="w"), adv("wizard", 9, icons=2, uid="z")])
    _fight(s, "illusion")
    G._end_combat(s, [])
    assert "illusion" not in s["players"][0]


# ---- 5. the 2-player non-player and the Year-1 Elven Paladin ----------------------------------------
def test_two_player_non_player_drift_reaches_the_paladin_space_only_in_the_last_season_of_year_two() -> None:
    # "In a two-player game, a paladin could be assigned to a non-player dungeon and removed from the game
    # in the last round of the Second Year." and "the non-player Evil Counter moves down 3 spaces just
    # before Combat. This occurs in both years." Start 5, +1 in each Adventurer Phase (seasons 2-5):
    # Year 1 ends at 9, 6 after the drop; Year 2 reaches 10 in the Adventurer Phase of season 5.
    s = new_x(2, seed=11)
    seen: dict[tuple[int, int], int] = {}
    sent_away: list[tuple[int, int]] = []

    def stop(st: dict[str, Any]) -> bool:
        if st["phase"] in ("orders", "dummy"):
            seen.setdefault((st["year"], st["round"]), st["dummy"]["evil"])
        if st["dummy"].get("pal_ignored") and not sent_away:
            sent_away.append((st["year"], st["round"]))
        return False

    while not G.is_over(s):
        stop(s)
        seat = min(G.to_act(s))
        s, _ = G.apply(s, seat, G.ai_action(s, seat))
    assert [seen[(1, r)] for r in range(1, 6)] == [5, 5, 6, 7, 8]
    assert [seen[(2, r)] for r in range(1, 6)] == [6, 6, 7, 8, 9]
    assert not sent_away or sent_away[0] == (2, 5)
    assert all(p["year"] == 2 or p["at"] != -1 for p in s["paladins"])


def test_the_non_player_gets_a_year_two_paladin_in_season_five_when_both_players_are_nicer() -> None:
    # "Treat the non-player dungeon as a player ... (It won't get either paladin if the players are both
    # more evil.)" / "If the non-player dungeon is assigned a paladin, immediately remove that paladin".
    s = new_x(2, seed=12)
    s = ai_until(s, lambda st: st["year"] == 2 and st["round"] == 5 and st["phase"] in ("orders", "dummy"))
    for p in s["players"]:
        p["evil"] = 3
    assert s["dummy"]["evil"] == 9
    s["advs"] = []
    ev: list[Any] = []
    G._assign_adventurers(s, ev)
    assert s["dummy"]["evil"] == 10
    assert any("Distant Lands" in e.text for e in ev) and s["dummy"]["pal_ignored"]


# ---- 6. conquered rooms -------------------------------------------------------------------------------
def test_a_conquered_production_room_no_longer_works() -> None:
    # Festival Season (Secret Passage): "This is the only improved tunnel that has an effect even if it
    # is conquered. (That's why its icon is on both sides.) The others lose their effect when conquered."
    s = new_x(2, seed=3)
    p = s["players"][0]
    p["grid"]["C2"] = {"k": "r", "room": "mint", "c": False}
    p["gold"] = 5
    assert "use mint" in production.actions(s, 0)
    p["grid"]["C2"]["c"] = True
    assert not any(a.startswith("use mint") for a in production.actions(s, 0))
    p["rented"] = [{"k": "r", "room": "mint", "c": True, "cell": "R1"}]
    assert "use R1" not in production.actions(s, 0)


# ---- 7. taxes ------------------------------------------------------------------------------------------
def test_taxes_round_up() -> None:
    # The one source for the amount (issue 20): "1 gold per two rooms or tunnels, rounded up".
    s = new_x(2, seed=3)
    s["event"] = "taxes"
    for p, extra in zip(s["players"], ({"B1": 1}, {}), strict=True):
        p["gold"] = 9
        for c in extra:
            p["grid"][c] = {"k": "t", "c": False}
    events.event(s, [])
    assert [p["gold"] for p in s["players"]] == [9 - 2, 9 - 2]  # 4 tiles -> 2; 3 tiles -> 2 (not 1)


# ---- 8. monster costs, Monster Strike ---------------------------------------------------------------
def test_dragon_and_golem_cost_what_their_one_source_says() -> None:
    # base reference: "Golem | ... | G-EZ: 1 gold + 1 trap"; "Dragon | ... | G-EZ: 2 food + 2 Evil".
    assert MONSTERS["golem"]["cost"] == {"gold": 1, "traps": 1}
    assert MONSTERS["dragon"]["cost"] == {"food": 2, "evil": 2}
    s = new_x(2, seed=3)
    p = s["players"][0]
    p.update(gold=1, traps=["stone", "meal"])
    board.pay(s, 0, MONSTERS["golem"]["cost"], [])
    assert p["gold"] == 0 and p["traps"] == ["stone"] and s["trap_discard"] == ["meal"]  # the weakest goes
    p["traps"] = []
    assert not board.can_pay(p, MONSTERS["golem"]["cost"])


def test_monster_strike_turns_unpaid_monsters_face_down() -> None:
    # base reference: "Monster Strike" (a monster whose cost is not fully paid "is turned face down"; B-sf).
    s = new_x(2, seed=3)
    p = s["players"][0]
    p.update(food=1, monsters=[{"id": "troll", "up": True}, {"id": "goblin", "up": True}])
    events.special(s, "strike", [])
    assert len(p["monsters"]) == 2 and sorted(m["up"] for m in p["monsters"]) == [False, True]
    G._end_combat(s, [])
    assert all(m["up"] is True for m in p["monsters"])


# ---- 1. the return move ------------------------------------------------------------------------------
def test_returning_a_trap_card_never_names_it_in_public() -> None:
    # "draw 1 extra and then return 1 Trap Card of your choice": the card goes back unseen.
    s = new_x(2, seed=3)
    s["year"] = 2
    s["phase"] = "resolve"
    s["queue"] = []
    s["task"] = {"type": "return", "seat": 0, "loc": "traps"}
    s["players"][0]["traps"] = ["stone", "fire"]
    assert G.public_format(s, 0, "return stone") == "return (secret)"
    _, ev = act_ev(s, 0, "return stone")
    public = " ".join(e.text for e in ev if e.seat is None)
    assert "Rolling Stone" not in public and "stone" not in public.lower()
    assert any("Rolling Stone" in e.text for e in ev if e.seat == 0)
