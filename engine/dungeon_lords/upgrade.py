"""Rules revisions of Dungeon Lords: what changed in each, and how a stored game is
carried (the contract: ``engine.core.Game.upgrade``; how to make a change: docs/storage.md)."""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.core import State

from .board import left_alive

REVISION = 5


def _to_3(state: State) -> State:
    """Revision 3 (issue 29) changes rules, not the state's shape: every field a revision-2
    state holds means the same, so the game goes on from where it stands."""
    return state


def _to_4(state: State) -> State:
    """Revision 4 (issue 38) changes rules, not the state's shape: a battle plan or a
    finished Production already entered stands, and the new choices (how each Cockatrice is
    paid, the catapult's load, the installed dart's aim) are asked from the next move on."""
    return state


# The line a party leaving alive wrote in the board's log before revision 5: it named no one.
_LEFT_UNNAMED = re.compile(r"^(\d+) adventurer\(s\) leave the dungeon alive\.$")


def _to_5(state: State) -> State:
    """Revision 5 (issue 40) changes the words the board's log stores, not the rules: a party
    leaving alive says whose dungeon it leaves. The lines already written are rewritten only
    where whose they are is certain: the end of Combat wrote one line for each lord whose party
    was still there, in seat order, so a run of as many lines as there are lords is one line
    for each lord in turn. A shorter run (some party was all captured) could be anyone's and
    keeps its words (house decision 54)."""
    lines = state.get("log", [])
    counts = [int(m.group(1)) if m else None for m in map(_LEFT_UNNAMED.match, lines)]
    start = 0  # where the current run of such lines began
    for k, count in enumerate([*counts, None]):
        if count is not None:
            continue
        if k - start == state["seats"]:
            for seat, i in enumerate(range(start, k)):
                lines[i] = left_alive(seat, int(counts[i] or 0))
        start = k + 1
    return state


STEPS: dict[int, Callable[[State], State]] = {3: _to_3, 4: _to_4, 5: _to_5}

CHANGES: dict[int, str] = {
    2: "The rules now follow the rulebook's sources: in a 3-player game Year 2 starts to the right of the "
    "Year-1 starter, the festival-season token stays with its player through Combat, a Cockatrice is paid "
    "explicitly, and battle plans are secret in the history like orders.",
    3: (
        "In Combat, Baby Golem counts toward the monster limit (unless a Golem comes too), Word of Peace "
        "answered 'withdraw' with no monster sent costs no Evil, Magic Shield also stops the first point "
        "of fatigue or poison, the Monster Catapult is loaded with a monster that stays home, Song of "
        "Courage makes the party conquer one more tile and take the fatigue again, an expert keeps its +2 "
        "until it really attacks, and no attack is wasted on an invisible wizard. Tunnel Audit ignores the "
        "Secret Passage, Monster Strike says an unpaid monster stays face down, a festival Cockatrice may "
        "be paid with Evil, discarded monsters (Witch Hunt, catapult) can be hired at the festival, and a "
        "rented Training Room is used once a round, also in the Second Year."
    ),
    4: (
        "Nobody's hidden pets or Trap Cards decide any more whether the table waits for them: a lord "
        "holding a face-down pet or Trap Cards always chooses his battle plan, one holding a face-down "
        "pet ends his own Production, and the Trap Card given back in the Second Year is always chosen. "
        "At Pay Day each Cockatrice is paid with food or Evil as you choose, and an Expertise Tile adds to the cost "
        "chosen; Suggestion charges an expert's surcharge too and lets a Cockatrice be paid with Evil; "
        "Hire Expert Monster offers both ways to pay a Cockatrice. You aim an installed Poisoned Dart, "
        "you choose the monster loaded into the Monster Catapult (a big monster hits harder), and the "
        "Witch's 1 and 1 hit two different adventurers."
    ),
    5: (
        "The board's list of what happened last now says whose dungeon each line of Combat is about: "
        "the adventurers who leave alive at the end of Combat, the battle each line belongs to, and a "
        "dungeon left with no tile to fight on. The rules do not change."
    ),
}
