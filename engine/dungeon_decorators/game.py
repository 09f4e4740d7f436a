"""Dungeon Decorators: the game (turn structure, actions, notation, views, scoring)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine import core
from engine.core import Event, IllegalAction, Result, Rng, State, seat_ref

from . import architect as A
from . import rules as R
from .data import DATA
from .goal_notes import goal_needs

HOURGLASS = 0  # an hourglass tile in a bag
DECK_NAMES = {"S": "Shape Goals", "D": "Decoration Goals"}
# Draft-board positions on the far side: tile spots 1-2, the Draw/Exchange spot in
# the middle, tile spots 3-4. Next round's order follows these positions.
EXCHANGE_POS = 2
SPOT_POS = (0, 1, 3, 4)
SIDE_WORDS = {"D": "dungeon side", "X": "decoration side", "R": "room side", "H": "hallway side"}
CHOOSER_PROMPTS = {
    "keep": "Choose the two goal cards to discard.",
    "draft": "Choose a tile to draft, or the Draw/Exchange spot.",
    "exchange_draw": "Choose the goal deck to draw from.",
    "exchange_discard": "Choose a goal card to discard.",
    "burrow": "Choose the Burrow Bro tile to keep.",
    "build": "Place or store your tiles, use an Architect, or finish.",
    "score": "Score a goal or finish.",
    "refill": "Choose the goal deck to draw from.",
}
STEP_PROMPTS = {
    "square": "Choose the square (the picture names them).",
    "turn": "Choose how the tile lies (the picture shows each turn).",
    "from": "Choose the tile to move or turn (the picture names the squares).",
    "to": "Choose where it goes (the picture names the squares).",
}


# Words of the final table for the stored breakdown's keys.
FINAL_WORDS = {"boss A": "boss (yellow)", "boss B": "boss (blue)"}


def _step_kind(prefix: list[str]) -> str:
    """Which build step a chooser prefix has reached (group picks left out)."""
    real = [t for t in prefix if not (t[:1] == "g" and t[1:].isdigit())]
    if real and real[0].startswith("t"):
        return ("", "square", "turn")[min(len(real), 2)]
    if real and real[0] in ("arch", "swap"):
        return ("", "from", "to", "turn")[min(len(real), 3)]
    return ""


NO_MIRROR = "A tile cannot be mirrored: turn it (0, 90, 180 or 270) and choose which printed side is up."


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_tile(v: Any) -> bool:
    return v == "G" or _is_int(v)


def _strs(n: tuple[int, int]) -> Any:
    return lambda v: isinstance(v, list) and n[0] <= len(v) <= n[1] and all(isinstance(x, str) for x in v)


# The fields of every move (as parse makes them) and what each must hold: a move
# object with a field missing, added, retyped or emptied is refused in one sentence.
SHAPES: dict[str, dict[str, Any]] = {
    "discard": {"cards": _strs((1, 2))},
    "draft": {"tile": _is_tile},
    "keep": {"tile": _is_tile},
    "store": {"tile": _is_tile},
    "box": {"tile": _is_tile},
    "exchange": {},
    "reset": {},
    "done": {},
    "arch": {"from": lambda v: isinstance(v, str), "to": lambda v: isinstance(v, str), "rot": _is_int},
    "swap": {
        "at": _strs((2, 2)),
        "rot": lambda v: isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v),
    },
    "score": {"goal": lambda v: isinstance(v, str)},
    "draw": {"deck": lambda v: isinstance(v, str)},
    "place": {
        "tile": _is_tile,
        "side": lambda v: isinstance(v, str),
        "at": lambda v: isinstance(v, str),
        "rot": _is_int,
    },
}
OPTIONAL = {"place": {"flip"}}  # the old mirror: refused with its own sentence


def check_shape(action: Any) -> None:
    """Refuse a move object that parse could not have made, before any rule reads it."""
    kind = action.get("a") if isinstance(action, dict) else None
    if not isinstance(kind, str) or kind not in SHAPES:
        raise IllegalAction("That is not a Dungeon Decorators move.")
    fields = SHAPES[kind]
    extra = set(action) - set(fields) - {"a"} - OPTIONAL.get(kind, set())
    if extra or any(k not in action or not ok(action[k]) for k, ok in fields.items()):
        raise IllegalAction(
            "That move is not written the way the game writes its moves; pick one from the list."
        )


def tile_name(t: Any) -> str:
    return "a generic tile" if t == "G" else f"tile {t}"


class DungeonDecorators(core.Game):
    key = "dungeon-decorators"
    title = "Dungeon Decorators"
    min_players = 2
    max_players = 4
    blurb = (
        "Draft two-sided tiles and build a cosy lair: rooms, one winding hallway and the decorations on "
        "their walls. Score secret shape and decoration goals before the third hourglass ends the game."
    )

    # ---- setup ---------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        setup = setup or {}
        rng = Rng(state)
        n = state["seats"]
        numbers = sorted(R.TILES)
        rng.shuffle(numbers)
        if "blue" in setup or "red" in setup:
            blue = list(setup.get("blue", []))
            red = list(setup.get("red", []))
        else:
            blue = numbers[20:70]
            red = numbers[70:120] + [HOURGLASS] * DATA["tiles"]["hourglasses"]
            rng.shuffle(red)
        a_deck = [b for b in R.BOSSES if R.BOSSES[b]["deck"] == "A"]
        b_deck = [b for b in R.BOSSES if R.BOSSES[b]["deck"] == "B"]
        rng.shuffle(a_deck)
        rng.shuffle(b_deck)
        boss = list(setup.get("boss", [a_deck[0], b_deck[0]]))
        shape = [g for g in R.GOALS if R.GOALS[g]["kind"] == "shape"]
        deco = [g for g in R.GOALS if R.GOALS[g]["kind"] == "decoration"]
        rng.shuffle(shape)
        rng.shuffle(deco)
        shape = list(setup.get("shape_deck", shape))
        deco = list(setup.get("deco_deck", deco))
        order = list(range(n))
        rng.shuffle(order)
        order = list(setup.get("order", order))
        players = []
        for seat in range(n):
            if "hands" in setup:
                hand = list(setup["hands"][seat])
                shape = [g for g in shape if g not in hand]
                deco = [g for g in deco if g not in hand]
            else:
                hand = [shape.pop(0) for _ in range(3)] + [deco.pop(0) for _ in range(3)]
            players.append(
                {
                    "dungeon": {R.START: R.start_cell()},
                    "hand": hand,
                    "storage": [],
                    "pending": [],
                    "tokens": {"architect": 0, "mimic": 0},
                    "score": 0,
                    "chits": 0,
                    "scored": [],
                    "kept": len(hand) <= 4,
                }
            )
        state.update(
            phase="keep",
            round=0,
            turn=0,
            reveal=0,
            order=order,
            turn_idx=0,
            board=[],
            exchange_taken=None,
            draft_pos=[None] * n,
            blue=blue,
            red=red,
            hourglasses=0,
            end_after_round=False,
            box=numbers[:20] if "blue" not in setup else [],
            generic_left=DATA["tiles"]["generic"]["count"],
            tokens_left=dict(DATA["tiles"]["tokens"]),
            chits_left=DATA["tiles"]["chits"],
            boss=boss,
            decks={"S": shape, "D": deco},
            discards={"S": [], "D": []},
            players=players,
            burrow=None,
            snapshot=None,
            relaxed=False,
            final=None,
        )
        if all(p["kept"] for p in players):
            self._start_round(state, [])

    # ---- helpers -------------------------------------------------------------------
    @staticmethod
    def current(state: State) -> int:
        return int(state["order"][state["turn_idx"]])

    def _bag(self, state: State) -> list[Any]:
        return state["blue"] if state["blue"] else state["red"]

    def _draw_for_turn(self, state: State, events: list[Event]) -> Any:
        """Draw a tile during a turn: hourglasses are set aside and replaced; the
        third one ends the game after this round."""
        while True:
            bag = self._bag(state)
            if not bag:
                return None
            t = bag.pop(0)
            state["reveal"] += 1
            if t != HOURGLASS:
                return t
            state["hourglasses"] += 1
            events.append(Event(f"An hourglass is drawn ({state['hourglasses']} of 3)."))
            if state["hourglasses"] >= 3:
                state["end_after_round"] = True
                events.append(Event("That was the third hourglass: the game ends after this round."))

    def _start_round(self, state: State, events: list[Event]) -> None:
        state["box"].extend(t for t in state["board"] if t is not None)
        board: list[int] = []
        while len(board) < 4:
            bag = self._bag(state)
            if not bag:
                break
            t = bag.pop(0)
            state["reveal"] += 1
            if t == HOURGLASS:
                state["hourglasses"] += 1
                events.append(
                    Event(f"An hourglass is drawn during round setup ({state['hourglasses']} of 3).")
                )
                if state["hourglasses"] >= 3:
                    state["box"].extend(board)
                    state["board"] = []
                    events.append(Event("The third hourglass ends the game at once."))
                    self._finish(state, events)
                    return
                continue
            board.append(t)
        if not board:
            self._finish(state, events)
            return
        state["board"] = sorted(board)
        state["round"] += 1
        if state["round"] > 1:
            pos = state["draft_pos"]
            state["order"] = sorted(state["order"], key=lambda s: pos[s] if pos[s] is not None else 9)
        state["draft_pos"] = [None] * state["seats"]
        state["exchange_taken"] = None
        state["turn_idx"] = 0
        tiles = ", ".join(str(t) for t in state["board"])
        events.append(Event(f"Round {state['round']}: the draft board shows {tiles}."))
        self._enter_draft(state, events)

    def _enter_draft(self, state: State, events: list[Event]) -> None:
        state["phase"] = "draft"
        self._mark_turn_start(state)
        if any(t is not None for t in state["board"]) or self._exchange_open(state):
            return
        # Only when the bags ran dry (possible only with stacked test bags or a Burrow Bro
        # emptying the red bag): a player with nothing to draft still builds and scores.
        seat = self.current(state)
        events.append(Event(f"{seat_ref(seat)} has nothing left to draft."))
        state["players"][seat]["pending"] = []
        self._begin_build(state, seat)
        self._maybe_end_build(state, seat, events)

    def _mark_turn_start(self, state: State) -> None:
        """What the board will compare at the end of this turn (issue 28: mark what
        the last turn changed). Public only: the dungeon, the score, goals scored."""
        if self.rules_revision(state) < 3:  # kept from revision 3: earlier games replay as played
            return
        seat = self.current(state)
        p = state["players"][seat]
        state["turn_mark"] = {
            "seat": seat,
            "cells": R.copy_dungeon(p["dungeon"]),
            "score": p["score"],
            "scored": len(p["scored"]),
        }

    def _close_turn_mark(self, state: State) -> None:
        mark = state.get("turn_mark")
        if not mark:
            return
        p = state["players"][mark["seat"]]
        before = mark["cells"]
        changed = sorted(c for c, cell in p["dungeon"].items() if before.get(c) != cell)
        state["last_turn"] = {
            "seat": mark["seat"],
            "squares": changed,
            "points": p["score"] - mark["score"],
            "goals": len(p["scored"]) - mark["scored"],
        }
        state["turn_mark"] = None

    def _next_turn(self, state: State, events: list[Event]) -> None:
        self._close_turn_mark(state)
        state["turn_idx"] += 1
        state["burrow"] = None
        state["snapshot"] = None
        state["relaxed"] = False
        if state["turn_idx"] < len(state["order"]):
            self._enter_draft(state, events)
            return
        if state["end_after_round"]:
            self._finish(state, events)
            return
        self._start_round(state, events)

    def _add_points(self, state: State, seat: int, pts: int, events: list[Event]) -> None:
        p = state["players"][seat]
        before = p["score"]
        p["score"] += pts
        # Passing 50 on the track takes a "50 point" chit and counts on from the start.
        for _ in range(p["score"] // 50 - before // 50):
            p["chits"] += 1
            state["chits_left"] = max(0, state["chits_left"] - 1)
            events.append(Event(f"{seat_ref(seat)} passes 50 points and takes a 50-point chit."))

    def _gain_token(self, state: State, seat: int, kind: str, events: list[Event]) -> None:
        name = R.ASSISTANT_NAMES[kind]
        if state["tokens_left"][kind] > 0:
            state["tokens_left"][kind] -= 1
            state["players"][seat]["tokens"][kind] += 1
            events.append(Event(f"{seat_ref(seat)} recruits a {name} and takes its token."))
        else:
            events.append(Event(f"No {name} tokens are left."))

    def _resolve_assistant(
        self, state: State, seat: int, tile: Any, chained: bool, events: list[Event]
    ) -> None:
        p = state["players"][seat]
        helper = R.TILES[tile]["assistant"] if tile != "G" else None
        if helper == "sapper":
            if state["generic_left"] > 0:
                state["generic_left"] -= 1
                p["pending"].append({"t": "G"})
                events.append(Event(f"{seat_ref(seat)} recruits a Goblin Sapper and takes a generic tile."))
            else:
                events.append(Event("A Goblin Sapper is recruited, but no generic tiles are left."))
        elif helper in ("architect", "mimic"):
            self._gain_token(state, seat, helper, events)
        elif helper == "burrow" and not chained:
            drawn = [t for t in (self._draw_for_turn(state, events) for _ in range(2)) if t is not None]
            if drawn:
                state["burrow"] = [tile] + drawn
                state["phase"] = "burrow"
                # "choose one tile from among the three in front of you": all on the table.
                shown = ", ".join(map(str, [tile] + drawn))
                events.append(
                    Event(
                        f"{seat_ref(seat)} recruits a Burrow Bro, draws {len(drawn)} tiles and keeps one of {shown}."
                    )
                )
                return
        self._begin_build(state, seat)

    def _begin_build(self, state: State, seat: int) -> None:
        p = state["players"][seat]
        state["phase"] = "build"
        state["relaxed"] = False
        state["snapshot"] = {
            "dungeon": R.copy_dungeon(p["dungeon"]),
            "storage": list(p["storage"]),
            "pending": [dict(x) for x in p["pending"]],
            "architect": p["tokens"]["architect"],
        }
        if self.rules_revision(state) >= 4:
            state["stored_now"] = []

    def _maybe_end_build(self, state: State, seat: int, events: list[Event]) -> None:
        """The build phase ends by itself once nothing is left to decide."""
        p = state["players"][seat]
        if p["pending"] or p["tokens"]["architect"] > 0 or state["relaxed"]:
            return
        grid = R.to_grid(p["dungeon"])
        if any(R.has_placement(grid, t) for t in self._old_storage(state, seat)):
            return
        self._end_build(state, seat, events)

    def _old_storage(self, state: State, seat: int) -> list[Any]:
        """The stored tiles ``seat`` may lay now: from revision 4, not the ones stored
        this Build Phase ("placed into your dungeon on any of your later Build Phases")."""
        left = list(state["players"][seat]["storage"])
        if self.rules_revision(state) >= 4:
            for t in state.get("stored_now") or []:
                if t in left:
                    left.remove(t)
        return left

    def _held(self, state: State, seat: int) -> list[Any]:
        """The tiles ``seat`` may lay this build: new tiles, then the storage it may use."""
        return [x["t"] for x in state["players"][seat]["pending"]] + self._old_storage(state, seat)

    def _end_build(self, state: State, seat: int, events: list[Event]) -> None:
        state["snapshot"] = None
        if self.rules_revision(state) >= 4:
            state["stored_now"] = []
        state["relaxed"] = False
        if self.rules_revision(state) >= 3:
            # "you may play those cards": the Score step is offered whether or not a
            # card in hand is met, so declining looks like having nothing to score.
            state["phase"] = "score"
        elif self._scorable(state, seat):
            state["phase"] = "score"
        else:
            self._refill(state, seat, events)

    def _finish_turn(self, state: State, seat: int, events: list[Event]) -> None:
        """Revision 3: the one click that ends a turn, the same words whether or not
        a goal was declined."""
        events.append(Event(f"{seat_ref(seat)} finishes their turn."))
        self._refill(state, seat, events)

    def _scorable(self, state: State, seat: int) -> list[tuple[str, int]]:
        p = state["players"][seat]
        s = R.summarise(R.to_grid(p["dungeon"]))
        out = []
        for g in p["hand"]:
            cost = R.goal_cost(s, g)
            if cost is not None and cost <= p["tokens"]["mimic"]:
                out.append((g, cost))
        return out

    def _deck_ready(self, state: State, deck: str) -> bool:
        return bool(state["decks"][deck] or state["discards"][deck])

    def _draw_goal(self, state: State, seat: int, deck: str, events: list[Event]) -> str:
        if not state["decks"][deck]:
            # An empty deck is rebuilt from that type's discards.
            pile = state["discards"][deck]
            state["discards"][deck] = []
            Rng(state).shuffle(pile)
            state["decks"][deck] = pile
            events.append(Event(f"The {DECK_NAMES[deck]} discards are shuffled into a new deck."))
        g: str = state["decks"][deck].pop(0)
        state["reveal"] += 1
        state["players"][seat]["hand"].append(g)
        # Said where the goal is drawn and where it is scored, not only in "What now?" (issue 40).
        events.append(Event(f"You draw {g} {R.GOALS[g]['name']}: {goal_needs(g)}.", seat))
        return g

    def _refill(self, state: State, seat: int, events: list[Event]) -> None:
        p = state["players"][seat]
        while len(p["hand"]) < 4:
            ready = [d for d in "SD" if self._deck_ready(state, d)]
            if not ready:
                break
            if len(ready) == 2:
                state["phase"] = "refill"
                return
            self._draw_goal(state, seat, ready[0], events)
            events.append(Event(f"{seat_ref(seat)} draws a {DECK_NAMES[ready[0]]} card."))
        self._next_turn(state, events)

    def _finish(self, state: State, events: list[Event]) -> None:
        state["phase"] = "over"
        state["box"].extend(t for t in state["board"] if t is not None)
        state["board"] = []
        state["final"] = self._final_scores(state)
        for seat, f in enumerate(state["final"]["breakdown"]):
            gained = sum(v for k, v in f.items() if k != "goals")
            self._add_points(state, seat, gained, events)
        res = self.result(state)
        names = " and ".join(seat_ref(s) for s in res.winners)
        events.append(Event(f"The game is over. {names} {'win' if len(res.winners) > 1 else 'wins'}!"))

    def _final_scores(self, state: State) -> dict[str, Any]:
        players = state["players"]
        grids = [R.to_grid(p["dungeon"]) for p in players]
        a_id, b_id = state["boss"]
        a_metric = R.BOSSES[a_id]["metric"]
        b_metric = R.BOSSES[b_id]["metric"]
        base_b = [R.metric(g, b_metric) for g in grids]
        splits = []
        for i, (p, g) in enumerate(zip(players, grids, strict=True)):
            k = p["tokens"]["mimic"]
            best = (-1, 0)
            # Mimic tokens each serve one boss goal: choose the split that gives this player
            # the most points, judged against the other players without their tokens.
            for to_a in range(k + 1):
                a_pts = R.boss_a_points(a_metric, R.metric(g, a_metric, to_a))
                counts = list(base_b)
                counts[i] = R.metric(g, b_metric, k - to_a)
                pts = a_pts + R.boss_b_points(counts)[i]
                if pts > best[0]:
                    best = (pts, to_a)
            splits.append(best[1])
        a_counts = [R.metric(g, a_metric, splits[i]) for i, g in enumerate(grids)]
        b_counts = [
            R.metric(g, b_metric, players[i]["tokens"]["mimic"] - splits[i]) for i, g in enumerate(grids)
        ]
        b_pts = R.boss_b_points(b_counts)
        breakdown = []
        for i, (p, g) in enumerate(zip(players, grids, strict=True)):
            stars, diff, common = R.colour_points(g)
            breakdown.append(
                {
                    "goals": p["score"],
                    "stars": stars,
                    "colours": diff,
                    "common colour": common,
                    "boss A": R.boss_a_points(a_metric, a_counts[i]),
                    "boss B": b_pts[i],
                }
            )
        return {"breakdown": breakdown, "boss_counts": [a_counts, b_counts], "mimic_to_a": splits}

    # ---- turn structure ------------------------------------------------------------
    def turn_id(self, state: State) -> str:
        """A player's turn is the rulebook's "complete 5-phase turn": draft, assistant,
        build, score, refill, one id from the draft to the last card drawn. Setup (the
        goal discards, made at once by everyone) is one id. A player who drafts last in
        one round and first in the next plays two turns in a row: round and place in
        the order keep the ids apart."""
        ph = state["phase"]
        if ph in ("over", "keep"):
            return ph
        return f"round {state['round']} turn {state['turn_idx'] + 1}: {self.current(state)}"

    def header(self, state: State, seat: int) -> str:
        from .views import header

        return header(self, state, seat)

    def to_act(self, state: State) -> set[int]:
        if state["phase"] == "over":
            return set()
        if state["phase"] == "keep":
            return {i for i, p in enumerate(state["players"]) if not p["kept"]}
        return {self.current(state)}

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if seat not in self.to_act(state):
            return []
        p = state["players"][seat]
        ph = state["phase"]
        if ph == "keep":
            return [{"a": "discard", "cards": list(c)} for c in combinations(p["hand"], 2)]
        if ph == "draft":
            acts: list[Any] = [{"a": "draft", "tile": t} for t in state["board"] if t is not None]
            if self._exchange_open(state):
                acts.append({"a": "exchange"})
            return acts
        if ph == "exchange_draw":
            return [{"a": "draw", "deck": d} for d in "SD" if self._deck_ready(state, d)]
        if ph == "exchange_discard":
            return [{"a": "discard", "cards": [g]} for g in p["hand"]]
        if ph == "burrow":
            return [{"a": "keep", "tile": t} for t in state["burrow"]]
        if ph == "score":
            return [{"a": "score", "goal": g} for g, _ in self._scorable(state, seat)] + [{"a": "done"}]
        if ph == "refill":
            return [{"a": "draw", "deck": d} for d in "SD" if self._deck_ready(state, d)]
        return self._build_actions(state, seat)

    def _exchange_open(self, state: State) -> bool:
        # House decision: the spot needs a tile in the bags and a goal card to draw.
        return (
            state["exchange_taken"] is None
            and bool(state["blue"] or any(t != HOURGLASS for t in state["red"]))
            and any(self._deck_ready(state, d) for d in "SD")
        )

    def _build_actions(self, state: State, seat: int) -> list[Any]:
        p = state["players"][seat]
        grid = R.to_grid(p["dungeon"])
        problem = R.dungeon_problem(grid) if state["relaxed"] else None
        acts: list[Any] = []
        held = self._held(state, seat)
        tiles = list(dict.fromkeys(held))
        for t in tiles:
            # Mid-Architect, the placements after which the tiles still held can mend the
            # dungeon ("fill the resulting spaces with newly-drafted tiles or tiles from storage").
            spots = R.legal_placements(grid, t) if problem is None else A.mending_placements(grid, t, held)
            for side, pos, rot in spots:
                acts.append({"a": "place", "tile": t, "side": side, "at": R.coord(pos), "rot": rot})
        stored: list[Any] = []
        if len(p["storage"]) < 2:
            for x in p["pending"]:
                if x["t"] not in stored:
                    stored.append(x["t"])
                    acts.append({"a": "store", "tile": x["t"]})
        if self._forced_discard(state, seat):
            for t in dict.fromkeys([x["t"] for x in p["pending"]] + p["storage"]):
                acts.append({"a": "box", "tile": t})
        rev3 = self.rules_revision(state) >= 3
        if problem is None:
            acts += A.uses(grid, held, p["tokens"]["architect"], start_moves=rev3)
        if not p["pending"] and problem is None:
            if rev3:  # the build may end by scoring: the Score step follows at once
                acts += [{"a": "score", "goal": g} for g, _ in self._scorable(state, seat)]
            acts.append({"a": "done"})
        if state["relaxed"] and problem is not None:
            acts.append({"a": "reset"})
        return acts

    def _forced_discard(self, state: State, seat: int) -> bool:
        """Storage full and none of your tiles fits anywhere: discard into the box."""
        p = state["players"][seat]
        if not p["pending"] or len(p["storage"]) < 2:
            return False
        grid = R.to_grid(p["dungeon"])
        if state["relaxed"] and R.dungeon_problem(grid) is not None:
            return False
        return not any(R.has_placement(grid, t) for t in self._held(state, seat))

    # ---- apply -----------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        check_shape(action)
        events: list[Event] = []
        ph = state["phase"]
        kind = action["a"]
        handler = {
            ("keep", "discard"): self._do_keep,
            ("draft", "draft"): self._do_draft,
            ("draft", "exchange"): self._do_exchange,
            ("exchange_draw", "draw"): self._do_exchange_draw,
            ("exchange_discard", "discard"): self._do_exchange_discard,
            ("burrow", "keep"): self._do_burrow,
            ("build", "place"): self._do_place,
            ("build", "store"): self._do_store,
            ("build", "box"): self._do_box,
            ("build", "arch"): self._do_arch,
            ("build", "swap"): self._do_swap,
            ("build", "reset"): self._do_reset,
            ("build", "done"): self._do_build_done,
            ("build", "score"): self._do_build_score,
            ("score", "score"): self._do_score,
            ("score", "done"): self._do_score_done,
            ("refill", "draw"): self._do_draw,
        }.get((ph, kind))
        if handler is None:
            raise IllegalAction(f"You cannot do that now: {self._phase_hint(state)}")
        handler(state, seat, action, events)
        state["turn"] += 1
        return events

    def _phase_hint(self, state: State) -> str:
        return {
            "keep": "discard two of your six goal cards (discard S1 D2).",
            "draft": "draft a tile from the board (draft 171) or take the Draw/Exchange spot (exchange).",
            "exchange_draw": "choose the goal deck to draw from (draw S or draw D).",
            "exchange_discard": "discard one goal card from your hand (discard S1).",
            "burrow": "keep one of the Burrow Bro tiles (keep 171).",
            "build": "place or store your new tiles (171 D AP41 90), then done.",
            "score": "score goals from your hand (score S12) or done.",
            "refill": "draw a goal card (draw S or draw D).",
            "over": "the game is over.",
        }[state["phase"]]

    def _hand_card(self, p: dict[str, Any], g: Any) -> str:
        if not isinstance(g, str) or g not in p["hand"]:
            raise IllegalAction(f"{g} is not a goal card in your hand.")
        return g

    def _do_keep(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        cards = action.get("cards") or []
        if len(cards) != 2 or len(set(cards)) != 2:
            raise IllegalAction("Discard exactly two different goal cards, e.g. discard S3 D7.")
        for g in cards:
            self._hand_card(p, g)
        for g in cards:
            p["hand"].remove(g)
            state["discards"][g[0]].append(g)
        p["kept"] = True
        events.append(Event(f"{seat_ref(seat)} keeps four goal cards."))
        if all(x["kept"] for x in state["players"]):
            self._start_round(state, events)

    def _do_draft(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        t = action.get("tile")
        if t is None or t not in state["board"]:
            raise IllegalAction(f"Tile {t} is not on the draft board.")
        spot = state["board"].index(t)
        state["board"][spot] = None
        state["draft_pos"][seat] = SPOT_POS[spot]
        p = state["players"][seat]
        p["pending"] = [{"t": t}]
        events.append(Event(f"{seat_ref(seat)} drafts tile {t} from spot {spot + 1}."))
        self._resolve_assistant(state, seat, t, False, events)
        self._maybe_end_build_if_building(state, seat, events)

    def _maybe_end_build_if_building(self, state: State, seat: int, events: list[Event]) -> None:
        if state["phase"] == "build":
            self._maybe_end_build(state, seat, events)

    def _do_exchange(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        if not self._exchange_open(state):
            raise IllegalAction("The Draw/Exchange spot has already been taken this round.")
        # "draw a tile at random from the current bag as your draft and place it in
        # front of you. Then, draw a card from either the Shape Goals deck or the
        # Decoration Goals deck": the tile first, then the choice of deck.
        t = self._draw_for_turn(state, events)
        state["exchange_taken"] = seat
        state["draft_pos"][seat] = EXCHANGE_POS
        p = state["players"][seat]
        p["pending"] = [{"t": t}] if t is not None else []
        got = f"draws tile {t} from the bag" if t is not None else "finds the bags empty"
        events.append(Event(f"{seat_ref(seat)} takes the Draw/Exchange spot and {got}."))
        ready = [d for d in "SD" if self._deck_ready(state, d)]
        if len(ready) == 1:
            self._exchange_goal(state, seat, ready[0], events)
        else:
            state["phase"] = "exchange_draw"

    def _do_exchange_draw(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        deck = action.get("deck")
        if deck not in ("S", "D") or not self._deck_ready(state, deck):
            raise IllegalAction("Draw from a deck that still has cards: draw S or draw D.")
        self._exchange_goal(state, seat, deck, events)

    def _exchange_goal(self, state: State, seat: int, deck: str, events: list[Event]) -> None:
        events.append(Event(f"{seat_ref(seat)} draws a {DECK_NAMES[deck]} card."))
        self._draw_goal(state, seat, deck, events)
        state["phase"] = "exchange_discard"

    def _do_exchange_discard(
        self, state: State, seat: int, action: dict[str, Any], events: list[Event]
    ) -> None:
        p = state["players"][seat]
        cards = action.get("cards") or []
        if len(cards) != 1:
            raise IllegalAction("Discard exactly one goal card, e.g. discard S3.")
        g = self._hand_card(p, cards[0])
        p["hand"].remove(g)
        state["discards"][g[0]].append(g)
        events.append(Event(f"{seat_ref(seat)} discards a goal card face down."))
        if p["pending"]:
            self._resolve_assistant(state, seat, p["pending"][0]["t"], False, events)
        else:
            self._begin_build(state, seat)
        self._maybe_end_build_if_building(state, seat, events)

    def _do_burrow(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        t = action.get("tile")
        choices = state["burrow"]
        if t not in choices:
            raise IllegalAction(f"Choose one of the Burrow Bro tiles: {', '.join(map(str, choices))}.")
        p = state["players"][seat]
        original = choices[0]
        p["pending"][0] = {"t": t}
        state["box"].extend(x for x in choices if x != t)
        state["burrow"] = None
        events.append(Event(f"{seat_ref(seat)} keeps one Burrow Bro tile and puts the rest in the box."))
        if t != original:
            # A tile chosen through the Burrow Bro brings its own assistant, unless it is another Burrow Bro.
            self._resolve_assistant(state, seat, t, True, events)
        else:
            self._begin_build(state, seat)
        self._maybe_end_build_if_building(state, seat, events)

    def _take_tile(self, p: dict[str, Any], t: Any, state: State | None = None) -> str:
        """Remove ``t`` from the new tiles (first) or storage; says where it came from.
        (``state``: a tile discarded from storage is no longer one stored this build.)"""
        for i, x in enumerate(p["pending"]):
            if x["t"] == t:
                p["pending"].pop(i)
                return "pending"
        if t in p["storage"]:
            p["storage"].remove(t)
            now = (state or {}).get("stored_now") or []
            if now.count(t) > p["storage"].count(t):
                now.remove(t)
            return "storage"
        raise IllegalAction(
            f"You have no {tile_name(t)} to place (only new tiles and stored tiles can be placed)."
        )

    def _do_place(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        t: Any = action.get("tile")
        side = action.get("side")
        if t not in [x["t"] for x in p["pending"]] + p["storage"]:
            raise IllegalAction(
                f"You have no {tile_name(t)} to place (only new tiles and stored tiles can be placed)."
            )
        if t not in self._held(state, seat):
            raise IllegalAction(
                f"You stored {tile_name(t)} this Build Phase: stored tiles can be placed on a later Build Phase."
            )
        if side not in R.sides_of(t):
            a, b = R.sides_of(t)
            raise IllegalAction(f"{tile_name(t).capitalize()} has sides {a} and {b}.")
        pos = R.parse_coord(str(action.get("at", "")))
        if pos is None:
            raise IllegalAction(f"Name a square of your dungeon, like {R.START}, to place the tile on.")
        rot = action.get("rot", 0)
        if rot not in (0, 1, 2, 3):
            raise IllegalAction("Rotation is 0, 90, 180 or 270 degrees clockwise.")
        if action.get("flip"):
            raise IllegalAction(NO_MIRROR)
        cell = R.make_cell(t, side, rot)
        grid = R.to_grid(p["dungeon"])
        if state["relaxed"]:
            # After an Arcane Architect the dungeon may be disconnected until the build ends.
            why = None if pos not in grid else f"{R.coord(pos)} is already built."
        else:
            why = R.check_place(grid, pos, cell)
        if why:
            raise IllegalAction(why)
        self._take_tile(p, t)
        grid[pos] = cell
        p["dungeon"] = R.from_grid(grid)
        kind = "dungeon tile" if cell["kind"] == "dungeon" else "decoration tile"
        events.append(Event(f"{seat_ref(seat)} places {tile_name(t)} as a {kind} at {R.coord(pos)}."))
        self._maybe_end_build(state, seat, events)

    def _do_store(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        t = action.get("tile")
        if t not in [x["t"] for x in p["pending"]]:
            raise IllegalAction("Only a newly acquired tile can go into storage.")
        if len(p["storage"]) >= 2:
            raise IllegalAction("Your storage already holds two tiles.")
        self._take_tile(p, t)
        p["storage"].append(t)
        if self.rules_revision(state) >= 4:
            state.setdefault("stored_now", []).append(t)
        events.append(Event(f"{seat_ref(seat)} puts {tile_name(t)} into storage."))
        self._maybe_end_build(state, seat, events)

    def _do_box(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        if not self._forced_discard(state, seat):
            raise IllegalAction(
                "You may only discard a tile when your storage is full and none of your tiles fits anywhere."
            )
        t = action.get("tile")
        self._take_tile(p, t, state)
        if t == "G" and self.rules_revision(state) < 3:
            state["generic_left"] += 1
        else:
            # "discard tiles into the box": a generic tile leaves the game too (revision 3).
            state["box"].append(t)
        events.append(
            Event(f"{seat_ref(seat)} has no room for a tile and discards {tile_name(t)} into the box.")
        )
        self._maybe_end_build(state, seat, events)

    def _do_arch(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        if p["tokens"]["architect"] < 1:
            raise IllegalAction("You have no Arcane Architect token.")
        src = R.parse_coord(str(action.get("from", "")))
        dst = R.parse_coord(str(action.get("to", "")))
        rot = action.get("rot", 0)
        grid = R.to_grid(p["dungeon"])
        if src is None or src not in grid:
            raise IllegalAction(f"There is no tile of yours at {action.get('from')}.")
        if grid[src]["t"] == "start" and self.rules_revision(state) < 3:
            raise IllegalAction("Your starting tile stays where it is.")
        if grid[src]["t"] == "start" and dst == src:
            raise IllegalAction("Turning your starting tile changes nothing: it is a four-way hallway.")
        if dst is None:
            raise IllegalAction(f"{action.get('to')} is not a square of your dungeon (e.g. {R.START}).")
        if dst != src and dst in grid:
            raise IllegalAction(
                f"{R.coord(dst)} is already built: to swap two tiles use two Architects (swap "
                f"{R.coord(src)} {R.coord(dst)})."
            )
        if rot not in (0, 1, 2, 3) or (dst == src and rot == 0):
            raise IllegalAction("Move the tile to another square or turn it by 90, 180 or 270 degrees.")
        cell = R.turned(grid.pop(src), rot)
        grid[dst] = cell
        p["dungeon"] = R.from_grid(grid)
        p["tokens"]["architect"] -= 1
        state["tokens_left"]["architect"] += 1
        state["relaxed"] = True
        what = "turns" if src == dst else "moves"
        events.append(
            Event(
                f"{seat_ref(seat)} spends an Arcane Architect and {what} the tile at {R.coord(src)}"
                + ("" if src == dst else f" to {R.coord(dst)}")
                + "."
            )
        )
        if R.dungeon_problem(grid) is not None:
            events.append(
                Event("Your dungeon must be legal again before your build ends (or type reset).", seat)
            )

    def _do_swap(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        if p["tokens"]["architect"] < 2:
            raise IllegalAction("Swapping two tiles takes two Arcane Architect tokens.")
        grid = R.to_grid(p["dungeon"])
        at = action.get("at") or []
        rots = action.get("rot") or [0, 0]
        squares = [R.parse_coord(str(c)) for c in at]
        if len(squares) != 2 or len(rots) != 2 or any(r not in (0, 1, 2, 3) for r in rots):
            raise IllegalAction("Name two squares to swap, e.g. swap AP41 AQ41 (then turns, if any).")
        for c, q in zip(at, squares, strict=True):
            if q is None or q not in grid:
                raise IllegalAction(f"There is no tile of yours at {c}.")
            if grid[q]["t"] == "start" and self.rules_revision(state) < 3:
                raise IllegalAction("Your starting tile stays where it is.")
        if squares[0] == squares[1]:
            raise IllegalAction("Name two different tiles to swap.")
        names = [R.coord(q) for q in squares if q is not None]
        grid = A.apply_use(grid, {"a": "swap", "at": names, "rot": rots})
        p["dungeon"] = R.from_grid(grid)
        p["tokens"]["architect"] -= 2
        state["tokens_left"]["architect"] += 2
        state["relaxed"] = True
        events.append(
            Event(
                f"{seat_ref(seat)} spends two Arcane Architects and swaps the tiles at {names[0]} and {names[1]}."
            )
        )
        if R.dungeon_problem(grid) is not None:
            events.append(Event("Your dungeon must be legal again before your build ends (or reset).", seat))

    def _do_reset(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        snap = state["snapshot"]
        spent = snap["architect"] - p["tokens"]["architect"]
        p["dungeon"] = R.copy_dungeon(snap["dungeon"])
        p["storage"] = list(snap["storage"])
        p["pending"] = [dict(x) for x in snap["pending"]]
        if self.rules_revision(state) >= 4:
            state["stored_now"] = []
        p["tokens"]["architect"] = snap["architect"]
        state["tokens_left"]["architect"] -= spent
        state["relaxed"] = False
        events.append(Event(f"{seat_ref(seat)} starts their build again."))

    @staticmethod
    def _check_build_ends(p: dict[str, Any]) -> None:
        """A build ends (done, or a goal scored) only with every new tile placed or stored
        and the dungeon legal."""
        if p["pending"]:
            raise IllegalAction("Place or store every newly acquired tile first.")
        why = R.dungeon_problem(R.to_grid(p["dungeon"]))
        if why:
            raise IllegalAction(f"{why} Fix it or type reset.")

    def _do_build_done(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        self._check_build_ends(p)
        self._end_build(state, seat, events)
        if self.rules_revision(state) >= 3:
            self._finish_turn(state, seat, events)  # done with nothing scored ends the turn

    def _do_build_score(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        """Revision 3: scoring a goal ends the build and opens the Score step."""
        if self.rules_revision(state) < 3:
            raise IllegalAction(f"You cannot do that now: {self._phase_hint(state)}")
        p = state["players"][seat]
        self._check_build_ends(p)
        self._hand_card(p, action.get("goal"))
        self._end_build(state, seat, events)
        self._do_score(state, seat, action, events)

    def _do_score(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        p = state["players"][seat]
        g = self._hand_card(p, action.get("goal"))
        cost = R.goal_cost(R.summarise(R.to_grid(p["dungeon"])), g)
        if cost is None:
            raise IllegalAction(f"Your dungeon does not meet {g} {R.GOALS[g]['name']}.")
        if cost > p["tokens"]["mimic"]:
            raise IllegalAction(
                f"{g} needs {cost} Decorative Mimic token(s) and you have {p['tokens']['mimic']}."
            )
        p["tokens"]["mimic"] -= cost
        state["tokens_left"]["mimic"] += cost
        p["hand"].remove(g)
        p["scored"].append(g)
        goal = R.GOALS[g]
        mim = f" using {cost} Decorative Mimic token(s)" if cost else ""
        events.append(
            Event(
                f"{seat_ref(seat)} scores {goal['name']} for {goal['points']} points{mim}: {goal_needs(g)}."
            )
        )
        self._add_points(state, seat, goal["points"], events)
        if self.rules_revision(state) >= 3:
            return  # another goal may be met and declined: the step waits for done either way
        if not self._scorable(state, seat):
            self._refill(state, seat, events)

    def _do_score_done(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        if self.rules_revision(state) >= 3:
            self._finish_turn(state, seat, events)
            return
        self._refill(state, seat, events)

    def _do_draw(self, state: State, seat: int, action: dict[str, Any], events: list[Event]) -> None:
        deck = action.get("deck")
        if deck not in ("S", "D") or not self._deck_ready(state, deck):
            raise IllegalAction("Draw from a deck that still has cards: draw S or draw D.")
        self._draw_goal(state, seat, deck, events)
        events.append(Event(f"{seat_ref(seat)} draws a {DECK_NAMES[deck]} card."))
        self._refill(state, seat, events)

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        # Drawing from a bag or a deck reveals a hidden tile or card even without the RNG.
        # From revision 4 a goal scored face up stands too: the table has seen the card
        # ("play it face up, show where it exists") and /history has shown it.
        if self.rules_revision(before) >= 4 and isinstance(action, dict) and action.get("a") == "score":
            return False
        return super().can_undo(before, after, seat, action) and before["reveal"] == after["reveal"]

    # ---- notation --------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        from .notation import parse

        return parse(text)

    def format(self, action: Any) -> str:
        from .notation import format_action

        return format_action(action)

    def describe(self, state: State, action: Any) -> str:
        from .notation import describe

        return describe(action)

    def _paths(self, state: State, seat: int, legal: list[Any]) -> dict[str, list[tuple[str, str]]]:
        """Every legal move's chooser steps (notation -> steps), grouped to <= 25 options a step.
        A placement is two picks (tile and side, then the square) plus the turn only
        where more than one turn fits; the moves that end the turn are one pick."""
        from collections import Counter

        from .notation import group, raw_path, turn_key

        p = state["players"][seat]
        cells = p["dungeon"]
        pending = [x["t"] for x in p["pending"]]
        turns = Counter(turn_key(a) for a in legal)
        raw = []
        for a in legal:
            path = raw_path(a, cells, p["storage"], pending, turns[turn_key(a)] == 1)
            if a["a"] == "done":
                path = [("done", self._done_words(state))]
            raw.append(path)
        return {self.format(a): path for a, path in zip(legal, group(raw), strict=True)}

    def _done_words(self, state: State) -> str:
        if self.rules_revision(state) >= 3:
            return "Finish your turn (score nothing more)"
        return "Done building" if state["phase"] == "build" else "Done scoring"

    def segments(self, state: State, seat: int, action: Any) -> list[tuple[str, str]]:
        """Place: tile and side, square, turn (when several fit). Architect: tile,
        destination, turn. Swap: two tiles, then turns. Any step over 25 options is
        split into groups first."""
        path = self._paths(state, seat, self.legal_actions(state, seat)).get(self.format(action))
        return path if path is not None else super().segments(state, seat, action)

    def chooser(self, state: State, seat: int, prefix: list[str]) -> core.Choice:
        from . import goal_notes
        from .chooser import lazy_moves, only_offered, preview, square_notes

        legal = self.legal_actions(state, seat)
        if state["phase"] == "build" and prefix[:1] == ["arch"]:
            known = {self.format(a) for a in legal}
            legal = legal + [a for a in lazy_moves(self, state, seat, prefix) if self.format(a) not in known]
        paths = self._paths(state, seat, legal)
        prompt = CHOOSER_PROMPTS.get(state["phase"], "Choose your move.")
        # the paths of all moves at once: segments() would rebuild them for every move
        steps = [(a, paths[self.format(a)]) for a in legal]
        if state["phase"] == "keep":  # any two goals, in any order (issue 40 item 3)
            steps = goal_notes.either_order(steps)
        choice = core.narrow_steps(steps, prefix, prompt)
        if state["phase"] == "keep":
            choice.options = goal_notes.in_hand_order(choice.options, state["players"][seat]["hand"])
        choice.descriptions = goal_notes.goal_notes(choice.options) or None
        if state["phase"] == "build" and _step_kind(prefix) in ("square", "from", "to"):
            choice.descriptions = square_notes(state["players"][seat]["dungeon"], choice.options)
        if state["phase"] == "build":
            choice.preview = only_offered(preview(state, seat, prefix, legal), choice.options)
            choice.prompt = STEP_PROMPTS.get(_step_kind(prefix), choice.prompt)
        return choice

    def public_format(self, state: State, seat: int, action: Any) -> str:
        a = action.get("a") if isinstance(action, dict) else None
        if a == "discard":
            return "discard (face down)"
        if a == "draw":
            return f"draw {action['deck']}"
        return self.format(action)

    def pass_action(self, state: State, seat: int) -> Any:
        acts = self.legal_actions(state, seat)
        for a in acts:
            if a.get("a") == "done":
                return a
        return None

    # ---- views -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        from .views import view

        return view(self, state, seat)

    def status(self, state: State) -> str:
        from .views import status

        return status(self, state)

    def guide_view(self, section: str) -> dict[str, Any] | None:
        """The view a guide picture of ``section`` draws (the renderer's ``guide``)."""
        from .views import guide_view

        return guide_view(section) or None

    def what_now(self, state: State, seat: int | None) -> str:
        from .whatnow import what_now

        return what_now(self, state, seat)

    def private_text(self, state: State, seat: int) -> str:
        from .views import private_text

        return private_text(self, state, seat)

    # ---- end -------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def result(self, state: State) -> Result:
        players = state["players"]
        stored = state["final"]["breakdown"] if state["final"] else [{"goals": p["score"]} for p in players]
        # The boards call the boss decks by their colours, so the final table does too.
        breakdown = [{FINAL_WORDS.get(k, k): v for k, v in b.items()} for b in stored]
        scores = [sum(b.values()) for b in breakdown]
        shapes = [sum(1 for g in p["scored"] if g.startswith("S")) for p in players]
        decos = [sum(1 for g in p["scored"] if g.startswith("D")) for p in players]
        return Result(scores, core.rank(scores, shapes, decos), breakdown, shapes)
