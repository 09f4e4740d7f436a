"""Pure helpers on a Dungeon Lords state: cells, dungeon grids, resources, the
Evilometer and the paladin. No phase logic lives here (see game.py)."""

from __future__ import annotations

from typing import Any

from engine.core import Event, Rng, State, rules_revision, seat_ref

from .data import LOC, LOC_IDS, MONSTERS, ROOMS, RULES, TRAPS

COLS = RULES["grid"]["cols"]
ROWS = RULES["grid"]["rows"]
ENTRANCE = RULES["grid"]["entrance"]
EVIL = RULES["evilometer"]

Player = dict[str, Any]
DUMMY = -1  # the non-player's seat number (2 and 3 players)


def who(seat: int) -> str:
    """How engine texts name a seat: seat_ref, or the non-player."""
    return "the non-player" if seat == DUMMY else seat_ref(seat)


def how_many(state: State, k: int, noun: str) -> str:
    """``k`` of ``noun`` in the board's log: "1 imp", "2 Trap Cards". Revision-2 games
    wrote "2 Trap Card(s)", and their stored log must replay word for word (issue 39)."""
    if rules_revision(state) < 3:
        return f"{k} {noun}(s)"
    return f"{k} {noun}{'' if k == 1 else 's'}"


def left_alive(seat: int, n: int) -> str:
    """The line said when ``n`` adventurers leave ``seat``'s dungeon alive at the end of Combat."""
    gone = "1 adventurer leaves" if n == 1 else f"{n} adventurers leave"
    return f"{gone} {who(seat)}'s dungeon alive."


def log(state: State, ev: list[Event], text: str) -> None:
    """A public event that also stays in the board's short log."""
    ev.append(Event(text))
    state["log"] = (state["log"] + [text])[-12:]


def fail(state: State, seat: int, loc: str, ev: list[Event], why: str) -> None:
    """The order on ``loc`` is not carried out: its card comes back to hand at Retrieval."""
    for o in state["played"][str(seat)]:
        if o["loc"] == loc:
            o["ok"] = False
    log(state, ev, f"{who(seat)} does not use {LOC[loc]['name']}: {why}.")


def draw_traps(state: State, k: int) -> list[str]:
    """Draw ``k`` Trap Cards; an empty deck is refilled from the shuffled discards."""
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


# ---- cells -------------------------------------------------------------------------


def cell(col: int, row: int) -> str:
    return f"{chr(65 + col)}{row + 1}"


def coords(c: str) -> tuple[int, int]:
    return ord(c[0]) - 65, int(c[1:]) - 1


def is_number(w: str) -> bool:
    """Plain digits that int() reads quickly: '①'.isdigit() is True but int('①') raises, and a
    4,300-digit string is too long for int()."""
    return w.isascii() and w.isdigit() and len(w) <= 6


def is_cell(c: str) -> bool:
    if len(c) < 2 or len(c) > 3 or not c.isascii() or not c[1:].isdigit() or not c[0].isalpha():
        return False
    col, row = coords(c.upper())
    return 0 <= col < COLS and 0 <= row < ROWS


def neighbours(c: str) -> list[str]:
    return list(_nb(c))


def _nb(c: str) -> list[str]:
    # Pure geometry, asked for thousands of times a search: computed once a square (callers
    # outside this module get a copy).
    got = _NEIGHBOURS.get(c)
    if got is None:
        col, row = coords(c)
        got = []
        for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nc, nr = col + dc, row + dr
            if 0 <= nc < COLS and 0 <= nr < ROWS:
                got.append(cell(nc, nr))
        _NEIGHBOURS[c] = got
    return got


_NEIGHBOURS: dict[str, list[str]] = {}


def all_cells() -> list[str]:
    return [cell(c, r) for r in range(ROWS) for c in range(COLS)]


_ALL_CELLS = tuple(all_cells())


# ---- the dungeon -------------------------------------------------------------------


def tunnels(p: Player, unconquered_only: bool = False) -> list[str]:
    return [c for c, t in p["grid"].items() if t["k"] == "t" and not (unconquered_only and t["c"])]


def rooms(p: Player) -> list[str]:
    return [c for c, t in p["grid"].items() if t["k"] == "r"]


def room_ids(p: Player) -> list[str]:
    return [t["room"] for t in p["grid"].values() if t["k"] == "r"]


def conquered(p: Player) -> int:
    """Conquered tiles that count: rented rooms too, never the Secret Passage."""
    own = sum(1 for t in p["grid"].values() if t["c"] and t.get("imp") != "secret")
    return own + sum(1 for r in p.get("rented", []) if r["c"])


