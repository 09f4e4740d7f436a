"""Monster Inn: the rules (setup, bidding, leaving, bonus, support, scoring).

State layout (plain JSON):

- ``deck``: card ids, top first; ``box``: cards returned to the box unseen;
  ``inn``: the row, left to right (the leftmost is the one being bid on).
- ``pool``: ``{"type": "gold"|"gem"|None, "n": int}``; ``supply``: ``{"gold", "gem"}``.
- ``players[s]``: ``gold``, ``gem``, ``monsters`` (``[{"card", "support"}]`` left to
  right, ``support`` is the treasure type lying on it or None) and ``humanoids``
  (face-down card ids left to right; humanoid ``i`` lies under monster ``i``).
- ``in_round``: seats still in this round; ``turn``: the seat bidding now;
  ``pending``: a follow-up decision of the seat that just left (``bonus`` or
  ``support``), which comes before anyone else acts.
- ``taken``: creatures taken per seat in this round (each seat takes exactly 1).
"""

from __future__ import annotations

from typing import Any

from legacy.r1.engine import core
from legacy.r1.engine.core import Event, IllegalAction, Result, Rng, State

from . import ai as ai_mod
from .cards import CARDS, HUMANOIDS, MONSTERS, Card

TYPES = ("gold", "gem")
NOTATION_HELP = (
    "Type gold or gem to remain, swap for a treasure exchange, leave, "
    "bonus gold / bonus gem, support <monster number> gold|gem, or nosupport."
)

_ALIASES = {
    "gold": "gold",
    "golds": "gold",
    "coin": "gold",
    "coins": "gold",
    "g": "gold",
    "gem": "gem",
    "gems": "gem",
    "e": "gem",
}


def other(t: str) -> str:
    return "gem" if t == "gold" else "gold"


def amount(n: int, t: str) -> str:
    """'1 gold', '3 gold', '1 gem', '2 gems'."""
    if t == "gem":
        return f"{n} gem" + ("" if n == 1 else "s")
    return f"{n} gold"


def pname(seat: int) -> str:
    return f"Player {seat + 1}"


def card_label(c: Card) -> str:
    """Public name of a face-up monster or a face-down humanoid."""
    if c.is_monster:
        return f"{c.kind} {c.value} ({c.skulls} skull{'s' if c.skulls > 1 else ''})"
    return f"a humanoid ({c.range})"


def _next_seat(state: State, seat: int, among: list[int]) -> int:
    n = state["seats"]
    for step in range(1, n + 1):
        s = (seat + step) % n
        if s in among:
            return s
    raise AssertionError("no seat to move to")


def sort_inn(cards: list[str]) -> list[str]:
    """Humanoids by back range descending (draw order kept within a range -
    'their order doesn't matter'), then monsters by combat value ascending."""
    hum = [c for c in cards if c in HUMANOIDS]
    mon = [c for c in cards if c in MONSTERS]
    hum.sort(key=lambda c: -int(HUMANOIDS[c].range.split("-")[0]))
    mon.sort(key=lambda c: MONSTERS[c].value)
    return hum + mon


