"""What each seat may see of a Dungeon Lair game: the view (for the board, the
private image and the AI), the public status line and the private text (/hand)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from engine.core import State, seat_ref

from . import last_turn
from .board import Dungeon, area_cell, parse_area, place
from .data import TILES
from .notation import SIZES, monster_word, tile_summary

if TYPE_CHECKING:
    from .game import DungeonLair


def hand_letters(state: State, seat: int) -> dict[int, str]:
    """Letters A, B for the tiles a player holds, in an order nobody else can infer.

    Buttons (built from ``describe``) are posted publicly, so they name a tile in hand by
    letter only. Sorting by id, or by kept/drawn, would tell the table something about the
    tile still hidden; a hash of the game's (unpublished) seed and the tile id does not."""
    seed = state["rng"]["seed"]
    ranked = sorted(state["hands"][seat], key=lambda t: random.Random(f"letter:{seed}:{t}").random())
    return {t: "ABCDEFGH"[i] for i, t in enumerate(ranked)}


def tile_view(tile_id: int) -> dict[str, Any]:
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


def turns_left(state: State, seat: int) -> int:
    """About how many more turns ``seat`` gets: one a turn while tiles remain (from the
    next one on for the player whose turn it is). Public: the stack size and every
    player's count of tiles in hand are on the table."""
    n = state["seats"]
    tiles = len(state["deck"]) + sum(len(h) for h in state["hands"])
    after = (seat - state["current"]) % n or n
    return max(0, (tiles - after) // n + 1) if tiles else 0


def _tiles(state: State, dungeon: Dungeon) -> list[dict[str, Any]]:
    control = dungeon.control(state["monsters"])
    owner = {lab: info["owner"] for info in control.values() for lab in info["rooms"]}
    contested = {
        lab
        for info in control.values()
        if info["owner"] is None and max(info["power"], default=0) > 0
        for lab in info["rooms"]
    }
    out = []
    for cell, entry in state["board"].items():
        p = place(cell, entry["t"], entry["r"])
        areas = [
            {
                "label": lab,
                "room": room,
                "sides": list(sides),
                "owner": owner.get(lab),
                "contested": lab in contested,
            }
            for lab, room, sides in p.areas
        ]
        out.append(
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
                "areas": areas,
            }
        )
    return out


def _players(state: State, scores: list[int]) -> list[dict[str, Any]]:
    players = []
    for s in range(state["seats"]):
        ms = state["monsters"][s]
        players.append(
            {
                "seat": s,
                "name": seat_ref(s),
                "tiles_in_hand": len(state["hands"][s]),
                "monsters_in_hand": {z: sum(1 for m in ms if m["s"] == z and m["at"] is None) for z in SIZES},
                "score": scores[s],
                "turns_left": turns_left(state, s),
            }
        )
    return players


def view(game: DungeonLair, state: State, seat: int | None) -> dict[str, Any]:
    dungeon = game.dungeon(state)
    over = game.is_over(state)
    out: dict[str, Any] = {
        "game": game.key,
        "title": game.title,
        "viewer": seat,
        "seats": state["seats"],
        "start": "0,0",
        "beginner": state["options"]["beginner"],
        "catacombs": state["options"].get("catacombs", False),
        "current": state["current"],
        "phase": state["phase"],
        "turn": state["turn"],
        "over": over,
        "deck": len(state["deck"]),
        "tiles_left": len(state["deck"]) + sum(len(h) for h in state["hands"]),
        "removed": [tile_view(t) for t in state["removed"]],
        "tiles": _tiles(state, dungeon),
        "monsters": [
            {"seat": s, "size": m["s"], "at": m["at"]}
            for s in range(state["seats"])
            for m in state["monsters"][s]
            if m["at"] is not None
        ],
        "players": _players(state, dungeon.scores(state["monsters"])),
        "chain": state["chain"],
        "free_exits": (
            game.chain_targets(state, dungeon)
            if state["phase"] == "chain" or game.can_draw_more(state, state["current"])
            else []
        ),
        "status": status(game, state),
        "winners": game.result(state).winners if over else [],
        "last": last_turn.public(state),
    }
    if seat is not None:
        letters = hand_letters(state, seat)
        out["mine"] = {
            "tiles": [
                {**tile_view(t), "letter": letters[t]}
                for t in sorted(state["hands"][seat], key=letters.__getitem__)
            ],
        }
    return out


