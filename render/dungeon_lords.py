"""Dungeon Lords board: the central board with minions, the offer, the
Evilometer, every dungeon (grid with coordinates, rooms, conquered tiles,
monsters, imps, party, prison) and the game/combat log. Views only."""

from __future__ import annotations

from typing import Any

from render import Renderer
from render.base import PALETTE, box, canvas, grid, header, seat_colour, text, to_palette, to_png

W = 1200
LOC_NAMES = {
    "food": "Get Food", "rep": "Reputation", "dig": "Dig Tunnels", "mine": "Mine Gold",
    "imps": "Recruit Imps", "traps": "Buy Traps", "monster": "Hire Monster", "room": "Build Room",
}  # fmt: skip
ROOM_SHORT = {
    "hatchery": "Hatch", "mushrooms": "Mush", "magic": "Magic", "press": "Press", "mint": "Mint",
    "shop": "Shop", "workshop": "Wksh", "toolroom": "Works", "labyrinth": "Laby", "antimagic": "AntiM",
    "barracks": "Barr", "darkroom": "Dark", "cafeteria": "Cafe", "chapel": "Chapl", "pandemonium": "Pand",
    "halloffame": "Fame", "bakery": "Bake", "training": "Train", "lounge": "Viol", "chaos": "Chaos",
}  # fmt: skip
CLS = {"warrior": "Wa", "thief": "Th", "priest": "Pr", "wizard": "Wz", "paladin": "PAL", "bard": "Bd"}
IMPROVED_SHORT = {"shed": "Shed", "foyer": "Foyer", "dark": "Dark", "secret": "Secr", "mithril": "Mithr"}
BOARD_NAMES = {
    "harvest": "Harvest Food", "masquerade": "Masquerade", "improve": "Improve Tunnels", "invest": "Invest Gold",
    "petshop": "Acquire Pet", "install": "Install Traps", "expert": "Expert Monster", "rent": "Rent Rooms",
}  # fmt: skip
BOX_H = 362


def _replaced(board_id: str | None) -> str | None:
    where = {
        "harvest": "food", "masquerade": "rep", "improve": "dig", "invest": "mine", "petshop": "imps",
        "install": "traps", "expert": "monster", "rent": "room",
    }  # fmt: skip
    return where.get(board_id or "")


def _who(s: int | None) -> str:
    if s is None:
        return ""
    return "X" if s < 0 else f"P{s + 1}"


def _adv(a: dict[str, Any]) -> str:
    hp = a["hp"] + a.get("bonus", 0)
    courage = f"+{a['courage']}c" if a.get("courage") else ""
    return f"{CLS.get(a['cls'], a['cls'])}{a.get('level', '')} {hp - a['dmg']}/{hp}{courage}"


def _board(draw: Any, view: dict[str, Any], y: int) -> int:
    w = W // 8
    opps = view.get("opps") or {}
    now = opps.get("now")
    replaced = _replaced(now)
    for i, (loc, name) in enumerate(LOC_NAMES.items()):
        x = i * w + 4
        box(draw, (x, y, x + w - 8, y + 112), "panel2" if loc == replaced else "panel")
        text(draw, (x + 6, y + 6), BOARD_NAMES[now][:15] if loc == replaced and now else name, 16, "accent")
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
        if p.get("year", view["year"]) == view["year"]
    )
    text(draw, (12, y), f"Combat cards: {cards}    Paladins: {pals}"[:120], 18)
    if view["dummy"]["cards"]:
        text(draw, (900, y - 52), "Non-player: " + ", ".join(view["dummy"]["cards"]), 16, "muted")
    y += 26
    extra = []
    if opps:
        extra.append(f"Opportunity now: {BOARD_NAMES.get(now, '-') if now else '-'}")
        extra.append(f"next: {BOARD_NAMES[opps['next']] if opps.get('next') else '-'}")
        if opps.get("traps"):
            extra.append("Trap Expo: " + ", ".join(opps["traps"]))
    if view.get("improved") and opps:
        extra.append("Improved tunnels left: " + " ".join(IMPROVED_SHORT[t] for t in view["improved"]))
    fest = view.get("festival")
    if fest:
        if fest["bids"] is None:
            extra.append(
                "FESTIVAL: imps sent by " + (", ".join(f"P{s + 1}" for s in fest["bid"]) or "nobody yet")
            )
        else:
            extra.append(
                "FESTIVAL bids: " + " ".join(f"P{int(s) + 1}:{b}" for s, b in sorted(fest["bids"].items()))
            )
        extra.append("prizes: " + ", ".join(BOARD_NAMES[b] for b in fest["boards"]))
    if view.get("pet_chosen") is not None:
        extra.append(
            "Pet Phase: chosen by " + (", ".join(f"P{s + 1}" for s in view["pet_chosen"]) or "nobody yet")
        )
    lines: list[str] = []
    for part in extra:
        if lines and len(lines[-1]) + len(part) < 110:
            lines[-1] += "   " + part
        else:
            lines.append(part)
    for k, line in enumerate(lines[:2]):
        text(draw, (12, y + 24 * k), line[:120], 18, "yellow")
    return y + 30 + 24 * max(0, min(2, len(lines)) - 1)


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
    box(
        draw, (x, y, x + w - 8, y + BOX_H - 10), "panel", seat_colour(s) if turn else "line", 3 if turn else 2
    )
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
        if t.get("imp"):
            label = IMPROVED_SHORT.get(t["imp"], t["imp"][:5])
        text(draw, (rect[0] + cell / 2, rect[1] + 16), label, 16, "white", "mm")
        if t["c"]:
            text(draw, (rect[0] + cell / 2, rect[1] + 34), "conq", 16, "black", "mm")
        elif any(it["cell"] == c for it in p.get("installed", [])):
            text(draw, (rect[0] + cell / 2, rect[1] + 34), "TRAP", 16, "yellow", "mm")
    grid(draw, (gx, gy), cols, rows, cell)
    text(draw, (gx + 2 * cell + cell / 2, gy - 24), "v", 16, "accent", "mm")
    tx = gx + cols * cell + 14
    lines = [
        f"Gold {p['gold']}  Food {p['food']}",
        f"Imps {p['imps']} ({p['imps'] - p['used'] - p.get('trained', 0)} free)  Tokens {p['tokens']}",
        f"Evil {p['evil']}  Traps {p['traps']}  Penalty {p['penalty']}",
        "Inaccessible: " + (", ".join(p["inaccessible"]) or "-"),
        "Orders: " + ("given" if p["ordered"] else ", ".join(p["played"]) or "-"),
    ]
    for i, line in enumerate(lines):
        text(draw, (tx, y + 34 + i * 22), line, 16)
    mons = " ".join(
        m["id"] + ("*" if m.get("expert") else "") + ("" if m["up"] is True else "(ko)")
        for m in p["monsters"]
    )
    text(draw, (x + 10, y + 262), ("Monsters: " + (mons or "-"))[:62], 16)
    party = " ".join(_adv(a) for a in p["party"]) or "-"
    pal = [q for q in view["paladins"] if q["status"] == "field" and q["at"] == s]
    if pal:
        short = pal[0]["name"].split()[0][:5].upper()
        party = f"{short} {pal[0]['hp'] - pal[0]['dmg']}/{pal[0]['hp']} " + party
    text(draw, (x + 10, y + 284), ("Party: " + party)[:64], 16)
    text(
        draw,
        (x + 10, y + 306),
        (
            f"Prison: {len(p['prison'])}  "
            # Adventurers captured this Combat: each bard sings 1 Courage less for each.
            + (f"(mourned: {p['mourn']})  " if p.get("mourn") else "")
            + " ".join(_adv(a).split()[0] for a in p["prison"])
        )[:64],
        16,
    )
    if view.get("x") and view["x"].get("exp"):
        rented = ",".join(
            f"{r['cell']}={ROOM_SHORT.get(r['room'], r['room'])}{'(c)' if r['c'] else ''}"
            for r in p["rented"]
        )
        used = ",".join(p["used_pets"])
        line = f"Pets: {p['pets']} face down{(' used ' + used) if used else ''}  Trained imps {p['trained']}"
        if rented:
            line += f"  Rented {rented}"
        if p.get("invest"):
            line += f"  Invest {p['invest']}"
        text(draw, (x + 10, y + 328), line[:64], 16, "muted")


