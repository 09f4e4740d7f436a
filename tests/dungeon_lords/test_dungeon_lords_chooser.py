"""Issue 20 items 9-10: the move chooser. Every label says in words what the move does and
what it costs this player now (never the bare notation, never a word cut in half); each step
offers at most 25 options; three orders are three clicks and Done."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine.core import IllegalAction
from engine.dungeon_lords import notation

from .helpers import G, new_x

WORD_CUT = re.compile(r"\w…$")  # an ellipsis right after a letter would mean a word was cut


def _walk(state: dict[str, Any], seat: int, rnd: random.Random) -> tuple[Any, int, list[str]]:
    """Click through the chooser at random until a complete move; (move, clicks, labels)."""
    prefix: list[str] = []
    labels: list[str] = []
    while True:
        ch = G.chooser(state, seat, prefix)
        assert len(ch.options) <= 25, (state["phase"], len(ch.options))
        for token, label in ch.options:
            assert token and " " not in token, token
            labels.append(label)
        if ch.action is not None and (not ch.options or rnd.random() < 0.5):
            return ch.action, len(prefix), labels
        token = rnd.choice(ch.options)[0]
        prefix.append(token)


def _check_label(state: dict[str, Any], label: str) -> None:
    assert 0 < len(label) <= 80 and not WORD_CUT.search(label), label
    assert label[0].isupper(), label  # words, not a notation such as 'pay' or 'release goblin'


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_move_is_reached_by_clicks_with_labels_in_words(players: int) -> None:
    rnd = random.Random(players)
    verbs: set[str] = set()
    for game in range(2):
        s = G.new(players, None, 500 + players * 7 + game)
        while not G.is_over(s):
            seat = min(G.to_act(s))
            move, clicks, labels = _walk(s, seat, rnd)
            for label in labels:
                _check_label(s, label)
            for a in G.legal_actions(s, seat)[:40]:
                assert G.describe(s, a) != G.format(a)
            verbs.add(str(move).split()[0])
            s, _ = G.apply(s, seat, move)  # the chosen move is legal as it stands
    assert {"orders", "fight", "hire", "build", "dig", "mine"} <= verbs, verbs


def test_three_orders_are_three_clicks_and_done() -> None:
    s = new_x(3, seed=2)
    s = G.apply(s, 0, "keep food")[0] if s["phase"] == "inacc" else s
    while s["phase"] != "orders":
        seat = min(G.to_act(s))
        s, _ = G.apply(s, seat, G.legal_actions(s, seat)[0])
    seat = min(G.to_act(s))
    free = G.view(s, seat)["players"][seat]["inaccessible"]
    first = G.chooser(s, seat, [])
    assert first.action is None and len(first.options) <= 16 and "first order" in first.prompt
    tokens = [t for t, _ in first.options if not t.endswith("-")]
    assert not set(tokens) & set(free)  # inaccessible cards are not offered
    second = G.chooser(s, seat, tokens[:1])
    assert tokens[0] not in [t for t, _ in second.options]
    done = G.chooser(s, seat, [tokens[0], tokens[1] + "-", tokens[2]])
    assert done.options == [] and done.action == f"orders {tokens[0]} {tokens[1]}- {tokens[2]}"
    assert G.parse(done.action) == done.action
    G.apply(s, seat, done.action)
    with pytest.raises(IllegalAction):
        G.chooser(s, seat, [tokens[0], tokens[0]])  # the same card twice


def test_the_labels_the_issue_quoted_now_say_what_happens_and_what_it_costs() -> None:
    s = new_x(2, seed=3)
    s["phase"] = "resolve"
    s["task"] = {"type": "hire", "seat": 0, "loc": "monster", "space": 2}
    s["offer"]["monsters"] = ["troll", "cockatrice"]
    s["players"][0].update(food=9, gold=9, evil=5)
    # Hire Monster space III: "+1 food" on top of the Troll's 2 (rules.json hire_space3_extra_food).
    assert notation.describe(s, 0, "hire troll") == "Hire the Troll for 3 food"
    assert notation.describe(s, 0, "hire cockatrice evil") == "Hire the Cockatrice for 1 Evil and 1 food"
    s["players"][0]["grid"]["C2"] = {"k": "r", "room": "bakery", "c": False}
    assert notation.describe(s, 0, "use bakery food") == "Use the Bakery: gain 1 food for 2 imps"
    s["players"][0]["grid"]["C3"] = {"k": "r", "room": "training", "c": False}
    assert notation.describe(s, 0, "use training in") == "Send a free imp into the Training Room"
    assert notation.describe(s, 0, "release goblin").startswith("Let the Goblin go unpaid")
    assert notation.fit("word " * 30).endswith("word …") and len(notation.fit("word " * 30)) <= 80


def test_the_segments_of_every_legal_move_lead_through_the_chooser_to_it() -> None:
    rnd = random.Random(9)
    s = G.new(3, None, 77)
    checked = 0
    while not G.is_over(s):
        seat = min(G.to_act(s))
        legal = G.legal_actions(s, seat)
        for a in rnd.sample(legal, min(6, len(legal))):
            path = [tok for tok, _ in G.segments(s, seat, a)]
            for depth in range(len(path)):
                assert path[depth] in [t for t, _ in G.chooser(s, seat, path[:depth]).options], (a, path)
            assert G.chooser(s, seat, path).action == a
            checked += 1
        s, _ = G.apply(s, seat, G.ai_action(s, seat))
    assert checked > 300


# ---- issue 21 item 8: every battle plan by clicks ---------------------------------------------------
#
# The combat chooser's documented tokens (engine/dungeon_lords/plan_chooser.py): the tile, then
# per part 'trap' + 'trap-<id>', 'at' + 'at-<n>', 'send' + 'send-<monster>[+]', 'aim' + 'aim-<k>'
# + 'n-<n>', 'pet' + 'pet-<id>', 'spell' + '<answer>'. The test clicks them from the typed plan's
# meaning (not from the engine's own path), so a plan the chooser cannot reach fails here.

ANSWERS = ("peace:keep", "peace:withdraw", "suggestion:pay", "suggestion:withdraw", "installed:first",
           "installed:last")  # fmt: skip


def _combat_positions() -> list[tuple[dict[str, Any], int]]:
    """Real plan-phase positions: AI games (with and without the expansion) and random-move games."""
    out: list[tuple[dict[str, Any], int]] = []
    for k, (n, opts) in enumerate(
        [(2, None), (3, {"expansion": False}), (4, None), (2, {"expansion": False})]
    ):
        rnd = random.Random(k)
        s = G.new(n, opts, 900 + k)
        while not G.is_over(s):
            seat = min(G.to_act(s))
            if s["phase"] == "plan":
                out.append((s, seat))
            legal = G.legal_actions(s, seat)
            move = rnd.choice(legal) if k % 2 and legal and rnd.random() < 0.5 else G.ai_action(s, seat)
            s, _ = G.apply(s, seat, move)
    return out


def _random_plan(s: dict[str, Any], seat: int, rnd: random.Random) -> str:
    """A random typed plan: a tile (sometimes a wrong one), traps, 'at n', monsters with options and
    aims, a pet, spell answers - the parts in a random order, as a player might type them."""
    from engine.dungeon_lords.data import MONSTERS, TRAPS

    p = s["players"][seat]
    tiles = [c for c, t in p["grid"].items() if t.get("k") in ("r", "t")] or ["A1"]
    tile = rnd.choice(G_TILES(p) if rnd.random() < 0.85 else tiles)
    # Issue 29 item 16: the chooser aims only where someone stands and only whom the attack
    # may hit, so the typed plans aim the same way (a meaningless aim is typed only).
    line = [a for a in [p.get("illusion")] if a] + [
        q for q in s["paladins"] if q["status"] == "field" and q["at"] == seat
    ] + list(p["party"])  # fmt: skip
    aims = {
        "choice": range(1, len(line) + 1), "any": range(1, len(line) + 1), "split": range(1, len(line) + 1),
        "notfirst": range(2, len(line) + 1), "nonpriest": [n for n, a in enumerate(line, 1) if a["cls"] != "priest"],
    }  # fmt: skip
    parts: list[list[str]] = []
    if p["traps"] and rnd.random() < 0.6:
        traps = rnd.sample(p["traps"], rnd.randint(1, min(2, len(p["traps"]))))
        parts.append(["trap", *traps])
        if aims.get(TRAPS[traps[0]]["target"]) and rnd.random() < 0.6:
            parts.append(["at", str(rnd.choice(list(aims[TRAPS[traps[0]]["target"]])))])
    up = [m["id"] for m in p["monsters"] if m["up"] is True]
    if up and rnd.random() < 0.8:
        sent = []
        for mid in rnd.sample(up, rnd.randint(1, min(3, len(up)))):
            tok = mid + ("+" if len(MONSTERS[mid]["options"]) > 1 and rnd.random() < 0.4 else "")
            can = list(aims.get(MONSTERS[mid]["options"][tok.endswith("+")]["kind"], []))
            sent.append(tok + (f"@{rnd.choice(can)}" if can and rnd.random() < 0.5 else ""))
        parts.append(["send", *sent])
    pets = [x for x in p.get("pets", []) if x in COMBAT_PETS]
    if pets and rnd.random() < 0.5:
        parts.append(["pet", rnd.choice(pets)])
    installed = any(it["cell"] == tile for it in p.get("installed", []))
    for key in ("peace", "suggestion", "installed"):
        if rnd.random() < 0.3 and (installed or key != "installed"):
            parts.append([f"{key}:{rnd.choice([a for a in ANSWERS if a.startswith(key)]).split(':')[1]}"])
    rnd.shuffle(parts)
    return " ".join(
        ["fight", tile.lower() if rnd.random() < 0.3 else tile] + [w for part in parts for w in part]
    )


def _clicks_for(plan: dict[str, Any]) -> list[str]:
    toks = [plan["tile"]]
    toks += [x for t in plan["traps"] for x in ("trap", f"trap-{t}")]
    toks += ["at", f"at-{plan['target']}"] if plan["target"] is not None else []
    toks += [x for m, o in plan["send"] for x in ("send", f"send-{m}{'+' * o}")]
    toks += [x for i, n in plan.get("aim", {}).items() for x in ("aim", f"aim-{i + 1}", f"n-{n}")]
    toks += ["pet", f"pet-{plan['pet']}"] if plan["pet"] else []
    toks += [x for key, v in plan.get("if", {}).items() for x in ("spell", f"{key}:{v}")]
    return toks


def test_every_typed_battle_plan_is_reached_by_clicks_and_applies_the_same() -> None:
    from engine.dungeon_lords.notation import parse_plan

    rnd = random.Random(21)
    positions = _combat_positions()
    assert len(positions) >= 40, len(positions)
    accepted = aimed = trapped = answered = pets = 0
    for s, seat in positions:
        for _ in range(12):
            typed = _random_plan(s, seat, rnd)
            try:
                action = G.parse(typed)
                after_typed, _ = G.apply(s, seat, action)
            except IllegalAction:
                continue
            accepted += 1
            plan = parse_plan(action)
            aimed += bool(plan.get("aim")) or plan["target"] is not None
            trapped += bool(plan["traps"])
            answered += bool(plan.get("if"))
            pets += bool(plan["pet"])
            clicks = _clicks_for(plan)
            for depth, tok in enumerate(clicks):
                ch = G.chooser(s, seat, clicks[:depth])
                assert len(ch.options) <= 25, (typed, depth, len(ch.options))
                for t, label in ch.options:
                    assert t and " " not in t and len(t) <= 25, t
                    _check_label(s, label)
                assert tok in [t for t, _ in ch.options], (typed, clicks[:depth], ch.options)
            made = G.chooser(s, seat, clicks).action
            assert made is not None, typed
            # Done makes the plan /play makes of its parts typed in the plan form's order.
            assert made == G.parse(made) and parse_plan(made) == plan, (typed, made)
            after_made, _ = G.apply(s, seat, made)
            stored = after_made.get("combat", {}).get("plans", {})
            if stored.get(str(seat)) == made:  # the plan waits for the others, as its notation...
                stored[str(seat)] = action  # ...in the word order typed
            assert after_made == after_typed, typed  # otherwise the game is exactly the same
            path = [t for t, _ in G.segments(s, seat, made)]  # the engine's own way there
            assert sorted(path) == sorted(clicks) and G.chooser(s, seat, path).action == made, made
    assert accepted >= 300 and aimed >= 40 and trapped >= 20 and answered >= 60 and pets >= 10, (
        accepted, aimed, trapped, answered, pets)  # fmt: skip


def test_the_plan_chooser_offers_only_what_keeps_the_plan_legal_and_rejects_a_stale_click() -> None:
    s, seat = next((s, seat) for s, seat in _combat_positions() if s["players"][seat]["monsters"])
    first = G.chooser(s, seat, [])
    assert first.action is None and first.options  # the tile comes first
    tile = first.options[0][0]
    menu = G.chooser(s, seat, [tile])
    assert menu.action == f"fight {tile}"  # fighting with nothing is a legal plan: Done is open
    assert all(label[0].isupper() for _, label in menu.options)
    with pytest.raises(IllegalAction):
        G.chooser(s, seat, [tile, "send", "send-nosuchmonster"])
    # Walking every reachable menu (to a depth of 6 clicks) never offers an illegal plan.
    seen = 0
    stack = [[tile]]
    while stack and seen < 400:
        prefix = stack.pop()
        ch = G.chooser(s, seat, prefix)
        if ch.action is not None:
            G.apply(s, seat, ch.action)  # raises if the chooser made an illegal plan
            seen += 1
        if len(prefix) < 6:
            stack += [prefix + [t] for t, _ in ch.options]
    assert seen > 20


def G_TILES(p: dict[str, Any]) -> list[str]:  # noqa: N802 - the battle tiles, as the rules pick them
    from engine.dungeon_lords import board

    return list(board.battle_tiles(p))


COMBAT_PETS = {
    k
    for k, v in __import__("engine.dungeon_lords.data", fromlist=["PETS"]).PETS.items()
    if v["when"] == "combat"
}


def test_the_demon_s_meal_is_chosen_by_clicks() -> None:
    """Issue 21 item 8: 'hire demon goblin' (the Demon eats the monster named) needed typing;
    the chooser now offers the Demon, then each monster it may eat, or the cheapest."""
    from engine.dungeon_lords import board
    from engine.dungeon_lords.data import MONSTERS

    found = 0
    for seed in range(30):
        s = G.new(2, None, 3000 + seed)
        while not G.is_over(s) and found < 3:
            seat = min(G.to_act(s))
            t = s.get("task") or {}
            legal = G.legal_actions(s, seat)
            if t.get("type") == "hire" and "hire demon" in legal and board.edible(s["players"][seat]):
                food = board.edible(s["players"][seat])
                cheapest = min(food, key=lambda m: MONSTERS[m["id"]]["rank"])["id"]
                # The cheapest is the bare 'hire demon' (listed once, not twice under two names).
                meals = [x for x in dict.fromkeys(m["id"] for m in food) if x != cheapest]
                step = G.chooser(s, seat, ["hire-demon"])
                assert [tok for tok, _ in step.options] == ["cheapest", *meals]
                for meal in meals:
                    made = G.chooser(s, seat, ["hire-demon", meal]).action
                    assert made == G.parse(f"hire demon {meal}")
                    after, _ = G.apply(s, seat, made)
                    ids = [m["id"] for m in after["players"][seat]["monsters"]]
                    before = [m["id"] for m in s["players"][seat]["monsters"]]
                    assert ids.count(meal) == before.count(meal) - 1 and "demon" in ids
                found += bool(meals)
            s, _ = G.apply(s, seat, G.ai_action(s, seat))
        if found >= 3:
            break
    assert found >= 1
