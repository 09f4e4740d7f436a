"""The combat chooser: a battle plan built one click at a time (issue 21 item 8).

The first step is the tile to fight on; then a menu offers what may still be added to the
plan - a Trap Card, the trap's aim ('at n'), a monster to send (with its second attack), an
aim for a monster already sent ('ghost@2'), a combat pet, an answer to a spell - and Done,
which makes the plan in the notation /play would parse for it. Only additions that keep the
plan legal (plans.check) are offered, so Done is always open. Tokens: the tile ('C1', 'R1'),
a part ('trap', 'at', 'send', 'aim', 'pet', 'spell') and then its choice ('trap-stone',
'at-2', 'send-troll+', 'aim-1' then 'n-2', 'pet-cat', 'peace:keep')."""

from __future__ import annotations

from typing import Any

from engine.core import Choice, IllegalAction, State, rules_revision

from . import board, plans
from .data import MONSTERS, PETS, ROOMS, RULES, TRAPS
from .notation import IF_SPELL, describe, fit, load_words, parse_plan, pet_words

STALE = "That choice is no longer open; open your moves again."
ORD = {1: "1st", 2: "2nd", 3: "3rd"}
ANSWERS = {
    "peace:keep": "If the party casts Word of Peace: keep the monsters (gain 2 Evil)",
    "peace:withdraw": "If the party casts Word of Peace: withdraw the monsters",
    "suggestion:pay": "If the party casts Suggestion: pay each monster's cost to keep it",
    "suggestion:withdraw": "If the party casts Suggestion: withdraw the monsters",
    "installed:first": "The trap installed here springs before the Trap Card played",
    "installed:last": "The trap installed here springs after the Trap Card played",
}
PARTS = {
    "trap": "Spring a Trap Card",
    "at": "Aim the first Trap Card at an adventurer",
    "load": "Choose the monster loaded into the Monster Catapult",
    "installed": "Aim the trap installed here at an adventurer",
    "send": "Send a monster",
    "aim": "Aim a monster sent at an adventurer",
    "pet": "Bring a combat pet",
    "spell": "Answer a spell in advance",
}


def _new(tile: str) -> dict[str, Any]:
    return {"tile": tile, "traps": [], "at": None, "load": None, "iat": None, "send": [], "aims": {}, "pet": None,
            "if": []}  # fmt: skip


def text(plan: dict[str, Any]) -> str:
    """The plan in the notation /play makes of it (parts in the order of the plan form)."""
    out = ["fight", plan["tile"]]
    if plan["traps"]:
        out += ["trap", *plan["traps"]]
    if plan["at"] is not None:
        out += ["at", str(plan["at"])]
    if plan.get("load"):
        out += ["load", plan["load"]]
    if plan.get("iat") is not None:
        out.append(f"installed@{plan['iat']}")
    if plan["send"]:
        out.append("send")
        for i, tok in enumerate(plan["send"]):
            out.append(tok + (f"@{plan['aims'][i]}" if i in plan["aims"] else ""))
    if plan["pet"]:
        out += ["pet", plan["pet"]]
    out += [a for a in IF_SPELL if a in plan["if"]]
    return " ".join(out)


def _legal(state: State, seat: int, plan: dict[str, Any]) -> bool:
    try:
        plans.check(state, seat, text(plan))
    except IllegalAction:
        return False
    return True