class MonsterInn(core.Game):
    key = "monster-inn"
    title = "Monster Inn"
    min_players = 3
    max_players = 5
    options = {
        "open_treasure": core.Option(
            False, "Variant: open treasure - everyone's gold and gems are public (default: hidden)."
        )
    }
    blurb = (
        "Bid gold and gems to stay at the inn for the strongest monsters; the first to drop out "
        "takes the weakest creature - perhaps a humanoid that will ruin a monster later."
    )

    # ---- setup ---------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        n = state["seats"]
        setup = setup or {}
        rng = Rng(state)
        if "deck" in setup:
            deck = [str(c) for c in setup["deck"]]
            if len(set(deck)) != len(deck) or not set(deck) <= set(CARDS):
                raise IllegalAction("The stacked deck must list distinct card ids.")
        else:
            deck = sorted(CARDS)
            rng.shuffle(deck)
        start = setup["start"] if "start" in setup else rng.randint(0, n - 1)
        treasure = setup.get("treasure") or [[3, 3]] * n
        players = [{"gold": g, "gem": e, "monsters": [], "humanoids": []} for g, e in treasure]
        state.update(
            deck=deck,
            box=[c for c in sorted(CARDS) if c not in deck],
            inn=[],
            pool={"type": None, "n": 0},
            supply={
                "gold": 25 - sum(p["gold"] for p in players),
                "gem": 25 - sum(p["gem"] for p in players),
            },
            players=players,
            in_round=[],
            turn=start,
            start=start,
            round=0,
            moves=0,
            pending=None,
            taken=[0] * n,
            over=False,
        )
        if min(state["supply"].values()) < 0:
            raise IllegalAction("The stacked treasure exceeds the 25 gold and 25 gems.")
        self._new_round(state, start)

    def _new_round(self, state: State, start: int) -> None:
        n = state["seats"]
        drawn, state["deck"] = state["deck"][:n], state["deck"][n:]
        state["inn"] = sort_inn(drawn)
        state["round"] += 1
        state["start"] = start
        state["turn"] = start
        state["in_round"] = list(range(n))
        state["taken"] = [0] * n
        state["pool"] = {"type": None, "n": 0}

    # ---- turn structure ------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        if state["over"]:
            return set()
        if state["pending"] is not None:
            return {state["pending"]["seat"]}
        return {state["turn"]}

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        p = state["players"][seat]
        pend = state["pending"]
        if pend is not None:
            if pend["kind"] == "bonus":
                return [f"bonus {t}" for t in TYPES if state["supply"][t] > 0]
            out = []
            for i in self._support_targets(state, seat, pend["monster_kind"]):
                out += [f"support {i + 1} {t}" for t in TYPES if p[t] > 0]
            return [*out, "nosupport"]
        out = []
        pool = state["pool"]
        if pool["type"] is None:
            out += [t for t in TYPES if p[t] > 0]
        else:
            if p[pool["type"]] > 0:
                out.append(pool["type"])
            if p[other(pool["type"])] >= pool["n"] + 2:
                out.append("swap")
        return [*out, "leave"]

    def _support_targets(self, state: State, seat: int, kind: str) -> list[int]:
        """Indices of the seat's unsupported monsters of ``kind`` (support on an
        already supported monster would protect nothing more)."""
        mons = state["players"][seat]["monsters"]
        return [i for i, m in enumerate(mons) if MONSTERS[m["card"]].kind == kind and m["support"] is None]

    # ---- moves -----------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, str):
            raise IllegalAction(NOTATION_HELP)
        action = self.parse(action)
        events: list[Event] = []
        pend = state["pending"]
        if pend is not None:
            if pend["kind"] == "bonus":
                self._bonus(state, seat, action, events)
            else:
                self._support(state, seat, action, events)
        elif action in TYPES:
            self._remain(state, seat, action, events)
        elif action == "swap":
            self._swap(state, seat, events)
        elif action == "leave":
            self._leave(state, seat, events)
        elif action.startswith("bonus"):
            raise IllegalAction("You only choose a bonus right after taking a humanoid.")
        else:
            raise IllegalAction(
                "You only choose support right after placing a monster of a kind you already have."
            )
        state["moves"] += 1
        self._advance(state, events)
        return events

    def _remain(self, state: State, seat: int, t: str, events: list[Event]) -> None:
        p, pool = state["players"][seat], state["pool"]
        if pool["type"] is not None and pool["type"] != t:
            raise IllegalAction(
                f"The pool holds {pool['type']}, so you must add {pool['type']}, swap, or leave."
            )
        if p[t] < 1:
            raise IllegalAction(f"You have no {t} left.")
        p[t] -= 1
        pool["type"] = t
        pool["n"] += 1
        events.append(Event(f"{pname(seat)} remains and adds 1 {t}; the pool holds {amount(pool['n'], t)}."))
        self._private_purse(state, seat, events)
        state["turn"] = _next_seat(state, seat, state["in_round"])

    def _swap(self, state: State, seat: int, events: list[Event]) -> None:
        p, pool = state["players"][seat], state["pool"]
        if pool["type"] is None:
            raise IllegalAction(
                "The pool is empty, so there is nothing to exchange; add gold or gem instead."
            )
        old, n = pool["type"], pool["n"]
        new = other(old)
        if p[new] < n + 2:
            raise IllegalAction(f"This exchange costs {amount(n + 2, new)} and you have fewer.")
        # House decision: the exchanged treasure goes to the actor's personal supply.
        p[old] += n
        p[new] -= n + 2
        pool["type"], pool["n"] = new, n + 2
        events.append(
            Event(
                f"{pname(seat)} remains with a treasure exchange: takes {amount(n, old)} "
                f"and places {amount(n + 2, new)} in the pool."
            )
        )
        self._private_purse(state, seat, events)
        state["turn"] = _next_seat(state, seat, state["in_round"])

    def _leave(self, state: State, seat: int, events: list[Event], forced: bool = False) -> None:
        p, pool = state["players"][seat], state["pool"]
        got = pool["n"]
        if got:
            p[pool["type"]] += got
            loot = f" and {amount(got, pool['type'])} from the pool"
        else:
            loot = " (the pool is empty)"
        state["pool"] = {"type": None, "n": 0}
        cid = state["inn"].pop(0)
        card = CARDS[cid]
        state["in_round"].remove(seat)
        state["taken"][seat] += 1
        how = "must leave and takes the last creature," if forced else "leaves and takes"
        events.append(Event(f"{pname(seat)} {how} {card_label(card)}{loot}."))
        if state["in_round"]:
            state["turn"] = _next_seat(state, seat, state["in_round"])
        state["last_leaver"] = seat
        if card.is_monster:
            assert card.kind is not None
            had_kind = any(MONSTERS[m["card"]].kind == card.kind for m in p["monsters"])
            p["monsters"].append({"card": cid, "support": None})
            if had_kind and self._support_targets(state, seat, card.kind):
                state["pending"] = {"seat": seat, "kind": "support", "monster_kind": card.kind}
        else:
            p["humanoids"].append(cid)
            self._humanoid_bonus(state, seat, events)
        self._private_purse(state, seat, events)

    def _humanoid_bonus(self, state: State, seat: int, events: list[Event]) -> None:
        sup = state["supply"]
        avail = [t for t in TYPES if sup[t] > 0]
        if len(avail) == 2:
            state["pending"] = {"seat": seat, "kind": "bonus"}
        elif len(avail) == 1:
            # House decision: with one type used up, the bonus is the other type, without asking.
            t = avail[0]
            sup[t] -= 1
            state["players"][seat][t] += 1
            events.append(Event(f"{pname(seat)} takes 1 {t} as the humanoid bonus (no {other(t)} is left)."))
        else:
            events.append(Event(f"The supply is empty, so {pname(seat)} gets no humanoid bonus."))

    def _bonus(self, state: State, seat: int, action: str, events: list[Event]) -> None:
        if not action.startswith("bonus "):
            raise IllegalAction("First choose your humanoid bonus: bonus gold or bonus gem.")
        t = action.split()[1]
        if state["supply"][t] < 1:
            raise IllegalAction(f"The supply has no {t} left; take bonus {other(t)}.")
        state["supply"][t] -= 1
        state["players"][seat][t] += 1
        state["pending"] = None
        events.append(Event(f"{pname(seat)} takes 1 {t} from the supply as the humanoid bonus."))
        self._private_purse(state, seat, events)

    def _support(self, state: State, seat: int, action: str, events: list[Event]) -> None:
        kind = state["pending"]["monster_kind"]
        if action == "nosupport":
            state["pending"] = None
            events.append(Event(f"{pname(seat)} requests no support."))
            return
        if not action.startswith("support "):
            raise IllegalAction(
                f"First decide on support for your {kind}: support <monster number> gold|gem, or nosupport."
            )
        _, num, t = action.split()
        i = int(num) - 1
        p = state["players"][seat]
        if not 0 <= i < len(p["monsters"]) or MONSTERS[p["monsters"][i]["card"]].kind != kind:
            raise IllegalAction(f"Monster {num} in your dungeon is not one of your {kind}.")
        if p["monsters"][i]["support"] is not None:
            raise IllegalAction(f"Monster {num} already has support.")
        if p[t] < 1:
            raise IllegalAction(f"You have no {t} left.")
        p[t] -= 1
        p["monsters"][i]["support"] = t
        state["pending"] = None
        c = MONSTERS[p["monsters"][i]["card"]]
        events.append(Event(f"{pname(seat)} supports monster {num} ({c.kind} {c.value}) with 1 {t}."))
        self._private_purse(state, seat, events)

    def _private_purse(self, state: State, seat: int, events: list[Event]) -> None:
        p = state["players"][seat]
        events.append(Event(f"You now hold {amount(p['gold'], 'gold')} and {amount(p['gem'], 'gem')}.", seat))

    def _advance(self, state: State, events: list[Event]) -> None:
        """After a move: force the last player out, start the next round, or end."""
        while state["pending"] is None and not state["over"]:
            if len(state["in_round"]) == 1:
                self._leave(state, state["in_round"][0], events, forced=True)
                continue
            if state["in_round"]:
                return
            n = state["seats"]
            if len(state["deck"]) < n:
                # 4-5 players: the deck is empty now. 3 players: 1 card is left; it goes to the box.
                state["box"] += state["deck"]
                state["deck"] = []
                state["over"] = True
                events.append(Event("The deck is exhausted: the game is over. Dungeons are scored."))
                res = self.result(state)
                for s in range(n):
                    b = res.breakdown[s]
                    events.append(
                        Event(
                            f"{pname(s)}: {res.scores[s]} fame (monsters {b['monsters']}, "
                            f"beaten {b['beaten']}, treasure {b['treasure']}; {res.tiebreak[s] if res.tiebreak else 0} treasures)."
                        )
                    )
                return
            start = (state["last_leaver"] + 1) % n
            self._new_round(state, start)
            events.append(Event(f"Round {state['round']} begins; {pname(start)} starts."))

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        # A new round shows new cards and the end reveals humanoids: neither may be taken back.
        return (
            super().can_undo(before, after, seat, action)
            and before["round"] == after["round"]
            and not after["over"]
        )

    # ---- notation --------------------------------------------------------------------
    def parse(self, text: str) -> str:
        words = str(text).strip().lower().replace(",", " ").split()
        if not words:
            raise IllegalAction(NOTATION_HELP)
        if words[0] == "remain" and len(words) == 2:
            words = words[1:]
        if words[0] == "no" and words[1:] == ["support"]:
            return "nosupport"
        if len(words) == 1:
            w = words[0]
            if w in _ALIASES:
                return _ALIASES[w]
            if w in ("swap", "exchange"):
                return "swap"
            if w in ("leave", "nosupport"):
                return w
        if words[0] == "bonus" and len(words) == 2 and words[1] in _ALIASES:
            return f"bonus {_ALIASES[words[1]]}"
        if words[0] == "support" and len(words) == 3:
            num, t = words[1], words[2]
            if num.isdigit() and int(num) >= 1 and t in _ALIASES:
                return f"support {int(num)} {_ALIASES[t]}"
        raise IllegalAction(NOTATION_HELP)

    def format(self, action: Any) -> str:
        return str(action)

    def pass_action(self, state: State, seat: int) -> str | None:
        """A skipped turn: leave when bidding (the rules' only move that needs nothing),
        decline support, take whichever bonus the supply still has (gold first)."""
        acts = self.legal_actions(state, seat)
        if not acts:
            return None
        pend = state["pending"]
        if pend is None:
            return "leave"
        return "nosupport" if pend["kind"] == "support" else acts[0]

    def describe(self, state: State, action: Any) -> str:
        a = self.parse(action)
        pool = state["pool"]
        if a in TYPES:
            return f"Remain: add 1 {a}"
        if a == "swap":
            return f"Exchange: take {amount(pool['n'], pool['type'])}, pay {amount(pool['n'] + 2, other(pool['type']))}"
        if a == "leave":
            if not state["inn"]:
                return "Leave"
            got = f" + {amount(pool['n'], pool['type'])}" if pool["n"] else ""
            c = CARDS[state["inn"][0]]
            what = f"{c.kind} {c.value}" if c.is_monster else f"humanoid {c.range}"
            return f"Leave: take {what}{got}"
        if a.startswith("bonus"):
            return f"Bonus: take 1 {a.split()[1]}"
        if a == "nosupport":
            return "No support"
        _, num, t = a.split()
        seat = state["pending"]["seat"] if state.get("pending") else None
        mons = state["players"][seat]["monsters"] if seat is not None else []
        i = int(num) - 1
        name = (
            f" ({MONSTERS[mons[i]['card']].kind} {MONSTERS[mons[i]['card']].value})" if i < len(mons) else ""
        )
        return f"Support monster {num}{name} with 1 {t}"

    # ---- views -------------------------------------------------------------------------
    def _card_view(self, cid: str, reveal: bool) -> dict[str, Any]:
        c = CARDS[cid]
        if c.is_monster:
            return {
                "type": "monster",
                "kind": c.kind,
                "letter": c.letter,
                "value": c.value,
                "skulls": c.skulls,
            }
        if reveal:
            return {"type": "humanoid", "range": c.range, "value": c.value, "skulls": c.skulls}
        return {"type": "humanoid", "range": c.range}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["over"]
        open_t = bool(state["options"].get("open_treasure"))
        scoring = self._score_columns(state) if over else None
        players = []
        for s, p in enumerate(state["players"]):
            see = open_t or over or seat == s
            revealed = [False] * len(p["humanoids"])
            if scoring is not None:
                for col in scoring[s]["columns"]:
                    if col["revealed"]:
                        revealed[col["index"]] = True
            players.append(
                {
                    "seat": s,
                    "gold": p["gold"] if see else None,
                    "gem": p["gem"] if see else None,
                    "monsters": [
                        {**self._card_view(m["card"], True), "support": m["support"]} for m in p["monsters"]
                    ],
                    "humanoids": [self._card_view(h, revealed[i]) for i, h in enumerate(p["humanoids"])],
                    "in_round": s in state["in_round"],
                }
            )
        v: dict[str, Any] = {
            "game": self.key,
            "title": self.title,
            "seats": state["seats"],
            "me": seat,
            "open_treasure": open_t,
            "round": state["round"],
            "deck": len(state["deck"]),
            "inn": [self._card_view(c, False) for c in state["inn"]],
            "pool": dict(state["pool"]),
            "supply": dict(state["supply"]),
            "turn": None if over else state["turn"],
            "start": state["start"],
            "pending": None
            if state["pending"] is None
            else {"seat": state["pending"]["seat"], "kind": state["pending"]["kind"]},
            "to_act": sorted(self.to_act(state)),
            "players": players,
            "over": over,
            "status": self.status(state),
        }
        if over:
            res = self.result(state)
            assert scoring is not None
            v["scoring"] = [
                {
                    "fame": res.scores[s],
                    "breakdown": res.breakdown[s],
                    "columns": [
                        {k: c[k] for k in ("index", "outcome", "fame", "revealed")}
                        for c in scoring[s]["columns"]
                    ],
                }
                for s in range(state["seats"])
            ]
            v["ranking"] = res.ranking
        return v

    def status(self, state: State) -> str:
        if state["over"]:
            res = self.result(state)
            return "Game over. Winner: " + " and ".join(pname(s) for s in res.winners) + "."
        pend = state["pending"]
        if pend is not None:
            if pend["kind"] == "bonus":
                return f"{pname(pend['seat'])} chooses the humanoid bonus: gold or gem."
            return f"{pname(pend['seat'])} decides on support for their {pend['monster_kind']}."
        pool = state["pool"]
        c = CARDS[state["inn"][0]]
        what = f"{c.kind} {c.value}" if c.is_monster else f"a humanoid ({c.range})"
        if pool["n"]:
            return (
                f"Round {state['round']}: {pname(state['turn'])} adds {pool['type']}, swaps or leaves "
                f"with {what} and {amount(pool['n'], pool['type'])}."
            )
        return f"Round {state['round']}: {pname(state['turn'])} adds gold or gem, or leaves with {what}."

    def private_text(self, state: State, seat: int) -> str:
        p = state["players"][seat]
        sup = sum(1 for m in p["monsters"] if m["support"])
        return (
            f"You hold {amount(p['gold'], 'gold')} and {amount(p['gem'], 'gem')} "
            f"({p['gold'] + p['gem']} treasures, {(p['gold'] + p['gem']) // 3} fame)"
            + (f"; {sup} more lie on your monsters as support." if sup else ".")
            + " Your humanoids stay face down until the end, even to you."
        )

    # ---- end ---------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def _score_columns(self, state: State) -> list[dict[str, Any]]:
        out = []
        for p in state["players"]:
            cols = []
            mons, hums = p["monsters"], p["humanoids"]
            for i in range(max(len(mons), len(hums))):
                m = mons[i] if i < len(mons) else None
                h = HUMANOIDS[hums[i]] if i < len(hums) else None
                mc = MONSTERS[m["card"]] if m else None
                if mc is None:
                    outcome, fame, revealed = "no monster", 0, False  # humanoid removed unseen
                elif h is None:
                    outcome, fame, revealed = "alone", mc.skulls, False
                elif m and m["support"]:
                    outcome, fame, revealed = "supported", mc.skulls, False
                elif h.value < mc.value:
                    outcome, fame, revealed = "wins", mc.skulls, True
                else:
                    # A tie keeps the humanoid (only weaker ones are removed).
                    # House decision: "0 or even minus" fame = min(0, monster skulls - humanoid skulls).
                    outcome, fame, revealed = "beaten", min(0, mc.skulls - h.skulls), True
                cols.append({"index": i, "outcome": outcome, "fame": fame, "revealed": revealed})
            out.append({"columns": cols})
        return out

    def result(self, state: State) -> Result:
        cols = self._score_columns(state)
        scores, breakdown, treasures = [], [], []
        for s, p in enumerate(state["players"]):
            mon = sum(c["fame"] for c in cols[s]["columns"] if c["fame"] > 0)
            beaten = sum(c["fame"] for c in cols[s]["columns"] if c["fame"] <= 0 and c["outcome"] == "beaten")
            t = p["gold"] + p["gem"]  # support treasure lies on monsters and is not counted
            scores.append(mon + beaten + t // 3)
            treasures.append(t)
            breakdown.append({"monsters": mon, "beaten": beaten, "treasure": t // 3})
        return Result(scores, core.rank(scores, treasures), breakdown, treasures)

    # ---- AI --------------------------------------------------------------------------------
    def ai_action(self, state: State, seat: int) -> str:
        return ai_mod.choose(self.view(state, seat), self.legal_actions(state, seat))
