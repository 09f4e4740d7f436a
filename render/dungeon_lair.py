"""Dungeon Lair board: the shared map, monsters, players, hands and scores, drawn for a phone.

Drawn only from a view (engine.dungeon_lair views.py). The map has no edge: the
image shows the occupied cells plus one cell of margin, labelled with the cells'
own coordinates (column,row), and wraps a long, thin dungeon into bands so cells
stay big enough to read at a third of the size. Tiles are drawn as the components
show them: walls, doorways, wooden doors, barred portcullises, chasms and bridges,
and an icon for each special room; a legend names every mark the map shows.
Rooms a player controls are tinted in that player's colour; monsters are discs in
the seat colour carrying their power (1 small, 2 big, 3 huge).
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from engine.core import name_seats
from render import Renderer, default_names
from render.base import PALETTE, box, seat_colour, text, text_width, to_palette, to_png

WIDTH = 1200
AREA_WIDTH = 600
MARGIN = 20
LABEL_W = 72  # room for row labels left of a band
LABEL_H = 40  # room for column labels above a band
MIN_CELL = 76  # 25 px at a third: below it a map folds for any gain in cell size
FOLD_GAIN = 1.15  # a map is folded into bands only for cells this much bigger than in one piece
SMALL, BIG = 30, 40  # issue 40's floor, and the size of the title, whose turn and scores
MIN_R = 19  # a monster disc's radius in hand and in the legend
MAP_R = 14  # the smallest on the map: still holds its power's digit at SMALL px
MAX_CELL = 130
MAX_MAP_H = 1500
MAX_BOARD_H = 1860  # 1.55 times the width: near-square, yet not square (Android crops squares)
MIN_MAP_H = 800
BAND_GAP = 24
WALL = (20, 20, 24)
FLOOR = (100, 100, 116)
CORRIDOR = (128, 118, 98)
DOOR = (150, 95, 45)
DOOR_EDGE = (230, 180, 120)
BARS = (215, 215, 215)
CHASM = (0, 0, 0)
DARK = (38, 30, 58)
Rect = tuple[float, float, float, float]
POWER = {"S": 1, "M": 2, "L": 3}
SIZE_WORD = {"S": "small", "M": "big", "L": "huge"}
ROOM_WORDS = {
    "trap": "trap room",
    "pit": "pit room",
    "darkness": "chamber of darkness",
    "web": "spider web",
    "rubble": "rubble",
    "rotating": "rotating room",
    "catacomb-entrance": "catacomb entrance",
    "crypt": "crypt",
    "catacomb": "catacomb stair (2 rooms)",
}


def _canvas(width: int, height: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), PALETTE["bg"])
    return img, ImageDraw.Draw(img)


def _tint(
    c: tuple[int, int, int], base: tuple[int, int, int] = FLOOR, k: float = 0.6
) -> tuple[int, int, int]:
    r, g, b = (int(base[i] * (1 - k) + c[i] * k) for i in range(3))
    return (r, g, b)


def _half(rect: Rect, side: int) -> Rect:
    x0, y0, x1, y1 = rect
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    return ((x0, y0, x1, my), (mx, y0, x1, y1), (x0, my, x1, y1), (x0, y0, mx, y1))[side]


def area_rects(tile: dict[str, Any], rect: Rect) -> list[Rect]:
    """Where each area of a tile lies (a whole cell, or one half of a two-room tile)."""
    if len(tile["areas"]) == 1:
        return [rect]
    return [_half(rect, a["sides"][0]) for a in tile["areas"]]


def _gap(rect: Rect, side: int, depth: float, width: float) -> Rect:
    """The doorway strip of ``side``: ``width`` long, ``depth`` deep into the tile."""
    x0, y0, x1, y1 = rect
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    h = width / 2
    return (
        (mx - h, y0, mx + h, y0 + depth),
        (x1 - depth, my - h, x1, my + h),
        (mx - h, y1 - depth, mx + h, y1),
        (x0, my - h, x0 + depth, my + h),
    )[side]


# ---- tiles ---------------------------------------------------------------------------------------


def _corridor(d: ImageDraw.ImageDraw, tile: dict[str, Any], rect: Rect) -> None:
    x0, y0, x1, y1 = rect
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 6
    d.rectangle((cx - half, cy - half, cx + half, cy + half), fill=CORRIDOR)
    for side in tile["areas"][0]["sides"]:
        d.rectangle(
            (
                (cx - half, y0, cx + half, cy),
                (cx, cy - half, x1, cy + half),
                (cx - half, cy, cx + half, y1),
                (x0, cy - half, cx, cy + half),
            )[side],
            fill=CORRIDOR,
        )


def _rooms(d: ImageDraw.ImageDraw, tile: dict[str, Any], rect: Rect, w: float) -> None:
    cs = rect[2] - rect[0]
    for area, r in zip(tile["areas"], area_rects(tile, rect), strict=True):
        fill = DARK if tile["kind"] == "darkness" else FLOOR
        if area.get("owner") is not None:
            fill = _tint(seat_colour(area["owner"]), fill)
        d.rectangle((r[0] + w, r[1] + w, r[2] - w, r[3] - w), fill=fill)
        for side in area["sides"]:  # open the room to its doorways
            d.rectangle(_gap(rect, side, w, cs / 3), fill=fill)
        if area.get("contested"):
            _hatch(d, (r[0] + w, r[1] + w, r[2] - w, r[3] - w))
    if tile.get("link") in ("bridge", "chasm", "catacomb"):
        _divide(d, tile, rect)


def _hatch(d: ImageDraw.ImageDraw, r: Rect) -> None:
    """White diagonal stripes: a tied zone, nobody scores these rooms."""
    x0, y0, x1, y1 = r
    step = 16
    k = -(y1 - y0)
    while k < x1 - x0:
        a = (x0 + max(k, 0), y0 + max(-k, 0))
        b_len = min(x1 - a[0], y1 - a[1])
        d.line((a[0], a[1], a[0] + b_len, a[1] + b_len), fill=(235, 235, 235), width=2)
        k += step


def _divide(d: ImageDraw.ImageDraw, tile: dict[str, Any], rect: Rect) -> None:
    """The chasm between the two rooms, the bridge over it, or the stairs down to the catacombs."""
    x0, y0, x1, y1 = rect
    cs = x1 - x0
    t = cs / 10
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    across = tile["areas"][0]["sides"][0] in (0, 2)  # rooms north and south: the band runs east-west
    band = (x0, my - t, x1, my + t) if across else (mx - t, y0, mx + t, y1)
    if tile["link"] == "catacomb":
        d.rectangle(band, fill=WALL)
        for i in range(3):  # steps down on both sides
            k = t * (1 - i / 3)
            step = (mx - 2.2 * t + i * 0.5 * t, my - k, mx + 2.2 * t - i * 0.5 * t, my + k)
            d.rectangle(
                step
                if across
                else (step[1] - my + mx, step[0] - mx + my, step[3] - my + mx, step[2] - mx + my),
                fill=(170, 160, 140),
                outline=WALL,
            )
        return
    d.rectangle(band, fill=CHASM)
    if tile["link"] == "bridge":
        plank = (
            (mx - t, my - 2.2 * t, mx + t, my + 2.2 * t)
            if across
            else (mx - 2.2 * t, my - t, mx + 2.2 * t, my + t)
        )
        d.rectangle(plank, fill=DOOR, outline=DOOR_EDGE)


def _doors(d: ImageDraw.ImageDraw, tile: dict[str, Any], rect: Rect, w: float) -> None:
    """Doors (wood) and portcullises (a grid of iron bars) in the doorway on the tile's edge."""
    cs = rect[2] - rect[0]
    for side, edge in enumerate(tile["edges"]):
        if edge not in ("door", "portcullis"):
            continue
        r = _gap(rect, side, max(10.0, cs * 0.13), cs * 0.4)
        if edge == "door":
            d.rectangle(r, fill=DOOR, outline=DOOR_EDGE, width=3)
            continue
        d.rectangle(r, fill=WALL)
        x0, y0, x1, y1 = r
        for i in range(5):  # iron bars, crossed
            xx, yy = x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * i / 4
            d.line((xx, y0, xx, y1), fill=BARS, width=3)
            d.line((x0, yy, x1, yy), fill=BARS, width=3)


