"""Goal cards where they are chosen, discarded or scored (issue 40 item 3): each menu
option naming a goal says what it needs, and the two goals discarded at the start are
any two, picked in any order - a chooser-level change: the move is the same."""

from __future__ import annotations

from engine import core
from engine.dungeon_decorators import rules as R
from engine.dungeon_decorators.goal_notes import goal_need

GAME = core.get("dungeon-decorators")


def test_any_two_goals_in_any_order() -> None:
    """ "the first step offers 5 of the 6 cards and the second only cards listed after the
    first pick (to discard S5 and D21 one must start with S5)": now all 6, then the 5 others."""
    state = GAME.new(2, None, 1)
    hand = state["players"][0]["hand"]
    first = GAME.chooser(state, 0, [])
    assert [tok for tok, _ in first.options] == hand
    last = hand[-1]
    second = GAME.chooser(state, 0, [last])
    assert [tok for tok, _ in second.options] == [g for g in hand if g != last]
    done = GAME.chooser(state, 0, [last, hand[0]])
    assert done.options == [] and sorted(done.action["cards"]) == sorted([last, hand[0]])
    # The same move either way round, in the notation games in progress store.
    other = GAME.chooser(state, 0, [hand[0], last]).action
    assert GAME.format(done.action) == GAME.format(other) == f"discard {hand[0]} {last}"
    after, _ = GAME.apply(state, 0, done.action)
    assert sorted(after["players"][0]["hand"]) == sorted(hand[1:-1])


def test_every_goal_option_says_what_the_goal_needs() -> None:
    """ "Goals appear as codes with points ("S26 Dual Dens (8)") and what each needs is only
    in "What now?": say it where the goal is chosen, discarded or scored"."""
    state = GAME.new(2, None, 1)
    first = GAME.chooser(state, 0, [])
    for tok, _label in first.options:
        note = (first.descriptions or {})[tok]
        assert note == goal_need(tok) and f"{R.GOALS[tok]['points']} points:" in note
    assert goal_need("S26").startswith("8 points: 2x painted room with 2+ decorations")
    assert goal_need("D1") == "10 points: 1x swords, 1x spikes in one room"
    # The score step: a goal scored is described the same way (the easy player plays on
    # until it can score one).
    for _ in range(600):
        assert not GAME.is_over(state), "no goal could be scored in the game played"
        seat = min(GAME.to_act(state))
        scoring = [a for a in GAME.legal_actions(state, seat) if a.get("a") == "score"]
        if scoring:
            step = GAME.chooser(state, seat, [])
            notes = step.descriptions or {}
            tok = f"score{scoring[0]['goal']}"
            assert notes.get(tok) == goal_need(scoring[0]["goal"]), (tok, step.options, notes)
            return
        state, _ = GAME.apply(state, seat, GAME.ai_action(state, seat))
    raise AssertionError("no goal could be scored in the game played")


def test_a_goal_says_what_it_needs_where_it_is_drawn_and_scored() -> None:
    """Issue 40: a goal appeared as "S26 Dual Dens (8)" with its needs only in "What now?":
    the private draw and the public scoring line both say what the goal needs."""
    import random

    from engine import core
    from engine.dungeon_decorators.goal_notes import goal_needs
    from engine.dungeon_decorators.rules import GOALS

    game = core.get("dungeon-decorators")
    drawn = scored = 0
    for seed in range(1, 6):
        rnd, s = random.Random(seed), game.new(2, None, seed)
        while not game.is_over(s):
            seat = rnd.choice(sorted(game.to_act(s)))
            s, events = game.apply(s, seat, rnd.choice(game.legal_actions(s, seat)))
            for e in events:
                for gid, goal in GOALS.items():
                    if e.text.startswith("You draw " + gid + " "):
                        assert e.text.endswith(f": {goal_needs(gid)}.") and e.seat is not None
                        drawn += 1
                    elif " scores " + goal["name"] + " for " in e.text:
                        assert e.text.endswith(f": {goal_needs(gid)}.") and e.seat is None
                        scored += 1
    assert drawn and scored
