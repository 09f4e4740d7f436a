"""Issue 29 items 11-17 (rules revision 3): each rule with its rulebook passage, under the new
rules and, for a game stored at revision 2, under the old ones; and the carry of a revision-2
game to revision 3 in the middle of it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core import Event, IllegalAction
from engine.dungeon_lords import events, plan_chooser
from engine.dungeon_lords.combat import Battle
from engine.dungeon_lords.data import CARDS

from .helpers import G, adv, new_x


def plan_state(
    revision: int | None = None,
    party: list[dict[str, Any]] | None = None,
    monsters: list[str] = (),
    pets: list[str] = (),
    traps: list[str] = ("kamikaze",),
    card: str = "fireball",
    expansion: bool = True,
) -> dict[str, Any]:
    """Player 1 plans the first battle of Year 1 (Player 2 has no party), the Combat Card is
    ``card``; a Festival Season game unless ``expansion`` is off. The Trap Card in hand makes
    the next round's plan a choice, so the game waits there with this round's log."""
    opts: dict[str, Any] = {"inaccessible": "random", "expansion": expansion}
    s = G.new(2, opts, 11, revision=revision)
    s["phase"] = "plan"
    s["combat"] = {"round": 1, "plans": {"0": None}, "log": [], "card": None}
    s["decks"]["1"]["cards"][0] = card
    p = s["players"][0]
    p["party"] = party if party is not None else [adv("warrior", 9, uid="w"), adv("wizard", 9, 1, uid="z")]
    p["monsters"] = [{"id": m, "up": True} for m in monsters]
    p["pets"] = list(pets)
    p["traps"] = list(traps)
    p["gold"] = p["food"] = 5
    return s


def plan(s: dict[str, Any], text: str) -> dict[str, Any]:
    after, _ = G.apply(s, 0, G.parse(text))
    return after  # type: ignore[no-any-return]


# ---- item 11: Baby Golem and the monster limit -------------------------------------------------


def test_baby_golem_sent_from_the_pet_card_counts_toward_the_tunnel_limit() -> None:
    # "he will count toward your monster limit (unless you send him with a big golem)"
    s = plan_state(monsters=["goblin", "goblin", "golem"], pets=["babygolem"])
    with pytest.raises(IllegalAction, match="At most 2 monsters may fight in a tunnel"):
        plan(s, "fight C1 send goblin goblin pet babygolem")
    before = json.dumps(s, sort_keys=True)
    plan(s, "fight C1 send goblin pet babygolem")  # two with him: the tunnel's limit
    plan(s, "fight C1 send golem goblin pet babygolem")  # with a big golem he does not count
    assert json.dumps(s, sort_keys=True) == before  # apply works on a copy
    with pytest.raises(IllegalAction):
        plan(s, "fight C1 send golem goblin goblin pet babygolem")


def test_baby_golem_already_in_play_counts_as_before() -> None:
    s = plan_state(monsters=["goblin", "goblin"])
    s["players"][0]["monsters"].append({"id": "babygolem", "up": True, "pet": True})
    with pytest.raises(IllegalAction):
        plan(s, "fight C1 send goblin goblin babygolem")


def test_a_revision_2_game_keeps_the_old_baby_golem() -> None:
    s = plan_state(revision=2, monsters=["goblin", "goblin"], pets=["babygolem"])
    after = plan(s, "fight C1 send goblin goblin pet babygolem")  # accepted as it was
    log = after["combat"]["log"]
    assert sum("Goblin deals" in x for x in log) == 2 and any("Baby Golem deals" in x for x in log), log


def test_the_plan_chooser_does_not_offer_a_third_monster_beside_the_baby_golem() -> None:
    s = plan_state(monsters=["goblin", "goblin"], pets=["babygolem"])
    path = ["C1", "pet", "pet-babygolem", "send", "send-goblin"]
    menu = G.chooser(s, 0, path)
    assert "send" not in [t for t, _ in menu.options]  # the second goblin would be a third fighter


# ---- item 12: Word of Peace --------------------------------------------------------------------


@pytest.mark.parametrize(("revision", "evil"), [(None, 5 - 1), (2, 5 + 2 - 1)])
def test_word_of_peace_withdraw_with_no_monster_sent_costs_no_evil(revision: int | None, evil: int) -> None:
    # "Withdraw all your monsters or gain 2 evil": with no monster there is nothing to withdraw,
    # and a lord who answered "withdraw" is not charged (revision 2 charged him 2 Evil).
    s = plan_state(revision=revision, card="peace")
    assert s["players"][0]["evil"] == 5
    after = plan(s, "fight C1 peace:withdraw")
    assert after["players"][0]["evil"] == evil  # the party conquers C1 too: 1 Evil less
    if revision is None:
        assert any("no monster to withdraw and gains no Evil" in x for x in after["combat"]["log"])


def test_word_of_peace_without_an_answer_and_no_monster_costs_no_evil() -> None:
    s = plan_state(card="peace")
    assert plan(s, "fight C1")["players"][0]["evil"] == 5 - 1


def test_word_of_peace_keep_still_costs_2_evil_and_withdraw_still_withdraws() -> None:
    s = plan_state(card="peace", monsters=["troll"])
    kept = plan(s, "fight C1 send troll peace:keep")
    assert kept["players"][0]["evil"] == 5 + 2 - 1
    gone = plan(s, "fight C1 send troll peace:withdraw")
    assert gone["players"][0]["evil"] == 5 - 1
    assert any("Word of Peace: Player 1's Troll withdraws." in x for x in gone["combat"]["log"])


# ---- item 13: Magic Shield ---------------------------------------------------------------------


def shield_battle(revision: int | None, **kw: Any) -> dict[str, Any]:
    s = plan_state(revision=revision, card="shield", **kw)
    return s


@pytest.mark.parametrize(("revision", "dealt"), [(None, [0, 0]), (2, [1, 0])])
def test_magic_shield_absorbs_the_first_point_of_fatigue(revision: int | None, dealt: list[int]) -> None:
    # "absorbs the first point of damage to be dealt this round"; the expansion calls fatigue
    # "Damage received during Conquering" (house decision 44). Magic Shield's fatigue is 1.
    after = plan(shield_battle(revision), "fight C1")
    assert [a["dmg"] for a in after["players"][0]["party"]] == dealt
    if revision is None:
        assert "Magic Shield absorbs 1 damage." in after["combat"]["log"]


def test_magic_shield_absorbs_one_point_only() -> None:
    s = shield_battle(None, monsters=["goblin"])
    after = plan(s, "fight C1 send goblin")
    # The goblin's 2: 1 absorbed, 1 dealt; the fatigue point then hits the warrior in full.
    assert [a["dmg"] for a in after["players"][0]["party"]] == [1 + 1, 0]
    assert after["combat"]["log"].count("Magic Shield absorbs 1 damage.") == 1


def test_magic_shield_does_not_touch_a_pet_s_damage_but_takes_the_fatigue() -> None:
    # "Spells affecting monsters (or ghosts) do not affect pets (not even Ghosty)": Magic Shield,
    # the spell that works against ghosts, lets Ghosty's 2 through and absorbs the fatigue point.
    after = plan(shield_battle(None, pets=["ghosty"]), "fight C1 pet ghosty")
    log = after["combat"]["log"]
    assert any(x.startswith("Ghosty deals 2 to") for x in log), log
    assert log.index("Magic Shield absorbs 1 damage.") > log.index(
        "The party conquers C1; Player 1 loses 1 Evil."
    )
    assert sum(a["dmg"] for a in after["players"][0]["party"]) == 2


def test_magic_shield_takes_the_baby_golem_s_blow_he_is_affected_by_spells() -> None:
    # Baby Golem: "If you send Baby Golem into battle, he will be affected by spells".
    after = plan(shield_battle(None, pets=["babygolem"]), "fight C1 pet babygolem")
    log = after["combat"]["log"]
    assert log.index("Magic Shield absorbs 1 damage.") < log.index(
        "The party conquers C1; Player 1 loses 1 Evil."
    )
    assert [a["dmg"] for a in after["players"][0]["party"]] == [1 + 1, 0]  # 2 - 1 absorbed; fatigue 1


def test_magic_shield_works_against_ghosts_as_the_faq_says() -> None:
    after = plan(shield_battle(None, monsters=["ghost"]), "fight C1 send ghost")
    # The ghost's 2 to the wizard (anyone but the first): 1 absorbed; fatigue 1 on the warrior.
    assert [a["dmg"] for a in after["players"][0]["party"]] == [1, 1]


def test_the_shield_spent_on_fatigue_does_not_let_more_fatigue_through() -> None:
    s = G.new(2, {"inaccessible": "random"}, 3)
    p = s["players"][0]
    p["party"] = [adv("warrior", 9, uid="w"), adv("wizard", 9, 1, uid="z")]
    battle = {"tile": "C1", "traps": [], "target": None, "sent": []}
    Battle(s, 0, battle, {**CARDS["shield"], "fatigue": 3}, []).run()
    assert [a["dmg"] for a in p["party"]] == [2, 0]  # 3 fatigue, the first point absorbed


# ---- item 14: Monster Strike says what happens -----------------------------------------------------


def test_monster_strike_tells_the_table_the_unpaid_monster_stays_face_down() -> None:
    s = G.new(2, {"inaccessible": "random"}, 5)
    p = s["players"][0]
    p["monsters"] = [{"id": "goblin", "up": True}, {"id": "troll", "up": True}, {"id": "ghost", "up": True}]
    p["food"] = 1
    ev: list[Event] = []
    events.special(s, "strike", ev)
    text = " ".join(e.text for e in ev)
    assert "leaves" not in text and "turned face down" in text, text
    assert (
        "Monster Strike: Player 1 cannot pay the Troll; it stays face down until this Year's Combat ends."
        in text
    )
    assert [m["up"] for m in p["monsters"]] == [True, False, True]  # the goblin paid, the ghost free
    assert len(p["monsters"]) == 3


def test_monster_strike_in_a_revision_2_game_prints_its_old_words() -> None:
    s = G.new(2, {"inaccessible": "random"}, 5, revision=2)
    ev: list[Event] = []
    events.special(s, "strike", ev)
    assert ev[0].text == "Special event: Monster Strike - " + events.STRIKE_TEXT_2


# ---- item 15: Tunnel Audit and the Secret Passage -------------------------------------------------


@pytest.mark.parametrize(("revision", "pays"), [(None, [False, True]), (2, [True, True])])
def test_tunnel_audit_ignores_the_secret_passage(revision: int | None, pays: list[bool]) -> None:
    # "any card or rule or effect that counts your tunnels or dungeon tiles ignores your secret
    # passage": two tunnels plus the passage do not pay like three.
    s = G.new(2, {"inaccessible": "random"}, 5, revision=revision)
    a, b = s["players"]
    a["grid"] = {"C1": {"k": "t", "c": False}, "C2": {"k": "t", "c": False},
                 "C3": {"k": "t", "c": False, "imp": "secret"}}  # fmt: skip
    b["grid"] = {c: {"k": "t", "c": False} for c in ("C1", "C2", "C3")}
    a["gold"] = b["gold"] = 3
    events.special(s, "tunnelaudit", [])
    assert [p["gold"] == 2 for p in s["players"]] == pays


# ---- item 16: the battle-plan chooser ---------------------------------------------------------------


def menu(s: dict[str, Any], path: list[str]) -> list[str]:
    return [t for t, _ in G.chooser(s, 0, path).options]


def test_no_aim_before_a_trap_nor_for_a_trap_that_cannot_be_aimed() -> None:
    s = plan_state(traps=["stone", "dart"], expansion=False)
    assert "at" not in menu(s, ["C1"])  # no Trap Card chosen yet
    assert "at" not in menu(s, ["C1", "trap", "trap-stone"])  # Rolling Stone hits the first
    assert "at" in menu(s, ["C1", "trap", "trap-dart"])


def test_aim_targets_are_only_where_someone_stands_in_words() -> None:
    s = plan_state(traps=["dart"], monsters=["ghost", "troll"], expansion=False)
    ch = G.chooser(s, 0, ["C1", "trap", "trap-dart", "at"])
    assert ch.options == [
        ("at-1", "The first Trap Card aims at the 1st in line: the warrior (level 1)"),
        ("at-2", "The first Trap Card aims at the 2nd in line: the wizard (level 1)"),
    ]
    # The ghost hits "anyone but the first": only the 2nd may be aimed at; a troll is not aimed.
    sent = ["C1", "send", "send-ghost", "send", "send-troll"]
    assert [t for t, _ in G.chooser(s, 0, [*sent, "aim"]).options] == ["aim-1"]
    assert [t for t, _ in G.chooser(s, 0, [*sent, "aim", "aim-1"]).options] == ["n-2"]


def test_no_installed_trap_answer_in_the_base_game_nor_where_none_is_installed() -> None:
    base = plan_state(expansion=False)
    assert all(not t.startswith("installed:") for t in menu(base, ["C1", "spell"]))
    x = plan_state()
    assert all(not t.startswith("installed:") for t in menu(x, ["C1", "spell"]))
    x["players"][0]["installed"] = [{"trap": "stone", "cell": "C1"}]
    assert {"installed:first", "installed:last"} <= set(menu(x, ["C1", "spell"]))


def test_an_illusion_standing_in_front_is_counted_in_the_aims() -> None:
    s = plan_state(traps=["dart"], expansion=False)
    s["players"][0]["illusion"] = {"cls": "illusion", "hp": 1, "dmg": 0, "level": 0, "icons": 0}
    labels = [lbl for _, lbl in G.chooser(s, 0, ["C1", "trap", "trap-dart", "at"]).options]
    assert labels[0].endswith("the 1st in line: the illusion") and len(labels) == 3


@pytest.mark.parametrize(("revision", "line"), [
    (None, "The warrior (level 1) is knocked out and thrown into Player 1's prison."),
    (2, "The warrior (l1) is knocked out and thrown into Player 1's prison."),
])  # fmt: skip
def test_knock_out_lines_are_words(revision: int | None, line: str) -> None:
    s = plan_state(revision=revision, party=[adv("warrior", 1, uid="w"), adv("priest", 9, uid="p")],
                   monsters=["goblin"])  # fmt: skip
    assert line in plan(s, "fight C1 send goblin")["combat"]["log"]


# ---- item 17: malformed moves ---------------------------------------------------------------------


def _mutants(action: str, pool: list[str], rnd: random.Random) -> list[Any]:
    w = action.split()
    out: list[Any] = []
    for i in range(len(w)):
        out.append(" ".join(w[:i] + w[i + 1 :]))  # a field removed
        for r in ("", "0", "-1", "99", "x", "none", "Z9", "R9", "+", "@", "troll@0", "@3", "-"):
            out.append(" ".join([*w[:i], r, *w[i + 1 :]]))  # retyped or emptied
        out.append(" ".join([*w[:i], rnd.choice(pool), *w[i + 1 :]]))
    if len(w) > 1:
        out.append(" ".join(w[1:] + w[:1]))  # swapped
    return out + [None, 3, [], {}, {"a": w[0]}, [action], action.encode()]


def test_malformed_moves_are_refused_in_one_sentence_with_the_state_unchanged() -> None:
    rnd = random.Random(29)
    tried = refused = 0
    for players, opts in ((2, None), (3, {"expansion": False}), (4, None)):
        s = G.new(players, opts, 290 + players)
        while not G.is_over(s):
            seat = rnd.choice(sorted(G.to_act(s)))
            legal = G.legal_actions(s, seat)
            if rnd.random() < 0.3:
                before = json.dumps(s, sort_keys=True)
                pool = [w for a in legal for w in a.split()]
                for m in [x for a in rnd.sample(legal, min(2, len(legal))) for x in _mutants(a, pool, rnd)]:
                    tried += 1
                    for call in (lambda: G.parse(m), lambda: G.apply(s, seat, m)):  # noqa: B023
                        try:
                            call()
                        except IllegalAction as exc:
                            refused += 1
                            text = str(exc)
                            assert text and "\n" not in text and len(text) <= 300, text
                            assert "Traceback" not in text and "{" not in text, text
                assert json.dumps(s, sort_keys=True) == before
            s, _ = G.apply(s, seat, G.ai_action(s, seat))
    assert tried > 2000 and refused > tried, (tried, refused)


# ---- revision 3: a stored game carried in the middle ----------------------------------------------


def test_a_revision_2_game_replays_under_the_old_rules_and_carried_plays_on_under_the_new() -> None:
    s = plan_state(revision=2, monsters=["goblin", "goblin"], pets=["babygolem"], card="peace")
    assert G.rules_revision(s) == 2
    old = plan(s, "fight C1 send goblin goblin pet babygolem")  # the old limit lets three fight
    assert len([x for x in old["combat"]["log"] if " deals " in x]) >= 3
    carried = G.upgrade(s, to=3)  # revision 3 is issue 29's (revision 4 is issue 38's)
    assert G.rules_revision(carried) == 3 and G.changes(2) and "Baby Golem" in G.changes(2)[0]
    with pytest.raises(IllegalAction):
        plan(carried, "fight C1 send goblin goblin pet babygolem")
    # The carried game plays on to its end under the new rules.
    state = plan(carried, "fight C1 send goblin pet babygolem")
    rnd = random.Random(3)
    while not G.is_over(state):
        seat = rnd.choice(sorted(G.to_act(state)))
        state, _ = G.apply(state, seat, G.ai_action(state, seat))
    assert G.rules_revision(state) == 3 and G.result(state).ranking


def test_a_whole_revision_2_game_replays_move_for_move() -> None:
    rnd = random.Random(8)
    s = G.new(3, None, 808, revision=2)
    moves = []
    while not G.is_over(s):
        seat = rnd.choice(sorted(G.to_act(s)))
        move = G.ai_action(s, seat)
        moves.append((seat, G.format(move)))
        s, _ = G.apply(s, seat, move)
    again = G.new(3, None, 808, revision=2)
    for seat, note in moves:
        again, _ = G.apply(again, seat, G.parse(note))
    assert again == s and again["revision"] == 2


def test_plan_chooser_module_has_no_fixed_aims_left() -> None:
    # The nine fixed aims ('at 1'..'at 9') are gone from the chooser (typed, they still parse).
    assert not hasattr(plan_chooser, "AIMS")
    assert G.parse("fight C1 trap dart at 7 send ghost@9") == "fight C1 trap dart at 7 send ghost@9"


# ---- found while playing the game again: the festival prize in words ---------------------------------


def test_a_festival_monster_prize_names_the_monster_and_its_real_price() -> None:
    # Festival prize "pay 1 food to hire a monster from the discard pile": the monster's own cost
    # and 1 food more; the label named the monster last and cut it off ("the …").
    from engine.dungeon_lords import festival, notation

    s = new_x(2, seed=3)
    s["phase"], s["task"] = "prize", {"type": "prize", "seat": 0}
    s["fest"] = {"boards": ["expert"], "order": [], "bids": {"0": 1, "1": 0}}
    s["discard"] = {"monsters": ["cockatrice"], "rooms": []}
    s["players"][0]["food"] = 5
    cost = notation.cost_words(festival.festival_monster_cost("cockatrice"))
    label = notation.describe(s, 0, "prize monster cockatrice")
    assert label == f"Festival prize: the Cockatrice from the discard pile for {cost}", label
    after, ev = G.apply(s, 0, G.parse("prize monster cockatrice"))
    assert "Player 1 takes the festival prize: the Cockatrice from the discard pile." in [e.text for e in ev]
    assert {"id": "cockatrice", "up": True} in after["players"][0]["monsters"]


# ---- found while playing the game again: the catapult is not loaded with a monster that fights ---------


def test_the_monster_catapult_is_loaded_with_a_monster_that_stays_home() -> None:
    # "If you use a Monster Catapult, you have to immediately discard the monster": the monster
    # goes on the Trap Card, so it cannot also be the one sent to fight (house decision 48).
    s = plan_state(monsters=["goblin", "troll"], traps=["catapult", "kamikaze"])
    after = plan(s, "fight C1 trap catapult send goblin")
    assert [m["id"] for m in after["players"][0]["monsters"]] == ["goblin"]  # the troll was loaded
    assert any(x.startswith("Goblin deals") for x in after["combat"]["log"])
    alone = plan_state(monsters=["goblin"], traps=["catapult", "kamikaze"])
    with pytest.raises(IllegalAction, match="Monster Catapult needs a monster"):
        plan(alone, "fight C1 trap catapult send goblin")
    assert plan(alone, "fight C1 trap catapult")["players"][0]["monsters"] == []


def test_a_revision_2_game_keeps_the_catapult_it_had() -> None:
    s = plan_state(revision=2, monsters=["goblin"], traps=["catapult", "kamikaze"])
    after = plan(s, "fight C1 trap catapult send goblin")  # loaded and still fighting, as it was
    assert after["players"][0]["monsters"] == [] and any(
        x.startswith("Goblin deals") for x in after["combat"]["log"]
    )
