"""Monster Inn: the Game class - setup and the turn flow. The moves and scoring
are in rules.py, the notation in notation.py, the views in views.py."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine import core
from engine.core import Event, IllegalAction, Result, Rng, State, seat_ref

from . import last_turn, notation, rules, views
from .data import CARDS
from .rules import TYPES, other


class MonsterInn(core.Game):
    key = "monster-inn"
    title = "Monster Inn"
    plain_copy = True  # tests/test_plain_copy.py holds every state plain JSON
    min_players = 3
    max_players = 5
    options = {
        "open_treasure": core.Option(
            False, "Variant: open treasure - everyone's gold and gems are public (default: hidden)."
        )
    }
    blurb = (
        "Bid gold and gems to stay at the inn for the strongest monsters; the first to drop out "
        "takes the weakest creature - perhaps a humanoid that will ruin a monster later."
    )

    # ---- setup ---------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        n = state["seats"]
        setup = setup or {}
        rng = Rng(state)
        if "deck" in setup:
            deck = [str(c) for c in setup["deck"]]
            if len(set(deck)) != len(deck) or not set(deck) <= set(CARDS):
                raise IllegalAction("The stacked deck must list distinct card ids.")
        else:
            deck = sorted(CARDS)
            rng.shuffle(deck)
        start = setup["start"] if "start" in setup else rng.randint(0, n - 1)
        treasure = setup.get("treasure") or [[3, 3]] * n
        players = [{"gold": g, "gem": e, "monsters": [], "humanoids": []} for g, e in treasure]
        state.update(
            deck=deck,
            box=[c for c in sorted(CARDS) if c not in deck],
            inn=[],
            pool={"type": None, "n": 0},
            supply={t: 25 - sum(p[t] for p in players) for t in TYPES},
            players=players,
            in_round=[],
            turn=start,
            start=start,
            round=0,
            moves=0,
            pending=None,
            taken=[0] * n,
            over=False,
        )
        if min(state["supply"].values()) < 0:
            raise IllegalAction("The stacked treasure exceeds the 25 gold and 25 gems.")
        rules.new_round(state, start)

    # ---- turn structure ------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        seat = _acting(state)
        return set() if seat is None else {seat}

    def turn_id(self, state: State) -> str:
        """A turn is one Remain or Leave decision, with the humanoid bonus or the support
        request that follows it (docs/rules/monster-inn.md, "What a turn is"). The round is
        in the id: the last to leave a round by choice may start the next one."""
        if state["over"]:
            return "over"
        (seat,) = self.to_act(state)
        return f"{state['round']}:{seat}"

    def legal_actions(self, state: State, seat: int) -> list[str]:
        # Who acts without to_act's set (search asks this on every move it plays).
        if seat != _acting(state):
            return []
        pend = state["pending"]
        p = state["players"][seat]
        if pend is not None:
            if pend["kind"] == "bonus":
                return [f"bonus {t}" for t in TYPES if state["supply"][t] > 0]
            out = []
            for i in rules.support_targets(state, seat, pend["monster_kind"]):
                out += [f"support {i + 1} {t}" for t in TYPES if p[t] > 0]
            return [*out, "nosupport"]
        pool = state["pool"]
        kind = pool["type"]
        if kind is None:
            out = [t for t in TYPES if p[t] > 0]
        else:
            out = [kind] if p[kind] > 0 else []
            if p[other(kind)] >= pool["n"] + 2:
                out.append("swap")
        out.append("leave")
        return out

    # ---- moves -----------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, str):
            raise IllegalAction(notation.HELP)
        action = self.parse(action)
        events: list[Event] = []
        if self.rules_revision(state) < 3:  # what the last turn changed: kept from revision 3
            self._move(state, seat, action, events)
            return events
        pend = state["pending"]
        follow_up = pend is not None
        # Remaining (a treasure or a swap) adds no card to a dungeon, and nobody is forced
        # out after it (every seat still bidding stays in): nothing to compare afterwards.
        stays = not follow_up and (action in TYPES or action == "swap")
        before = None if stays else last_turn.snapshot(state, follow_up and pend["kind"] == "support")
        self._move(state, seat, action, events)
        last_turn.record(state, seat, before, events, follow_up=follow_up)
        return events

    def play(self, state: State, seat: int, action: Any) -> None:
        """The move in place for search: the same change to the state as ``apply``, but
        without the move's words and the last-turn record (``last`` is left as it was),
        which only the boards read and search never shows. ``action`` is a legal move,
        so in its own notation already."""
        self._move(state, seat, action, None)

    def _move(self, state: State, seat: int, action: str, events: list[Event] | None) -> None:
        """The move, then the flow after it; ``events`` None: no words (rules.py)."""
        pend = state["pending"]
        if pend is not None:
            (rules.bonus if pend["kind"] == "bonus" else rules.support)(state, seat, action, events)
        elif action in TYPES:
            rules.remain(state, seat, action, events)
        elif action == "swap":
            rules.swap(state, seat, events)
        elif action == "leave":
            rules.leave(state, seat, events)
        elif action.startswith("bonus"):
            raise IllegalAction("You only choose a bonus right after taking a humanoid.")
        else:
            raise IllegalAction(
                "You only choose support right after placing a monster of a kind you already have."
            )
        state["moves"] += 1
        self._advance(state, events)

    def _advance(self, state: State, events: list[Event] | None) -> None:
        """After a move: force the last player out, start the next round, or end."""
        while state["pending"] is None and not state["over"]:
            if len(state["in_round"]) == 1:
                rules.leave(state, state["in_round"][0], events, forced=True)
                continue
            if state["in_round"]:
                return
            n = state["seats"]
            if len(state["deck"]) < n:
                self._end(state, events)
                return
            start = (state["last_leaver"] + 1) % n
            rules.new_round(state, start)
            if events is not None:
                events.append(Event(f"Round {state['round']} begins; {seat_ref(start)} starts."))

    @staticmethod
    def _end_words(state: State) -> str:
        """'ends after the round in which the draw deck is exhausted for 4 or 5 players. For
        3 players, ... only 1 Creature remains in the draw deck. (This card should be returned
        to the box)'."""
        left = len(state["deck"])
        if left == 0:
            return "The deck is exhausted: the game is over. Dungeons are scored."
        what = "1 card is left in the deck" if left == 1 else f"{left} cards are left in the deck"
        goes = "goes" if left == 1 else "go"
        return (
            f"The game is over: {what}, too few for a round, and {goes} back to the box unseen. "
            "Dungeons are scored."
        )

    def _end(self, state: State, events: list[Event] | None) -> None:
        # 4-5 players: the deck is empty now. 3 players: 1 card is left; it goes to the box.
        if events is not None:
            events.append(Event(self._end_words(state)))
        state["box"] += state["deck"]
        state["deck"] = []
        state["over"] = True
        if events is None:
            return
        res = self.result(state)
        assert res.tiebreak is not None
        for s in range(state["seats"]):
            b = res.breakdown[s]
            events.append(
                Event(
                    f"{seat_ref(s)}: {res.scores[s]} fame (monsters {b['monsters']}, "
                    f"beaten {b['beaten']}, treasure {b['treasure']}; {res.tiebreak[s]} treasures)."
                )
            )

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        # A new round shows new cards and the end reveals humanoids: neither may be taken back.
        return (
            super().can_undo(before, after, seat, action)
            and before["round"] == after["round"]
            and not after["over"]
        )

    def pass_action(self, state: State, seat: int) -> str | None:
        """A skipped turn: leave when bidding (the rules' only move that needs nothing),
        decline support, take whichever bonus the supply still has (gold first)."""
        acts = self.legal_actions(state, seat)
        if not acts:
            return None
        pend = state["pending"]
        if pend is None:
            return "leave"
        return "nosupport" if pend["kind"] == "support" else acts[0]

    # ---- notation, chooser, views ------------------------------------------------------
    def parse(self, text: str) -> str:
        return notation.parse(text)

    def format(self, action: Any) -> str:
        return notation.format(action)

    def describe(self, state: State, action: Any) -> str:
        return notation.describe(state, action)

    def segments(self, state: State, seat: int, action: Any) -> list[tuple[str, str]]:
        return notation.segments(state, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        res = self.result(state) if state["over"] else None
        show_top = self.rules_revision(state) >= 3
        return views.view(state, seat, sorted(self.to_act(state)), res, show_top)

    def status(self, state: State) -> str:
        return views.status(state, self.result(state) if state["over"] else None)

    def private_text(self, state: State, seat: int) -> str:
        return views.private_text(state, seat)

    def header(self, state: State, seat: int) -> str:
        return views.header(state, seat, self.rules_revision(state) >= 3)

    def what_now(self, state: State, seat: int | None) -> str:
        return views.what_now(state, seat, sorted(self.to_act(state)))

    def narrow(
        self, state: State, seat: int, moves: Iterable[Any], prefix: list[str], prompt: str
    ) -> core.Choice:
        """The default one-step chooser, with a line under each option saying what it
        costs and gives (issue 28). (``narrow``, not ``chooser``: overriding ``chooser``
        would tell the tables layer that moves are built in steps, and Monster Inn's
        few moves are buttons.)"""
        choice = super().narrow(state, seat, moves, prefix, prompt)
        if not prefix and seat in self.to_act(state):
            choice.descriptions = views.option_notes(state, seat, [tok for tok, _label in choice.options])
        return choice

    # ---- end ---------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def result(self, state: State) -> Result:
        cols = rules.score_columns(state)
        scores, breakdown, treasures = [], [], []
        for s, p in enumerate(state["players"]):
            mon = sum(c["fame"] for c in cols[s] if c["outcome"] != "beaten")
            beaten = sum(c["fame"] for c in cols[s] if c["outcome"] == "beaten")
            t = p["gold"] + p["gem"]  # support treasure lies on monsters and is not counted
            scores.append(mon + beaten + t // 3)
            treasures.append(t)
            breakdown.append({"monsters": mon, "beaten": beaten, "treasure": t // 3})
        return Result(scores, core.rank(scores, treasures), breakdown, treasures)


def _acting(state: State) -> int | None:
    """The seat to act: the one a pending bonus or support waits for, else the turn's; None
    once the game is over."""
    if state["over"]:
        return None
    pend = state["pending"]
    return state["turn"] if pend is None else pend["seat"]  # type: ignore[no-any-return]
