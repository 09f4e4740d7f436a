"""Phase C: the hero walks, traps fire, monsters fight on dice, cards are played."""

from __future__ import annotations

from typing import Any

from engine.core import Event, IllegalAction, Rng, State, rules_revision, seat_ref

from . import board
from .data import ACTIONS, BASE_DICE, CARDS, DIE, HEARTS, MAX_DICE, SHEET, TARGET, card_text
from .rules import MONSTERS, active_kind, fight_strength, levels, score_player
from .views import plural, status


def draw_hand(p: dict) -> None:
    want = levels(p["sheet"])["hand"]
    while len(p["hand"]) < want and p["deck"]:
        p["hand"].append(p["deck"].pop(0))


def hand_event(p: dict, seat: int, head: str, cards: list[int]) -> Event:
    """The private line that tells a player which cards they hold, each with what it does."""
    return Event(f"{head}: {'; '.join(card_text(c) for c in cards) or 'no cards'}.", seat)


def begin(state: State, events: list[Event]) -> None:
    state["phase"] = "defend"
    events.append(Event("Every path is drawn. Phase C: defend your dungeon!"))
    for s, p in enumerate(state["players"]):
        p["deck"] = list(p["taken"])
        Rng(state).shuffle(p["deck"])
        draw_hand(p)
        events.append(hand_event(p, s, "Your hand", p["hand"]))
    state["turn"] = state["start"]
    begin_turn(state, events)


def roll(state: State, n: int) -> list[int]:
    """``n`` dice of the game (faces 1..DIE); dice stacked by a test setup come first."""
    got = state["stack"][:n]
    state["stack"] = state["stack"][n:]
    return got + (Rng(state).dice(n - len(got), DIE) if len(got) < n else [])


def discard_on(state: State, p: dict, kind: str | None = None) -> list[int]:
    gone = [h["card"] for h in p["on"] if kind is None or CARDS[h["card"]].action == kind]
    p["on"] = [h for h in p["on"] if h["card"] not in gone]
    state["discard"].extend(gone)
    return gone


def hero_done(state: State, seat: int, events: list[Event]) -> None:
    p = state["players"][seat]
    if discard_on(state, p):
        events.append(Event(f"Unresolved hero actions in {seat_ref(seat)}'s dungeon are discarded."))
    if all(q["hero"]["state"] != "in" for q in state["players"]):
        state["phase"] = "over"
        state["encounter"] = None
        state["step"] = None
        scores = [sum(score_player(q).values()) for q in state["players"]]
        told = ", ".join(f"{seat_ref(s)} {v}" for s, v in enumerate(scores))
        events.append(Event(f"Every hero is dead or has escaped. Final scores: {told}."))


def begin_turn(state: State, events: list[Event]) -> None:
    seat = state["turn"]
    p = state["players"][seat]
    state["encounter"] = None
    state["step"] = "actions"
    hero = p["hero"]
    if hero["state"] == "in":
        for cid in discard_on(state, p, "potion"):
            gain = min(ACTIONS["potion"]["amount"], HEARTS - hero["hearts"])
            hero["hearts"] += gain
            events.append(
                Event(
                    f"Healing Potion (#{cid}): the hero in {seat_ref(seat)}'s dungeon regains {gain} hearts."
                )
            )
        if p["started"]:
            move(state, seat, events)
    if state["phase"] == "defend":
        events.append(Event(status(state)))


def _encounter(state: State, seat: int, cell: str, kind: str, events: list[Event]) -> None:
    enc: dict[str, Any] = {"cell": cell, "kind": kind, "dice": [], "bonus": 0, "played": []}
    state["encounter"] = enc
    state["step"] = "encounter"
    where = f"The hero in {seat_ref(seat)}'s dungeon"
    if kind == "trap":
        events.append(Event(f"{where} stops on the trap on {cell}."))
        return
    enc["dice"] = roll(state, BASE_DICE)
    events.append(
        Event(
            f"{where} fights the {kind} on {cell}: dice {' and '.join(map(str, enc['dice']))}, "
            f"strength {fight_strength(state, seat)} (needs {TARGET})."
        )
    )


