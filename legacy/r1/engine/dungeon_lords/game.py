"""Dungeon Lords (base game): the phases, the notation, the views.

Flow of a Year: ``seasons_per_year`` building rounds (New Round -> Orders ->
resolution -> Production and Orders Retrieval -> Event -> Adventurers -> End of
Round; round 1 has no Event or Adventurer phase), then Combat of
``combat_rounds`` rounds. Two Years, then Scoring. Actions are their canonical
notation strings (see docs/rules/dungeon-lords.md)."""

from __future__ import annotations

from typing import Any

from legacy.r1.engine import core
from legacy.r1.engine.core import Event, IllegalAction, Result, Rng, State

from . import board, expansion, festival
from .board import hand
from .combat import Battle, paladin_here
from .data import (
    ADVENTURERS,
    CARDS,
    COMBAT,
    EVENTS,
    IMPROVED,
    LOC,
    LOC_IDS,
    LOCATIONS,
    MONSTERS,
    OPPS,
    PETS,
    ROOMS,
    RULES,
    SPECIAL,
    TRAP_COPIES,
    TRAPS,
)

SEAT_NAMES = "P{}"
DUMMY = -1


# Answers given in advance to spells that offer the dungeon lord a choice (the plan is the only
# decision of a combat round): Word of Peace and Suggestion.
IF_SPELL = (
    "peace:keep",
    "peace:withdraw",
    "suggestion:pay",
    "suggestion:withdraw",
    "installed:first",
    "installed:last",
)


def _send_token(w: str) -> bool:
    """A monster in a plan: 'troll', 'troll+' (second option), 'ghost@2' (aim at the 2nd in line)."""
    body, at, aim = w.partition("@")
    if at and not (board.is_number(aim) and 1 <= int(aim) <= 9):
        return False
    return body.rstrip("+") in MONSTERS and body.count("+") <= 1 and (body.endswith("+") or "+" not in body)


def _rented(w: str) -> bool:
    return len(w) == 2 and w[0] in "rR" and w[1] in "123456789"


def _prize_shape(args: list[str]) -> bool:
    if args == ["none"] or (len(args) == 1 and args[0] in ("food", "rep", "mine", "imps", "traps")):
        return True
    if len(args) == 2 and args[0] == "dig":
        return board.is_cell(args[1])
    if len(args) == 2 and args[0] == "monster":
        return args[1] in MONSTERS
    return len(args) == 3 and args[0] == "room" and args[1] in ROOMS and board.is_cell(args[2])


def pname(seat: int) -> str:
    return "the non-player" if seat == DUMMY else f"P{seat + 1}"


