"""Paladins' Muster (house decision 36): the new special event that brings the elven and
dwarven paladins into a single-paladin game ("Just be warned that you might get a special
event that brings them into the game anyway"), and toughens the paladins otherwise."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dungeon_lords import board, combat, events
from engine.dungeon_lords.data import SPECIAL
from tests.playout import random_playout

from .helpers import G, ai_until, new, new_x
from .test_dungeon_lords_festival_play import invariants
from .test_dungeon_lords_festival_structure import at, evil, pal_state


def year_ids(s: dict[str, Any], year: int | None = None) -> list[str]:
    y = s["year"] if year is None else year
    return [p["id"] for p in s["paladins"] if p["year"] == y]


def muster(s: dict[str, Any]) -> list[str]:
    ev: list[Any] = []
    events.special(s, "muster", ev)
    return [e.text for e in ev]


# ---- the deck -------------------------------------------------------------------------------
def test_muster_is_an_expansion_special_event_and_absent_from_the_base_game() -> None:
    assert SPECIAL["muster"]["exp"] and SPECIAL["muster"]["name"] == "Paladins' Muster"
    dealt_x = {c for seed in range(16) for y in "12" for c in new_x(3, seed=seed)["decks"][y]["specials"]}
    dealt_base = {c for seed in range(16) for y in "12" for c in new(3, seed=seed)["decks"][y]["specials"]}
    assert "muster" in dealt_x
    assert "muster" not in dealt_base and not any(SPECIAL[c].get("exp") for c in dealt_base)
    # dealt one copy only: never in both Years of one game
    for seed in range(16):
        d = new_x(3, seed=seed)["decks"]
        assert d["1"]["specials"].count("muster") + d["2"]["specials"].count("muster") <= 1


# ---- single-paladin game: the elf and the dwarf join the human ------------------------------
def test_single_paladin_muster_joins_elf_and_dwarf_in_three_paladin_order() -> None:
    s = pal_state(3, "single")
    evil(s, 0, 12)
    evil(s, 1, 10)  # not strictly more evil: the human stays with P1
    assert at(s) == {"paladin1": ("field", 0)}
    text = muster(s)
    # entry order (weakest first) is elf, human, dwarf as in Three Paladins; with two players on
    # the space the second paladin to enter is the elf, and the human stays with the most evil
    assert year_ids(s) == ["elf1", "paladin1", "dwarf1"]
    assert at(s) == {"elf1": ("field", 1), "paladin1": ("field", 0), "dwarf1": ("tent", None)}
    assert "The Elven Paladin sets out for the dungeon of Player 2." in text
    evil(s, 2, 13)  # a third player on the space: the dwarf enters and goes to the most evil
    assert at(s) == {"elf1": ("field", 1), "paladin1": ("field", 0), "dwarf1": ("field", 2)}
    pts = {p["id"]: p["points"] for p in s["paladins"]}
    assert (pts["elf1"], pts["paladin1"], pts["dwarf1"]) == (4, 5, 6)


def test_single_paladin_muster_takes_nobody_s_paladin_away() -> None:
    s = pal_state(3, "single")
    evil(s, 0, 10)
    evil(s, 0, 8)  # he never leaves because his player drops
    muster(s)
    assert at(s) == {"elf1": ("tent", None), "paladin1": ("field", 0), "dwarf1": ("tent", None)}
    evil(s, 1, 10)  # only one player on the space and one paladin in play: the human moves
    assert at(s) == {"elf1": ("tent", None), "paladin1": ("field", 1), "dwarf1": ("tent", None)}
    evil(s, 2, 11)  # two on the space: the elf enters; the human (stronger) goes to the most evil
    assert at(s) == {"elf1": ("field", 1), "paladin1": ("field", 2), "dwarf1": ("tent", None)}


def test_single_paladin_muster_before_anyone_reaches_the_space() -> None:
    s = pal_state(3, "single")
    muster(s)
    assert at(s) == {"elf1": ("tent", None), "paladin1": ("tent", None), "dwarf1": ("tent", None)}
    evil(s, 2, 10)  # the first to enter is the elf, exactly as in Three Paladins
    assert at(s) == {"elf1": ("field", 2), "paladin1": ("tent", None), "dwarf1": ("tent", None)}


def test_single_paladin_muster_is_for_this_year_only_and_in_year_two_brings_year_two_paladins() -> None:
    s = new_x(
        3,
        seed=31,
        options={"paladins": "single"},
        specials1=["harvest", "pardon"],
        specials2=["muster", "feast"],
    )
    s = ai_until(s, lambda st: st["year"] == 2, limit=20000)
    assert year_ids(s, 1) == ["paladin1"] and year_ids(s, 2) == ["paladin2"]
    s = ai_until(s, lambda st: "muster" in st["specials_seen"], limit=20000)
    assert year_ids(s, 1) == ["paladin1"]  # Year 1's paladin is untouched
    assert year_ids(s, 2) == ["elf2", "paladin2", "dwarf2"]
    hp = {p["id"]: p["hp"] for p in s["paladins"] if p["year"] == 2}
    assert hp == {"elf2": 8, "paladin2": 9, "dwarf2": 10}  # they come in with their printed hit points
    pub = G.view(s, None)
    assert [p["name"] for p in pub["paladins"] if p["year"] == 2] == [
        "Elven Paladin",
        "Human Paladin",
        "Dwarven Paladin",
    ]


def test_single_paladin_muster_drawn_at_the_event_step_of_a_played_game() -> None:
    s = new_x(
        2,
        seed=32,
        options={"paladins": "single"},
        events1=["special", "taxes", "special", "payday"],
        specials1=["muster", "pardon"],
    )
    s = ai_until(s, lambda st: "muster" in st["specials_seen"], limit=20000)
    assert s["year"] == 1 and s["specials_seen"] == ["muster"]  # the Event Step of round 2
    assert year_ids(s) == ["elf1", "paladin1", "dwarf1"]
    assert any("Paladins' Muster" in line for line in G.view(s, None)["log"])
    # the positions are exactly what the paladin rule gives for the current Evil
    check = {p["id"]: (p["status"], p["at"]) for p in s["paladins"]}
    board.check_paladin(s, [])
    assert {p["id"]: (p["status"], p["at"]) for p in s["paladins"]} == check
    s = ai_until(s, lambda st: st["year"] == 2, limit=20000)
    assert year_ids(s) == ["paladin2"]  # the next Year is single-paladin again


def test_two_player_single_muster_never_sends_a_paladin_to_the_non_player_twice() -> None:
    s = new_x(2, seed=8, options={"paladins": "single"})
    s["phase"] = "orders"
    s["dummy"]["evil"] = 10
    board.check_paladin(s, [])
    assert at(s) == {"paladin1": ("gone", None)} and s["dummy"]["pal_ignored"]
    muster(s)
    evil(s, 0, 10)
    evil(s, 1, 11)
    assert all(p["at"] != -1 for p in s["paladins"])
    assert at(s)["paladin1"] == ("gone", None)
    assert {at(s)["elf1"], at(s)["dwarf1"]} <= {("field", 0), ("field", 1), ("tent", None)}


# ---- the default game: the paladins are in already, so they get +1 hit point ---------------
def test_muster_in_the_two_paladin_game_gives_this_years_paladins_one_more_hit_point() -> None:
    s = pal_state(3, "two")
    evil(s, 0, 10)
    before = at(s)
    text = muster(s)
    assert year_ids(s) == ["elf1", "dwarf1"] and at(s) == before
    hp = {p["id"]: p["hp"] for p in s["paladins"]}
    assert hp == {"elf1": 6, "dwarf1": 8}
    assert any("+1 hit point" in t for t in text)
    elf = next(p for p in s["paladins"] if p["id"] == "elf1")
    assert combat.max_hp(elf) == 6 and combat.left(elf) == 6  # combat uses the new hit points
    assert {p["name"]: p["hp"] for p in G.view(s, None)["paladins"]} == {
        "Elven Paladin": 6,
        "Dwarven Paladin": 8,
    }


def test_muster_in_three_paladins_toughens_all_three_but_not_a_gone_one() -> None:
    s = pal_state(3, "three")
    muster(s)
    assert {p["id"]: p["hp"] for p in s["paladins"]} == {"elf1": 6, "paladin1": 7, "dwarf1": 8}
    s = new_x(2, seed=8)
    s["phase"] = "orders"
    s["dummy"]["evil"] = 10
    board.check_paladin(s, [])  # the elf leaves for the Distant Lands
    muster(s)
    assert {p["id"]: p["hp"] for p in s["paladins"]} == {"elf1": 5, "dwarf1": 8}


# ---- random games with the single paladin and the Muster stacked ----------------------------
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.sampled_from([2, 3, 4]), year=st.sampled_from(["1", "2"]))
def test_random_single_paladin_games_with_the_muster_end(seed: int, n: int, year: str) -> None:
    other = "2" if year == "1" else "1"
    stack = {f"specials{year}": ["muster", "pardon"], f"specials{other}": ["harvest", "feast"]}
    opts = {"paladins": "single", "setup": stack}
    state, _ = random_playout(G, n, seed, options=opts, check=invariants)
    assert G.is_over(state) and "muster" in state["specials_seen"]
    assert year_ids(state, int(year)) == [f"elf{year}", f"paladin{year}", f"dwarf{year}"]
    assert year_ids(state, int(other)) == [f"paladin{other}"]
    r = G.result(state)
    assert all(r.scores[s] == sum(r.breakdown[s].values()) for s in range(n))