def _blocks(c: str) -> list[list[str]]:
    """The 2x2 blocks on the board that hold ``c``, each as its other three squares."""
    got = _BLOCKS.get(c)
    if got is None:
        col, row = coords(c)
        got = []
        for dc in (-1, 0):
            for dr in (-1, 0):
                block = [(col + dc + i, row + dr + j) for i in (0, 1) for j in (0, 1)]
                if all(0 <= bc < COLS and 0 <= br < ROWS for bc, br in block):
                    got.append([cell(bc, br) for bc, br in block if cell(bc, br) != c])
        _BLOCKS[c] = got
    return got


_BLOCKS: dict[str, list[list[str]]] = {}
for _c in _ALL_CELLS:  # the geometry of every square, listed once at import
    _nb(_c)
    _blocks(_c)


def makes_square(grid: dict[str, Any], c: str) -> bool:
    """Would a tile on ``c`` complete a 2x2 block of dungeon tiles?"""
    return any(all(b in grid for b in block) for block in _blocks(c))


def dig_cells(p: Player) -> list[str]:
    """Empty cells a new tunnel may go on: next to the dungeon, no 2x2 block."""
    grid = p["grid"]
    # The squares next to the dungeon are the neighbours of its tiles (adjacency is mutual).
    near = {n for c in grid for n in _nb(c)}
    out = []
    for c in _ALL_CELLS:
        if c in near and c not in grid:
            for block in _blocks(c):
                if block[0] in grid and block[1] in grid and block[2] in grid:
                    break
            else:
                out.append(c)
    return out


def in_zone(room_id: str, c: str) -> bool:
    zone = ROOMS[room_id].get("zone")
    if not zone:
        return True
    col, row = coords(c)
    if "rows" in zone and row not in zone["rows"]:
        return False
    if "cols" in zone and col not in zone["cols"]:
        return False
    if zone.get("edge") and not (col in (0, COLS - 1) or row in (0, ROWS - 1)):
        return False
    return True


def room_cells(p: Player, room_id: str) -> list[str]:
    """Unconquered tunnels a room may replace: in its zone, not next to another room."""
    grid = p["grid"]
    return [
        c
        for c in tunnels(p, unconquered_only=True)
        if in_zone(room_id, c) and not any(grid.get(n, {}).get("k") == "r" for n in neighbours(c))
    ]


def distances(p: Player) -> dict[str, int]:
    """Steps from the entrance, walking through the dungeon's tiles."""
    grid = p["grid"]
    dist = {ENTRANCE: 0}
    todo = [ENTRANCE]
    nbs = _NEIGHBOURS  # every square's, listed at import
    for c in todo:  # breadth first: the list grows behind the loop
        d = dist[c] + 1
        for n in nbs[c]:
            if n in grid and n not in dist:
                dist[n] = d
                todo.append(n)
    return dist


def battle_tiles(p: Player) -> list[str]:
    """The unconquered tiles closest to the entrance (the party may fight on any of them),
    plus any unconquered rented combat room (Festival Season: always an option)."""
    dist = distances(p)
    free = [c for c in dist if not p["grid"][c]["c"]]
    rented = [r["cell"] for r in p.get("rented", []) if not r["c"] and ROOMS[r["room"]].get("combat")]
    if not free:
        return []
    best = min(dist[c] for c in free)
    return sorted(c for c in free if dist[c] == best) + rented


def tile(p: Player, c: str) -> dict[str, Any]:
    """A dungeon tile or a rented room (cells R1, R2, ...)."""
    for r in p.get("rented", []):
        if r["cell"] == c:
            return r  # type: ignore[no-any-return]
    return p["grid"][c]  # type: ignore[no-any-return]


# ---- resources -----------------------------------------------------------------------


def free_imps(p: Player) -> int:
    return int(p["imps"] - p["used"] - p.get("trained", 0))


def can_pay(p: Player, cost: dict[str, int]) -> bool:
    for k, v in cost.items():
        if k == "evil":
            if p["evil"] + v > EVIL["max"]:
                return False
        elif k == "imps":
            if free_imps(p) < v:
                return False
        elif k == "traps":
            if len(p["traps"]) < v:
                return False
        elif k == "monster":
            if sum(1 for m in p["monsters"] if m["up"] is not False and not m.get("pet")) < v:
                return False
        elif p[k] < v:
            return False
    return True