# How the corridor may go on: 'draw' from the stack, or 'continue' with a tile in hand once
# the stack is empty (not "may continue to continue").
MORE_WORDS = {
    "draw": "draw a tile to continue the corridor",
    "continue": "continue the corridor with a tile in hand",
}


def status(game: DungeonLair, state: State) -> str:
    if game.is_over(state):
        res = game.result(state)
        best = res.scores[res.winners[0]]
        names = " and ".join(seat_ref(s) for s in res.winners)
        verb = "share the win" if len(res.winners) > 1 else "wins"
        return f"The game is over: {names} {verb} with {best} rooms."
    who = seat_ref(state["current"])
    phase = state["phase"]
    if phase == "place":
        return f"{who} places a tile."
    if phase == "chain":
        return f"{who} places a tile at a free exit of the corridor on {state['chain']}."
    more = game.can_draw_more(state, state["current"])
    if more:
        return f"{who} may {MORE_WORDS[more]}, do one monster action, or pass."
    return f"{who} does one monster action or passes."


def private_text(state: State, seat: int) -> str:
    hand = state["hands"][seat]
    ms = state["monsters"][seat]
    counts = ", ".join(
        f"{sum(1 for m in ms if m['s'] == z and m['at'] is None)} {monster_word(z)}" for z in SIZES
    )
    lines = []
    if hand:
        letters = hand_letters(state, seat)
        lines.append("Your tiles (edges as printed, before turning):")
        lines += [f"- tile {letters[t]}: {tile_summary(t)}" for t in sorted(hand, key=letters.__getitem__)]
    else:
        lines.append("You hold no tile.")
    lines.append(f"Monsters in hand: {counts}.")
    return "\n".join(lines)


def header(state: State, seat: int) -> str:
    """The top of the seat's private turn message (<= 400 characters): its tiles in hand by
    letter and name, its monsters in hand, and what its turn has placed so far."""
    hand = state["hands"][seat]
    letters = hand_letters(state, seat)
    tiles = ", ".join(f"{letters[t]} {TILES[t].name} (T{t})" for t in sorted(hand, key=letters.__getitem__))
    ms = state["monsters"][seat]
    counts = ", ".join(
        f"{sum(1 for m in ms if m['s'] == z and m['at'] is None)} {monster_word(z)}" for z in SIZES
    )
    lines = [f"Your tiles: {tiles or 'none'}.", f"Monsters in hand: {counts}."]
    if state["current"] == seat and state["placed"]:
        placed = ", ".join(f"T{state['board'][c]['t']} on {c}" for c in state["placed"])
        lines.append(f"This turn you placed {placed}.")
    out = "\n".join(lines)
    return out if len(out) <= 400 else out[:397] + "..."


# ---- the chooser's prompts and previews (issue 26) ------------------------------------------------


def _kind_of(under: dict[str, list[Any]]) -> str:
    """What a chooser step picks: 'place' (a cell or a room), 'turn', 'group', or 'what'."""
    tokens = list(under)
    if tokens and all(parse_area(t) == t for t in tokens):
        return "place"
    if tokens and all(t[:1] == "r" and t[1:].isdigit() for t in tokens):
        return "turn"
    if tokens and all(t[:1] == "g" and t[1:].isdigit() for t in tokens):
        return "group"
    return "what"