def move(state: State, seat: int, events: list[Event]) -> None:
    p = state["players"][seat]
    sheet, path, hero = p["sheet"], p["path"], p["hero"]
    while True:
        hero["pos"] += 1
        if hero["pos"] >= len(path):
            hero["state"] = "escaped"
            events.append(
                Event(f"The hero escapes from {seat_ref(seat)}'s dungeon with {hero['hearts']} hearts left.")
            )
            hero_done(state, seat, events)
            return
        cell = path[hero["pos"]]
        kind = active_kind(sheet, cell)
        if kind is not None:
            _encounter(state, seat, cell, kind, events)
            return
        bombs(state, seat, cell, events)


def bombs(state: State, seat: int, cell: str, events: list[Event]) -> None:
    p = state["players"][seat]
    sheet = p["sheet"]
    for h in list(p["on"]):
        if CARDS[h["card"]].action != "bomb":
            continue
        targets = [n for n in board.NEIGHBOURS[cell] if active_kind(sheet, n) in MONSTERS]
        if not targets:
            return
        # House decision: the bomb hits the strongest neighbour (most points), then reading order.
        target = max(targets, key=lambda c: (SHEET["monsters"][sheet["grid"][c]]["points"], -board.INDEX[c]))
        sheet["crossed"].append(target)
        p["on"].remove(h)
        state["discard"].append(h["card"])
        events.append(
            Event(
                f"Bomb (#{h['card']}): passing {cell}, the hero blows up the {sheet['grid'][target]} on {target}."
            )
        )


# ---- dungeon actions ---------------------------------------------------------------------


def dungeon_problem(state: State, seat: int, cid: Any) -> str | None:
    p = state["players"][seat]
    if type(cid) is not int or cid not in p["hand"]:  # True == 1 and 12.0 == 12: refused
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
        return f"{a['name']} works only for {'an' if a['monster'] == 'orc' else 'a'} {a['monster']}."
    if a["effect"] == "dice" and len(enc["dice"]) + a["add"] > MAX_DICE:
        return f"{a['name']} would put more than {MAX_DICE} dice in the fight (dice limit)."
    return None


def play(state: State, seat: int, action: dict, events: list[Event]) -> None:
    cid = action.get("card")
    problem = dungeon_problem(state, seat, cid)
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
        new = roll(state, a["add"])
        enc["dice"] = sorted(enc["dice"] + new, reverse=True)
        if a["drop"]:
            enc["dice"] = enc["dice"][: len(enc["dice"]) - a["drop"]]
        what = f"rolls {' and '.join(map(str, new))}, dice now {' and '.join(map(str, enc['dice']))}"
    else:
        enc["dice"] = roll(state, len(enc["dice"]))
        what = f"re-rolls: dice now {' and '.join(map(str, enc['dice']))}"
    tail = f", strength {fight_strength(state, seat)}" if enc["kind"] != "trap" else ""
    events.append(Event(f"{seat_ref(seat)} plays {a['name']} (#{cid}): {what}{tail}."))


def damage(state: State, seat: int, amount: int, events: list[Event]) -> None:
    p = state["players"][seat]
    hero = p["hero"]
    if amount > 0:
        for cid in discard_on(state, p, "shield"):
            taken = min(amount, ACTIONS["shield"]["amount"])
            amount -= taken
            events.append(
                Event(f"Shield (#{cid}) takes {plural(taken, 'point')} off the damage.")
                if rules_revision(state) >= 3  # a game stored earlier replays its news as said
                else Event(f"Shield (#{cid}) absorbs some of the damage.")
            )
    hero["hearts"] = max(0, hero["hearts"] - amount)
    events.append(
        Event(
            f"The hero in {seat_ref(seat)}'s dungeon suffers {amount} damage "
            f"({plural(hero['hearts'], 'heart')} left)."
        )
        if rules_revision(state) >= 3
        else Event(f"The hero suffers {amount} damage ({hero['hearts']} hearts left).")
    )
    if hero["hearts"] == 0:
        hero["state"] = "dead"
        events.append(Event(f"The hero dies in {seat_ref(seat)}'s dungeon!"))


