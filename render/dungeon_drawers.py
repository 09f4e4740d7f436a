"""Dungeon Drawers: every dungeon sheet on its A-H x 1-10 grid with the hero, the
path, improvements and hearts. Draws only what the view holds: the public view
has no treasure coordinates and no hands; ``render_private`` adds the viewer's."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import Renderer
from render.base import PALETTE, box, seat_colour, text, text_width, to_png

W = 1180
CELL = 34
GX = 30  # grid left offset inside a block (row labels)
GY = 46  # grid top offset inside a block (column labels + entrance)
BLOCK_W = 590
BLOCK_H = GY + 10 * CELL + 40
COLS = "ABCDEFGH"
KIND = {
    "goblin": ("G", "green"),
    "orc": ("O", "orange"),
    "dragon": ("D", "red"),
    "trap": ("T", "purple"),
}
TRACK_LABEL = {
    "goblin": "Goblin",
    "orc": "Orc",
    "dragon": "Dragon",
    "trap": "Trap dmg",
    "treasure": "Treasure",
    "hand": "Hand",
}
# The sheet's improvement tracks (mirrors data/dungeon-drawers/sheet.json, drawn as box groups).
TRACKS = {
    "goblin": [1, 1, 2, 2, 2, 3],
    "orc": [2, 2, 2, 2, 3],
    "dragon": [2, 2, 1, 2],
    "trap": [3, 3, 4],
    "treasure": [2, 3, 3],
    "hand": [2, 2, 3],
}


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    # A palette image, as render/dungeon_lair.py does: the sheets use a few dozen colours,
    # and one byte a pixel halves the PNG encode that dominated the render time.
    img = Image.new("P", (width, height), 0)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width, height), fill=PALETTE["bg"])
    return img, d


# Text is drawn by render.base.text, which caches each label's glyph mask.


def grid(d: ImageDraw.ImageDraw, origin: tuple[int, int], cols: int, rows: int, cell: int, size: int) -> None:
    """Grid lines with column letters above and row numbers on the left."""
    x0, y0 = origin
    line = PALETTE["line"]
    for c in range(cols + 1):
        d.line([(x0 + c * cell, y0), (x0 + c * cell, y0 + rows * cell)], fill=line, width=1)
    for r in range(rows + 1):
        d.line([(x0, y0 + r * cell), (x0 + cols * cell, y0 + r * cell)], fill=line, width=1)
    for c in range(cols):
        text(d, (x0 + c * cell + cell / 2, y0 - 4), COLS[c], size, "muted", "md")
    for r in range(rows):
        text(d, (x0 - 6, y0 + r * cell + cell / 2), str(r + 1), size, "muted", "rm")


def header(d: ImageDraw.ImageDraw, width: int, title: str, status: str) -> int:
    d.rectangle([0, 0, width, 64], fill=PALETTE["panel"])
    text(d, (16, 8), title, 24, "accent")
    text(d, (16, 38), status, 18, "text")
    return 76


def _xy(cell: str) -> tuple[int, int]:
    return COLS.index(cell[0]), int(cell[1:]) - 1


def _centre(ox: int, oy: int, cell: str) -> tuple[float, float]:
    x, y = _xy(cell)
    return ox + GX + x * CELL + CELL / 2, oy + GY + y * CELL + CELL / 2


def _sheet(d: ImageDraw.ImageDraw, ox: int, oy: int, p: dict[str, Any], view: dict[str, Any]) -> None:
    seat = p["seat"]
    colour = seat_colour(seat)
    acting = seat in view["to_act"]
    box(
        d,
        (ox + 4, oy, ox + BLOCK_W - 6, oy + BLOCK_H - 6),
        fill="panel",
        outline=colour if acting else "line",
        width=3 if acting else 1,
    )
    gx, gy = ox + GX, oy + GY
    sheet = p["sheet"]
    crossed = set(sheet["crossed"])
    treasures = set(sheet.get("treasures") or [])
    for cell, kind in sheet["grid"].items():
        x, y = _xy(cell)
        x0, y0 = gx + x * CELL, gy + y * CELL
        if kind == "wall":
            d.rectangle((x0, y0, x0 + CELL, y0 + CELL), fill=PALETTE["grey"])
            continue
        letter, fill = KIND[kind]
        dead = cell in crossed
        d.ellipse(
            (x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4), fill=PALETTE["panel2"] if dead else PALETTE[fill]
        )
        text(d, (x0 + CELL / 2, y0 + CELL / 2), letter, 20, "muted" if dead else "black", "mm")
        if dead:
            d.line((x0 + 4, y0 + 4, x0 + CELL - 4, y0 + CELL - 4), fill=PALETTE["bad"], width=3)
            d.line((x0 + 4, y0 + CELL - 4, x0 + CELL - 4, y0 + 4), fill=PALETTE["bad"], width=3)
    for cell in treasures:
        x, y = _xy(cell)
        text(d, (gx + x * CELL + CELL - 2, gy + y * CELL + 1), "$", 16, "yellow", "ra")
    grid(d, (gx, gy), 8, 10, CELL, size=16)
    # entrance above A1, exit below H10
    text(d, (gx - 14, gy - 22), "IN", 16, "good", "mm")
    text(d, (gx + 7 * CELL + CELL / 2, gy + 10 * CELL + 14), "OUT", 16, "good", "mm")
    path = p.get("path")
    if path:
        seen: dict[str, int] = {}
        pts = []
        start = _centre(ox, oy, path[0])
        pts.append((start[0], start[1] - CELL))
        for cell in path:
            k = seen.get(cell, 0)
            seen[cell] = k + 1
            cx, cy = _centre(ox, oy, cell)
            off = -5 if k == 0 else 5
            pts.append((cx + off, cy + off))
        end = _centre(ox, oy, path[-1])
        pts.append((end[0], end[1] + CELL))
        d.line(pts, fill=colour, width=3, joint="curve")
    elif p["path_drawn"]:
        text(d, (gx + 4 * CELL, gy + 5 * CELL), "path drawn (hidden)", 16, "muted", "mm")
    hero = p["hero"]
    if path:
        if hero["state"] == "escaped":
            hx, hy = _centre(ox, oy, "H10")
            hx, hy = hx - 40, hy + CELL
        elif hero["pos"] < 0:
            hx, hy = _centre(ox, oy, "A1")
            hy -= CELL
        else:
            hx, hy = _centre(ox, oy, path[hero["pos"]])
        fill = PALETTE["bad"] if hero["state"] == "dead" else PALETTE["white"]
        d.ellipse((hx - 11, hy - 11, hx + 11, hy + 11), fill=fill, outline=PALETTE["black"], width=2)
        text(d, (hx, hy), "X" if hero["state"] == "dead" else "H", 16, "black", "mm")
    # side panel
    sx = gx + 8 * CELL + 18
    y = oy + 8
    name = p["name"] + ("  (start)" if view["start"] == seat and view["phase"] == "build" else "")
    d.rectangle((sx, y + 2, sx + 14, y + 18), fill=colour)
    text(d, (sx + 20, y), name, 20, "text")
    y += 28
    state_word = {"in": "", "dead": "  DEAD", "escaped": "  escaped"}[hero["state"]]
    text(
        d,
        (sx, y),
        f"Hero hearts {hero['hearts']}{state_word}",
        18,
        "bad" if hero["state"] == "dead" else "text",
    )
    y += 26
    levels = p["levels"]
    imp = sheet["imp"]
    for t, groups in TRACKS.items():
        lv = levels[t]
        label = f"{TRACK_LABEL[t]} {'+' if t in ('goblin', 'orc', 'dragon') else ''}{lv}"
        text(d, (sx, y), label, 16, "text")
        bx = sx + 96
        done = imp[t]
        i = 0
        for g in groups:
            for _ in range(g):
                filled = i < done
                d.rectangle(
                    (bx, y + 4, bx + 9, y + 13),
                    fill=PALETTE["accent"] if filled else None,
                    outline=PALETTE["muted"],
                )
                bx += 11
                i += 1
            bx += 5
        y += 22
    text(d, (sx, y), f"Treasures hidden: {p['treasure_count']}", 16, "text")
    y += 22
    if view["phase"] == "build":
        text(d, (sx, y), f"Cards taken: {len(p['taken'])}", 16, "muted")
        y += 22
        if p["pending"]:
            text(d, (sx, y), f"Installing card #{p['pending']['card']}", 16, "accent")
            y += 22
    elif view["phase"] in ("defend", "over"):
        text(d, (sx, y), f"Hand {p['hand_count']}  deck {p['deck_count']}", 16, "muted")
        y += 22
    for h in p["on"]:
        label = view["cards"].get(str(h["card"]), f"#{h['card']}").split(":")[0]
        text(d, (sx, y), f"On it: {label} by P{h['by'] + 1}"[:34], 16, "sky")
        y += 22
    res = view.get("result")
    if res:
        b = res["breakdown"][seat]
        text(d, (sx, y), f"Score {res['scores'][seat]}", 20, "accent")
        y += 26
        for k, v in b.items():
            text(d, (sx, y), f"{k}: {v}", 16, "muted")
            y += 20


def _draw(view: dict[str, Any], extra: list[str]) -> bytes:
    n = view["seats"]
    rows = 1 if n <= 2 else 2
    info: list[tuple[str, str]] = []
    if view["phase"] == "build" and view["display"]:
        info.append(("Display: " + "   ".join(view["cards"][str(c)] for c in view["display"][:2]), "text"))
        if len(view["display"]) > 2:
            info.append(("   " + "   ".join(view["cards"][str(c)] for c in view["display"][2:]), "text"))
    enc = view.get("encounter")
    if enc and enc["kind"] != "trap":
        info.append(
            (
                f"Fight: {enc['kind']} on {enc['cell']}, dice {'+'.join(map(str, enc['dice']))}, "
                f"strength {view['strength']} (needs 20)",
                "accent",
            )
        )
    for line in view["news"][-3:]:
        info.append((line, "muted"))
    info_h = 24 * len(info) + 8
    extra_h = 24 * len(extra) + (12 if extra else 0)
    height = 76 + info_h + rows * BLOCK_H + extra_h + 8
    img, d = canvas(W, height)
    title = f"Dungeon Drawers - {'Phase A, round ' + str(view['round']) + '/14' if view['phase'] == 'build' else {'path': 'Phase B', 'defend': 'Phase C', 'over': 'Final'}[view['phase']]}"
    status = view["status"]
    while text_width(status, 18) > W - 32 and len(status) > 10:
        status = status[:-4] + "..."
    y = header(d, W, title, status)
    for line, colour in info:
        while text_width(line, 18) > W - 32 and len(line) > 10:
            line = line[:-4] + "..."
        text(d, (16, y), line, 18, colour)
        y += 24
    y += 8
    for s, p in enumerate(view["players"]):
        ox = (s % 2) * BLOCK_W
        oy = y + (s // 2) * BLOCK_H
        _sheet(d, ox, oy, p, view)
    y += rows * BLOCK_H + 4
    for line in extra:
        text(d, (16, y), line[:110], 18, "text")
        y += 24
    return to_png(img)


def render(view: dict[str, Any]) -> bytes:
    return _draw(view, [])


def render_private(view: dict[str, Any]) -> bytes | None:
    seat = view.get("viewer")
    if seat is None:
        return None
    me = view["players"][seat]
    extra = [f"P{seat + 1}, your treasures ($): {', '.join(me['sheet']['treasures']) or 'none'}"]
    for c in me.get("hand") or []:
        extra.append("Hand: " + view["cards"][str(c)])
    return _draw(view, extra)


# The one protocol (render/__init__.py). Names are not drawn yet: see issue 21.
RENDERER = Renderer(
    board=lambda view, names: render(view),
    area=lambda view, names: render_private(view),
)
