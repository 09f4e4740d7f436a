"""Issue 28 for Dungeon Lords: the /rules guide sections and the "What now?" answer.

Issue 28: "A newcomer can play every decision from it: for Dungeon Lords every order and its
I/II/III spaces, costs and gains, food, pay day, taxes, the adventurer classes and the order of
a battle round"; "What now?": "the current phase in two or three sentences, what this player
can do, and what each choice costs and gives"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from engine.dungeon_lords.data import LOC, MONSTERS, ROOMS, TRAPS

from .helpers import G, act, ai_until, new_x

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "dungeon-lords.md"


def _sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.MULTILINE)
    return {p.split("\n", 1)[0].strip(): "## " + p for p in parts[1:]}


def test_guide_sections_present_and_short() -> None:
    sec = _sections()
    guide = {k: v for k, v in sec.items() if k.startswith("Guide: ")}
    for want in ("goal", "Setup", "round", "orders", "Monsters", "Pay Day", "Adventurers", "Combat",
                 "Festival", "Scoring", "Marks", "Variants"):  # fmt: skip
        assert any(want in k for k in guide), f"no guide section on {want}"
    for k, v in guide.items():
        assert len(v) < 4096, f"{k} is {len(v)} characters"
    # The guide comes before the rules as implemented (which stay, with the House decisions).
    names = list(sec)
    assert names.index("Rules as implemented") > max(names.index(k) for k in guide)
    assert "House decisions" in sec and "What a turn is" in sec


def test_guide_names_every_order_space_monster_room_and_trap() -> None:
    guide = "\n".join(v for k, v in _sections().items() if k.startswith("Guide: "))
    orders = _sections()["Guide: The eight orders and their spaces"]
    assert "| Space I | Space II | Space III |" in orders
    for loc in LOC.values():
        assert f"| {loc['name']} |" in orders
    # "Get Food I pay 1 gold → 2 food, II Evil+1 → 3 food, III Evil+2 → 3 food + 1 gold"
    assert "| Get Food | pay 1 gold: 2 food | Evil +1: 3 food | Evil +2: 3 food and 1 gold |" in orders
    for d in (*MONSTERS.values(), *ROOMS.values(), *TRAPS.values()):
        if d["name"] != "Baby Golem":
            assert d["name"] in guide, d["name"]
    for word in ("Pay Day", "Taxes", "rounded up", "Warrior", "Thief", "Priest", "Wizard", "Bard",
                 "Order of a battle round", "Evil-ometer", "Tax penalty", "Troll tokens",
                 "Captured this Combat (bards mourn)"):  # fmt: skip
        assert word in guide, word


def _walk(n: int, seed: int) -> dict[tuple[str, Any], list[tuple[dict[str, Any], int]]]:
    """Each (phase, task) a game passes through, with a state and a seat to act."""
    st = new_x(n, seed)
    out: dict[tuple[str, Any], list[tuple[dict[str, Any], int]]] = {}
    while not G.is_over(st):
        key = (st["phase"], (st.get("task") or {}).get("type"))
        seat = min(G.to_act(st))
        out.setdefault(key, []).append((st, seat))
        st, _ = G.apply(st, seat, G.ai_action(st, seat))
    out[("over", None)] = [(st, 0)]
    return out


@pytest.fixture(scope="module")
def walked() -> dict[tuple[str, Any], list[tuple[dict[str, Any], int]]]:
    out = _walk(2, 1)
    for k, v in _walk(4, 2).items():
        out.setdefault(k, v)
    return out


# Per phase, words the answer must hold: what the phase is and what the choices cost/give.
EXPECT = {
    ("orders", None): [
        "Orders: everyone secretly picks 3",
        "with what each space costs and gives",
        "On offer:",
    ],
    ("resolve", "dig"): ["Dig Tunnels", "Dig a tunnel (1 imp):", "Stop digging"],
    ("resolve", "mine"): ["Mine Gold", "to mine"],
    ("resolve", "hire"): ["Hire Monster", "Hire the"],
    ("resolve", "build"): ["Build Room", "Build"],
    ("production", None): ["Production", "your rooms:", "Done"],
    ("payday", "payday"): ["Pay Day", "Your monsters cost"],
    ("festival", None): ["Festival", "to the festival (secret)"],
    ("pet_pass", None): ["Pet Phase", "Pass"],
    ("pet_discard", None): ["Pet Phase", "Discard"],
    ("plan", None): [
        "Combat, round",
        "bards, trap, fast spell, monsters, slow spell, healing",
        "Plan your battle",
    ],
}


def test_what_now_per_phase(walked: dict[tuple[str, Any], list[tuple[dict[str, Any], int]]]) -> None:
    for key, words in EXPECT.items():
        assert key in walked, f"the games never reached {key}"
        st, seat = walked[key][0]
        text = G.what_now(st, seat)
        assert len(text) <= 1500
        for w in words:
            assert w in text, f"{key}: {w!r} not in {text!r}"
        assert "{'" not in text and "_" not in text, text


def test_what_now_every_phase_short_and_clean(
    walked: dict[tuple[str, Any], list[tuple[dict[str, Any], int]]],
) -> None:
    for key, items in walked.items():
        st, seat = items[0]
        for s in (None, *range(st["seats"])):
            text = G.what_now(st, s)
            assert 0 < len(text) <= 1500, key
            assert not re.search(r"\{'|\['|None|True|False|[a-z]+_[a-z]+", text), (key, text)
            if s is not None and s not in G.to_act(st) and key[0] != "over":
                assert "Nothing for you to do now" in text


def test_what_now_over(walked: dict[tuple[str, Any], list[tuple[dict[str, Any], int]]]) -> None:
    st, _ = walked[("over", None)][0]
    assert "The game is over" in G.what_now(st, None)
    assert "Scores:" in G.what_now(st, 0)


def test_what_now_shows_only_the_seats_own_secrets() -> None:
    """A watcher hears no hand; a seat hears its own Trap Cards in the plan, never another's."""
    st = new_x(2, 3)
    st = ai_until(st, lambda s: s["phase"] == "plan")
    p0, p1 = st["players"][0], st["players"][1]
    p0["traps"], p1["traps"] = ["stone"], ["spikes"]
    watcher = G.what_now(st, None)
    assert "Rolling Stone" not in watcher and "Spike Pit" not in watcher and "You:" not in watcher
    if 0 in G.to_act(st):
        mine = G.what_now(st, 0)
        assert "Rolling Stone" in mine and "Spike Pit" not in mine


def test_what_now_orders_lists_only_the_cards_in_hand() -> None:
    st = new_x(2, 1)
    st = ai_until(st, lambda s: s["phase"] == "orders")
    p = st["players"][0]
    text = G.what_now(st, 0)
    for c in LOC:
        line = f"- {LOC[c]['name']}:"
        assert (line in text) == (c not in p["inacc"]), c
    # After seat 0 has given its orders, it waits and hears who is still to give them.
    hand = [c for c in LOC if c not in p["inacc"]][:3]
    st = act(st, 0, "orders " + " ".join(hand))
    assert "Nothing for you to do now" in G.what_now(st, 0)
