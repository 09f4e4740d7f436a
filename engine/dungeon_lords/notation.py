"""Dungeon Lords notation: reading a typed move (parse), writing it (format), and
what the public history shows of it (public_format). A move is its canonical
notation string; docs/rules/dungeon-lords.md lists every form."""

from __future__ import annotations

from typing import Any

from engine.core import Choice, IllegalAction, State, rules_revision

from . import board, festival
from .data import IMPROVED, LOC, LOC_IDS, MONSTERS, PETS, ROOMS, RULES, TRAPS

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
PLAN_WORDS = ("trap", "send", "at", "pet", "load")
VERBS = (
    "keep", "dummy", "orders", "dig", "mine", "hire", "build", "return", "use", "release", "harvest",
    "look", "put", "improve", "deconquer", "install", "rent", "bid", "prize", "pass", "discard", "pet", "pay",
)  # fmt: skip
EXAMPLES = {
    "keep": "keep mine", "dummy": "dummy monster", "orders": "orders food mine dig", "dig": "dig B2",
    "mine": "mine 3", "hire": "hire troll", "build": "build mint C3", "return": "return stone",
    "use": "use mint", "release": "release goblin", "harvest": "harvest 2", "look": "look 3",
    "put": "put 1", "improve": "improve C2 shed", "deconquer": "deconquer C1", "install": "install stone C2",
    "rent": "rent mint", "bid": "bid 2", "prize": "prize food", "pass": "pass hen", "discard": "discard hen",
    "pet": "pet hen", "pay": "pay evil 1",
}  # fmt: skip
PLAN_FORM = "'fight C1 [trap stone] [at 2] [load goblin] [send troll goblin+]'"


def send_token(w: str) -> bool:
    """A monster in a plan: 'troll', 'troll+' (second option), 'ghost@2' (aim at the 2nd in line)."""
    body, at, aim = w.partition("@")
    if at and not (board.is_number(aim) and 1 <= int(aim) <= 9):
        return False
    return body.rstrip("+") in MONSTERS and body.count("+") <= 1 and (body.endswith("+") or "+" not in body)


def installed_aim(w: str) -> int | None:
    """'installed@2': the trap installed on the tile aims at the 2nd in line (revision 4)."""
    head, at, n = w.partition("@")
    return int(n) if head == "installed" and at and board.is_number(n) and 1 <= int(n) <= 9 else None


def rented(w: str) -> bool:
    return len(w) == 2 and w[0] in "rR" and w[1] in "123456789"


def prize_shape(args: list[str]) -> bool:
    if args == ["none"] or (len(args) == 1 and args[0] in ("food", "rep", "mine", "imps", "traps")):
        return True
    if len(args) == 2 and args[0] == "dig":
        return board.is_cell(args[1])
    if len(args) == 2 and args[0] == "monster":
        return args[1] in MONSTERS
    return len(args) == 3 and args[0] == "room" and args[1] in ROOMS and board.is_cell(args[2])


# ---- parse -------------------------------------------------------------------------------------


def parse(text: Any) -> str:
    """The canonical notation of a typed move, or IllegalAction with the expected form."""
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
    if verb in ("done", "pay") and len(words) == 1:
        return verb
    if verb == "fight":
        return parse_fight(words)
    if verb not in VERBS or len(words) < 2:
        raise IllegalAction(
            "Moves: keep, dummy, orders, dig, mine, hire, build, return, use, done, pay, release, fight."
        )
    for i, w in enumerate(words[1:], 1):
        if (board.is_cell(w) or rented(w)) and verb not in ("orders", "keep", "dummy", "prize"):
            words[i] = w.upper()
        elif board.is_cell(w) and verb == "prize" and words[1] in ("dig", "room"):
            words[i] = w.upper()
    if not shape_ok(verb, words[1:]):
        raise IllegalAction(f"That '{verb}' move is not complete; for example '{EXAMPLES[verb]}'.")
    return " ".join(words)