def icon(d: ImageDraw.ImageDraw, kind: str, c: tuple[float, float], s: float) -> None:
    """The picture a special room shows, centred on ``c``, about ``s`` across."""
    x, y, h = c[0], c[1], s / 2
    light, grey = (235, 235, 235), (160, 160, 165)
    if kind == "trap":  # spikes
        for i in range(3):
            bx = x - h + i * s / 3
            d.polygon([(bx, y + h * 0.6), (bx + s / 6, y - h * 0.6), (bx + s / 3, y + h * 0.6)], fill=light)
    elif kind == "pit":
        d.ellipse((x - h, y - h * 0.7, x + h, y + h * 0.7), fill=CHASM, outline=grey, width=3)
    elif kind == "darkness":  # a moon in the dark
        d.ellipse((x - h * 0.7, y - h * 0.7, x + h * 0.7, y + h * 0.7), fill=(220, 220, 160))
        d.ellipse((x - h * 0.3, y - h * 0.9, x + h * 0.9, y + h * 0.5), fill=DARK)
    elif kind == "web":
        for k in range(4):
            a = k * math.pi / 4
            d.line(
                (x - h * math.cos(a), y - h * math.sin(a), x + h * math.cos(a), y + h * math.sin(a)),
                fill=light,
                width=2,
            )
        for rr in (h * 0.45, h * 0.9):
            d.ellipse((x - rr, y - rr, x + rr, y + rr), outline=light, width=2)
    elif kind == "rubble":
        for dx, dy, rr in ((-0.5, 0.3, 0.35), (0.3, 0.35, 0.4), (0.0, -0.3, 0.3), (0.6, -0.3, 0.25)):
            d.ellipse(
                (x + dx * h - rr * h, y + dy * h - rr * h, x + dx * h + rr * h, y + dy * h + rr * h),
                fill=grey,
                outline=WALL,
            )
    elif kind == "rotating":  # a turning arrow
        d.arc((x - h, y - h, x + h, y + h), 30, 330, fill=light, width=4)
        d.polygon(
            [(x + h * 0.87, y - h * 0.1), (x + h * 1.25, y - h * 0.75), (x + h * 0.45, y - h * 0.7)],
            fill=light,
        )
    elif kind in ("catacomb-entrance", "stairs"):  # stairs going down
        for i in range(3):
            d.rectangle(
                (x - h + i * h / 3, y - h + i * s / 3, x + h - i * h / 3, y - h + (i + 1) * s / 3),
                fill=(170, 160, 140),
                outline=WALL,
            )
    elif kind == "crypt":  # a coffin
        d.polygon(
            [
                (x - h * 0.3, y - h),
                (x + h * 0.3, y - h),
                (x + h * 0.5, y - h * 0.4),
                (x + h * 0.3, y + h),
                (x - h * 0.3, y + h),
                (x - h * 0.5, y - h * 0.4),
            ],
            fill=(120, 80, 50),
            outline=light,
        )
        d.line((x, y - h * 0.6, x, y + h * 0.2), fill=light, width=2)
        d.line((x - h * 0.25, y - h * 0.3, x + h * 0.25, y - h * 0.3), fill=light, width=2)


