"""Dungeon Lair: the Game class and the turn flow (docs/rules/dungeon-lair.md).

A turn: the player draws a tile (privately), places one of the tiles she holds
(phase "place"); if it was a corridor with a free exit she may draw again and
place at a free exit of that corridor (phase "chain"), and so on; then she does
one monster action or passes (phase "monster"), which ends the turn.
Notation lives in notation.py, what each seat sees in views.py, the map in board.py.
"""

from __future__ import annotations

import json
from typing import Any

from engine import core
from engine.core import Event, IllegalAction, Result, Rng, State, seat_ref

from . import last_turn, notation, views
from .board import ROTATIONS, START, Dungeon, area_cell, parse_area, parse_cell, upgrade
from .data import BASE_IDS, RULES, TILES
from .notation import SIZES, monster_word, tile_label, tile_summary

ACTIONS = ("tile", "remove", "draw", "continue", "pass", "monster")
# The chooser's steps of the last few positions asked about (see DungeonLair.segments).
_STEPS: dict[str, dict[str, list[tuple[str, str]]]] = {}


def monster_set(players: int, catacombs: bool = False) -> list[str]:
    """The sizes of one player's monsters for this player count."""
    counts = (RULES.catacomb_monsters if catacombs else RULES.monsters)[players]
    return [s for s in SIZES for _ in range(counts[s])]