UNITS = {"gold": ("gold", "gold"), "food": ("food", "food"), "imps": ("imp", "imps"),
         "traps": ("Trap Card", "Trap Cards"), "monster": ("monster", "monsters")}  # fmt: skip


def cost_text(cost: dict[str, int]) -> str:
    """A cost in words: '2 food and 1 Evil', '1 gold and 1 Trap Card', 'nothing'."""
    parts = []
    for k, v in cost.items():
        if not v:
            continue
        if k == "evil":
            parts.append(f"{v} Evil")
        else:
            one, many = UNITS.get(k, (k, k))
            parts.append(f"{v} {one if v == 1 else many}")
    if not parts:
        return "nothing"
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def pay(state: State, seat: int, cost: dict[str, int], ev: list[Event]) -> None:
    """Pay a cost the caller has checked with can_pay (Evil moves the counter up)."""
    p = state["players"][seat]
    for k, v in cost.items():
        if k == "evil":
            move_evil(state, seat, v, ev)
        elif k == "imps":
            p["imps"] -= v
        elif k == "traps":
            # Trap Cards as a price (the Golem): your weakest cards go, face down, to the discard
            # pile (house decision: the choice is automatic and nobody sees them).
            for _ in range(v):
                weakest = min(p["traps"], key=lambda t: (TRAPS[t]["dmg"][state["year"] - 1], t))
                p["traps"].remove(weakest)
                state["trap_discard"].append(weakest)
        elif k == "monster":
            for _ in range(v):
                load_catapult(state, seat)
        else:
            p[k] -= v


def load_catapult(state: State, seat: int, mid: str | None = None) -> str:
    """Load the Monster Catapult: the monster is discarded at once ("set it on the Trap Card so
    you can remember if the catapult is loaded with a little monster or a big monster").
    ``mid`` names the monster (revision 4: the lord chooses); without it the cheapest. From
    revision 3 never one sent into this battle ('busy'): it fights on the tile (decision 48).
    Returns the id of the monster loaded."""
    p = state["players"][seat]
    ready = [m for m in p["monsters"] if m["up"] is not False and not m.get("pet")]
    home = [m for m in ready if m["up"] is True]
    pick = home if home and rules_revision(state) >= 3 else ready
    named = [m for m in pick if m["id"] == mid]
    # Of two alike, the one without an Expertise Tile goes (its tile would be discarded too).
    loaded = (
        min(named, key=lambda m: bool(m.get("expert")))
        if named
        else min(pick, key=lambda m: MONSTERS[m["id"]]["rank"])
    )
    p["monsters"].remove(loaded)
    if rules_revision(state) >= 3:
        # A discarded tile goes to the discard pile, whatever discarded it: the festival may
        # hire it ("It does not matter whether it was discarded because no one chose it ...
        # or whether it was discarded for some other reason").
        state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(loaded["id"])
    return str(loaded["id"])


def catapult_damage(state: State, loaded: str | None) -> int:
    """The Monster Catapult's damage this Year: a big monster's figure when it is loaded with
    one (revision 4, house decision 51), otherwise the little monster's."""
    trap = TRAPS["catapult"]
    y = state["year"] - 1
    if rules_revision(state) >= 4 and loaded and MONSTERS[loaded].get("big"):
        return int(trap["dmg_big"][y])
    return int(trap["dmg"][y])


def monster_cost(mid: str, alt: bool = False) -> dict[str, int]:
    return dict(MONSTERS[mid]["cost_alt" if alt else "cost"])


def cost_ways(mid: str) -> list[bool]:
    """The ways to pay a monster: the printed cost, and the Cockatrice's Evil instead of food."""
    return [False, True] if MONSTERS[mid].get("cost_alt") else [False]


def edible(p: Player) -> list[dict[str, Any]]:
    """Monsters a Demon may eat (not another Demon, not a pet like Baby Golem)."""
    return [m for m in p["monsters"] if not MONSTERS[m["id"]].get("eats") and not m.get("pet")]


def feed_demon(state: State, seat: int, ev: list[Event]) -> None:
    """House rule: the new Demon eats your cheapest monster."""
    p = state["players"][seat]
    food = min(edible(p), key=lambda m: MONSTERS[m["id"]]["rank"])
    p["monsters"].remove(food)
    state.setdefault("discard", {"monsters": [], "rooms": []})["monsters"].append(food["id"])
    ev.append(Event(f"{who(seat)}'s new Demon eats a {MONSTERS[food['id']]['name']}."))


