"""Dungeon Lords board: the central board with minions, the offer, the
Evilometer, every dungeon (grid with coordinates, rooms, conquered tiles,
monsters, imps, party, prison) and the game/combat log. Views only."""

from __future__ import annotations

from typing import Any

from PIL import Image

from render.base import PALETTE, box, canvas, grid, header, seat_colour, text, to_png

W = 1200
LOC_NAMES = {
    "food": "Get Food", "rep": "Reputation", "dig": "Dig Tunnels", "mine": "Mine Gold",
    "imps": "Recruit Imps", "traps": "Buy Traps", "monster": "Hire Monster", "room": "Build Room",
}  # fmt: skip
ROOM_SHORT = {
    "hatchery": "Hatch", "mushrooms": "Mush", "magic": "Magic", "press": "Press", "mint": "Mint",
    "shop": "Shop", "workshop": "Wksh", "toolroom": "Works", "labyrinth": "Laby", "antimagic": "AntiM",
    "barracks": "Barr", "darkroom": "Dark", "cafeteria": "Cafe", "chapel": "Chapl", "pandemonium": "Pand",
    "halloffame": "Fame",
}  # fmt: skip
CLS = {"warrior": "Wa", "thief": "Th", "priest": "Pr", "wizard": "Wz", "paladin": "PAL"}


def _who(s: int | None) -> str:
    if s is None:
        return ""
    return "X" if s < 0 else f"P{s + 1}"


def _adv(a: dict[str, Any]) -> str:
    return f"{CLS.get(a['cls'], a['cls'])}{a.get('level', '')} {a['hp'] + a.get('bonus', 0) - a['dmg']}/{a['hp'] + a.get('bonus', 0)}"


def _board(draw: Any, view: dict[str, Any], y: int) -> int:
    w = W // 8
    for i, (loc, name) in enumerate(LOC_NAMES.items()):
        x = i * w + 4
        box(draw, (x, y, x + w - 8, y + 112), "panel")
        text(draw, (x + 6, y + 6), name, 16, "accent")
        for k, occ in enumerate(view["board"].get(loc, [None, None, None])):
            yy = y + 30 + k * 26
            text(draw, (x + 8, yy), "I" * (k + 1), 16, "muted")
            if occ is not None:
                col = PALETTE["grey"] if occ < 0 else seat_colour(occ)
                draw.rounded_rectangle((x + 40, yy - 2, x + 90, yy + 20), radius=5, fill=col)
                text(draw, (x + 65, yy + 9), _who(occ), 16, "black", "mm")
    y += 120
    offer = view["offer"]
    mons = ", ".join(offer["monsters"]) or "-"
    rooms = ", ".join(offer["rooms"]) or "-"
    text(draw, (12, y), f"Monsters on offer: {mons}    Rooms on offer: {rooms}", 18)
    y += 26
    nxt = " ".join(_adv(a) for a in view["next_advs"]) or "-"
    ev = view["event"] or "-"
    text(
        draw,
        (12, y),
        f"Event this season: {ev}   Next: {view['next_event'] or '-'}   Next adventurers: {nxt}",
        18,
    )
    y += 26
    cards = " | ".join(c if c else "?" for c in view["combat_cards"])
    pals = "; ".join(
        f"{p['name']} {p['status']}" + (f" at P{p['at'] + 1}" if p["at"] is not None else "")
        for p in view["paladins"]
    )
    text(draw, (12, y), f"Combat cards: {cards}    Paladin: {pals}", 18)
    if view["dummy"]["cards"]:
        text(draw, (900, y - 52), "Non-player: " + ", ".join(view["dummy"]["cards"]), 16, "muted")
    return y + 30


def _evilometer(draw: Any, view: dict[str, Any], y: int) -> int:
    ev = view["evilometer"]
    n = ev["max"] - ev["min"] + 1
    cw = (W - 140) // n
    text(draw, (12, y + 16), "Evilometer", 18, "accent")
    for i in range(n):
        v = ev["min"] + i
        x = 130 + i * cw
        fill = "bad" if v >= ev["paladin"] else "panel2"
        draw.rectangle((x, y, x + cw - 2, y + 50), fill=PALETTE[fill])
        text(draw, (x + 4, y + 2), str(v), 16, "text")
        here = [p["seat"] for p in view["players"] if p["evil"] == v]
        label = " ".join(f"{s + 1}" for s in here)
        if view["dummy"]["evil"] == v:
            label += " X"
        text(draw, (x + cw / 2, y + 36), label, 16, "accent", "mm")
    return y + 60