class DungeonLair(core.Game):
    key = "dungeon-lair"
    title = "Dungeon Lair"
    min_players = 2
    max_players = 6
    options = {
        "beginner": core.Option(
            False, "Beginner rule: no hidden tile in hand; draw a tile and place it if able."
        ),
        "catacombs": core.Option(
            False,
            "Catacomb extra rules: 103 tiles with crypts and catacomb stairs, more monsters, moves "
            "across bridges and through the catacombs (which do not count for control).",
        ),
    }
    blurb = (
        "Build a shared dungeon tile by tile and send your small, big and huge monsters to claim "
        "its rooms; the strongest monster power in each connected zone takes its rooms."
    )

    # ---- setup -------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        n = state["seats"]
        setup = setup or {}
        catacombs = bool(state["options"].get("catacombs"))
        deck = list(TILES) if catacombs else list(BASE_IDS)
        Rng(state).shuffle(deck)
        first = Rng(state).randint(0, n - 1)
        hands: list[list[int]] = [[] for _ in range(n)]
        if "deck" in setup:
            deck = [int(t) for t in setup["deck"]]
        if "hands" in setup:
            hands = [[int(t) for t in h] for h in setup["hands"]]
        elif not state["options"]["beginner"]:
            # "deal one tile to each player, face-down" (top of the shuffled stack, in seat order)
            for seat in range(n):
                hands[seat].append(deck.pop(0))
        first = int(setup.get("first", first))
        board = dict(setup.get("board", {}))
        used = deck + [t for h in hands for t in h] + [e["t"] for e in board.values()]
        if len(used) != len(set(used)) or not set(used) <= set(TILES) or len(hands) != n:
            raise IllegalAction("The test setup uses a tile twice, an unknown tile or wrong hands.")
        state.update(
            deck=deck,
            hands=hands,
            board=board,
            removed=[],
            monsters=setup.get("monsters")
            or [[{"s": s, "at": None} for s in monster_set(n, catacombs)] for _ in range(n)],
            first=first,
            current=(first - 1) % n,
            turn=0,
            phase="place",
            placed=[],
            chain=None,
            cells="xy",  # cell names column,row (games saved before have none: board.upgrade)
        )
        self._start_turn(state, first, [])

    # ---- turn machinery ------------------------------------------------------------
    def _start_turn(self, state: State, seat: int, events: list[Event]) -> None:
        state.update(current=seat, turn=state["turn"] + 1, placed=[], chain=None)
        if state["deck"]:
            tile = state["deck"].pop(0)
            state["hands"][seat].append(tile)
            events.append(Event(f"{seat_ref(seat)} draws a tile."))
            events.append(Event(f"You drew {tile_summary(tile)}.", seat))
        state["phase"] = "place" if state["hands"][seat] else "monster"
        if state["phase"] == "monster":
            events.append(Event(f"{seat_ref(seat)} has no tile to place."))

    def _end_turn(self, state: State, events: list[Event]) -> None:
        if not state["deck"] and not any(state["hands"]):
            # "When a player ends her turn and all tiles have been placed or removed from the game,
            # the game ends and proceed to scoring."
            state["phase"] = "over"
            res = self.result(state)
            line = ", ".join(f"{seat_ref(s)} {res.scores[s]}" for s in range(state["seats"]))
            events.append(Event(f"All tiles are placed or removed: the game is over. Rooms: {line}."))
            return
        self._start_turn(state, (state["current"] + 1) % state["seats"], events)

    def dungeon(self, state: State) -> Dungeon:
        upgrade(state)  # every reading of the map passes here: old saved games get new names
        return Dungeon.of(state["board"], bool(state["options"].get("catacombs")))

    def chain_targets(self, state: State, dungeon: Dungeon | None = None) -> list[str]:
        """Free exits of the corridor just placed (where a chain tile must go)."""
        if state["chain"] is None:
            return []
        return (dungeon or self.dungeon(state)).free_exits(state["chain"])

    def placement_cells(self, state: State, dungeon: Dungeon) -> list[str]:
        if state["phase"] == "chain":
            return self.chain_targets(state, dungeon)
        return dungeon.frontier()

    def can_draw_more(self, state: State, seat: int) -> str | None:
        """'draw' or 'continue' when the corridor chain may go on, else None."""
        if state["phase"] != "monster" or state["chain"] is None or not self.chain_targets(state):
            return None
        if state["deck"]:
            return "draw"
        return "continue" if state["hands"][seat] else None

    # ---- legal actions ---------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        return set() if self.is_over(state) else {state["current"]}

    def turn_id(self, state: State) -> str:
        """A turn is the tile(s) placed and then one monster action or none
        (docs/rules/dungeon-lair.md, "What a turn is"): the game's turn counter, which
        the draw at the start of every turn bumps; a two-player game's seat alone would
        not tell two turns of a seat apart if a turn were ever skipped."""
        return "over" if self.is_over(state) else f"turn {state['turn']}"

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
        upgrade(state)
        return super().apply(state, seat, action)

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        upgrade(state)
        if self.is_over(state) or seat != state["current"]:
            return []
        dungeon = self.dungeon(state)
        if state["phase"] in ("place", "chain"):
            cells = self.placement_cells(state, dungeon)
            out: list[Any] = []
            for t in sorted(state["hands"][seat]):
                fits = dungeon.fits(t, cells)
                out += [{"a": "tile", "t": t, "at": c, "r": r} for c, r in fits]
                if not fits:
                    out.append({"a": "remove", "t": t})
            return out
        out = [{"a": "pass"}]
        more = self.can_draw_more(state, seat)
        if more:
            out.insert(0, {"a": more})
        return out + self._monster_actions(state, seat, dungeon)

    def _monster_actions(self, state: State, seat: int, dungeon: Dungeon) -> list[Any]:
        """Placements, moves that change the control zone a monster stands in, and returns
        to hand. (A move inside a control zone is legal when typed but changes nothing.)"""
        mine = state["monsters"][seat]
        in_hand = sorted({m["s"] for m in mine if m["at"] is None}, key=SIZES.index)
        targets = [lab for cell in state["placed"] for lab, _r, _s in dungeon.tiles[cell].areas]
        out: list[Any] = [{"a": "monster", "s": s, "from": "hand", "to": t} for s in in_hand for t in targets]
        seen: set[tuple[str, str]] = set()
        for m in mine:
            if m["at"] is None or (m["s"], m["at"]) in seen:
                continue
            seen.add((m["s"], m["at"]))
            out += [
                {"a": "monster", "s": m["s"], "from": m["at"], "to": d} for d in dungeon.moves_from(m["at"])
            ]
        out += [{"a": "monster", "s": s, "from": at, "to": "hand"} for s, at in sorted(seen)]
        return out

    # ---- applying ----------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, dict) or not isinstance(action.get("a"), str) or action["a"] not in ACTIONS:
            raise IllegalAction("That is not a Dungeon Lair move.")
        kind = action["a"]
        if kind in ("tile", "remove"):
            return self._apply_tile(state, seat, action)
        if state["phase"] == "place":
            raise IllegalAction("Place a tile first (or remove one that cannot be placed).")
        if state["phase"] == "chain":
            raise IllegalAction("Place a tile at a free exit of the corridor first.")
        if kind in ("draw", "continue"):
            return self._apply_draw(state, seat, kind)
        if kind == "pass":
            events = [Event(f"{seat_ref(seat)} does no monster action.")]
        else:
            events = self._apply_monster(state, seat, action)
        if self.rules_revision(state) >= 3:  # what the last turn changed: kept from revision 3
            last_turn.record(state, seat, action)
        self._end_turn(state, events)
        return events

    def _apply_draw(self, state: State, seat: int, kind: str) -> list[Event]:
        more = self.can_draw_more(state, seat)
        if more is None:
            raise IllegalAction("You may draw again only right after placing a corridor with a free exit.")
        if more != kind:
            raise IllegalAction(
                "The stack is empty: type 'continue' to go on with your tile."
                if kind == "draw"
                else "Type 'draw' to draw the next tile for the corridor."
            )
        events = []
        if kind == "draw":
            tile = state["deck"].pop(0)
            state["hands"][seat].append(tile)
            events.append(Event(f"{seat_ref(seat)} draws a tile to continue the corridor."))
            events.append(Event(f"You drew {tile_summary(tile)}.", seat))
        else:
            events.append(Event(f"{seat_ref(seat)} continues the corridor with a tile in hand."))
        state["phase"] = "chain"
        return events

    def _apply_tile(self, state: State, seat: int, action: dict[str, Any]) -> list[Event]:
        if state["phase"] == "monster":
            raise IllegalAction("Your tiles are placed for this turn; do a monster action or pass.")
        tile = action.get("t")
        # type() is, not isinstance: JSON's true is an int to Python (True == 1 is tile T1).
        if type(tile) is not int or tile not in state["hands"][seat]:
            raise IllegalAction("You do not hold that tile; /hand shows the tiles you hold.")
        dungeon = self.dungeon(state)
        cells = self.placement_cells(state, dungeon)
        if action["a"] == "remove":
            if dungeon.fits(tile, cells):
                raise IllegalAction(f"T{tile} can still be placed, so it cannot be removed.")
            state["hands"][seat].remove(tile)
            state["removed"].append(tile)
            state.update(chain=None, phase="monster")
            return [Event(f"{seat_ref(seat)} cannot place {tile_label(tile)}: it is removed from the game.")]
        cell, rot = action.get("at"), action.get("r")
        if not isinstance(cell, str) or parse_cell(cell) != cell:
            raise IllegalAction(f"Name a cell of the map as column,row, like {START}.")
        if type(rot) is not int or rot not in ROTATIONS:
            raise IllegalAction("Turn a tile by 0, 90, 180 or 270 degrees.")
        if state["phase"] == "chain" and cell not in cells:
            where = ", ".join(cells) or "none left"
            raise IllegalAction(f"A corridor tile goes on a free exit of {state['chain']} ({where}).")
        fault = dungeon.placement_fault(tile, cell, rot)
        if fault:
            raise IllegalAction(fault)
        state["hands"][seat].remove(tile)
        state["board"][cell] = {"t": tile, "r": rot, "by": seat}
        state["placed"].append(cell)
        turned = f" turned {rot}°" if rot else ""
        events = [Event(f"{seat_ref(seat)} places {tile_label(tile)} on {cell}{turned}.")]
        dungeon = dungeon.with_tile(cell, state["board"][cell])
        state["chain"] = cell if TILES[tile].is_corridor and dungeon.free_exits(cell) else None
        state["phase"] = "monster"
        return events

    def _apply_monster(self, state: State, seat: int, action: dict[str, Any]) -> list[Event]:
        size, src, dst = action.get("s"), action.get("from"), action.get("to")
        if (
            not isinstance(size, str)
            or size not in SIZES
            or not isinstance(src, str)
            or not isinstance(dst, str)
        ):
            raise IllegalAction("That is not a monster action.")
        if (src != "hand" and parse_area(src) != src) or (dst != "hand" and parse_area(dst) != dst):
            raise IllegalAction("Name a place on the map like 0,0 (or 0,0n for a room of a bridge), or hand.")
        word = monster_word(size)
        mine = state["monsters"][seat]
        dungeon = self.dungeon(state)
        if src == "hand":
            pick = next((m for m in mine if m["s"] == size and m["at"] is None), None)
            if pick is None:
                raise IllegalAction(f"You have no {word} monster in hand.")
            self._check_area(dungeon, dst)
            if area_cell(dst) not in state["placed"]:
                raise IllegalAction("A monster from your hand goes on a tile you placed this turn.")
            pick["at"] = dst
            return [Event(f"{seat_ref(seat)} puts a {word} monster on {dst}.")]
        pick = next((m for m in mine if m["s"] == size and m["at"] == src), None)
        if pick is None:
            raise IllegalAction(f"You have no {word} monster on {src}.")
        if dst == "hand":
            pick["at"] = None
            return [Event(f"{seat_ref(seat)} takes the {word} monster on {src} back to hand.")]
        self._check_area(dungeon, dst)
        if dst == src:
            raise IllegalAction(f"That monster already stands on {src}.")
        if dungeon.reach(dst) != dungeon.reach(src) and dst not in dungeon.beyond_doors(src):
            raise IllegalAction(
                f"From {src} a monster reaches only where a normal move takes it, or one door beyond; "
                f"{dst} is out of reach."
            )
        pick["at"] = dst
        return [Event(f"{seat_ref(seat)} moves the {word} monster from {src} to {dst}.")]

    def _check_area(self, dungeon: Dungeon, label: str) -> None:
        cell = area_cell(label)
        if cell not in dungeon.tiles:
            raise IllegalAction(f"There is no tile on {cell}.")
        labels = [lab for lab, _r, _s in dungeon.tiles[cell].areas]
        if label not in labels:
            raise IllegalAction(f"{cell} holds two rooms: name one, {' or '.join(labels)}.")

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        """Whether a move may be taken back (tables also checks that nobody acted since).
        A tile is drawn "without revealing it to other players" (issue 29):
        - a chain ``draw`` showed the drawer a tile;
        - a move that ended the turn made the next player draw: taken back, that tile would
          lie on the stack again for the undoing player, who could draw it for a corridor
          after taking back her placement too, into a hand the other player now knows;
        - "that tile is removed from the game" in front of everyone: a ``remove`` taken back
          would put a tile the table has seen into a hidden hand.
        Every chain of take-backs passes through one of these, so none of them leaks."""
        kind = action.get("a") if isinstance(action, dict) else None
        if kind in ("draw", "remove"):
            return False
        return len(after["deck"]) >= len(before["deck"])

    # ---- notation and the chooser ----------------------------------------------------------
    def parse(self, text: str) -> Any:
        return notation.parse(text)

    def format(self, action: Any) -> str:
        return notation.format_action(action)

    def describe(self, state: State, action: Any) -> str:
        # Button labels are posted in the public thread, so a tile still in hand is named
        # only by its letter, never by what it is.
        letter = views.hand_letters(state, state["current"]).get(action.get("t", 0), "?")
        return notation.describe(action, letter)

    def hand_letters(self, state: State, seat: int) -> dict[int, str]:
        return views.hand_letters(state, seat)

    def segments(self, state: State, seat: int, action: Any) -> list[tuple[str, str]]:
        """The chooser's steps to ``action`` (see notation.all_steps). The steps of one move
        depend on the others (how many places are open), and the base chooser asks once a
        legal move, so the steps of the whole position are built once and kept."""
        key = json.dumps(
            [
                seat,
                state["rng"],
                state["turn"],
                state["phase"],
                state["chain"],
                state["placed"],
                state["hands"][seat],
                state["monsters"][seat],
                sorted(state["board"].items()),
            ],
            sort_keys=True,
        )
        steps = _STEPS.get(key)
        if steps is None:
            legal = self.legal_actions(state, seat)
            all_steps = notation.all_steps(legal, views.hand_letters(state, seat))
            steps = {self.format(a): s for a, s in zip(legal, all_steps, strict=True)}
            if len(_STEPS) >= 8:
                _STEPS.pop(next(iter(_STEPS)))
            _STEPS[key] = steps
        return steps.get(self.format(action)) or super().segments(state, seat, action)

    def chooser(self, state: State, seat: int, prefix: list[str]) -> core.Choice:
        """The default narrowing by segments, with a prompt for each step and, where a step
        picks a place or a turn, a preview: the map around the candidates labelled exactly
        as the options name them, the tile turned (or the monster) as it would lie."""
        legal = self.legal_actions(state, seat)
        choice = self.narrow(state, seat, legal, prefix, "Choose your move.")
        under: dict[str, list[Any]] = {}
        for a in legal:
            segs = self.segments(state, seat, a)
            if len(segs) > len(prefix) and [t for t, _ in segs[: len(prefix)]] == prefix:
                under.setdefault(segs[len(prefix)][0], []).append(a)
        labels = dict(choice.options)
        choice.descriptions = views.chooser_notes(state, prefix, under)
        choice.prompt = views.chooser_prompt(state, seat, prefix, under)
        choice.preview = views.chooser_preview(seat, under, labels)
        return choice

    def pass_action(self, state: State, seat: int) -> Any:
        return {"a": "pass"} if state["phase"] == "monster" and seat == state["current"] else None

    # ---- views -------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        upgrade(state)
        return views.view(self, state, seat)

    def status(self, state: State) -> str:
        upgrade(state)
        return views.status(self, state)

    def private_text(self, state: State, seat: int) -> str:
        return views.private_text(state, seat)

    def header(self, state: State, seat: int) -> str:
        return views.header(state, seat)

    def what_now(self, state: State, seat: int | None) -> str:
        upgrade(state)
        return views.what_now(self, state, seat)

    # ---- end -----------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def result(self, state: State) -> Result:
        scores = self.dungeon(state).scores(state["monsters"])
        return Result(scores, core.rank(scores), [{"rooms": s} for s in scores])
