"""Dungeon Lords: the Game class and the turn flow.

Flow of a Year: ``seasons_per_year`` building rounds (New Round -> Orders ->
resolution -> Production and Orders Retrieval -> Event -> Adventurers -> End of
Round; round 1 has no Event or Adventurer phase), then Combat of
``combat_rounds`` rounds. Two Years, then Scoring. Actions are their canonical
notation strings (notation.py; docs/rules/dungeon-lords.md). The rules of each
step live in their modules: tasks.py (the orders' actions), production.py,
events.py, plans.py and combat.py (Combat), festival.py (Festival Season),
views.py (what each seat sees), scoring.py."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any

from engine import core
from engine.core import Event, IllegalAction, Result, Rng, State, seat_ref

from . import (
    board,
    events,
    expansion,
    festival,
    guide,
    hidden,
    notation,
    order_notes,
    plan_chooser,
    plans,
    production,
    scoring,
    tasks,
    views,
)
from .board import DUMMY, hand, log, who
from .combat import Battle, paladin_here
from .data import (
    ADVENTURERS,
    CARDS,
    COMBAT,
    EVENTS,
    LOC,
    LOC_IDS,
    LOCATIONS,
    MONSTERS,
    ROOMS,
    RULES,
    TRAP_COPIES,
    TRAPS,
)
from .notation import parse_plan


class DungeonLords(core.Game):
    key = "dungeon-lords"
    title = "Dungeon Lords"
    plain_copy = True  # tests/test_plain_copy.py holds every state plain JSON
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
        state["decks"] = _new_decks(rng, setup, x)
        expansion.setup(state, rng, setup)
        traps = [t for t in TRAPS if expansion.keep(x)(TRAPS[t]) for _ in range(TRAP_COPIES)]
        rng.shuffle(traps)
        state["trap_deck"] = setup.get("traps", traps)
        state["dummy"] = {"cards": [], "evil": RULES["dummy"]["evil_start"] if n == 2 else None, "party": []}
        state["paladins"] = expansion.new_paladins(state)
        if n < 4:
            state["players_dummy"] = True
        _first_inaccessible(state, rng)
        if state["inacc_draw"]:
            state["phase"] = "inacc"
        else:
            self._advance(state, [])

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

    def turn_id(self, state: State) -> str:
        """The turn as the rulebook structures it (docs/rules/dungeon-lords.md, "What a turn is"):
        a simultaneous phase (orders, battle plans, production, the festival's imps, the pet
        draft, the first inaccessible orders) is ONE turn while its choices come in; a minion's
        action on its order space (all the tunnels it digs, a room built, a monster hired, a Trap
        Card given back) is one turn of its lord, and so is paying at Pay Day and taking a prize."""
        ph = state["phase"]
        if ph == "over":
            return "over"
        if ph == "plan":
            return f"y{state['year']}-combat{state['combat']['round']}-plans"
        when = f"y{state['year']}-s{state['round']}"
        t = state.get("task")
        if ph in ("resolve", "payday", "prize") and t:
            # What is left to resolve after this minion (payer, prize winner) tells two turns
            # of one lord in a row apart; it stays the same while the turn's moves come in.
            left = {"resolve": state.get("queue"), "payday": state.get("payq"),
                    "prize": (state.get("fest") or {}).get("order")}[ph]  # fmt: skip
            return f"{when}-{ph}-{len(left or [])}-p{t['seat']}"
        return f"{when}-{ph}"

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
                tasks.resolve_next(self, state, ev)
            elif ph == "production":
                if len(state["done"]) < state["seats"]:
                    return
                self._retrieve_orders(state, ev)
                state["phase"] = "event" if state["round"] >= 2 else "end_round"
                if state["round"] == 1 and expansion.x(state)["pets"]:
                    festival.start_pet_draft(self, state, ev)  # the Pet Phase: round 1 of each Year
            elif ph == "event":
                events.event(state, ev)
            elif ph == "payday":
                if state["task"]:
                    return
                events.next_payday(state, ev)
            elif ph == "adventurers":
                self._assign_adventurers(state, ev)
                state["phase"] = "end_round"
            elif ph == "end_round":
                self._end_round(state, ev)
            elif ph == "plan":
                if any(v is None for v in state["combat"]["plans"].values()):
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
        log(state, ev, f"Year {y}, season {r}: on offer {', '.join(MONSTERS[m]['name'] for m in offer_m)}; "
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
            f"{seat_ref(s)}: {', '.join(LOC[x['loc']]['name'] for x in state['played'][str(s)])}"
            for s in range(n)
        )
        log(state, ev, f"Orders revealed - {text}.")
        seq = ([DUMMY] if n < 4 else []) + board.play_order(state)
        for k in range(RULES["orders_per_round"]):
            for s in seq:
                loc = state["dummy"]["cards"][k] if s == DUMMY else state["played"][str(s)][k]["loc"]
                spaces = state["board"][loc]
                if None in spaces:
                    spaces[spaces.index(None)] = s
                elif s != DUMMY:
                    state["played"][str(s)][k]["ok"] = False
                    log(state, ev, f"{who(s)}'s minion finds {LOC[loc]['name']} full.")
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

    # ---- production -------------------------------------------------------------------------
    def _retrieve_orders(self, state: State, ev: list[Event]) -> None:
        """Orders Retrieval: the 1st card returns to hand, the 2nd and 3rd become inaccessible
        (the previous pair returns). An order that was not carried out comes back to hand."""
        for s in range(state["seats"]):
            played = state["played"].get(str(s), [])
            state["players"][s]["inacc"] = [o["loc"] for o in played[1:] if o["ok"]]

    # ---- events -------------------------------------------------------------------------------
    # ---- adventurers and end of round --------------------------------------------------------
    def _assign_adventurers(self, state: State, ev: list[Event]) -> None:
        if state["dummy"]["evil"] is not None:
            # 2 players: the non-player counter rises 1 in each Adventurer Phase (house decision 38),
            # so it first reaches the paladin space in the last season of the Second Year.
            state["dummy"]["evil"] = min(
                board.EVIL["max"], state["dummy"]["evil"] + RULES["dummy"]["evil_per_round"]
            )
            board.check_paladin(state, ev)
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
            log(state, ev, f"A {a['cls']} (level {a['level']}) heads for {who(s)}'s dungeon.")

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
        last = state["round"] >= state["seasons"]
        if not (last and state["seasons"] == RULES["expansion"]["seasons"]):
            # Festival Season: "In a 5-season Year, the Starting Player Token ends with the player
            # who has it during festival season" - it is not passed before Combat.
            state["start"] = (state["start"] + 1) % state["seats"]
        if last:
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
        log(state, ev, f"Combat of Year {state['year']} begins.")
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
        _say_conquered(state, [int(s) for s in c["plans"] if int(s) not in fighters], ev)
        if c["round"] > state["combat_rounds"] or not fighters:
            state["phase"] = "combat_end"
            return
        c["plans"] = {str(s): None for s in fighters}
        c["card"] = None
        state["phase"] = "plan"
        for s in fighters:
            only = list(itertools.islice(plans.each(state, s), 2))
            # A lord who holds Trap Cards or a face-down pet plans himself (revision 4): whether
            # his plan is the only one depends on what they are.
            if len(only) == 1 and hidden.may_enter_for(state, s):
                c["plans"][str(s)] = only[0]
                # Said in the news only (issue 40): the stored logs of games in progress stay as they are.
                ev.append(Event(f"{who(s)} has one possible battle plan this round: it is entered for them."))

    def _combat_round(self, state: State, ev: list[Event]) -> None:
        c = state["combat"]
        y = str(state["year"])
        cid = state["decks"][y]["cards"][c["round"] - 1]
        c["card"] = cid
        card = CARDS[cid]
        log(state, ev, f"Combat round {c['round']}: the Combat Card is {card['name']}.")
        for s in board.play_order(state):
            text = c["plans"].get(str(s))
            p = state["players"][s]
            if text is None or not (p["party"] or paladin_here(state, s)):
                continue
            plan = parse_plan(text)
            if plan["tile"] not in board.battle_tiles(p):
                plan["tile"] = board.battle_tiles(p)[0]
            here = [it for it in p.get("installed", []) if it["cell"] == plan["tile"]]
            plan["installed"] = [it["trap"] for it in here]
            plan["installed_loads"] = [it.get("load") for it in here]
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
        for s, p in enumerate(state["players"]):
            if p["party"]:
                _say_leaving(state, s, len(p["party"]), ev)
            p["party"] = []
            p.pop("illusion", None)
            p["monsters"] = [m for m in p["monsters"] if not m.get("pet")]  # Baby Golem goes home
            for m in p["monsters"]:
                m["up"] = True
        state["dummy"]["party"] = []
        for pal in state["paladins"]:
            if pal["status"] in ("tent", "field"):
                pal["status"] = "gone"
        if state["year"] >= RULES["years"]:
            state["phase"] = "over"
            log(state, ev, "The game is over.")
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
        state["paladins"] += expansion.new_paladins(state)
        state["combat"] = {"round": 0, "plans": {}, "log": [], "card": None}
        board.check_paladin(state, ev)
        state["phase"] = "new_round"

    def _start_production(self, state: State, ev: list[Event]) -> None:
        production.start(state, ev)  # festival.py calls this after the festival and its prizes

    # ---- the move -----------------------------------------------------------------------------------
    def _apply(self, state: State, seat: int, action: Any) -> list[Event]:
        if not isinstance(action, str):
            raise IllegalAction("That is not a Dungeon Lords move.")
        text = _parse(action)
        ev: list[Event] = []
        handler = MOVES.get(state["phase"])
        if handler is None:
            raise IllegalAction("Nobody may act now.")
        before = self.turn_id(state)
        mark = state.get("mark") or views.snapshot(state)
        handler(self, state, seat, text.split(), ev)
        state["turn"] += 1
        self._advance(state, ev)
        # What the last turn changed (issue 28): the public board as the turn began, kept
        # until the next turn ends, so every board can outline what is new.
        if self.rules_revision(state) < 3:  # kept from revision 3: earlier games replay as played
            pass
        elif self.turn_id(state) != before:
            state["last"], state["mark"] = mark, views.snapshot(state)
        else:
            state["mark"] = mark
        return ev

    def play(self, state: State, seat: int, action: Any) -> None:
        """``_apply`` without the per-turn record (``mark`` and ``last``): search plays its
        samples in place and never shows them, and only the renderer's outline of the last
        turn reads that record (views.changed)."""
        ev: list[Event] = []
        MOVES[state["phase"]](self, state, seat, _parse(action).split(), ev)
        state["turn"] += 1
        self._advance(state, ev)

    # ---- legal actions -------------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if self.is_over(state) or seat not in self.to_act(state):
            return []
        ph = state["phase"]
        if ph in LEGAL:
            return LEGAL[ph](state, seat)
        return tasks.task_actions(state, seat) if state["task"] else []

    def can_undo(self, before: State, after: State, seat: int, action: Any) -> bool:
        # Completing secret choices reveals them: only undo while the phase is unchanged.
        return bool(before["rng"]["n"] == after["rng"]["n"] and before["phase"] == after["phase"]
                    and before["round"] == after["round"] and str(action).split()[0] not in ("orders", "keep", "fight", "bid", "pass", "discard", "look"))  # fmt: skip

    def may_play_for(self, state: State, seat: int, action: Any) -> bool:
        # Never where the seat's list of moves reads its Trap Cards or face-down pets.
        if hidden.choice_reads_hidden(state, seat):
            return False
        return super().may_play_for(state, seat, action)

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

    # ---- notation and views (notation.py, views.py) ------------------------------------------------
    def parse(self, text: str) -> Any:
        return notation.parse(text)

    def format(self, action: Any) -> str:
        return notation.format_action(action)

    def public_format(self, state: State, seat: int, action: Any) -> str:
        return notation.public_format(state, seat, action)

    def describe(self, state: State, action: Any) -> str:
        # Without a seat, the seat a task belongs to (a label is only ever shown to its mover).
        seat = (state.get("task") or {}).get("seat")
        if seat is None and len(self.to_act(state)) == 1:
            seat = min(self.to_act(state))
        return notation.describe(state, seat, action)

    def segments(self, state: State, seat: int, action: Any) -> list[tuple[str, str]]:
        if state["phase"] == "plan" and str(action).startswith("fight "):
            return plan_chooser.path(state, seat, str(action))
        return notation.segments(state, seat, action)

    def chooser(self, state: State, seat: int, prefix: list[str]) -> core.Choice:
        if state["phase"] == "orders" and seat in self.to_act(state):
            choice = notation.order_chooser(state, seat, prefix)
            choice.descriptions = order_notes.order_notes(state, choice.options, len(prefix))
            return choice
        if state["phase"] == "plan" and seat in self.to_act(state):
            # Every legal battle plan, built one part a click (the legal list holds only a sample).
            return notation.place_preview(state, seat, plan_chooser.chooser(state, seat, prefix))
        # A step choosing a square (a tunnel to dig, a room's place ...) carries its picture.
        choice = self.narrow(
            state, seat, self.legal_actions(state, seat), prefix, notation.step_prompt(state, prefix)
        )
        if choice.action is not None and not choice.options:
            choice.prompt = notation.describe(state, seat, choice.action)  # nothing left to choose
        return notation.place_preview(state, seat, choice)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def status(self, state: State) -> str:
        return views.status(self, state)

    def private_text(self, state: State, seat: int) -> str:
        return views.private_text(self, state, seat)

    def header(self, state: State, seat: int) -> str:
        return views.header(self, state, seat)

    def what_now(self, state: State, seat: int | None) -> str:
        return guide.what_now(self, state, seat)

    # ---- end ----------------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def result(self, state: State) -> Result:
        return scoring.score(state)


def _say_leaving(state: State, seat: int, n: int, ev: list[Event]) -> None:
    """The party of ``seat`` leaves alive at the end of Combat. From revision 5 the board's log
    says whose dungeon, as the news does (issue 40); games begun earlier replay their old words,
    which named no one."""
    said = board.left_alive(seat, n)
    if core.rules_revision(state) >= 5:
        log(state, ev, said)
        return
    state["log"] = (state["log"] + [f"{n} adventurer(s) leave the dungeon alive."])[-12:]
    ev.append(Event(said))


def _say_conquered(state: State, dropped: list[int], ev: list[Event]) -> None:
    """A lord who fought last round and has no tile left to fight on: the dungeon is fully
    conquered, said in the news so it does not drop out unremarked. From revision 5 the line
    also ends the combat log, which the board shows during Combat; earlier games keep their
    log as it was written."""
    for s in dropped:
        p = state["players"][s]
        if (p["party"] or paladin_here(state, s)) and not board.battle_tiles(p):
            said = f"{who(s)}'s dungeon is fully conquered: no battle is left to fight there."
            ev.append(Event(said))
            if core.rules_revision(state) >= 5:
                state["combat"]["log"].append(said)


# A move's canonical notation: a pure function of its text, and search plays the same few
# hundred moves over and over (the bound keeps typed junk from growing it).
_parse = functools.lru_cache(maxsize=4096)(notation.parse)


# ---- moves by phase ------------------------------------------------------------------------------------


def _do_keep(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    drawn = state["inacc_draw"][str(seat)]
    if words[0] != "keep" or len(words) != 2 or words[1] not in drawn:
        raise IllegalAction(
            f"Keep one of the three cards you drew: {', '.join(drawn)} (e.g. 'keep {drawn[0]}')."
        )
    state["inacc_pick"][str(seat)] = words[1]
    ev.append(Event(f"{who(seat)} has chosen."))
    if len(state["inacc_pick"]) == len(state["inacc_draw"]):
        for s, cards in state["inacc_draw"].items():
            keep = state["inacc_pick"][s]
            state["players"][int(s)]["inacc"] = [c for c in cards if c != keep]
        text = "; ".join(
            f"{seat_ref(int(s))}: {', '.join(LOC[c]['name'] for c in state['players'][int(s)]['inacc'])}"
            for s in state["inacc_draw"]
        )
        log(state, ev, f"Inaccessible orders for season 1 - {text}.")
        state["inacc_draw"] = {}
        state["inacc_pick"] = {}
        state["phase"] = "new_round"


def _do_dummy(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    have = state["dummy"]["cards"]
    if words[0] != "dummy" or len(words) != 2 or words[1] not in LOC_IDS or words[1] in have:
        free = [x for x in LOC_IDS if x not in have]
        raise IllegalAction(f"Choose the non-player's third order from: {', '.join(free)}.")
    have.append(words[1])
    log(state, ev, f"The non-player's orders: {', '.join(LOC[x]['name'] for x in have)}.")
    state["phase"] = "orders"


def _do_orders(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
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
    ev.append(Event(f"{who(seat)} has given orders."))
    names = [LOC[w.rstrip("-")]["name"] + (" (declined)" if w.endswith("-") else "") for w in words[1:]]
    ev.append(Event(f"Your orders: {', '.join(names)}.", seat))


def _do_plan(g: Any, state: State, seat: int, words: list[str], ev: list[Event]) -> None:
    if words[0] != "fight":
        raise IllegalAction("Plan your battle: for example 'fight C1 trap stone send troll goblin'.")
    text = " ".join(words)
    plans.check(state, seat, text)
    state["combat"]["plans"][str(seat)] = text
    ev.append(Event(f"{who(seat)} has planned the battle."))


Move = Callable[[Any, State, int, list[str], list[Event]], None]
MOVES: dict[str, Move] = {
    "inacc": _do_keep, "dummy": _do_dummy, "orders": _do_orders, "production": production.do_produce,
    "resolve": tasks.do_task, "payday": tasks.do_task, "festival": festival.do_bid, "prize": festival.do_prize,
    "pet_pass": festival.do_pet_pass, "pet_discard": festival.do_pet_discard, "plan": _do_plan,
}  # fmt: skip


def _order_sets(state: State, seat: int) -> list[str]:
    h = tuple(hand(state["players"][seat]))
    got = _ORDER_SETS.get(h)
    if got is None:
        got = _ORDER_SETS[h] = [f"orders {a} {b} {c}" for a in h for b in h for c in h if len({a, b, c}) == 3]
    return list(got)


# The ordered triples of a hand (a few dozen hands in all), listed once: the orders phase
# comes every season of every search.
_ORDER_SETS: dict[tuple[str, ...], list[str]] = {}


LEGAL: dict[str, Callable[[State, int], list[str]]] = {
    "inacc": lambda s, seat: [f"keep {c}" for c in s["inacc_draw"][str(seat)]],
    "dummy": lambda s, seat: [f"dummy {x}" for x in LOC_IDS if x not in s["dummy"]["cards"]],
    "orders": _order_sets,
    "production": lambda s, seat: ["done"] + production.actions(s, seat),
    "plan": plans.options,
    "festival": lambda s, seat: [f"bid {k}" for k in range(board.free_imps(s["players"][seat]), -1, -1)],
    "pet_pass": lambda s, seat: [f"pass {x}" for x in dict.fromkeys(s["players"][seat]["pets"])],
    "pet_discard": lambda s, seat: [f"discard {x}" for x in dict.fromkeys(s["players"][seat]["pets"])],
}


# ---- setup helpers ---------------------------------------------------------------------------------


def _new_decks(rng: Rng, setup: dict[str, Any], x: dict[str, Any]) -> dict[str, Any]:
    """Each Year's monsters, rooms, adventurers, Combat Cards, event tiles and special events,
    shuffled (a test's ``setup`` may stack any of them)."""
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
    return decks


def _first_inaccessible(state: State, rng: Rng) -> None:
    """First inaccessible orders: each player draws 3 Orders Cards and keeps 1 (or, with the
    'random' option, the first two drawn become inaccessible)."""
    state["inacc_draw"] = {}
    for s in range(state["seats"]):
        cards = list(LOC_IDS)
        rng.shuffle(cards)
        drawn = cards[: RULES["initial_inaccessible_draw"]]
        if state["options"].get("inaccessible") == "random":
            state["players"][s]["inacc"] = drawn[:2]
        else:
            state["inacc_draw"][str(s)] = drawn
    state["inacc_pick"] = {}
