"""Dungeon Lords boards, drawn from views only.

``board``: the central board (order spaces with the minions on them, what is on offer,
events and adventurers to come, the Evilometer) and every player's dungeon (a 5 x 4 grid
with coordinates, rooms by name, monsters, party, prison); on the last board the final
scores and the winner instead of the central board. ``area``: one seat's own dungeon and
hand (Trap Cards, orders, Combat Cards seen, pets) from that seat's view, at about twice
the scale, for its private reply. ``steps``: the combat images (render/dungeon_lords_combat.py).

Players are named with ``names`` (display names by seat); the component names come from
``view["components"]``, the printed names the table can read.
"""

from __future__ import annotations

from typing import Any

from render import Renderer, default_names
from render.base import PALETTE, box, canvas, grid, seat_colour, text, text_width, to_palette, to_png
from render.dungeon_lords_combat import FULLY, HEADER, adventurer, named, steps, wrap

W = 1200
CLS_WORDS = {"warrior": "Warrior", "thief": "Thief", "priest": "Priest", "wizard": "Wizard", "bard": "Bard"}
EVENT_WORDS = {"taxes": "Taxes", "payday": "Pay Day", "special": "a Special Event"}
# The opportunity board that replaces each location for a season (Festival Season).
REPLACES = {
    "harvest": "food", "masquerade": "rep", "improve": "dig", "invest": "mine", "petshop": "imps",
    "install": "traps", "expert": "monster", "rent": "room",
}  # fmt: skip
BOARD_NAMES = {
    "harvest": "Harvest Food", "masquerade": "Masquerade", "improve": "Improve Tunnels", "invest": "Invest Gold",
    "petshop": "Acquire Pet", "install": "Install Traps", "expert": "Expert Monster", "rent": "Rent Rooms",
}  # fmt: skip
# Improved tunnels are violet, not the palette's purple: that is the fourth seat's colour
# (issue 28: "seat colours never equal a component's colour in the same game").
TILE = {"t": PALETTE["brown"], "r": PALETTE["blue"], "c": (70, 70, 78), "imp": (140, 110, 215)}
# The colours of the marks drawn on a dungeon beside the tiles: an installed trap, the entrance.
MARKS = {"trap": PALETTE["yellow"], "entrance": PALETTE["accent"], "new": PALETTE["white"]}
# The type floor (issue 28: "no text under 26 px; the title, whose turn, scores and the
# numbers a player decides by at 36 px or more", on a 1,200-px image).
TEXT_MIN = 30  # issue 40
BODY = 30
KEY = 40
TITLE = 40
SMALL = TEXT_MIN
STEP = TEXT_MIN + 6  # the line step of the smallest text


def _chip(draw: Any, x: float, y: float, seat: int | None, size: int = BODY, w: int | None = None) -> None:
    """A minion token: the seat's colour and number (grey X: the non-player)."""
    w = w or size + 12
    col = PALETTE["grey"] if seat is None or seat < 0 else seat_colour(seat)
    draw.rounded_rectangle((x, y, x + w, y + size + 8), radius=6, fill=col, outline=PALETTE["black"])
    label = "X" if seat is None or seat < 0 else str(seat + 1)
    text(draw, (x + w / 2, y + (size + 8) / 2), label, size, "black", "mm")


def _comp(view: dict[str, Any], kind: str, key: str) -> str:
    return str(view["components"][kind].get(key, key))


SPEED = {"fast": "fast spell", "slow": "slow spell"}


def card_words(view: dict[str, Any], cid: str) -> str:
    """A Combat Card in words: 'Invisibility (fast spell, fatigue 0)' (issue 26: never the
    component record itself)."""
    card = view["components"]["cards"].get(cid)
    if not isinstance(card, dict):
        return str(card or cid)
    speed = SPEED.get(str(card.get("speed")), str(card.get("speed") or ""))
    return f"{card['name']} ({speed}, fatigue {card['fatigue']})" if speed else f"{card['name']}"


def _lines(draw: Any, x: int, y: int, parts: list[tuple[str, str]], width: int, size: int = BODY,
           role: str | None = None) -> int:  # fmt: skip
    """Wrapped lines (text, colour) from (x, y); returns the y below them."""
    for s, colour in parts:
        for line in wrap(s, width, size):
            text(draw, (x, y), line, size, colour, role=role)
            y += size + 6
    return y


