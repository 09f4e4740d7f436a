"""Search's hooks for Monster Inn (issue 30): ``sample(view, rnd)`` deals what a seat
cannot see - the faces behind the humanoid backs, the deck's order, the hidden purses -
and keeps everything it can see; the fast rollout plays the heuristic's moves; evaluate
and match_stats read a state the way the rules score it.

The rulebook's hidden parts: the deck lies "facedown to create a draw deck", humanoids
are placed "facedown" ("you won't know the exact Combat Values for the Humanoids"), and
"You should always keep your personal supply of Treasure hidden from the others"."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.core import State
from engine.monster_inn import ai
from engine.monster_inn.data import CARDS, HUMANOIDS, MONSTERS
from engine.monster_inn.sample import sample
from tests.monster_inn.helpers import GAME
from tests.playout import assert_sample_like_real, play_on, roundtrip


def easy_game(players: int, seed: int, open_treasure: bool = False) -> list[State]:
    """Every state of one game of easy players, start to end."""
    s = GAME.new(players, {"open_treasure": open_treasure}, seed)
    out = [s]
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
        out.append(s)
    return out


def positions(players: int, seed: int, open_treasure: bool = False) -> list[State]:
    """Early, middle and late states of a real game (not the end), and one with a
    bonus or support decision pending."""
    states = [s for s in easy_game(players, seed, open_treasure) if not GAME.is_over(s)]
    picked = [states[0], states[len(states) // 2], states[-1]]
    picked += [s for s in states if s["pending"] is not None][:1]
    return picked


CASES = [(3, 1), (3, 2), (4, 3), (5, 4), (5, 5)]


def components(state: State) -> tuple[Counter[str], Counter[str]]:
    """Every card wherever it lies, and every treasure (purses, pool, supply, support)."""
    cards: Counter[str] = Counter(state["deck"] + state["box"] + state["inn"])
    money: Counter[str] = Counter(state["supply"])
    if state["pool"]["type"]:
        money[state["pool"]["type"]] += state["pool"]["n"]
    for p in state["players"]:
        cards.update(m["card"] for m in p["monsters"])
        cards.update(p["humanoids"])
        money["gold"] += p["gold"]
        money["gem"] += p["gem"]
        money.update(m["support"] for m in p["monsters"] if m["support"])
    return cards, money


@pytest.mark.parametrize("players,seed", CASES)
def test_a_sample_shows_the_seat_exactly_its_view(players: int, seed: int) -> None:
    for real in positions(players, seed, open_treasure=seed == 3):
        for seat in range(players):
            view = GAME.view(real, seat)
            for k in range(3):
                smp = sample(view, random.Random(k))
                # Everything the view holds, the status line and the last turn's words included.
                assert_sample_like_real(GAME, smp, real, seat)
                assert components(smp) == components(real) == (Counter(list(CARDS)), Counter(gold=25, gem=25))
                # Each face-down humanoid is one of its back's range (the back shows it).
                for p, q in zip(smp["players"], real["players"], strict=True):
                    assert [CARDS[h].range for h in p["humanoids"]] == [
                        CARDS[h].range for h in q["humanoids"]
                    ]
                assert len(smp["deck"]) == len(real["deck"])


@pytest.mark.parametrize("players,seed", CASES)
def test_a_sample_plays_on_to_the_end(players: int, seed: int) -> None:
    real = positions(players, seed)[1]
    seat = min(GAME.to_act(real))
    s = play_on(GAME, sample(GAME.view(real, seat), random.Random(seed)), 1000)
    assert len(GAME.result(s).scores) == players


def reshuffled(real: State, seat: int, rnd: random.Random) -> State:
    """``real`` with what ``seat`` cannot see dealt anew: the humanoids of each range
    swapped among the places holding that range (backs stay), the deck below its top
    card shuffled and a monster on top swapped for another monster, and the hidden
    purses' gold and gems split anew among their seats."""
    s = GAME.upgrade(real)  # a copy
    places: list[tuple[Any, Any]] = [(s["inn"], i) for i in range(len(s["inn"]))]
    places += [(p["humanoids"], i) for p in s["players"] for i in range(len(p["humanoids"]))]
    places += [(s["deck"], i) for i in range(len(s["deck"]))]
    for lo in (1, 6, 11, 16):
        mine = [(box, i) for box, i in places if box[i] in HUMANOIDS and lo <= CARDS[box[i]].value <= lo + 4]
        ids = [box[i] for box, i in mine]
        rnd.shuffle(ids)
        for (box, i), cid in zip(mine, ids, strict=True):
            box[i] = cid
    if len(s["deck"]) > 1:
        below = s["deck"][1:]
        rnd.shuffle(below)
        s["deck"][1:] = below
        if s["deck"][0] in MONSTERS:
            k = next((i for i, c in enumerate(s["deck"]) if i and c in MONSTERS), None)
            if k is not None:
                s["deck"][0], s["deck"][k] = s["deck"][k], s["deck"][0]
    hidden = [] if s["options"].get("open_treasure") else [q for q in range(s["seats"]) if q != seat]
    for t in ("gold", "gem"):
        total = sum(s["players"][q][t] for q in hidden)
        for q in hidden:
            s["players"][q][t] = 0
        for _ in range(total):
            s["players"][rnd.choice(hidden)][t] += 1
    return s


