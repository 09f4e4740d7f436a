"""The "What now?" answer (issue 28): the phase in a few sentences, and for the seat
to act each choice with what it costs and gives. Only what the asking seat may see:
goal cards in hand and whether they are met only for their owner."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import rules_revision, seat_ref

from . import rules as R

if TYPE_CHECKING:
    from .game import DungeonDecorators

LIMIT = 1500
GIVES = {
    "sapper": "Goblin Sapper: a grey generic tile as well, to place or store this turn",
    "burrow": "Burrow Bro: draw two more tiles from the bag and keep one of the three",
    "architect": "Arcane Architect: a token that moves or turns one tile of your dungeon in a build",
    "mimic": "Decorative Mimic: a token that makes a green wild icon any decoration for one goal",
}
PHASE = {
    "keep": "Setup: every player keeps four of their six goal cards and discards two face down.",
    "draft": (
        "Draft: {who} takes one tile from the draft board or the Draw/Exchange spot. The spot taken sets "
        "next round's order: spot 1 first, then 2, the Draw/Exchange spot, 3 and 4."
    ),
    "exchange_draw": "Draw/Exchange: {who} drew a tile from the bag and now draws a goal card.",
    "exchange_discard": "Draw/Exchange: {who} discards one goal card face down.",
    "burrow": "Burrow Bro: {who} keeps one of three tiles; the other two go into the box.",
    "build": (
        "Build: {who} places each new tile in the dungeon or in storage (two places), and may spend "
        "Arcane Architects."
    ),
    "score": "Score: {who} may play goal cards the dungeon meets, then finishes the turn.",
    "refill": "Refill: {who} draws goal cards, one at a time from either deck, up to four.",
}


def tile_words(t: Any, gives: bool = False) -> str:
    """A tile as a player describes it: both sides and its assistant."""
    if t == "G":
        return "generic tile (grey room on one side, grey straight hallway on the other)"
    spec = R.TILES[int(t)]
    icons = [R.DECOS[e] for e in spec["edges"] if e not in "-*"]
    kind = "room" if len(icons) == 1 else "hallway"
    floor = "star" if spec["floor"] == "star" else f"{spec['floor']} floor"
    wild = sum(1 for e in spec["edges"] if e == "*")
    deco = ", ".join(icons) + (f", {wild} wild" if wild else "")
    helper = ""
    if spec["assistant"]:
        helper = "; " + (GIVES[spec["assistant"]] if gives else GIVES[spec["assistant"]].split(":")[0])
    return f"tile {t} ({kind}, {floor}; decorations {deco}{helper})"


def _goal_words(gid: str) -> str:
    from .views import goal_info

    g = goal_info(gid)
    return f"{g['name']} ({g['points']} points: {g['text']})"


def _choices(game: DungeonDecorators, state: dict[str, Any], seat: int) -> list[str]:
    ph = state["phase"]
    p = state["players"][seat]
    if ph in ("keep", "exchange_discard"):
        n = "two" if ph == "keep" else "one"
        return [f"Discard {n}; you keep the rest: " + "; ".join(_goal_words(g) for g in p["hand"])]
    if ph == "draft":
        out = [f"Spot {k + 1}: {tile_words(t, True)}" for k, t in enumerate(state["board"]) if t is not None]
        if game._exchange_open(state):
            out.append(
                "Draw/Exchange: a random tile from the bag, then a goal card from the deck you choose, "
                "then discard one card"
            )
        return out
    if ph in ("exchange_draw", "refill"):
        return [
            "Shape goal deck: points for tiles lying in a shape",
            "Decoration goal deck: points for decorations",
        ]
    if ph == "burrow":
        return [f"Keep {tile_words(t)}" for t in state["burrow"]]
    if ph == "score":
        met = game._scorable(state, seat)
        out = [
            f"Score {_goal_words(g)}" + (f", spending {c} Decorative Mimic token(s)" if c else "")
            for g, c in met
        ] or ["No goal card in your hand is met now"]
        return out + ["Finish your turn: your hand is refilled to four cards"]
    return _build_choices(state, seat)


def _build_choices(state: dict[str, Any], seat: int) -> list[str]:
    p = state["players"][seat]
    out = [f"Place {tile_words(x['t'])}" for x in p["pending"]]
    stored = list(p["storage"])
    if rules_revision(state) >= 4:  # a tile stored this Build Phase waits for a later one
        for t in state.get("stored_now") or []:
            if t in stored:
                stored.remove(t)
    out += [f"Place stored {tile_words(t)}" for t in stored]
    if out:
        out.append(
            "Dungeon side: next to your dungeon, a passage joining yours, one passage still open. "
            "Decoration side: an icon against a wall, no passage into it"
        )
    if p["pending"]:
        out.append(f"Store a new tile: storage holds two ({len(p['storage'])} used)")
    if p["tokens"]["architect"]:
        out.append(f"Arcane Architect ({p['tokens']['architect']}): move or turn a tile; two swap two tiles")
    if not p["pending"]:
        out.append("Finish the build: then score goals and finish your turn")
    return out


def what_now(game: DungeonDecorators, state: dict[str, Any], seat: int | None) -> str:
    ph = state["phase"]
    if ph == "over":
        return game.status(state)
    acting = sorted(game.to_act(state))
    if ph == "keep":
        head = PHASE["keep"]
        waiting = ", ".join(seat_ref(s) for s in acting)
        lines = [head, f"Still choosing: {waiting}."]
    else:
        actor = acting[0]
        lines = [
            f"Round {state['round']}, {state['hourglasses']} of 3 hourglasses out (the third ends the game).",
            PHASE[ph].format(who=seat_ref(actor)),
        ]
    if seat is not None and seat in acting:
        lines.append("Your choices:")
        lines += [f"- {c}" for c in _choices(game, state, seat)]
    text = "\n".join(lines)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"