def draw_tile(d: ImageDraw.ImageDraw, tile: dict[str, Any], rect: Rect, crowded: bool = False) -> None:
    cs = rect[2] - rect[0]
    w = max(4, int(cs * 0.07))
    d.rectangle(rect, fill=WALL)
    if tile["kind"] == "corridor":
        _corridor(d, tile, rect)
    else:
        _rooms(d, tile, rect, w)
    _doors(d, tile, rect, w)
    if tile["kind"] in ROOM_WORDS and tile["kind"] != "catacomb":
        x0, y0 = rect[0], rect[1]
        if crowded:  # in the corner, where the monsters (drawn in the middle) leave it visible
            icon(d, tile["kind"], (x0 + w + cs * 0.17, y0 + w + cs * 0.17), cs * 0.28)
        else:
            icon(d, tile["kind"], ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), cs * 0.5)


# ---- monsters --------------------------------------------------------------------------------------


def monster(d: ImageDraw.ImageDraw, seat: int, size: str, c: tuple[float, float], r: float) -> None:
    """A disc in the seat colour with its power; a huge one has a double ring."""
    x, y = c
    d.ellipse((x - r, y - r, x + r, y + r), fill=seat_colour(seat), outline=(0, 0, 0), width=3)
    if size == "L":
        d.ellipse((x - r + 5, y - r + 5, x + r - 5, y + r - 5), outline=(0, 0, 0), width=2)
    text(d, (x, y), str(POWER[size]), max(SMALL, int(r * 1.35)), "black", "mm")