def _dungeon(draw: Any, view: dict[str, Any], p: dict[str, Any], x: int, y: int, w: int) -> None:
    s = p["seat"]
    turn = s in view["to_act"]
    box(draw, (x, y, x + w - 8, y + 330), "panel", seat_colour(s) if turn else "line", 3 if turn else 2)
    start = " (start)" if view["start"] == s else ""
    text(draw, (x + 10, y + 6), f"P{s + 1}{start}", 20, seat_colour(s))
    cell = 48
    gx, gy = x + 34, y + 58
    cols, rows = 5, 4
    for c, t in p["grid"].items():
        ci, ri = ord(c[0]) - 65, int(c[1:]) - 1
        rect = (gx + ci * cell + 1, gy + ri * cell + 1, gx + (ci + 1) * cell - 1, gy + (ri + 1) * cell - 1)
        colour = PALETTE["brown"] if t["k"] == "t" else PALETTE["blue"]
        if t["c"]:
            colour = PALETTE["grey"]
        draw.rectangle(rect, fill=colour)
        label = "T" if t["k"] == "t" else ROOM_SHORT.get(t["room"], t["room"][:5])
        text(draw, (rect[0] + cell / 2, rect[1] + 16), label, 16, "white", "mm")
        if t["c"]:
            text(draw, (rect[0] + cell / 2, rect[1] + 34), "conq", 16, "black", "mm")
    grid(draw, (gx, gy), cols, rows, cell)
    text(draw, (gx + 2 * cell + cell / 2, gy - 24), "v", 16, "accent", "mm")
    tx = gx + cols * cell + 14
    lines = [
        f"Gold {p['gold']}  Food {p['food']}",
        f"Imps {p['imps']} ({p['imps'] - p['used']} free)  Tokens {p['tokens']}",
        f"Evil {p['evil']}  Traps {p['traps']}  Penalty {p['penalty']}",
        "Inaccessible: " + (", ".join(p["inaccessible"]) or "-"),
        "Orders: " + ("given" if p["ordered"] else ", ".join(p["played"]) or "-"),
    ]
    for i, line in enumerate(lines):
        text(draw, (tx, y + 34 + i * 22), line, 16)
    mons = " ".join(m["id"] + ("" if m["up"] is True else "(ko)") for m in p["monsters"]) or "-"
    text(draw, (x + 10, y + 262), "Monsters: " + mons, 16)
    party = " ".join(_adv(a) for a in p["party"]) or "-"
    pal = [q for q in view["paladins"] if q["status"] == "field" and q["at"] == s]
    if pal:
        party = f"PAL {pal[0]['hp'] - pal[0]['dmg']}/{pal[0]['hp']} " + party
    text(draw, (x + 10, y + 284), "Party: " + party, 16)
    text(
        draw,
        (x + 10, y + 306),
        f"Prison: {len(p['prison'])}  " + " ".join(_adv(a).split()[0] for a in p["prison"]),
        16,
    )


def render(view: dict[str, Any]) -> bytes:
    n = len(view["players"])
    rows = (n + 1) // 2
    log = view["combat_log"] if view["phase"] == "plan" or view["combat_round"] else view["log"]
    height = 76 + 200 + 64 + rows * 340 + 24 + 22 * max(4, len(log))
    img, draw = canvas(W, height)
    title = f"Dungeon Lords - Year {view['year']}, season {view['round']}/{view['seasons']}"
    if view["combat_round"]:
        title = f"Dungeon Lords - Year {view['year']} combat, round {view['combat_round']}/{view['combat_rounds']}"
    y = header(draw, W, title, view["status"][:110])
    y = _board(draw, view, y)
    y = _evilometer(draw, view, y)
    for i, p in enumerate(view["players"]):
        _dungeon(draw, view, p, (i % 2) * (W // 2) + 4, y + (i // 2) * 340, W // 2)
    y += rows * 340
    for i, line in enumerate(log):
        text(draw, (12, y + i * 22), line[:140], 16, "muted")
    # A 96-colour palette halves the encoding time and the file size; the board has few colours.
    return to_png(img.quantize(colors=96, method=Image.Quantize.FASTOCTREE))


def render_private(view: dict[str, Any]) -> bytes | None:
    """The seat's secrets: Trap Cards, orders not yet revealed, Combat Cards seen, drawn orders."""
    priv = view.get("private")
    if not priv:
        return None
    seat = view["seat"]
    lines = [
        "Trap Cards: " + (", ".join(priv["traps"]) or "none"),
        "Orders given: " + (", ".join(LOC_NAMES[x] for x in priv["orders"]) if priv["orders"] else "-"),
        "Combat Cards seen: " + (", ".join(f"#{k} {v}" for k, v in priv["seen_cards"].items()) or "none"),
    ]
    if priv.get("inacc_draw"):
        lines.append("Drawn orders (keep one): " + ", ".join(LOC_NAMES[x] for x in priv["inacc_draw"]))
    img, draw = canvas(700, 64 + 30 * len(lines) + 16)
    y = header(draw, 700, f"P{seat + 1}: your secrets", "Only you can see this.")
    for i, line in enumerate(lines):
        text(draw, (16, y + i * 30), line, 18)
    return to_png(img)