# ---- header and the final result ----------------------------------------------------------------
def _title(view: dict[str, Any]) -> str:
    if view["phase"] == "over":
        return "Dungeon Lords - final scores"
    if view["combat_round"]:
        return f"Dungeon Lords - Year {view['year']} combat, round {view['combat_round']} of {view['combat_rounds']}"
    return f"Dungeon Lords - Year {view['year']}, season {view['round']} of {view['seasons']}"


def status_line(view: dict[str, Any], names: list[str]) -> str:
    """Whose turn it is and to do what; on the last board, who won."""
    res = view.get("result")
    if not res:
        return named(view["status"], names)
    won = " and ".join(names[s] for s in res["winners"])
    best = max(res["scores"])
    return f"{won} {'win' if len(res['winners']) > 1 else 'wins'} with {best} points."


def _header_lines(view: dict[str, Any], names: list[str]) -> tuple[list[str], int]:
    return wrap(status_line(view, names), W - 32, KEY)[:2], KEY


def _header(draw: Any, view: dict[str, Any], names: list[str]) -> int:
    lines, size = _header_lines(view, names)
    h = 66 + (size + 8) * len(lines)
    draw.rectangle([0, 0, W, h], fill=PALETTE["panel"])
    text(draw, (16, 10), _title(view), TITLE, "accent", role="title")
    for i, line in enumerate(lines):
        text(
            draw,
            (16, 60 + (size + 8) * i),
            line,
            size,
            "yellow" if view.get("result") else "text",
            role="turn",
        )
    return h + 12


RESULT_ROW = 170
LOC_H = 96
GRID_Y = 96  # a dungeon grid's top in its panel (the column letters above it)
CELL = 56


def _result(draw: Any, view: dict[str, Any], names: list[str], y: int) -> int:
    """Places, names, scores (large) and each score's parts (up to three lines)."""
    res = view["result"]
    place = 1
    for group in res["ranking"]:
        for s in group:
            winner = s in res["winners"]
            colour = "accent" if winner else "text"
            box(
                draw,
                (8, y, W - 8, y + RESULT_ROW - 8),
                "panel2" if winner else "panel",
                seat_colour(s),
                4 if winner else 2,
            )
            _chip(draw, 20, y + 14, s, BODY)
            text(draw, (76, y + 10), f"{place}. {names[s]}" + ("  - WINNER" if winner else ""), KEY, colour,
                role="score")  # fmt: skip
            score = res["scores"][s]
            text(draw, (W - 24, y + 10), f"{score} point{'' if abs(score) == 1 else 's'}", KEY, colour, "ra",
                role="score")  # fmt: skip
            parts = ", ".join(f"{k} {v:+d}" for k, v in res["breakdown"][s].items() if v) or "no points"
            for k, line in enumerate(wrap(parts, W - 100, TEXT_MIN)[:3]):
                text(draw, (76, y + 58 + STEP * k), line, TEXT_MIN, "muted")
            y += RESULT_ROW
        place += len(group)
    return y + 6


