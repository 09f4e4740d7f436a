"""One battle in one dungeon: the Battle Phase steps of a combat round.

Trap -> Fast Spells -> Monsters -> Slow Spells -> Healing -> Conquering (and
fatigue) -> end of round (poison). The plan (battle tile, traps, monsters and
their attack options) was checked by game.py before this runs."""

from __future__ import annotations

from typing import Any

from engine.core import Event, State, rules_revision

from . import board
from .board import who
from .data import MONSTERS, OPPS, ROOMS, RULES, TRAPS

Adv = dict[str, Any]


def courage_icons(a: Adv) -> int:
    return int(a["icons"]) if a["cls"] == "bard" else 0


def trap_icons(a: Adv) -> int:
    if a["cls"] == "paladin":
        return int(a["trap"])
    return int(a["icons"]) if a["cls"] == "thief" else 0


def heal_icons(a: Adv) -> int:
    if a["cls"] == "paladin":
        return int(a["heal"])
    return int(a["icons"]) if a["cls"] == "priest" else 0


def spell_icons(a: Adv) -> int:
    if a["cls"] == "paladin":
        return int(a["spell"])
    return int(a["icons"]) if a["cls"] == "wizard" else 0


def max_hp(a: Adv) -> int:
    return int(a["hp"]) + int(a.get("bonus", 0))


def left(a: Adv) -> int:
    return max_hp(a) - int(a["dmg"])


def label(a: Adv, words: bool = True) -> str:
    """'the warrior (level 1)'; ``words=False``: the revision-2 log's 'the warrior (L1)'."""
    if a["cls"] == "illusion":
        return "the illusion"
    if a["cls"] == "paladin":
        return f"the {a['name']}"
    return f"the {a['cls']} (level {a['level']})" if words else f"the {a['cls']} (L{a['level']})"


def first_up(text: str) -> str:
    """``text`` with its first letter a capital, the rest untouched ('The warrior (level 1)')."""
    return text[:1].upper() + text[1:]


def paladin_here(state: State, seat: int) -> Adv | None:
    for pal in state.get("paladins", []):
        if pal["status"] == "field" and pal["at"] == seat:
            return pal  # type: ignore[no-any-return]
    return None


