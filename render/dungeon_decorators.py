"""Dungeon Decorators board: draft board, score track, boss goals and every
player's dungeon with grid coordinates; private image: your goals and tiles.

Decorations are letters (S skull, P spikes, X swords, T table, K keys, C coffin,
W spiderweb, B bones, * green wild) in their own colours, so colour is never the
only cue. Floors: the tile's paint colour, with a letter (r o y g b p) and a star
drawn for star tiles.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render import Renderer
from render.base import PALETTE, box, canvas, header, seat_colour, text, text_width, to_palette, to_png

W = 1200
FLOOR = {
    "red": (213, 94, 0),
    "orange": (230, 159, 0),
    "yellow": (240, 228, 66),
    "green": (0, 158, 115),
    "blue": (0, 114, 178),
    "purple": (204, 121, 167),
    "grey": (120, 120, 128),
    "star": (120, 120, 128),
}
FLOOR_LETTER = {"red": "r", "orange": "o", "yellow": "y", "green": "g", "blue": "b", "purple": "p"}
ICON = {
    "S": (255, 255, 255),
    "P": (86, 180, 233),
    "X": (255, 170, 60),
    "T": (220, 170, 120),
    "K": (250, 230, 80),
    "C": (220, 140, 230),
    "W": (200, 200, 210),
    "B": (245, 225, 190),
    "*": (60, 220, 100),
}
HELPER = {"sapper": "G", "burrow": "B", "architect": "A", "mimic": "M"}
DECK_COLOUR = {"A": (240, 200, 60), "B": (86, 160, 233)}
WALL = (20, 20, 24)


def _col(x: int) -> str:
    return chr(65 + x)


def _xy(c: str) -> tuple[int, int]:
    return ord(c[0]) - 65, int(c[1:]) - 1


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    import math

    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    draw.polygon(pts, fill=(255, 240, 120), outline=WALL)


def _edge_spots(x: float, y: float, s: float, inset: float) -> list[tuple[float, float]]:
    return [
        (x + s / 2, y + inset),
        (x + s - inset, y + s / 2),
        (x + s / 2, y + s - inset),
        (x + inset, y + s / 2),
    ]


def draw_dungeon_cell(draw: ImageDraw.ImageDraw, x: float, y: float, s: float, cell: dict[str, Any]) -> None:
    fs = 16
    if cell["kind"] == "deco":
        draw.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=(52, 44, 40))
        for (cx, cy), icon in zip(_edge_spots(x, y, s, fs * 0.6), cell["e"], strict=True):
            if icon != "-":
                text(draw, (cx, cy), icon, fs, ICON[icon], "mm")
        return
    floor = cell["floor"]
    draw.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=FLOOR[floor])
    t = max(3, int(s / 10))
    corners = [
        ((x, y), (x + s, y)),
        ((x + s, y), (x + s, y + s)),
        ((x, y + s), (x + s, y + s)),
        ((x, y), (x, y + s)),
    ]
    for d, ((x1, y1), (x2, y2)) in enumerate(corners):
        if not cell["e"][d]:
            draw.line([(x1, y1), (x2, y2)], fill=WALL, width=t)
        else:
            # A passageway: only the wall stubs at the corners.
            stub = s * 0.25
            if y1 == y2:
                draw.line([(x1, y1), (x1 + stub, y1)], fill=WALL, width=t)
                draw.line([(x2 - stub, y2), (x2, y2)], fill=WALL, width=t)
            else:
                draw.line([(x1, y1), (x1, y1 + stub)], fill=WALL, width=t)
                draw.line([(x2, y2 - stub), (x2, y2)], fill=WALL, width=t)
    if cell["t"] == "start":
        text(draw, (x + s / 2, y + s / 2), "ST", fs, "white", "mm")
    elif floor == "star":
        _star(draw, x + s / 2, y + s / 2, s * 0.22)
    else:
        label = ("R" if cell.get("room") else "") + FLOOR_LETTER.get(floor, "")
        if label:
            text(
                draw,
                (x + s / 2, y + s / 2),
                label,
                fs,
                WALL if floor in ("yellow", "orange") else "white",
                "mm",
            )


def draw_tile_face(
    draw: ImageDraw.ImageDraw, x: float, y: float, s: float, info: dict[str, Any] | None
) -> None:
    """A tile as drafted: decoration side up, with its number, the other side's floor
    (bottom right) and its assistant (centre)."""
    if info is None:
        box(draw, (x, y, x + s, y + s), fill="bg", outline="line", radius=6)
        return
    if info["n"] == "G":
        box(draw, (x, y, x + s, y + s), fill=(90, 90, 100), outline="line", radius=6)
        text(draw, (x + s / 2, y + s / 2), "G", 24, "white", "mm")
        text(draw, (x + s / 2, y + s - 12), "room / hall", 16, "text", "mm")
        return
    box(draw, (x, y, x + s, y + s), fill=(52, 44, 40), outline="line", radius=6)
    fs = 20 if s >= 80 else 16
    for (cx, cy), icon in zip(_edge_spots(x, y, s, fs * 0.7), info["edges"], strict=True):
        if icon != "-":
            text(draw, (cx, cy), icon, fs, ICON[icon], "mm")
    q = s * 0.28
    fx, fy = x + s - q - 3, y + s - q - 3
    draw.rectangle([fx, fy, fx + q, fy + q], fill=FLOOR[info["floor"]], outline=WALL)
    if info["floor"] == "star":
        _star(draw, fx + q / 2, fy + q / 2, q * 0.45)
    elif info["floor"] in FLOOR_LETTER:
        text(draw, (fx + q / 2, fy + q / 2), FLOOR_LETTER[info["floor"]], 16, WALL, "mm")
    if info.get("assistant"):
        r = s * 0.17
        cx, cy = x + s / 2, y + s / 2
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(60, 60, 160), outline="white")
        text(draw, (cx, cy), HELPER[info["assistant"]], 16, "white", "mm")


def _wrap(s: str, size: int, width: float) -> list[str]:
    lines: list[str] = []
    cur = ""
    for word in s.split():
        trial = f"{cur} {word}".strip()
        if text_width(trial, size) > width and cur:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines


def _top_height(view: dict[str, Any]) -> int:
    return 270 + (20 * len(view["players"]) if view.get("final") else 0)


def _board(draw: ImageDraw.ImageDraw, view: dict[str, Any], y0: int) -> int:
    box(draw, (12, y0, 700, y0 + _top_height(view)))
    text(draw, (24, y0 + 8), f"Draft board - round {view['round']}", 20, "accent")
    order = view["order"]
    text(draw, (24, y0 + 38), "Turn order:", 18, "muted")
    for i, seat in enumerate(order):
        cx = 150 + i * 60
        draw.ellipse([cx - 16, y0 + 32, cx + 16, y0 + 64], fill=seat_colour(seat), outline="white")
        text(draw, (cx, y0 + 48), f"P{seat + 1}", 16, "black", "mm")
    s = 96
    xs = [24, 134, 354, 464]
    pos_x = {0: xs[0], 1: xs[1], 2: 244, 3: xs[2], 4: xs[3]}
    for spot in range(4):
        info = view["board"][spot] if spot < len(view["board"]) else None
        x = xs[spot]
        draw_tile_face(draw, x, y0 + 78, s, info)
        label = f"{spot + 1}: {info['n']}" if info else f"{spot + 1}: taken"
        text(draw, (x + s / 2, y0 + 186), label, 18, "text", "mm")
    ex = pos_x[2]
    box(draw, (ex, y0 + 78, ex + s, y0 + 78 + s), fill="panel2", outline="accent", radius=6)
    text(draw, (ex + s / 2, y0 + 112), "Draw/", 18, "accent", "mm")
    text(draw, (ex + s / 2, y0 + 134), "Exchange", 18, "accent", "mm")
    text(
        draw,
        (ex + s / 2, y0 + 186),
        "taken" if view["exchange_taken"] is not None else "open",
        18,
        "muted",
        "mm",
    )
    for p in view["players"]:
        if p["draft_pos"] is not None:
            cx = pos_x[p["draft_pos"]] + s / 2
            draw.ellipse([cx - 16, y0 + 200, cx + 16, y0 + 232], fill=seat_colour(p["seat"]), outline="white")
            text(draw, (cx, y0 + 216), f"P{p['seat'] + 1}", 16, "black", "mm")
    bags = view["bags"]
    text(draw, (632, y0 + 90), f"Blue bag {bags['blue']}", 16, "sky", "mm")
    text(draw, (632, y0 + 116), f"Red bag {bags['red']}", 16, "red", "mm")
    text(draw, (632, y0 + 142), f"Hourglass {view['hourglasses']}/3", 16, "accent", "mm")
    text(draw, (632, y0 + 168), f"Generic {view['generic_left']}", 16, "muted", "mm")
    return y0 + _top_height(view) + 10


def _track(draw: ImageDraw.ImageDraw, view: dict[str, Any], y0: int) -> None:
    x0 = 712
    box(draw, (x0, y0, W - 12, y0 + _top_height(view)))
    text(draw, (x0 + 12, y0 + 8), "Score track (50-point chits)", 20, "accent")
    y = y0 + 40
    bar = W - 12 - x0 - 24
    for p in view["players"]:
        c = seat_colour(p["seat"])
        draw.rectangle([x0 + 12, y + 22, x0 + 12 + bar, y + 30], fill=PALETTE["panel2"])
        px = x0 + 12 + bar * p["track"] / 50
        draw.rectangle([x0 + 12, y + 22, px, y + 30], fill=c)
        chips = (
            f"  ({p['chits']} chit{'s' if p['chits'] > 1 else ''} + {p['track']} on the track)"
            if p["chits"]
            else ""
        )
        text(draw, (x0 + 12, y), f"P{p['seat'] + 1}: {p['score']}{chips}", 18, c)
        text(
            draw,
            (W - 24, y),
            f"goals {p['scored_shape']}S {p['scored_deco']}D",
            16,
            "muted",
            "ra",
        )
        y += 30
        if view.get("final"):
            # Game over: the final scoring, category by category.
            b = view["final"][p["seat"]]
            short = {"common colour": "common", "boss A": "boss A", "boss B": "B"}
            parts = ", ".join(f"{short.get(k, k)} {v}" for k, v in b.items())
            text(draw, (x0 + 20, y - 4), parts, 16, "text")
            y += 20
    y += 4
    for b in view["boss"]:
        text(draw, (x0 + 12, y), f"Boss {b['deck']}: {b['name']}", 16, DECK_COLOUR[b["deck"]])
        y += 20
        for line in _wrap(b["text"], 16, bar)[:2]:
            text(draw, (x0 + 20, y), line, 16, "text")
            y += 19


def _dungeon_panel(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], p: dict[str, Any], x0: int, y0: int, w: int
) -> int:
    cells = p["dungeon"]["cells"]
    pts = [_xy(c) for c in cells]
    minx = max(0, min(x for x, _ in pts) - 1)
    maxx = min(12, max(x for x, _ in pts) + 1)
    miny = max(0, min(y for _, y in pts) - 1)
    maxy = min(12, max(y for _, y in pts) + 1)
    cols, rows = maxx - minx + 1, maxy - miny + 1
    s = int(min(56, (w - 50) / cols))
    h = 74 + rows * s + 12
    c = seat_colour(p["seat"])
    turn = view["current"] == p["seat"]
    box(draw, (x0, y0, x0 + w, y0 + h), outline=c if turn else "line", width=3 if turn else 2)
    who = f"P{p['seat'] + 1}" + ("  (to act)" if turn else "")
    text(draw, (x0 + 12, y0 + 8), who, 20, c)
    info = (
        f"{p['score']} pts  rooms {p['dungeon']['rooms']}  arch {p['tokens']['architect']}"
        f"  mimic {p['tokens']['mimic']}  stored {p['storage_count']}  hand {p['hand_count']}"
    )
    text(draw, (x0 + 12, y0 + 34), info, 16, "text")
    new = [t for t in p["new_tiles"]]
    if new:
        labels = ", ".join(str(t["n"]) if t else "?" for t in new)
        text(draw, (x0 + w - 12, y0 + 10), f"new: {labels}", 16, "accent", "ra")
    gx, gy = x0 + 40, y0 + 74
    line = PALETTE["line"]
    for i in range(cols + 1):
        draw.line([(gx + i * s, gy), (gx + i * s, gy + rows * s)], fill=line, width=1)
    for j in range(rows + 1):
        draw.line([(gx, gy + j * s), (gx + cols * s, gy + j * s)], fill=line, width=1)
    for i in range(cols):
        text(draw, (gx + i * s + s / 2, gy - 4), _col(minx + i), 16, "muted", "md")
    for j in range(rows):
        text(draw, (gx - 6, gy + j * s + s / 2), str(miny + j + 1), 16, "muted", "rm")
    for coord, cell in cells.items():
        x, y = _xy(coord)
        draw_dungeon_cell(draw, gx + (x - minx) * s, gy + (y - miny) * s, s, cell)
    if p["dungeon"]["problem"]:
        text(draw, (x0 + 12, y0 + h - 8), "rebuilding (Architect)", 16, "bad", "ld")
    return h


def render(view: dict[str, Any]) -> bytes:
    players = view["players"]
    # Lay out first (heights depend on each dungeon's extent), then draw.
    panel_w = (W - 36) // 2
    heights = []
    for p in players:
        pts = [_xy(c) for c in p["dungeon"]["cells"]]
        cols = min(12, max(x for x, _ in pts) + 1) - max(0, min(x for x, _ in pts) - 1) + 1
        rows = min(12, max(y for _, y in pts) + 1) - max(0, min(y for _, y in pts) - 1) + 1
        s = int(min(56, (panel_w - 50) / cols))
        heights.append(74 + rows * s + 12)
    row_h = [max(heights[i : i + 2]) for i in range(0, len(players), 2)]
    legend_h = 54
    height = 76 + _top_height(view) + 10 + sum(h + 12 for h in row_h) + legend_h
    img, draw = canvas(W, height)
    y = header(draw, W, "Dungeon Decorators", view["status"])
    _track(draw, view, y)
    y = _board(draw, view, y)
    for r, rh in enumerate(row_h):
        for k in range(2):
            i = r * 2 + k
            if i < len(players):
                _dungeon_panel(draw, view, players[i], 12 + k * (panel_w + 12), y, panel_w)
        y += rh + 12
    legend = "S skull  P spikes  X swords  T table  K keys  C coffin  W web  B bones  * wild"
    text(draw, (16, y + 4), legend, 16, "muted")
    text(
        draw,
        (16, y + 26),
        "R room, r/o/y/g/b/p floor colour, star = star tile, ST start; G/B/A/M assistants",
        16,
        "muted",
    )
    # The board has few colours: a palette image encodes about twice as fast and smaller.
    return to_png(to_palette(img))


def _goal_card(draw: ImageDraw.ImageDraw, g: dict[str, Any], x: float, y: float, w: float) -> float:
    h = 150
    box(draw, (x, y, x + w, y + h), fill="panel2")
    text(draw, (x + 10, y + 8), f"{g['id']}  {g['name']}", 18, "accent")
    text(draw, (x + w - 10, y + 8), f"{g['points']} pts", 18, "text", "ra")
    lines = _wrap(g["text"], 16, w - 20)
    for i, line in enumerate(lines[:3]):
        text(draw, (x + 10, y + 34 + i * 19), line, 16, "text")
    if g["kind"] == "shape":
        cs = 26
        rows = [r.split() for r in g["rows"]]
        sx = x + w - 14 - cs * max(len(r) for r in rows)
        sy = y + h - 10 - cs * len(rows)
        for j, row in enumerate(rows):
            for i, tok in enumerate(row):
                cx, cy = sx + i * cs, sy + j * cs
                if tok == ".":
                    draw.rectangle([cx, cy, cx + cs, cy + cs], outline=PALETTE["line"])
                    continue
                colour = next((FLOOR[c] for c in FLOOR if tok.endswith(c)), (90, 90, 100))
                draw.rectangle([cx, cy, cx + cs, cy + cs], fill=colour, outline="white")
                short = tok if len(tok) <= 2 else tok[0] + tok[1].lower()
                text(draw, (cx + cs / 2, cy + cs / 2), short, 16 if len(short) == 1 else 14, "white", "mm")
    else:
        text(
            draw,
            (x + 10, y + h - 28),
            ("Room: " if g["type"] == "room" else "Hallway: ") + " ".join(g["needs"]),
            18,
            "text",
        )
    return h


def render_private(view: dict[str, Any]) -> bytes | None:
    me = view.get("you")
    if not me:
        return None
    tiles = [("stored", t) for t in me["storage"]] + [("new", t) for t in me["new_tiles"]]
    tiles += [("burrow", t) for t in (me["burrow"] or [])]
    n_goal_rows = (len(me["hand"]) + 1) // 2
    height = 76 + n_goal_rows * 162 + (170 if tiles else 40) + 20
    img, draw = canvas(W, height)
    y = header(
        draw,
        W,
        f"Your hand (P{me['seat'] + 1})",
        f"Architect {me['tokens']['architect']}, Mimic {me['tokens']['mimic']}",
    )
    w = (W - 36) / 2
    for i, g in enumerate(me["hand"]):
        _goal_card(draw, g, 12 + (i % 2) * (w + 12), y + (i // 2) * 162, w)
    y += n_goal_rows * 162
    if not tiles:
        text(draw, (16, y + 8), "No tiles in storage.", 18, "muted")
    for i, (what, t) in enumerate(tiles):
        x = 16 + i * 130
        draw_tile_face(draw, x, y + 10, 100, t)
        text(draw, (x + 50, y + 128), f"{what} {t['n']}", 16, "text", "mm")
    return to_png(to_palette(img))


# The one protocol (render/__init__.py). Names are not drawn yet: see issue 21.
RENDERER = Renderer(
    board=lambda view, names: render(view),
    area=lambda view, names: render_private(view),
)
