"""Hidden information never reaches the public: purses in the hidden game, the
values and skulls of face-down humanoids (hidden even from their owner), the
deck order, and humanoids removed unseen at the end."""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import State, copy_state
from engine.monster_inn.data import HUMANOIDS, back_of
from render import monster_inn as R
from tests.monster_inn.helpers import GAME, finished

HUMANOID_ID = re.compile(r"\bH\d+\b")


def midgame(seed: int, players: int, moves: int, **options: object) -> State:
    s = GAME.new(players, options or None, seed)
    pick = random.Random(seed)
    for _ in range(moves):
        if GAME.is_over(s):
            break
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, pick.choice(GAME.legal_actions(s, seat)))
    return s


def permute_humanoids(s: State, rnd: random.Random) -> State:
    """Swap humanoids among the cards of the same back range, wherever they are
    (deck, inn, dungeons, box): only their hidden faces change."""
    t = copy_state(s)
    by_range: dict[str, list[str]] = {}
    for h in HUMANOIDS.values():
        by_range.setdefault(h.range, []).append(h.id)
    mapping: dict[str, str] = {}
    for ids in by_range.values():
        shuffled = ids[:]
        rnd.shuffle(shuffled)
        mapping.update(zip(ids, shuffled, strict=True))
    sub = lambda c: mapping.get(c, c)  # noqa: E731
    t["deck"] = [sub(c) for c in t["deck"]]
    t["inn"] = [sub(c) for c in t["inn"]]
    t["box"] = [sub(c) for c in t["box"]]
    for p in t["players"]:
        p["humanoids"] = [sub(c) for c in p["humanoids"]]
    # The deck order is hidden too, all but the back of its top card ("place them
    # facedown to create a draw deck"): a card of the same back goes on top.
    top = back_of(t["deck"][0]) if t["deck"] else None
    rnd.shuffle(t["deck"])
    if top is not None:
        same = [c for c in t["deck"] if back_of(c) == top]
        t["deck"].remove(same[0])
        t["deck"].insert(0, same[0])
    return t


def move_treasure(s: State, keep: set[int], rnd: random.Random) -> State:
    """Move gold and gems between the purses of seats not in ``keep``, keeping each
    type's total (the supply and pool are public and stay as they are)."""
    t = copy_state(s)
    others = [i for i in range(t["seats"]) if i not in keep]
    for kind in ("gold", "gem"):
        total = sum(t["players"][i][kind] for i in others)
        cuts = sorted(rnd.randint(0, total) for _ in range(len(others) - 1))
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        for i, n in zip(others, parts, strict=True):
            t["players"][i][kind] = n
    return t


def same_public(a: State, b: State, observers: list[int | None]) -> None:
    for seat in observers:
        assert GAME.view(a, seat) == GAME.view(b, seat), seat
    assert GAME.status(a) == GAME.status(b)
    assert R.render(GAME.view(a, None)) == R.render(GAME.view(b, None))


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 5]), moves=st.integers(0, 60))
def test_humanoid_faces_and_deck_order_are_secret_from_everyone(seed: int, players: int, moves: int) -> None:
    a = midgame(seed, players, moves)
    if GAME.is_over(a):
        return
    b = permute_humanoids(a, random.Random(seed))
    # Even the owner of a face-down humanoid does not know its value.
    same_public(a, b, [None, *range(players)])
    # The same next move gives the same public and private texts.
    seat = min(GAME.to_act(a))
    action = GAME.legal_actions(a, seat)[-1]
    a2, ea = GAME.apply(a, seat, action)
    b2, eb = GAME.apply(b, seat, action)
    assert [e.text for e in ea if e.seat is None] == [e.text for e in eb if e.seat is None]
    assert GAME.describe(a, action) == GAME.describe(b, action)
    if not GAME.is_over(a2) and a2["round"] == a["round"]:  # a new round draws from the (permuted) deck
        same_public(a2, b2, [None, *range(players)])


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 5]), moves=st.integers(0, 60))
def test_purses_are_secret_in_the_hidden_game(seed: int, players: int, moves: int) -> None:
    a = midgame(seed, players, moves)
    if GAME.is_over(a):
        return
    actor = min(GAME.to_act(a))
    b = move_treasure(a, {actor}, random.Random(seed))
    same_public(a, b, [None, actor])
    action = "leave" if "leave" in GAME.legal_actions(a, actor) else GAME.legal_actions(a, actor)[0]
    _, ea = GAME.apply(a, actor, action)
    _, eb = GAME.apply(b, actor, action)
    assert [e.text for e in ea if e.seat is None] == [e.text for e in eb if e.seat is None]


def test_purses_differ_in_the_open_variant() -> None:
    a = midgame(3, 4, 10, open_treasure=True)
    b = move_treasure(a, {0}, random.Random(1))
    b["players"][1]["gold"] += 1
    b["players"][2]["gold"] -= 1
    assert GAME.view(a, None) != GAME.view(b, None)


def test_private_events_go_only_to_the_actor() -> None:
    s = GAME.new(3, None, 4)
    seat = min(GAME.to_act(s))
    _, events = GAME.apply(s, seat, "gold")
    private = [e for e in events if e.seat is not None]
    assert private and all(e.seat == seat for e in private)
    assert all("You now hold" not in e.text for e in events if e.seat is None)