def _with(plan: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    new = {**plan, "traps": list(plan["traps"]), "send": list(plan["send"]), "aims": dict(plan["aims"])}
    new["if"] = list(plan["if"])
    if key in ("traps", "send", "if"):
        new[key].append(value)
    elif key == "aims":
        new["aims"][value[0]] = value[1]
    else:
        new[key] = value
    return new


def _line(state: State, seat: int) -> list[dict[str, Any]]:
    """The party's line as the battle will stand it up (combat.Battle.line): an Illusion left
    from an earlier round, the paladin, the adventurers - what the seat sees now."""
    from .combat import paladin_here

    p = state["players"][seat]
    return [a for a in [p.get("illusion"), paladin_here(state, seat)] if a] + list(p["party"])


def _who(state: State, seat: int, n: int) -> str:
    """'the 2nd in line: the warrior (level 2)' as the seat sees the party now."""
    from .combat import label

    line = _line(state, seat)
    return f"the {ORD.get(n, f'{n}th')} in line: {label(line[n - 1])}"


def _aims(state: State, seat: int, kind: str) -> list[int]:
    """The places in line an aimed attack may pick (issue 29 item 16: only where someone
    stands, and only whom the attack may hit: not the first for 'anyone but the first', no
    priest for 'anyone but a priest'); empty for an attack that cannot be aimed."""
    line = _line(state, seat)
    if kind in ("choice", "any", "split"):
        return list(range(1, len(line) + 1))
    if kind == "notfirst":
        return list(range(2, len(line) + 1))
    if kind == "nonpriest":
        return [n for n, a in enumerate(line, 1) if a["cls"] != "priest"]
    return []


def _attack_kind(tok: str) -> str:
    return str(MONSTERS[tok.rstrip("+")]["options"][1 if tok.endswith("+") else 0]["kind"])


KIND = {
    "first": "{d} damage to the first in line",
    "all": "{d} damage to every adventurer",
    "notfirst": "{d} damage to anyone but the first in line",
    "any": "{d} damage to any adventurer",
    "nonpriest": "{d} damage to anyone but a priest",
    "split": "{d} damage to each of several adventurers",
    "noconquer": "no damage, but the tile cannot be conquered this round",
}


def _trap_cost(state: State, seat: int, tile: str, tid: str) -> dict[str, int]:
    """The Trap Card's price this Year, with the gold more a room asks (as plans.check counts)."""
    cost = dict(TRAPS[tid]["cost"][state["year"] - 1])
    t = board.tile(state["players"][seat], tile)
    if t["k"] == "r" and not ROOMS[t["room"]].get("combat", {}).get("no_surcharge"):
        cost["gold"] = cost.get("gold", 0) + RULES["room_trap_surcharge"]
    return cost


def _monster(tok: str) -> str:
    mid = tok.rstrip("+")
    way = MONSTERS[mid]["options"][1 if tok.endswith("+") else 0]
    what = KIND.get(way["kind"], "{d} damage").format(d=way["dmg"])
    if way.get("pay"):
        what += f" for {board.cost_text(way['pay'])}"
    if way.get("returns"):
        what += ", then it comes back ready"
    second = " (2nd attack)" if tok.endswith("+") else ""
    return fit(f"Send the {MONSTERS[mid]['name']}{second}: {what}")


def _items(state: State, seat: int, plan: dict[str, Any], part: str) -> list[tuple[str, str, Any]]:
    """(token, label, new plan) for each legal choice of ``part``."""
    p = state["players"][seat]
    out: list[tuple[str, str, Any]] = []
    if part == "trap":
        for tid in dict.fromkeys(p["traps"]):
            new = _with(plan, "traps", tid)
            cost = board.cost_text(_trap_cost(state, seat, plan["tile"], tid))
            out.append((f"trap-{tid}", fit(f"Spring {TRAPS[tid]['name']} (costs {cost})"), new))
    elif part == "at" and plan["at"] is None and plan["traps"]:
        # 'at n' aims the first Trap Card, and only a trap that lets you choose its victim.
        for n in _aims(state, seat, TRAPS[plan["traps"][0]]["target"]):
            out.append(
                (f"at-{n}", fit(f"The first Trap Card aims at {_who(state, seat, n)}"), _with(plan, "at", n))
            )
    elif part in ("load", "installed"):
        out += _new_items(state, seat, plan, part)
    elif part == "send":
        sent = [t.rstrip("+") for t in plan["send"]]
        up = [m["id"] for m in p["monsters"] if m["up"] is True]
        for mid in dict.fromkeys(up):
            if up.count(mid) > sent.count(mid):
                for k in range(len(MONSTERS[mid]["options"])):
                    tok = mid + "+" * k
                    out.append((f"send-{tok}", _monster(tok), _with(plan, "send", tok)))
    elif part == "aim":
        for i, tok in enumerate(plan["send"]):
            if i not in plan["aims"] and _aims(state, seat, _attack_kind(tok)):
                name = MONSTERS[tok.rstrip("+")]["name"]
                out.append((f"aim-{i + 1}", fit(f"Aim the {name} (sent {ORD.get(i + 1, f'{i + 1}th')})"), i))
    elif part == "pet" and plan["pet"] is None:
        for x in dict.fromkeys(p.get("pets", [])):
            if PETS[x]["when"] == "combat":
                out.append(
                    (f"pet-{x}", fit(f"Bring {PETS[x]['name']}: {pet_words(x)}"), _with(plan, "pet", x))
                )
    elif part == "spell":
        asked = {a.split(":")[0] for a in plan["if"]}
        # Installed traps exist only in Festival Season, and the answer matters only where one
        # lies on the tile fought on.
        installed = any(it["cell"] == plan["tile"] for it in p.get("installed", []))
        for a in IF_SPELL:
            if a.split(":")[0] not in asked and (installed or not a.startswith("installed:")):
                out.append((a, ANSWERS[a], _with(plan, "if", a)))
    return [(t, lbl, new) for t, lbl, new in out if not isinstance(new, dict) or _legal(state, seat, new)]


def _new_items(state: State, seat: int, plan: dict[str, Any], part: str) -> list[tuple[str, str, Any]]:
    """Revision 4's parts: the monster loaded into a Monster Catapult played from the hand
    ("loaded with a little monster or a big monster"), and the aim of a trap installed on
    the tile that hits "an adventurer of your choice"."""
    p = state["players"][seat]
    if rules_revision(state) < 4:
        return []
    if part == "load" and plan["load"] is None and "catapult" in plan["traps"]:
        home = [m["id"] for m in p["monsters"] if m["up"] is True and not m.get("pet")]
        out = []
        for mid in dict.fromkeys(home):
            dmg = board.catapult_damage(state, mid)
            label = fit(f"Load the catapult with the {load_words(mid)}: {dmg} damage")
            out.append((f"load-{mid}", label, _with(plan, "load", mid)))
        return out
    here = [it["trap"] for it in p.get("installed", []) if it["cell"] == plan["tile"]]
    if part == "installed" and plan["iat"] is None and any(TRAPS[t]["target"] == "choice" for t in here):
        name = next(TRAPS[t]["name"] for t in here if TRAPS[t]["target"] == "choice")
        return [
            (f"iat-{n}", fit(f"The installed {name} aims at {_who(state, seat, n)}"), _with(plan, "iat", n))
            for n in _aims(state, seat, "choice")
        ]
    return []


def _aim_items(state: State, seat: int, plan: dict[str, Any], i: int) -> list[tuple[str, str, Any]]:
    name = MONSTERS[plan["send"][i].rstrip("+")]["name"]
    return [
        (f"n-{n}", fit(f"The {name} hits {_who(state, seat, n)}"), _with(plan, "aims", (i, n)))
        for n in _aims(state, seat, _attack_kind(plan["send"][i]))
    ]


def _step(state: State, seat: int, plan: dict[str, Any] | None, pending: Any) -> tuple[str, list]:
    """(prompt, [(token, label, what choosing it leads to)]) of the step after ``plan``."""
    if plan is None:
        return "Choose the tile the party fights on.", [
            (t, f"Fight on {t}", _new(t)) for t in board.battle_tiles(state["players"][seat])
        ]
    if isinstance(pending, int):
        return "Choose whom that monster aims at.", _aim_items(state, seat, plan, pending)
    if pending is not None:
        return f"{PARTS[pending]}: choose.", _items(state, seat, plan, pending)
    parts = [(k, label, k) for k, label in PARTS.items() if _items(state, seat, plan, k)]
    return f"Your plan so far: {describe(state, seat, text(plan))}. Add to it, or press Done.", parts


def _walk(state: State, seat: int, prefix: list[str]) -> tuple[dict[str, Any] | None, Any]:
    plan: dict[str, Any] | None = None
    pending: Any = None
    for tok in prefix:
        _, opts = _step(state, seat, plan, pending)
        hit = [nxt for t, _, nxt in opts if t == tok]
        if not hit:
            raise IllegalAction(STALE)
        nxt = hit[0]
        if isinstance(nxt, dict):
            plan, pending = nxt, None
        else:
            pending = nxt  # a part of the menu, or the index of the monster to aim
    return plan, pending


def chooser(state: State, seat: int, prefix: list[str]) -> Choice:
    plan, pending = _walk(state, seat, prefix)
    prompt, opts = _step(state, seat, plan, pending)
    done = text(plan) if plan is not None and pending is None else None
    return Choice(prompt=fit(prompt, 200), options=[(t, lbl) for t, lbl, _ in opts], action=done)


def path(state: State, seat: int, action: str) -> list[tuple[str, str]]:
    """The chooser's (token, label) steps to the plan ``action`` (segments)."""
    plan = parse_plan(action)
    toks = [plan["tile"]]
    toks += [x for tid in plan["traps"] for x in ("trap", f"trap-{tid}")]
    toks += ["at", f"at-{plan['target']}"] if plan["target"] is not None else []
    toks += ["load", f"load-{plan['load']}"] if plan.get("load") else []
    toks += ["installed", f"iat-{plan['installed_at']}"] if plan.get("installed_at") else []
    for mid, opt in plan["send"]:
        toks += ["send", f"send-{mid}{'+' * opt}"]
    for i, n in sorted(plan.get("aim", {}).items()):
        toks += ["aim", f"aim-{i + 1}", f"n-{n}"]
    toks += ["pet", f"pet-{plan['pet']}"] if plan["pet"] else []
    toks += [
        x
        for a in IF_SPELL
        if a.split(":")[1] == plan.get("if", {}).get(a.split(":")[0])
        for x in ("spell", a)
    ]
    out: list[tuple[str, str]] = []
    for k, tok in enumerate(toks):
        _, opts = _step(state, seat, *_walk(state, seat, toks[:k]))
        out.append((tok, next((lbl for t, lbl, _ in opts if t == tok), tok)))
    return out
