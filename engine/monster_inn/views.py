"""What each seat may see: the view (boards, the AI), the status line and the
private text. A face-down humanoid shows what its back shows - its combat value
range and its skulls - to everyone, its owner included; its value only once the
scoring reveals it."""

from __future__ import annotations

from typing import Any

from engine.core import Result, State, seat_ref

from . import last_turn
from .data import CARDS, MONSTERS, back_of
from .rules import amount, other, score_columns, short_label, skulls_word


def card_view(cid: str, reveal: bool) -> dict[str, Any]:
    c = CARDS[cid]
    if c.is_monster:
        return {"type": "monster", "kind": c.kind, "letter": c.letter, "value": c.value, "skulls": c.skulls}
    if reveal:
        return {"type": "humanoid", "range": c.range, "skulls": c.skulls, "value": c.value}
    return {"type": "humanoid", "range": c.range, "skulls": c.skulls}


def _player(state: State, s: int, seat: int | None, revealed: list[bool]) -> dict[str, Any]:
    p = state["players"][s]
    see = bool(state["options"].get("open_treasure")) or state["over"] or seat == s
    return {
        "seat": s,
        "gold": p["gold"] if see else None,
        "gem": p["gem"] if see else None,
        "monsters": [{**card_view(m["card"], True), "support": m["support"]} for m in p["monsters"]],
        "humanoids": [card_view(h, revealed[i]) for i, h in enumerate(p["humanoids"])],
        "in_round": s in state["in_round"],
    }


def deck_top(state: State) -> dict[str, Any] | None:
    """The back of the deck's top card, seen by everyone at the table (revision 3): the
    deck lies "facedown ... in the center of the play area". None when the deck is empty
    or the game is over (a 3-player game's last card has gone back to the box)."""
    if state["over"] or not state["deck"]:
        return None
    return back_of(state["deck"][0])


def back_words(back: dict[str, Any]) -> str:
    """'a monster' or 'a humanoid 16-20 with 4 skulls'."""
    if back["type"] == "monster":
        return "a monster"
    return f"a humanoid {back['range']} with {skulls_word(back['skulls'])}"


def view(
    state: State, seat: int | None, to_act: list[int], result: Result | None, show_top: bool = True
) -> dict[str, Any]:
    over = state["over"]
    cols = score_columns(state) if over else None
    players = []
    for s, p in enumerate(state["players"]):
        revealed = [False] * len(p["humanoids"])
        for col in cols[s] if cols else []:
            if col["revealed"]:
                revealed[col["index"]] = True
        players.append(_player(state, s, seat, revealed))
    pend = state["pending"]
    v: dict[str, Any] = {
        "game": "monster-inn",
        "title": "Monster Inn",
        "seats": state["seats"],
        "viewer": seat,
        "open_treasure": bool(state["options"].get("open_treasure")),
        "round": state["round"],
        "rounds": rounds(state["seats"]),
        "deck": len(state["deck"]),
        "deck_top": deck_top(state) if show_top else None,
        "inn": [card_view(c, False) for c in state["inn"]],
        "pool": dict(state["pool"]),
        "supply": dict(state["supply"]),
        "turn": None if over else state["turn"],
        "start": state["start"],
        "pending": None if pend is None else {"seat": pend["seat"], "kind": pend["kind"]},
        "to_act": to_act,
        "players": players,
        "over": over,
        "status": status(state, result),
        "last": last_turn.public(state),
    }
    if over and result is not None and cols is not None:
        v["scoring"] = [
            {"fame": result.scores[s], "breakdown": result.breakdown[s], "columns": cols[s]}
            for s in range(state["seats"])
        ]
        v["ranking"] = result.ranking
    return v


def rounds(seats: int) -> int:
    """Rounds in a game: 40 cards, one a player a round; with 3 players the
    round that leaves 1 card is the last (13)."""
    return 40 // seats