def test_no_humanoid_identity_in_any_public_text_or_view_of_a_whole_game() -> None:
    s = GAME.new(4, None, 8)
    pick = random.Random(8)
    while not GAME.is_over(s):
        view = json.dumps(GAME.view(s, None))
        assert not HUMANOID_ID.search(view) and '"card"' not in view
        assert not HUMANOID_ID.search(GAME.status(s))
        seat = min(GAME.to_act(s))
        acts = GAME.legal_actions(s, seat)
        assert not any(HUMANOID_ID.search(GAME.describe(s, a)) for a in acts)
        s, events = GAME.apply(s, seat, pick.choice(acts))
        for e in events:
            if not s["over"]:
                assert not HUMANOID_ID.search(e.text)
                assert "value" not in e.text


def test_unseen_humanoids_stay_hidden_after_the_end() -> None:
    # A supported monster's humanoid and one without a monster above are removed unseen.
    def game(h_supported: str, h_alone: str) -> State:
        return finished(
            [
                {"monsters": [("U20", "gold"), "O7"], "humanoids": [h_supported, "H9", h_alone], "gold": 3},
                {"monsters": ["K19"]},
                {},
            ]
        )

    a, b = game("H16", "H2"), game("H18", "H4")
    same_public(a, b, [None, 0, 1, 2])
    pub = GAME.view(a, None)["players"][0]["humanoids"]
    # Issue 17: the back shows the range AND the skulls (the card overview's "Facedown
    # Humanoid Card": "Combat Value Range ... Skulls (1-4)"); an unseen humanoid shows its back.
    assert pub[0] == {"type": "humanoid", "range": "16-20", "skulls": 4}
    assert pub[1] == {"type": "humanoid", "range": "6-10", "value": 9, "skulls": 2}  # revealed
    assert pub[2] == {"type": "humanoid", "range": "1-5", "skulls": 1}


def test_a_face_down_humanoid_shows_its_range_and_skulls_everywhere() -> None:
    # Card overview, "Facedown Humanoid Card": "Combat Value Range (1-5, 6-10, 11-15, 16-20)"
    # and "Skulls (1-4)" are on the back, so the table sees both: the inn, the dungeons, the
    # status line, the events and the button labels show them.
    from tests.monster_inn.helpers import play, stacked

    s = stacked(3, ["H17", "O4", "U10", "K2", "G3", "T5"], start=0)
    v = GAME.view(s, None)
    assert v["inn"][0] == {"type": "humanoid", "range": "16-20", "skulls": 4}
    assert "humanoid 16-20 (4 skulls)" in GAME.status(s)
    assert GAME.describe(s, "leave") == "Leave: take humanoid 16-20 (4 skulls)"
    assert GAME.chooser(s, 0, []).options[-1] == ("leave", "Leave: take humanoid 16-20 (4 skulls)")
    s2, events = GAME.apply(s, 0, "leave")
    assert "takes a humanoid (16-20, 4 skulls)" in events[0].text
    for seat in (None, 0, 1):
        assert GAME.view(s2, seat)["players"][0]["humanoids"] == [
            {"type": "humanoid", "range": "16-20", "skulls": 4}
        ]
    s2 = play(s2, (0, "bonus gold"))
    assert "Player 1" in GAME.status(s2) or "Player 2" in GAME.status(s2)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 5]), moves=st.integers(0, 60))
def test_history_labels_and_errors_are_the_same_whatever_is_hidden(
    seed: int, players: int, moves: int
) -> None:
    # Twins that differ in the humanoids' faces, the deck order and the purses of everyone but
    # the actor: the history line and button label of each move, and the sentence refusing any
    # move typed by anyone, must not tell them apart.
    a = midgame(seed, players, moves)
    if GAME.is_over(a):
        return
    actor = min(GAME.to_act(a))
    b = move_treasure(permute_humanoids(a, random.Random(seed)), {actor}, random.Random(seed + 1))
    legal = GAME.legal_actions(a, actor)
    assert legal == GAME.legal_actions(b, actor)
    labels = [GAME.describe(a, x) for x in legal]
    assert labels == [GAME.describe(b, x) for x in legal]
    assert len(set(labels)) == len(labels), "every button label is different"
    assert [GAME.public_format(a, actor, x) for x in legal] == [
        GAME.public_format(b, actor, x) for x in legal
    ]
    typed = [
        "gold",
        "gem",
        "swap",
        "leave",
        "bonus gold",
        "bonus gem",
        "support 1 gold",
        "nosupport",
        "dance",
    ]
    for seat in range(players):
        for text in typed:
            outcome = []
            for state in (a, b):
                try:
                    GAME.apply(state, seat, GAME.parse(text) if text != "dance" else text)
                    outcome.append("ok")
                except Exception as exc:  # IllegalAction, the only refusal
                    outcome.append(f"{type(exc).__name__}: {exc}")
            if seat != actor:
                assert outcome[0] == outcome[1], (seat, text, outcome)
                assert outcome[0].startswith("IllegalAction"), (seat, text, outcome)
