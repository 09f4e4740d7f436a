"""Dungeon Lords component data, loaded from data/dungeon-lords/*.json and
validated at import: a broken data file must stop the bot at start-up, not in
the middle of a game. Every number the lost base rulebook held lives in these
files; docs/rules/dungeon-lords.md says which are house decisions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DIR = Path(__file__).resolve().parents[2] / "data" / "dungeon-lords"

RESOURCES = {"gold", "food", "imps", "evil", "traps", "monster"}
LOC_IDS = ("food", "rep", "dig", "mine", "imps", "traps", "monster", "room")
ATTACK_KINDS = {"first", "all", "notfirst", "nonpriest", "any", "split", "noconquer"}
TRAP_TARGETS = {"first", "second", "all", "choice", "last"}
CLASSES = ("warrior", "thief", "priest", "wizard", "bard")
SPELL_EFFECTS = {
    "peace", "suggestion", "shield", "invisibility", "evil2", "lose_imp", "treasure", "none", "graffiti",
    "fear", "sheep", "gate", "rage", "illusion", "create_food", "regenerate", "courage", "key",
    "double_fatigue", "halve_fatigue",
}  # fmt: skip
SPECIALS = {
    "witchhunt",
    "strike",
    "audit",
    "harvest",
    "goldrush",
    "inquisition",
    "pilgrims",
    "impflu",
    "pardon",
    "petfair",
    "feast",
    "tunnelaudit",
    "muster",
}
MEASURES = {"evil", "rooms", "tunnels", "monsters", "imps", "gold_food", "battle"}


class DataError(ValueError):
    """A data/dungeon-lords file is missing a field or holds an impossible value."""


def _load(name: str) -> Any:
    path = DIR / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: cannot read ({exc})") from exc


def _check(cond: bool, name: str, msg: str) -> None:
    if not cond:
        raise DataError(f"{DIR / name}: {msg}")


def _is_cost(d: Any) -> bool:
    return isinstance(d, dict) and all(k in RESOURCES and isinstance(v, int) and v >= 0 for k, v in d.items())


def validate_rules(doc: Any) -> dict[str, Any]:
    n = "rules.json"
    need = {"years", "seasons_per_year", "combat_rounds", "start", "grid", "evilometer", "adventurers_per_round",
            "monster_limit", "taxes", "scoring", "titles", "class_order", "build_room_gold"}  # fmt: skip
    _check(isinstance(doc, dict) and need <= set(doc), n, f"needs the fields {sorted(need)}")
    ev = doc["evilometer"]
    _check(
        ev["min"] <= ev["start"] < ev["paladin"] <= ev["max"],
        n,
        "evilometer needs min <= start < paladin <= max",
    )
    _check(
        doc["seasons_per_year"] >= 2 and doc["combat_rounds"] >= 1,
        n,
        "a Year needs 2+ seasons and 1+ combat rounds",
    )
    g = doc["grid"]
    _check(
        g["cols"] * g["rows"] >= 6 and g["entrance"] in doc["start"]["tunnels"],
        n,
        "the entrance must be a starting tunnel",
    )
    _check(
        set(doc["adventurers_per_round"]) == {"2", "3", "4"},
        n,
        "adventurers_per_round needs 2, 3 and 4 players",
    )
    _check(sorted(doc["class_order"]) == sorted(CLASSES), n, "class_order must list the five classes")
    _check(len(doc["build_room_gold"]) == 3, n, "build_room_gold needs one price per space")
    for t in doc["titles"]:
        _check(t["measure"] in MEASURES, n, f"unknown title measure {t['measure']!r}")
    return dict(doc)


def validate_locations(doc: Any) -> list[dict[str, Any]]:
    n = "locations.json"
    locs: list[dict[str, Any]] = doc.get("locations", []) if isinstance(doc, dict) else []
    _check(
        bool(locs) and tuple(loc["id"] for loc in locs) == LOC_IDS,
        n,
        f"locations must be {LOC_IDS} in resolution order",
    )
    for loc in locs:
        _check(
            len(loc["spaces"]) == 3 and sorted(loc["resolve"]) == [0, 1, 2],
            loc["id"],
            "needs 3 spaces and a resolve order",
        )
        for sp in loc["spaces"]:
            _check(_is_cost(sp["pay"]), n, f"{loc['id']}: bad pay {sp['pay']}")
    return list(locs)


def validate_monsters(doc: Any) -> dict[str, dict[str, Any]]:
    n = "monsters.json"
    out: dict[str, dict[str, Any]] = {}
    for m in doc["monsters"]:
        _check(
            _is_cost(m["cost"]) and len(m["copies"]) == 2 and m["options"],
            n,
            f"monster {m.get('id')} is incomplete",
        )
        for o in m["options"]:
            _check(o["kind"] in ATTACK_KINDS and isinstance(o["dmg"], int), n, f"{m['id']}: bad attack {o}")
        out[m["id"]] = m
    for y in (0, 1):
        base = sum(m["copies"][y] for m in out.values() if not m.get("exp"))
        _check(base == 12, n, f"Year {y + 1} needs 12 base monster tiles")
        _check(
            sum(m["copies"][y] for m in out.values()) >= 15, n, f"Year {y + 1} needs 15 tiles for 5 seasons"
        )
    return out


def validate_rooms(doc: Any) -> dict[str, dict[str, Any]]:
    n = "rooms.json"
    out: dict[str, dict[str, Any]] = {}
    for r in doc["rooms"]:
        _check(r["year"] in (1, 2), n, f"room {r.get('id')} needs year 1 or 2")
        if r["year"] == 1:
            _check(
                "zone" in r and isinstance(r["imps"], int) and _is_cost(r["pay"]),
                n,
                f"room {r['id']} needs zone, imps, pay",
            )
        else:
            _check("combat" in r or "scoring" in r, n, f"room {r['id']} needs a combat or scoring effect")
        out[r["id"]] = r
    for y in (1, 2):
        _check(
            sum(1 for r in out.values() if r["year"] == y and not r.get("exp")) == 8,
            n,
            f"Year {y}: 8 base rooms",
        )
        _check(
            sum(1 for r in out.values() if r["year"] == y) >= 10, n, f"Year {y} needs 10 rooms for 5 seasons"
        )
    return out


def validate_traps(doc: Any) -> tuple[int, dict[str, dict[str, Any]]]:
    n = "traps.json"
    out: dict[str, dict[str, Any]] = {}
    for t in doc["traps"]:
        _check(
            t["target"] in TRAP_TARGETS and len(t["dmg"]) == 2 and len(t["cost"]) == 2,
            n,
            f"trap {t.get('id')} is incomplete",
        )
        _check(all(_is_cost(c) for c in t["cost"]), n, f"trap {t['id']} has a bad cost")
        out[t["id"]] = t
    _check(
        doc["copies"] * sum(1 for t in out.values() if not t.get("exp")) == 27,
        n,
        "the base game has 27 Trap Cards",
    )
    return int(doc["copies"]), out


def validate_adventurers(doc: Any) -> dict[str, Any]:
    n = "adventurers.json"
    for y in ("1", "2"):
        advs = doc["adventurers"][y]
        _check(sum(1 for a in advs if not a.get("exp")) == 16, n, f"Year {y} needs 16 base adventurers")
        _check(len(doc["paladins_exp"][y]) == 2, n, f"Year {y} needs an elven and a dwarven paladin")
        for a in advs:
            _check(a["cls"] in CLASSES and a["hp"] > 0 and a["icons"] >= 0, n, f"bad adventurer {a}")
        _check(len(doc["paladins"][y]) >= 1, n, f"Year {y} needs a paladin")
        for p in doc["paladins"][y] + doc["paladins_exp"][y]:
            _check(p["hp"] > 0 and {"trap", "heal", "spell", "points", "id"} <= set(p), n, f"bad paladin {p}")
    return dict(doc)


def validate_combat(doc: Any) -> dict[str, Any]:
    n = "combat.json"
    for y in ("1", "2"):
        cards = doc["cards"][y]
        _check(sum(1 for c in cards if not c.get("exp")) == 9, n, f"Year {y} needs 9 base Combat Cards")
        for c in cards:
            _check(
                c["effect"] in SPELL_EFFECTS and c["speed"] in ("fast", "slow") and c["fatigue"] >= 0,
                n,
                f"bad card {c}",
            )
    return dict(doc)


def validate_events(doc: Any) -> dict[str, Any]:
    n = "events.json"
    _check(set(doc["tiles"]) == {"taxes", "payday", "special"}, n, "tiles must be taxes, payday, special")
    _check(sorted(doc["tiles_exp"]) == ["payday", "special", "special", "taxes"], n, "tiles_exp: 2 specials")
    _check(
        sum(1 for s in doc["specials"] if not s.get("exp")) == 9
        and {s["id"] for s in doc["specials"]} == SPECIALS,
        n,
        f"specials must be {sorted(SPECIALS)}",
    )
    return dict(doc)


BOARD_LOCS = set(LOC_IDS)
PET_WHEN = {"build", "combat", "scoring"}


def validate_opportunities(doc: Any) -> dict[str, Any]:
    n = "opportunities.json"
    boards = doc.get("boards", []) if isinstance(doc, dict) else []
    _check(len(boards) == 8, n, "there are 8 Unique Opportunity boards")
    _check({b["replaces"] for b in boards} == BOARD_LOCS, n, "each board replaces a different location")
    for b in boards:
        _check(len(b["spaces"]) == 3 and sorted(b["resolve"]) == [0, 1, 2], n, f"{b['id']}: 3 spaces")
        for sp in b["spaces"]:
            _check(_is_cost(sp.get("pay", {})), n, f"{b['id']}: bad pay")
    _check(len(doc["improved_tunnels"]) == 5, n, "there are 5 Improved Tunnel Tiles")
    _check(set(doc["expertise"]) == {"clever", "cruel", "large"}, n, "3 Expertise Tiles")
    return dict(doc)


def validate_pets(doc: Any) -> dict[str, Any]:
    n = "pets.json"
    _check(
        isinstance(doc, dict) and bool(doc.get("pets")) and doc.get("copies", 0) >= 1,
        n,
        "needs pets and copies",
    )
    for p in doc["pets"]:
        _check(p["when"] in PET_WHEN and p["id"] and p["name"], n, f"bad pet {p}")
    _check(len(doc["pets"]) * doc["copies"] >= 24, n, "the Pet Deck needs at least 24 cards")
    return dict(doc)


RULES = validate_rules(_load("rules.json"))
LOCATIONS = validate_locations(_load("locations.json"))
LOC = {loc["id"]: loc for loc in LOCATIONS}
MONSTERS = validate_monsters(_load("monsters.json"))
ROOMS = validate_rooms(_load("rooms.json"))
TRAP_COPIES, TRAPS = validate_traps(_load("traps.json"))
ADVENTURERS = validate_adventurers(_load("adventurers.json"))
COMBAT = validate_combat(_load("combat.json"))
CARDS = {c["id"]: c for y in ("1", "2") for c in COMBAT["cards"][y]}
EVENTS = validate_events(_load("events.json"))
SPECIAL = {s["id"]: s for s in EVENTS["specials"]}
OPPS = validate_opportunities(_load("opportunities.json"))
BOARDS = {b["id"]: b for b in OPPS["boards"]}
IMPROVED = {t["id"]: t for t in OPPS["improved_tunnels"]}
PETS_DOC = validate_pets(_load("pets.json"))
PETS = {p["id"]: p for p in PETS_DOC["pets"]}