def status(state: State, result: Result | None) -> str:
    if state["over"]:
        assert result is not None
        return "Game over. Winner: " + " and ".join(seat_ref(s) for s in result.winners) + "."
    pend = state["pending"]
    if pend is not None:
        if pend["kind"] == "bonus":
            return f"{seat_ref(pend['seat'])} chooses the humanoid bonus: gold or gem."
        return f"{seat_ref(pend['seat'])} decides on support for their {pend['monster_kind']}."
    pool = state["pool"]
    c = CARDS[state["inn"][0]]
    what = short_label(c) if c.is_monster else f"a {short_label(c)}"
    who = f"Round {state['round']}: {seat_ref(state['turn'])}"
    if pool["n"]:
        return (
            f"{who} adds {pool['type']}, swaps or leaves with {what} and {amount(pool['n'], pool['type'])}."
        )
    return f"{who} adds gold or gem, or leaves with {what}."


def private_text(state: State, seat: int) -> str:
    p = state["players"][seat]
    sup = sum(1 for m in p["monsters"] if m["support"])
    return (
        f"You hold {amount(p['gold'], 'gold')} and {amount(p['gem'], 'gem')} "
        f"({p['gold'] + p['gem']} treasures, {(p['gold'] + p['gem']) // 3} fame)"
        + (f"; {sup} more lie on your monsters as support." if sup else ".")
        + " Your humanoids stay face down until the end, even to you: you see their range and skulls."
    )


def header(state: State, seat: int, show_top: bool) -> str:
    """The top of the seat's private turn message: purse, dungeon, the pool, the deck."""
    p = state["players"][seat]
    lines = [f"Your treasure: {amount(p['gold'], 'gold')}, {amount(p['gem'], 'gem')} (secret)."]
    mons = [
        f"{MONSTERS[m['card']].letter}{MONSTERS[m['card']].value}"
        + (f" (+{m['support']})" if m["support"] else "")
        for m in p["monsters"]
    ]
    hums = [f"{CARDS[h].range}/{CARDS[h].skulls}" for h in p["humanoids"]]
    lines.append("Your monsters: " + (", ".join(mons) or "none") + ".")
    lines.append("Your humanoids (range/skulls): " + (", ".join(hums) or "none") + ".")
    pool = state["pool"]
    if not state["over"]:
        pool_words = amount(pool["n"], pool["type"]) if pool["n"] else "empty"
        lines.append(f"Pool: {pool_words}. Round {state['round']}.")
        top = deck_top(state) if show_top else None
        # The deck's line stands apart from what leaving takes (the Leave button names that):
        # its top card comes into the inn next round, it is not taken by leaving (issue 40).
        deck = f"Deck: {len(state['deck'])} cards"
        lines.append(deck + (f"; next round's first card shows {back_words(top)}." if top else "."))
    out = "\n".join(lines)
    return out if len(out) <= 400 else out[:397] + "..."


def _phase(state: State) -> str:
    """The round in two sentences: what is in the inn, what leaving takes now."""
    inn = [CARDS[c] for c in state["inn"]]
    pool = state["pool"]
    first = inn[0] if inn else None
    lead = f"Round {state['round']} of {rounds(state['seats'])}. "
    if first is None:
        return lead + "The inn is empty until the next round is dealt."
    what = short_label(first) if first.is_monster else f"a {short_label(first)}"
    pool_words = f"and the pool, {amount(pool['n'], pool['type'])}" if pool["n"] else "(the pool is empty)"
    return (
        lead
        + f"The inn holds {len(inn)} creature{'s' if len(inn) != 1 else ''}; whoever leaves next takes the "
        f"leftmost, {what}, {pool_words}. Staying longer means a stronger creature later, "
        "but every stay costs 1 treasure."
    )