class Battle:
    """Resolves one battle. ``line`` is rebuilt whenever someone falls or the paladin moves."""

    def __init__(self, state: State, seat: int, plan: dict[str, Any], card: dict[str, Any], ev: list[Event]):
        self.state, self.seat, self.plan, self.card, self.ev = state, seat, plan, card, ev
        self.p = state["players"][seat]
        self.year = state["year"]
        self.tile = plan["tile"]
        tile = self.tile_data()
        self.room = tile["room"] if tile["k"] == "r" else None
        # An Illusion cast in an earlier round stays in front until it is hit (FAQ, Create Food:
        # "if an Illusion adventurer from an earlier round is first"): it lives on the player.
        self.illusion: Adv | None = self.p.get("illusion")
        self.invisible = False
        self.shield = 0
        self.no_spell = bool(self.room and ROOMS[self.room].get("combat", {}).get("no_spells"))
        self.no_heal = False
        self.no_conquer = False
        self.key = False
        self.song = False  # Song of Courage: the party conquers twice (revision 3)
        self.rage = False
        self.attacked = False
        self.poison: list[tuple[Adv, int]] = []
        self.hypno: Adv | None = None
        combat = ROOMS[self.room].get("combat", {}) if self.room else {}
        self.minus = int(combat.get("minus", 0))  # Hall of Chaos: fewer trap, heal and spell icons
        self.fatigue_add = int(combat.get("fatigue_add", 0))
        self.fatigue_mult = 1.0
        self.rev = rules_revision(state)

    # ---- the party line ---------------------------------------------------------
    def line(self) -> list[Adv]:
        out: list[Adv] = []
        if self.illusion is not None:
            out.append(self.illusion)
        pal = paladin_here(self.state, self.seat)
        if pal is not None:
            out.append(pal)
        party = list(self.p["party"])
        if self.invisible:
            party = [a for a in party if a["cls"] != "wizard"] + [a for a in party if a["cls"] == "wizard"]
        full = out + party
        if self.hypno is not None and any(a is self.hypno for a in full):
            # Evil Eye: the hypnotised adventurer stands in front of everyone, even the paladin.
            full = [self.hypno] + [a for a in full if a is not self.hypno]
        return full

    def real(self) -> list[Adv]:
        return [a for a in self.line() if a["cls"] != "illusion"]

    def name(self, a: Adv, first: bool = False) -> str:
        """An adventurer in the log. Revision 3 says 'the warrior (level 1)' (and 'The warrior
        (level 1)' at the start of a line); a revision-2 game keeps its log's '(L1)' words."""
        if self.rev >= 3:
            return first_up(label(a)) if first else label(a)
        return label(a, False).capitalize() if first else label(a, False)

    def say(self, text: str) -> None:
        self.ev.append(Event(text))
        self.state["combat"]["log"].append(text)

    def rule(self, fn: Any, *args: Any) -> None:
        """Run a board rule (pay, move Evil, place the paladins) during the battle: what it
        announces publicly (a paladin arriving) goes into the combat log at this point too."""
        sink: list[Event] = []
        fn(self.state, *args, sink)
        for e in sink:
            if e.seat is None:
                self.say(e.text)
            else:
                self.ev.append(e)

    def hurt(self, a: Adv, n: int, source: str, monster: bool = False, pet: bool = False) -> int:
        """Deal ``n`` damage; returns what was dealt. Eliminated adventurers go to prison."""
        if n <= 0:
            return 0
        if self.invisible and a["cls"] == "wizard":
            return 0
        if self.shield and (monster or (self.rev >= 3 and not pet)):
            # "Absorbs the first point of damage to be dealt this round": from revision 3 any
            # damage after the spell is cast - monsters and ghosts, fatigue, poison - but not a
            # pet's: "Spells affecting monsters (or ghosts) do not affect pets (not even Ghosty)"
            # (house decision 44); before, only a monster's.
            absorbed = min(self.shield, n)
            self.shield -= absorbed
            n -= absorbed
            self.say(f"Magic Shield absorbs {absorbed} damage.")
            if n <= 0:
                return 0
        if a.get("courage"):
            # Festival Season: each Courage Token cancels one Damage Counter.
            cancel = min(int(a["courage"]), n)
            a["courage"] -= cancel
            n -= cancel
            self.say(f"Courage cancels {cancel} damage to {self.name(a)}.")
            if n <= 0:
                return 0
        n = min(n, left(a))
        a["dmg"] += n
        self.say(f"{source} deals {n} to {self.name(a)} ({left(a)} left).")
        if left(a) <= 0:
            self.fall(a)
        return n

    def fall(self, a: Adv) -> None:
        if a["cls"] == "illusion":
            self.illusion = None
            self.p.pop("illusion", None)
            self.say("The illusion vanishes.")
            return
        a.pop("courage", None)
        if a is self.hypno:
            self.hypno = None
        if a["cls"] == "paladin":
            a["status"] = "captured"
            a["at"] = None
            self.p["prison"].append({k: v for k, v in a.items() if k not in ("status", "at")})
            self.say(f"{self.name(a, True)} is knocked out and thrown into {who(self.seat)}'s prison.")
            year = self.state["year"]
            others = [q for q in self.state["paladins"] if q.get("year", year) == year and q is not a]
            if others:
                # Festival Season: the other paladins of this Year ignore this dungeon for the
                # rest of Combat (even paladins can be intimidated).
                self.state.setdefault("pal_ignore", {}).setdefault(str(year), []).append(self.seat)
                self.rule(board.check_paladin)
            return
        self.p["party"].remove(a)
        self.p["prison"].append(a)
        self.p["mourn"] = self.p.get("mourn", 0) + 1
        self.say(f"{self.name(a, True)} is knocked out and thrown into {who(self.seat)}'s prison.")

    # ---- steps -------------------------------------------------------------------------
    def run(self) -> None:
        card = self.card
        self.say(
            f"-- {who(self.seat)}: battle on {self.tile}; Combat Card: {card['name']} (fatigue {card['fatigue']})."
        )
        self.bard_step()
        self.pet_start()
        self.trap_step()
        casts = self.can_cast()
        nofast = any(MONSTERS[s["id"]].get("nofast") for s in self.sent())
        if nofast and card["speed"] == "fast":
            self.say("The Elderbeast knows all the tricks: no fast spell this round.")
        if card["speed"] == "fast" and casts and self.real() and not nofast:
            self.fast_spell()
        self.monster_step()
        if self.plan.get("pet_dmg") and self.real():
            # A pet is not a monster: no spell touches it and it does not make priests heal.
            name, n = self.plan["pet_dmg"]
            target = self.aimed(self.real(), n, None) if self.rev >= 3 else pick_target(self.real(), n)
            self.hurt(target, n, name, pet=True)
        if card["speed"] == "slow" and casts and self.real():
            self.slow_spell()
        self.healing_step()
        self.conquer_step()
        for target, n in self.poison:
            if target in self.line():
                self.hurt(target, n, "The poison")
        if not self.real():
            self.p.pop("illusion", None)  # nobody left for it to stand in front of

    def bard_step(self) -> None:
        """Festival Season: each bard gives one Courage Token per lute (fewer by one for each
        adventurer captured this Combat) to the adventurers front to back, skipping paladins."""
        bards = [a for a in self.p["party"] if a["cls"] == "bard"]
        if not bards:
            return
        line = [a for a in self.p["party"] if a["cls"] != "paladin"]
        for bard in bards:
            pts = max(0, courage_icons(bard) - int(self.p.get("mourn", 0)))
            for a in line[:pts]:
                a["courage"] = a.get("courage", 0) + 1
            if pts:
                singer = self.name(bard, True) if self.rev >= 3 else f"The bard (L{bard['level']})"
                k = min(pts, len(line))
                tokens = f"Courage Token{'' if k == 1 else 's'}" if self.rev >= 3 else "Courage Token(s)"
                self.say(f"{singer} sings: {k} {tokens}.")

    def pet_start(self) -> None:
        """Stareplant: while active, the first adventurer takes 1 damage as a battle begins."""
        if self.year in self.p.get("stareplant", []) and self.real():
            self.hurt(self.real()[0], 1, "The Stareplant")

    def trap_step(self) -> None:
        installed = [(tid, True) for tid in self.plan.get("installed", [])]
        cards = [(tid, False) for tid in self.plan["traps"]]
        springs = installed + cards
        if self.plan.get("if", {}).get("installed") == "last":
            springs = cards + installed  # the player orders the traps ('installed:last')
        icons = max(0, sum(trap_icons(a) for a in self.real()) - self.minus)
        loads = list(self.plan.get("installed_loads", []))
        for i, (tid, was_installed) in enumerate(springs):
            t = TRAPS[tid]
            loaded = None
            if was_installed:
                self.say(f"The trap installed on {self.tile} springs.")
                loaded = loads.pop(0) if loads else None  # loaded when it was installed
            else:
                loaded = self.play_card(tid)
            self.state["trap_discard"].append(tid)
            line = self.line()
            if not line:
                return
            dmg = [0] * len(line)
            y = self.year - 1
            target_idx = None
            if t["target"] == "first":
                if t.get("kill"):
                    dmg[0] = left(line[0])
                else:
                    dmg[0] = t["dmg"][y]
                if t.get("others"):
                    for k in range(1, len(line)):
                        dmg[k] = t["others"]
            elif t["target"] == "second":
                if len(line) > 1:
                    dmg[1] = t["dmg"][y]
            elif t["target"] == "last":
                dmg[-1] = t["dmg"][y]
            elif t["target"] == "all":
                dmg = [t["dmg"][y]] * len(line)
                if t.get("last"):
                    dmg[-1] += t["last"]
            else:
                # 'at n' in the plan aims the first Trap Card played (not an installed trap).
                first_card = i == min((k for k, (_, inst) in enumerate(springs) if not inst), default=-1)
                want = self.plan.get("target") if first_card else None
                if was_installed and self.rev >= 4:
                    want = self.plan.get("installed_at")  # 'installed@n': "an adventurer of your choice"
                target_idx = self.choose_trap_target(line, want)
                dmg[target_idx] = (
                    board.catapult_damage(self.state, loaded) if tid == "catapult" else t["dmg"][y]
                )
            self.say(f"{who(self.seat)} springs {t['name']}.")
            # Thieves: remove one point per trap icon, starting with the damage aimed at the front.
            for k in range(len(dmg)):
                cut = min(icons, dmg[k])
                dmg[k] -= cut
                icons -= cut
            targets = list(line)
            for k, a in enumerate(targets):
                if dmg[k] and a in self.line():
                    self.hurt(a, dmg[k], t["name"])
            if t.get("noconquer"):
                self.no_conquer = True
            if target_idx is not None:
                victim = targets[target_idx]
                if t.get("poison"):
                    self.poison.append((victim, t["poison"]))
                if t.get("antimagic"):
                    if victim["cls"] == "wizard":
                        self.no_spell = True
                        self.say("The dart hits a wizard: no spell this round.")
                    if victim["cls"] == "priest":
                        self.no_heal = True
                        self.say("The dart hits a priest: no healing this round.")

    def play_card(self, tid: str) -> str | None:
        """A Trap Card from the hand: it is paid (in a room 1 gold more); returns the monster
        loaded into a Monster Catapult, which the lord names from revision 4 ('load troll',
        house decision 51)."""
        self.p["traps"].remove(tid)
        cost = dict(TRAPS[tid]["cost"][self.year - 1])
        loaded = None
        if cost.get("monster") and self.rev >= 4:
            cost.pop("monster")
            loaded = board.load_catapult(self.state, self.seat, self.plan.get("load"))
            self.say(f"{who(self.seat)} loads the Monster Catapult with the {MONSTERS[loaded]['name']}.")
        self.rule(board.pay, self.seat, cost)
        if self.room and not ROOMS[self.room].get("combat", {}).get("no_surcharge"):
            self.p["gold"] -= RULES["room_trap_surcharge"]
        return loaded

    def choose_trap_target(self, line: list[Adv], want: int | None) -> int:
        """The place in line a trap of "an adventurer of your choice" hits: the one the plan
        names while someone stands there, otherwise the automatic choice."""
        if want is not None and 0 <= want - 1 < len(line):
            return int(want) - 1
        return line.index(pick_target(line, 1))

    def can_cast(self) -> bool:
        if self.no_spell:
            return False
        return max(0, sum(spell_icons(a) for a in self.real()) - self.minus) >= self.card["need"]

    def sent(self) -> list[dict[str, Any]]:
        return [s for s in self.plan["sent"] if s["state"] == "sent"]

    def withdraw(self, s: dict[str, Any], why: str) -> None:
        s["state"] = "withdrawn"
        self.say(f"{why}: {who(self.seat)}'s {MONSTERS[s['id']]['name']} withdraws.")

    def fast_spell(self) -> None:
        eff = self.card["effect"]
        self.say(f"The party casts {self.card['name']}.")
        solid = [s for s in self.sent() if not MONSTERS[s["id"]].get("ghost")]
        answer = self.plan.get("if", {})
        if eff == "peace":
            # The plan may answer ('peace:keep' / 'peace:withdraw'); otherwise the house rule:
            # keep the monsters unless the 2 Evil would call a paladin to this dungeon.
            p = self.p
            auto = p["evil"] + 2 >= board.EVIL["paladin"] and paladin_here(self.state, self.seat) is None
            if self.rev >= 3 and not solid:
                auto = True  # nothing to withdraw: withdrawing "all your monsters" costs nothing
            withdraw = answer["peace"] == "withdraw" if "peace" in answer else auto
            if self.rev >= 3 and withdraw:
                # "Withdraw all your monsters or gain 2 evil": withdrawing is never charged,
                # even when no monster (or only ghosts) came (issue 29 item 12).
                for s in solid:
                    self.withdraw(s, "Word of Peace")
                if not solid:
                    self.say(f"{who(self.seat)} has no monster to withdraw and gains no Evil.")
            elif solid and withdraw:
                for s in solid:
                    self.withdraw(s, "Word of Peace")
            else:
                self.rule(board.move_evil, self.seat, 2)
                self.say(f"{who(self.seat)} keeps the monsters and gains 2 Evil.")
        elif eff == "suggestion":
            for s in solid:
                cost = self.suggestion_cost(s)
                if answer.get("suggestion") != "withdraw" and board.can_pay(self.p, cost):
                    self.rule(board.pay, self.seat, cost)
                    self.say(
                        f"{who(self.seat)} pays {board.cost_text(cost)} to keep the {MONSTERS[s['id']]['name']}."
                    )
                else:
                    self.withdraw(s, "Suggestion")
        elif eff == "shield":
            self.shield = 1
        elif eff == "invisibility":
            self.invisible = True
        elif eff in ("fear", "gate") and solid:
            target = max(solid, key=lambda s: MONSTERS[s["id"]]["rank"]) if eff == "gate" else solid[0]
            self.withdraw(target, self.card["name"])
        elif eff == "sheep" and solid:
            solid[0]["state"] = "sheep"
            self.knock_out(solid[0]["id"])
            self.say(
                f"Metamorphosis turns {who(self.seat)}'s {MONSTERS[solid[0]['id']]['name']} into a sheep."
            )
        elif eff == "rage":
            self.rage = True
        elif eff == "illusion":
            # A new Illusion replaces one still standing from an earlier round (house decision).
            self.illusion = {"cls": "illusion", "hp": 1, "dmg": 0, "level": 0, "icons": 0}
            self.p["illusion"] = self.illusion
        elif eff == "key":
            self.key = True

    def slow_spell(self) -> None:
        eff = self.card["effect"]
        self.say(f"The party casts {self.card['name']}.")
        p = self.p
        if eff == "evil2":
            self.rule(board.move_evil, self.seat, 2)
        elif eff == "graffiti":
            self.rule(board.move_evil, self.seat, 1)
        elif eff == "lose_imp" and p["imps"] > 0:
            p["imps"] -= 1
            p["used"] = min(p["used"], p["imps"])
            p["trained"] = max(0, min(p.get("trained", 0), p["imps"] - p["used"]))
        elif eff == "treasure":
            if p["gold"]:
                p["gold"] -= 1
            elif p["food"]:
                p["food"] -= 1
            elif p["traps"]:
                self.state["trap_discard"].append(p["traps"].pop(0))
        elif eff == "create_food":
            # The first in line, even an Illusion from an earlier round ("it becomes a 2-HP illusion").
            first = self.line()[0]
            first["bonus"] = first.get("bonus", 0) + 1
        elif eff == "regenerate":
            self.heal(2)
        elif eff == "courage" and self.rev >= 3:
            self.song = True  # acts in the Conquering step (house decision 49)
        elif eff == "courage":
            for a in self.real():  # revision 2: every wounded adventurer healed 1
                if a["dmg"]:
                    a["dmg"] -= 1
        elif eff == "double_fatigue":
            self.fatigue_mult *= 2
        elif eff == "halve_fatigue":
            self.fatigue_mult /= 2

    def knock_out(self, mid: str) -> None:
        for m in self.p["monsters"]:
            if m["id"] == mid and m["up"] == "busy":
                m["up"] = False
                return

    def monster_step(self) -> None:
        for s in self.sent():
            m = MONSTERS[s["id"]]
            opt = m["options"][s["opt"]]
            if not self.line():
                break
            if opt.get("pay"):
                if board.can_pay(self.p, opt["pay"]):
                    self.rule(board.pay, self.seat, opt["pay"])
                else:
                    opt = m["options"][0]
            bonus = 0
            if self.room:
                boost = ROOMS[self.room].get("combat", {})
                if s["id"] in boost.get("boost", []):
                    bonus = boost["dmg"]
            if self.rage and not m.get("ghost"):
                bonus -= 1
            dmg = max(0, opt["dmg"] + bonus) if opt["dmg"] else 0
            first_bonus = 0
            own = self.own_monster(s)
            # Revision 3: an attack that finds nobody it may hit (a Ghost behind a lone adventurer,
            # a Vampire facing only priests) is no attack, so the Expertise Tile stays face up
            # ("The expert monster's first attack is at +2 strength"); revision 2 spent it.
            strikes = self.rev < 3 or self.can_strike(opt)
            if own is not None and own.get("expert") and not own.get("xp_used") and opt["dmg"] and strikes:
                # Festival Season: an expert's first attack of the Year is at +2 (one hit only).
                first_bonus = OPPS["expert_bonus"]
                own["xp_used"] = True
                self.say(f"The expert {m['name']} strikes with +{first_bonus}.")
            did = self.attack(m, opt, dmg, first_bonus, s.get("aim"))
            if did:
                self.attacked = True
                if m.get("noheal"):
                    self.no_heal = True
            if opt.get("noconquer") or opt["kind"] == "noconquer":
                self.no_conquer = True
                self.say(f"{who(self.seat)}'s {m['name']} stops the party from conquering.")
            returns = m.get("returns") or opt.get("returns")
            if not returns:
                self.knock_out(s["id"])
            s["state"] = "done"
        if self.hypno is not None:
            # After the Monsters step the paladin and the illusion run in front again; the
            # hypnotised adventurer stays at the front of the normal adventurers.
            if any(a is self.hypno for a in self.p["party"]):
                self.p["party"].remove(self.hypno)
                self.p["party"].insert(0, self.hypno)
            self.hypno = None

    def suggestion_cost(self, s: dict[str, Any]) -> dict[str, int]:
        """What keeping a sent monster costs under Suggestion. From revision 4 its Expertise
        surcharge too ("every time you must pay its cost ... as though the extra symbol were
        printed on the Monster Tile"), and a Cockatrice is paid with food while it lasts,
        otherwise with Evil ("pay 1 Food or pay 1 Evil when paying his cost")."""
        if self.rev < 4:
            return board.monster_cost(s["id"])
        own = self.own_monster(s) or {}
        surcharge = OPPS["expertise"].get(own.get("expert") or "", {})
        for way in board.cost_ways(s["id"]):
            cost = board.monster_cost(s["id"], way)
            for k, v in surcharge.items():
                cost[k] = cost.get(k, 0) + v
            if board.can_pay(self.p, cost):
                break
        return cost

    def can_strike(self, opt: dict[str, Any]) -> bool:
        """Whether an attack option finds someone it may hit in the line as it stands."""
        line = self.line()
        if opt["kind"] == "notfirst":
            return len(line) > 1
        if opt["kind"] == "nonpriest":
            return any(a["cls"] != "priest" for a in line)
        return opt["kind"] != "noconquer" and bool(line)

    def own_monster(self, s: dict[str, Any]) -> dict[str, Any] | None:
        for m in self.p["monsters"]:
            if m["id"] == s["id"] and m["up"] == "busy":
                return m  # type: ignore[no-any-return]
        return None

    def aimed(self, options: list[Adv], dmg: int, aim: int | None) -> Adv:
        """The adventurer an 'any adventurer' attack hits: the n-th in line named in the plan
        ('ghost@2') when that one may be hit, otherwise the automatic choice."""
        line = self.line()
        if self.rev >= 3 and self.invisible:
            # Invisible wizards "can't be hurt this round": an attack that may hit anyone goes
            # to someone it can hurt while there is one (revision 2 could waste it on a wizard).
            options = [a for a in options if a["cls"] != "wizard"] or options
        if aim and 1 <= aim <= len(line) and any(a is line[aim - 1] for a in options):
            return line[aim - 1]
        return pick_target(options, dmg)

    def attack(
        self, m: dict[str, Any], opt: dict[str, Any], dmg: int, first_bonus: int = 0, aim: int | None = None
    ) -> bool:
        kind = opt["kind"]
        name = m["name"]
        line = self.line()
        if kind == "noconquer":
            return False
        if kind == "first":
            first = line[0]
            self.hurt(first, dmg + first_bonus, name, monster=True)
            if opt.get("spill") and first not in self.line() and self.line():
                self.hurt(self.line()[0], opt["spill"], name, monster=True)
            if opt.get("then_all"):
                for a in list(self.line()):
                    self.hurt(a, opt["then_all"], name, monster=True)
            return True
        if kind == "all":
            for k, a in enumerate(list(line)):
                if a in self.line():
                    self.hurt(a, dmg + (first_bonus if k == 0 else 0), name, monster=True)
            return True
        if kind == "notfirst":
            options = line[1:]
            if not options:
                self.say(f"The {name} finds no one to haunt behind the first adventurer.")
                return False
            self.hurt(self.aimed(options, dmg + first_bonus, aim), dmg + first_bonus, name, monster=True)
            return True
        if kind == "nonpriest":
            options = [a for a in line if a["cls"] != "priest"]
            if not options:
                self.say(f"The {name} cannot attack priests.")
                return False
            self.hurt(self.aimed(options, dmg + first_bonus, aim), dmg + first_bonus, name, monster=True)
            return True
        if kind == "any":
            target = self.aimed(line, dmg + first_bonus, aim)
            if opt.get("hypno"):
                self.hypno = target
                self.say(f"The {name} hypnotises {self.name(target)}, who steps to the front.")
            self.hurt(target, dmg + first_bonus, name, monster=True)
            if opt.get("poison"):
                # Cockatrice: the poison hurts at the end of the round even if courage stopped the bite.
                self.poison.append((target, int(opt["poison"])))
            return True
        if kind == "split":
            hit: Adv | None = None
            for k in range(2):
                line = self.line()
                if self.rev >= 4 and hit is not None:
                    # "1 and 1 to any two": the second point goes to another adventurer while
                    # there is one (revision 3 could hit the same one twice).
                    line = [a for a in line if a is not hit] or line
                if line:
                    d = dmg + (first_bonus if k == 0 else 0)
                    hit = self.aimed(line, d, aim if k == 0 else None)
                    self.hurt(hit, d, name, monster=True)
            return True
        raise AssertionError(kind)

    def heal(self, points: int) -> None:
        for a in self.real():
            while points and a["dmg"]:
                a["dmg"] -= 1
                points -= 1
        self.say("The party heals.")

    def healing_step(self) -> None:
        if not self.attacked or self.no_heal:
            return
        points = max(0, sum(heal_icons(a) for a in self.real()) - self.minus)
        if points and any(a["dmg"] for a in self.real()):
            self.heal(points)

    def conquer_step(self) -> None:
        for a in self.real():
            a.pop("courage", None)  # courage leaves before the Conquering step, even if it is skipped
        if not self.real():
            return
        if self.no_conquer and not self.key:
            self.say(f"The party does not conquer {self.tile}.")
            return
        self.conquer(self.tile, self.tile_data())
        if self.song and self.real():
            # Song of Courage (revision 3): "fatigue happens more than once (as in Song of
            # Courage)" - heartened, the party conquers once more, the unconquered tile of your
            # dungeon nearest the entrance, and takes the fatigue again (house decision 49).
            more = board.battle_tiles({**self.p, "rented": []})
            if more:
                self.say("Heartened by the Song of Courage, the party presses on.")
                self.conquer(more[0], self.p["grid"][more[0]])

    def conquer(self, cell: str, tile: dict[str, Any]) -> None:
        """The party conquers ``cell``: you lose 1 Evil and the party takes the fatigue."""
        dark = tile.get("imp") == "dark" and not tile["c"]
        tile["c"] = True
        if cell != self.tile:
            # "somehow conquered without a battle": an installed trap there is discarded.
            self.p["installed"] = [it for it in self.p.get("installed", []) if it["cell"] != cell]
        if tile.get("room") == "training" and self.p.get("trained"):
            self.p["trained"] = 0  # a conquered Training Room sends its imps back to the Imp Den
            self.say(f"The trained imps of {who(self.seat)} flee back to the Imp Den.")
        self.say(f"The party conquers {cell}; {who(self.seat)} loses 1 Evil.")
        self.rule(board.move_evil, self.seat, -1)
        fatigue = self.fatigue(dark)
        # House rule: fatigue is dealt front to back, like a standard attack that keeps going.
        # An adventurer it cannot hurt (a wizard under Invisibility) is passed over; when
        # nobody left can be hurt, the rest of the fatigue is lost (house decision 17).
        while fatigue:
            dealt = 0
            for a in self.real():
                shield = self.shield
                # A point Magic Shield absorbs is fatigue spent too (revision 3: it takes any damage).
                dealt = self.hurt(a, min(fatigue, left(a)), "Fatigue") + (shield - self.shield)
                if dealt:
                    break  # the line may have changed (a knock-out): start from the front again
            if not dealt:
                if self.real():
                    self.say(f"The invisible wizards shrug off {fatigue} fatigue.")
                break
            fatigue -= dealt

    def tile_data(self) -> dict[str, Any]:
        for r in self.p.get("rented", []):
            if r["cell"] == self.tile:
                return r  # type: ignore[no-any-return]
        return self.p["grid"][self.tile]  # type: ignore[no-any-return]

    def has_training_room(self) -> bool:
        rooms = list(self.p["grid"].values()) + list(self.p.get("rented", []))
        return any(t.get("room") == "training" and not t["c"] for t in rooms)

    def fatigue(self, dark: bool) -> int:
        """Fatigue modifiers in the Festival Season order: doubling, then halving, then adding.
        Doubling (Dark Tunnel, a Scout card) applies to the card's printed number only."""
        base = float(self.card["fatigue"])
        if dark:
            base *= 2
        base *= self.fatigue_mult
        total = int(base) + self.fatigue_add + int(self.plan.get("fatigue_add", 0))
        if self.p.get("trained", 0) > 0 and self.real() and self.has_training_room():
            # Training Room: one trained imp returns to the Imp Den for 1 extra fatigue.
            self.p["trained"] -= 1
            total += 1
            self.say(f"A trained imp of {who(self.seat)} harries the party: +1 fatigue.")
        return total


def pick_target(line: list[Adv], dmg: int) -> Adv:
    """Automatic choice for 'any adventurer' effects: knock out the most valuable one
    the damage can finish, otherwise hurt the healer, then the caster, then the weakest."""
    killable = [a for a in line if left(a) <= dmg and a["cls"] != "illusion"]
    if killable:
        return max(killable, key=lambda a: (a["cls"] == "paladin", a.get("level", 0), -left(a)))

    def pref(a: Adv) -> tuple[int, int]:
        order = {"priest": 0, "wizard": 1, "thief": 2, "paladin": 3, "warrior": 4, "illusion": 5}
        return order.get(a["cls"], 5), left(a)

    return min(line, key=pref)
