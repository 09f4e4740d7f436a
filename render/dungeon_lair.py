"""Dungeon Lair board: the shared map on a lettered grid, monsters, hands and scores.

Drawn only from a view (engine.dungeon_lair view). Rooms a player controls are
tinted in that player's colour; monsters are discs in the seat colour carrying
their size letter (S small, M big, L huge) so colour is never the only cue.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render import Renderer
from render.base import PALETTE, box, column_label, grid, header, seat_colour, text, text_width, to_png

WIDTH = 1200
MAX_CELL = 110
MAX_MAP_HEIGHT = 1050
LABEL = 34  # room for the coordinate labels
MARKS = {
    "trap": "T",
    "pit": "P",
    "darkness": "K",
    "web": "W",
    "rubble": "R",
    "rotating": "O",
    "catacomb-entrance": "C",
}
LEGEND = (
    "Marks: T trap, P pit, K darkness, W web, R rubble, O rotating, C catacomb entrance (no special rules)."
)
WALL = (20, 20, 24)
FLOOR = (95, 95, 110)
CORRIDOR = (120, 112, 96)
DOOR = (150, 95, 45)
CHASM = (0, 0, 0)


def canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    # A palette image: the board has few colours, and encoding one byte a pixel keeps a
    # 1200 x 1400 board well under the render budget (an RGB encode alone took ~150 ms).
    img = Image.new("P", (width, height), 0)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, width, height), fill=PALETTE["bg"])
    return img, d


def _tint(
    c: tuple[int, int, int], base: tuple[int, int, int] = FLOOR, k: float = 0.55
) -> tuple[int, int, int]:
    r, g, b = (int(base[i] * (1 - k) + c[i] * k) for i in range(3))
    return (r, g, b)


def _half(rect: tuple[float, float, float, float], side: int) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = rect
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    return ((x0, y0, x1, my), (mx, y0, x1, y1), (x0, my, x1, y1), (x0, y0, mx, y1))[side]


def area_rects(tile: dict[str, Any], rect: tuple[float, float, float, float]) -> list[tuple[float, ...]]:
    """Where each area of a tile lies (a whole cell, or one half of a bridge or chasm)."""
    if len(tile["areas"]) == 1:
        return [rect]
    return [_half(rect, a["sides"][0]) for a in tile["areas"]]


def draw_tile(d: ImageDraw.ImageDraw, tile: dict[str, Any], rect: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = rect
    cs = x1 - x0
    w = max(3, int(cs * 0.07))
    gap = cs / 3
    d.rectangle(rect, fill=WALL)
    areas = tile["areas"]
    if tile["kind"] == "corridor":
        cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, cs / 6
        d.rectangle((cx - half, cy - half, cx + half, cy + half), fill=CORRIDOR)
        for side in areas[0]["sides"]:
            d.rectangle(
                (
                    (cx - half, y0, cx + half, cy)
                    if side == 0
                    else (cx, cy - half, x1, cy + half)
                    if side == 1
                    else (cx - half, cy, cx + half, y1)
                    if side == 2
                    else (x0, cy - half, cx, cy + half)
                ),
                fill=CORRIDOR,
            )
    else:
        for area, r in zip(areas, area_rects(tile, rect), strict=True):
            fill = FLOOR
            if area.get("owner") is not None:
                fill = _tint(seat_colour(area["owner"]))
            d.rectangle((r[0] + w, r[1] + w, r[2] - w, r[3] - w), fill=fill)
            # open the room to its doorways
            for side in area["sides"]:
                mx, my = (x0 + x1) / 2, (y0 + y1) / 2
                dr = (
                    (mx - gap / 2, y0, mx + gap / 2, y0 + w)
                    if side == 0
                    else (x1 - w, my - gap / 2, x1, my + gap / 2)
                    if side == 1
                    else (mx - gap / 2, y1 - w, mx + gap / 2, y1)
                    if side == 2
                    else (x0, my - gap / 2, x0 + w, my + gap / 2)
                )
                d.rectangle(dr, fill=fill)
        if tile.get("link") in ("bridge", "chasm"):
            vertical = areas[0]["sides"][0] in (0, 2)  # halves north/south: the chasm runs east-west
            t = cs / 10
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            band = (x0, my - t, x1, my + t) if vertical else (mx - t, y0, mx + t, y1)
            d.rectangle(band, fill=CHASM)
            if tile["link"] == "bridge":
                plank = (
                    (mx - t, my - t - 2, mx + t, my + t + 2)
                    if vertical
                    else (mx - t - 2, my - t, mx + t + 2, my + t)
                )
                d.rectangle(plank, fill=DOOR)
    # doors and portcullises sit in the doorway gap on the tile's own edge
    for side, edge in enumerate(tile["edges"]):
        if edge not in ("door", "portcullis"):
            continue
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dw = max(5, w + 2)
        r = (
            (mx - gap / 2, y0, mx + gap / 2, y0 + dw)
            if side == 0
            else (x1 - dw, my - gap / 2, x1, my + gap / 2)
            if side == 1
            else (mx - gap / 2, y1 - dw, mx + gap / 2, y1)
            if side == 2
            else (x0, my - gap / 2, x0 + dw, my + gap / 2)
        )
        if edge == "door":
            d.rectangle(r, fill=DOOR, outline=(230, 180, 120))
        else:
            d.rectangle(r, fill=(60, 60, 60))
            bars = 4
            for i in range(1, bars):
                if side in (0, 2):
                    xx = r[0] + (r[2] - r[0]) * i / bars
                    d.line((xx, r[1], xx, r[3]), fill=(210, 210, 210), width=2)
                else:
                    yy = r[1] + (r[3] - r[1]) * i / bars
                    d.line((r[0], yy, r[2], yy), fill=(210, 210, 210), width=2)
    mark = MARKS.get(tile["kind"])
    if mark:
        text(d, (x0 + w + 2, y0 + w), mark, 16, "white")
    for area, r in zip(areas, area_rects(tile, rect), strict=True):
        if area.get("contested"):
            text(d, (r[2] - w - 2, r[1] + w), "=", 16, "white", "ra")


def _monsters(d: ImageDraw.ImageDraw, ms: list[dict[str, Any]], r: tuple[float, ...], cs: float) -> None:
    radius = {"S": max(10, cs * 0.12), "M": max(11, cs * 0.14), "L": max(12, cs * 0.16)}
    x0, y0, x1, y1 = r
    step = max(radius.values()) * 2 + 2
    per_row = max(1, int((x1 - x0 - 6) // step))
    rows = max(1, int((y1 - y0 - 6) // step))
    ms = sorted(ms, key=lambda m: (m["seat"], "LMS".index(m["size"])))
    shown = ms if len(ms) <= per_row * rows else ms[: per_row * rows - 1]
    total_rows = (len(shown) + (len(shown) < len(ms)) + per_row - 1) // per_row
    oy = (y0 + y1) / 2 - total_rows * step / 2 + step / 2
    for i, m in enumerate(shown):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(shown) + (len(shown) < len(ms)) - row * per_row)
        cx = (x0 + x1) / 2 - in_row * step / 2 + step / 2 + col * step
        cy = oy + row * step
        rr = radius[m["size"]]
        d.ellipse(
            (cx - rr, cy - rr, cx + rr, cy + rr), fill=seat_colour(m["seat"]), outline=(0, 0, 0), width=2
        )
        text(d, (cx, cy), m["size"], 16, "black", "mm")
    if len(shown) < len(ms):
        i = len(shown)
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(shown) + 1 - row * per_row)
        cx = (x0 + x1) / 2 - in_row * step / 2 + step / 2 + col * step
        text(d, (cx, oy + row * step), f"+{len(ms) - len(shown)}", 16, "white", "mm")


def _bounds(view: dict[str, Any]) -> tuple[int, int, int, int]:
    cells = [t["cell"] for t in view["tiles"]] or [view["start"]]
    pos = [(ord(c[0]) - 65, int(c[1:]) - 1) for c in cells]
    c0 = max(0, min(p[0] for p in pos) - 1)
    c1 = min(view["columns"] - 1, max(p[0] for p in pos) + 1)
    r0 = max(0, min(p[1] for p in pos) - 1)
    r1 = min(view["rows"] - 1, max(p[1] for p in pos) + 1)
    return c0, c1, r0, r1


def render(view: dict[str, Any]) -> bytes:
    c0, c1, r0, r1 = _bounds(view)
    cols, rows = c1 - c0 + 1, r1 - r0 + 1
    cs = int(min(MAX_CELL, (WIDTH - 2 * LABEL) / cols, MAX_MAP_HEIGHT / rows))
    map_w, map_h = cols * cs, rows * cs
    players = view["players"]
    panel_h = 20 + 34 * len(players) + 60
    height = 76 + LABEL + map_h + 16 + panel_h
    img, d = canvas(WIDTH, height)
    status = view["status"]
    if not view["over"]:
        status += f"  Stack: {view['deck']} tiles."
    header(d, WIDTH, "Dungeon Lair" + (" (beginner)" if view.get("beginner") else ""), status)
    ox = (WIDTH - map_w) // 2
    oy = 76 + LABEL
    d.rectangle((ox, oy, ox + map_w, oy + map_h), fill=PALETTE["bg"])
    grid(
        d,
        (ox, oy),
        cols,
        rows,
        cs,
        [column_label(c) for c in range(c0, c1 + 1)],
        [str(r + 1) for r in range(r0, r1 + 1)],
        size=16 if cs < 60 else 18,
    )
    by_area: dict[str, list[dict[str, Any]]] = {}
    for m in view["monsters"]:
        by_area.setdefault(m["at"], []).append(m)

    def rect_of(cell: str) -> tuple[float, float, float, float]:
        col, row = ord(cell[0]) - 65 - c0, int(cell[1:]) - 1 - r0
        return (ox + col * cs + 1, oy + row * cs + 1, ox + (col + 1) * cs - 1, oy + (row + 1) * cs - 1)

    if not view["tiles"]:
        r = rect_of(view["start"])
        box(d, r, "panel", "accent", 3, 4)
        text(d, ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2), "start", 16, "accent", "mm")
    for tile in view["tiles"]:
        r = rect_of(tile["cell"])
        draw_tile(d, tile, r)
        if tile["new"]:
            d.rectangle(r, outline=PALETTE["accent"], width=3)
    for cell in view.get("free_exits") or []:
        r = rect_of(cell)
        d.rectangle(r, outline=PALETTE["accent"], width=2)
        text(d, ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2), "exit", 16, "accent", "mm")
    for tile in view["tiles"]:
        for area, r in zip(tile["areas"], area_rects(tile, rect_of(tile["cell"])), strict=True):
            if area["label"] in by_area:
                _monsters(d, by_area[area["label"]], r, cs)
    # players: colour, score as zones stand now, what each holds in hand
    y = oy + map_h + 16
    for p in players:
        s = p["seat"]
        turn = s == view["current"] and not view["over"]
        box(d, (16, y, WIDTH - 16, y + 30), "panel2" if turn else "panel", "accent" if turn else "line", 2, 6)
        d.ellipse((26, y + 4, 48, y + 26), fill=seat_colour(s), outline=(0, 0, 0))
        text(d, (37, y + 15), str(s + 1), 16, "black", "mm")
        hand = p["monsters_in_hand"]
        line = (
            f"{'> ' if turn else ''}{p['name']}   rooms now: {p['score']}   tiles in hand: {p['tiles_in_hand']}"
            f"   monsters in hand: S{hand['S']} M{hand['M']} L{hand['L']}"
        )
        text(d, (58, y + 15), line, 18, "text", "lm")
        y += 34
    removed = len(view["removed"])
    foot = f"Tiles removed: {removed}.  Rooms tinted in a player's colour are theirs now; '=' a tie."
    text(d, (16, y + 6), foot, 16, "muted")
    text(d, (16, y + 30), LEGEND, 16, "muted")
    assert text_width(LEGEND, 16) < WIDTH
    return to_png(img)


def render_private(view: dict[str, Any]) -> bytes | None:
    """The tiles in this player's hand, as printed (turn 0), with their numbers."""
    tiles = view.get("my_tiles") or []
    if not tiles:
        return None
    cs = 150
    width = 40 + len(tiles) * (cs + 260)
    img, d = canvas(min(WIDTH, width), cs + 80)
    text(d, (16, 10), "Your tiles (turn 90: a quarter turn right)", 18, "accent")
    x = 20
    for t in tiles:
        tile = {**t, "areas": [{**a, "owner": None} for a in t["areas"]]}
        draw_tile(d, tile, (x, 50, x + cs, 50 + cs))
        text(d, (x + cs + 12, 60), f"Tile {t.get('letter', '')}: T{t['id']}", 24, "accent")
        text(d, (x + cs + 12, 92), t["name"], 18)
        edges = "  ".join(f"{s}:{e}" for s, e in zip("NESW", t["edges"], strict=True))
        text(d, (x + cs + 12, 120), edges[:40], 16, "muted")
        x += cs + 260
    return to_png(img)


# The one protocol (render/__init__.py). Names are not drawn yet: see issue 21.
RENDERER = Renderer(
    board=lambda view, names: render(view),
    area=lambda view, names: render_private(view),
)
