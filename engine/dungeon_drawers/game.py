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

from . import board, build, choose, defend, notation, paths, views, whatnow
from .data import ACTIONS, CARDS, DIE, HEARTS, SHEET
from .rules import crossed_monsters, empty_sheet, levels, score_player

STALE = core.STALE_CHOICE
PATH_OPTIONS = 25  # one select menu: the runs, "Turn earlier" and as many routes as fit


class DungeonDrawers(core.Game):
    key = "dungeon-drawers"
    title = "Dungeon Drawers"
    min_players = 2
    max_players = 4
    plain_copy = True  # tests/test_plain_copy.py holds every state plain JSON
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
        if self.rules_revision(state) >= 3:  # what the last turn changed: kept from revision 3
            state.update(last=None, mark=None)
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
            if seats and self.rules_revision(state) >= 3:
                # Revision 3 builds player by player (rulebook p.5: "it's best to install
                # building elements player-by-player"): the next pick waits for the card.
                return seats
            if state["queue"]:
                seats.add(state["queue"][0])
            return seats
        if phase == "path":
            n = state["seats"]
            return {s for s in range(n) if state["players"][(s - 1) % n]["path"] is None}
        if phase == "defend":
            return {state["turn"]}
        return set()

    def turn_id(self, state: State) -> str:
        """docs/rules/dungeon-drawers.md, "What a turn is": in Phase A a seat's build turn (take
        a card, install it, turn it over), numbered by round because the start player passes
        left and so plays two build turns in a row; Phase B is one turn for everyone (the paths
        are drawn at once and shown together); in Phase C a seat's turn (move, encounter,
        hero actions, refill)."""
        phase = state["phase"]
        if phase == "build":
            return f"A{state['round']}:" + ",".join(str(s) for s in sorted(self.to_act(state)))
        if phase == "path":
            return "B"
        if phase == "defend":
            return f"C:{state['turn']}"
        return "over"

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
        # What the last turn changed (issue 28) is kept from revision 3 on, so that an
        # earlier game replays to exactly the state it was played into.
        marked = self.rules_revision(state) >= 3
        mark = self._turn_mark(state) if marked else {}
        self._rules(state, seat, action, events)
        public = [e.text for e in events if e.seat is None]
        state["news"] = (state["news"] + public)[-6:]
        if not marked:
            return events
        mark["lines"] = (mark["lines"] + public)[-12:]
        if self.turn_id(state) != mark["id"]:
            # the board is posted when the turn id changes: it marks what changed since the last one
            state["last"] = views.changes(mark["snap"], state, mark["lines"])
            state["mark"] = None
        return events

    def play(self, state: State, seat: int, action: Any) -> None:
        """``Game.play`` (search, on states it owns): the move's rules only. The table's record
        of the move (the news, what the last turn changed, issue 28) is left as it was: search
        never reads it, and keeping it costs a snapshot of every dungeon a turn."""
        self._rules(state, seat, action, [])

    def _rules(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        {"build": self._apply_build, "path": self._apply_path}.get(state["phase"], self._apply_defend)(
            state, seat, action, events
        )

    def _turn_mark(self, state: State) -> dict[str, Any]:
        """The table as it stood when this turn began (kept in the state: the board drawn at the
        next turn frames what changed since, issue 28)."""
        mark = state.get("mark")
        turn = self.turn_id(state)
        if mark is None or mark["id"] != turn:
            mark = {"id": turn, "snap": views.snapshot(state), "lines": []}
        state["mark"] = mark
        return mark

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
        t = action["t"]
        if state["phase"] == "build" and t in ("take", "erase", "done", *build.INSTALL_ACTIONS):
            return choose.build_segments(state, seat, action)
        if t == "refill":
            return choose.refill_segments(action)
        if t == "hero" and state["phase"] == "defend":
            return self._hero_segments(state, seat, action)
        if t == "path" and state["phase"] == "path":
            owner = state["players"][(seat - 1) % state["seats"]]["sheet"]
            return [(tok, tok) for tok in paths.run_tokens(owner, action["cells"])]
        return notation.segments(state, seat, action)

    def chooser(self, state: State, seat: int, prefix: list[str]) -> Choice:
        """Every pick that completes a move plays it. Phase A: the card, each element's place
        on a labelled picture of the seat's dungeon, turning the card over (choose.py); the
        hero's path run by run (only runs after which it can still be finished; Done once it
        stands on H10); Phase C: dungeon actions, hero actions by card then dungeon, and the
        refill with any cards put under the deck."""
        if self.is_over(state) or seat not in self.to_act(state):
            raise IllegalAction(STALE)
        if state["phase"] == "path":
            return self._path_choice(state, seat, prefix)
        if state["phase"] == "build":
            return choose.build_choice(state, seat, prefix)
        legal = self.legal_actions(state, seat)
        if state["step"] == "encounter":
            return self.narrow(state, seat, legal, prefix, self._prompt(state, seat))
        return self._actions_choice(state, seat, legal, prefix)

    def _actions_choice(self, state: State, seat: int, legal: list[Any], prefix: list[str]) -> Choice:
        """Hero actions (card, then dungeon), or the refill: at once, or with cards put under."""
        prompt = self._prompt(state, seat)
        heroes = [a for a in legal if a["t"] == "hero"]
        hand = state["players"][seat]["hand"]
        if not prefix:
            first = self.narrow(state, seat, heroes, [], prompt).options if heroes else []
            return Choice(prompt, first + choose.refill_options(hand))
        refill = choose.refill_choice(state, seat, prefix)
        if refill is not None:
            return Choice(refill.prompt or prompt, refill.options, refill.action)
        return self.narrow(state, seat, heroes, prefix, prompt)

    def _hero_segments(self, state: State, seat: int, action: dict) -> list[tuple[str, str]]:
        """A hero action by its card, then the dungeon; one pick when the card can go on one
        dungeon only (always with two players: the one opponent)."""
        segs = notation.segments(state, seat, action)
        targets = {
            a["to"] for a in defend.legal(state, seat) if a["t"] == "hero" and a["card"] == action["card"]
        }
        if len(targets) != 1:
            return segs
        a = ACTIONS[CARDS[action["card"]].action]
        where = f"{seat_ref(action['to'])}'s dungeon"
        label = notation.fit(f"Hero action {a['name']} #{action['card']} on {where} ({a['short']})")
        return [(segs[0][0] + segs[1][0], label)]

    def _prompt(self, state: State, seat: int) -> str:
        if state["step"] == "encounter":
            return "Play a dungeon action or resolve the encounter."
        return "Play hero actions on opponents, then refill your hand."

    def _path_choice(self, state: State, seat: int, prefix: list[str]) -> Choice:
        """The path drawn run by run: each option runs to the next junction, monster or trap,
        or turn (paths.next_runs); beside the runs, whole routes to H10 (choose.path_routes);
        Done once it stands on H10."""
        owner = (seat - 1) % state["seats"]
        sheet = state["players"][owner]["sheet"]
        cells = paths.cells_of(prefix)
        more = bool(prefix) and prefix[-1] == paths.MORE
        if cells is None:
            raise IllegalAction(STALE)
        runs = (paths.straight_options if more else paths.next_runs)(sheet, cells)
        if runs is None:
            raise IllegalAction(STALE)
        finished = cells[-1] == board.EXIT and board.path_problem(sheet, cells) is None and not more
        if not runs and not finished:
            # only a forged or stale prefix gets here: every offered run can be finished
            raise IllegalAction(STALE)
        options = [(token, self._run_label(sheet, cells, token, run)) for token, run in runs]
        if not more and {t for t, _ in paths.straight_options(sheet, cells) or []} - {t for t, _ in runs}:
            options.append((paths.MORE, "Turn earlier: every space on the four straight lines"))
        labels = {run[-1]: run[-1] for _, run in runs}
        routes = [] if more else choose.path_routes(sheet, cells, runs, PATH_OPTIONS - len(options))
        for token, text, named, _way in routes:
            options.append((token, text))
            labels[named] = named
        where = f"Hero's path in {seat_ref(owner)}'s dungeon: {views.plural(len(cells), 'space')}, now on {cells[-1]}."
        tail = " Done draws it here, or keep going." if finished else ""
        if more:
            where += " Where does it turn?"
        return Choice(
            prompt=where + tail,
            options=options,
            action={"t": "path", "cells": cells} if finished else None,
            preview={
                "owner": owner,
                "cells": cells,
                "next": [run[-1] for _, run in runs],
                "runs": [run for _, run in runs],
                "labels": labels,
                "routes": [way for _, _, _, way in routes],
            },
        )

    @staticmethod
    def _run_label(sheet: dict, cells: list[str], token: str, run: list[str]) -> str:
        end = run[-1]
        met = [f"{sheet['grid'][c]} {c}" for c in run if sheet["grid"].get(c) in board.BLOCKER_KINDS]
        what = f", over {', '.join(met)}" if met else ""
        again = ", 2nd time" if end in cells else ""
        parts = paths.run_parts(token) or []
        if len(parts) == 1:
            way = f"{paths.STEP_WORDS[parts[0][0]]} {'1 space' if len(run) == 1 else f'{len(run)} spaces'}"
        else:
            way = " then ".join(f"{paths.STEP_WORDS[d]} {n}" for d, n in parts)
        return notation.fit(f"{end}: {way}{what}{again}")

    # ---- views -------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        result = self.result(state).to_json() if self.is_over(state) else None
        return views.view(state, seat, sorted(self.to_act(state)), result)

    def status(self, state: State) -> str:
        return views.status(state)

    def private_text(self, state: State, seat: int) -> str:
        return views.private_text(state, seat)

    def header(self, state: State, seat: int) -> str:
        return views.header(state, seat)

    def what_now(self, state: State, seat: int | None) -> str:
        """Issue 28's "What now?": the phase, what this seat can do, what each choice costs and
        gives (whatnow.py); only what the seat may see."""
        return whatnow.what_now(state, seat)

    # ---- end -------------------------------------------------------------------------------------
    def result(self, state: State) -> Result:
        breakdown = [score_player(p) for p in state["players"]]
        scores = [sum(b.values()) for b in breakdown]
        fewer_crossed = [-crossed_monsters(p) for p in state["players"]]
        return Result(scores, core.rank(scores, fewer_crossed), breakdown, fewer_crossed)
