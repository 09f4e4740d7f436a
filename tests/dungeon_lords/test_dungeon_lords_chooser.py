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
