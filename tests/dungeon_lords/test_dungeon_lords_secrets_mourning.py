"""Mourning is public: the public view carries it, and public combat events depend on
nothing the public view leaves out.

Regression for the reliability secrets run (docs/reliability.md): two states with the
same public view gave different public battle lines ("The bard (L2) sings: 2 Courage
Token(s)." in one, 1 in the other, then "Courage cancels 1 damage ..." lines). The
states differed in a player's ``mourn`` counter - the adventurers captured this Combat,
by which each bard sings less - which the view did not carry. The rulebook makes the
number public ("You can tell how many adventurers this is by counting the empty
spaces"), so the view now carries it (house decision 37).
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

from .helpers import G

KNOCKED_OUT = re.compile(r"^The (\w+) \(level \d\) is knocked out and thrown into Player (\d)'s prison\.$")


def bard_battle(seed: int) -> tuple[dict[str, Any], int]:
    """A state of a random Festival Season game at the start of a combat round's planning in
    which player ``k`` has captured adventurers this Combat and still faces a singing bard."""
    rnd = random.Random(seed)
    s = G.new(2 + seed % 3, None, seed)
    while not G.is_over(s):
        if s["phase"] == "plan" and all(v is None for v in s["combat"]["plans"].values()):
            for k, p in enumerate(s["players"]):
                if p["mourn"] and any(a["cls"] == "bard" for a in p["party"]):
                    return s, k
        seat = rnd.choice(sorted(G.to_act(s)))
        s, _ = G.apply(s, seat, rnd.choice(G.legal_actions(s, seat)))
    raise AssertionError(f"seed {seed}: no battle against a mourning bard")


def plan_round(s: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Every fighter plans (its first legal plan) until the round's battles are fought; the
    public events of it all."""
    public: list[str] = []
    rnd = s["combat"]["round"]
    while s["phase"] == "plan" and s["combat"]["round"] == rnd:
        seat = min(G.to_act(s))
        s, ev = G.apply(s, seat, G.legal_actions(s, seat)[0])
        public += [e.text for e in ev if e.seat is None]
    return s, public


SEEDS = [0, 2, 3, 7, 16]


def test_the_public_view_counts_the_adventurers_captured_this_combat() -> None:
    for seed in SEEDS:
        s, k = bard_battle(seed)
        # Counted independently of the engine's counter: the knock-outs of non-paladins into
        # P(k+1)'s prison in this Combat's (public) log.
        captured = [
            m.group(1)
            for line in s["combat"]["log"]
            if (m := KNOCKED_OUT.match(line)) and int(m.group(2)) == k + 1
        ]
        assert captured, seed
        for seat in (None, 0, 1):
            assert G.view(s, seat)["players"][k]["mourn"] == len(captured)


def test_the_bard_sings_less_for_each_capture_and_the_view_tells_so() -> None:
    s, k = bard_battle(2)
    bards = [a for a in s["players"][k]["party"] if a["cls"] == "bard"]
    mourn = s["players"][k]["mourn"]
    _, events = plan_round(copy.deepcopy(s))
    sung = [e for e in events if "sings" in e]
    expected = [b for b in bards if b["icons"] > mourn]
    assert len(sung) >= len(expected)
    # The same battle as if nothing had been captured: a different bard line - and a
    # different public view before it, so the public can tell why.
    fresh = copy.deepcopy(s)
    fresh["players"][k]["mourn"] = 0
    _, fresh_events = plan_round(copy.deepcopy(fresh))
    assert [e for e in fresh_events if "sings" in e] != sung
    assert G.view(fresh, None) != G.view(s, None)


def hidden_reversed(s: dict[str, Any]) -> dict[str, Any]:
    """``s`` with what nobody sees dealt otherwise: next Years' face-down adventurers and
    the Trap Card deck in reverse order."""
    other = copy.deepcopy(s)
    for y, d in other["decks"].items():
        if int(y) > other["year"]:
            d["advs"].reverse()
    other["trap_deck"].reverse()
    return other


def test_same_public_view_same_public_battle_lines() -> None:
    """The secrets property on the pairs the reliability run built, made real: for each
    number of captures a player may have mourned, (a) the public can tell it (the view
    differs from the real one's), and (b) a twin that differs from it only in hidden
    decks has the same public view and fights the same public battle lines. Before the
    fix the view agreed for different mourning and the bard lines did not."""
    pairs = 0
    bard_lines: set[tuple[str, ...]] = set()
    for seed in SEEDS:
        s, k = bard_battle(seed)
        for mourn in range(0, s["players"][k]["mourn"] + 2):
            variant = copy.deepcopy(s)
            variant["players"][k]["mourn"] = mourn
            if mourn != s["players"][k]["mourn"]:
                assert G.view(variant, None) != G.view(s, None), "the public view shows what was mourned"
            twin = hidden_reversed(variant)
            if twin == variant:
                continue  # nothing hidden left to deal otherwise
            assert G.view(twin, None) == G.view(variant, None)
            lines = plan_round(copy.deepcopy(variant))[1]
            assert plan_round(copy.deepcopy(twin))[1] == lines, (seed, mourn)
            bard_lines.add(tuple(e for e in lines if "sings" in e))
            pairs += 1
    assert pairs >= len(SEEDS), "twins differing in hidden decks were compared"
    assert len(bard_lines) > 1, "mourning changes the bard's song (the pairs are not all alike)"


def test_hidden_information_does_not_change_the_battle_lines() -> None:
    """Two reachable states that differ only in hidden information - the order of next
    Year's face-down adventurer deck and of the Trap Card deck - fight the same round with
    the same public lines."""
    for seed in SEEDS:
        s, _ = bard_battle(seed)
        other = copy.deepcopy(s)
        hidden = [d["advs"] for y, d in other["decks"].items() if int(y) > other["year"]] + [
            other["trap_deck"]
        ]
        for deck in hidden:
            deck.reverse()
        assert other != s and G.view(other, None) == G.view(s, None)
        after, public = plan_round(copy.deepcopy(s))
        after2, public2 = plan_round(copy.deepcopy(other))
        assert public2 == public
        v, v2 = G.view(after, None), G.view(after2, None)
        if after["year"] != s["year"]:
            # The round ended the Year: next Year's first adventurers are drawn face up (a reveal).
            v.pop("next_advs"), v2.pop("next_advs")
        assert v2 == v
