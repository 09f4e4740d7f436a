"""What a lord hides, and the choices it may decide (issue 38): his Trap Cards and his
face-down pets. The table knows only how many he holds, so a choice whose list of moves
reads them is never entered for him, not by the engine (a battle plan, the end of his
Production) nor by the bot's only-move rule (``DungeonLords.may_play_for``). Entering it
when it happens to be his only one would tell everybody what the cards are: "Your chosen
pet remains a secret until you use it"."""

from __future__ import annotations

from engine.core import State, rules_revision

# What the moves of each phase read of the hidden cards: Production its building pets, a
# battle plan its Trap Cards and combat pets, the Pet Phase the pets passed and kept.
READS: dict[str, tuple[str, ...]] = {
    "production": ("pets",),
    "plan": ("traps", "pets"),
    "pet_pass": ("pets",),
    "pet_discard": ("pets",),
}


def holds_hidden(state: State, seat: int) -> bool:
    """Whether the seat holds a Trap Card or a face-down pet."""
    p = state["players"][seat]
    return bool(p["traps"] or p.get("pets"))


def choice_reads_hidden(state: State, seat: int) -> bool:
    """Whether the seat's moves now depend on what it hides: the phases above while it
    holds the cards they read, and the Trap Card given back in the Second Year (which of
    his cards are alike is his secret)."""
    task = state.get("task") or {}
    if task.get("type") == "return" and task.get("seat") == seat:
        return True
    p = state["players"][seat]
    return any(p.get(kind) for kind in READS.get(state["phase"], ()))


def may_enter_for(state: State, seat: int) -> bool:
    """Whether the engine may enter the seat's only choice of this phase itself (revision 4
    on; earlier revisions entered it whenever it was the only one, and replay so)."""
    return rules_revision(state) < 4 or not choice_reads_hidden(state, seat)