def counted(p: Player) -> dict[str, Any]:
    """The dungeon tiles that count (Taxes, scoring): the Secret Passage never counts."""
    return {c: t for c, t in p["grid"].items() if t.get("imp") != "secret"}


def counted_tunnels(p: Player, unconquered_only: bool = False) -> int:
    """The tunnels among the tiles that count (``counted``)."""
    return sum(
        1
        for t in p["grid"].values()
        if t["k"] == "t" and t.get("imp") != "secret" and not (unconquered_only and t["c"])
    )


# ---- Evilometer and paladin ---------------------------------------------------------------


def play_order(state: State) -> list[int]:
    n = state["seats"]
    return [(state["start"] + i) % n for i in range(n)]


def evil_rank_key(state: State, seat: int) -> tuple[int, int]:
    """Bigger = more evil. Ties: later in play order is more evil (the starting player is nicest)."""
    order = play_order(state)
    return state["players"][seat]["evil"], order.index(seat)


def move_evil(state: State, seat: int, delta: int, ev: list[Event]) -> None:
    p = state["players"][seat]
    before = p["evil"]
    p["evil"] = max(EVIL["min"], min(EVIL["max"], before + delta))
    if p["evil"] != before:
        check_paladin(state, ev)


def check_paladin(state: State, ev: list[Event]) -> None:
    """Place or move this Year's paladins after any Evil change.

    One general rule covers the base paladin, the elf and dwarf, and Three Paladins:
    the j-th paladin (in entry order, weakest first) enters when j players are on or
    above the paladin space at once; the candidates are the players on or above the
    space plus those who already have a paladin; ranked by Evil, ties going to the
    holder of the stronger paladin, then to later play order (the starting player is
    nicest); the paladins in play go strongest to the most evil. With one paladin this
    is the base rule: he moves only to a player on/above the space who is strictly more
    evil, and never leaves because his player drops (OFF, Festival Season p. 8)."""
    year = state["year"]
    pals = [p for p in state.get("paladins", []) if p.get("year", year) == year]
    if not any(p["status"] in ("tent", "field") for p in pals):
        return
    line = EVIL["paladin"]
    evil = {s: state["players"][s]["evil"] for s in range(state["seats"])}
    dummy = state.get("dummy", {})
    x = state.get("x") or {}
    building = state.get("phase") not in ("plan", "combat_end")
    if x.get("exp") and building and dummy.get("evil") is not None and not dummy.get("pal_ignored"):
        evil[-1] = dummy["evil"]  # 2 players: the non-player counter is treated as a player
    ignored = set(state.get("pal_ignore", {}).get(str(year), []))
    for s in ignored:
        evil.pop(s, None)
    at_line = [s for s in evil if evil[s] >= line]
    order = play_order(state)
    entered = [p for p in pals if p["status"] != "tent"]
    want = min(len(pals), len(at_line))
    for p in pals:
        if len(entered) >= want:
            break
        if p["status"] == "tent":
            p["status"] = "field"
            entered.append(p)
    active = [p for p in pals if p["status"] == "field"]
    strength = {id(p): i + 1 for i, p in enumerate(pals)}
    held = {p["at"]: strength[id(p)] for p in active if p["at"] is not None and p["at"] in evil}
    cands = set(at_line) | set(held)

    def key(s: int) -> tuple[int, int, int]:
        return evil[s], held.get(s, 0), order.index(s) if s >= 0 else -1

    ranked = sorted(cands, key=key, reverse=True)
    for pal, seat in zip(sorted(active, key=lambda p: -strength[id(p)]), ranked, strict=False):
        if pal["at"] == seat:
            continue
        if pal["at"] is None:
            ev.append(Event(f"The {pal['name']} sets out for the dungeon of {who(seat)}."))
        else:
            ev.append(Event(f"The {pal['name']} moves from {who(pal['at'])}'s dungeon to {who(seat)}'s."))
        pal["at"] = seat
    for pal in active:
        if pal["at"] == -1:
            # Festival Season, 2 players: a paladin assigned to the non-player goes to the
            # Distant Lands, and from then on paladins ignore the non-player.
            pal["status"] = "gone"
            pal["at"] = None
            dummy["pal_ignored"] = True
            ev.append(Event(f"The {pal['name']} leaves for the Distant Lands (the non-player's dungeon)."))


def hand(p: Player) -> list[str]:
    return [loc for loc in LOC_IDS if loc not in p["inacc"]]