def render(view: dict[str, Any]) -> bytes:
    n = len(view["players"])
    rows = (n + 1) // 2
    log = view["combat_log"] if view["phase"] == "plan" or view["combat_round"] else view["log"]
    height = 76 + 250 + 64 + rows * BOX_H + 24 + 22 * max(4, len(log))
    img, draw = canvas(W, height)
    title = f"Dungeon Lords - Year {view['year']}, season {view['round']}/{view['seasons']}"
    if view["combat_round"]:
        title = f"Dungeon Lords - Year {view['year']} combat, round {view['combat_round']}/{view['combat_rounds']}"
    y = header(draw, W, title, view["status"][:110])
    y = _board(draw, view, y)
    y = _evilometer(draw, view, y)
    for i, p in enumerate(view["players"]):
        _dungeon(draw, view, p, (i % 2) * (W // 2) + 4, y + (i // 2) * BOX_H, W // 2)
    y += rows * BOX_H
    for i, line in enumerate(log):
        text(draw, (12, y + i * 22), line[:140], 16, "muted")
    # A 96-colour palette halves the encoding time and the file size; the board has few colours.
    return to_png(to_palette(img))


def render_private(view: dict[str, Any]) -> bytes | None:
    """The seat's secrets: Trap Cards, orders not yet revealed, Combat Cards seen, drawn orders."""
    priv = view.get("private")
    if not priv:
        return None
    seat = view["seat"]
    lines = [
        "Trap Cards: " + (", ".join(priv["traps"]) or "none"),
        "Orders given: "
        + (
            ", ".join(
                LOC_NAMES[x.rstrip("-")] + (" (declined)" if x.endswith("-") else "") for x in priv["orders"]
            )
            if priv["orders"]
            else "-"
        ),
        "Combat Cards seen: " + (", ".join(f"#{k} {v}" for k, v in priv["seen_cards"].items()) or "none"),
    ]
    if priv.get("pets") is not None and (priv.get("pets") or priv.get("pet_pass")):
        lines.append("Pets (face down): " + (", ".join(priv["pets"]) or "none"))
    if priv.get("bid") is not None:
        lines.append(f"Imps sent to the festival: {priv['bid']}")
    if priv.get("inacc_draw"):
        lines.append("Drawn orders (keep one): " + ", ".join(LOC_NAMES[x] for x in priv["inacc_draw"]))
    img, draw = canvas(700, 64 + 30 * len(lines) + 16)
    y = header(draw, 700, f"P{seat + 1}: your secrets", "Only you can see this.")
    for i, line in enumerate(lines):
        text(draw, (16, y + i * 30), line, 18)
    return to_png(img)


# Combat steps are drawn in their own module; tables/ finds them here.
from render.dungeon_lords_combat import render_steps, step_jobs  # noqa: E402,F401

# The one protocol (render/__init__.py). Names are not drawn yet: see issue 21.
RENDERER = Renderer(
    board=lambda view, names: render(view),
    area=lambda view, names: render_private(view),
    steps=lambda before, after, names: step_jobs(before, after),
)