# ---- the central board --------------------------------------------------------------------------
def _locations(draw: Any, view: dict[str, Any], y: int) -> int:
    """The eight locations in two rows of four, each with its spaces I, II, III and the
    minions on them (a chip with the seat's number; X the non-player)."""
    w = W // 4
    now = (view.get("opps") or {}).get("now")
    new = (view.get("changed") or {}).get("spaces", [])
    for i, (loc, name) in enumerate(view["components"]["locations"].items()):
        x, yy = (i % 4) * w + 4, y + (i // 4) * LOC_H
        swapped = bool(now) and REPLACES.get(now) == loc
        box(draw, (x, yy, x + w - 8, yy + LOC_H - 8), "panel2" if swapped else "panel")
        title = BOARD_NAMES[now] if swapped and now else name
        text(draw, (x + 10, yy + 6), title, BODY, "yellow" if swapped else "accent")
        for k, occ in enumerate(view["board"].get(loc, [None, None, None])):
            sx = x + 10 + k * 94
            text(draw, (sx, yy + 52), "I" * (k + 1), TEXT_MIN, "muted")
            if occ is not None:
                cx = sx + 8 + text_width("I" * (k + 1), TEXT_MIN)
                if [loc, k] in new:
                    draw.rounded_rectangle(
                        (cx - 4, yy + 40, cx + 40, yy + 82), radius=8, outline=MARKS["new"], width=4
                    )
                _chip(draw, cx, yy + 44, occ, TEXT_MIN, 36)
    return y + 2 * LOC_H + 6


def _offer_lines(view: dict[str, Any], names: list[str]) -> list[tuple[str, str]]:
    offer = view["offer"]
    mons = ", ".join(_comp(view, "monsters", m) for m in offer["monsters"]) or "none"
    rooms = ", ".join(_comp(view, "rooms", r) for r in offer["rooms"]) or "none"
    advs = ", ".join(adventurer(a) for a in view["next_advs"]) or "none"
    ev = EVENT_WORDS.get(view["event"] or "", "nothing")
    nxt = EVENT_WORDS.get(view["next_event"] or "", "nothing")
    out = [(f"Monsters for hire: {mons}.   Rooms to build: {rooms}.", "text")]
    out.append((f"This season: {ev}.   Next season: {nxt}.   Adventurers coming: {advs}.", "text"))
    pals = []
    for p in view["paladins"]:
        if p.get("year", view["year"]) != view["year"]:
            continue
        where = {"tent": "waits in his tent", "field": "", "prison": "is in prison"}.get(
            p["status"], p["status"]
        )
        if p["status"] == "field" and p["at"] is not None:
            where = f"is in {names[p['at']]}'s dungeon" if p["at"] >= 0 else "is with the non-player"
        pals.append(f"The {p['name']} ({p['hp'] - p['dmg']} of {p['hp']} health) {where}")
    if pals:
        out.append(("; ".join(pals) + ".", "text"))
    if view["combat_round"]:
        cards = [card_words(view, c) if c else "face down" for c in view["combat_cards"]]
        out.append(("Combat Cards: " + ", ".join(f"{i + 1} {c}" for i, c in enumerate(cards)) + ".", "text"))
    return out + _expansion_lines(view, names)


def _expansion_lines(view: dict[str, Any], names: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    opps = view.get("opps") or {}
    if opps.get("next"):
        out.append((f"Next season's opportunity: {BOARD_NAMES[opps['next']]}.", "yellow"))
    if opps.get("traps"):
        out.append(
            ("Trap Expo: " + ", ".join(_comp(view, "traps", t) for t in opps["traps"]) + ".", "yellow")
        )
    fest = view.get("festival")
    if fest:
        prizes = ", ".join(BOARD_NAMES[b] for b in fest["boards"])
        if fest["bids"] is None:
            who = ", ".join(names[s] for s in fest["bid"]) or "nobody yet"
            out.append((f"Festival (prizes: {prizes}): imps sent secretly by {who}.", "yellow"))
        else:
            bids = ", ".join(f"{names[int(s)]} {b}" for s, b in sorted(fest["bids"].items()))
            out.append((f"Festival (prizes: {prizes}): imps sent: {bids}.", "yellow"))
    if view.get("pet_chosen") is not None:
        who = ", ".join(names[s] for s in view["pet_chosen"]) or "nobody yet"
        out.append((f"Pet Phase: pets chosen by {who}.", "yellow"))
    if view["dummy"]["cards"]:
        dummy = ", ".join(_comp(view, "locations", c) for c in view["dummy"]["cards"])
        out.append((f"Non-player (X) orders: {dummy}.", "muted"))
    return out


def _evilometer(draw: Any, view: dict[str, Any], y: int) -> int:
    ev = view["evilometer"]
    n = ev["max"] - ev["min"] + 1
    cw = (W - 16) // n
    text(
        draw, (12, y), "Evil-ometer - red: the paladin comes to the most evil lord there", TEXT_MIN, "accent"
    )
    y += STEP + 4
    cells: list[list[int | None]] = []
    for i in range(n):
        v = ev["min"] + i
        here: list[int | None] = [p["seat"] for p in view["players"] if p["evil"] == v]
        if view["dummy"]["evil"] == v:
            here.append(None)
        cells.append(here)
    rows = max(1, max((len(h) + 1) // 2 for h in cells))
    h = 36 + rows * 36
    for i, here in enumerate(cells):
        v, x = ev["min"] + i, 8 + i * cw
        draw.rectangle((x, y, x + cw - 3, y + h), fill=PALETTE["bad" if v >= ev["paladin"] else "panel2"])
        text(draw, (x + cw / 2, y + 16), str(v), TEXT_MIN, "text", "mm")
        for k, s in enumerate(here):
            _chip(draw, x + 3 + (k % 2) * (cw // 2 - 1), y + 34 + (k // 2) * 36, s, TEXT_MIN, cw // 2 - 4)
    return y + h + 12


# ---- a dungeon ----------------------------------------------------------------------------------
def draw_grid(
    draw: Any, p: dict[str, Any], gx: int, gy: int, cell: int, size: int, new: frozenset[str] = frozenset()
) -> None:
    """The 5 x 4 dungeon: tunnels brown, rooms blue, improved tunnels violet, conquered tiles
    dark and crossed, an installed trap a yellow corner; coordinates around it; the entrance
    marked above C1."""
    traps = {it["cell"] for it in p.get("installed", [])}
    for c, t in p["grid"].items():
        ci, ri = ord(c[0]) - 65, int(c[1:]) - 1
        r = (gx + ci * cell + 2, gy + ri * cell + 2, gx + (ci + 1) * cell - 2, gy + (ri + 1) * cell - 2)
        colour = TILE["c"] if t["c"] else TILE["imp"] if t.get("imp") else TILE[t["k"]]
        draw.rectangle(r, fill=colour)
        if t["k"] == "r" and not t["c"]:
            draw.rectangle((r[0] + 5, r[1] + 5, r[2] - 5, r[3] - 5), outline=PALETTE["white"], width=2)
        if t["c"]:
            draw.line((r[0] + 6, r[1] + 6, r[2] - 6, r[3] - 6), fill=PALETTE["bad"], width=4)
            draw.line((r[0] + 6, r[3] - 6, r[2] - 6, r[1] + 6), fill=PALETTE["bad"], width=4)
        if c in new:
            # Changed by the last turn (issue 28: "outlined pieces").
            draw.rectangle((r[0] - 1, r[1] - 1, r[2] + 1, r[3] + 1), outline=MARKS["new"], width=5)
        if c in traps:
            draw.polygon(
                [(r[2] - cell // 3, r[1]), (r[2], r[1]), (r[2], r[1] + cell // 3)], fill=PALETTE["yellow"]
            )
    grid(draw, (gx, gy), 5, 4, cell, size=size)
    # The entrance: an arrow into C1, beside its column letter.
    ex = gx + 2 * cell + cell // 2 + size // 2 + 4
    tip = [(ex, gy - size - 4), (ex + size, gy - size - 4), (ex + size // 2, gy - 4)]
    draw.polygon(tip, fill=PALETTE["accent"])


def _monster(view: dict[str, Any], m: dict[str, Any]) -> str:
    s = _comp(view, "monsters", m["id"])
    if m.get("expert"):
        s += f" (expert: {m['expert']})"
    if m["up"] is not True:
        # Outside Combat a face-down monster is one Monster Strike left unpaid.
        s += " (knocked out)" if view["combat_round"] else " (face down)"
    return s


def dungeon_lines(view: dict[str, Any], p: dict[str, Any], names: list[str]) -> list[tuple[str, str]]:
    """Rooms by coordinate, monsters, party, prison and the Festival Season extras, in words."""
    rooms = [
        f"{c} {_comp(view, 'rooms', t['room'])}" + (" (conquered)" if t["c"] else "")
        for c, t in sorted(p["grid"].items())
        if t["k"] == "r"
    ]
    imps = [f"{c} {_comp(view, 'improved', t['imp'])}" for c, t in sorted(p["grid"].items()) if t.get("imp")]
    out = [("Rooms: " + (", ".join(rooms) or "none"), "text")]
    if imps:
        out.append(("Improved tunnels: " + ", ".join(imps), "text"))
    out.append(("Monsters: " + (", ".join(_monster(view, m) for m in p["monsters"]) or "none"), "text"))
    party = [adventurer(a, True) for a in p["party"]]
    for q in view["paladins"]:
        if q["status"] == "field" and q["at"] == p["seat"]:
            party.insert(0, f"{q['name']} {q['hp'] - q['dmg']}/{q['hp']}")
    if party:
        out.append(("Party (health left): " + ", ".join(party), "yellow"))
    prison = [a.get("name") or adventurer(a) for a in p["prison"]]
    out.append((f"Prison ({len(prison)}): " + (", ".join(prison) or "empty"), "text"))
    if p.get("mourn") and view["combat_round"] and not view.get("result"):
        out.append((f"Captured this Combat (bards mourn): {p['mourn']}", "muted"))
    if view.get("x") and view["x"].get("exp"):
        extra = [f"Pets face down: {p['pets']}"]
        if p["used_pets"]:
            extra.append("pets used: " + ", ".join(_comp(view, "pets", x) for x in p["used_pets"]))
        if p.get("trained"):
            extra.append(f"trained imps: {p['trained']}")
        for r in p["rented"]:
            extra.append(f"rented {_comp(view, 'rooms', r['room'])}" + (" (conquered)" if r["c"] else ""))
        if p.get("invest"):
            extra.append(f"gold invested: {p['invest']}")
        out.append((", ".join(extra), "muted"))
    return out


def _stats(p: dict[str, Any]) -> list[str]:
    """The numbers a lord decides by (drawn large): gold, food, imps, free imps, Evil."""
    free = p["imps"] - p["used"] - p.get("trained", 0)
    return [
        f"Gold {p['gold']}",
        f"Food {p['food']}",
        f"Imps {p['imps']}",
        f"Free imps {free}",
        f"Evil {p['evil']}",
    ]


def _more_stats(view: dict[str, Any], p: dict[str, Any]) -> list[tuple[str, str]]:
    """The smaller counts beside the grid: Trap Cards, Troll tokens, tax penalty, orders."""
    out = [(f"Trap Cards {p['traps']}", "text")]
    if p["tokens"]:
        out.append((f"Troll tokens {p['tokens']}", "text"))
    if p["penalty"]:
        out.append((f"Tax penalty {p['penalty']}", "bad"))
    out.append((_orders(view, p), "text"))
    if view["start"] == p["seat"]:
        out.append(("Starting player", "accent"))
    return out


def _panel_height(view: dict[str, Any], p: dict[str, Any], names: list[str], w: int) -> int:
    body = sum(len(wrap(s, w - 32, TEXT_MIN)) for s, _ in dungeon_lines(view, p, names))
    return _panel_top(view, p) + body * STEP + 16


def _panel_top(view: dict[str, Any], p: dict[str, Any]) -> int:
    """Where the lines under a dungeon's grid and numbers begin (from the panel's top)."""
    return max(GRID_Y + 4 * CELL, 58 + 5 * (KEY + 6) + len(_more_stats(view, p)) * STEP) + 14


def _dungeon(
    draw: Any, view: dict[str, Any], p: dict[str, Any], names: list[str], at: tuple[int, int, int, int]
) -> None:
    x, y, w, h = at
    s = p["seat"]
    turn = s in view["to_act"]
    box(draw, (x, y, x + w - 8, y + h - 8), "panel", seat_colour(s) if turn else "line", 6 if turn else 2)
    _chip(draw, x + 12, y + 12, s, BODY)
    room = w - 90
    if turn:
        tw = text_width("TO PLAY", BODY) + 20
        draw.rounded_rectangle(
            (x + w - 20 - tw, y + 10, x + w - 20, y + 50), radius=6, fill=PALETTE["accent"]
        )
        text(draw, (x + w - 20 - tw / 2, y + 30), "TO PLAY", BODY, "black", "mm")
        room -= int(tw) + 12
    size = next((k for k in (KEY, 32, BODY) if text_width(names[s], k) <= room), BODY)
    name = names[s]
    while text_width(name, size) > room and len(name) > 4:
        name = name[:-2] + "…"  # a long name is shortened, never drawn under the floor
    text(draw, (x + 60, y + 10 + (KEY - size) // 2), name, size, seat_colour(s))
    new = frozenset((view.get("changed") or {}).get("cells", {}).get(str(s), []))
    draw_grid(draw, p, x + 44, y + GRID_Y, CELL, TEXT_MIN, new)
    sx, sy = x + 350, y + 58
    for i, line in enumerate(_stats(p)):
        text(draw, (sx, sy + i * (KEY + 6)), line, KEY, "text", role="key")
    sy += 5 * (KEY + 6)
    for i, (line, colour) in enumerate(_more_stats(view, p)):
        text(draw, (sx, sy + i * STEP), line, TEXT_MIN, colour)
    _lines(draw, x + 14, y + _panel_top(view, p), _dim(dungeon_lines(view, p, names)), w - 32, TEXT_MIN)


def _orders(view: dict[str, Any], p: dict[str, Any]) -> str:
    if p["ordered"]:
        return "Orders given"
    return f"Orders played {len(p['played'])}" if p["played"] else "No orders yet"


def _dim(parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Muted lines stay readable at a third: the floor's size in the text colour."""
    return [(s, "text" if c == "muted" else c) for s, c in parts]


LEGEND = [("t", "tunnel"), ("r", "room"), ("imp", "improved tunnel"), ("c", "conquered")]


def _legend(draw: Any, y: int) -> int:
    """Every mark of the dungeons and the board, in words; wraps onto a second row."""
    x = 12
    marks: list[tuple[str, str]] = [(k, w) for k, w in LEGEND] + [("trap", "trap installed"),
                                    ("entrance", "entrance"), ("chip", "a lord's minion or Evil"),
                                    ("x", "non-player"), ("new", "new since the last board")]  # fmt: skip
    for key, word in marks:
        need = 50 + int(text_width(word, TEXT_MIN)) + 24
        if x + need > W:
            x, y = 12, y + STEP + 8
        if key in TILE:
            draw.rectangle((x, y + 2, x + 28, y + 28), fill=TILE[key])
            if key == "c":
                draw.line((x + 4, y + 6, x + 24, y + 24), fill=PALETTE["bad"], width=3)
                draw.line((x + 4, y + 24, x + 24, y + 6), fill=PALETTE["bad"], width=3)
        elif key == "trap":
            draw.polygon([(x, y + 2), (x + 26, y + 2), (x + 26, y + 28)], fill=PALETTE["yellow"])
        elif key == "entrance":
            draw.polygon([(x, y + 2), (x + 26, y + 2), (x + 13, y + 26)], fill=PALETTE["accent"])
        elif key == "new":
            draw.rectangle((x, y, x + 30, y + 30), outline=MARKS["new"], width=4)
        else:
            _chip(draw, x, y - 4, 0 if key == "chip" else None, TEXT_MIN, 36)
        text(draw, (x + 44, y), word, TEXT_MIN, "text")
        x += need
    return y + STEP + 8


def board(view: dict[str, Any], names: list[str]) -> bytes:
    """The public board (the last one shows the final scores and the winner)."""
    players = view["players"]
    over = bool(view.get("result"))
    rows = [players[i : i + 2] for i in range(0, len(players), 2)]
    heights = [max(_panel_height(view, p, names, W // 2) for p in row) for row in rows]
    log = _last_lines(view, names)
    info = [] if over else _offer_lines(view, names)
    info_h = sum(len(wrap(s, W - 24, BODY)) for s, _ in info) * (BODY + 6)
    # The height is worked out before drawing: cropping a drawn board costs as much as drawing it.
    lines, size = _header_lines(view, names)
    top = (
        78
        + (size + 8) * len(lines)
        + (RESULT_ROW * len(players) + 6 if over else 2 * LOC_H + 6 + info_h + 10)
    )
    ev = view["evilometer"]
    evil_rows = max(1, max((_evil_count(view, v) + 1) // 2 for v in range(ev["min"], ev["max"] + 1)))
    legend_h = 2 * (STEP + 8)
    log_h = (STEP + 4 + len(log) * STEP) if log else 0
    height = _not_square(top + STEP + 4 + 36 + evil_rows * 36 + 12 + sum(heights) + 8 + legend_h + log_h + 8)
    img, draw = canvas(W, height)
    y = _header(draw, view, names)
    if over:
        y = _result(draw, view, names, y)
    else:
        y = _locations(draw, view, y)
        y = _lines(draw, 12, y, info, W - 24) + 10
    y = _evilometer(draw, view, y)
    for row, h in zip(rows, heights, strict=True):
        for i, p in enumerate(row):
            _dungeon(draw, view, p, names, (i * (W // 2) + 4, y, W // 2, h))
        y += h
    y = _legend(draw, y + 8)
    if log:
        text(draw, (12, y), "What happened last:", TEXT_MIN, "accent")
        for k, line in enumerate(log):
            text(draw, (12, y + STEP + 4 + k * STEP), line, TEXT_MIN, "text")
    # A 96-colour palette halves the encoding time and the file size; the board has few colours.
    return to_png(to_palette(img))


def _evil_count(view: dict[str, Any], v: int) -> int:
    return sum(1 for p in view["players"] if p["evil"] == v) + (1 if view["dummy"]["evil"] == v else 0)


def _last_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    """The last things that happened, in words (the last 4 log lines, wrapped, at most 6 lines);
    none on the last board, which ends with the result. During Combat a battle's lines keep
    their battle's first line above them, which says whose dungeon they are about (issue 40)."""
    if view.get("result"):
        return []
    if not (view["phase"] == "plan" or view["combat_round"]):
        out: list[str] = []
        for x in view["log"][-4:]:
            out += wrap(named(x, names), W - 24, TEXT_MIN)[:2]
        return out[-6:]
    groups = [
        (headed, [wrap(named(x, names), W - 24, TEXT_MIN)[:2] for x in lines])
        for headed, lines in _last_battles(view)
    ]
    while sum(len(w) for _, lines in groups for w in lines) > 6:
        headed, oldest = groups[0]
        # The oldest line goes first; a battle's first line goes only with the last of its lines.
        del oldest[1 if headed and len(oldest) > 1 else 0]
        if len(oldest) == (1 if headed else 0):
            groups.pop(0)
    return [line for _, lines in groups for w in lines for line in w]


def _last_battles(view: dict[str, Any]) -> list[tuple[bool, list[str]]]:
    """The last 4 lines of the combat log by battle, (whether the group begins with its
    battle's first line, its lines): a battle whose later lines only are among the 4 gets its
    first line back. A battle's first line is written as the board says it ("Battle in Bob's
    dungeon on C2 (Fireball):"); a dungeon found fully conquered between rounds is a group of
    its own, its line naming the lord."""
    groups: list[list[str]] = []
    for x in view.get("combat_log_full") or view["combat_log"]:
        if HEADER.match(x) or FULLY.match(x) or not groups:
            groups.append([x])
        else:
            groups[-1].append(x)
    out: list[tuple[bool, list[str]]] = []
    left = 4
    for g in reversed(groups):
        if left <= 0:
            break
        head = HEADER.match(g[0])
        kept = g if len(g) <= left else ([g[0]] if head else []) + g[-left:]
        left -= len(g)
        out.insert(0, (bool(head), [_battle_words(x) for x in kept]))
    return out


def _battle_words(line: str) -> str:
    """A battle's first line as the board says it, whose dungeon first; other lines as they are."""
    h = HEADER.match(line)
    if h is None:
        return line
    return f"Battle in Player {h.group(1)}'s dungeon on {h.group(2)} ({h.group(3)}):"


def _not_square(height: int) -> int:
    """A board height at least 10 % away from its width: Android crops square previews."""
    return height if abs(height / W - 1) > 0.11 else int(W * 1.12)


# ---- my area ------------------------------------------------------------------------------------
AW = 600
A_BODY = 30


def hand_lines(view: dict[str, Any]) -> list[tuple[str, str]]:
    """What only this seat knows: its Trap Cards, orders, Combat Cards seen, pets, festival bid."""
    priv = view["private"]
    loc = view["components"]["locations"]
    traps = ", ".join(_comp(view, "traps", t) for t in priv["traps"]) or "none"
    out = [(f"Trap Cards in hand: {traps}", "text")]
    if priv.get("orders"):
        given = [loc[o.rstrip("-")] + (" (declined)" if o.endswith("-") else "") for o in priv["orders"]]
        out.append(("Your orders this season: " + ", ".join(given), "text"))
    if priv.get("inacc_draw"):
        out.append(("Drawn orders (keep one): " + ", ".join(loc[o] for o in priv["inacc_draw"]), "yellow"))
    seen = priv.get("seen_cards") or {}
    if seen:
        out.append(
            (
                "Combat Cards you have seen: "
                + ", ".join(f"{k} {card_words(view, c)}" for k, c in seen.items()),
                "text",
            )
        )
    if priv.get("pets"):
        out.append(
            ("Your pets (face down): " + ", ".join(_comp(view, "pets", x) for x in priv["pets"]), "text")
        )
    if priv.get("bid") is not None:
        out.append((f"Imps you sent to the festival: {priv['bid']}", "text"))
    return out


def area(view: dict[str, Any], names: list[str]) -> bytes | None:
    """The seat's own dungeon, minions, resources and hand, large, for its private reply."""
    seat = view["viewer"]
    if seat is None or not view.get("private"):
        return None
    p = view["players"][seat]
    keys = [("   ".join(_stats(p)[:3]), "accent"), ("   ".join(_stats(p)[3:]), "accent")]
    lines = [("   ".join(s for s, _ in _more_stats(view, p)), "text")]
    lines += _dim(dungeon_lines(view, p, names)) + hand_lines(view)
    key_h = sum(len(wrap(s, AW - 32, KEY)) for s, _ in keys) * (KEY + 6)
    body = sum(len(wrap(s, AW - 32, A_BODY)) for s, _ in lines)
    cell = 100
    height = 96 + 40 + 4 * cell + 24 + key_h + body * (A_BODY + 8) + 16
    img, draw = canvas(AW, height)
    draw.rectangle([0, 0, AW, 88], fill=PALETTE["panel"])
    _chip(draw, 14, 12, seat, BODY)
    text(draw, (62, 8), f"{names[seat]}: your dungeon", KEY, seat_colour(seat), role="title")
    text(draw, (16, 54), "Only you can see this.", TEXT_MIN, "text")
    draw_grid(draw, p, 50, 96 + 40, cell, TEXT_MIN)
    y = _lines(draw, 16, 96 + 40 + 4 * cell + 20, keys, AW - 32, KEY, role="key")
    _lines(draw, 16, y, lines, AW - 32, A_BODY)
    return to_png(to_palette(img))


# ---- the picture of a place being chosen ------------------------------------------------------
def preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """The seat's own dungeon while it chooses a square (issue 26): every candidate square
    outlined and labelled with its name - the name the options choosing it carry ('Dig a
    tunnel on B2 (1 imp)') - and rented rooms, which lie beside the grid, as labelled boxes."""
    seat = int(pv["seat"])
    p = view["players"][seat]
    places = [str(c) for c in pv.get("places", [])]
    rented = [r for r in p.get("rented", []) if r["cell"] in places]
    head = wrap(named(str(pv.get("prompt") or "Choose a square."), names), AW - 32, 26)[:3]
    rooms = dungeon_lines(view, p, names)[:1]
    body = sum(len(wrap(line, AW - 32, TEXT_MIN)) for line, _ in rooms)
    cell, top = 100, 24 + 34 * len(head) + 44
    height = top + 4 * cell + 16 + (cell // 2 + 24 if rented else 0) + body * (TEXT_MIN + 6) + 16
    img, draw = canvas(AW, height)
    for i, line in enumerate(head):
        text(draw, (16, 14 + 34 * i), line, 26, "accent" if i == 0 else "text")
    gx = 50
    draw_grid(draw, p, gx, top, cell, 26)
    for c in places:
        if c[0] == "R":
            continue
        ci, ri = ord(c[0]) - 65, int(c[1:]) - 1
        x0, y0 = gx + ci * cell, top + ri * cell
        draw.rectangle((x0 + 3, y0 + 3, x0 + cell - 3, y0 + cell - 3), outline=PALETTE["accent"], width=5)
        draw.rounded_rectangle(
            (x0 + cell / 2 - 30, y0 + cell / 2 - 20, x0 + cell / 2 + 30, y0 + cell / 2 + 20),
            radius=8, fill=PALETTE["black"],
        )  # fmt: skip
        text(draw, (x0 + cell / 2, y0 + cell / 2), c, 28, "accent", "mm")
    y = top + 4 * cell + 16
    for k, r in enumerate(rented):
        x0 = 16 + k * (AW - 32) // max(1, len(rented))
        w = (AW - 32) // max(1, len(rented)) - 8
        box(draw, (x0, y, x0 + w, y + cell // 2), "blue", "accent", 4)
        label = f"{r['cell']} {_comp(view, 'rooms', r['room'])}"
        label = label if text_width(label, TEXT_MIN) <= w - 16 else r["cell"]  # never a word cut
        text(draw, (x0 + 8, y + cell // 4), label, TEXT_MIN, "white", "lm")
    y += cell // 2 + 24 if rented else 0
    _lines(draw, 16, y, rooms, AW - 32, TEXT_MIN)
    return to_png(to_palette(img))


# The one protocol (render/__init__.py).
RENDERER = Renderer(board=board, area=area, steps=steps, preview=preview)


# ---- the plain drawing functions the benchmark and the engine tests call, with default names ---
def render(view: dict[str, Any]) -> bytes:
    return board(view, _default_names(view))


def render_private(view: dict[str, Any]) -> bytes | None:
    return area(view, _default_names(view))


def _default_names(view: dict[str, Any]) -> list[str]:
    return default_names(len(view["players"]))