def _fit(n: int, r: Rect, cs: float) -> tuple[float, int, int, float]:
    """How ``n`` monsters sit in a room: the discs' radius, how many a row, how many shown
    (the rest behind one "+n" disc) and the step from one disc to the next."""
    w, h = r[2] - r[0] - 4, r[3] - r[1] - 4
    radius, per_row = cs * 0.1, 1
    for per_row in range(1, n + 1):
        rows = -(-n // per_row)
        radius = min(w / per_row, h / rows) / 2 - 2
        if per_row * 2 * (radius + 2) <= w and radius >= cs * 0.13:
            break
    radius = min(radius, cs * 0.22)
    if radius >= MAP_R:
        cap = per_row * max(1, int(h // (2 * radius + 3)))
        return radius, per_row, n if n <= cap else cap - 1, 2 * radius + 3
    # Discs big enough for their power's digit, overlapping a little (never over a digit).
    radius, step = MAP_R, 1.65 * MAP_R
    per_row = max(1, int((w - 2 * radius) // step) + 1)
    cap = per_row * max(1, int((h - 2 * radius) // step) + 1)
    return radius, min(per_row, n), n if n <= cap else cap - 1, step


def _monsters(d: ImageDraw.ImageDraw, ms: list[dict[str, Any]], r: Rect, cs: float) -> None:
    """Monsters in one room, as big as the room lets them be (one alone fills a good third)."""
    x0, y0, x1, y1 = r
    ms = sorted(ms, key=lambda m: (m["seat"], "LMS".index(m["size"])))
    radius, per_row, n, step = _fit(len(ms), r, cs)
    shown = ms[:n]
    slots = len(shown) + (len(shown) < len(ms))
    total_rows = -(-slots // per_row)
    oy = (y0 + y1) / 2 - total_rows * step / 2 + step / 2
    for i in range(slots):
        row, col = divmod(i, per_row)
        in_row = min(per_row, slots - row * per_row)
        cx = (x0 + x1) / 2 - in_row * step / 2 + step / 2 + col * step
        cy = oy + row * step
        if i < len(shown):
            monster(d, shown[i]["seat"], shown[i]["size"], (cx, cy), radius)
        else:
            d.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=(0, 0, 0))
            text(d, (cx, cy), f"+{len(ms) - len(shown)}", SMALL, "white", "mm")


# ---- the map layout ---------------------------------------------------------------------------------


def cell_xy(cell: str) -> tuple[int, int]:
    x, y = cell.split(",")
    return int(x), int(y)


def layout(
    view: dict[str, Any], width: int = WIDTH, max_h: int = MAX_MAP_H
) -> tuple[int, list[tuple[range, range]]]:
    """The cell size and the bands: (columns, rows) pieces of the occupied area plus one
    cell of margin. A long dungeon folds into bands (stacked for a wide one, side by side
    for a tall one) when that gives clearly bigger cells within a near-square picture
    (``max_h`` high); else it is drawn in one piece, which is easier to follow."""
    cells = [cell_xy(t["cell"]) for t in view["tiles"]] or [(0, 0)]
    xs = range(min(c[0] for c in cells) - 1, max(c[0] for c in cells) + 2)
    ys = range(min(c[1] for c in cells) - 1, max(c[1] for c in cells) + 2)
    usable = width - 2 * MARGIN - LABEL_W
    options: list[tuple[float, list[tuple[range, range]]]] = []
    for k in range(1, 5):
        per = -(-len(xs) // k)  # k bands stacked, each a run of columns
        room = (max_h - k * (LABEL_H + BAND_GAP)) / (k * len(ys))
        options.append(
            (min(MAX_CELL, usable / per, room), [(xs[i : i + per], ys) for i in range(0, len(xs), per)])
        )
        if k > 1:  # k bands side by side, each a run of rows
            per = -(-len(ys) // k)
            across = ((width - 2 * MARGIN + BAND_GAP) / k - LABEL_W - BAND_GAP) / len(xs)
            bands = [(xs, ys[i : i + per]) for i in range(0, len(ys), per)]
            options.append((min(MAX_CELL, across, (max_h - LABEL_H) / per), bands))
    whole = options[0][0]
    gain = 1.0 if whole < MIN_CELL else FOLD_GAIN
    cs, bands = max(options, key=lambda o: o[0] if len(o[1]) == 1 or o[0] > whole * gain else 0)
    return int(cs), bands


def _band_boxes(cs: int, bands: list[tuple[range, range]], top: int, width: int) -> list[tuple[int, int]]:
    """The top-left corner of each band's grid."""
    out = []
    if len(bands) > 1 and bands[0][1] != bands[1][1]:  # side by side
        x = MARGIN + LABEL_W
        for cols, _rows in bands:
            out.append((x, top + LABEL_H))
            x += len(cols) * cs + LABEL_W + BAND_GAP
        return out
    y = top
    for cols, rows in bands:
        x = max(MARGIN + LABEL_W, (width - len(cols) * cs + LABEL_W) // 2)
        out.append((x, y + LABEL_H))
        y += LABEL_H + len(rows) * cs + BAND_GAP
    return out


def map_height(cs: int, bands: list[tuple[range, range]]) -> int:
    if len(bands) > 1 and bands[0][1] != bands[1][1]:
        return LABEL_H + max(len(r) for _c, r in bands) * cs
    return sum(LABEL_H + len(r) * cs + BAND_GAP for _c, r in bands) - BAND_GAP


def draw_map(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    cs: int,
    bands: list[tuple[range, range]],
    top: int,
    width: int,
) -> None:
    exits = set(view.get("free_exits") or [])
    for (cols, rows), origin in zip(bands, _band_boxes(cs, bands, top, width), strict=True):
        _grid(d, view, cols, rows, origin, cs, exits)


def _coord(d: ImageDraw.ImageDraw, xy: tuple[float, float], n: int, anchor: str) -> None:
    """A column or row number, drawn bold: a plain minus sign is 2 px thick and vanishes when a
    phone shows the board at a third of its size, turning -1 into 1. Bold is the cached label
    drawn at four offsets (never FreeType at draw time: boards are drawn on worker threads)."""
    for dx, dy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        text(d, (xy[0] + dx, xy[1] + dy), str(n), SMALL, "text", anchor)


def _cell(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    tile: dict[str, Any] | None,
    cell: str,
    rect: Rect,
    exits: set[str],
    by_area: dict[str, list[dict[str, Any]]],
) -> None:
    cs = rect[2] - rect[0]
    if tile is None:
        d.rectangle(rect, outline=PALETTE["panel2"], width=1)
        if cell in exits:
            d.rectangle(rect, outline=PALETTE["accent"], width=4)
            text(d, ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), "exit", SMALL, "accent", "mm")
        elif not view["tiles"] and cell == "0,0":
            box(d, rect, "panel", "accent", 4, 6)
            text(d, ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2), "start", SMALL, "accent", "mm")
        return
    draw_tile(d, tile, rect, any(a["label"] in by_area for a in tile["areas"]))
    last = view.get("last") or {}
    if cell in last.get("cells", ()):  # the final board's last tiles are both: yellow says more
        d.rectangle(rect, outline=PALETTE["accent"], width=5)
    elif tile["new"]:
        d.rectangle(rect, outline=PALETTE["white"], width=5)
    for area, r in zip(tile["areas"], area_rects(tile, rect), strict=True):
        if area["label"] == last.get("to"):  # where the last turn's monster went
            d.rectangle((r[0] + 8, r[1] + 8, r[2] - 8, r[3] - 8), outline=PALETTE["accent"], width=3)
        if area["label"] in by_area:
            _monsters(d, by_area[area["label"]], r, cs)


# ---- text blocks -------------------------------------------------------------------------------------


def wrap(s: str, size: int, width: float) -> list[str]:
    """``s`` in lines no wider than ``width``, broken between words."""
    lines: list[str] = []
    for word in s.split(" "):
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _title(view: dict[str, Any]) -> str:
    extra = [w for w, on in (("beginner", view.get("beginner")), ("Catacombs", view.get("catacombs"))) if on]
    return "Dungeon Lair" + (f" ({', '.join(extra)})" if extra else "")


def header_lines(view: dict[str, Any], names: list[str], width: int) -> list[str]:
    status = name_seats(view["status"], names)
    if not view["over"]:
        status += f" Stack: {view['deck']} tiles."
    return wrap(status, BIG, width - 2 * MARGIN)


def last_lines(view: dict[str, Any], names: list[str], width: int) -> list[str]:
    """The last turn in words (the yellow frames and the white ring show where)."""
    last = view.get("last")
    if not last:
        return []
    return wrap("Last turn: " + name_seats(" ".join(last["lines"]), names), SMALL, width - 2 * MARGIN)


def header_height(view: dict[str, Any], names: list[str], width: int) -> int:
    return 64 + 46 * len(header_lines(view, names, width)) + 34 * len(last_lines(view, names, width)) + 12


def draw_header(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], width: int) -> int:
    h = header_height(view, names, width)
    d.rectangle((0, 0, width, h - 12), fill=PALETTE["panel"])
    text(d, (MARGIN, 10), _title(view), BIG, "accent", role="title")
    y = 58
    for line in header_lines(view, names, width):
        text(d, (MARGIN, y), line, BIG, "text", role="turn")
        y += 46
    for line in last_lines(view, names, width):
        text(d, (MARGIN, y), line, SMALL, "accent")
        y += 34
    return h


PLAYER_H = 108


def players_height(view: dict[str, Any]) -> int:
    return ((len(view["players"]) + 1) // 2) * (PLAYER_H + 8)


def draw_players(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], top: int, width: int
) -> None:
    """Two columns of players: name, rooms held now (final rooms at the end), tiles and
    monsters in hand; the player to act is framed and flagged, the winners crowned."""
    col_w = (width - 2 * MARGIN - 12) // 2
    winners = set(view.get("winners") or [])
    for i, p in enumerate(view["players"]):
        s = p["seat"]
        x = MARGIN + (i % 2) * (col_w + 12)
        y = top + (i // 2) * (PLAYER_H + 8)
        turn = s == view["current"] and not view["over"]
        won = s in winners
        box(
            d,
            (x, y, x + col_w, y + PLAYER_H),
            "panel2" if turn or won else "panel",
            "accent" if turn or won else "line",
            4 if turn or won else 2,
            8,
        )
        d.ellipse((x + 10, y + 10, x + 40, y + 40), fill=seat_colour(s), outline=(0, 0, 0), width=2)
        rooms = f"{p['score']} rooms" if p["score"] != 1 else "1 room"
        right = ("WINNER  " if won else "") + (rooms if view["over"] else f"{rooms} now")
        rw = text_width(right, BIG)
        name = names[s] if s < len(names) else p["name"]
        while len(name) > 3 and text_width(name, BIG) > col_w - rw - 80:
            name = name[:-2] + "…"
        text(d, (x + 50, y + 6), name, BIG, "accent" if turn else "text")
        text(d, (x + col_w - 12, y + 6), right, BIG, "accent" if won else "text", "ra", role="score")
        _hand_line(d, p, turn, (x, y + 56, x + col_w))


def _hand_line(d: ImageDraw.ImageDraw, p: dict[str, Any], turn: bool, at: tuple[int, int, int]) -> None:
    """Tiles in hand on the left, the monsters in hand as discs on the right: apart, so
    the words never run into the discs."""
    x, y, right = at
    n = p["tiles_in_hand"]
    tiles = ("to play: " if turn else "") + f"{n} tile{'s' if n != 1 else ''} in hand"
    text(d, (x + 14, y + 4), tiles, SMALL, "accent" if turn else "muted")
    room = right - (x + 14 + text_width(tiles, SMALL) + 24)
    discs = [z for z in ("L", "M", "S") for _ in range(p["monsters_in_hand"][z])]
    step = min(2 * MIN_R + 4, (room - 2 * MIN_R - 12) / max(1, len(discs) - 1))  # overlap rather than collide
    for k, size in enumerate(reversed(discs)):  # from the right edge leftwards
        monster(d, p["seat"], size, (right - 12 - MIN_R - k * step, y + 20), MIN_R)


PLAIN = ("trap", "pit", "darkness", "web", "rubble", "rotating", "crypt")


def legend_items(view: dict[str, Any], crowded: bool = False) -> list[tuple[str, str]]:
    """(sample, words) for every mark the map shows, in a fixed order, each saying what
    the mark does (issue 28: the legend named room features whose effect no text gave)."""
    kinds = {t["kind"] for t in view["tiles"]}
    edges = {e for t in view["tiles"] for e in t["edges"]}
    areas = [a for t in view["tiles"] for a in t["areas"]]
    cata = bool(view.get("catacombs"))
    last = view.get("last") or {}
    out = [("monsters", "monster, power 1, 2, 3: the most power holds the rooms it reaches")]
    if any(a.get("owner") is not None for a in areas):
        out.append(("held", "tinted room: that player holds it, 1 point"))
    if any(a.get("contested") for a in areas):
        out.append(("tied", "striped: a tie, nobody scores it"))
    if "door" in edges:
        out.append(("door", "door: stops control; a move may pass one"))
    if "portcullis" in edges:
        out.append(("portcullis", "portcullis: stops control and every move"))
    if "bridge" in kinds:
        out.append(
            (
                "bridge",
                "bridge: two rooms; moves cross, control does not" if cata else "bridge: two rooms, joined",
            )
        )
    if "chasm" in kinds:
        out.append(("chasm", "chasm: two rooms, kept apart"))
    if "catacomb" in kinds:
        out.append(("catacomb", "catacomb stair: two rooms, joined only below"))
    plain = [k for k in PLAIN if k in kinds] + (
        ["catacomb-entrance"] if "catacomb-entrance" in kinds and not cata else []
    )
    for i in range(0, len(plain), 3):  # the pictures in threes, named in the order drawn
        group = plain[i : i + 3]
        named = ", ".join(ROOM_WORDS[k] for k in group)
        out.append(
            ("rooms:" + ",".join(group), f"{named}: plain room{'s' if len(group) > 1 else ''}, no effect")
        )
    if cata and "catacomb-entrance" in kinds:
        out.append(("catacomb-entrance", "catacomb entrance: moves go between them, control does not"))
    if view.get("free_exits"):
        out.append(("exit", "exit: where the corridor goes on"))
    if any(t["new"] and t["cell"] not in last.get("cells", ()) for t in view["tiles"]):
        out.append(("new", "white frame: placed this turn"))
    if last.get("cells"):
        out.append(("last", "yellow frame: the last turn's tile"))
    if last.get("to"):
        out.append(("went", "yellow box: where the last turn's monster went"))
    if crowded:
        out.append(("more", "+2: two more monsters in that room"))
    return out


def _sample_width(kind: str) -> int:
    if kind == "monsters":
        return 3 * (2 * MIN_R + 4)
    if kind.startswith("rooms:"):
        return 50 * len(kind.split(",")) + 6
    return 56


def _sample(d: ImageDraw.ImageDraw, kind: str, r: Rect) -> None:
    x0, y0, x1, y1 = r
    c = ((x0 + x1) / 2, (y0 + y1) / 2)
    if kind == "monsters":
        for i, size in enumerate("SML"):
            monster(d, 0, size, (x0 + MIN_R + i * (2 * MIN_R + 4), c[1]), MIN_R)
        return
    if kind.startswith("rooms:"):
        for i, k in enumerate(kind[6:].split(",")):
            _sample(d, k, (x0 + 50 * i, y0, x0 + 50 * i + 44, y1))
        return
    d.rectangle(r, fill=WALL)
    inner = (x0 + 4, y0 + 4, x1 - 4, y1 - 4)
    if kind == "more":
        d.ellipse((x0 + 8, y0, x0 + 48, y1), fill=(0, 0, 0), outline=PALETTE["line"])
        text(d, (x0 + 28, c[1]), "+2", SMALL, "white", "mm")
        return
    if kind in ("held", "tied", "new", "last", "went", "exit"):
        d.rectangle(inner, fill=_tint(seat_colour(1)) if kind == "held" else FLOOR)
        if kind == "tied":
            _hatch(d, inner)
        if kind in ("new", "last", "exit"):
            d.rectangle(r, outline=PALETTE["white" if kind == "new" else "accent"], width=4)
        if kind == "went":
            d.rectangle((x0 + 10, y0 + 8, x1 - 10, y1 - 8), outline=PALETTE["accent"], width=3)
    elif kind in ("door", "portcullis"):
        d.rectangle(inner, fill=FLOOR)
        fake = {"edges": ["wall", "wall", "wall", kind], "kind": "room"}
        _doors(d, fake, (x0, y0, x0 + (y1 - y0) * 1.6, y1), 4)
    elif kind in ("bridge", "chasm", "catacomb"):
        d.rectangle(inner, fill=FLOOR)
        _divide(d, {"link": kind, "areas": [{"sides": [0]}]}, (x0 + 10, y0, x0 + 10 + (y1 - y0), y1))
    else:
        d.rectangle(inner, fill=DARK if kind == "darkness" else FLOOR)
        icon(d, kind, ((x0 + x1) / 2, c[1]), (y1 - y0) * 0.7)


def crowded(view: dict[str, Any], cs: int | None) -> bool:
    """Whether a room shows a "+n" disc at cell size ``cs`` (None: whether one might,
    at any size: a room with two monsters or more)."""
    counts: dict[str, int] = {}
    for m in view["monsters"]:
        counts[m["at"]] = counts.get(m["at"], 0) + 1
    if cs is None:
        return any(n > 1 for n in counts.values())
    for tile in view["tiles"]:
        for area, r in zip(tile["areas"], area_rects(tile, (0, 0, cs - 2, cs - 2)), strict=True):
            n = counts.get(area["label"], 0)
            if n and _fit(n, r, cs)[2] < n:
                return True
    return False


def legend_rows(view: dict[str, Any], width: int, more: bool = False) -> list[list[tuple[str, str, float]]]:
    rows: list[list[tuple[str, str, float]]] = [[]]
    used = 0.0
    for kind, words in legend_items(view, more):
        w = _sample_width(kind) + 8 + text_width(words, SMALL) + 28
        if rows[-1] and used + w > width - 2 * MARGIN:
            rows.append([])
            used = 0.0
        rows[-1].append((kind, words, w))
        used += w
    return rows


def draw_legend(
    d: ImageDraw.ImageDraw, view: dict[str, Any], top: int, width: int, more: bool = False
) -> int:
    y = top
    for row in legend_rows(view, width, more):
        x = float(MARGIN)
        for kind, words, w in row:
            sw = _sample_width(kind)
            _sample(d, kind, (x, y, x + sw, y + 40))
            text(d, (x + sw + 8, y + 20), words, SMALL, "muted", "lm")
            x += w
        y += 50
    return y


def footer(view: dict[str, Any], names: list[str]) -> str:
    if view["over"]:
        ranked = sorted(view["players"], key=lambda p: -p["score"])
        # "Bot 3: 9 points", never "Bot 3 9": a computer's name ends in a number.
        return (
            "Final score: "
            + "; ".join(
                f"{names[p['seat']]}: {p['score']} point{'' if p['score'] == 1 else 's'}" for p in ranked
            )
            + "."
        )
    removed = len(view["removed"])
    return f"Tiles left: {view['deck']} in the stack. Removed from the game: {removed}."


# ---- the images ------------------------------------------------------------------------------------------


def board(view: dict[str, Any], names: list[str]) -> bytes:
    head = header_height(view, names, WIDTH)
    final = wrap(footer(view, names), BIG, WIDTH - 2 * MARGIN) if view["over"] else []
    head += 46 * len(final)
    players_h = players_height(view)
    map_top = head + players_h + 16
    foot = [] if view["over"] else wrap(footer(view, names), SMALL, WIDTH - 2 * MARGIN)
    chrome = map_top + 20 + 50 * len(legend_rows(view, WIDTH, crowded(view, None))) + 40 * len(foot) + 20
    # The map gets what the rest leaves of a near-square picture.
    cs, bands = layout(view, WIDTH, min(MAX_MAP_H, max(MIN_MAP_H, MAX_BOARD_H - chrome)))
    mh = map_height(cs, bands)
    more = crowded(view, cs)
    legend_h = 50 * len(legend_rows(view, WIDTH, more))
    height = map_top + mh + 20 + legend_h + 40 * len(foot) + 20
    img, d = _canvas(WIDTH, height)
    y = draw_header(d, view, names, WIDTH)
    for i, line in enumerate(final):  # the final scores, big, right under the title
        text(d, (MARGIN, y + 46 * i), line, BIG, "accent")
    draw_players(d, view, names, head, WIDTH)
    draw_map(d, view, cs, bands, map_top, WIDTH)
    y = draw_legend(d, view, map_top + mh + 20, WIDTH, more)
    for i, line in enumerate(foot):
        text(d, (MARGIN, y + 4 + 40 * i), line, SMALL, "muted")
    return to_png(to_palette(img))


def area(view: dict[str, Any], names: list[str]) -> bytes | None:
    """'My area', about 600 px wide at twice the board's scale: each tile in hand in
    every distinct turn (with the turn you type), and the monsters in hand."""
    mine = (view.get("mine") or {}).get("tiles") or []
    seat = view.get("viewer")
    if seat is None:
        return None
    me = view["players"][seat]
    rows = 60 + (len(mine) * 250 if mine else 50) + 160
    img, d = _canvas(AREA_WIDTH, rows)
    name = names[seat] if seat < len(names) else me["name"]
    text(d, (MARGIN, 12), f"{name}: your hand", BIG, "accent")
    y = 60
    if not mine:
        text(d, (MARGIN, y), "You hold no tile now.", SMALL)
        y += 50
    for t in mine:
        text(d, (MARGIN, y), f"Tile {t['letter']}: {t['name']} (T{t['id']})", SMALL)
        y += 40
        for k, rot in enumerate(_turns(t)):
            x = MARGIN + k * 142
            draw_tile(d, _turned(t, rot), (x, y, x + 130, y + 130))
            text(d, (x + 65, y + 140), f"turn {rot}", SMALL, "muted", "ma")
        y += 210
    text(d, (MARGIN, y), "Monsters in hand:", SMALL)
    x = MARGIN + 10
    for size in ("L", "M", "S"):
        for _ in range(me["monsters_in_hand"][size]):
            monster(d, seat, size, (x + 24, y + 72), 24)
            x += 56
    if x == MARGIN + 10:
        text(d, (MARGIN, y + 50), "none: all are in the dungeon.", 26, "muted")
    text(d, (MARGIN, y + 110), "1 small, 2 big, 3 huge (power)", SMALL, "muted")
    return to_png(to_palette(img))


def _turns(tile: dict[str, Any]) -> list[int]:
    """The turns that look different (a crossroads has one)."""
    seen, out = set(), []
    for rot in (0, 90, 180, 270):
        t = _turned(tile, rot)
        key = (tuple(t["edges"]), tuple(tuple(a["sides"]) for a in t["areas"]))
        if key not in seen:
            seen.add(key)
            out.append(rot)
    return out


def _turned(tile: dict[str, Any], rot: int) -> dict[str, Any]:
    k = rot // 90
    edges = ["wall"] * 4
    for i, e in enumerate(tile["edges"]):
        edges[(i + k) % 4] = e
    areas = [
        {"sides": sorted((s + k) % 4 for s in a["sides"]), "room": a["room"], "owner": None}
        for a in tile["areas"]
    ]
    return {**tile, "edges": edges, "areas": sorted(areas, key=lambda a: a["sides"]), "new": False}


# ---- the chooser's preview (issue 26) ---------------------------------------------------------------

PREVIEW_W = 800


def _window(cells: list[str]) -> tuple[range, range]:
    """The candidates' cells with one cell of the map around them."""
    xy = [cell_xy(c) for c in cells]
    xs = range(min(x for x, _ in xy) - 1, max(x for x, _ in xy) + 2)
    ys = range(min(y for _, y in xy) - 1, max(y for _, y in xy) + 2)
    return xs, ys


def _label(d: ImageDraw.ImageDraw, centre: tuple[float, float], s: str, size: int) -> None:
    """A candidate's label on a dark plate, readable on any tile."""
    w = text_width(s, size) + 10
    x, y = centre
    d.rectangle(
        (x - w / 2, y - size * 0.7, x + w / 2, y + size * 0.7), fill=(0, 0, 0), outline=PALETTE["accent"]
    )
    text(d, (x, y), s, size, "accent", "mm")


def _grid(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    xs: range,
    ys: range,
    origin: tuple[int, int],
    cs: int,
    exits: set[str] | None = None,
) -> dict[str, Rect]:
    """The map's cells in ``xs`` x ``ys`` from ``origin`` (tiles and monsters, with the column
    and row numbers, and the free ``exits`` marked): one band of the board, or the part of
    the map a preview shows; returns each cell's rectangle."""
    gx, gy = origin
    tiles = {t["cell"]: t for t in view["tiles"]}
    by_area: dict[str, list[dict[str, Any]]] = {}
    for m in view["monsters"]:
        by_area.setdefault(m["at"], []).append(m)
    rects: dict[str, Rect] = {}
    for i, x in enumerate(xs):
        _coord(d, (gx + i * cs + cs / 2, gy - 4), x, "md")
    for j, y in enumerate(ys):
        _coord(d, (gx - 10, gy + j * cs + cs / 2), y, "rm")
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            cell = f"{x},{y}"
            rect = (gx + i * cs + 1, gy + j * cs + 1, gx + (i + 1) * cs - 1, gy + (j + 1) * cs - 1)
            rects[cell] = rect
            _cell(d, view, tiles.get(cell), cell, rect, exits or set(), by_area)
    return rects


def _tile_places(
    d: ImageDraw.ImageDraw, view: dict[str, Any], pv: dict[str, Any], rects: dict[str, Rect]
) -> None:
    mine = {t["id"]: t for t in (view.get("mine") or {}).get("tiles") or []}
    tile = mine.get(pv["tile"])
    for p in pv["places"]:
        x0, y0, x1, y1 = rects[p["cell"]]
        if tile is not None:  # the tile turned as it would lie there
            draw_tile(d, _turned(tile, p["rot"]), (x0 + 4, y0 + 4, x1 - 4, y1 - 4))
        d.rectangle((x0, y0, x1, y1), outline=PALETTE["accent"], width=4)
        if p["label"]:
            _label(d, ((x0 + x1) / 2, y1 - 14), p["label"], SMALL if x1 - x0 >= 80 else 20)


def _monster_places(
    d: ImageDraw.ImageDraw, view: dict[str, Any], pv: dict[str, Any], rects: dict[str, Rect]
) -> None:
    tiles = {t["cell"]: t for t in view["tiles"]}
    if pv.get("from") and pv["from"].rstrip("nesw") in rects:
        fx0, fy0, fx1, fy1 = rects[pv["from"].rstrip("nesw")]
        d.rectangle((fx0, fy0, fx1, fy1), outline=PALETTE["white"], width=4)
    for p in pv["places"]:
        rect = rects[p["cell"]]
        tile = tiles.get(p["cell"])
        r = rect
        if tile is not None:
            labels = [a["label"] for a in tile["areas"]]
            if p["area"] in labels:
                r = area_rects(tile, rect)[labels.index(p["area"])]
        d.rectangle(r, outline=PALETTE["accent"], width=4)
        rad = max(10, (rect[2] - rect[0]) * 0.13)  # in a corner: the monsters there stay visible
        monster(d, pv["seat"], pv["size"], (r[2] - rad - 7, r[1] + rad + 7), rad)
        _label(d, ((r[0] + r[2]) / 2, r[3] - 14), p["label"], SMALL if rect[2] - rect[0] >= 80 else 20)


def _turns_preview(view: dict[str, Any], pv: dict[str, Any], title: str) -> bytes:
    """Each turn that fits one place on its own copy of the map around it, labelled under it."""
    places = pv["places"]
    xs, ys = _window([places[0]["cell"]])
    per_row = min(2, len(places))
    cs = (PREVIEW_W - 2 * MARGIN - per_row * (LABEL_W + BAND_GAP)) // (3 * per_row)
    block_w, block_h = LABEL_W + 3 * cs + BAND_GAP, LABEL_H + 3 * cs + 44
    rows = -(-len(places) // per_row)
    img, d = _canvas(PREVIEW_W, 60 + rows * block_h)
    text(d, (MARGIN, 12), title, 28, "accent")
    for k, p in enumerate(places):
        ox = MARGIN + LABEL_W + (k % per_row) * block_w
        oy = 60 + (k // per_row) * block_h + LABEL_H
        rects = _grid(d, view, xs, ys, (ox, oy), cs)
        _tile_places(d, view, {**pv, "places": [{**p, "label": ""}]}, rects)
        text(d, (ox + 1.5 * cs, oy + 3 * cs + 8), p["label"], 26, "accent", "ma")
    return to_png(to_palette(img))


def preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """A chooser step that picks a place or a turn: the map around the candidates, each
    labelled exactly as its option reads, the tile drawn turned as it would lie there (or
    the monster standing there). Turns of one place are drawn side by side, each on its own
    copy of the map around that place."""
    places = pv["places"]
    cells = sorted({p["cell"] for p in places})
    turns = pv["kind"] == "tile" and len(cells) == 1 and len(places) > 1
    title = "How it may lie" if turns else "Where it may go"
    if turns:  # the turns of one place, each on its own copy of the map around it
        return _turns_preview(view, pv, title)
    extra = [pv["from"].rstrip("nesw")] if pv.get("from") else []
    xs, ys = _window(cells + extra)
    cs = int(max(64, min(120, (PREVIEW_W - 2 * MARGIN - LABEL_W) / len(xs))))
    width = max(PREVIEW_W, 2 * MARGIN + LABEL_W + len(xs) * cs)
    img, d = _canvas(width, 60 + LABEL_H + len(ys) * cs + 20)
    text(d, (MARGIN, 12), title, 28, "accent")
    rects = _grid(d, view, xs, ys, (MARGIN + LABEL_W, 60 + LABEL_H), cs)
    (_tile_places if pv["kind"] == "tile" else _monster_places)(d, view, pv, rects)
    return to_png(to_palette(img))


def render(view: dict[str, Any], names: list[str] | None = None) -> bytes:
    """The public board (the older entry point of tables/; names default to Player N)."""
    return board(view, names or default_names(view["seats"]))


def render_private(view: dict[str, Any], names: list[str] | None = None) -> bytes | None:
    return area(view, names or default_names(view["seats"]))


RENDERER = Renderer(board=board, area=area, preview=preview)