def parse_fight(words: list[str]) -> str:
    """A battle plan: 'fight C1 [trap stone] [at 2] [send troll goblin+] [pet cat] [peace:keep]'."""
    if len(words) < 2 or not (board.is_cell(words[1]) or rented(words[1])):
        raise IllegalAction(f"Plan a battle as {PLAN_FORM}.")
    out = ["fight", words[1].upper()]
    mode = None
    for w in words[2:]:
        if w in IF_SPELL:
            if any(x.split(":")[0] == w.split(":")[0] for x in out):
                raise IllegalAction(f"'{w.split(':')[0]}' is answered twice in the plan.")
        elif w == "pet" and "pet" not in out:
            mode = w
        elif mode == "pet" and out[-1] == "pet" and w in PETS and PETS[w]["when"] == "combat":
            pass
        elif installed_aim(w) is not None:
            if any(installed_aim(x) is not None for x in out):
                raise IllegalAction("The installed trap is aimed twice in the plan.")
        elif mode == "load" and out[-1] == "load" and w in MONSTERS:
            pass
        elif w in ("trap", "send", "at", "load"):
            if w in out:
                raise IllegalAction(f"'{w}' appears twice in the plan.")
            mode = w
        elif not (
            (mode == "trap" and w in TRAPS)
            or (mode == "at" and board.is_number(w) and out[-1] == "at")
            or (mode == "send" and send_token(w))
        ):
            raise IllegalAction(f"'{w}' does not fit in a plan: {PLAN_FORM}.")
        out.append(w)
    for kw in PLAN_WORDS:
        if kw in out and (out.index(kw) == len(out) - 1 or out[out.index(kw) + 1] in PLAN_WORDS):
            raise IllegalAction(f"'{kw}' needs something after it.")
    return " ".join(out)


def shape_ok(verb: str, args: list[str]) -> bool:
    """Whether the words after ``verb`` have the form the verb takes."""
    n = len(args)
    a0 = args[0] if args else ""
    num = n == 1 and board.is_number(a0)
    k = RULES["orders_per_round"]
    shapes = {
        "keep": n == 1 and a0 in LOC_IDS,
        "dummy": n == 1 and a0 in LOC_IDS,
        "orders": n == k and all(a.rstrip("-") in LOC_IDS and a.count("-") <= 1 for a in args),
        "dig": n == 1 and board.is_cell(a0),
        "mine": num,
        "hire": (n == 1 and (a0 in MONSTERS or a0 == "none"))
        or (n == 2 and MONSTERS.get(a0, {}).get("eats") and args[1] in MONSTERS)
        or (n == 2 and MONSTERS.get(a0, {}).get("cost_alt") and args[1] in ("food", "evil")),
        "build": (args == ["none"]) or (n == 2 and a0 in ROOMS and board.is_cell(args[1])),
        "return": n == 1 and a0 in TRAPS,
        "use": n in (1, 2)
        and (a0 in ROOMS or rented(a0))
        and (n == 1 or board.is_cell(args[1]) or args[1] in ("food", "evil", "in", "out")),
        "release": n == 1 and a0 in MONSTERS,
        "harvest": num,
        "look": num,
        "put": num,
        "improve": n == 2 and board.is_cell(a0) and args[1] in IMPROVED,
        "deconquer": n == 1 and board.is_cell(a0),
        "install": args == ["none"]
        or (n in (2, 3) and a0 in TRAPS and board.is_cell(args[1]) and (n == 2 or args[2] in MONSTERS)),
        "rent": n == 1 and (a0 in ROOMS or a0 in ("gold", "none")),
        "bid": num,
        "prize": prize_shape(args),
        "pass": n == 1 and a0 in PETS,
        "discard": n == 1 and a0 in PETS,
        "pet": n in (1, 2) and a0 in PETS and (n == 1 or board.is_cell(args[1])),
        "pay": n == 2 and a0 == "evil" and board.is_number(args[1]),
    }
    return bool(shapes[verb])


def format_action(action: Any) -> str:
    return str(action)


# Moves whose words are a secret of the mover: the public history shows only the verb.
# 'return' names a Trap Card of the hand that goes under the deck (nobody sees it); a battle
# plan ('fight') is secret until every plan is in and the Combat Card is turned - then the
# combat log shows what was played (the trap sprung, the pet revealed, the monsters' attacks).
SECRET_VERBS = ("orders", "keep", "bid", "pass", "discard", "return", "fight")


def public_format(state: State, seat: int, action: Any) -> str:
    word = str(action).split()[0]
    if word in SECRET_VERBS:
        return f"{word} (secret)"
    return format_action(action)


# ---- battle plans ---------------------------------------------------------------------------------


