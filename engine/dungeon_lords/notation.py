"""Dungeon Lords notation: reading a typed move (parse), writing it (format), and
what the public history shows of it (public_format). A move is its canonical
notation string; docs/rules/dungeon-lords.md lists every form."""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction, State

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
PLAN_WORDS = ("trap", "send", "at", "pet")
VERBS = (
    "keep", "dummy", "orders", "dig", "mine", "hire", "build", "return", "use", "release", "harvest",
    "look", "put", "improve", "deconquer", "install", "rent", "bid", "prize", "pass", "discard", "pet",
)  # fmt: skip
EXAMPLES = {
    "keep": "keep mine", "dummy": "dummy monster", "orders": "orders food mine dig", "dig": "dig B2",
    "mine": "mine 3", "hire": "hire troll", "build": "build mint C3", "return": "return stone",
    "use": "use mint", "release": "release goblin", "harvest": "harvest 2", "look": "look 3",
    "put": "put 1", "improve": "improve C2 shed", "deconquer": "deconquer C1", "install": "install stone C2",
    "rent": "rent mint", "bid": "bid 2", "prize": "prize food", "pass": "pass hen", "discard": "discard hen",
    "pet": "pet hen",
}  # fmt: skip
PLAN_FORM = "'fight C1 [trap stone] [at 2] [send troll goblin+]'"


def send_token(w: str) -> bool:
    """A monster in a plan: 'troll', 'troll+' (second option), 'ghost@2' (aim at the 2nd in line)."""
    body, at, aim = w.partition("@")
    if at and not (board.is_number(aim) and 1 <= int(aim) <= 9):
        return False
    return body.rstrip("+") in MONSTERS and body.count("+") <= 1 and (body.endswith("+") or "+" not in body)


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
        elif w in ("trap", "send", "at"):
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
        "install": args == ["none"] or (n == 2 and a0 in TRAPS and board.is_cell(args[1])),
        "rent": n == 1 and (a0 in ROOMS or a0 in ("gold", "none")),
        "bid": num,
        "prize": prize_shape(args),
        "pass": n == 1 and a0 in PETS,
        "discard": n == 1 and a0 in PETS,
        "pet": n in (1, 2) and a0 in PETS and (n == 1 or board.is_cell(args[1])),
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
        elif w in PLAN_WORDS:
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


# ---- labels -----------------------------------------------------------------------------------------


def describe(state: State, seat: int | None, action: Any) -> str:
    """A short label for the move (<= 80 characters)."""
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
        return f"Use the {ROOMS[words[1]]['name']}" + (f" (tunnel on {words[2]})" if len(words) > 2 else "")
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
        plan = parse_plan(text)
        parts = [f"Fight on {plan['tile']}"]
        if plan["traps"]:
            parts.append("trap " + " + ".join(TRAPS[t]["name"] for t in plan["traps"] if t in TRAPS))
        if plan["send"]:
            parts.append("send " + ", ".join(m + ("*" if o else "") for m, o in plan["send"]))
        return "; ".join(parts)[:80]
    return text[:80]
