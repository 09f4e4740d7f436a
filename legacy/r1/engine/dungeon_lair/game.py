"""Dungeon Lair: the rules as implemented (docs/rules/dungeon-lair.md).

A turn: the player draws a tile (privately), places one of the tiles she holds
(phase "place"); if it was a corridor with a free exit she may draw again and
place at a free exit of that corridor (phase "chain"), and so on; then she does
one monster action or passes (phase "monster"), which ends the turn.
"""

from __future__ import annotations

import random
import re
from typing import Any

from legacy.r1.engine import core
from legacy.r1.engine.core import Event, IllegalAction, Result, Rng, State

from .board import (
    ROTATIONS,
    Dungeon,
    area_cell,
    parse_area,
    parse_cell,
    place,
)
from .data import RULES, TILES

SIZES = ("S", "M", "L")
SIZE_WORDS = {"s": "S", "small": "S", "m": "M", "big": "M", "l": "L", "huge": "L"}
EDGE_WORDS = {"open": "open", "door": "door", "portcullis": "portcullis", "wall": "wall"}
_TILE = re.compile(r"^(?:t|#)?([0-9]{1,3})\Z", re.IGNORECASE)


def player(seat: int) -> str:
    return f"Player {seat + 1}"


def monster_word(size: str) -> str:
    return RULES.size_names[size]


def tile_label(tile_id: int) -> str:
    return f"T{tile_id} {TILES[tile_id].name}"


def tile_summary(tile_id: int) -> str:
    """A tile in words, unrotated: 'T23 Door room (N door, E open, S wall, W open)'."""
    t = TILES[tile_id]
    edges = ", ".join(f"{s} {e}" for s, e in zip("NESW", t.edges, strict=True))
    rooms = {0: "no room", 1: "1 room", 2: "2 rooms"}[t.points]
    extra = {"bridge": ", rooms joined by a bridge", "chasm": ", rooms parted by a chasm"}.get(
        t.link or "", ""
    )
    return f"{tile_label(tile_id)} ({edges}; {rooms}{extra})"