def parse_plan(text: str) -> dict[str, Any]:
    """A 'fight ...' notation as a plan: tile, traps, target, monsters sent (id, option), pet."""
    words = text.split()
    plan: dict[str, Any] = {"tile": words[1], "traps": [], "target": None, "send": [], "pet": None}
    mode = None
    for w in words[2:]:
        if w in IF_SPELL:
            plan.setdefault("if", {})[w.split(":")[0]] = w.split(":")[1]
        elif installed_aim(w) is not None:
            plan["installed_at"] = installed_aim(w)
        elif w in PLAN_WORDS:
            mode = w
        elif mode == "load":
            plan["load"] = w
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


# ---- labels: what a move does and what it costs this player now ------------------------------------
#
# describe() and segments() read the state only as the acting seat may see it: its own
# hand, costs and board, and what is public. They are shown only to that seat.

LOC_WHAT = {
    "food": "pay for food", "rep": "lose Evil", "dig": "imps dig tunnels", "mine": "imps mine gold",
    "imps": "recruit imps", "traps": "buy Trap Cards", "monster": "hire a monster", "room": "build a room",
}  # fmt: skip
UNITS = board.UNITS


def fit(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters at a word boundary (never in a word)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 2].rsplit(" ", 1)[0].rstrip(",;:(")
    return cut + " …"  # the space shows the cut is between words


def cost_words(cost: dict[str, int]) -> str:
    """'2 food and 1 Evil', 'nothing' (board.cost_text: one wording for labels and events)."""
    return board.cost_text(cost)


def effect_words(gain: dict[str, int]) -> str:
    """'gain 1 food', 'lose 1 Evil', 'gain 1 imp and 1 Evil'."""
    got = {k: v for k, v in gain.items() if k in UNITS and v}
    parts = [f"{v} {UNITS[k][0] if v == 1 else UNITS[k][1]}" for k, v in got.items()]
    if gain.get("evil", 0) > 0:
        parts.append(f"{gain['evil']} Evil")
    text = ("gain " + " and ".join(parts)) if parts else ""
    if gain.get("evil", 0) < 0:
        text = (text + " and " if text else "") + f"lose {-gain['evil']} Evil"
    return text or "no effect"


def _task_space(state: State, seat: int | None) -> int:
    t = state.get("task") or {}
    return int(t.get("space", 0)) if seat is None or t.get("seat") == seat else 0


def describe(state: State, seat: int | None, action: Any) -> str:
    """A label for ``action`` in words (<= 80 characters, never cut in a word)."""
    words = str(action).split()
    try:
        text = _LABELS.get(words[0], _plain)(state, seat, words)
    except (KeyError, IndexError, ValueError):
        text = _plain(state, seat, words)
    return fit(text)


def _plain(state: State, seat: int | None, words: list[str]) -> str:
    return " ".join(words)


def _done(state: State, seat: int | None, words: list[str]) -> str:
    kind = (state.get("task") or {}).get("type")
    if state["phase"] == "production":
        return "Done: use no more rooms this season"
    return {"dig": "Stop digging", "improve": "Stop improving tunnels"}.get(str(kind), "Done")


def _orders(state: State, seat: int | None, words: list[str]) -> str:
    names = [LOC[w.rstrip("-")]["name"] + (" (declined)" if w.endswith("-") else "") for w in words[1:]]
    return "Orders: " + ", then ".join(names)


def _hire(state: State, seat: int | None, words: list[str]) -> str:
    from . import tasks  # tasks imports this module's neighbours; imported late on purpose

    if words[1] == "none":
        return "Hire no monster (the order is not carried out)"
    mid, arg = words[1], (words[2] if len(words) > 2 else None)
    name = MONSTERS[mid]["name"]
    space = _task_space(state, seat)
    if (state.get("task") or {}).get("type") == "expert" and seat is not None:
        xp = festival.expert_cost(state, seat, mid, space, arg == "evil")
        return f"Hire an expert {name} for {cost_words(xp)}"
    way = arg if arg in ("food", "evil") else None
    cost = tasks.hire_cost(state, seat, mid, space, way) if seat is not None else None
    text = f"Hire the {name} for {cost_words(cost if cost is not None else MONSTERS[mid]['cost'])}"
    if MONSTERS[mid].get("eats"):
        meal = MONSTERS[arg]["name"] if arg in MONSTERS else "your cheapest monster"
        text += f"; it eats {meal}"
    return text