def resolve(state: State, seat: int, events: list[Event]) -> None:
    p = state["players"][seat]
    enc = state["encounter"]
    sheet = p["sheet"]
    cell, kind = enc["cell"], enc["kind"]
    if kind == "trap":
        dmg = levels(sheet)["trap"] + enc["bonus"]
        for cid in discard_on(state, p, "rope"):
            dmg = 0
            events.append(Event(f"Rope (#{cid}): the hero escapes the trap on {cell} unharmed."))
        sheet["crossed"].append(cell)
        events.append(Event(f"The trap on {cell} fires and is crossed off."))
        damage(state, seat, dmg, events)
    else:
        strength = fight_strength(state, seat)
        swords = discard_on(state, p, "sword")
        if strength >= TARGET:
            events.append(Event(f"The {kind} on {cell} wins with strength {strength}."))
            damage(state, seat, SHEET["monsters"][kind]["damage"], events)
        else:
            sheet["crossed"].append(cell)
            events.append(Event(f"The {kind} on {cell} loses with strength {strength} and flees."))
        if swords:
            events.append(Event(f"Sword ({', '.join(f'#{c}' for c in swords)}) is used up."))
    state["encounter"] = None
    state["step"] = "actions"
    if p["hero"]["state"] != "in":
        hero_done(state, seat, events)


# ---- hero actions and the end of a turn -------------------------------------------------------


def hero_problem(state: State, seat: int, cid: Any, target: Any) -> str | None:
    p = state["players"][seat]
    if type(cid) is not int or cid not in p["hand"]:
        return f"Card {cid} is not in your hand."
    a = ACTIONS[CARDS[cid].action]
    if a["type"] != "hero":
        return f"{a['name']} is a dungeon action: play it during your own encounter."
    if type(target) is not int or not 0 <= target < state["seats"]:
        return "There is no such player."
    if target == seat:
        return "Hero actions support the hero in an opponent's dungeon, never your own."
    q = state["players"][target]
    if q["hero"]["state"] != "in":
        return f"The hero in {seat_ref(target)}'s dungeon is already dead or has escaped."
    if len(q["on"]) >= 2:
        return f"{seat_ref(target)}'s dungeon already has 2 hero actions on it."
    return None


def hero(state: State, seat: int, action: dict, events: list[Event]) -> None:
    cid, target = action.get("card"), action.get("to")
    problem = hero_problem(state, seat, cid, target)
    if problem:
        raise IllegalAction(problem)
    state["players"][seat]["hand"].remove(cid)
    state["players"][target]["on"].append({"card": cid, "by": seat})  # type: ignore[index]
    a = ACTIONS[CARDS[cid].action]  # type: ignore[index]
    events.append(
        Event(f"{seat_ref(seat)} places {a['name']} (#{cid}, {a['short']}) on {seat_ref(target)}'s dungeon.")  # type: ignore[arg-type]
    )


def refill(state: State, seat: int, action: dict, events: list[Event]) -> None:
    p = state["players"][seat]
    under = action.get("under")
    if not isinstance(under, list) or any(type(c) is not int for c in under):
        raise IllegalAction(
            "Name the cards to put under your action deck by their numbers, like: refill 12 7."
        )
    if len(set(under)) != len(under) or any(c not in p["hand"] for c in under):
        raise IllegalAction("You can put only cards from your hand under your action deck, each once.")
    for c in under:
        p["hand"].remove(c)
        p["deck"].append(c)
    before = list(p["hand"])
    draw_hand(p)
    drawn = [c for c in p["hand"] if c not in before]
    if rules_revision(state) < 3:  # a game stored earlier replays its news as said
        events.append(
            Event(f"{seat_ref(seat)} puts {len(under)} card(s) under the action deck and draws {len(drawn)}.")
        )
    else:
        events.append(
            Event(
                f"{seat_ref(seat)} puts {plural(len(under), 'card')} under the action deck and draws {len(drawn)}."
                if under
                else f"{seat_ref(seat)} refills the hand: draws {plural(len(drawn), 'card')}."
                if drawn
                else f"{seat_ref(seat)} ends the turn (no card to draw)."
            )
        )
    if drawn:
        events.append(hand_event(p, seat, "You draw", drawn))
    p["started"] = True
    state["turn"] = (seat + 1) % state["seats"]
    begin_turn(state, events)


def legal(state: State, seat: int) -> list[Any]:
    p = state["players"][seat]
    out: list[Any] = []
    if state["step"] == "encounter":
        out = [{"t": "play", "card": c} for c in p["hand"] if dungeon_problem(state, seat, c) is None]
        return out + [{"t": "resolve"}]
    for c in p["hand"]:
        for target in range(state["seats"]):
            if hero_problem(state, seat, c, target) is None:
                out.append({"t": "hero", "card": c, "to": target})
    out.append({"t": "refill", "under": []})
    if p["hand"]:
        out.append({"t": "refill", "under": list(p["hand"])})
    return out