def monster_set(players: int) -> list[str]:
    """The sizes of one player's monsters for this player count (no Catacombs)."""
    counts = RULES.monsters[players]
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
    }
    blurb = (
        "Build a shared dungeon tile by tile and send your small, big and huge monsters to claim "
        "its rooms; the strongest monster power in each connected zone takes its rooms."
    )

    # ---- setup -------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        n = state["seats"]
        setup = setup or {}
        deck = list(TILES)
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
        if "first" in setup:
            first = int(setup["first"])
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
            or [[{"s": s, "at": None} for s in monster_set(n)] for _ in range(n)],
            first=first,
            current=(first - 1) % n,
            turn=0,
            phase="place",
            placed=[],
            chain=None,
        )
        self._start_turn(state, first, [])

    # ---- turn machinery ------------------------------------------------------------
    def _start_turn(self, state: State, seat: int, events: list[Event]) -> None:
        state.update(current=seat, turn=state["turn"] + 1, placed=[], chain=None)
        if state["deck"]:
            tile = state["deck"].pop(0)
            state["hands"][seat].append(tile)
            events.append(Event(f"{player(seat)} draws a tile."))
            events.append(Event(f"You drew {tile_summary(tile)}.", seat))
        state["phase"] = "place" if state["hands"][seat] else "monster"
        if state["phase"] == "monster":
            events.append(Event(f"{player(seat)} has no tile to place."))

    def _end_turn(self, state: State, events: list[Event]) -> None:
        if not state["deck"] and not any(state["hands"]):
            # "When a player ends her turn and all tiles have been placed or removed from the game,
            # the game ends and proceed to scoring."
            state["phase"] = "over"
            res = self.result(state)
            line = ", ".join(f"{player(s)} {res.scores[s]}" for s in range(state["seats"]))
            events.append(Event(f"All tiles are placed or removed: the game is over. Rooms: {line}."))
            return
        self._start_turn(state, (state["current"] + 1) % state["seats"], events)

    def dungeon(self, state: State) -> Dungeon:
        return Dungeon.of(state["board"])

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

    # ---- actions ---------------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        return set() if self.is_over(state) else {state["current"]}

    def legal_actions(self, state: State, seat: int) -> list[Any]:
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
        out += self._monster_actions(state, seat, dungeon, complete=False)
        return out

    def _monster_actions(self, state: State, seat: int, dungeon: Dungeon, complete: bool) -> list[Any]:
        """Placements, moves that open a door into another zone, and returns to hand.
        With ``complete`` also every move inside a zone (legal, but it changes nothing)."""
        mine = state["monsters"][seat]
        out: list[Any] = []
        in_hand = sorted({m["s"] for m in mine if m["at"] is None}, key=SIZES.index)
        targets = [lab for cell in state["placed"] for lab, _r, _s in dungeon.tiles[cell].areas]
        out += [{"a": "monster", "s": s, "from": "hand", "to": t} for s in in_hand for t in targets]
        seen: set[tuple[str, str]] = set()
        for m in mine:
            if m["at"] is None or (m["s"], m["at"]) in seen:
                continue
            seen.add((m["s"], m["at"]))
            zone = dungeon.zone(m["at"])
            dests = set(dungeon.beyond_doors(zone))
            if complete:
                dests |= {lab for lab in dungeon.room if dungeon.zone(lab) == zone}
            else:
                dests = {d for d in dests if dungeon.zone(d) != zone}
            dests.discard(m["at"])
            out += [{"a": "monster", "s": m["s"], "from": m["at"], "to": d} for d in sorted(dests)]
        for s, at in sorted(seen):
            out.append({"a": "monster", "s": s, "from": at, "to": "hand"})
        return out

    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, dict) or action.get("a") not in (
            "tile",
            "remove",
            "draw",
            "continue",
            "pass",
            "monster",
        ):
            raise IllegalAction("That is not a Dungeon Lair move.")
        kind = action["a"]
        if kind in ("tile", "remove"):
            return self._apply_tile(state, seat, action)
        if state["phase"] == "place":
            raise IllegalAction("Place a tile first (or remove one that cannot be placed).")
        if state["phase"] == "chain":
            raise IllegalAction("Place a tile at a free exit of the corridor first.")
        if kind in ("draw", "continue"):
            more = self.can_draw_more(state, seat)
            if more is None:
                raise IllegalAction(
                    "You may draw again only right after placing a corridor with a free exit."
                )
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
                events.append(Event(f"{player(seat)} draws a tile to continue the corridor."))
                events.append(Event(f"You drew {tile_summary(tile)}.", seat))
            else:
                events.append(Event(f"{player(seat)} continues the corridor with a tile in hand."))
            state["phase"] = "chain"
            return events
        if kind == "pass":
            events = [Event(f"{player(seat)} does no monster action.")]
        else:
            events = self._apply_monster(state, seat, action)
        self._end_turn(state, events)
        return events

    def _apply_tile(self, state: State, seat: int, action: dict[str, Any]) -> list[Event]:
        if state["phase"] == "monster":
            raise IllegalAction("Your tiles are placed for this turn; do a monster action or pass.")
        tile = action.get("t")
        if not isinstance(tile, int) or tile not in state["hands"][seat]:
            raise IllegalAction("You do not hold that tile; /hand shows the tiles you hold.")
        dungeon = self.dungeon(state)
        cells = self.placement_cells(state, dungeon)
        if action["a"] == "remove":
            if dungeon.fits(tile, cells):
                raise IllegalAction(f"T{tile} can still be placed, so it cannot be removed.")
            state["hands"][seat].remove(tile)
            state["removed"].append(tile)
            state["chain"] = None
            state["phase"] = "monster"
            return [Event(f"{player(seat)} cannot place {tile_label(tile)}: it is removed from the game.")]
        cell, rot = action.get("at"), action.get("r")
        if not isinstance(cell, str) or parse_cell(cell) != cell:
            raise IllegalAction("Name a cell of the map, like H8.")
        if rot not in ROTATIONS:
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
        events = [Event(f"{player(seat)} places {tile_label(tile)} on {cell}{turned}.")]
        dungeon = self.dungeon(state)
        state["chain"] = cell if TILES[tile].is_corridor and dungeon.free_exits(cell) else None
        state["phase"] = "monster"
        return events

    def _apply_monster(self, state: State, seat: int, action: dict[str, Any]) -> list[Event]:
        size, src, dst = action.get("s"), action.get("from"), action.get("to")
        if size not in SIZES or not isinstance(src, str) or not isinstance(dst, str):
            raise IllegalAction("That is not a monster action.")
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
            return [Event(f"{player(seat)} puts a {word} monster on {dst}.")]
        pick = next((m for m in mine if m["s"] == size and m["at"] == src), None)
        if pick is None:
            raise IllegalAction(f"You have no {word} monster on {src}.")
        if dst == "hand":
            pick["at"] = None
            return [Event(f"{player(seat)} takes the {word} monster on {src} back to hand.")]
        self._check_area(dungeon, dst)
        if dst == src:
            raise IllegalAction(f"That monster already stands on {src}.")
        zone = dungeon.zone(src)
        if dungeon.zone(dst) != zone and dst not in dungeon.beyond_doors(zone):
            raise IllegalAction(
                f"From {src} a monster reaches only its own zone, or one door beyond it; {dst} is out of reach."
            )
        pick["at"] = dst
        return [Event(f"{player(seat)} moves the {word} monster from {src} to {dst}.")]

    def _check_area(self, dungeon: Dungeon, label: str) -> None:
        cell = area_cell(label)
        if cell not in dungeon.tiles:
            raise IllegalAction(f"There is no tile on {cell}.")
        labels = [lab for lab, _r, _s in dungeon.tiles[cell].areas]
        if label not in labels:
            raise IllegalAction(f"{cell} holds two rooms: name one, {' or '.join(labels)}.")

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        # A chain draw shows the drawer a tile; the next player's draw at the end of a turn
        # shows them a tile the undoing player could otherwise draw for her corridor.
        if action.get("a") == "draw":
            return False
        if len(after["deck"]) < len(before["deck"]) and self.can_draw_more(before, seat) == "draw":
            return False
        return True

    # ---- notation ----------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        words = text.replace(",", " ").replace("°", " ").split()
        low = [w.lower() for w in words]
        usage = (
            "Type a tile like 'T17 H8 90', 'T17 remove', a monster like 'S H8', 'M H8 J9', "
            "'L H8 hand', or 'draw', 'continue', 'pass'."
        )
        if not words:
            raise IllegalAction(usage)
        if low in (["draw"], ["continue"], ["pass"]):
            return {"a": low[0]}
        m = _TILE.match(words[0])
        if m:
            tile = int(m.group(1))
            if tile not in TILES:
                raise IllegalAction(f"There is no tile T{tile}; tiles run from T1 to T{len(TILES)}.")
            if low[1:] == ["remove"]:
                return {"a": "remove", "t": tile}
            if len(words) not in (2, 3):
                raise IllegalAction("Place a tile as: tile, cell, turn; for example 'T17 H8 90'.")
            cell = parse_cell(words[1])
            if cell is None:
                raise IllegalAction(f"'{words[1]}' is not a cell of the map (A1 to {self._corner()}).")
            rot = 0
            if len(words) == 3:
                # A string check, not int(): int() accepts other scripts' digits and refuses
                # some that str.isdigit() accepts ('①').
                if words[2] not in {str(r) for r in ROTATIONS}:
                    raise IllegalAction("Turn a tile by 0, 90, 180 or 270 degrees.")
                rot = int(words[2])
            return {"a": "tile", "t": tile, "at": cell, "r": rot}
        if low[0] in SIZE_WORDS and len(words) in (2, 3):
            size = SIZE_WORDS[low[0]]
            places = [w if w == "hand" else parse_area(words[i + 1]) for i, w in enumerate(low[1:])]
            for w, p in zip(words[1:], places, strict=True):
                if p is None:
                    raise IllegalAction(
                        f"'{w}' is not a place on the map (like H8, or H8n for a bridge room)."
                    )
            if len(places) == 1:
                places.insert(0, "hand")
            src, dst = places
            if src == "hand" and dst == "hand":
                raise IllegalAction("Name where the monster goes, like 'S H8'.")
            return {"a": "monster", "s": size, "from": src, "to": dst}
        raise IllegalAction(usage)

    def _corner(self) -> str:
        return f"{chr(64 + RULES.columns)}{RULES.rows}"

    def format(self, action: Any) -> str:
        kind = action["a"]
        if kind == "tile":
            return f"T{action['t']} {action['at']} {action['r']}"
        if kind == "remove":
            return f"T{action['t']} remove"
        if kind == "monster":
            if action["from"] == "hand":
                return f"{action['s']} {action['to']}"
            return f"{action['s']} {action['from']} {action['to']}"
        return str(kind)

    def describe(self, state: State, action: Any) -> str:
        # Button labels are posted in the public thread, so a tile still in hand is named
        # only by where it would go, never by what it is.
        kind = action["a"]
        if kind in ("tile", "remove"):
            letter = self.hand_letters(state, state["current"]).get(action["t"], "?")
            if kind == "remove":
                return f"Remove tile {letter}: it cannot be placed"
            return f"Place tile {letter} on {action['at']} turned {action['r']}°"
        if kind == "draw":
            return "Draw a tile to continue the corridor"
        if kind == "continue":
            return "Continue the corridor with your tile"
        if kind == "pass":
            return "No monster action: end the turn"
        word = monster_word(action["s"])
        if action["from"] == "hand":
            return f"Put a {word} monster on {action['to']}"
        if action["to"] == "hand":
            return f"Take the {word} monster on {action['from']} back to hand"
        return f"Move the {word} monster from {action['from']} to {action['to']}"

    def hand_letters(self, state: State, seat: int) -> dict[int, str]:
        """Letters A, B for the tiles a player holds, in an order nobody else can infer.

        Buttons (built from ``describe``) are posted publicly, so they name a tile in hand by
        letter only. Sorting by id, or by kept/drawn, would tell the table something about the
        tile still hidden; a hash of the game's (unpublished) seed and the tile id does not."""
        seed = state["rng"]["seed"]
        ranked = sorted(state["hands"][seat], key=lambda t: random.Random(f"letter:{seed}:{t}").random())
        return {t: "ABCDEFGH"[i] for i, t in enumerate(ranked)}

    def pass_action(self, state: State, seat: int) -> Any:
        return {"a": "pass"} if state["phase"] == "monster" and seat == state["current"] else None

    # ---- views -------------------------------------------------------------------------
    def tile_view(self, tile_id: int) -> dict[str, Any]:
        t = TILES[tile_id]
        return {
            "id": t.id,
            "kind": t.kind,
            "name": t.name,
            "edges": list(t.edges),
            "areas": [{"sides": list(a.sides), "room": a.room} for a in t.areas],
            "link": t.link,
            "summary": tile_summary(t.id),
        }

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        dungeon = self.dungeon(state)
        control = dungeon.control(state["monsters"])
        owner = {lab: info["owner"] for info in control.values() for lab in info["rooms"]}
        contested = {
            lab
            for info in control.values()
            if info["owner"] is None and max(info["power"], default=0) > 0
            for lab in info["rooms"]
        }
        tiles = []
        for cell, entry in state["board"].items():
            p = place(cell, entry["t"], entry["r"])
            tiles.append(
                {
                    "cell": cell,
                    "id": p.tile.id,
                    "kind": p.tile.kind,
                    "name": p.tile.name,
                    "rot": p.rot,
                    "by": entry["by"],
                    "edges": list(p.edges),
                    "link": p.tile.link,
                    "new": cell in state["placed"],
                    "areas": [
                        {
                            "label": lab,
                            "room": room,
                            "sides": list(sides),
                            "owner": owner.get(lab),
                            "contested": lab in contested,
                        }
                        for lab, room, sides in p.areas
                    ],
                }
            )
        scores = dungeon.scores(state["monsters"])
        players = []
        for s in range(state["seats"]):
            ms = state["monsters"][s]
            players.append(
                {
                    "seat": s,
                    "name": player(s),
                    "tiles_in_hand": len(state["hands"][s]),
                    "monsters_in_hand": {
                        z: sum(1 for m in ms if m["s"] == z and m["at"] is None) for z in SIZES
                    },
                    "score": scores[s],
                }
            )
        out: dict[str, Any] = {
            "game": self.key,
            "title": self.title,
            "seats": state["seats"],
            "columns": RULES.columns,
            "rows": RULES.rows,
            "start": RULES.start,
            "beginner": state["options"]["beginner"],
            "current": state["current"],
            "phase": state["phase"],
            "turn": state["turn"],
            "over": self.is_over(state),
            "deck": len(state["deck"]),
            "removed": [self.tile_view(t) for t in state["removed"]],
            "tiles": tiles,
            "monsters": [
                {"seat": s, "size": m["s"], "at": m["at"]}
                for s in range(state["seats"])
                for m in state["monsters"][s]
                if m["at"] is not None
            ],
            "players": players,
            "chain": state["chain"],
            "free_exits": (
                self.chain_targets(state, dungeon)
                if state["phase"] == "chain" or self.can_draw_more(state, state["current"])
                else []
            ),
            "status": self.status(state),
            "you": seat,
        }
        if seat is not None:
            letters = self.hand_letters(state, seat)
            out["my_tiles"] = [
                {**self.tile_view(t), "letter": letters[t]}
                for t in sorted(state["hands"][seat], key=letters.__getitem__)
            ]
        return out

    def status(self, state: State) -> str:
        if self.is_over(state):
            res = self.result(state)
            best = res.scores[res.winners[0]]
            names = " and ".join(player(s) for s in res.winners)
            verb = "share the win" if len(res.winners) > 1 else "wins"
            return f"The game is over: {names} {verb} with {best} rooms."
        who = player(state["current"])
        phase = state["phase"]
        if phase == "place":
            return f"{who} places a tile."
        if phase == "chain":
            return f"{who} places a tile at a free exit of the corridor on {state['chain']}."
        more = self.can_draw_more(state, state["current"])
        if more:
            return f"{who} may {more} to continue the corridor, do one monster action, or pass."
        return f"{who} does one monster action or passes."

    def private_text(self, state: State, seat: int) -> str:
        hand = state["hands"][seat]
        ms = state["monsters"][seat]
        counts = ", ".join(
            f"{sum(1 for m in ms if m['s'] == z and m['at'] is None)} {monster_word(z)}" for z in SIZES
        )
        lines = []
        if hand:
            letters = self.hand_letters(state, seat)
            lines.append("Your tiles (edges as printed, before turning):")
            lines += [
                f"- tile {letters[t]}: {tile_summary(t)}" for t in sorted(hand, key=letters.__getitem__)
            ]
        else:
            lines.append("You hold no tile.")
        lines.append(f"Monsters in hand: {counts}.")
        return "\n".join(lines)

    # ---- end -----------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def result(self, state: State) -> Result:
        scores = self.dungeon(state).scores(state["monsters"])
        return Result(scores, core.rank(scores), [{"rooms": s} for s in scores])

    # ---- AI ------------------------------------------------------------------------------
    def ai_action(self, state: State, seat: int) -> Any:
        from .ai import choose

        return choose(self, state, seat)