def _build(state: State, seat: int | None, words: list[str]) -> str:
    if words[1] == "none":
        return "Build no room (the order is not carried out)"
    gold = RULES["build_room_gold"][_task_space(state, seat)]
    return f"Build the {ROOMS[words[1]]['name']} on {words[2]} for {cost_words({'gold': gold})}"


def _use(state: State, seat: int | None, words: list[str]) -> str:
    key = words[1]
    rid = key
    if rented(key) and seat is None:
        return f"Use your rented room {key.upper()} (once a season)" + (
            f": {words[2]}" if len(words) > 2 else ""
        )
    if rented(key):
        rid = next(r["room"] for r in state["players"][seat].get("rented", []) if r["cell"] == key.upper())
    r = ROOMS[rid]
    where = f"the rented {r['name']}" if rid != key else f"the {r['name']}"
    if r.get("train"):
        return f"Send a free imp into {where}" if words[2] == "in" else f"Bring an imp back out of {where}"
    gain = dict(r["gain"])
    if r.get("choice"):
        gain = r["choice"][0] if words[2] == "food" else r["choice"][1]
    need = {"imps": r["imps"], **r["pay"]}
    if gain.get("tunnels"):
        return f"Use {where}: dig a tunnel on {words[2]} for {cost_words(need)}"
    return f"Use {where}: {effect_words(gain)} for {cost_words(need)}"


def _pay(state: State, seat: int | None, words: list[str]) -> str:
    from . import tasks

    if seat is None:
        return "Pay every monster"
    n = int(words[2]) if len(words) == 3 else 0
    choose = rules_revision(state) >= 4 and tasks.cockatrices(state["players"][seat])
    cost = cost_words(tasks.payday_bill(state, seat, n if choose else None))
    if n:
        which = "a Cockatrice" if n == 1 else f"{n} Cockatrices"
        return f"Pay every monster, {which} with Evil: {cost}"
    if choose:
        return f"Pay every monster, Cockatrices with food: {cost}"
    return f"Pay every monster: {cost}"


def _keep(state: State, seat: int | None, words: list[str]) -> str:
    return f"Keep {LOC[words[1]]['name']}"  # the prompt says what becomes of the other two


# A pet's effect in a few words where its card text is too long for a button (issue 28:
# labels ran to the 80-character cut; the whole text is in /hand and the guide).
PET_SHORT = {
    "ghosty": "2 damage to any adventurer",
    "babygolem": "fights like a monster this Combat",
    "stareplant": "1 damage to the first, each battle",
    "bubl": "2 more fatigue this battle",
}


def pet_words(pid: str) -> str:
    return PET_SHORT.get(pid) or str(PETS[pid]["text"])


def _pet(state: State, seat: int | None, words: list[str]) -> str:
    name = PETS[words[1]]["name"]
    where = f" on {words[2]}" if len(words) > 2 else ""
    what = {"pass": f"Pass {name} to the left", "discard": f"Discard {name}", "pet": f"Use {name}{where}"}[
        words[0]
    ]
    return f"{what}: {pet_words(words[1])}"


def _install(state: State, seat: int | None, words: list[str]) -> str:
    if words[1] == "none":
        return "Install no trap (the order is not carried out)"
    cost = (
        festival.install_cost(state, seat, words[1], words[2], _task_space(state, seat))
        if seat is not None
        else {}
    )
    if len(words) == 4:  # a Monster Catapult and the monster it is loaded with
        cost.pop("monster", None)
        paid = f" and {cost_words(cost)}" if any(cost.values()) else ""
        return (
            f"Install {TRAPS[words[1]]['name']} on {words[2]}, loaded with the {load_words(words[3])}{paid}"
        )
    return f"Install {TRAPS[words[1]]['name']} on {words[2]} for {cost_words(cost)}"


def load_words(mid: str) -> str:
    """'Troll (a big monster)': what the catapult's load is, in the rulebook's words."""
    return f"{MONSTERS[mid]['name']} ({'a big' if MONSTERS[mid].get('big') else 'a little'} monster)"


def _rent(state: State, seat: int | None, words: list[str]) -> str:
    if words[1] == "none":
        return "Rent no room (the order is not carried out)"
    if words[1] == "gold":
        return "Take the gold paid for renting rooms instead of a room"
    pay = festival.rent_pay(state, _task_space(state, seat))
    return f"Rent the {ROOMS[words[1]]['name']} in town for {cost_words(pay)}"


