"""Dungeon Drawers: draft cards and draw a dungeon (A), draw the hero's path through
your neighbour's dungeon (B), then defend your own dungeon against its hero (C).

Phases A and B are simultaneous: in A the picks go clockwise but everyone who has
picked installs at once; in B every player draws a path at once. Phase C is turn
by turn, clockwise.
"""

from __future__ import annotations

import copy
from typing import Any

from legacy.r1.engine import core
from legacy.r1.engine.core import Event, IllegalAction, Result, Rng, State

from . import board
from .data import (
    ACTIONS,
    BASE_DICE,
    CARDS,
    DEATH_POINTS,
    HEARTS,
    MAX_DICE,
    ROUNDS,
    SHEET,
    TARGET,
    TRACKS,
    card_name,
    card_text,
    element_label,
    level,
    track_size,
)

MONSTERS = board.MONSTER_KINDS
INSTALL_ACTIONS = ("take", "wall", "place", "treasure", "improve", "erase")
WALL_OPTIONS = 40  # legal_actions offers at most this many wall placements (apply takes any)


def seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def _small_number(t: str) -> bool:
    """Plain digits int() can read quickly: '①'.isdigit() is True but int('①') raises."""
    return t.isascii() and t.isdigit() and len(t) <= 6


def _parse_seat(
    token: str,
) -> int:
    t = token.strip().upper().lstrip("P")
    if not _small_number(t) or not 1 <= int(t) <= 4:
        raise IllegalAction("Name the dungeon by its player, like P2.")
    return int(t) - 1


def _card_id(token: str) -> int:
    t = token.strip().lstrip("#")
    if not _small_number(t) or int(t) not in CARDS:
        raise IllegalAction(f"'{token}' is not a card number (cards are numbered 1 to 60).")
    return int(t)


def _cell(token: str) -> str:
    c = board.parse_cell(token)
    if c is None:
        raise IllegalAction(f"'{token}' is not a space: use a column A-H and a row 1-10, like C5.")
    return c


def empty_sheet() -> dict[str, Any]:
    return {"grid": {}, "crossed": [], "treasures": [], "imp": {t: 0 for t in TRACKS}}


def active_kind(sheet: dict[str, Any], cell: str) -> str | None:
    """The trap or monster the hero must face on ``cell`` (None if crossed off or empty)."""
    k = sheet["grid"].get(cell)
    if k in board.BLOCKER_KINDS and cell not in sheet["crossed"]:
        return str(k)
    return None


def levels(sheet: dict[str, Any]) -> dict[str, int]:
    return {t: level(t, sheet["imp"][t]) for t in TRACKS}


def score_player(p: dict[str, Any]) -> dict[str, int]:
    """Final scoring of one dungeon (rulebook p.13)."""
    sheet = p["sheet"]
    lv = levels(sheet)
    guarded = [t for t in sheet["treasures"] if active_kind(sheet, t) in MONSTERS]
    monsters = sum(
        SHEET["monsters"][k]["points"]
        for c, k in sheet["grid"].items()
        if k in MONSTERS and c not in sheet["crossed"]
    )
    hero = p["hero"]
    return {
        "treasures": len(guarded) * lv["treasure"],
        "monsters": monsters,
        "hero death": DEATH_POINTS if hero["state"] == "dead" else 0,
        "hearts left": -hero["hearts"] if hero["state"] == "escaped" else 0,
    }


def crossed_monsters(p: dict[str, Any]) -> int:
    sheet = p["sheet"]
    return sum(1 for c in sheet["crossed"] if sheet["grid"].get(c) in MONSTERS)


