"""What a lord hides, and the choices it may decide (issue 38): his Trap Cards and his
face-down pets. The table knows only how many he holds, so a choice whose list of moves
reads them is never entered for him, not by the engine (a battle plan, the end of his
Production) nor by the bot's only-move rule (``DungeonLords.may_play_for``). Entering it
when it happens to be his only one would tell everybody what the cards are: "Your chosen
pet remains a secret until you use it"."""

from __future__ import annotations

from engine.core import State, rules_revision

# The phases whose moves read the hidden cards: Production (building pets), battle plans
# (Trap Cards, combat pets) and the Pet Phase (the pets passed and kept).
READS_HIDDEN = ("production", "plan", "pet_pass", "pet_discard")


def holds_hidden(state: State, seat: int) -> bool:
    """Whether the seat holds a Trap Card or a face-down pet."""
    p = state["players"][seat]
    return bool(p["traps"] or p.get("pets"))


def choice_reads_hidden(state: State, seat: int) -> bool:
    """Whether the seat's moves now depend on what it hides: the phases above while it
    holds hidden cards, and the Trap Card given back in the Second Year (which of his
    cards are alike is his secret)."""
    task = state.get("task") or {}
    if task.get("type") == "return" and task.get("seat") == seat:
        return True
    return state["phase"] in READS_HIDDEN and holds_hidden(state, seat)


def may_enter_for(state: State, seat: int) -> bool:
    """Whether the engine may enter the seat's only choice itself (revision 4 on; earlier
    revisions entered it whenever it was the only one, and replay so)."""
    return rules_revision(state) < 4 or not holds_hidden(state, seat)