def _improve(state: State, seat: int | None, words: list[str]) -> str:
    tile = IMPROVED[words[2]]
    return f"Turn the tunnel on {words[1]} into a {tile['name']} (2 imps)"


def _deconquer(state: State, seat: int | None, words: list[str]) -> str:
    room = seat is not None and state["players"][seat]["grid"].get(words[1], {}).get("k") == "r"
    return f"Deconquer {words[1]}: turn it dark side up ({3 if room else 2} imps)"


def _prize(state: State, seat: int | None, words: list[str]) -> str:
    if words[1] == "none":
        return "Take no festival prize"
    extra = ""
    if words[1] == "dig":
        extra = f" on {words[2]}"
    elif words[1] == "monster":
        # The monster first: a long name must never be what the label cuts off.
        who = seat if seat is not None else (state.get("task") or {}).get("seat")
        pay = (
            festival.festival_monster_pay(state, state["players"][who], words[2]) if who is not None else None
        )
        cost = cost_words(pay or festival.festival_monster_cost(words[2]))
        return f"Festival prize: the {MONSTERS[words[2]]['name']} from the discard pile for {cost}"
    elif words[1] == "room":
        gold = cost_words({"gold": festival.OPPS["festival"]["room_gold"]})
        return f"Festival prize: the {ROOMS[words[2]]['name']} on {words[3]} from the discard pile for {gold}"
    return f"Festival prize: {festival.PRIZE[words[1]]}{extra}"


def _fight(state: State, seat: int | None, words: list[str]) -> str:
    plan = parse_plan(" ".join(words))
    parts = [f"Fight on {plan['tile']}"]
    if plan["traps"]:
        parts.append("spring " + " and ".join(TRAPS[t]["name"] for t in plan["traps"]))
    else:
        parts.append("no trap")
    if plan.get("load"):
        parts.append(f"load the catapult with the {MONSTERS[plan['load']]['name']}")
    if plan.get("installed_at"):
        parts.append(f"the installed trap aims at the {_nth(plan['installed_at'])} in line")
    if plan["send"]:
        parts.append(
            "send " + ", ".join(MONSTERS[m]["name"] + (" (2nd attack)" if o else "") for m, o in plan["send"])
        )
    else:
        parts.append("no monster")
    if plan["pet"]:
        parts.append(f"with {PETS[plan['pet']]['name']}")
    return "; ".join(parts)