@pytest.mark.parametrize("players,seed", CASES)
def test_what_the_seat_cannot_see_does_not_change_the_samples(players: int, seed: int) -> None:
    changed = 0
    for real in positions(players, seed):
        for seat in range(players):
            other = reshuffled(real, seat, random.Random(seed * 100 + seat))
            changed += other != real
            view = GAME.view(real, seat)
            assert GAME.view(other, seat) == view
            for k in range(2):
                assert sample(view, random.Random(k)) == sample(GAME.view(other, seat), random.Random(k))
    assert changed  # the reshuffle really dealt a different state


def test_the_hidden_parts_vary_between_samples() -> None:
    real = positions(4, 3)[1]
    seat = min(GAME.to_act(real))
    view = GAME.view(real, seat)
    samples = [sample(view, random.Random(k)) for k in range(40)]
    assert len({tuple(s["deck"]) for s in samples}) == 40
    faces = {tuple(h for p in s["players"] for h in p["humanoids"]) for s in samples}
    assert len(faces) > 20
    others = [q for q in range(4) if q != seat]
    purses = {tuple((s["players"][q]["gold"], s["players"][q]["gem"]) for q in others) for s in samples}
    assert len(purses) > 10
    # The seat's own purse is what it holds.
    assert all(s["players"][seat]["gold"] == real["players"][seat]["gold"] for s in samples)
    # The deck's top card always fits the back the table sees.
    top = view["deck_top"]
    assert all(CARDS[s["deck"][0]].type == top["type"] for s in samples)
    # No sample copies the real deck.
    assert all(s["deck"] != real["deck"] for s in samples)


def test_open_treasure_samples_keep_every_purse() -> None:
    real = positions(3, 7, open_treasure=True)[1]
    s = sample(GAME.view(real, 0), random.Random(1))
    assert [(p["gold"], p["gem"]) for p in s["players"]] == [(p["gold"], p["gem"]) for p in real["players"]]


def test_a_sample_reseeds_the_game_rng() -> None:
    real = positions(3, 1)[1]
    view = GAME.view(real, 0)
    seeds = {sample(view, random.Random(k))["rng"]["seed"] for k in range(10)}
    assert len(seeds) == 10


@pytest.mark.parametrize("players,seed", [(3, 11), (4, 12), (5, 13)])
def test_the_fast_rollout_plays_the_easy_players_moves(players: int, seed: int) -> None:
    """Search plays ``ai.rollout`` for the other seats: it must be the easy player."""
    checked = 0
    s = GAME.new(players, None, seed)
    pick = random.Random(seed)
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        assert ai.rollout(s, seat, random.Random(0)) == ai.choose(GAME.view(s, seat), legal, random.Random(0))
        checked += len(legal) > 1
        # Half the moves at random, so positions the easy player avoids are checked too.
        move = pick.choice(legal) if pick.random() < 0.5 else GAME.ai_action(s, seat)
        s, _ = GAME.apply(s, seat, move)
    assert checked > 20


