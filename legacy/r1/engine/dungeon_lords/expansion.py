"""Festival Season: which parts are on (the game options), and the setup of the
expansion's decks. The phase logic of the new parts lives in festival.py; the
combat parts in combat.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from legacy.r1.engine.core import Rng, State

from .data import ADVENTURERS, BOARDS, IMPROVED, PETS, PETS_DOC, RULES


def flags(options: dict[str, Any]) -> dict[str, Any]:
    """The expansion switches a game runs with, derived once from its options.

    The rulebook: "If you leave out the unique opportunities, you should also leave out
    the festival"; Beginners' plays 5 seasons but 4 combat rounds; Four Seasons keeps
    the base 4 combat rounds (house decision) and has no opportunities (they are
    "designed for 5-round Years") and so no festival."""
    exp = bool(options.get("expansion", True))
    if not exp:
        return {
            "exp": False, "seasons": RULES["seasons_per_year"], "combat_rounds": RULES["combat_rounds"],
            "opps": False, "festival": False, "pets": False, "bards": False, "paladins": "single",
            "beginners": False,
        }  # fmt: skip
    seasons = int(options.get("seasons", 5))
    beginners = bool(options.get("beginners", False))
    five = seasons == RULES["expansion"]["seasons"]
    opps = bool(options.get("opportunities", True)) and five
    return {
        "exp": True,
        "seasons": seasons,
        "combat_rounds": RULES["expansion"]["combat_rounds"]
        if five and not beginners
        else RULES["combat_rounds"],
        "opps": opps,
        "festival": opps and bool(options.get("festival", True)),
        "pets": bool(options.get("pets", True)),
        "bards": bool(options.get("bards", True)),
        "paladins": str(options.get("paladins", "two")),
        "beginners": beginners,
    }


def x(state: State) -> dict[str, Any]:
    """The flags of a game (states from before the expansion have none: the base game)."""
    return state.get("x") or flags({"expansion": False})


def keep(fl: dict[str, Any]) -> Callable[[dict[str, Any]], bool]:
    """Whether a component is in this game: expansion tiles only with the expansion."""
    return lambda d: fl["exp"] or not d.get("exp")


def paladin_cards(state: State) -> list[dict[str, Any]]:
    """This Year's paladins in the order they enter play (weakest first)."""
    y = str(state["year"])
    kind = x(state)["paladins"]
    base = ADVENTURERS["paladins"][y]
    if kind == "single":
        return list(base)
    elf, dwarf = ADVENTURERS["paladins_exp"][y]
    if kind == "three":
        return [elf, *base, dwarf]
    return [elf, dwarf]


def muster_cards(state: State) -> list[dict[str, Any]]:
    """The paladins Paladins' Muster brings into this Year (house decision 36): the elf and
    the dwarf when this Year has neither (the single-paladin variant: "you might get a special
    event that brings them into the game anyway"), otherwise none."""
    y = str(state["year"])
    have = {p["id"] for p in state.get("paladins", []) if p.get("year") == state["year"]}
    new = ADVENTURERS["paladins_exp"][y]
    return [] if have & {p["id"] for p in new} else list(new)


def setup(state: State, rng: Rng, setup: dict[str, Any]) -> None:
    """Unique Opportunity stacks (4 a Year), the Pet Deck, the discard piles."""
    fl = state["x"]
    state["discard"] = {"monsters": [], "rooms": []}
    state["y1_start"] = 0
    if not fl["exp"]:
        return
    if fl["opps"]:
        boards = list(BOARDS)
        rng.shuffle(boards)
        boards = setup.get("opps", boards)
        state["opps"] = {"1": boards[:4], "2": boards[4:8], "used": [], "now": None, "next": None}
        state["improved"] = list(IMPROVED)
    if fl["exp"]:
        # The Pet Deck exists even without the Pet Phase: pets "can still sneak into the game
        # via a unique opportunity" (and the Pet Fair).
        pets = [p for p in PETS for _ in range(PETS_DOC["copies"])]
        rng.shuffle(pets)
        state["pet_deck"] = setup.get("pets", pets)
        state["pet_discard"] = []
    for p in state["players"]:
        p.update(pets=[], used_pets=[], trained=0, rented=[], installed=[], invest=0, xp={})