def _nth(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


_LABELS: dict[str, Any] = {
    "done": _done, "orders": _orders, "hire": _hire, "build": _build, "use": _use, "pay": _pay,
    "keep": _keep, "pass": _pet, "discard": _pet, "pet": _pet, "install": _install, "rent": _rent,
    "improve": _improve, "deconquer": _deconquer, "prize": _prize, "fight": _fight,
    "dummy": lambda s, seat, w: f"Non-player's order: {LOC[w[1]]['name']}",
    "dig": lambda s, seat, w: f"Dig a tunnel on {w[1]} (1 imp)",
    "mine": lambda s, seat, w: f"Send {w[1]} imp{'s' if w[1] != '1' else ''} to mine {w[1]} gold"
    if w[1] != "0" else "Mine nothing (the order is not carried out)",
    "return": lambda s, seat, w: f"Give back {TRAPS[w[1]]['name']} (secret)",
    "release": lambda s, seat, w: f"Let the {MONSTERS[w[1]]['name']} go unpaid (1 Evil more)",
    "harvest": lambda s, seat, w: f"Harvest {w[1]} food",
    "look": lambda s, seat, w: f"Look at Combat Card {w[1]} in secret",
    "put": lambda s, seat, w: f"Put the card back as Combat Card {w[1]}",
    "bid": lambda s, seat, w: f"Send {w[1]} imp{'s' if w[1] != '1' else ''} to the festival (secret)",
}  # fmt: skip


# ---- segments: the steps of the chooser ------------------------------------------------------------


def segments(state: State, seat: int, action: Any) -> list[tuple[str, str]]:
    """The chooser's steps to ``action``: moves that name a thing and a place take two steps
    (the room, then the cell), so each step offers few options."""
    words = str(action).split()
    verb = words[0]
    label = describe(state, seat, action)
    if verb == "build" and len(words) == 3:
        name = ROOMS[words[1]]["name"]
        gold = RULES["build_room_gold"][_task_space(state, seat)]
        return [
            (words[1], fit(f"Build the {name} for {cost_words({'gold': gold})}")),
            (words[2], label),
        ]
    if verb == "use" and len(words) == 3 and board.is_cell(words[2]):
        halves = label.split(f" on {words[2]} ")
        return [
            (words[1], fit(halves[0] + " " + halves[1] if len(halves) == 2 else label)),
            (words[2], f"New tunnel on {words[2]}"),
        ]
    if verb == "install" and len(words) == 3:
        return [(words[1], fit(f"Install {TRAPS[words[1]]['name']}")), (words[2], label)]
    if verb == "install" and len(words) == 4:  # the trap, its square, the catapult's load
        where = fit(f"Install {TRAPS[words[1]]['name']} on {words[2]}")
        return [(words[1], fit(f"Install {TRAPS[words[1]]['name']}")), (words[2], where), (words[3], label)]
    if verb == "improve" and len(words) == 3:
        return [(words[1], f"Improve the tunnel on {words[1]}"), (words[2], label)]
    if verb == "prize" and words[1] in ("dig", "room") and len(words) > 2:
        # The second step names the place first, so no label is cut before it (issue 26).
        where = (
            f"Tunnel on {words[2]}" if words[1] == "dig" else f"The {ROOMS[words[2]]['name']} on {words[3]}"
        )
        return [("prize-" + words[1], fit(f"Festival prize: {festival.PRIZE[words[1]]}")),
                ("-".join(words[2:]), fit(where))]  # fmt: skip
    demon = verb == "hire" and len(words) >= 2 and MONSTERS.get(words[1], {}).get("eats")
    if demon and (state.get("task") or {}).get("type") == "hire":
        # A Demon: the monster first, then the meal (a named one, or the cheapest).
        head = label.split("; it eats ")[0]
        meal = words[2] if len(words) > 2 else "cheapest"
        return [("hire-" + words[1], head), (meal, fit(f"{head}; it eats {_meal(words)}"))]
    if verb == "fight":
        return _fight_segments(words, label)
    if verb == "orders":  # the same steps as order_chooser: one Orders Card a click
        return [(w, _order_option(w)) for w in words[1:]]
    return [(_token(words), label)]


def _meal(words: list[str]) -> str:
    return f"the {MONSTERS[words[2]]['name']}" if len(words) > 2 else "your cheapest monster"


def _token(words: list[str]) -> str:
    return "-".join(words)[:90]


def _fight_segments(words: list[str], label: str) -> list[tuple[str, str]]:
    plan = parse_plan(" ".join(words))
    trap = "+".join(plan["traps"]) or "none"
    trap_label = (
        ("Spring " + " and ".join(TRAPS[t]["name"] for t in plan["traps"])) if plan["traps"] else "No trap"
    )
    rest = "-".join(w for w in words[2:] if w != "trap" and w not in plan["traps"]) or "none"
    return [(plan["tile"], f"Fight on {plan['tile']}"), ("trap-" + trap, trap_label), (rest, label)]


# ---- the order phase: three orders in three clicks --------------------------------------------------

ORDINAL = ("first", "second", "third")


def order_chooser(state: State, seat: int, prefix: list[str]) -> Choice:
    """Step k (k = 1..3) offers the seat's free Orders Cards not yet chosen (<= 16 options:
    each card, and each card sent only to block a space, declining its action); after the
    third the set is a complete move (Done). A token is a location id, '-' after it declines."""
    k = RULES["orders_per_round"]
    free = board.hand(state["players"][seat])
    chosen = [t.rstrip("-") for t in prefix]
    if (
        len(prefix) > k
        or len(set(chosen)) != len(chosen)
        or any(
            c not in free or t.count("-") > 1 or t not in (c, c + "-")
            for t, c in zip(prefix, chosen, strict=True)
        )
    ):
        raise IllegalAction("That choice is no longer open; open your moves again.")
    so_far = ", then ".join(
        LOC[c]["name"] + (" (declined)" if t.endswith("-") else "")
        for t, c in zip(prefix, chosen, strict=True)
    )
    if len(prefix) == k:
        return Choice(prompt=f"Your orders: {so_far}. Press Done to give them (secret).", options=[],
                      action="orders " + " ".join(prefix))  # fmt: skip
    options = [(loc, _order_option(loc)) for loc in free if loc not in chosen]
    options += [(loc + "-", _order_option(loc + "-")) for loc in free if loc not in chosen]
    head = f"Orders so far: {so_far}. " if prefix else ""
    return Choice(prompt=f"{head}Choose your {ORDINAL[len(prefix)]} order of 3 (secret). Each minion takes "
                         "the lowest free space (I, II, III) of its location; What now? lists each space's "
                         "cost and gain.",
                  options=options)  # fmt: skip


def _order_option(token: str) -> str:
    loc = token.rstrip("-")
    if token.endswith("-"):
        return fit(f"{LOC[loc]['name']}, only to block a space (decline it)")
    return fit(f"{LOC[loc]['name']}: {LOC_WHAT[loc]}")


# ---- the picture of a place chosen ------------------------------------------------------------------


def place_of(token: str, fight: bool = False) -> str | None:
    """The square of the seat's dungeon a chooser token names ('dig-B2', 'C3', 'mint-C3',
    'pet-mole-B3'), or, choosing where to fight, a rented combat room ('R1'; elsewhere 'R1'
    picks a rented room to use: no place); None for a token naming no place."""
    if fight and rented(token) and token[0] == "R":
        return token
    for part in reversed(token.split("-")):
        if board.is_cell(part) and part[0].isupper():
            return part
    return None


def place_preview(state: State, seat: int, choice: Choice) -> Choice:
    """``choice`` with a preview when its options choose a place in the seat's dungeon
    (issue 26): the renderer draws that dungeon with each candidate square labelled with
    its name, the name every option choosing it carries ('Dig a tunnel on B2 (1 imp)')."""
    fight = state["phase"] == "plan"
    places = [c for c in dict.fromkeys(place_of(t, fight) for t, _ in choice.options) if c is not None]
    if places:
        choice.preview = {"kind": "places", "seat": seat, "places": places, "prompt": choice.prompt}
    return choice


# What each step of a task's chooser asks (the first step, then the second), so the private
# message and the picture of a place say what is being chosen.
STEP_PROMPTS: dict[str, tuple[str, str]] = {
    "dig": ("Dig Tunnels: choose the square for the next tunnel (1 imp), or stop digging.", ""),
    "build": ("Build Room: choose the room.", "Build Room: choose its square (an unconquered tunnel)."),
    "install": ("Install Traps: choose the trap.", "Install Traps: choose the tunnel or room it goes in."),
    "improve": ("Improve Tunnels: choose a tunnel to improve or a tile to deconquer, or stop.",
                "Improve Tunnels: choose the improvement."),
    "prize": ("Festival prize: choose one.", "Festival prize: choose its square."),
    "production": ("Production: use a room or a pet, or finish.", "Production: choose the square for the tunnel."),
    "payday": ("Pay Day: pay every monster, or let one go.", ""),
    "hire": ("Hire Monster: choose the monster.", "Hire Monster: choose what the Demon eats."),
    "expert": ("Hire an expert monster: choose the monster.", ""),
    "mine": ("Mine Gold: how many imps mine?", ""),
    "inacc": ("Keep one of the 3 Orders Cards you drew; the other two cannot be played in season 1.", ""),
    "dummy": ("Choose the non-player's third order: its minion blocks a space of that location.", ""),
    "pet_pass": ("Pet Phase: choose the pet you pass to the left (secret).", ""),
    "pet_discard": ("Pet Phase: choose the pet you discard (secret); the rest stay face down.", ""),
    "festival": ("Festival: how many free imps do you send (secret)? Most imps picks a prize first.", ""),
    "return": ("Buy Traps in Year 2: choose the Trap Card you give back (secret).", ""),
    "harvest": ("Harvest Food: how much food (1 imp each, plus supervising imps)?", ""),
    "look": ("Masquerade: choose the Combat Card you look at in secret.", ""),
    "put": ("Masquerade: choose where the card goes back.", ""),
    "rent": ("Rent Rooms: choose a room in town (no tax, no room points).", ""),
}  # fmt: skip


def step_prompt(state: State, prefix: list[str]) -> str:
    task = state.get("task") or {}
    kind = "production" if state["phase"] == "production" else str(task.get("type") or state["phase"])
    pair = STEP_PROMPTS.get(kind)
    if kind == "install" and len(prefix) == 2:
        return "Install Traps: choose the monster loaded into the catapult (discarded now)."
    return (pair[min(len(prefix), 1)] if pair else "") or "Choose your move."