@pytest.mark.parametrize("players,seed", [(3, 21), (4, 22), (5, 23)])
def test_play_changes_the_state_as_apply_does(players: int, seed: int) -> None:
    """Search plays its moves in place (``play``), without the move's words and the
    last-turn record: every other part of the state must come out as ``apply`` makes
    it, through bonus and support decisions, forced leaves, new rounds and the end."""
    s = GAME.new(players, None, seed)
    pick = random.Random(seed)
    kinds: set[str] = set()
    while not GAME.is_over(s):
        seat = min(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        move = pick.choice(legal) if pick.random() < 0.5 else GAME.ai_action(s, seat)
        new, _ = GAME.apply(s, seat, move)
        played = roundtrip(s)
        GAME.play(played, seat, move)
        assert played.get("last") == s.get("last")  # left as it was
        assert {**played, "last": None} == {**new, "last": None}
        kinds.add(move.split()[0] if s["pending"] is not None else "bid")
        s = new
    assert {"bid", "bonus"} <= kinds and kinds & {"support", "nosupport"}


def test_evaluate_prefers_the_better_dungeon() -> None:
    s = GAME.new(3, None, 2)
    s["players"][0]["monsters"] = [{"card": "U20", "support": None}, {"card": "K19", "support": None}]
    s["players"][1]["monsters"] = [{"card": "U1", "support": None}]
    assert 0.5 < ai.evaluate(s, 0) < 1
    assert 0 < ai.evaluate(s, 1) < 0.5
    # A 16-20 humanoid under Undead 20 costs 4 skulls 1 time in 5; supported, nothing.
    s["players"][0]["humanoids"] = ["H17"]
    exposed = ai.projected(s, 0)
    s["players"][0]["monsters"][0]["support"] = "gold"
    assert ai.projected(s, 0) == pytest.approx(exposed + 4 * 1 / 5)


def test_match_stats_counts_humanoids_under_monsters() -> None:
    s = GAME.new(3, None, 2)
    p = s["players"][0]
    p["monsters"] = [{"card": "O7", "support": None}, {"card": "U20", "support": "gem"}]
    p["humanoids"] = ["H12", "H19"]
    s["over"] = True
    stats = ai.match_stats(s, 0, [(0, "gold"), (1, "gem"), (0, "swap"), (0, "leave")])
    assert stats["humanoids_under_monsters"] == 1  # H12 beats Orcs 7; H19 lies under support
    assert stats["beaten_fame"] == 2 - 3
    assert stats["monster_fame"] == 4
    assert stats["remains"] == 1 and stats["swaps"] == 1


def test_a_game_of_rules_revision_2_samples_without_a_top_card() -> None:
    """Revision 2 showed no top card ("Everyone now sees the back of the deck's top card"
    came with revision 3): the sample must not show one either."""
    s = GAME.new(3, None, 9, revision=2)
    for _ in range(25):
        seat = min(GAME.to_act(s))
        s, _ = GAME.apply(s, seat, GAME.ai_action(s, seat))
    for seat in range(3):
        view = GAME.view(s, seat)
        assert view["deck_top"] is None
        smp = sample(view, random.Random(seat))
        assert GAME.view(smp, seat) == view
        assert smp["revision"] == 2


def test_the_searching_player_moves_from_the_view_alone() -> None:
    from engine import search

    for real in positions(3, 21):
        seat = min(GAME.to_act(real))
        view, legal = GAME.view(real, seat), GAME.legal_actions(real, seat)
        moves = {search.search(GAME, view, legal, random.Random(k), iterations=40) for k in (1, 1)}
        assert len(moves) == 1 and moves <= set(legal)  # legal, and the same for the same randomness
