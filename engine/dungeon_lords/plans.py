"""Battle plans in Combat: checking a plan ('fight C1 trap stone send troll') and the
finite list of representative plans offered as moves (apply accepts any legal plan)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import IllegalAction, State, rules_revision

from . import board
from .data import MONSTERS, PETS, ROOMS, RULES, TRAPS
from .notation import parse_plan


def check(state: State, seat: int, text: str) -> None:
    _check(state, seat, parse_plan(text), board.battle_tiles(state["players"][seat]))


def _check(state: State, seat: int, plan: dict[str, Any], tiles: list[str]) -> None:
    """``check`` on a parsed plan, the battle tiles given (options checks dozens of plans)."""
    p = state["players"][seat]
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
    if need.get("monster") and rules_revision(state) >= 3:
        # The catapult is loaded with a monster that stays home: one sent fights (decision 48).
        home = sum(1 for m in p["monsters"] if m["up"] is True and not m.get("pet"))
        if home - len([m for m, _ in plan["send"] if m != "babygolem"]) < need["monster"]:
            raise IllegalAction(
                "The Monster Catapult needs a monster of yours that is not sent into this battle."
            )
    _check_new_words(state, p, plan)
    limit = RULES["monster_limit"]["room" if room else "tunnel"]
    sent_ids = [m for m, _ in plan["send"]]
    if plan["pet"] == "babygolem" and rules_revision(state) >= 3:
        # The pet card sends him into this battle: "he will count toward your monster limit
        # (unless you send him with a big golem)" (issue 29 item 11).
        sent_ids.append("babygolem")
    if "babygolem" in sent_ids and "golem" in sent_ids:
        limit += 1  # Baby Golem does not count when he comes along with a big golem
    if len(sent_ids) > limit:
        golem = " (Baby Golem counts)" if "babygolem" in sent_ids else ""
        raise IllegalAction(f"At most {limit} monsters may fight in a {'room' if room else 'tunnel'}{golem}.")
    up = [m["id"] for m in p["monsters"] if m["up"] is True]
    for mid, opt in plan["send"]:
        if mid not in up:
            raise IllegalAction(f"You have no ready {MONSTERS.get(mid, {}).get('name', mid)}.")
        up.remove(mid)
        if opt >= len(MONSTERS[mid]["options"]):
            raise IllegalAction(f"The {MONSTERS[mid]['name']} has only one way to attack.")


def _check_new_words(state: State, p: dict[str, Any], plan: dict[str, Any]) -> None:
    """Revision 4's plan words: the monster loaded into the Monster Catapult ('load troll')
    and the aim of a trap installed on the tile ('installed@2')."""
    if rules_revision(state) < 4:
        if plan.get("load") or plan.get("installed_at"):
            raise IllegalAction(
                "This game began under older rules: the catapult and installed traps are automatic."
            )
        return
    mid = plan.get("load")
    if mid is not None:
        if "catapult" not in plan["traps"]:
            raise IllegalAction("Only a Monster Catapult played from your hand is loaded in the plan.")
        home = [m["id"] for m in p["monsters"] if m["up"] is True and not m.get("pet")]
        for sent, _ in plan["send"]:
            if sent in home:
                home.remove(sent)
        if mid not in home:
            name = MONSTERS.get(mid, {}).get("name", mid)
            raise IllegalAction(
                f"Load the catapult with a monster at home that is not sent: you have no {name} left."
            )
    if plan.get("installed_at") is not None and not any(
        it["cell"] == plan["tile"] and TRAPS[it["trap"]]["target"] == "choice"
        for it in p.get("installed", [])
    ):
        raise IllegalAction("No trap that lets you choose its victim is installed on that tile.")


def options(state: State, seat: int) -> list[str]:
    """A representative, finite set of legal plans (apply accepts any legal plan)."""
    return list(each(state, seat))


def each(state: State, seat: int) -> Iterator[str]:
    """``options`` one at a time (whether a lord has a choice needs only the first two)."""
    p = state["players"][seat]
    tiles = board.battle_tiles(p)
    up = [m["id"] for m in p["monsters"] if m["up"] is True]
    up.sort(key=lambda m: -MONSTERS[m]["rank"])
    seen: set[str] = set()
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
        pets = [x for x in dict.fromkeys(p.get("pets", [])) if PETS[x]["when"] == "combat"]
        # A combat pet goes with the full send (and no trap) to keep the list short.
        combos = [(tr, sd, None) for tr in traps for sd in sends] + [
            ([], sd, pt) for pt in pets for sd in ([sends[1], sends[1][:-1]] if len(sends) > 1 else [[]])
        ]
        for tr, sd, pet in combos:
            text = (
                f"fight {tile}"
                + (" trap " + " ".join(tr) if tr else "")
                + (" send " + " ".join(sd) if sd else "")
                + (f" pet {pet}" if pet else "")
            )
            if text in seen:
                continue
            # The plan parse_plan reads from ``text``, built from its parts.
            plan = {"tile": tile, "traps": list(tr), "target": None, "pet": pet,
                    "send": [(w.rstrip("+"), 1 if w.endswith("+") else 0) for w in sd]}  # fmt: skip
            try:
                _check(state, seat, plan, tiles)
            except IllegalAction:
                continue
            seen.add(text)
            yield text
