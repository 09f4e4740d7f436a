"""Dungeon Lords sample(view, rnd) (issue 30): a full state dealt from one seat's view.

The rulebook's secrets the sampler must deal rather than read: orders are "chosen
secretly" and "revealed" together; Trap Cards are kept "face down" ("you can look at
your own"); the decks of monsters, rooms, adventurers and events are drawn "from the
top"; Combat Cards are turned "one per round" (Festival Season: pets are "face down").
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine import core
from engine.dungeon_lords import sample as S
from engine.dungeon_lords.data import PETS, PETS_DOC, TRAP_COPIES, TRAPS
from tests.playout import play_on

G: Any = core.get("dungeon-lords")


def _states(n: int, seed: int, every: int = 9) -> list[dict[str, Any]]:
    """Positions of a game between easy players, early to late (every ``every`` moves,
    and the first of each phase, so every phase the game reaches is sampled)."""
    st = G.new(n, {}, seed)
    out, k, phase = [], 0, None
    while not G.is_over(st):
        if k % every == 0 or st["phase"] != phase:
            out.append(core.copy_state(st))
        phase = st["phase"]
        seat = min(G.to_act(st))
        st, _ = G.apply(st, seat, G.ai_action(st, seat))
        k += 1
    return out


POSITIONS = {n: _states(n, 10 + n) for n in (2, 4)}


def _traps(st: dict[str, Any]) -> Counter[str]:
    held = [t for p in st["players"] for t in p["traps"]]
    installed = [it["trap"] for p in st["players"] for it in p.get("installed", [])]
    return Counter(held + st["trap_deck"] + st["trap_discard"] + installed + st["opps"]["traps"])


@pytest.mark.parametrize("n", [2, 4])
def test_sample_shows_the_seat_exactly_its_view_and_the_same_moves(n: int) -> None:
    phases = set()
    for k, st in enumerate(POSITIONS[n]):
        for seat in range(n):
            v = G.view(st, seat)
            smp = S.sample(v, random.Random(k * 10 + seat))
            assert G.view(smp, seat) == v, (st["phase"], seat)
            assert G.legal_actions(smp, seat) == G.legal_actions(st, seat), (st["phase"], seat)
            phases.add(st["phase"])
    assert {"orders", "resolve", "production", "plan"} <= phases


@pytest.mark.parametrize("n", [2, 4])
def test_sample_holds_every_trap_card_and_pet_once(n: int) -> None:
    all_traps = Counter({t: TRAP_COPIES for t in TRAPS})
    all_pets = Counter({p: PETS_DOC["copies"] for p in PETS})
    for k, st in enumerate(POSITIONS[n][::3]):
        smp = S.sample(G.view(st, k % n), random.Random(k))
        assert _traps(smp) == all_traps
        pets = [x for p in smp["players"] for x in p["pets"] + p["used_pets"]] + smp["pet_deck"]
        assert Counter(pets + smp["pet_discard"]) == all_pets


def test_a_sample_plays_on_to_the_end() -> None:
    for k, st in enumerate(POSITIONS[2][::4] + POSITIONS[4][::6]):
        smp = S.sample(G.view(st, k % st["seats"]), random.Random(k))
        assert G.is_over(play_on(G, smp))


def _reshuffle(st: dict[str, Any], seat: int, rnd: random.Random) -> dict[str, Any]:
    """The same position with what ``seat`` cannot see dealt again: the other lords' Trap
    Cards and pets swapped with the decks, the decks to come reshuffled."""
    other = core.copy_state(st)
    traps = other["trap_deck"]
    pets = other.get("pet_deck", [])
    for s, p in enumerate(other["players"]):
        if s == seat:
            continue
        k = len(p["traps"])
        traps += p["traps"]
        rnd.shuffle(traps)
        p["traps"] = [traps.pop() for _ in range(k)]
        k = len(p["pets"])
        if other.get("phase") not in ("pet_pass", "pet_discard"):
            pets += p["pets"]
            rnd.shuffle(pets)
            p["pets"] = [pets.pop() for _ in range(k)]
    for y in ("1", "2"):
        for key in ("monsters", "rooms", "advs", "specials"):
            rnd.shuffle(other["decks"][y][key])
    other["rng"] = {"seed": rnd.randrange(2**31), "n": 0}
    return other


@pytest.mark.parametrize("n", [2, 4])
def test_what_the_seat_cannot_see_does_not_change_its_samples(n: int) -> None:
    rnd = random.Random(5)
    for k, st in enumerate(POSITIONS[n][::2]):
        seat = k % n
        other = _reshuffle(st, seat, rnd)
        assert other != st
        assert G.view(other, seat) == G.view(st, seat)
        a = S.sample(G.view(st, seat), random.Random(k))
        b = S.sample(G.view(other, seat), random.Random(k))
        assert a == b


def test_the_hidden_parts_vary_between_samples() -> None:
    st = next(s for s in POSITIONS[4] if s["year"] == 1 and s["round"] == 3)
    v = G.view(st, 0)
    hands, decks, cards = set(), set(), set()
    for i in range(30):
        smp = S.sample(v, random.Random(i))
        hands.add(tuple(tuple(p["traps"]) for p in smp["players"][1:]))
        decks.add(tuple(smp["decks"]["1"]["monsters"]))
        cards.add(tuple(smp["decks"]["1"]["cards"]))
        assert smp["players"][0]["traps"] == st["players"][0]["traps"]  # its own hand is its own
    assert len(decks) > 20 and len(cards) > 5
    assert len(hands) > 5 or not any(p["traps"] for p in st["players"][1:])


def test_secret_orders_given_are_dealt_not_read() -> None:
    st = next(s for s in POSITIONS[4] if s["phase"] == "orders" and s["orders"])
    given = next(int(s) for s in st["orders"])
    seat = (given + 1) % 4
    v = G.view(st, seat)
    seen = {tuple(S.sample(v, random.Random(i))["orders"][str(given)]) for i in range(20)}
    assert len(seen) > 1  # the real orders are one of many dealt


def test_the_base_game_and_four_seasons_sample_exactly_too() -> None:
    # Without the expansion there are no pets, opportunities or festival; Four Seasons has
    # 4 seasons a Year and no opportunities ("designed for 5-round Years").
    for options, n in (({"expansion": False}, 3), ({"seasons": 4}, 2)):
        st = G.new(n, options, 4)
        k = 0
        while not G.is_over(st):
            if k % 15 == 0:
                for seat in range(n):
                    v = G.view(st, seat)
                    smp = S.sample(v, random.Random(k))
                    assert G.view(smp, seat) == v
                    assert G.legal_actions(smp, seat) == G.legal_actions(st, seat)
            seat = min(G.to_act(st))
            st, _ = G.apply(st, seat, G.ai_action(st, seat))
            k += 1