def fight_strength(state: State, seat: int) -> int:
    """The monster's strength now: dice + improvement + played bonuses - the hero's Swords."""
    enc = state["encounter"]
    p = state["players"][seat]
    swords = sum(ACTIONS["sword"]["amount"] for h in p["on"] if CARDS[h["card"]].action == "sword")
    return int(sum(enc["dice"]) + levels(p["sheet"])[enc["kind"]] + enc["bonus"] - swords)


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
        state.update(
            phase="build",
            round=0,
            start=int(setup.get("start", 0)),
            deck=deck,
            discard=[],
            boxed=removed,
            display=[],
            queue=[],
            stack=[int(d) for d in setup.get("dice", [])],
            turn=None,
            step=None,
            encounter=None,
            news=[],
            players=[
                {
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
                for _ in range(n)
            ],
        )
        self._start_round(state, [])

    def _reveal(self, state: State, k: int, events: list[Event]) -> None:
        got = state["deck"][:k]
        state["deck"] = state["deck"][k:]
        if len(got) < k:
            # Rulebook p.5, 4 players, round 12: the discard pile becomes the new deck.
            state["deck"] = state["discard"]
            state["discard"] = []
            Rng(state).shuffle(state["deck"])
            events.append(
                Event("The build deck ran out: the discard pile is shuffled into a new build deck.")
            )
            more = k - len(got)
            got += state["deck"][:more]
            state["deck"] = state["deck"][more:]
        state["display"] = got

    def _start_round(self, state: State, events: list[Event]) -> None:
        n = state["seats"]
        state["round"] += 1
        self._reveal(state, SHEET["setup"]["revealed"][str(n)], events)
        state["queue"] = [(state["start"] + i) % n for i in range(n)]
        shown = ", ".join(f"#{c} {card_name(c)}" for c in state["display"])
        events.append(
            Event(f"Round {state['round']} of {ROUNDS}: {shown}. {seat_name(state['start'])} picks first.")
        )

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

    # ---- legal actions ----------------------------------------------------------------------
    def current_element(self, state: State, seat: int) -> str | None:
        pend = state["players"][seat]["pending"]
        if pend is None:
            return None
        els = CARDS[pend["card"]].elements
        return els[pend["next"]] if pend["next"] < len(els) else None

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if self.is_over(state) or seat not in self.to_act(state):
            return []
        phase = state["phase"]
        p = state["players"][seat]
        if phase == "build":
            if p["pending"] is None:
                return [{"t": "take", "card": c} for c in state["display"]]
            el = self.current_element(state, seat)
            sheet = p["sheet"]
            if el is None:
                return [{"t": "done"}, {"t": "erase"}]
            if el.startswith("wall:"):
                from .ai import wall_value

                spots = board.wall_placements(sheet, el[5:])
                if len(spots) > WALL_OPTIONS:
                    # the placements the AI likes best first (autocomplete shows 25), then an
                    # even sample of the rest so that any part of the dungeon is on offer
                    ranked = sorted(spots, key=lambda c: -wall_value(sheet, c))
                    best, rest = ranked[: WALL_OPTIONS // 2], ranked[WALL_OPTIONS // 2 :]
                    rest.sort(key=lambda cs: [board.INDEX[c] for c in cs])
                    step = len(rest) / (WALL_OPTIONS - len(best))
                    spots = best + [rest[int(i * step)] for i in range(WALL_OPTIONS - len(best))]
                return [{"t": "wall", "cells": c} for c in spots]
            # Up to 80 spaces: autocomplete shows the first 25, so the useful ones come first.
            hidden = set(sheet["treasures"])
            if el in board.BLOCKER_KINDS:
                cells = board.blocker_cells(sheet)
                if el == "trap":  # a trap on a treasure's space leaves that treasure unguardable
                    cells.sort(key=lambda c: c in hidden)
                else:  # a monster first guards a treasure already hidden
                    cells.sort(key=lambda c: c not in hidden)
                return [{"t": "place", "kind": el, "at": c} for c in cells]
            if el == "treasure":
                free = [c for c in board.ALL_CELLS if c not in hidden]
                guardable = set(board.blocker_cells(sheet))

                def rank(c: str) -> int:
                    # under a monster of yours, then where a monster may still go, then the rest
                    return 0 if active_kind(sheet, c) in MONSTERS else 1 if c in guardable else 2

                free.sort(key=rank)
                return [{"t": "treasure", "at": c} for c in free]
            return [{"t": "improve", "track": t} for t in TRACKS if sheet["imp"][t] < track_size(t)]
        if phase == "path":
            from .ai import candidate_paths

            owner = (seat - 1) % state["seats"]
            sheet = state["players"][owner]["sheet"]
            return [{"t": "path", "cells": c} for c in candidate_paths(sheet, levels(sheet))]
        # defend
        out: list[Any] = []
        if state["step"] == "encounter":
            for c in p["hand"]:
                if self._dungeon_problem(state, seat, c) is None:
                    out.append({"t": "play", "card": c})
            out.append({"t": "resolve"})
            return out
        for c in p["hand"]:
            for target in range(state["seats"]):
                if self._hero_problem(state, seat, c, target) is None:
                    out.append({"t": "hero", "card": c, "to": target})
        out.append({"t": "refill", "under": []})
        if p["hand"]:
            out.append({"t": "refill", "under": list(p["hand"])})
        return out

    # ---- apply -----------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, dict) or "t" not in action:
            raise IllegalAction("That is not a Dungeon Drawers move.")
        t = action["t"]
        phase = state["phase"]
        events: list[Event] = []
        if phase == "build":
            handler = {
                "take": self._take,
                "wall": self._install,
                "place": self._install,
                "treasure": self._install,
                "improve": self._install,
                "erase": self._erase,
                "done": self._done,
            }.get(t)
            if handler is None:
                raise IllegalAction("In Phase A you take a card, install its elements, then type done.")
            handler(state, seat, action, events)
        elif phase == "path":
            if t != "path":
                raise IllegalAction("In Phase B you draw the hero's path, like: path A1 A5 C5 C10 H10.")
            self._path(state, seat, action, events)
        else:
            if state["step"] == "encounter":
                if t == "play":
                    self._play(state, seat, action, events)
                elif t == "resolve":
                    self._resolve(state, seat, events)
                else:
                    raise IllegalAction(
                        "Finish the encounter first: play dungeon actions (play 12) or type resolve."
                    )
            elif t == "hero":
                self._hero(state, seat, action, events)
            elif t == "refill":
                self._refill(state, seat, action, events)
            elif t in ("play", "resolve"):
                raise IllegalAction(
                    "Dungeon actions are played only during your own encounter; now play hero actions or refill."
                )
            else:
                raise IllegalAction("Now play hero actions on an opponent (hero 12 P2) or refill your hand.")
        state["news"] = (state["news"] + [e.text for e in events if e.seat is None])[-6:]
        return events

    # ---- Phase A ---------------------------------------------------------------------------
    def _take(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        p = state["players"][seat]
        if p["pending"] is not None:
            raise IllegalAction("Finish installing your card and type done before taking another.")
        if not state["queue"] or state["queue"][0] != seat:
            raise IllegalAction("It is not your turn to pick a card.")
        cid = action.get("card")
        if not isinstance(cid, int) or cid not in state["display"]:
            raise IllegalAction(
                f"Card {cid} is not on display; pick one of: {', '.join(map(str, state['display']))}."
            )
        state["display"].remove(cid)
        state["queue"].pop(0)
        p["pending"] = {"card": cid, "next": 0, "lost": [], "log": [], "before": copy.deepcopy(p["sheet"])}
        events.append(Event(f"{seat_name(seat)} takes {card_text(cid)}."))
        self._advance(state, seat, events)

    def _installable(self, sheet: dict, el: str) -> bool:
        if el.startswith("wall:"):
            return bool(board.wall_placements(sheet, el[5:]))
        if el in board.BLOCKER_KINDS:
            return bool(board.blocker_cells(sheet))
        if el == "treasure":
            return len(sheet["treasures"]) < board.N
        return any(sheet["imp"][t] < track_size(t) for t in TRACKS)

    def _advance(self, state: State, seat: int, events: list[Event]) -> None:
        """Skip elements that cannot be installed at all: they are lost (DuBuL ch.2 §1(2))."""
        p = state["players"][seat]
        pend = p["pending"]
        els = CARDS[pend["card"]].elements
        while pend["next"] < len(els) and not self._installable(p["sheet"], els[pend["next"]]):
            pend["lost"].append(pend["next"])
            pend["log"].append(f"{element_label(els[pend['next']])} lost (no room)")
            events.append(
                Event(f"The {element_label(els[pend['next']])} cannot be installed and is lost.", seat)
            )
            pend["next"] += 1

    def _install(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        p = state["players"][seat]
        if p["pending"] is None:
            raise IllegalAction("Take a card first; then install its elements.")
        el = self.current_element(state, seat)
        if el is None:
            raise IllegalAction("Every element of your card is installed: type done (or erase to redo).")
        sheet = p["sheet"]
        t = action["t"]
        want = (
            "wall"
            if el.startswith("wall:")
            else {"improvement": "improve", "treasure": "treasure"}.get(el, "place")
        )
        if t != want or (t == "place" and action.get("kind") != el):
            how = {
                "wall": f"wall formation {el[5:]} (like: wall C3 C4 D4)" if el.startswith("wall:") else "",
                "improve": "improvement (like: improve orc)",
                "treasure": "treasure (like: treasure C5)",
                "place": f"{el} (like: {el} C5)",
            }[want]
            raise IllegalAction(f"Elements go in left to right: next is the {how}.")
        pend = p["pending"]
        spaces = (
            list(action.get("cells") or []) if t == "wall" else [action.get("at")] if t != "improve" else []
        )
        if any(not isinstance(c, str) or board.parse_cell(c) != c for c in spaces):
            raise IllegalAction("Name spaces by a column A-H and a row 1-10, like C5.")
        if t == "wall":
            cells = board.sort_cells(action.get("cells") or [])
            if len(cells) != len(action["cells"]):
                raise IllegalAction("Name each space of the wall formation once.")
            problem = board.wall_problem(sheet, el[5:], cells)
            if problem:
                raise IllegalAction(problem)
            for c in cells:
                sheet["grid"][c] = "wall"
            text = f"wall {' '.join(cells)}"
        elif t == "place":
            cell = action["at"]
            problem = board.blocker_problem(sheet, cell)
            if problem:
                raise IllegalAction(problem)
            sheet["grid"][cell] = el
            text = f"{el} {cell}"
        elif t == "treasure":
            cell = action["at"]
            if cell in sheet["treasures"]:
                raise IllegalAction(f"You already hid a treasure on {cell}; at most one treasure a space.")
            sheet["treasures"].append(cell)
            text = "treasure (hidden)"
            events.append(Event(f"You hide a treasure on {cell}.", seat))
        else:
            track = action.get("track")
            if track not in TRACKS:
                raise IllegalAction(f"Improve one of: {', '.join(TRACKS)}.")
            if sheet["imp"][track] >= track_size(track):
                raise IllegalAction(f"Every {track} box is already checked.")
            sheet["imp"][track] += 1
            text = f"improvement {track}"
        if t != "treasure":
            events.append(Event(f"You install: {text}.", seat))
        pend["log"].append(text)
        pend["next"] += 1
        self._advance(state, seat, events)

    def _erase(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        p = state["players"][seat]
        if p["pending"] is None:
            raise IllegalAction("Only the card still face up may be erased, and you have none.")
        pend = p["pending"]
        p["sheet"] = copy.deepcopy(pend["before"])
        pend.update(next=0, lost=[], log=[])
        events.append(Event(f"You erase everything installed from card {pend['card']}.", seat))
        self._advance(state, seat, events)

    def _done(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        p = state["players"][seat]
        if p["pending"] is None:
            raise IllegalAction("You have no card to turn over.")
        if self.current_element(state, seat) is not None:
            raise IllegalAction("You must install every element you can before turning the card over.")
        pend = p["pending"]
        p["taken"].append(pend["card"])
        p["pending"] = None
        events.append(Event(f"{seat_name(seat)} turns card #{pend['card']} over: {'; '.join(pend['log'])}."))
        if not state["queue"] and all(q["pending"] is None for q in state["players"]):
            state["discard"].extend(state["display"])
            state["display"] = []
            state["start"] = (state["start"] + 1) % state["seats"]
            if state["round"] >= ROUNDS:
                self._begin_paths(state, events)
            else:
                self._start_round(state, events)

    # ---- Phase B -----------------------------------------------------------------------------
    def _begin_paths(self, state: State, events: list[Event]) -> None:
        state["phase"] = "path"
        counts = ", ".join(
            f"{seat_name(s)} {len(p['sheet']['treasures'])}" for s, p in enumerate(state["players"])
        )
        events.append(Event(f"Phase A is over. Treasures hidden: {counts}."))
        events.append(
            Event(
                "Phase B: every player draws the hero's path through the dungeon of the player on their right."
            )
        )

    def _path(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        n = state["seats"]
        owner = (seat - 1) % n
        cells = list(action.get("cells") or [])
        if any(not isinstance(c, str) or board.parse_cell(c) != c for c in cells):
            raise IllegalAction("A path is a list of spaces like A1 A5 C5 C10 H10.")
        problem = board.path_problem(state["players"][owner]["sheet"], cells)
        if problem:
            raise IllegalAction(problem)
        state["players"][owner]["path"] = cells
        events.append(Event(f"{seat_name(seat)} has drawn the hero's path (shown when every path is drawn)."))
        events.append(Event(f"Your path through {seat_name(owner)}'s dungeon: {self.format(action)}.", seat))
        if all(p["path"] is not None for p in state["players"]):
            self._begin_defence(state, events)

    # ---- Phase C -----------------------------------------------------------------------------
    def _draw(self, p: dict) -> None:
        want = levels(p["sheet"])["hand"]
        while len(p["hand"]) < want and p["deck"]:
            p["hand"].append(p["deck"].pop(0))

    def _begin_defence(self, state: State, events: list[Event]) -> None:
        state["phase"] = "defend"
        events.append(Event("Every path is drawn. Phase C: defend your dungeon!"))
        for s, p in enumerate(state["players"]):
            p["deck"] = list(p["taken"])
            Rng(state).shuffle(p["deck"])
            self._draw(p)
            events.append(Event(f"Your hand: {', '.join(card_text(c) for c in p['hand'])}.", s))
        state["turn"] = state["start"]
        self._begin_turn(state, events)

    def _roll(self, state: State, n: int) -> list[int]:
        if state["stack"]:
            got = state["stack"][:n]
            state["stack"] = state["stack"][n:]
            return got + (Rng(state).dice(n - len(got)) if len(got) < n else [])
        return Rng(state).dice(n)

    def _discard_on(self, state: State, p: dict, kind: str | None = None) -> list[int]:
        gone = [h["card"] for h in p["on"] if kind is None or CARDS[h["card"]].action == kind]
        p["on"] = [h for h in p["on"] if h["card"] not in gone]
        state["discard"].extend(gone)
        return gone

    def _hero_done(self, state: State, seat: int, events: list[Event]) -> None:
        p = state["players"][seat]
        gone = self._discard_on(state, p)
        if gone:
            events.append(Event(f"Unresolved hero actions in {seat_name(seat)}'s dungeon are discarded."))
        if all(q["hero"]["state"] != "in" for q in state["players"]):
            state["phase"] = "over"
            state["encounter"] = None
            state["step"] = None
            res = self.result(state)
            scores = ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(res.scores))
            events.append(Event(f"Every hero is dead or has escaped. Final scores: {scores}."))

    def _begin_turn(self, state: State, events: list[Event]) -> None:
        seat = state["turn"]
        p = state["players"][seat]
        state["encounter"] = None
        state["step"] = "actions"
        hero = p["hero"]
        if hero["state"] == "in":
            for cid in self._discard_on(state, p, "potion"):
                gain = min(ACTIONS["potion"]["amount"], HEARTS - hero["hearts"])
                hero["hearts"] += gain
                events.append(
                    Event(
                        f"Healing Potion (#{cid}): the hero in {seat_name(seat)}'s dungeon regains {gain} hearts."
                    )
                )
            if p["started"]:
                self._move(state, seat, events)
        if state["phase"] == "defend":
            events.append(Event(self.status(state)))

    def _move(self, state: State, seat: int, events: list[Event]) -> None:
        p = state["players"][seat]
        sheet, path, hero = p["sheet"], p["path"], p["hero"]
        who = seat_name(seat)
        while True:
            hero["pos"] += 1
            if hero["pos"] >= len(path):
                hero["state"] = "escaped"
                events.append(
                    Event(f"The hero escapes from {who}'s dungeon with {hero['hearts']} hearts left.")
                )
                self._hero_done(state, seat, events)
                return
            cell = path[hero["pos"]]
            kind = active_kind(sheet, cell)
            if kind is not None:
                enc = {"cell": cell, "kind": kind, "dice": [], "bonus": 0, "played": []}
                state["encounter"] = enc
                state["step"] = "encounter"
                if kind == "trap":
                    events.append(Event(f"The hero in {who}'s dungeon stops on the trap on {cell}."))
                else:
                    enc["dice"] = self._roll(state, BASE_DICE)
                    events.append(
                        Event(
                            f"The hero in {who}'s dungeon fights the {kind} on {cell}: dice "
                            f"{'+'.join(map(str, enc['dice']))}, strength {fight_strength(state, seat)}."
                        )
                    )
                return
            self._bombs(state, seat, cell, events)

    def _bombs(self, state: State, seat: int, cell: str, events: list[Event]) -> None:
        p = state["players"][seat]
        sheet = p["sheet"]
        for h in list(p["on"]):
            if CARDS[h["card"]].action != "bomb":
                continue
            targets = [n for n in board.NEIGHBOURS[cell] if active_kind(sheet, n) in MONSTERS]
            if not targets:
                return
            # House decision: the bomb hits the strongest neighbour (most points), then reading order.
            target = max(
                targets, key=lambda c: (SHEET["monsters"][sheet["grid"][c]]["points"], -board.INDEX[c])
            )
            sheet["crossed"].append(target)
            p["on"].remove(h)
            state["discard"].append(h["card"])
            events.append(
                Event(
                    f"Bomb (#{h['card']}): passing {cell}, the hero blows up the {sheet['grid'][target]} on {target}."
                )
            )

    def _dungeon_problem(self, state: State, seat: int, cid: int) -> str | None:
        p = state["players"][seat]
        if cid not in p["hand"]:
            return f"Card {cid} is not in your hand."
        a = ACTIONS[CARDS[cid].action]
        enc = state["encounter"]
        if a["type"] != "dungeon":
            return f"{a['name']} is a hero action: play it on an opponent's dungeon after your encounter."
        if enc is None:
            return "Dungeon actions are played only during your encounter."
        if a["effect"] == "trap":
            return None if enc["kind"] == "trap" else f"{a['name']} works only on a trap encounter."
        if enc["kind"] == "trap":
            return f"{a['name']} works only in a fight against a monster."
        if a["effect"] == "bonus" and a["monster"] not in (None, enc["kind"]):
            return f"{a['name']} works only for a {a['monster']}."
        if a["effect"] == "dice" and len(enc["dice"]) + a["add"] > MAX_DICE:
            return f"{a['name']} would put more than {MAX_DICE} dice in the fight (dice limit)."
        return None

    def _play(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        cid = action.get("card")
        problem = self._dungeon_problem(state, seat, cid)  # type: ignore[arg-type]
        if problem:
            raise IllegalAction(problem)
        p = state["players"][seat]
        enc = state["encounter"]
        a = ACTIONS[CARDS[cid].action]  # type: ignore[index]
        p["hand"].remove(cid)
        state["discard"].append(cid)
        enc["played"].append(cid)
        if a["effect"] in ("bonus", "trap"):
            enc["bonus"] += a["amount"]
            what = f"+{a['amount']}"
        elif a["effect"] == "dice":
            new = self._roll(state, a["add"])
            enc["dice"] = sorted(enc["dice"] + new, reverse=True)
            if a["drop"]:
                enc["dice"] = enc["dice"][: len(enc["dice"]) - a["drop"]]
            what = f"rolls {'+'.join(map(str, new))}, dice now {'+'.join(map(str, enc['dice']))}"
        else:
            enc["dice"] = self._roll(state, len(enc["dice"]))
            what = f"re-rolls: dice now {'+'.join(map(str, enc['dice']))}"
        tail = f", strength {fight_strength(state, seat)}" if enc["kind"] != "trap" else ""
        events.append(Event(f"{seat_name(seat)} plays {a['name']} (#{cid}): {what}{tail}."))

    def _damage(self, state: State, seat: int, amount: int, events: list[Event]) -> None:
        p = state["players"][seat]
        hero = p["hero"]
        if amount > 0:
            for cid in self._discard_on(state, p, "shield"):
                amount = max(0, amount - ACTIONS["shield"]["amount"])
                events.append(Event(f"Shield (#{cid}) absorbs some of the damage."))
        hero["hearts"] = max(0, hero["hearts"] - amount)
        events.append(Event(f"The hero suffers {amount} damage ({hero['hearts']} hearts left)."))
        if hero["hearts"] == 0:
            hero["state"] = "dead"
            events.append(Event(f"The hero dies in {seat_name(seat)}'s dungeon!"))

    def _resolve(self, state: State, seat: int, events: list[Event]) -> None:
        p = state["players"][seat]
        enc = state["encounter"]
        sheet = p["sheet"]
        cell, kind = enc["cell"], enc["kind"]
        if kind == "trap":
            dmg = levels(sheet)["trap"] + enc["bonus"]
            for cid in self._discard_on(state, p, "rope"):
                dmg = 0
                events.append(Event(f"Rope (#{cid}): the hero escapes the trap on {cell} unharmed."))
            sheet["crossed"].append(cell)
            events.append(Event(f"The trap on {cell} fires and is crossed off."))
            self._damage(state, seat, dmg, events)
        else:
            strength = fight_strength(state, seat)
            swords = self._discard_on(state, p, "sword")
            if strength >= TARGET:
                events.append(Event(f"The {kind} on {cell} wins with strength {strength}."))
                self._damage(state, seat, SHEET["monsters"][kind]["damage"], events)
            else:
                sheet["crossed"].append(cell)
                events.append(Event(f"The {kind} on {cell} loses with strength {strength} and flees."))
            if swords:
                events.append(Event(f"Sword ({', '.join(f'#{c}' for c in swords)}) is used up."))
        state["encounter"] = None
        state["step"] = "actions"
        if p["hero"]["state"] != "in":
            self._hero_done(state, seat, events)

    def _hero_problem(self, state: State, seat: int, cid: int, target: int) -> str | None:
        p = state["players"][seat]
        if cid not in p["hand"]:
            return f"Card {cid} is not in your hand."
        a = ACTIONS[CARDS[cid].action]
        if a["type"] != "hero":
            return f"{a['name']} is a dungeon action: play it during your own encounter."
        if not 0 <= target < state["seats"]:
            return "There is no such player."
        if target == seat:
            return "Hero actions support the hero in an opponent's dungeon, never your own."
        q = state["players"][target]
        if q["hero"]["state"] != "in":
            return f"The hero in {seat_name(target)}'s dungeon is already dead or has escaped."
        if len(q["on"]) >= 2:
            return f"{seat_name(target)}'s dungeon already has 2 hero actions on it."
        return None

    def _hero(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        cid, target = action.get("card"), action.get("to")
        if not isinstance(target, int):
            raise IllegalAction("Name the dungeon by its player, like P2.")
        problem = self._hero_problem(state, seat, cid, target)  # type: ignore[arg-type]
        if problem:
            raise IllegalAction(problem)
        p = state["players"][seat]
        p["hand"].remove(cid)
        state["players"][target]["on"].append({"card": cid, "by": seat})  # type: ignore[index]
        events.append(
            Event(f"{seat_name(seat)} places {card_name(cid)} (#{cid}) on {seat_name(target)}'s dungeon.")  # type: ignore[arg-type]
        )

    def _refill(self, state: State, seat: int, action: dict, events: list[Event]) -> None:
        p = state["players"][seat]
        under = list(action.get("under") or [])
        if len(set(under)) != len(under) or any(c not in p["hand"] for c in under):
            raise IllegalAction("You can put only cards from your hand under your action deck, each once.")
        for c in under:
            p["hand"].remove(c)
            p["deck"].append(c)
        before = list(p["hand"])
        self._draw(p)
        drawn = [c for c in p["hand"] if c not in before]
        events.append(
            Event(
                f"{seat_name(seat)} puts {len(under)} card(s) under the action deck and draws {len(drawn)}."
            )
        )
        if drawn:
            events.append(Event(f"You draw: {', '.join(card_text(c) for c in drawn)}.", seat))
        p["started"] = True
        state["turn"] = (seat + 1) % state["seats"]
        self._begin_turn(state, events)

    def pass_action(self, state: State, seat: int) -> Any:
        """Phase C has a do-nothing-more move: end the encounter, or refill without playing.
        Picking a card, installing and drawing a path may never be skipped."""
        if state["phase"] != "defend" or seat != state["turn"]:
            return None
        return {"t": "resolve"} if state["step"] == "encounter" else {"t": "refill", "under": []}

    # ---- undo ----------------------------------------------------------------------------------
    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        """Only Phase A installation steps of a card still face up may be taken back: turning the
        card over is final (DuBuL ch.2 §1(3)), paths are revealed together and Phase C reveals cards."""
        return bool(
            super().can_undo(before, after, seat, action)
            and isinstance(action, dict)
            and action.get("t") in INSTALL_ACTIONS
            and before["phase"] == after["phase"] == "build"
            and before["round"] == after["round"]
        )

    # ---- notation ------------------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        words = text.replace(",", " ").split()
        if not words:
            raise IllegalAction(
                "Type a move, like: take 12, wall C3 C4 D4, goblin C5, path A1 H1 H10, resolve."
            )
        head, rest = words[0].lower(), words[1:]

        def one(kind: str) -> str:
            if len(rest) != 1:
                raise IllegalAction(f"Type {kind} and one space, like: {kind} C5.")
            return _cell(rest[0])

        if head == "take":
            if len(rest) != 1:
                raise IllegalAction("Type take and a card number, like: take 12.")
            return {"t": "take", "card": _card_id(rest[0])}
        if head == "wall":
            if not rest:
                raise IllegalAction("Type wall and the spaces of the formation, like: wall C3 C4 D4.")
            return {"t": "wall", "cells": board.sort_cells(_cell(w) for w in rest)}
        if head in board.BLOCKER_KINDS:
            return {"t": "place", "kind": head, "at": one(head)}
        if head == "treasure":
            return {"t": "treasure", "at": one("treasure")}
        if head in ("improve", "imp", "improvement"):
            if len(rest) != 1 or rest[0].lower() not in TRACKS:
                raise IllegalAction(f"Type improve and a category: {', '.join(TRACKS)}.")
            return {"t": "improve", "track": rest[0].lower()}
        if head in ("erase", "done") and not rest:
            return {"t": head}
        if head == "path":
            if not rest:
                raise IllegalAction("Type path and the corners of the path, like: path A1 A5 C5 C10 H10.")
            return {"t": "path", "cells": board.expand([_cell(w) for w in rest])}
        if head == "play":
            if len(rest) != 1:
                raise IllegalAction("Type play and a card number, like: play 12.")
            return {"t": "play", "card": _card_id(rest[0])}
        if head in ("resolve", "fight") and not rest:
            return {"t": "resolve"}
        if head == "hero":
            if len(rest) != 2:
                raise IllegalAction("Type hero, a card number and a player, like: hero 12 P2.")
            return {"t": "hero", "card": _card_id(rest[0]), "to": _parse_seat(rest[1])}
        if head == "refill":
            return {"t": "refill", "under": [_card_id(w) for w in rest]}
        raise IllegalAction(
            "Unknown move. Moves: take, wall, goblin/orc/dragon/trap, treasure, improve, erase, done, "
            "path, play, resolve, hero, refill."
        )

    def format(self, action: Any) -> str:
        t = action["t"]
        if t in ("take", "play"):
            return f"{t} {action['card']}"
        if t == "wall":
            return "wall " + " ".join(action["cells"])
        if t == "place":
            return f"{action['kind']} {action['at']}"
        if t == "treasure":
            return f"treasure {action['at']}"
        if t == "improve":
            return f"improve {action['track']}"
        if t in ("erase", "done", "resolve"):
            return str(t)
        if t == "path":
            return "path " + " ".join(board.compress(action["cells"]))
        if t == "hero":
            return f"hero {action['card']} {seat_name(action['to'])}"
        if t == "refill":
            return " ".join(["refill", *map(str, action["under"])])
        raise IllegalAction("That is not a Dungeon Drawers move.")

    def public_format(self, state: State, seat: int, action: Any) -> str:
        t = action.get("t") if isinstance(action, dict) else None
        if t == "treasure":
            return "treasure (hidden)"
        if t == "path":
            return "path (shown when every path is drawn)"
        if t in ("wall", "place", "improve"):
            return f"{action.get('kind', t)} (shown when the card is turned over)"
        if t == "refill":
            # The cards go face down under the action deck: which ones is the player's secret.
            under = action.get("under") or []
            return f"refill ({len(under)} card(s) put under the deck)" if under else "refill"
        return self.format(action)

    def describe(self, state: State, action: Any) -> str:
        t = action["t"]
        if t == "take":
            return f"Take {card_text(action['card'])}"[:80]
        if t in ("play",):
            a = ACTIONS[CARDS[action["card"]].action]
            return f"Play {a['name']} (#{action['card']}): {a['text']}"[:80]
        if t == "hero":
            return f"{card_name(action['card'])} (#{action['card']}) on {seat_name(action['to'])}'s dungeon"
        if t == "refill":
            if not action["under"]:
                return "Refill your hand"
            return "Put " + ", ".join(f"#{c}" for c in action["under"]) + " under the deck, then refill"
        if t == "path":
            corners = board.compress(action["cells"])
            head = f"Path, {len(action['cells'])} spaces: "
            label = head + " ".join(corners)
            while len(label) > 80:  # elide the middle, keep where it starts and ends
                cut = len(corners) // 2
                corners = corners[: cut - 1] + corners[cut + 1 :]
                label = (
                    head
                    + " ".join(corners[: len(corners) // 2])
                    + " ... "
                    + " ".join(corners[len(corners) // 2 :])
                )
            return label
        if t == "resolve":
            return "Resolve the encounter"
        if t == "done":
            return "Done: turn the card over"
        if t == "erase":
            return "Erase this card's installations and redo them"
        return self.format(action)

    # ---- views -----------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["seats"]
        over = self.is_over(state)
        players = []
        for s, p in enumerate(state["players"]):
            own = seat == s
            pend = p["pending"]
            sheet = p["sheet"] if (own or pend is None) else pend["before"]
            shown_sheet = {k: copy.deepcopy(v) for k, v in sheet.items() if k != "treasures"}
            shown_sheet["treasures"] = list(sheet["treasures"]) if (own or over) else []
            path = p["path"]
            if state["phase"] == "path" and path is not None and seat != (s + 1) % n:
                path = None
            players.append(
                {
                    "seat": s,
                    "name": seat_name(s),
                    "sheet": shown_sheet,
                    "treasure_count": len(sheet["treasures"]),
                    "levels": levels(sheet),
                    "taken": list(p["taken"]),
                    "pending": (
                        {k: pend[k] for k in ("card", "next", "lost", "log")}
                        if own
                        else {"card": pend["card"]}
                    )
                    if pend
                    else None,
                    "path": list(path) if path else None,
                    "path_drawn": p["path"] is not None,
                    "hero": dict(p["hero"]),
                    "hand": list(p["hand"]) if own else None,
                    "hand_count": len(p["hand"]),
                    "deck_count": len(p["deck"]),
                    "on": [dict(h) for h in p["on"]],
                    "started": p["started"],
                }
            )
        view: dict[str, Any] = {
            "game": self.key,
            "viewer": seat,
            "seats": n,
            "phase": state["phase"],
            "round": state["round"],
            "rounds": ROUNDS,
            "start": state["start"],
            "display": list(state["display"]),
            "queue": list(state["queue"]),
            "deck_count": len(state["deck"]),
            "discard": list(state["discard"]),
            "turn": state["turn"],
            "step": state["step"],
            "encounter": copy.deepcopy(state["encounter"]),
            "strength": fight_strength(state, state["turn"])
            if state["encounter"] and state["encounter"]["kind"] != "trap"
            else None,
            "to_act": sorted(self.to_act(state)),
            "status": self.status(state),
            "news": list(state["news"]),
            "players": players,
            "cards": {str(c): card_text(c) for c in self._cards_in_view(state, seat)},
            "result": self.result(state).to_json() if over else None,
        }
        return view

    def _cards_in_view(self, state: State, seat: int | None) -> list[int]:
        ids = set(state["display"])
        for s, p in enumerate(state["players"]):
            ids.update(p["taken"])
            ids.update(h["card"] for h in p["on"])
            if p["pending"]:
                ids.add(p["pending"]["card"])
            if s == seat:
                ids.update(p["hand"])
        return sorted(ids)

    def status(self, state: State) -> str:
        phase = state["phase"]
        if phase == "build":
            installing = [seat_name(s) for s, p in enumerate(state["players"]) if p["pending"]]
            parts = [f"Phase A, round {state['round']} of {ROUNDS}."]
            if state["queue"]:
                parts.append(f"{seat_name(state['queue'][0])} picks a card.")
            if installing:
                parts.append(f"Installing: {', '.join(installing)}.")
            return " ".join(parts)
        if phase == "path":
            n = state["seats"]
            left = [
                f"{seat_name(s)} (in {seat_name((s - 1) % n)}'s dungeon)"
                for s in range(n)
                if state["players"][(s - 1) % n]["path"] is None
            ]
            return "Phase B: drawing hero paths: " + ", ".join(left) + "."
        if phase == "defend":
            s = state["turn"]
            enc = state["encounter"]
            if enc is not None:
                if enc["kind"] == "trap":
                    return f"Phase C, {seat_name(s)}'s turn: the hero stands on the trap on {enc['cell']}."
                return (
                    f"Phase C, {seat_name(s)}'s turn: the hero fights the {enc['kind']} on {enc['cell']} "
                    f"(strength {fight_strength(state, s)}, needs {TARGET})."
                )
            return f"Phase C, {seat_name(s)}'s turn: hero actions, then refill."
        return "The game is over."

    def private_text(self, state: State, seat: int) -> str:
        p = state["players"][seat]
        sheet = p["sheet"]
        lines = []
        tr = ", ".join(sheet["treasures"]) or "none yet"
        lines.append(f"Your treasures: {tr}.")
        if p["pending"]:
            el = self.current_element(state, seat)
            lines.append(
                f"Installing {card_text(p['pending']['card'])}; next: {element_label(el) if el else 'done'}."
            )
        if p["hand"]:
            lines.append("Your hand: " + "; ".join(card_text(c) for c in p["hand"]) + ".")
        if state["phase"] == "defend":
            lines.append(f"Cards left in your action deck: {len(p['deck'])}.")
        elif p["taken"]:
            lines.append("Your action cards: " + "; ".join(card_text(c) for c in p["taken"]) + ".")
        n = state["seats"]
        drawn = state["players"][(seat - 1) % n]["path"]
        if state["phase"] == "path" and drawn:
            lines.append(
                f"Your path in {seat_name((seat - 1) % n)}'s dungeon: path {' '.join(board.compress(drawn))}."
            )
        return "\n".join(lines)

    # ---- end -------------------------------------------------------------------------------------
    def result(self, state: State) -> Result:
        breakdown = [score_player(p) for p in state["players"]]
        scores = [sum(b.values()) for b in breakdown]
        fewer_crossed = [-crossed_monsters(p) for p in state["players"]]
        return Result(scores, core.rank(scores, fewer_crossed), breakdown, fewer_crossed)

    # ---- AI ----------------------------------------------------------------------------------------
    def ai_action(self, state: State, seat: int) -> Any:
        from .ai import choose

        return choose(self, self.view(state, seat), seat, self.ai_random(state, seat))