def chooser_prompt(state: State, seat: int, prefix: list[str], under: dict[str, list[Any]]) -> str:
    kind = _kind_of(under)
    sample = next(iter(under.values()))[0] if under else {}
    if kind == "group":
        return "More than 25 places are open: first pick the part of the map."
    if kind == "turn":
        return f"How it lies on {sample['at']}: pick a turn (the picture shows each)."
    if kind == "place" and sample.get("a") == "tile":
        letter = hand_letters(state, seat).get(sample["t"], "?")
        return f"Where tile {letter} goes: pick a place (the picture labels each one)."
    if kind == "place":
        return f"Where the {monster_word(sample['s'])} monster goes: pick a place (labelled on the picture)."
    if state["phase"] in ("place", "chain"):
        return "Choose the tile to place."
    if "draw" in under or "continue" in under:
        more = "draw" if "draw" in under else "continue"
        return f"You may {MORE_WORDS[more]}; or choose one monster action, or end your turn."
    return "Choose one monster action, or end your turn."


def chooser_preview(seat: int, under: dict[str, list[Any]], labels: dict[str, str]) -> dict[str, Any] | None:
    """What the renderer draws for a step that picks a place or a turn: each candidate with
    its label (the option's), the tile turned as it would lie there, or the monster."""
    kind = _kind_of(under)
    if kind == "what":  # "Put a big monster (power 2) on 1,0": the one place, named in the option
        puts = [m[0] for tok, m in under.items() if tok.startswith("put") and len(m) == 1]
        if not puts:
            return None
        dst = puts[0]["to"]
        places = [{"label": dst, "area": dst, "cell": area_cell(dst)}]
        return {"kind": "monster", "seat": seat, "size": puts[-1]["s"], "from": None, "places": places}
    sample = next(iter(under.values()))[0]
    # One place per candidate: a group step (more than 25 places) labels each place with its
    # part's name ("Part 2"), a place step with its cell, a turn step with "Turned 90°".
    picks = [(labels[tok].split(":")[0], a) for tok, moves in under.items() for a in moves]
    if sample["a"] == "tile":
        firsts: dict[str, tuple[str, Any]] = {}
        for label, a in picks:
            firsts.setdefault(a["at"] if kind != "turn" else f"{a['at']} {a['r']}", (label, a))
        places = [{"label": label, "cell": a["at"], "rot": a["r"]} for label, a in firsts.values()]
        return {"kind": "tile", "tile": sample["t"], "places": places}
    places = [{"label": label, "area": a["to"], "cell": area_cell(a["to"])} for label, a in picks]
    src = sample["from"] if sample["from"] != "hand" else None
    return {"kind": "monster", "seat": seat, "size": sample["s"], "from": src, "places": places}


# ---- "What now?" (issue 28) -------------------------------------------------------------


def _lair_phase(game: DungeonLair, state: State) -> str:
    """Where the game stands, in two sentences."""
    scores = game.dungeon(state).scores(state["monsters"])
    best = max(scores)
    leaders = " and ".join(seat_ref(s) for s, v in enumerate(scores) if v == best)
    lead = f"{leaders} {'lead' if ' and ' in leaders else 'leads'} with {best} room{'s' if best != 1 else ''}"
    if best == 0:
        lead = "nobody holds a room yet"
    left = len(state["deck"])
    return (
        f"Turn {state['turn']}: {seat_ref(state['current'])} draws and places tiles, then does one monster "
        f"action or none. {left} tile{'s' if left != 1 else ''} left in the stack; when every tile is placed "
        f"the game ends and each room goes to the most monster power that reaches it "
        f"(now: {lead})."
    )


def _tile_choices(game: DungeonLair, state: State, seat: int) -> list[str]:
    letters = hand_letters(state, seat)
    legal = game.legal_actions(state, seat)
    out = []
    for t in sorted(state["hands"][seat], key=letters.__getitem__):
        places = len({a["at"] for a in legal if a["a"] == "tile" and a["t"] == t})
        name = f"tile {letters[t]}, {TILES[t].name}"
        out.append(
            f"Place {name}: it fits in {places} place{'s' if places != 1 else ''}."
            if places
            else f"Remove {name}: it fits nowhere, so it leaves the game (that ends your tile placing)."
        )
    if state["phase"] == "chain":
        out.append(f"The tile must go on a free exit of the corridor on {state['chain']}.")
    else:
        out.append("A tile touches the dungeon doorway against doorway; a corridor lets you draw again.")
    return out