class DungeonLords(core.Game):
    key = "dungeon-lords"
    title = "Dungeon Lords"
    min_players = 2
    max_players = 4
    options = {
        "inaccessible": core.Option(
            "choose",
            "how the first inaccessible orders are set: choose 2 of 3 drawn, or random",
            ("choose", "random"),
        ),
        "expansion": core.Option(True, "the Festival Season expansion (off: the base game alone)"),
        "seasons": core.Option(5, "building seasons a Year: 5, or 4 (the Four Seasons variant)", (5, 4)),
        "beginners": core.Option(False, "Beginners' variant: 4 combat rounds, no adventurers in season 2"),
        "opportunities": core.Option(True, "unique opportunities replace a location in seasons 2-5"),
        "festival": core.Option(True, "the festival in season 5 (only with unique opportunities)"),
        "pets": core.Option(True, "pets (a draft in season 1 of each Year)"),
        "bards": core.Option(True, "bards among the adventurers (courage)"),
        "paladins": core.Option(
            "two",
            "paladins a Year: two (elf and dwarf), single (the base paladin) or three",
            ("two", "single", "three"),
        ),
    }
    blurb = (
        "Build a dungeon, hire monsters and set traps with secret simultaneous orders; "
        "then the adventurers come. Two Years of five seasons (Festival Season), each ending in combat."
    )

    # ---- setup ------------------------------------------------------------------------
    def _setup(self, state: State, setup: Any) -> None:
        n = state["seats"]
        rng = Rng(state)
        setup = setup or {}
        start = RULES["start"]
        x = expansion.flags(state["options"])
        state["x"] = x
        state.update(
            year=1, round=1, phase="new_round", start=0, turn=0,
            seasons=x["seasons"], combat_rounds=x["combat_rounds"],
            log=[], trap_discard=[], orders={}, played={}, board={}, queue=[], task=None,
            done=[], offer={"monsters": [], "rooms": []}, next_advs=[], next_event=None, event=None,
            combat={"round": 0, "plans": {}, "log": [], "card": None}, uid=0, specials_seen=[],
        )  # fmt: skip
        state["players"] = [
            {
                "gold": start["gold"],
                "food": start["food"],
                "imps": start["imps"],
                "used": 0,
                "tok": 0,
                "evil": RULES["evilometer"]["start"],
                "grid": {c: {"k": "t", "c": False} for c in start["tunnels"]},
                "monsters": [],
                "traps": [],
                "prison": [],
                "party": [],
                "penalty": 0,
                "inacc": [],
                "uses": {},
                "seen": [],
            }  # fmt: skip
            for _ in range(n)
        ]
        decks: dict[str, Any] = {}
        for y in ("1", "2"):
            ok = expansion.keep(x)
            mons = [m for m, d in MONSTERS.items() if ok(d) for _ in range(d["copies"][int(y) - 1])]
            rms = [r for r, d in ROOMS.items() if d["year"] == int(y) and ok(d)]
            advs = [
                dict(a) for a in ADVENTURERS["adventurers"][y] if ok(a) and (a["cls"] != "bard" or x["bards"])
            ]
            for lst in (mons, rms, advs):
                rng.shuffle(lst)
            cards = [c["id"] for c in COMBAT["cards"][y] if ok(c)]
            rng.shuffle(cards)
            tiles = list(EVENTS["tiles_exp"] if x["seasons"] == 5 else EVENTS["tiles"])
            rng.shuffle(tiles)
            decks[y] = {
                "monsters": setup.get(f"monsters{y}", mons),
                "rooms": setup.get(f"rooms{y}", rms),
                "advs": setup.get(f"advs{y}", advs),
                "cards": setup.get(f"cards{y}", cards[: x["combat_rounds"]]),
                "events": setup.get(f"events{y}", tiles),
            }
        specials = [s["id"] for s in EVENTS["specials"] if expansion.keep(x)(s)]
        rng.shuffle(specials)
        k = EVENTS["special_per_year_exp"] if x["seasons"] == 5 else EVENTS["special_per_year"]
        for i, y in enumerate(("1", "2")):
            decks[y]["specials"] = setup.get(f"specials{y}", specials[i * k : (i + 1) * k])
        state["decks"] = decks
        expansion.setup(state, rng, setup)
        traps = [t for t in TRAPS if expansion.keep(x)(TRAPS[t]) for _ in range(TRAP_COPIES)]
        rng.shuffle(traps)
        state["trap_deck"] = setup.get("traps", traps)
        state["dummy"] = {"cards": [], "evil": RULES["dummy"]["evil_start"] if n == 2 else None, "party": []}
        state["paladins"] = self._new_paladins(state)
        if n < 4:
            state["players_dummy"] = True
        # First inaccessible orders: each player draws 3 Orders Cards and keeps 1.
        state["inacc_draw"] = {}
        for s in range(n):
            cards = list(LOC_IDS)
            rng.shuffle(cards)
            drawn = cards[: RULES["initial_inaccessible_draw"]]
            if state["options"].get("inaccessible") == "random":
                state["players"][s]["inacc"] = drawn[:2]
            else:
                state["inacc_draw"][str(s)] = drawn
        state["inacc_pick"] = {}
        if state["inacc_draw"]:
            state["phase"] = "inacc"
        else:
            self._advance(state, [])

    def _new_paladins(self, state: State, cards: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        out = []
        for p in expansion.paladin_cards(state) if cards is None else cards:
            out.append(
                {
                    **p,
                    "cls": "paladin",
                    "dmg": 0,
                    "status": "tent",
                    "at": None,
                    "uid": p["id"],
                    "year": state["year"],
                }
            )
        return out

    # ---- whose turn ---------------------------------------------------------------------
    def to_act(self, state: State) -> set[int]:
        ph = state["phase"]
        if ph == "inacc":
            return {int(s) for s in state["inacc_draw"] if s not in state["inacc_pick"]}
        if ph == "dummy":
            return {state["start"]}
        if ph == "orders":
            return {s for s in range(state["seats"]) if str(s) not in state["orders"]}
        if ph in ("resolve", "payday", "prize") and state["task"]:
            return {state["task"]["seat"]}
        if ph == "festival":
            return {s for s in range(state["seats"]) if str(s) not in state["fest"]["bids"]}
        if ph == "pet_pass":
            return {s for s in range(state["seats"]) if str(s) not in state["pet_pass"]}
        if ph == "pet_discard":
            return {s for s in range(state["seats"]) if s not in state["pet_discard_done"]}
        if ph == "production":
            return {s for s in range(state["seats"]) if s not in state["done"]}
        if ph == "plan":
            return {int(s) for s, v in state["combat"]["plans"].items() if v is None}
        return set()

    # ---- the flow ------------------------------------------------------------------------
    def _advance(self, state: State, ev: list[Event]) -> None:
        """Run automatic steps until someone must decide (or the game ends)."""
        for _ in range(1000):
            ph = state["phase"]
            if ph == "new_round":
                self._new_round(state, ev)
            elif ph == "orders":
                if len(state["orders"]) < state["seats"]:
                    return
                self._reveal_orders(state, ev)
            elif ph == "resolve":
                if state["task"]:
                    return
                if not state["queue"]:
                    festival.after_orders(self, state, ev)
                    continue
                self._resolve_next(state, ev)
            elif ph == "production":
                if len(state["done"]) < state["seats"]:
                    return
                self._retrieve_orders(state, ev)
                state["phase"] = "event" if state["round"] >= 2 else "end_round"
                if state["round"] == 1 and expansion.x(state)["pets"]:
                    festival.start_pet_draft(self, state, ev)  # the Pet Phase: round 1 of each Year
            elif ph == "event":
                self._event(state, ev)
            elif ph == "payday":
                if state["task"]:
                    return
                self._next_payday(state, ev)
            elif ph == "adventurers":
                self._assign_adventurers(state, ev)
                state["phase"] = "end_round"
            elif ph == "end_round":
                self._end_round(state, ev)
            elif ph == "plan":
                plans = state["combat"]["plans"]
                if any(v is None for v in plans.values()):
                    return
                self._combat_round(state, ev)
            elif ph == "combat_end":
                self._end_combat(state, ev)
            elif ph == "prize":
                if state["task"]:
                    return
                festival.next_prize(self, state, ev)
            else:  # inacc, dummy, over
                return
        raise AssertionError("the flow did not settle")

    def _log(self, state: State, ev: list[Event], text: str) -> None:
        ev.append(Event(text))
        state["log"] = (state["log"] + [text])[-12:]

    def _new_round(self, state: State, ev: list[Event]) -> None:
        y = str(state["year"])
        deck = state["decks"][y]
        rng = Rng(state)
        offer_m = deck["monsters"][: RULES["monsters_per_round"]]
        deck["monsters"] = deck["monsters"][RULES["monsters_per_round"] :]
        offer_r = deck["rooms"][: RULES["rooms_per_round"]]
        deck["rooms"] = deck["rooms"][RULES["rooms_per_round"] :]
        state["offer"] = {"monsters": offer_m, "rooms": offer_r}
        r = state["round"]
        if r == 1:
            state["event"] = None
        else:
            state["event"] = state["next_event"]
        state["advs"] = state["next_advs"]
        if r < state["seasons"]:
            state["next_event"] = deck["events"][r - 1]
            k = RULES["adventurers_per_round"][str(state["seats"])]
            if r == 1 and expansion.x(state)["beginners"]:
                k = 0  # Beginners' variant: no adventurers for round 2
            advs = deck["advs"][:k]
            deck["advs"] = deck["advs"][k:]
            for a in advs:
                state["uid"] += 1
                a.update(dmg=0, uid=f"a{state['uid']}")
            order = RULES["class_order"]
            state["next_advs"] = sorted(advs, key=lambda a: (a["level"], a["hp"], order.index(a["cls"])))
        else:
            state["next_event"] = None
            state["next_advs"] = []
        state["orders"] = {}
        state["played"] = {}
        state["board"] = {loc: [None, None, None] for loc in LOC_IDS}
        if state.get("opps"):
            state["opps"]["rent_gold"] = 0
        festival.new_round(self, state, ev)
        self._log(state, ev, f"Year {y}, season {r}: on offer {', '.join(MONSTERS[m]['name'] for m in offer_m)}; "
                  f"rooms {', '.join(ROOMS[x]['name'] for x in offer_r)}.")  # fmt: skip
        n = state["seats"]
        if n == 4:
            state["phase"] = "orders"
            return
        cards = list(LOC_IDS)
        rng.shuffle(cards)
        if n == 3:
            state["dummy"]["cards"] = cards[:3]
            state["phase"] = "orders"
        else:
            state["dummy"]["cards"] = cards[:2]
            state["phase"] = "dummy"

    def _reveal_orders(self, state: State, ev: list[Event]) -> None:
        n = state["seats"]
        for s in range(n):
            state["played"][str(s)] = [
                {"loc": w.rstrip("-"), "ok": True, **({"skip": True} if w.endswith("-") else {})}
                for w in state["orders"][str(s)]
            ]
        text = "; ".join(
            f"P{s + 1}: {', '.join(LOC[x['loc']]['name'] for x in state['played'][str(s)])}" for s in range(n)
        )
        self._log(state, ev, f"Orders revealed - {text}.")
        seq = ([DUMMY] if n < 4 else []) + board.play_order(state)
        for k in range(RULES["orders_per_round"]):
            for s in seq:
                loc = state["dummy"]["cards"][k] if s == DUMMY else state["played"][str(s)][k]["loc"]
                spaces = state["board"][loc]
                if None in spaces:
                    spaces[spaces.index(None)] = s
                elif s != DUMMY:
                    state["played"][str(s)][k]["ok"] = False
                    self._log(state, ev, f"{pname(s)}'s minion finds {LOC[loc]['name']} full.")
        queue = []
        opp = festival.now_board(state)
        for loc in LOCATIONS:
            order = opp["resolve"] if opp and opp["replaces"] == loc["id"] else loc["resolve"]
            for i in order:
                s = state["board"][loc["id"]][i]
                if s is not None and s != DUMMY:
                    queue.append({"loc": loc["id"], "space": i, "seat": s})
        state["queue"] = queue
        state["orders"] = {}
        state["phase"] = "resolve"

    def _fail(self, state: State, seat: int, loc: str, ev: list[Event], why: str) -> None:
        for o in state["played"][str(seat)]:
            if o["loc"] == loc:
                o["ok"] = False
        self._log(state, ev, f"P{seat + 1} does not use {LOC[loc]['name']}: {why}.")

    def _resolve_next(self, state: State, ev: list[Event]) -> None:
        t = state["queue"].pop(0)
        seat, loc, i = t["seat"], t["loc"], t["space"]
        if any(o["loc"] == loc and o.get("skip") for o in state["played"].get(str(seat), [])):
            self._fail(state, seat, loc, ev, "declined")
            return
        p = state["players"][seat]
        if loc == festival.replaced(state):
            festival.resolve(self, state, seat, i, ev)
            return
        sp = LOC[loc]["spaces"][i]
        gain = sp["gain"]
        if loc in ("food", "rep", "imps", "traps"):
            if not board.can_pay(p, sp["pay"]):
                self._fail(state, seat, loc, ev, f"cannot pay {board.cost_text(sp['pay'])}")
                return
            board.pay(state, seat, sp["pay"], ev)
            got = []
            for k in ("food", "gold", "imps"):
                if gain.get(k):
                    p[k] += gain[k]
                    got.append(f"{gain[k]} {k}")
            if gain.get("evil"):
                board.move_evil(state, seat, gain["evil"], ev)
                got.append(f"Evil {gain['evil']:+d}")
            if gain.get("peek"):
                self._peek(state, seat, ev)
                got.append("a look at a Combat Card")
            if gain.get("traps"):
                k = gain["traps"] + (RULES["year2_trap_extra_draw"] if state["year"] == 2 else 0)
                drawn = self._draw_traps(state, k)
                p["traps"].extend(drawn)
                got.append(f"{len(drawn)} Trap Card(s)")
                ev.append(Event(f"You draw {', '.join(TRAPS[x]['name'] for x in drawn)}.", seat))
                if state["year"] == 2 and k > gain["traps"] and p["traps"]:
                    state["task"] = {"type": "return", "seat": seat, "loc": loc}
            self._log(state, ev, f"P{seat + 1} at {LOC[loc]['name']} ({'I' * (i + 1)}): {', '.join(got)}.")
            return
        if loc in ("dig", "mine"):
            cap = self._imp_cap(p, gain)
            extra = 0
            if loc == "mine":
                veins = [
                    c for c in board.tunnels(p, unconquered_only=True) if p["grid"][c].get("imp") == "mithril"
                ]
                cap = min(cap, len(board.tunnels(p, unconquered_only=True)) - len(veins))
                if veins:
                    # Mithril Vein: up to 2 more imps mine there, beyond the space's limit.
                    spare = board.free_imps(p) - max(cap, 0) - (1 if cap == 4 else 0)
                    extra = max(0, min(2, spare))
                    cap = max(cap, 0)
            elif not board.dig_cells(p):
                cap = 0
            if cap + extra <= 0:
                self._fail(state, seat, loc, ev, "no imps or no room to work")
                return
            if extra:
                state["task"] = {
                    "type": loc,
                    "seat": seat,
                    "loc": loc,
                    "space": i,
                    "cap": cap + extra,
                    "n": 0,
                    "normal": cap,
                }
                return
            if cap <= 0:
                self._fail(state, seat, loc, ev, "no imps or no room to work")
                return
            state["task"] = {"type": loc, "seat": seat, "loc": loc, "space": i, "cap": cap, "n": 0}
            return
        if loc == "monster":
            if not any(self._can_hire(state, seat, m, i) for m in state["offer"]["monsters"]):
                self._fail(state, seat, loc, ev, "no monster on offer is affordable")
                return
            state["task"] = {"type": "hire", "seat": seat, "loc": loc, "space": i}
            return
        if loc == "room":
            gold = RULES["build_room_gold"][i]
            if p["gold"] < gold or not any(board.room_cells(p, r) for r in state["offer"]["rooms"]):
                self._fail(state, seat, loc, ev, "no room can be built")
                return
            state["task"] = {"type": "build", "seat": seat, "loc": loc, "space": i}
            return
        raise AssertionError(loc)

    def _imp_cap(self, p: dict[str, Any], gain: dict[str, Any]) -> int:
        free = board.free_imps(p)
        cap = min(gain["max_imps"], free)
        over = gain.get("foreimp_over")
        if over is not None and cap > over and free < cap + 1:
            cap = max(over, free - 1)  # beyond the foreimp threshold one more imp must supervise
        return int(cap)

    def _draw_traps(self, state: State, k: int) -> list[str]:
        out = []
        for _ in range(k):
            if not state["trap_deck"]:
                if not state["trap_discard"]:
                    break
                state["trap_deck"] = state["trap_discard"]
                state["trap_discard"] = []
                Rng(state).shuffle(state["trap_deck"])
            out.append(state["trap_deck"].pop(0))
        return out

    def _peek(self, state: State, seat: int, ev: list[Event]) -> None:
        p = state["players"][seat]
        cards = state["decks"][str(state["year"])]["cards"]
        for idx, cid in enumerate(cards):
            if idx not in p["seen"] and idx >= state["combat"]["round"]:
                p["seen"].append(idx)
                ev.append(Event(f"Combat Card {idx + 1} of this Year is {CARDS[cid]['name']}.", seat))
                return

    def _hire_cost(
        self, state: State, seat: int, mid: str, space: int, way: str | None = None
    ) -> dict[str, int] | None:
        """What hiring costs (None: unaffordable). A Cockatrice is paid with food or with Evil
        ('hire cockatrice evil'); without a word, food when you can, otherwise Evil."""
        p = state["players"][seat]
        if MONSTERS[mid].get("eats") and not board.edible(p):
            return None
        ways = board.cost_ways(mid)
        if way is not None and len(ways) > 1:
            ways = [way == "evil"]
        for alt in ways:
            cost = board.monster_cost(mid, alt)
            if space == 2:
                cost["food"] = cost.get("food", 0) + RULES["hire_space3_extra_food"]
            if board.can_pay(p, cost):
                return cost
        return None

    def _can_hire(self, state: State, seat: int, mid: str, space: int) -> bool:
        return self._hire_cost(state, seat, mid, space) is not None

    # ---- production -------------------------------------------------------------------------
    def _room_sources(self, state: State, seat: int) -> list[tuple[str, str, str | None]]:
        """Production rooms a player may use: (key, room id, dungeon cell or None). Rented rooms
        have the key R1, R2... and work once a round, also in Year 2 (Festival Season)."""
        p = state["players"][seat]
        out: list[tuple[str, str, str | None]] = []
        for c in board.rooms(p):
            rid = p["grid"][c]["room"]
            if ROOMS[rid]["year"] == 1:
                out.append((rid, rid, c))
        for r in p.get("rented", []):
            if ROOMS[r["room"]]["year"] == 1:
                out.append((r["cell"], r["room"], None))
        return out

    def _room_need(self, state: State, seat: int, key: str, rid: str, cell: str | None) -> int:
        """Imps a use needs: 1 fewer next to an unconquered Tool Shed, once per room a round."""
        p = state["players"][seat]
        need = int(ROOMS[rid]["imps"])
        if cell and key not in p.get("shed_used", []):
            if any(
                p["grid"].get(n, {}).get("imp") == "shed" and not p["grid"][n]["c"]
                for n in board.neighbours(cell)
            ):
                need -= 1
        return max(0, need)

    def _production_actions(self, state: State, seat: int) -> list[str]:
        p = state["players"][seat]
        uses = RULES["room_uses_per_round"][str(state["year"])]
        tokens = sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"]
        out: list[str] = []
        for key, rid, cell in self._room_sources(state, seat):
            r = ROOMS[rid]
            limit = 1 if cell is None else uses
            if r.get("train"):
                limit = RULES["expansion"]["training_per_round"][str(state["year"])]
                used = p["uses"].get(key, 0)
                if used >= limit:
                    continue
                way = p.get("train_dir")
                if way in (None, "in") and board.free_imps(p) >= 1:
                    out.append(f"use {key} in")
                if way in (None, "out") and p.get("trained", 0) >= 1:
                    out.append(f"use {key} out")
                continue
            if p["uses"].get(key, 0) >= limit:
                continue
            if board.free_imps(p) + tokens < self._room_need(state, seat, key, rid, cell):
                continue
            if not board.can_pay(p, r["pay"]):
                continue
            if r["gain"].get("tunnels"):
                out += [f"use {key} {c}" for c in board.dig_cells(p)]
            elif r.get("choice"):
                out.append(f"use {key} food")
                if p["evil"] > board.EVIL["min"]:
                    out.append(f"use {key} evil")
            elif r["gain"].get("evil") and p["evil"] <= board.EVIL["min"]:
                continue
            else:
                out.append(f"use {key}")
        return out + festival.build_pet_actions(state, seat)

    def _usable_rooms(self, state: State, seat: int) -> list[str]:
        return self._production_actions(state, seat)

    def _start_production(self, state: State, ev: list[Event]) -> None:
        state["phase"] = "production"
        state["done"] = [s for s in range(state["seats"]) if not self._production_actions(state, s)]

    def _produce(self, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
        p = state["players"][seat]
        key = words[1]
        src = next(x for x in self._room_sources(state, seat) if x[0] == key)
        rid, cell = src[1], src[2]
        r = ROOMS[rid]
        p["uses"][key] = p["uses"].get(key, 0) + 1
        if r.get("train"):
            p["train_dir"] = words[2]
            p["trained"] = p.get("trained", 0) + (1 if words[2] == "in" else -1)
            self._log(
                state,
                ev,
                f"P{seat + 1} sends an imp {words[2]} {'to' if words[2] == 'in' else 'of'} the Training Room.",
            )
            return
        tokens = sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"]
        need = self._room_need(state, seat, key, rid, cell)
        if need < r["imps"]:
            p.setdefault("shed_used", []).append(key)
        use_tok = min(tokens, need)
        p["tok"] += use_tok
        p["used"] += need - use_tok
        board.pay(state, seat, r["pay"], ev)
        g = dict(r["gain"])
        if r.get("choice"):
            g = r["choice"][0] if words[2] == "food" else r["choice"][1]
        where = words[2] if g.get("tunnels") else None
        for k in ("food", "gold", "imps"):
            if g.get(k):
                p[k] += g[k]
        if g.get("evil"):
            board.move_evil(state, seat, g["evil"], ev)
        if g.get("traps"):
            drawn = self._draw_traps(state, g["traps"])
            p["traps"].extend(drawn)
            ev.append(Event(f"Your {r['name']} makes {', '.join(TRAPS[x]['name'] for x in drawn)}.", seat))
        if where:
            p["grid"][where] = {"k": "t", "c": False}
        self._log(state, ev, f"P{seat + 1} uses the {r['name']}{' on ' + where if where else ''}.")

    def _retrieve_orders(self, state: State, ev: list[Event]) -> None:
        """Orders Retrieval: the 1st card returns to hand, the 2nd and 3rd become inaccessible
        (the previous pair returns). An order that was not carried out comes back to hand."""
        for s in range(state["seats"]):
            played = state["played"].get(str(s), [])
            state["players"][s]["inacc"] = [o["loc"] for o in played[1:] if o["ok"]]

    # ---- events -------------------------------------------------------------------------------
    def _event(self, state: State, ev: list[Event]) -> None:
        tile = state["event"]
        state["phase"] = "adventurers"
        if tile == "taxes":
            rate = RULES["taxes"]["tiles_per_gold"]
            for s in range(state["seats"]):
                p = state["players"][s]
                due = len(board.counted(p)) // rate  # rented rooms and the Secret Passage are not taxed
                paid = min(due, p["gold"])
                p["gold"] -= paid
                p["penalty"] += due - paid
                self._log(
                    state,
                    ev,
                    f"Taxes: P{s + 1} owes {due} gold, pays {paid}"
                    + (f", {due - paid} penalty." if due > paid else "."),
                )
        elif tile == "payday":
            state["phase"] = "payday"
            state["payq"] = [s for s in board.play_order(state) if state["players"][s]["monsters"]]
            self._log(state, ev, "Pay Day: every monster must be paid again.")
        elif tile == "special":
            y = str(state["year"])
            cards = state["decks"][y]["specials"]
            if cards:
                self._special(state, cards.pop(0), ev)

    def _next_payday(self, state: State, ev: list[Event]) -> None:
        if not state["payq"]:
            state["phase"] = "adventurers"
            return
        s = state["payq"].pop(0)
        state["task"] = {"type": "payday", "seat": s}

    def _payday_cost(self, p: dict[str, Any]) -> dict[str, int]:
        """Every monster's cost again, with Expertise surcharges; Cockatrices take food while it
        lasts, then Evil (house rule). Baby Golem is a pet: no pay."""
        total: dict[str, int] = {}
        alts = []
        for m in p["monsters"]:
            if m.get("pet"):
                continue
            if MONSTERS[m["id"]].get("cost_alt"):
                alts.append(m)
                continue
            for k, v in MONSTERS[m["id"]]["cost"].items():
                total[k] = total.get(k, 0) + v
        for m in alts:
            cost = board.monster_cost(m["id"], p["food"] < total.get("food", 0) + 1)
            for k, v in cost.items():
                total[k] = total.get(k, 0) + v
        for m in p["monsters"]:
            for k, v in OPPS["expertise"].get(m.get("expert") or "", {}).items():
                total[k] = total.get(k, 0) + v
        return total

    def _special(self, state: State, sid: str, ev: list[Event]) -> None:
        card = SPECIAL[sid]
        state["specials_seen"].append(sid)
        self._log(state, ev, f"Special event: {card['name']} - {card['text']}")
        players = state["players"]
        seats = range(state["seats"])
        if sid == "witchhunt":
            for s in seats:
                p = players[s]
                for m in [m for m in p["monsters"] if m["id"] == "witch"]:
                    if p["gold"] >= 1:
                        p["gold"] -= 1
                    else:
                        p["monsters"].remove(m)
        elif sid == "strike":
            for s in seats:
                p = players[s]
                for m in sorted([m for m in p["monsters"] if not MONSTERS[m["id"]].get("ghost")],
                                key=lambda m: MONSTERS[m["id"]]["rank"]):  # fmt: skip
                    if p["food"] >= 1:
                        p["food"] -= 1
                    else:
                        p["monsters"].remove(m)
        elif sid == "audit":
            for p in players:
                p["gold"] -= p["gold"] // 2
        elif sid == "harvest":
            for p in players:
                p["food"] += 2
        elif sid == "goldrush":
            for p in players:
                p["gold"] += min(
                    2, len([c for c in board.tunnels(p, unconquered_only=True) if c in board.counted(p)])
                )
        elif sid in ("inquisition", "pilgrims"):
            evil = [players[s]["evil"] for s in seats]
            pick = max(evil) if sid == "inquisition" else min(evil)
            for s in seats:
                if evil[s] == pick:
                    if sid == "inquisition":
                        board.move_evil(state, s, 1, ev)
                    else:
                        players[s]["gold"] += 2
        elif sid == "impflu":
            for p in players:
                if p["imps"] > 4:
                    p["imps"] -= 1
                    p["used"] = min(p["used"], p["imps"])
                    p["trained"] = max(0, min(p.get("trained", 0), p["imps"] - p["used"]))
        elif sid == "pardon":
            for s in board.play_order(state):
                board.move_evil(state, s, -1, ev)
        elif sid == "petfair":
            for s in board.play_order(state):
                if expansion.x(state)["pets"] and state.get("pet_deck"):
                    pet = state["pet_deck"].pop(0)
                    players[s]["pets"].append(pet)
                    ev.append(Event(f"Pet Fair: you get a {PETS[pet]['name']}.", s))
                else:
                    players[s]["food"] += 1
        elif sid in ("feast", "tunnelaudit"):
            # House rule: the choice is automatic - pay if you can, otherwise gain 1 Evil.
            res = "food" if sid == "feast" else "gold"
            count = {s: len(board.tunnels(players[s])) for s in seats}
            for s in board.play_order(state):
                if sid == "tunnelaudit" and count[s] < max(count.values()):
                    continue
                if players[s][res] >= 1:
                    players[s][res] -= 1
                else:
                    board.move_evil(state, s, 1, ev)
        elif sid == "muster":
            self._muster(state, ev)

    def _muster(self, state: State, ev: list[Event]) -> None:
        """Paladins' Muster (house decision 36). With a single paladin the elf and the dwarf
        join him for this Year as in Three Paladins - elf, human, dwarf in entry order - so the
        one paladin rule (board.check_paladin) places all three and nobody loses the paladin he
        has. Where they are already in, this Year's paladins still to fight get +1 hit point."""
        year = state["year"]
        mine = [p for p in state["paladins"] if p["year"] == year]
        cards = expansion.muster_cards(state)
        if not cards:
            for pal in mine:
                if pal["status"] in ("tent", "field"):
                    pal["hp"] += 1
            self._log(state, ev, "The paladins muster: every paladin of this Year gets +1 hit point.")
            return
        elf, dwarf = self._new_paladins(state, cards)
        state["paladins"] = [p for p in state["paladins"] if p["year"] != year] + [elf, *mine, dwarf]
        beside = f" beside the {mine[0]['name']}" if mine else ""
        self._log(
            state, ev, f"The {elf['name']} and the {dwarf['name']} come into the game{beside} this Year."
        )
        board.check_paladin(state, ev)

    # ---- adventurers and end of round --------------------------------------------------------
    def _assign_adventurers(self, state: State, ev: list[Event]) -> None:
        advs = list(state["advs"])
        state["advs"] = []
        if not advs:
            return
        order = board.play_order(state)
        keys = {s: board.evil_rank_key(state, s) for s in order}
        if state["dummy"]["evil"] is not None:
            # The non-player counter ranks like a player sitting before the starting player.
            keys[DUMMY] = (state["dummy"]["evil"], -1)
        ranking = sorted(keys, key=lambda s: keys[s], reverse=True)
        for s, a in zip(ranking, reversed(advs), strict=False):
            party = state["dummy"]["party"] if s == DUMMY else state["players"][s]["party"]
            bards = sum(1 for x in party if x["cls"] == "bard")
            if a["cls"] == "warrior":
                pos = sum(1 for x in party if x["cls"] == "warrior")
                party.insert(pos, a)
            elif a["cls"] == "bard":
                party.append(a)  # a new bard takes the last space and pushes the others ahead
            else:
                party.insert(len(party) - bards, a)  # bards always stay at the back
            self._log(state, ev, f"A {a['cls']} (level {a['level']}) heads for {pname(s)}'s dungeon.")

    def _end_round(self, state: State, ev: list[Event]) -> None:
        for p in state["players"]:
            p["used"] = 0
            p["tok"] = 0
            p["uses"] = {}
            p.pop("train_dir", None)
            p.pop("shed_used", None)
        state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"] += state["offer"]["monsters"]
        state.setdefault("discard", {"monsters": [], "rooms": []})["rooms"] += state["offer"]["rooms"]
        state["offer"] = {"monsters": [], "rooms": []}
        festival.end_round(state)
        if state["dummy"]["evil"] is not None:
            state["dummy"]["evil"] = min(
                board.EVIL["max"], state["dummy"]["evil"] + RULES["dummy"]["evil_per_round"]
            )
            board.check_paladin(state, ev)
        state["start"] = (state["start"] + 1) % state["seats"]
        if state["round"] >= state["seasons"]:
            if state["dummy"]["evil"] is not None and expansion.x(state)["exp"]:
                # Festival Season, 2 players: the non-player counter drops 3 just before Combat.
                drop = RULES["expansion"]["dummy_drop_before_combat"]
                state["dummy"]["evil"] = max(board.EVIL["min"], state["dummy"]["evil"] - drop)
            self._start_combat(state, ev)
        else:
            state["round"] += 1
            state["phase"] = "new_round"

    # ---- combat -------------------------------------------------------------------------------
    def _start_combat(self, state: State, ev: list[Event]) -> None:
        state["combat"] = {"round": 0, "plans": {}, "log": [], "card": None}
        for p in state["players"]:
            p["mourn"] = 0  # adventurers (not paladins) captured this Combat: the bards mourn them
        self._log(state, ev, f"Combat of Year {state['year']} begins.")
        self._next_combat_round(state, ev)

    def _fighters(self, state: State) -> list[int]:
        out = []
        for s in board.play_order(state):
            p = state["players"][s]
            if (p["party"] or paladin_here(state, s)) and board.battle_tiles(p):
                out.append(s)
        return out

    def _next_combat_round(self, state: State, ev: list[Event]) -> None:
        c = state["combat"]
        c["round"] += 1
        fighters = self._fighters(state)
        if c["round"] > state["combat_rounds"] or not fighters:
            state["phase"] = "combat_end"
            return
        c["plans"] = {str(s): None for s in fighters}
        c["card"] = None
        state["phase"] = "plan"
        for s in fighters:
            if len(self._plan_options(state, s)) == 1:
                c["plans"][str(s)] = self._plan_options(state, s)[0]

    def _combat_round(self, state: State, ev: list[Event]) -> None:
        c = state["combat"]
        y = str(state["year"])
        cid = state["decks"][y]["cards"][c["round"] - 1]
        c["card"] = cid
        card = CARDS[cid]
        self._log(state, ev, f"Combat round {c['round']}: the Combat Card is {card['name']}.")
        for s in board.play_order(state):
            text = c["plans"].get(str(s))
            p = state["players"][s]
            if text is None or not (p["party"] or paladin_here(state, s)):
                continue
            plan = self._parse_plan(text)
            if plan["tile"] not in board.battle_tiles(p):
                plan["tile"] = board.battle_tiles(p)[0]
            plan["installed"] = [it["trap"] for it in p.get("installed", []) if it["cell"] == plan["tile"]]
            festival.drop_installed(p, plan["tile"])  # an installed trap springs in the first battle there
            festival.use_combat_pet(self, state, s, plan, ev)
            sent = []
            for k, (mid, opt) in enumerate(plan["send"]):
                for m in p["monsters"]:
                    if m["id"] == mid and m["up"] is True:
                        m["up"] = "busy"
                        aim = plan.get("aim", {}).get(k)
                        sent.append({"id": mid, "opt": opt, "state": "sent", **({"aim": aim} if aim else {})})
                        break
            plan["sent"] = sent
            Battle(state, s, plan, card, ev).run()
            for m in p["monsters"]:
                if m["up"] == "busy":
                    m["up"] = True
        c["plans"] = {}
        self._next_combat_round(state, ev)

    def _end_combat(self, state: State, ev: list[Event]) -> None:
        for p in state["players"]:
            if p["party"]:
                self._log(state, ev, f"{len(p['party'])} adventurer(s) leave the dungeon alive.")
            p["party"] = []
            p["monsters"] = [m for m in p["monsters"] if not m.get("pet")]  # Baby Golem goes home
            for m in p["monsters"]:
                m["up"] = True
        state["dummy"]["party"] = []
        for pal in state["paladins"]:
            if pal["status"] in ("tent", "field"):
                pal["status"] = "gone"
        if state["year"] >= RULES["years"]:
            state["phase"] = "over"
            self._log(state, ev, "The game is over.")
            return
        state["year"] += 1
        state["round"] = 1
        state["pal_ignore"] = {}
        for p in state["players"]:
            p["seen"] = []
            for m in p["monsters"]:
                m.pop("xp_used", None)  # Expertise Tiles flip face up at the end of Combat
        if expansion.x(state)["seasons"] == RULES["expansion"]["seasons"]:
            # Festival Season: the token goes 2 places on (4 players) or 1 (2-3 players)
            # from the player who started the First Year.
            shift = RULES["expansion"]["year2_start_shift"][str(state["seats"])]
            state["start"] = (state.get("y1_start", 0) + shift) % state["seats"]
        if state["dummy"]["evil"] is not None and not expansion.x(state)["exp"]:
            state["dummy"]["evil"] = max(
                board.EVIL["min"], state["dummy"]["evil"] - RULES["dummy"]["evil_year2_drop"]
            )
        state["paladins"] += self._new_paladins(state)
        state["combat"] = {"round": 0, "plans": {}, "log": [], "card": None}
        board.check_paladin(state, ev)
        state["phase"] = "new_round"

    # ---- apply -----------------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        text = self.parse(action) if isinstance(action, str) else None
        if text is None:
            raise IllegalAction("That is not a Dungeon Lords move.")
        ev: list[Event] = []
        words = text.split()
        ph = state["phase"]
        verb = words[0]
        if ph == "inacc":
            self._do_keep(state, seat, words, ev)
        elif ph == "dummy":
            self._do_dummy(state, seat, words, ev)
        elif ph == "orders":
            self._do_orders(state, seat, words, ev)
        elif ph == "production":
            self._do_produce(state, seat, words, ev)
        elif ph in ("resolve", "payday"):
            self._do_task(state, seat, words, ev)
        elif ph == "festival":
            festival.do_bid(self, state, seat, words, ev)
        elif ph == "prize":
            festival.do_prize(self, state, seat, words, ev)
        elif ph == "pet_pass":
            festival.do_pet_pass(self, state, seat, words, ev)
        elif ph == "pet_discard":
            festival.do_pet_discard(self, state, seat, words, ev)
        elif ph == "plan":
            if verb != "fight":
                raise IllegalAction("Plan your battle: for example 'fight C1 trap stone send troll goblin'.")
            self._check_plan(state, seat, text)
            state["combat"]["plans"][str(seat)] = text
            ev.append(Event(f"P{seat + 1} has planned the battle."))
        else:
            raise IllegalAction("Nobody may act now.")
        state["turn"] += 1
        self._advance(state, ev)
        return ev

    def _do_keep(self, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
        drawn = state["inacc_draw"][str(seat)]
        if words[0] != "keep" or len(words) != 2 or words[1] not in drawn:
            raise IllegalAction(
                f"Keep one of the three cards you drew: {', '.join(drawn)} (e.g. 'keep {drawn[0]}')."
            )
        state["inacc_pick"][str(seat)] = words[1]
        ev.append(Event(f"P{seat + 1} has chosen."))
        if len(state["inacc_pick"]) == len(state["inacc_draw"]):
            for s, cards in state["inacc_draw"].items():
                keep = state["inacc_pick"][s]
                state["players"][int(s)]["inacc"] = [c for c in cards if c != keep]
            text = "; ".join(
                f"P{int(s) + 1}: {', '.join(LOC[c]['name'] for c in state['players'][int(s)]['inacc'])}"
                for s in state["inacc_draw"]
            )
            self._log(state, ev, f"Inaccessible orders for season 1 - {text}.")
            state["inacc_draw"] = {}
            state["inacc_pick"] = {}
            state["phase"] = "new_round"

    def _do_dummy(self, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
        have = state["dummy"]["cards"]
        if words[0] != "dummy" or len(words) != 2 or words[1] not in LOC_IDS or words[1] in have:
            free = [x for x in LOC_IDS if x not in have]
            raise IllegalAction(f"Choose the non-player's third order from: {', '.join(free)}.")
        have.append(words[1])
        self._log(state, ev, f"The non-player's orders: {', '.join(LOC[x]['name'] for x in have)}.")
        state["phase"] = "orders"

    def _do_orders(self, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
        p = state["players"][seat]
        locs = [w.rstrip("-") for w in words[1:]]
        k = RULES["orders_per_round"]
        if words[0] != "orders" or len(locs) != k or len(set(locs)) != k:
            raise IllegalAction(f"Give {k} different orders, e.g. 'orders food mine dig'.")
        for loc in locs:
            if loc not in hand(p):
                raise IllegalAction(f"Your {LOC[loc]['name']} card is inaccessible this season.")
        # A '-' after a location sends the minion but declines the action when it comes up.
        state["orders"][str(seat)] = words[1:]
        ev.append(Event(f"P{seat + 1} has given orders."))
        names = [LOC[w.rstrip("-")]["name"] + (" (declined)" if w.endswith("-") else "") for w in words[1:]]
        ev.append(Event(f"Your orders: {', '.join(names)}.", seat))

    def _do_produce(self, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
        if seat in state["done"]:
            raise IllegalAction("You have finished production this season.")
        if words == ["done"]:
            state["done"].append(seat)
            return
        acts = self._production_actions(state, seat)
        text = " ".join(words)
        if words[0] == "pet":
            festival.use_build_pet(self, state, seat, words, ev)
        elif text in acts:
            self._produce(state, seat, words, ev)
        elif words[0] != "use" or len(words) not in (2, 3):
            raise IllegalAction("Use a room ('use mint', 'use toolroom B3') or type 'done'.")
        elif not any(a.split()[1] == words[1] for a in acts):
            rid = words[1]
            raise IllegalAction(f"You cannot use a {ROOMS.get(rid, {}).get('name', rid)} now.")
        elif any(a.startswith(f"use {words[1]} ") for a in acts) and len(words) == 2:
            raise IllegalAction(
                f"Say how to use it, e.g. '{next(a for a in acts if a.startswith('use ' + words[1]))}'."
            )
        elif ROOMS.get(words[1], {}).get("gain", {}).get("tunnels"):
            raise IllegalAction(
                "Say where the new tunnel goes, e.g. 'use toolroom B3', next to your dungeon."
            )
        else:
            raise IllegalAction("That room takes no coordinate.")
        if not self._production_actions(state, seat):
            state["done"].append(seat)

    def _do_task(self, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
        t = state["task"]
        p = state["players"][seat]
        kind = t["type"]
        expansion_tasks = {
            "harvest": festival.do_harvest, "look": festival.do_look, "put": festival.do_look,
            "improve": festival.do_improve, "install": festival.do_install, "expert": festival.do_expert,
            "rent": festival.do_rent,
        }  # fmt: skip
        if kind in expansion_tasks:
            expansion_tasks[kind](self, state, seat, words, ev)
            return
        if kind == "dig":
            if words == ["done"]:
                if t["n"] == 0:
                    self._fail(state, seat, "dig", ev, "no tunnel dug")
                state["task"] = None
                return
            if words[0] != "dig" or len(words) != 2:
                raise IllegalAction("Dig a tunnel ('dig B2') or type 'done'.")
            if words[1] not in board.dig_cells(p):
                raise IllegalAction(
                    f"{words[1]} is not next to your dungeon, is taken, or would make a 2x2 block."
                )
            p["grid"][words[1]] = {"k": "t", "c": False}
            p["used"] += 1
            t["n"] += 1
            if t["n"] == 4 and t["cap"] == 4:
                p["used"] += 1  # the foreimp supervising the fourth digger
            self._log(state, ev, f"P{seat + 1} digs a tunnel on {words[1]}.")
            if t["n"] >= t["cap"] or not board.dig_cells(p):
                state["task"] = None
        elif kind == "mine":
            if (
                words[0] != "mine"
                or len(words) != 2
                or not board.is_number(words[1])
                or int(words[1]) > t["cap"]
            ):
                raise IllegalAction(f"Mine with 0 to {t['cap']} imps, e.g. 'mine {t['cap']}'.")
            k = int(words[1])
            normal = min(k, t.get("normal", k))
            p["used"] += k + (1 if normal == 4 else 0)
            p["gold"] += k
            if k == 0:
                self._fail(state, seat, "mine", ev, "no imps sent")
            else:
                self._log(state, ev, f"P{seat + 1} mines {k} gold.")
            state["task"] = None
        elif kind == "hire":
            if words[0] != "hire" or len(words) not in (2, 3):
                raise IllegalAction("Hire a monster on offer ('hire troll') or 'hire none'.")
            if words[1] == "none":
                self._fail(state, seat, "monster", ev, "declined")
                state["task"] = None
                return
            mid = words[1]
            if mid not in state["offer"]["monsters"]:
                raise IllegalAction("That monster is not on offer.")
            if not self._can_hire(state, seat, mid, t["space"]):
                raise IllegalAction(f"You cannot pay for the {MONSTERS[mid]['name']}.")
            way = words[2] if len(words) == 3 and words[2] in ("food", "evil") else None
            cost = self._hire_cost(state, seat, mid, t["space"], way)
            if cost is None:
                raise IllegalAction(f"You cannot pay for the {MONSTERS[mid]['name']} with {way}.")
            meal = words[2] if len(words) == 3 and way is None else None
            if meal and not (MONSTERS[mid].get("eats") and any(m["id"] == meal for m in board.edible(p))):
                raise IllegalAction(
                    "Only a Demon eats, and only one of your own monsters (not a Demon or a pet)."
                )
            if MONSTERS[mid].get("eats"):
                # The Demon eats the monster you name ('hire demon goblin'), else your cheapest.
                food = min(board.edible(p), key=lambda m: (m["id"] != meal, MONSTERS[m["id"]]["rank"]))
                p["monsters"].remove(food)
                state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(food["id"])
                self._log(state, ev, f"P{seat + 1}'s new Demon eats a {MONSTERS[food['id']]['name']}.")
            board.pay(state, seat, cost, ev)
            state["offer"]["monsters"].remove(mid)
            p["monsters"].append({"id": mid, "up": True})
            self._log(state, ev, f"P{seat + 1} hires a {MONSTERS[mid]['name']} for {board.cost_text(cost)}.")
            state["task"] = None
        elif kind == "build":
            if words[0] != "build" or len(words) not in (2, 3):
                raise IllegalAction("Build a room on a tunnel ('build mint C3') or 'build none'.")
            if words[1] == "none":
                self._fail(state, seat, "room", ev, "declined")
                state["task"] = None
                return
            rid = words[1]
            if rid not in state["offer"]["rooms"] or len(words) != 3:
                raise IllegalAction("Name a room on offer and a tunnel, e.g. 'build mint C3'.")
            if words[2] not in board.room_cells(p, rid):
                raise IllegalAction(
                    f"The {ROOMS[rid]['name']} cannot go on {words[2]} (unconquered tunnel, zone, no room next to it)."
                )
            p["gold"] -= RULES["build_room_gold"][t["space"]]
            p["grid"][words[2]] = {"k": "r", "room": rid, "c": False}
            festival.drop_installed(p, words[2])
            state["offer"]["rooms"].remove(rid)
            self._log(state, ev, f"P{seat + 1} builds a {ROOMS[rid]['name']} on {words[2]}.")
            state["task"] = None
        elif kind == "return":
            if words[0] != "return" or len(words) != 2 or words[1] not in p["traps"]:
                raise IllegalAction("Return one of your Trap Cards, e.g. 'return " + p["traps"][0] + "'.")
            p["traps"].remove(words[1])
            state["trap_deck"].append(words[1])
            ev.append(Event(f"P{seat + 1} returns a Trap Card."))
            state["task"] = None
        elif kind == "payday":
            if words == ["pay"]:
                cost = self._payday_cost(p)
                if not board.can_pay(p, cost):
                    raise IllegalAction(f"You cannot pay {board.cost_text(cost)}; release a monster first.")
                board.pay(state, seat, cost, ev)
                self._log(state, ev, f"P{seat + 1} pays {board.cost_text(cost)} for the monsters.")
                state["task"] = None
            elif (
                words[0] == "release"
                and len(words) == 2
                and any(m["id"] == words[1] and not m.get("pet") for m in p["monsters"])
            ):
                m = next(m for m in p["monsters"] if m["id"] == words[1] and not m.get("pet"))
                p["monsters"].remove(m)
                state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(m["id"])
                self._log(
                    state,
                    ev,
                    f"P{seat + 1} cannot or will not pay: the {MONSTERS[m['id']]['name']} leaves (Evil +1).",
                )
                board.move_evil(state, seat, 1, ev)
                if not [m for m in p["monsters"] if not m.get("pet")]:
                    state["task"] = None
            else:
                raise IllegalAction("Type 'pay' to pay every monster, or 'release <monster>' to let one go.")

    # ---- combat plans -------------------------------------------------------------------------------
    def _parse_plan(self, text: str) -> dict[str, Any]:
        words = text.split()
        plan: dict[str, Any] = {"tile": words[1], "traps": [], "target": None, "send": [], "pet": None}
        mode = None
        for w in words[2:]:
            if w in IF_SPELL:
                plan.setdefault("if", {})[w.split(":")[0]] = w.split(":")[1]
            elif w in ("trap", "send", "at", "pet"):
                mode = w
            elif mode == "pet":
                plan["pet"] = w
            elif mode == "trap":
                plan["traps"].append(w)
            elif mode == "at":
                plan["target"] = int(w)
            elif mode == "send":
                body, _, aim = w.partition("@")
                if aim:
                    plan.setdefault("aim", {})[len(plan["send"])] = int(aim)
                plan["send"].append((body.rstrip("+"), 1 if body.endswith("+") else 0))
        return plan

    def _check_plan(self, state: State, seat: int, text: str) -> None:
        p = state["players"][seat]
        plan = self._parse_plan(text)
        tiles = board.battle_tiles(p)
        if plan["tile"] not in tiles:
            raise IllegalAction(f"The party must fight on the nearest unconquered tile: {', '.join(tiles)}.")
        tile = board.tile(p, plan["tile"])
        room = tile["room"] if tile["k"] == "r" else None
        combat = ROOMS[room].get("combat", {}) if room else {}
        if plan["pet"] is not None and plan["pet"] not in p.get("pets", []):
            raise IllegalAction("You have no such combat pet face down.")
        if len(plan["traps"]) > combat.get("traps", 1):
            raise IllegalAction("Only one trap per battle (two in a Labyrinth).")
        need: dict[str, int] = {}
        hand_traps = list(p["traps"])
        for tid in plan["traps"]:
            if tid not in hand_traps:
                raise IllegalAction("You do not hold that Trap Card.")
            hand_traps.remove(tid)
            for k, v in TRAPS[tid]["cost"][state["year"] - 1].items():
                need[k] = need.get(k, 0) + v
            if room and not combat.get("no_surcharge"):
                need["gold"] = need.get("gold", 0) + RULES["room_trap_surcharge"]
        if not board.can_pay(p, need):
            raise IllegalAction(f"You cannot pay {board.cost_text(need)} for those traps.")
        limit = RULES["monster_limit"]["room" if room else "tunnel"]
        sent_ids = [m for m, _ in plan["send"]]
        if "babygolem" in sent_ids and "golem" in sent_ids:
            limit += 1  # Baby Golem does not count when he comes along with a big golem
        if len(plan["send"]) > limit:
            raise IllegalAction(f"At most {limit} monsters may fight in a {'room' if room else 'tunnel'}.")
        up = [m["id"] for m in p["monsters"] if m["up"] is True]
        for mid, opt in plan["send"]:
            if mid not in up:
                raise IllegalAction(f"You have no ready {MONSTERS.get(mid, {}).get('name', mid)}.")
            up.remove(mid)
            if opt >= len(MONSTERS[mid]["options"]):
                raise IllegalAction(f"The {MONSTERS[mid]['name']} has only one way to attack.")

    def _plan_options(self, state: State, seat: int) -> list[str]:
        """A representative, finite set of legal plans (apply accepts any legal plan)."""
        p = state["players"][seat]
        tiles = board.battle_tiles(p)
        up = [m["id"] for m in p["monsters"] if m["up"] is True]
        up.sort(key=lambda m: -MONSTERS[m]["rank"])
        out: list[str] = []
        for tile in tiles:
            t = board.tile(p, tile)
            room = t["room"] if t["k"] == "r" else None
            limit = RULES["monster_limit"]["room" if room else "tunnel"]
            sends: list[list[str]] = [[]]
            if up:
                sends.append(up[:limit])
                for mid in dict.fromkeys(up):
                    sends.append([mid])
                    if len(MONSTERS[mid]["options"]) > 1:
                        sends.append([mid + "+"])
            traps: list[list[str]] = [[]] + [[tid] for tid in dict.fromkeys(p["traps"])]
            pets = [f" pet {x}" for x in dict.fromkeys(p.get("pets", [])) if PETS[x]["when"] == "combat"]
            # A combat pet goes with the full send (and no trap) to keep the list short.
            combos = [(tr, sd, "") for tr in traps for sd in sends] + [
                ([], sends[1] if len(sends) > 1 else [], pt) for pt in pets
            ]
            for tr, sd, pet in combos:
                text = (
                    f"fight {tile}"
                    + (" trap " + " ".join(tr) if tr else "")
                    + (" send " + " ".join(sd) if sd else "")
                    + pet
                )
                try:
                    self._check_plan(state, seat, text)
                except IllegalAction:
                    continue
                if text not in out:
                    out.append(text)
        return out

    # ---- legal actions -------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if self.is_over(state) or seat not in self.to_act(state):
            return []
        ph = state["phase"]
        p = state["players"][seat]
        if ph == "inacc":
            return [f"keep {c}" for c in state["inacc_draw"][str(seat)]]
        if ph == "dummy":
            return [f"dummy {x}" for x in LOC_IDS if x not in state["dummy"]["cards"]]
        if ph == "orders":
            h = hand(p)
            return [f"orders {a} {b} {c}" for a in h for b in h for c in h if len({a, b, c}) == 3]
        if ph == "production":
            return ["done"] + self._production_actions(state, seat)
        if ph == "plan":
            return self._plan_options(state, seat)
        t = state["task"]
        if t is None or ph not in ("resolve", "payday"):
            return self._expansion_actions(state, seat)
        kind = t["type"]
        if kind == "dig":
            return [f"dig {c}" for c in board.dig_cells(p)] + ["done"]
        if kind == "mine":
            return [f"mine {k}" for k in range(t["cap"], -1, -1)]
        if kind == "hire":
            mons = [
                m
                for m in dict.fromkeys(state["offer"]["monsters"])
                if self._can_hire(state, seat, m, t["space"])
            ]
            out = [f"hire {m}" for m in mons]
            for m in mons:
                if MONSTERS[m].get("cost_alt"):
                    out += [
                        f"hire {m} {w}"
                        for w in ("food", "evil")
                        if self._hire_cost(state, seat, m, t["space"], w)
                    ]
            return out + ["hire none"]
        if kind == "build":
            out = []
            if p["gold"] >= RULES["build_room_gold"][t["space"]]:
                for rid in state["offer"]["rooms"]:
                    out += [f"build {rid} {c}" for c in board.room_cells(p, rid)]
            return out + ["build none"]
        if kind == "return":
            return [f"return {x}" for x in dict.fromkeys(p["traps"])]
        if kind == "payday":
            out = ["pay"] if board.can_pay(p, self._payday_cost(p)) else []
            return out + [
                f"release {m}" for m in dict.fromkeys(m["id"] for m in p["monsters"] if not m.get("pet"))
            ]
        return self._expansion_actions(state, seat)

    def _expansion_actions(self, state: State, seat: int) -> list[str]:
        ph = state["phase"]
        p = state["players"][seat]
        if ph == "festival":
            return [f"bid {k}" for k in range(board.free_imps(p), -1, -1)]
        if ph == "pet_pass":
            return [f"pass {x}" for x in dict.fromkeys(p["pets"])]
        if ph == "pet_discard":
            return [f"discard {x}" for x in dict.fromkeys(p["pets"])]
        t = state["task"]
        kind = t["type"] if t else None
        if kind == "prize":
            return festival.prize_options(state, seat) + ["prize none"]
        if kind == "harvest":
            return [f"harvest {k}" for k in range(t["cap"], -1, -1)]
        if kind == "look":
            return [f"look {k}" for k in festival.look_options(state)]
        if kind == "put":
            return [f"put {k}" for k in festival.look_options(state)]
        if kind == "improve":
            return festival.improve_options(state, seat) + ["done"]
        if kind == "install":
            return festival.install_options(state, seat, t["space"]) + ["install none"]
        if kind == "expert":
            mons = [
                m
                for m in dict.fromkeys(state["offer"]["monsters"])
                if festival.can_hire_expert(state, seat, m, t["space"])
            ]
            return [f"hire {m}" for m in mons] + ["hire none"]
        if kind == "rent":
            return festival.rent_options(state, seat, t["space"]) + ["rent none"]
        return []

    # ---- notation --------------------------------------------------------------------------------------
    def parse(self, text: str) -> Any:
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction("Type a move, e.g. 'orders food mine dig'.")
        if not text.isascii():
            raise IllegalAction("Moves use plain letters and digits, e.g. 'orders food mine dig'.")
        words = text.strip().lower().replace(",", " ").split()
        if not words:
            raise IllegalAction("Type a move, e.g. 'orders food mine dig'.")
        if any(w.strip("@+-").isdigit() and len(w) > 3 for w in words) or len(words) > 40:
            raise IllegalAction("That move is too long; numbers in moves are small, e.g. 'mine 3'.")
        verb = words[0]
        simple = {"keep", "dummy", "orders", "dig", "mine", "hire", "build", "return", "use", "release", "harvest",
                  "look", "put", "improve", "deconquer", "install", "rent", "bid", "prize", "pass", "discard", "pet"}  # fmt: skip
        if verb in ("done", "pay") and len(words) == 1:
            return verb
        if verb == "fight":
            if len(words) < 2 or not (board.is_cell(words[1]) or _rented(words[1])):
                raise IllegalAction("Plan a battle as 'fight C1 [trap stone] [at 2] [send troll goblin+]'.")
            out = ["fight", words[1].upper()]
            mode = None
            for w in words[2:]:
                if w in IF_SPELL:
                    if any(x.split(":")[0] == w.split(":")[0] for x in out):
                        raise IllegalAction(f"'{w.split(':')[0]}' is answered twice in the plan.")
                    out.append(w)
                elif w == "pet" and "pet" not in out:
                    mode = w
                    out.append(w)
                elif mode == "pet" and out[-1] == "pet" and w in PETS and PETS[w]["when"] == "combat":
                    out.append(w)
                elif w in ("trap", "send", "at"):
                    if w in out:
                        raise IllegalAction(f"'{w}' appears twice in the plan.")
                    mode = w
                    out.append(w)
                elif mode == "trap" and w in TRAPS:
                    out.append(w)
                elif mode == "at" and board.is_number(w) and out[-1] == "at":
                    out.append(w)
                elif mode == "send" and _send_token(w):
                    out.append(w)
                else:
                    raise IllegalAction(
                        f"'{w}' does not fit in a plan: 'fight C1 [trap stone] [at 2] [send troll goblin+]'."
                    )
            for kw in ("trap", "send", "at", "pet"):
                if kw in out and (
                    out.index(kw) == len(out) - 1 or out[out.index(kw) + 1] in ("trap", "send", "at", "pet")
                ):
                    raise IllegalAction(f"'{kw}' needs something after it.")
            return " ".join(out)
        if verb not in simple or len(words) < 2:
            raise IllegalAction(
                "Moves: keep, dummy, orders, dig, mine, hire, build, return, use, done, pay, release, fight."
            )
        for i, w in enumerate(words[1:], 1):
            if (board.is_cell(w) or _rented(w)) and verb not in ("orders", "keep", "dummy", "prize"):
                words[i] = w.upper()
            elif board.is_cell(w) and verb == "prize" and words[1] in ("dig", "room"):
                words[i] = w.upper()
        args = words[1:]
        k = RULES["orders_per_round"]
        shapes = {
            "keep": len(args) == 1 and args[0] in LOC_IDS,
            "dummy": len(args) == 1 and args[0] in LOC_IDS,
            "orders": len(args) == k and all(a.rstrip("-") in LOC_IDS and a.count("-") <= 1 for a in args),
            "dig": len(args) == 1 and board.is_cell(args[0]),
            "mine": len(args) == 1 and board.is_number(args[0]),
            "hire": (len(args) == 1 and (args[0] in MONSTERS or args[0] == "none"))
            or (len(args) == 2 and MONSTERS.get(args[0], {}).get("eats") and args[1] in MONSTERS)
            or (len(args) == 2 and MONSTERS.get(args[0], {}).get("cost_alt") and args[1] in ("food", "evil")),
            "build": (args == ["none"]) or (len(args) == 2 and args[0] in ROOMS and board.is_cell(args[1])),
            "return": len(args) == 1 and args[0] in TRAPS,
            "use": len(args) in (1, 2)
            and (args[0] in ROOMS or _rented(args[0]))
            and (len(args) == 1 or board.is_cell(args[1]) or args[1] in ("food", "evil", "in", "out")),
            "release": len(args) == 1 and args[0] in MONSTERS,
            "harvest": len(args) == 1 and board.is_number(args[0]),
            "look": len(args) == 1 and board.is_number(args[0]),
            "put": len(args) == 1 and board.is_number(args[0]),
            "improve": len(args) == 2 and board.is_cell(args[0]) and args[1] in IMPROVED,
            "deconquer": len(args) == 1 and board.is_cell(args[0]),
            "install": args == ["none"] or (len(args) == 2 and args[0] in TRAPS and board.is_cell(args[1])),
            "rent": len(args) == 1 and (args[0] in ROOMS or args[0] in ("gold", "none")),
            "bid": len(args) == 1 and board.is_number(args[0]),
            "prize": _prize_shape(args),
            "pass": len(args) == 1 and args[0] in PETS,
            "discard": len(args) == 1 and args[0] in PETS,
            "pet": len(args) in (1, 2) and args[0] in PETS and (len(args) == 1 or board.is_cell(args[1])),
        }
        if not shapes[verb]:
            examples = {
                "keep": "keep mine", "dummy": "dummy monster", "orders": "orders food mine dig", "dig": "dig B2",
                "mine": "mine 3", "hire": "hire troll", "build": "build mint C3", "return": "return stone",
                "use": "use mint", "release": "release goblin", "harvest": "harvest 2", "look": "look 3",
                "put": "put 1", "improve": "improve C2 shed", "deconquer": "deconquer C1", "install": "install stone C2",
                "rent": "rent mint", "bid": "bid 2", "prize": "prize food", "pass": "pass hen", "discard": "discard hen",
                "pet": "pet hen",
            }  # fmt: skip
            raise IllegalAction(f"That '{verb}' move is not complete; for example '{examples[verb]}'.")
        return " ".join(words)

    def format(self, action: Any) -> str:
        return str(action)

    def public_format(self, state: State, seat: int, action: Any) -> str:
        word = str(action).split()[0]
        if word in ("orders", "keep", "bid", "pass", "discard"):
            return f"{word} (secret)"
        return self.format(action)

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        # Completing secret choices reveals them: only undo while the phase is unchanged.
        return bool(before["rng"]["n"] == after["rng"]["n"] and before["phase"] == after["phase"]
                    and before["round"] == after["round"] and str(action).split()[0] not in ("orders", "keep", "fight", "bid", "pass", "discard", "look"))  # fmt: skip

    def pass_action(self, state: State, seat: int) -> Any:
        acts = self.legal_actions(state, seat)
        for a in (
            "done",
            "hire none",
            "build none",
            "mine 0",
            "bid 0",
            "prize none",
            "install none",
            "rent none",
        ):
            if a in acts:
                return a
        return None

    def describe(self, state: State, action: Any) -> str:
        text = str(action)
        words = text.split()
        verb = words[0]
        if verb == "orders":
            return "Orders: " + " -> ".join(
                LOC[w.rstrip("-")]["name"] + ("(no)" if w.endswith("-") else "")
                for w in words[1:]
                if w.rstrip("-") in LOC
            )
        if verb == "keep" and len(words) == 2 and words[1] in LOC:
            return f"Keep {LOC[words[1]]['name']} (the other two become inaccessible)"
        if verb == "hire" and words[1] in MONSTERS:
            return f"Hire the {MONSTERS[words[1]]['name']} ({board.cost_text(MONSTERS[words[1]]['cost'])})"
        if verb == "build" and words[1] in ROOMS:
            return f"Build the {ROOMS[words[1]]['name']} on {words[2]}"
        if verb == "use" and words[1] in ROOMS:
            return f"Use the {ROOMS[words[1]]['name']}" + (
                f" (tunnel on {words[2]})" if len(words) > 2 else ""
            )
        if verb == "bid" and len(words) == 2:
            return f"Send {words[1]} imp(s) to the festival (secret)"
        if verb == "prize" and len(words) >= 2 and words[1] in festival.PRIZE:
            return f"Festival prize: {festival.PRIZE[words[1]]}" + (
                f" ({' '.join(words[2:])})" if len(words) > 2 else ""
            )
        if verb in ("pass", "discard", "pet") and len(words) >= 2 and words[1] in PETS:
            what = {"pass": "Pass to the left", "discard": "Discard", "pet": "Use"}[verb]
            return f"{what}: {PETS[words[1]]['name']} - {PETS[words[1]]['text']}"[:80]
        if verb == "fight":
            plan = self._parse_plan(text)
            parts = [f"Fight on {plan['tile']}"]
            if plan["traps"]:
                parts.append("trap " + " + ".join(TRAPS[t]["name"] for t in plan["traps"] if t in TRAPS))
            if plan["send"]:
                parts.append("send " + ", ".join(m + ("*" if o else "") for m, o in plan["send"]))
            return "; ".join(parts)[:80]
        return text[:80]

    # ---- views -------------------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        y = str(state["year"])
        players = []
        for s, p in enumerate(state["players"]):
            players.append({
                "seat": s, "gold": p["gold"], "food": p["food"], "imps": p["imps"], "used": p["used"],
                "evil": p["evil"], "grid": p["grid"], "monsters": p["monsters"], "traps": len(p["traps"]),
                "prison": p["prison"], "party": p["party"], "penalty": p["penalty"],
                "inaccessible": p["inacc"] if state["phase"] != "inacc" else [],
                "ordered": str(s) in state["orders"],
                "played": [o["loc"] for o in state["played"].get(str(s), [])],
                "tokens": sum(1 for m in p["monsters"] if MONSTERS[m["id"]].get("token")) - p["tok"],
                "pets": len(p.get("pets", [])), "used_pets": p.get("used_pets", []), "trained": p.get("trained", 0),
                "rented": p.get("rented", []), "installed": p.get("installed", []), "invest": p.get("invest", 0),
                # Adventurers (not paladins) captured this Combat: each bard sings that much less. Public
                # ("you can tell how many ... by counting the empty spaces"), and the bard's public line
                # depends on it, so the view carries it (house decision 37).
                "mourn": p.get("mourn", 0),
            })  # fmt: skip
        c = state["combat"]
        cards = state["decks"][y]["cards"]
        revealed = c["round"] - (0 if c.get("card") or state["phase"] != "plan" else 1) if c["round"] else 0
        v: dict[str, Any] = {
            "game": self.key, "seat": seat, "seats": state["seats"], "year": state["year"], "round": state["round"],
            "seasons": state["seasons"], "phase": state["phase"], "start": state["start"],
            "status": self.status(state), "to_act": sorted(self.to_act(state)),
            "players": players, "offer": state["offer"], "board": state["board"],
            "event": state["event"], "next_event": state["next_event"], "next_advs": state["next_advs"],
            "dummy": {"cards": state["dummy"]["cards"], "evil": state["dummy"]["evil"], "party": state["dummy"]["party"]},
            "paladins": [{**{k: pal[k] for k in ("name", "hp", "dmg", "status", "at", "trap", "heal", "spell")},
                          "year": pal.get("year", state["year"]), "points": pal.get("points")} for pal in state["paladins"]],
            "evilometer": board.EVIL, "log": state["log"][-8:], "combat_log": c["log"][-14:], "combat_log_full": list(c["log"]),
            "combat_round": c["round"], "combat_rounds": state["combat_rounds"],
            "combat_cards": [cards[i] if i < revealed else None for i in range(len(cards))],
            "planned": sorted(int(s) for s, x in c.get("plans", {}).items() if x is not None),
            "task": state["task"], "specials_seen": state["specials_seen"], "x": state.get("x"),
            "discard": state.get("discard"), "improved": state.get("improved", []),
        }  # fmt: skip
        o = state.get("opps")
        if o:
            v["opps"] = {"now": o.get("now"), "next": o.get("next"), "used": o.get("used", []),
                         "traps": o.get("traps", [])}  # fmt: skip
        fest = state.get("fest")
        if fest:
            revealed = len(fest["bids"]) == state["seats"]
            v["festival"] = {
                "boards": fest["boards"], "order": fest["order"],
                "bid": sorted(int(s) for s in fest["bids"]),  # who has bid - never how many, until all are in
                "bids": fest["bids"] if revealed else None,
            }  # fmt: skip
        if state["phase"] == "pet_pass":
            v["pet_chosen"] = sorted(int(s) for s in state["pet_pass"])
        if state["phase"] == "pet_discard":
            v["pet_chosen"] = sorted(state["pet_discard_done"])
        if seat is not None and 0 <= seat < state["seats"]:
            p = state["players"][seat]
            v["private"] = {
                "traps": list(p["traps"]),
                "orders": state["orders"].get(str(seat)),
                "inacc_draw": state["inacc_draw"].get(str(seat)) if state["phase"] == "inacc" else None,
                "seen_cards": {str(i + 1): cards[i] for i in p["seen"] if i < len(cards)},
                "pets": list(p.get("pets", [])),
                "pet_pass": (state.get("pet_pass") or {}).get(str(seat)),
                "bid": (fest["bids"].get(str(seat)) if fest else None),
            }
        return v

    def status(self, state: State) -> str:
        ph = state["phase"]
        who = ", ".join(f"P{s + 1}" for s in sorted(self.to_act(state)))
        where = f"Year {state['year']}, season {state['round']}"
        if ph == "over":
            return "The game is over."
        if ph == "inacc":
            return f"{where}: waiting for {who} to choose which order to keep (the other two become inaccessible)."
        if ph == "dummy":
            return f"{where}: {who} chooses the non-player's third order."
        if ph == "orders":
            return f"{where}: waiting for orders from {who}."
        if ph == "production":
            return f"{where}, production: {who} may use rooms (or 'done')."
        if ph == "plan":
            return f"Year {state['year']} combat, round {state['combat']['round']}: {who} plan the battle."
        if ph == "festival":
            return f"{where}, festival: waiting for {who} to send imps (secretly)."
        if ph == "pet_pass":
            return f"{where}, Pet Phase: waiting for {who} to pass a pet to the left."
        if ph == "pet_discard":
            return f"{where}, Pet Phase: waiting for {who} to discard a pet."
        t = state["task"]
        if t:
            what = {"dig": "digs tunnels", "mine": "mines gold", "hire": "hires a monster", "build": "builds a room",
                    "return": "returns a Trap Card", "payday": "pays the monsters (Pay Day)",
                    "harvest": "harvests food", "look": "picks a Combat Card to look at",
                    "put": "puts the Combat Card back", "improve": "improves tunnels",
                    "install": "installs a trap", "expert": "hires an expert monster", "rent": "rents a room",
                    "prize": "chooses a festival prize"}[t["type"]]  # fmt: skip
            return f"{where}: {who} {what}."
        return where

    def private_text(self, state: State, seat: int) -> str:
        p = state["players"][seat]
        lines = []
        if state["phase"] == "inacc":
            lines.append("Drawn orders (keep one): " + ", ".join(state["inacc_draw"][str(seat)]))
        if str(seat) in state["orders"]:
            lines.append("Your orders: " + ", ".join(state["orders"][str(seat)]))
        lines.append("Trap Cards: " + (", ".join(f"{TRAPS[t]['name']} ({t})" for t in p["traps"]) or "none"))
        if p.get("pets"):
            lines.append(
                "Pets (face down): "
                + ", ".join(f"{PETS[x]['name']} ({x}): {PETS[x]['text']}" for x in p["pets"])
            )
        fest = state.get("fest")
        if fest and str(seat) in fest["bids"]:
            lines.append(f"Imps you sent to the festival: {fest['bids'][str(seat)]}")
        cards = state["decks"][str(state["year"])]["cards"]
        if p["seen"]:
            lines.append(
                "Combat Cards seen: " + ", ".join(f"#{i + 1} {CARDS[cards[i]]['name']}" for i in p["seen"])
            )
        return "\n".join(lines)

    # ---- end ----------------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def result(self, state: State) -> Result:
        from .scoring import score

        return score(state)

    def ai_action(self, state: State, seat: int) -> Any:
        from .ai import choose

        return choose(self, state, seat)