def _choices(state: State, seat: int) -> list[str]:
    """What the seat to act may do now, each with its cost and gain."""
    p, pool = state["players"][seat], state["pool"]
    purse = f"you hold {amount(p['gold'], 'gold')} and {amount(p['gem'], 'gem')}"
    pend = state["pending"]
    if pend is not None and pend["kind"] == "bonus":
        return [f"Take 1 gold or 1 gem from the supply as the humanoid bonus ({purse})."]
    if pend is not None:
        kind = pend["monster_kind"]
        return [
            f"Support one of your {kind}: lay 1 gold or 1 gem on it ({purse}). At the end the humanoid under "
            "a supported monster is removed unseen, so it cannot cost you fame; the treasure on it no longer "
            "counts for fame.",
            "Or no support: keep your treasure.",
        ]
    first = CARDS[state["inn"][0]]
    what = short_label(first) if first.is_monster else f"a {short_label(first)}"
    gain = (
        "its skulls in fame" if first.is_monster else "1 treasure from the supply now, but it may cost fame"
    )
    out = []
    if pool["type"] is None:
        out.append(f"Remain: add 1 gold or 1 gem to the pool ({purse}); you stay in the round.")
    else:
        t, n = pool["type"], pool["n"]
        out.append(f"Remain: add 1 {t} to the pool ({purse}).")
        out.append(
            f"Remain with an exchange: take the pool's {amount(n, t)} and pay {amount(n + 2, other(t))} into it."
        )
    out.append(f"Leave: take {what} ({gain}) and the pool; you are out until the next round.")
    return out


def what_now(state: State, seat: int | None, to_act: list[int]) -> str:
    """The "What now?" answer: the round, what ``seat`` may do, costs and gains."""
    if state["over"]:
        return "The game is over: the final scores are on the last board."
    lines = [_phase(state)]
    if seat is not None and seat in to_act:
        lines.append("Your choices:")
        lines += [f"- {c}" for c in _choices(state, seat)]
    elif to_act:
        lines.append(f"It is {seat_ref(to_act[0])}'s turn.")
        if seat is not None and seat not in state["in_round"]:
            lines.append("You have left this round; you play again when the next round is dealt.")
        elif seat is not None:
            lines.append("You are still in this round: wait for your turn.")
    return "\n".join(lines)


def option_notes(state: State, seat: int, tokens: list[str]) -> dict[str, str]:
    """A line under each chooser option (<= 100 characters): what it costs and gives."""
    p, pool, sup = state["players"][seat], state["pool"], state["supply"]
    out: dict[str, str] = {}
    for tok in tokens:
        kind, *rest = tok.split("-")
        if kind in ("gold", "gem"):
            out[tok] = f"Costs 1 {kind} (you have {p[kind]}); you stay in for a stronger creature."
        elif kind == "swap" and pool["type"] is not None:
            t, n = pool["type"], pool["n"]
            out[tok] = (
                f"You get {amount(n, t)} back and pay {amount(n + 2, other(t))} (you have {p[other(t)]})."
            )
        elif kind == "leave" and state["inn"]:
            first = CARDS[state["inn"][0]]
            loot = f"Plus the pool's {amount(pool['n'], pool['type'])}" if pool["n"] else "The pool is empty"
            extra = "" if first.is_monster else "; 1 treasure bonus, it may cost fame"
            out[tok] = f"{loot}{extra}; out until the next round."
        elif kind == "bonus" and rest:
            out[tok] = f"From the supply ({sup[rest[0]]} left there)."
        elif kind == "support" and len(rest) == 2:
            mons = p["monsters"]
            i = int(rest[0]) - 1 if rest[0].isdigit() else -1
            what = short_label(CARDS[mons[i]["card"]]) if 0 <= i < len(mons) else "This monster"
            out[tok] = (
                f"{what}: its humanoid is removed unseen at the end; the {rest[1]} no longer counts for fame."
            )
        elif kind == "nosupport":
            out[tok] = "Keep your treasure; a stronger humanoid under it would cost fame at the end."
    return out