def _monster_choices(game: DungeonLair, state: State, seat: int) -> list[str]:
    mine = state["monsters"][seat]
    hand = [m["s"] for m in mine if m["at"] is None]
    out = []
    more = game.can_draw_more(state, seat)
    if more:
        words = MORE_WORDS[more][0].upper() + MORE_WORDS[more][1:]
        out.append(f"{words}: it goes on a free exit of the corridor you just placed.")
    if hand and state["placed"]:
        sizes = ", ".join(f"{monster_word(z)}: power {SIZES.index(z) + 1}" for z in SIZES if z in hand)
        out.append(
            f"Put a monster from your hand ({sizes}) on a tile you placed this turn: it holds every room it "
            "can walk to without passing a door or a portcullis."
        )
    if any(m["at"] is not None for m in mine):
        out.append("Move one of your monsters as far as it walks, through one door at most.")
        out.append("Take one of your monsters back to your hand (it scores nothing there).")
    out.append("Pass: end your turn with no monster action.")
    return out


def what_now(game: DungeonLair, state: State, seat: int | None) -> str:
    """The "What now?" answer: the turn, what ``seat`` may do, and what it costs and gives."""
    if game.is_over(state):
        return status(game, state) + " The final board shows every player's rooms."
    lines = [_lair_phase(game, state)]
    if seat is not None and seat == state["current"]:
        lines.append("Your choices:")
        tiles = state["phase"] in ("place", "chain")
        lines += [f"- {c}" for c in (_tile_choices if tiles else _monster_choices)(game, state, seat)]
    elif seat is not None:
        scores = game.dungeon(state).scores(state["monsters"])
        lines.append(
            f"It is {seat_ref(state['current'])}'s turn; you wait. You hold {scores[seat]} room"
            f"{'s' if scores[seat] != 1 else ''} now."
        )
    return "\n".join(lines)


_SIDES = ("north", "east", "south", "west")


def place_notes(state: State, under: dict[str, list[Any]]) -> dict[str, str]:
    """A line under each place a step offers (issue 40 item 2): what lies next to it on the
    map, and in how many turns the tile fits there, so the places differ by more than a name."""
    from .board import neighbour, parse_cell

    out = {}
    for tok, actions in under.items():
        cell = parse_cell(tok)
        if cell is None or tok != cell:
            continue
        near = [
            f"{TILES[state['board'][n]['t']].name.lower()} {side}"
            for k, side in enumerate(_SIDES)
            if (n := neighbour(cell, k)) in state["board"]
        ]
        turns = len({a.get("r") for a in actions if a.get("a") == "tile"})
        head = f"{cell}: fits {turns} way{'s' if turns != 1 else ''}; " if turns else f"{cell}: "
        text = head + ("next to " + ", ".join(near) if near else "nothing next to it")
        out[tok] = text if len(text) <= 100 else text[:98].rsplit(" ", 1)[0].rstrip(",;") + " …"
    return out


def chooser_notes(state: State, prefix: list[str], under: dict[str, list[Any]]) -> dict[str, str]:
    """A line under each tile of the first placing step (<= 100 characters): in how
    many places it fits and its edges (issue 28)."""
    if prefix:
        return place_notes(state, under)
    if state["phase"] not in ("place", "chain"):
        return {}
    out = {}
    for tok, actions in under.items():
        places = len({a["at"] for a in actions if a["a"] == "tile"})
        tiles = {a["t"] for a in actions}
        if len(tiles) != 1:
            continue
        edges = tile_summary(tiles.pop()).split("(", 1)[-1].rstrip(")")
        fit = f"fits in {places} place{'s' if places != 1 else ''}" if places else "fits nowhere: remove it"
        out[tok] = f"{fit}; {edges}"[:100]
    return out
