"""Dungeon Drawers: draft cards and draw a dungeon (A), draw the hero's path through
your neighbour's dungeon (B), then defend your own dungeon against its hero (C).

Phases A and B are simultaneous: in A the picks go clockwise but everyone who has
picked installs at once; in B every player draws a path at once. Phase C is turn
by turn, clockwise. The rules of each phase live in build.py, paths.py and
defend.py; this class is the turn flow and the contract.
"""

from __future__ import annotations

from typing import Any

from engine import core
from engine.core import Choice, Event, IllegalAction, Result, Rng, State, seat_ref

from . import board, build, defend, notation, paths, views
from .data import CARDS, DIE, HEARTS, SHEET, element_label
from .rules import crossed_monsters, empty_sheet, levels, score_player

STALE = "That choice is no longer open; open your moves again."


class DungeonDrawers(core.Game):
    key = "dungeon-drawers"
    title = "Dungeon Drawers"
    min_players = 2
    max_players = 4
    blurb = (
        "Draft cards and draw walls, traps, monsters and hidden treasure into your dungeon, "
        "draw the hero's path through your neighbour's, then defend your own with dice and cards."
    )

    # ---- setup ------------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        n = state["seats"]
        setup = setup or {}
        if "deck" in setup:
            deck = [int(c) for c in setup["deck"]]
            if len(deck) != len(set(deck)) or not set(deck) <= set(CARDS):
                raise IllegalAction("The stacked deck must list distinct card numbers 1 to 60.")
            removed = 60 - len(deck)
        else:
            deck = sorted(CARDS)
            Rng(state).shuffle(deck)
            removed = SHEET["setup"]["removed"][str(n)]
            deck = deck[removed:]  # returned to the box unseen
        stack = [int(d) for d in setup.get("dice", [])]
        if any(not 1 <= d <= DIE for d in stack):
            raise IllegalAction(f"A stacked die must show a face of the game's dice, 1 to {DIE}.")
        state.update(
            phase="build",
            round=0,
            start=int(setup.get("start", 0)),
            deck=deck,
            discard=[],
            boxed=removed,
            display=[],
            queue=[],
            stack=stack,
            turn=None,
            step=None,
            encounter=None,
            news=[],
            players=[self._new_player() for _ in range(n)],
        )
        build.start_round(state, [])

    @staticmethod
    def _new_player() -> dict[str, Any]:
        return {
            "sheet": empty_sheet(),
            "taken": [],
            "pending": None,
            "path": None,
            "hero": {"pos": -1, "hearts": HEARTS, "state": "in"},
            "hand": [],
            "deck": [],
            "on": [],
            "started": False,
        }

    # ---- turn structure ------------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        phase = state["phase"]
        if phase == "build":
            seats = {s for s, p in enumerate(state["players"]) if p["pending"] is not None}
            if state["queue"]:
                seats.add(state["queue"][0])
            return seats
        if phase == "path":
            n = state["seats"]
            return {s for s in range(n) if state["players"][(s - 1) % n]["path"] is None}
        if phase == "defend":
            return {state["turn"]}
        return set()

    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def current_element(self, state: State, seat: int) -> str | None:
        return build.current_element(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if self.is_over(state) or seat not in self.to_act(state):
            return []
        if state["phase"] == "build":
            return build.legal(state, seat)
        if state["phase"] == "path":
            owner = state["players"][(seat - 1) % state["seats"]]
            return [
                {"t": "path", "cells": c}
                for c in paths.candidate_paths(owner["sheet"], levels(owner["sheet"]))
            ]
        return defend.legal(state, seat)

    # ---- apply -----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, dict) or "t" not in action:
            raise IllegalAction("That is not a Dungeon Drawers move.")
        events: list[Event] = []
        {"build": self._apply_build, "path": self._apply_path}.get(state["phase"], self._apply_defend)(
            state, seat, action, events
        )
        state["news"] = (state["news"] + [e.text for e in events if e.seat is None])[-6:]
        return events

    def _apply_build(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        t = action["t"]
        if t in ("wall", "place", "treasure", "improve"):
            build.install(state, seat, action, events)
        elif t in ("take", "erase"):
            {"take": build.take, "erase": build.erase}[t](state, seat, action, events)
        elif t == "done":
            if build.done(state, seat, action, events):
                if state["round"] >= SHEET["setup"]["rounds"]:
                    paths.begin(state, events)
                else:
                    build.start_round(state, events)
        else:
            raise IllegalAction("In Phase A you take a card, install its elements, then type done.")

    def _apply_path(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        if action["t"] != "path":
            raise IllegalAction("In Phase B you draw the hero's path, like: path A1 A5 C5 C10 H10.")
        if paths.draw(state, seat, action, events):
            defend.begin(state, events)

    def _apply_defend(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        t = action["t"]
        if state["step"] == "encounter":
            if t == "play":
                defend.play(state, seat, action, events)
            elif t == "resolve":
                defend.resolve(state, seat, events)
            else:
                raise IllegalAction(
                    "Finish the encounter first: play dungeon actions (play 12) or type resolve."
                )
        elif t == "hero":
            defend.hero(state, seat, action, events)
        elif t == "refill":
            defend.refill(state, seat, action, events)
        elif t in ("play", "resolve"):
            raise IllegalAction(
                "Dungeon actions are played only during your own encounter; now play hero actions or refill."
            )
        else:
            raise IllegalAction(
                "Now play hero actions on an opponent (hero 12 Player 2) or refill your hand."
            )

    def _begin_turn(self, state: State, events: list[Event]) -> None:
        """Start the turn of ``state['turn']`` (tests build Phase C positions with it)."""
        defend.begin_turn(state, events)

    def pass_action(self, state: State, seat: int) -> Any:
        """Phase C has a do-nothing-more move: end the encounter, or refill without playing.
        Picking a card, installing and drawing a path may never be skipped."""
        if state["phase"] != "defend" or seat != state["turn"]:
            return None
        return {"t": "resolve"} if state["step"] == "encounter" else {"t": "refill", "under": []}

    # ---- undo ----------------------------------------------------------------------------------
    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        """Only the installs of the card still face up may be taken back (DuBuL ch.2 §1(3): "As long
        as the Card for the current round is still faceup, any elements that have been installed for
        this Card may be erased"). Picking the card is never taken back (the next player has seen it
        go), turning it over is final, paths are revealed together and Phase C reveals cards."""
        return bool(
            super().can_undo(before, after, seat, action)
            and isinstance(action, dict)
            and action.get("t") in build.INSTALL_ACTIONS
            and before["phase"] == after["phase"] == "build"
            and before["round"] == after["round"]
            and after["players"][seat]["pending"] is not None
        )

    # ---- notation and the chooser ------------------------------------------------------------
    def parse(self, text: str) -> Any:
        return notation.parse(text)

    def format(self, action: Any) -> str:
        return notation.format_action(action)

    def public_format(self, state: State, seat: int, action: Any) -> str:
        return notation.public_format(action)

    def describe(self, state: State, action: Any) -> str:
        return notation.describe(action)

    def segments(self, state: State, seat: int, action: Any) -> list[tuple[str, str]]:
        return notation.segments(state, seat, action)

    def chooser(self, state: State, seat: int, prefix: list[str]) -> Choice:
        """The hero's path is drawn one step at a time (only steps after which it can still be
        finished; Done once it stands on H10); every other move narrows the seat's moves by
        :meth:`segments`, with every wall placement on offer."""
        if self.is_over(state) or seat not in self.to_act(state):
            raise IllegalAction(STALE)
        if state["phase"] == "path":
            return self._path_choice(state, seat, prefix)
        moves = (
            build.legal(state, seat, every_wall=True)
            if state["phase"] == "build"
            else self.legal_actions(state, seat)
        )
        depth = len(prefix)
        options: dict[str, str] = {}
        done: Any = None
        for action in moves:
            segs = self.segments(state, seat, action)
            if [t for t, _ in segs[:depth]] != prefix:
                continue
            if len(segs) == depth:
                done = action
            else:
                options.setdefault(segs[depth][0], segs[depth][1])
        if done is None and not options:
            raise IllegalAction(STALE)
        return Choice(prompt=self._prompt(state, seat), options=list(options.items()), action=done)

    def _prompt(self, state: State, seat: int) -> str:
        if state["phase"] == "defend":
            return (
                "Play a dungeon action or resolve the encounter."
                if state["step"] == "encounter"
                else "Play hero actions on opponents, then refill your hand."
            )
        el = build.current_element(state, seat)
        if state["players"][seat]["pending"] is None:
            return "Take a card from the display."
        return f"Install the {element_label(el)}." if el else "Turn the card over (done) or erase it."

    def _path_choice(self, state: State, seat: int, prefix: list[str]) -> Choice:
        owner = (seat - 1) % state["seats"]
        sheet = state["players"][owner]["sheet"]
        cells = paths.cells_of(prefix)
        steps = paths.next_steps(sheet, cells) if cells is not None else None
        if cells is None or steps is None:
            raise IllegalAction(STALE)
        finished = cells[-1] == board.EXIT and board.path_problem(sheet, cells) is None
        if not steps and not finished:
            # only a forged or stale prefix gets here: every offered step can be finished
            raise IllegalAction(STALE)
        count = {c: cells.count(c) for c in cells}
        options = []
        for token, cell in steps:
            kind = sheet["grid"].get(cell)
            what = f" ({kind})" if kind else ""
            again = ", 2nd time" if count.get(cell) else ""
            options.append((token, f"{paths.STEP_WORDS[token]} to {cell}{what}{again}"[: notation.LABEL]))
        where = f"Hero's path in {seat_ref(owner)}'s dungeon: {len(cells)} space(s), now on {cells[-1]}."
        tail = " Done draws it here, or keep going." if finished else ""
        return Choice(
            prompt=where + tail,
            options=options,
            action={"t": "path", "cells": cells} if finished else None,
            preview={"owner": owner, "cells": cells, "next": [c for _, c in steps]},
        )

    # ---- views -------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        result = self.result(state).to_json() if self.is_over(state) else None
        return views.view(state, seat, sorted(self.to_act(state)), result)

    def status(self, state: State) -> str:
        return views.status(state)

    def private_text(self, state: State, seat: int) -> str:
        return views.private_text(state, seat)

    # ---- end -------------------------------------------------------------------------------------
    def result(self, state: State) -> Result:
        breakdown = [score_player(p) for p in state["players"]]
        scores = [sum(b.values()) for b in breakdown]
        fewer_crossed = [-crossed_monsters(p) for p in state["players"]]
        return Result(scores, core.rank(scores, fewer_crossed), breakdown, fewer_crossed)
