"""Dungeon Decorators images, drawn from views only.

The board: the final result (once the game is over), the draft board (tiles
decoration side up, as the physical board shows them: icons on their edges, the
other side's floor bottom right, the assistant in the centre), the players'
scores as bars of their true points, the two boss goals, and every player's
dungeon with its stored and new tiles, on a grid named by coordinates. "My
area": one player's dungeon, tiles and goal cards at twice the scale.

Decorations, floors and assistants are drawn as pictures in their own colours
(the legend names them); text is kept for numbers, names and coordinates, never
under 26 px on the board and the area (issue 28's type floor: about 9 px on a
phone), with the title, whose turn, scores and goal points at 36 px or more.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import ImageDraw

from engine.core import name_seats
from render import Renderer, default_names
from render.base import PALETTE, box, canvas, column_label, seat_colour, text, text_width, to_palette, to_png

W = 1200
AREA_W = 600
FS = 30  # ordinary labels
SMALL = 30  # the smallest text anywhere (legend words, breakdown labels; issue 40)
KEY = 40  # whose turn, scores, the points a player decides by
LINE = SMALL + 6  # the line step of the smallest text
TITLE = 40
# Floor colours, chosen away from the seat colours (render/base.py SEAT_COLOURS) so a
# player's colour is never mistaken for a floor (issue 28).
FLOOR = {
    "red": (205, 40, 40),
    "orange": (240, 100, 30),
    "yellow": (245, 225, 40),
    "green": (80, 175, 50),
    "blue": (30, 70, 190),
    "purple": (130, 60, 180),
    "grey": (128, 128, 136),
    "star": (128, 128, 136),
}
DECO_NAMES = {
    "S": "skull",
    "P": "spikes",
    "X": "swords",
    "T": "table",
    "K": "keys",
    "C": "coffin",
    "W": "web",
    "B": "bones",
    "*": "wild",
}
HELPERS = {
    "sapper": "Goblin Sapper",
    "burrow": "Burrow Bro",
    "architect": "Arcane Architect",
    "mimic": "Mimic",
}
HELPER_COLOUR = {
    "sapper": (40, 150, 60),
    "burrow": (150, 100, 50),
    "architect": (50, 90, 200),
    "mimic": (150, 60, 170),
}
DECK_COLOUR = {"A": (240, 200, 60), "B": (86, 160, 233)}
WALL = (20, 20, 24)
DECO_BG = (58, 48, 44)
GOLD = (250, 210, 60)
CHANGED = (255, 255, 255)  # the outline of squares the last turn changed, and its line of words
Col = tuple[int, int, int]


def _xy(c: str) -> tuple[int, int]:
    """A coordinate (column letters, row number) -> 0-based column and row."""
    letters = c.rstrip("0123456789")
    x = 0
    for ch in letters:
        x = x * 26 + ord(ch) - 64
    return x - 1, int(c[len(letters) :]) - 1


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


def _fit(s: str, size: int, width: float) -> str:
    """``s`` shortened (at a word if it can) to fit ``width``."""
    if text_width(s, size) <= width:
        return s
    while s and text_width(s + "…", size) > width:
        s = s[:-1]
    return s.rstrip() + "…"


# ---- pictures ------------------------------------------------------------------------


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Col = GOLD) -> None:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=WALL)


def _skull(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    d.ellipse([cx - r * 0.8, cy - r * 0.9, cx + r * 0.8, cy + r * 0.5], fill=(245, 245, 240))
    d.rectangle([cx - r * 0.45, cy + r * 0.2, cx + r * 0.45, cy + r * 0.85], fill=(245, 245, 240))
    for sx in (-1, 1):
        ex = cx + sx * r * 0.33
        d.ellipse([ex - r * 0.22, cy - r * 0.35, ex + r * 0.22, cy + r * 0.05], fill=WALL)


def _spikes(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    for k, h in ((-1, 0.35), (0, 0.95), (1, 0.35)):
        x = cx + k * r * 0.62
        d.polygon(
            [(x - r * 0.36, cy + r * 0.8), (x, cy - r * h), (x + r * 0.36, cy + r * 0.8)],
            fill=(175, 200, 225),
            outline=WALL,
        )


def _swords(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """An upright sword: a steel blade, a gold crossguard and grip."""
    blade = [
        (cx - r * 0.16, cy + r * 0.25),
        (cx - r * 0.16, cy - r * 0.7),
        (cx, cy - r),
        (cx + r * 0.16, cy - r * 0.7),
    ]
    blade.append((cx + r * 0.16, cy + r * 0.25))
    d.polygon(blade, fill=(215, 220, 235), outline=WALL)
    d.rectangle([cx - r * 0.6, cy + r * 0.25, cx + r * 0.6, cy + r * 0.45], fill=GOLD, outline=WALL)
    d.rectangle([cx - r * 0.12, cy + r * 0.45, cx + r * 0.12, cy + r * 0.95], fill=(150, 100, 50))


def _table(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    brown = (190, 125, 65)
    d.rectangle([cx - r, cy - r * 0.45, cx + r, cy - r * 0.1], fill=brown, outline=WALL)
    for lx in (cx - r * 0.8, cx + r * 0.55):
        d.rectangle([lx, cy - r * 0.1, lx + r * 0.25, cy + r * 0.85], fill=brown, outline=WALL)


def _keys(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    w = max(2, int(r * 0.25))
    d.ellipse([cx - r * 0.95, cy - r * 0.8, cx - r * 0.05, cy + r * 0.1], outline=GOLD, width=w)
    d.line([(cx - r * 0.15, cy - r * 0.05), (cx + r * 0.9, cy + r * 0.75)], fill=GOLD, width=w)
    d.line([(cx + r * 0.45, cy + r * 0.4), (cx + r * 0.2, cy + r * 0.7)], fill=GOLD, width=w)


def _coffin(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    pts = [
        (cx - r * 0.3, cy - r),
        (cx + r * 0.3, cy - r),
        (cx + r * 0.62, cy - r * 0.45),
        (cx + r * 0.35, cy + r),
        (cx - r * 0.35, cy + r),
        (cx - r * 0.62, cy - r * 0.45),
    ]
    d.polygon(pts, fill=(150, 95, 60), outline=(240, 220, 200))
    w = max(1, int(r * 0.15))
    d.line([(cx, cy - r * 0.6), (cx, cy + r * 0.4)], fill=(240, 220, 200), width=w)
    d.line([(cx - r * 0.25, cy - r * 0.25), (cx + r * 0.25, cy - r * 0.25)], fill=(240, 220, 200), width=w)


def _web(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    c = (225, 225, 235)
    w = max(1, int(r * 0.12))
    for k in range(4):
        a = k * math.pi / 4
        d.line(
            [(cx - r * math.cos(a), cy - r * math.sin(a)), (cx + r * math.cos(a), cy + r * math.sin(a))],
            fill=c,
            width=w,
        )
    for f in (0.45, 0.85):
        d.ellipse([cx - r * f, cy - r * f, cx + r * f, cy + r * f], outline=c, width=w)


def _bones(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    c = (240, 225, 190)
    w = max(2, int(r * 0.28))
    for sx in (-1, 1):
        a, b = (cx - sx * r * 0.75, cy - r * 0.75), (cx + sx * r * 0.75, cy + r * 0.75)
        d.line([a, b], fill=c, width=w)
        for px, py in (a, b):
            d.ellipse([px - r * 0.22, py - r * 0.22, px + r * 0.22, py + r * 0.22], fill=c)


def _wild(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    pts = [(cx, cy - r), (cx + r * 0.3, cy - r * 0.3), (cx + r, cy), (cx + r * 0.3, cy + r * 0.3)]
    pts += [(cx, cy + r), (cx - r * 0.3, cy + r * 0.3), (cx - r, cy), (cx - r * 0.3, cy - r * 0.3)]
    d.polygon(pts, fill=(60, 220, 100), outline=WALL)


DRAW_DECO = {
    "S": _skull,
    "P": _spikes,
    "X": _swords,
    "T": _table,
    "K": _keys,
    "C": _coffin,
    "W": _web,
    "B": _bones,
    "*": _wild,
}


def decoration(d: ImageDraw.ImageDraw, icon: str, cx: float, cy: float, r: float) -> None:
    """One decoration icon (or the green wild icon) centred at (cx, cy)."""
    DRAW_DECO[icon](d, cx, cy, r)


def helper(d: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    """An assistant: a disc in its colour with its picture in white."""
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=HELPER_COLOUR[kind], outline="white", width=2)
    w = max(2, int(r * 0.18))
    white = (255, 255, 255)
    if kind == "sapper":  # a pickaxe
        d.arc([cx - r * 0.6, cy - r * 0.65, cx + r * 0.6, cy + r * 0.15], 200, 340, fill=white, width=w)
        d.line([(cx, cy - r * 0.45), (cx, cy + r * 0.65)], fill=white, width=w)
    elif kind == "burrow":  # three tiles to choose from
        for k in (-1, 0, 1):
            x = cx + k * r * 0.42
            d.rectangle(
                [x - r * 0.18, cy - r * 0.3, x + r * 0.18, cy + r * 0.3], outline=white, width=max(1, w // 2)
            )
    elif kind == "architect":  # a turning arrow
        d.arc([cx - r * 0.55, cy - r * 0.55, cx + r * 0.55, cy + r * 0.55], 40, 320, fill=white, width=w)
        d.polygon(
            [(cx + r * 0.25, cy - r * 0.6), (cx + r * 0.7, cy - r * 0.35), (cx + r * 0.3, cy - r * 0.05)],
            fill=white,
        )
    else:  # a chest with teeth
        d.rectangle([cx - r * 0.55, cy - r * 0.35, cx + r * 0.55, cy + r * 0.45], outline=white, width=w)
        zig = [(cx - r * 0.55 + k * r * 0.22, cy + (0.0 if k % 2 else 0.2) * r) for k in range(6)]
        d.line(zig, fill=white, width=max(1, w // 2))


def _edge_spots(x: float, y: float, s: float, inset: float) -> list[tuple[float, float]]:
    return [
        (x + s / 2, y + inset),
        (x + s - inset, y + s / 2),
        (x + s / 2, y + s - inset),
        (x + inset, y + s / 2),
    ]


def dungeon_cell(d: ImageDraw.ImageDraw, x: float, y: float, s: float, cell: dict[str, Any]) -> None:
    """One laid tile: a floor with walls (a gap is a passageway), or a decoration tile."""
    if cell["kind"] == "deco":
        d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=DECO_BG)
        r = s * 0.2  # about 3 px at a third on the smallest squares: big enough to tell apart
        for (cx, cy), icon in zip(_edge_spots(x, y, s, r * 1.08), cell["e"], strict=True):
            if icon != "-":
                decoration(d, icon, cx, cy, r)
        return
    d.rectangle([x + 1, y + 1, x + s - 1, y + s - 1], fill=FLOOR[cell["floor"]])
    t = max(3, int(s / 9))
    ends = [
        ((x, y), (x + s, y)),
        ((x + s, y), (x + s, y + s)),
        ((x, y + s), (x + s, y + s)),
        ((x, y), (x, y + s)),
    ]
    for k, ((x1, y1), (x2, y2)) in enumerate(ends):
        if not cell["e"][k]:
            d.line([(x1, y1), (x2, y2)], fill=WALL, width=t)
            continue
        stub = s * 0.25  # a passageway: only the wall stubs at the corners
        if y1 == y2:
            d.line([(x1, y1), (x1 + stub, y1)], fill=WALL, width=t)
            d.line([(x2 - stub, y2), (x2, y2)], fill=WALL, width=t)
        else:
            d.line([(x1, y1), (x1, y1 + stub)], fill=WALL, width=t)
            d.line([(x2, y2 - stub), (x2, y2)], fill=WALL, width=t)
    if cell["t"] == "start":
        r = s * 0.2
        d.ellipse(
            [x + s / 2 - r, y + s / 2 - r, x + s / 2 + r, y + s / 2 + r], outline="white", width=max(2, t - 1)
        )
    elif cell["floor"] == "star":
        _star(d, x + s / 2, y + s / 2, s * 0.24)


def tile_face(d: ImageDraw.ImageDraw, x: float, y: float, s: float, info: dict[str, Any] | None) -> None:
    """A tile as it lies in the draft, in storage or in front of a player: decoration
    side up, icons on its edges (an edge with a white icon is a passage on the other
    side), the other side's floor bottom right, the assistant in the centre."""
    if info is None:
        box(d, (x, y, x + s, y + s), fill="bg", outline="line", radius=6)
        return
    if info["n"] == "G":  # generic: a grey room on one side, a straight hallway on the other
        box(d, (x, y, x + s, y + s), fill=(150, 150, 160), outline="line", radius=6)
        h = s * 0.42
        dungeon_cell(
            d,
            x + s * 0.05,
            y + s * 0.29,
            h,
            {"kind": "dungeon", "floor": "grey", "e": [1, 0, 0, 0], "t": "G"},
        )
        dungeon_cell(
            d,
            x + s * 0.53,
            y + s * 0.29,
            h,
            {"kind": "dungeon", "floor": "grey", "e": [1, 0, 1, 0], "t": "G"},
        )
        return
    box(d, (x, y, x + s, y + s), fill=DECO_BG, outline="line", radius=6)
    r = s * 0.14
    for (cx, cy), icon in zip(_edge_spots(x, y, s, r * 1.25), info["edges"], strict=True):
        if icon != "-":
            decoration(d, icon, cx, cy, r)
    q = s * 0.26
    fx, fy = x + s - q - 4, y + s - q - 4
    d.rectangle([fx, fy, fx + q, fy + q], fill=FLOOR[info["floor"]], outline=(230, 230, 230))
    if info["floor"] == "star":
        _star(d, fx + q / 2, fy + q / 2, q * 0.45)
    if info.get("assistant"):
        helper(d, info["assistant"], x + s / 2, y + s / 2, s * 0.17)


def tile_row(d: ImageDraw.ImageDraw, x: float, y: float, s: float, label: str, tiles: list[Any]) -> float:
    """A label and tile faces with their numbers; returns the x after them."""
    text(d, (x, y + s / 2), label, FS, "muted", "lm")
    x += text_width(label, FS) + 10
    for t in tiles:
        tile_face(d, x, y, s, t)
        if t["n"] != "G":
            text(d, (x + s / 2, y + s + 2), str(t["n"]), SMALL, "text", "ma")
        x += s + 10
    return x


# ---- the board ------------------------------------------------------------------------------


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str]) -> int:
    lines = _status_lines(view, names)
    last = _last_lines(view, names)
    h = 60 + 44 * len(lines) + 34 * len(last)
    d.rectangle([0, 0, W, h], fill=PALETTE["panel"])
    text(d, (16, 8), "Dungeon Decorators", TITLE, "accent", role="title")
    for i, line in enumerate(lines):
        text(d, (16, 56 + 44 * i), line, KEY, "text", role="turn")
    for i, line in enumerate(last):  # what the last turn changed, outlined on its dungeon
        text(d, (16, 56 + 44 * len(lines) + 34 * i), line, FS, CHANGED)
    return h + 10


def _status_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    return _wrap(name_seats(view["status"], names), KEY, W - 32)[:2]


def _last_lines(view: dict[str, Any], names: list[str]) -> list[str]:
    last = view.get("last_turn")
    if not last or view.get("final"):
        return []
    return _wrap(name_seats(last["words"], names), FS, W - 32)[:2]


def _final_height(view: dict[str, Any]) -> int:
    return 0 if not view.get("final") else 66 + 64 + 42 * len(view["players"]) + 12


FINAL_COLS = (
    ("goals", "goal cards"),
    ("stars", "stars"),
    ("colours", "colours"),
    ("common colour", "common colour"),
    ("boss A", "boss (yellow)"),
    ("boss B", "boss (blue)"),
)


def _final(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], y: int) -> int:
    """Game over: the winner and every player's final score, category by category."""
    h = _final_height(view)
    if not h:
        return y
    box(d, (12, y, W - 12, y + h - 12), fill="panel", outline="accent", width=3)
    winners = view.get("winners") or []
    top = max(p["score"] for p in view["players"])
    who = " and ".join(names[s] for s in winners)
    text(
        d,
        (28, y + 12),
        _fit(f"Winner: {who} with {top} points", TITLE, W - 60),
        TITLE,
        "accent",
        role="score",
    )
    ty = y + 66
    xs = [28, 330, 450, 560, 670, 790, 910, 1050]
    for x, (_, label) in zip(xs[1:], FINAL_COLS, strict=False):
        for k, word in enumerate(label.split(" ", 1)):  # two short lines: the columns are narrow
            text(d, (x, ty + 28 * k), word, SMALL, "muted")
    text(d, (xs[-1], ty), "total", SMALL, "muted")
    ty += 22
    # In the rulebook's order: points, then shape goals scored, then decoration goals scored.
    for p in sorted(view["players"], key=lambda q: (-q["score"], -q["scored_shape"], -q["scored_deco"])):
        ty += 42
        b = view["final"][p["seat"]]
        colour = seat_colour(p["seat"])
        nx = xs[0]
        if p["seat"] in winners:
            _star(d, nx + 12, ty + 15, 12)
            nx += 30
        text(d, (nx, ty), _fit(names[p["seat"]], FS, 290), FS, colour)
        for x, (key, _) in zip(xs[1:], FINAL_COLS, strict=False):
            text(d, (x, ty), str(b.get(key, 0)), FS, "text")
        text(d, (xs[-1], ty - 4), str(p["score"]), KEY, "accent", role="score")
    return y + h


def _arrow(d: ImageDraw.ImageDraw, x: float, cy: float, size: int, colour: Col) -> float:
    """A solid triangle pointing right (whose turn); returns the x after it."""
    h = size * 0.42
    d.polygon([(x, cy - h), (x + h * 1.4, cy), (x, cy + h)], fill=colour)
    return x + h * 1.4 + 8


def _pawn(d: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, r: float = 14) -> None:
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=seat_colour(seat), outline="white", width=2)


DRAFT_H = 370
SCORE_ROW = 94  # a player's name and score (40 px), the bar, the goals scored (30 px)


def _draft_height(view: dict[str, Any]) -> int:
    return max(DRAFT_H, 56 + SCORE_ROW * len(view["players"]))


def _draft(d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], y0: int) -> int:
    """The draft board: four tiles and the Draw/Exchange spot, where each pawn went."""
    h = _draft_height(view)
    box(d, (12, y0, 700, y0 + h))
    text(d, (28, y0 + 10), f"Draft board, round {view['round']}", FS, "accent")
    s, gap, x0 = 122, 10, 28
    wide = 140  # the Draw/Exchange spot: "Exchange" whole at 30 px (issue 40)
    xs = [x0 + k * (s + gap) + (wide - s if k > 2 else 0) for k in range(5)]
    ty = y0 + 50
    for spot in range(4):
        info = view["board"][spot] if spot < len(view["board"]) else None
        x = xs[spot if spot < 2 else spot + 1]
        tile_face(d, x, ty, s, info)
        label = f"{spot + 1}: {info['n']}" if info else f"{spot + 1}: taken"
        text(d, (x + s / 2, ty + s + 6), label, SMALL, "text", "ma")
    ex = xs[2]
    box(d, (ex, ty, ex + wide, ty + s), fill="panel2", outline="accent", radius=6)
    helper_free = view["exchange_taken"] is None
    text(d, (ex + wide / 2, ty + 44), "Draw /", SMALL, "accent", "mm")
    text(d, (ex + wide / 2, ty + 76), "Exchange", SMALL, "accent", "mm")
    text(d, (ex + wide / 2, ty + s + 6), "open" if helper_free else "taken", SMALL, "muted", "ma")
    pos_x = {0: xs[0], 1: xs[1], 2: xs[2], 3: xs[3], 4: xs[4]}
    for p in view["players"]:
        if p["draft_pos"] is not None:
            cx = pos_x[p["draft_pos"]] + (wide if p["draft_pos"] == 2 else s) / 2
            _pawn(d, cx, ty + s + 56, p["seat"])
            text(
                d,
                (cx, ty + s + 74),
                _fit(names[p["seat"]], SMALL, s + gap - 4),
                SMALL,
                seat_colour(p["seat"]),
                "ma",
            )
    oy = y0 + h - 48
    text(d, (28, oy), "Turn order:", FS, "muted")
    x = 28 + text_width("Turn order:", FS) + 12
    for seat in view["order"]:
        now = seat == view["current"]
        if now:
            x = _arrow(d, x, oy + 16, FS, seat_colour(seat))
        label = _fit(names[seat], FS, 150)
        text(d, (x, oy), label, FS, seat_colour(seat) if now else "text")
        x += text_width(label, FS) + 18
    return h


def _scores(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: list[str], y0: int, h: int, x0: int = 712
) -> None:
    """True points as bars on one scale (no wrapping at 50), tokens and goals scored."""
    x1 = W - 12
    box(d, (x0, y0, x1, y0 + h))
    text(d, (x0 + 16, y0 + 10), "Scores", FS, "accent")
    top = max([50] + [p["score"] for p in view["players"]])
    y = y0 + 50
    row = (h - 56) / max(1, len(view["players"]))
    for p in view["players"]:
        seat = p["seat"]
        c = seat_colour(seat)
        now = seat == view["current"]
        if now:
            box(d, (x0 + 6, y - 3, x1 - 6, y + row - 2), fill="panel2", outline=c, width=2, radius=6)
        nx = _arrow(d, x0 + 16, y + 20, KEY, c) if now else x0 + 16
        text(d, (nx, y + 2), _fit(names[seat], KEY, x1 - nx - 90), KEY, c)
        text(d, (x1 - 16, y + 2), str(p["score"]), KEY, "text", "ra", role="score")
        by = y + 46  # under the 40-px name
        bw = x1 - x0 - 32
        d.rectangle([x0 + 16, by, x0 + 16 + bw, by + 10], fill=PALETTE["bg"])
        d.rectangle([x0 + 16, by, x0 + 16 + bw * p["score"] / top, by + 10], fill=c)
        # "The number of cards of each type that you have scored is public information."
        goals = f"goals: {p['scored_shape']} shape, {p['scored_deco']} decoration"  # whole at 30 px
        text(d, (x0 + 16, by + 12), _fit(goals, SMALL, x1 - x0 - 32), SMALL, "muted")
        y += row


def _boss_lines(view: dict[str, Any]) -> list[list[str]]:
    return [_wrap(b["text"], SMALL, (W - 36) / 2 - 32)[:3] for b in view["boss"]]


def _bosses(d: ImageDraw.ImageDraw, view: dict[str, Any], y0: int) -> int:
    w = (W - 36) / 2
    lines = _boss_lines(view)
    h = 56 + LINE * max(len(x) for x in lines)
    for k, b in enumerate(view["boss"]):
        x = 12 + k * (w + 12)
        box(d, (x, y0, x + w, y0 + h))
        deck = "yellow" if b["deck"] == "A" else "blue"
        text(
            d, (x + 16, y0 + 10), _fit(f"Boss ({deck}): {b['name']}", FS, w - 32), FS, DECK_COLOUR[b["deck"]]
        )
        for i, line in enumerate(lines[k]):
            text(d, (x + 16, y0 + 48 + LINE * i), line, SMALL, "text")
    return h


def _extent(cells: dict[str, Any], margin: int = 1) -> tuple[int, int, int, int]:
    """The squares shown: every tile plus ``margin`` squares around (where tiles can go;
    the public board shows none, so its squares and decorations are larger)."""
    pts = [_xy(c) for c in cells]
    return (
        min(x for x, _ in pts) - margin,
        max(x for x, _ in pts) + margin,
        min(y for _, y in pts) - margin,
        max(y for _, y in pts) + margin,
    )


def grid_size(cells: dict[str, Any], width: float, most: int = 76, margin: int = 1) -> int:
    minx, maxx, _, _ = _extent(cells, margin)
    return int(min(most, (width - 60) / (maxx - minx + 1)))


def draw_dungeon(
    d: ImageDraw.ImageDraw,
    cells: dict[str, Any],
    x0: float,
    y0: float,
    s: int,
    extent: tuple[int, int, int, int] | None = None,
    marked: list[str] | None = None,
) -> float:
    """The dungeon on its coordinate grid at (x0, y0) (top-left of the labels); returns its height.
    ``extent``: the squares shown, when more than the tiles and one square around."""
    minx, maxx, miny, maxy = extent or _extent(cells)
    cols, rows = maxx - minx + 1, maxy - miny + 1
    gx, gy = x0 + 48, y0 + 30
    line = PALETTE["line"]
    for i in range(cols + 1):
        d.line([(gx + i * s, gy), (gx + i * s, gy + rows * s)], fill=line, width=1)
    for j in range(rows + 1):
        d.line([(gx, gy + j * s), (gx + cols * s, gy + j * s)], fill=line, width=1)
    # Column labels are two letters wide: on narrow squares, every other one.
    every = 1 if s >= 44 else 2
    lab = SMALL
    for i in range(0, cols, every):
        text(d, (gx + i * s + s / 2, gy - 4), column_label(minx + i), lab, "muted", "md")
    for j in range(0, rows, 1 if s >= 30 else 2):
        text(d, (gx - 6, gy + j * s + s / 2), str(miny + j + 1), lab, "muted", "rm")
    for c, cell in cells.items():
        x, y = _xy(c)
        dungeon_cell(d, gx + (x - minx) * s, gy + (y - miny) * s, s, cell)
    for c in marked or []:  # changed by the last turn: a white frame inside the square
        x, y = _xy(c)
        if minx <= x <= maxx and miny <= y <= maxy:
            px, py = gx + (x - minx) * s, gy + (y - miny) * s
            d.rectangle([px + 3, py + 3, px + s - 3, py + s - 3], outline=CHANGED, width=4)
    return 30 + rows * s


TILE = 52  # stored and new tiles in a dungeon panel
HEAD = 96 + TILE + 34  # a dungeon panel's header: name, tokens, tiles with their numbers


def _panel_height(p: dict[str, Any], w: float) -> int:
    cells = p["dungeon"]["cells"]
    s = grid_size(cells, w, margin=0)
    _, _, miny, maxy = _extent(cells, 0)
    return HEAD + 30 + (maxy - miny + 1) * s + 14


def _dungeon_panel(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    p: dict[str, Any],
    names: list[str],
    x0: float,
    y0: float,
    w: float,
) -> None:
    seat = p["seat"]
    c = seat_colour(seat)
    turn = view["current"] == seat
    h = _panel_height(p, w)
    box(d, (x0, y0, x0 + w, y0 + h), outline=c if turn else "line", width=4 if turn else 2)
    _pawn(d, x0 + 26, y0 + 28, seat, 12)
    nx = _arrow(d, x0 + 46, y0 + 28, KEY, c) if turn else x0 + 46
    who = names[seat] + (" (to act)" if turn else "")
    text(d, (nx, y0 + 8), _fit(who, KEY, w - 150 - (nx - x0 - 46)), KEY, c)
    text(d, (x0 + w - 16, y0 + 8), f"{p['score']} pts", KEY, "text", "ra", role="score")
    # Tokens, cards and tiles: what lies in front of the player for all to see.
    y = y0 + 56
    x = x0 + 16
    for kind in ("architect", "mimic"):
        helper(d, kind, x + 14, y + 14, 14)
        text(d, (x + 34, y + 14), f"x{p['tokens'][kind]}", FS, "text", "lm")
        x += 90
    text(d, (x, y + 14), f"cards {p['hand_count']}", FS, "muted", "lm")
    tiles_y = y0 + 96
    tx = tile_row(d, x0 + 16, tiles_y, TILE, "stored", p["storage"]) if p["storage"] else x0 + 16
    if p["new_tiles"]:
        tile_row(d, tx + 10, tiles_y, TILE, "new", p["new_tiles"])
    s = grid_size(p["dungeon"]["cells"], w, margin=0)
    last = view.get("last_turn")
    marked = last["squares"] if last and last["seat"] == seat and not view.get("final") else None
    draw_dungeon(d, p["dungeon"]["cells"], x0 + 4, y0 + HEAD, s, _extent(p["dungeon"]["cells"], 0), marked)
    if p["dungeon"]["problem"]:
        text(d, (x0 + 16, y0 + h - 8), "rebuilding with an Architect", SMALL, "bad", "ld")


def _layout(view: dict[str, Any]) -> list[tuple[list[dict[str, Any]], float, int]]:
    """Rows of dungeon panels: two to a row while both fit with squares of 40 px or
    more, else one across the whole board."""
    half = (W - 36) / 2
    rows: list[tuple[list[dict[str, Any]], float, int]] = []
    queue = list(view["players"])
    while queue:
        pair = queue[:2]
        if len(pair) == 2 and all(grid_size(p["dungeon"]["cells"], half, margin=0) >= 40 for p in pair):
            rows.append((pair, half, max(_panel_height(p, half) for p in pair)))
            queue = queue[2:]
        else:
            wide = W - 24.0
            rows.append((pair[:1], wide, _panel_height(pair[0], wide)))
            queue = queue[1:]
    return rows


LEGEND_H = 172  # three rows of 30-px words (issue 40)


def _legend(d: ImageDraw.ImageDraw, y: float) -> None:
    box(d, (12, y, W - 12, y + LEGEND_H - 10))
    x = 28.0
    for icon, name in DECO_NAMES.items():
        decoration(d, icon, x + 12, y + 30, 13)
        text(d, (x + 30, y + 30), name, SMALL, "text", "lm")
        x += 30 + text_width(name, SMALL) + 18
    x = 28.0
    for kind, name in HELPERS.items():
        helper(d, kind, x + 12, y + 78, 13)
        text(d, (x + 32, y + 78), name, SMALL, "text", "lm")
        x += 32 + text_width(name, SMALL) + 18
    # The marks' row goes on under the helpers when the 30-px words do not fit beside them.
    rest = 30 + text_width("star", SMALL) + 18 + 32 + text_width("start", SMALL) + 18 + 36
    rest += text_width("last turn", SMALL)
    row = 78
    if x + rest > W - 24:
        x, row = 28.0, 126
    _star(d, x + 12, y + row, 12)
    text(d, (x + 30, y + row), "star", SMALL, "text", "lm")
    x += 30 + text_width("star", SMALL) + 18
    d.ellipse([x, y + row - 12, x + 24, y + row + 12], outline="white", width=3)
    text(d, (x + 32, y + row), "start", SMALL, "text", "lm")
    x += 32 + text_width("start", SMALL) + 18
    d.rectangle([x, y + row - 14, x + 28, y + row + 14], outline=CHANGED, width=4)
    text(d, (x + 36, y + row), "last turn", SMALL, "text", "lm")


def board(view: dict[str, Any], names: list[str]) -> bytes:
    # Lay out first (heights depend on each dungeon's extent), then draw.
    rows = _layout(view)
    status_lines = len(_status_lines(view, names))
    last_lines = len(_last_lines(view, names))
    top = 60 + 84 * len(view["players"]) if view.get("final") else _draft_height(view)
    height = 70 + 44 * status_lines + 34 * last_lines + _final_height(view) + top + 12
    height += 56 + LINE * max(len(x) for x in _boss_lines(view)) + 12
    height += sum(h + 12 for _, _, h in rows) + LEGEND_H
    img, d = canvas(W, int(height))
    y = _header(d, view, names)
    y = _final(d, view, names, y)
    if view.get("final"):  # the draft board is empty once the game is over: the scores take its place
        h = top
        _scores(d, view, names, y, h, x0=12)
    else:
        h = _draft(d, view, names, y)
        _scores(d, view, names, y, h)
    y += h + 12
    y += _bosses(d, view, y) + 12
    for panels, w, rh in rows:
        for k, p in enumerate(panels):
            _dungeon_panel(d, view, p, names, 12 + k * (w + 12), y, w)
        y += rh + 12
    _legend(d, y)
    # The board has few colours: a palette image encodes about twice as fast and smaller.
    return to_png(to_palette(img))


# ---- my area --------------------------------------------------------------------------------

HALL_FILL = (190, 190, 200)
ROOM_FILL = (96, 66, 56)
RAINBOW = ("red", "yellow", "green", "blue")  # "of any colour (but not the neutral grey)"


def _quartered(d: ImageDraw.ImageDraw, x: float, y: float, cs: float) -> None:
    """Any colour but grey: the square in four colours."""
    h = cs / 2
    for k, c in enumerate(RAINBOW):
        qx, qy = x + (k % 2) * h, y + (k // 2) * h
        d.rectangle([qx, qy, qx + h, qy + h], fill=FLOOR[c])


def shape_cell(d: ImageDraw.ImageDraw, tok: str, x: float, y: float, cs: float) -> None:
    """One square of a shape goal: light a hallway, dark with a door a room, filled
    with its colour (four colours: any colour but grey), a star a star hallway, a
    white dot for each decoration its walls need; a faint outline any square."""
    if tok == ".":
        d.rectangle([x + 2, y + 2, x + cs - 2, y + cs - 2], outline=PALETTE["line"], width=1)
        return
    room = tok.startswith("R")
    colour = next((FLOOR[c] for c in FLOOR if c != "star" and tok.endswith(c)), None)
    if tok in ("C", "RP"):
        _quartered(d, x, y, cs)
    else:
        d.rectangle([x, y, x + cs, y + cs], fill=colour or (ROOM_FILL if room else HALL_FILL))
    d.rectangle([x, y, x + cs, y + cs], outline="white", width=2)
    if room:  # a door in the bottom wall: a room has one passageway
        dw = cs * 0.34
        d.rectangle([x + (cs - dw) / 2, y + cs * 0.55, x + (cs + dw) / 2, y + cs - 2], fill=WALL)
    if tok == "HS":
        _star(d, x + cs / 2, y + cs / 2, cs * 0.32)
    dots = int(tok[1]) if tok[1:2].isdigit() else 2 if tok == "RP" else 0
    r = max(4.0, cs * 0.11)
    for k in range(dots):
        dx = x + cs * (0.5 + 0.28 * (k - (dots - 1) / 2))
        d.ellipse([dx - r, y + cs * 0.2 - r, dx + r, y + cs * 0.2 + r], fill="white", outline=WALL)


def _shape(d: ImageDraw.ImageDraw, rows: list[str], x: float, y: float, cs: int) -> None:
    """A shape goal's pattern, square by square (see :func:`shape_cell`)."""
    for j, row in enumerate(r.split() for r in rows):
        for i, tok in enumerate(row):
            shape_cell(d, tok, x + i * cs, y + j * cs, cs)


# The symbol key of the shape goal cards, in the rulebook's words.
SHAPE_KEY = (
    ("H", "any hallway"),
    ("Hred", "a hallway of that colour"),
    ("H2", "a hallway, a dot per decoration on its walls"),
    ("HS", "a hallway with a star"),
    ("R", "any room"),
    ("R2", "a room, a dot per decoration on its walls"),
    ("C", "a room or hallway of any colour, not grey"),
    ("RP", "a painted room, 2+ decorations"),
    (".", "any square: built or not"),
)
SHEET_CELL = 48


def _sheet_key(d: ImageDraw.ImageDraw, y: float) -> float:
    half = (W - 24) / 2
    for k, (tok, words) in enumerate(SHAPE_KEY):
        x = 16 + (k % 2) * half
        yy = y + (k // 2) * 62
        shape_cell(d, tok, x, yy, SHEET_CELL)
        text(
            d, (x + SHEET_CELL + 12, yy + SHEET_CELL / 2), _fit(words, SMALL, half - 80), SMALL, "text", "lm"
        )
    return y + 62 * ((len(SHAPE_KEY) + 1) // 2)


def goal_shapes(view: dict[str, Any]) -> bytes:
    """Every shape goal drawn as a picture with its name and points, under the
    symbol key: the picture the guide's "Goal shapes" section shows. ``view`` is
    the game's ``guide_view("Goal shapes")`` (every shape goal card)."""
    goals = sorted(view["shapes"], key=lambda g: (len(g["rows"]), g["id"]))
    col_w = (W - 24) / 3
    rows = [goals[k : k + 3] for k in range(0, len(goals), 3)]
    heights = [56 + SHEET_CELL * max(len(g["rows"]) for g in row) + 20 for row in rows]
    key_h = 62 * ((len(SHAPE_KEY) + 1) // 2)
    img, d = canvas(W, 70 + key_h + 60 + sum(heights) + 12)
    text(d, (16, 10), "Shape goals: the squares must lie like this", TITLE, "accent")
    y = _sheet_key(d, 70)
    text(
        d,
        (16, y + 8),
        "Turned or mirrored, anywhere in your dungeon; squares need not touch.",
        SMALL,
        "muted",
    )
    y += 56
    for row, h in zip(rows, heights, strict=True):
        for k, g in enumerate(row):
            x = 12 + k * col_w
            box(d, (x + 4, y, x + col_w - 4, y + h - 8), fill="panel2")
            text(d, (x + 16, y + 8), _fit(g["name"], FS, col_w - 32), FS, "accent")
            text(d, (x + col_w - 16, y + 50), f"{g['points']} pts", KEY, "text", "ra")
            _shape(d, g["rows"], x + 16, y + 50, SHEET_CELL)
        y += h
    return to_png(to_palette(img))


# Pictures the rules guide shows beside its sections, by section name (issue 28):
# GUIDE_PICTURES[name](GAME.guide_view(name)) -> PNG.
GUIDE_PICTURES = {"Goal shapes": goal_shapes}


def guide(section: str, view: dict[str, Any]) -> bytes:
    return GUIDE_PICTURES[section](view)


CARD_CELL = 40  # a square of a shape goal's picture on a card


def _card_lines(g: dict[str, Any], w: float) -> list[str]:
    if g["kind"] == "shape":
        return []  # the picture says it; the guide's goal-shape sheet explains the squares
    return _wrap(g["text"], SMALL, w)[:4]


def _card_height(g: dict[str, Any], w: float) -> int:
    if g["kind"] != "shape":
        return 52 + LINE * len(_card_lines(g, w - 20)) + 44
    return 56 + CARD_CELL * len(g["rows"]) + 12


def _card(d: ImageDraw.ImageDraw, g: dict[str, Any], x: float, y: float, w: float) -> float:
    h = _card_height(g, w)
    box(d, (x, y, x + w, y + h), fill="panel2")
    text(d, (x + 12, y + 6), _fit(f"{g['name']}", FS, w - 150), FS, "accent")
    text(d, (x + w - 12, y + 2), f"{g['points']} pts", KEY, "text", "ra")
    for i, line in enumerate(_card_lines(g, w - 20)):
        text(d, (x + 12, y + 48 + LINE * i), line, SMALL, "text")
    if g["kind"] == "shape":
        _shape(d, g["rows"], x + 16, y + 50, CARD_CELL)
    else:
        for k, icon in enumerate(g["needs"]):
            decoration(d, icon, x + w - 30 - 44 * (len(g["needs"]) - 1 - k), y + h - 28, 18)
    return h


def _tile_both_sides(
    d: ImageDraw.ImageDraw, t: dict[str, Any], x: float, y: float, s: float, label: str
) -> None:
    """A held tile: its decoration side and, beside it, its dungeon side (unturned)."""
    tile_face(d, x, y, s, t)
    if t["n"] != "G":
        e = [0 if i in "-*" else 1 for i in t["edges"]]
        dungeon_cell(
            d, x + s + 8, y + s * 0.2, s * 0.6, {"kind": "dungeon", "floor": t["floor"], "e": e, "t": t["n"]}
        )
    text(d, (x, y + s + 4), _fit(label, SMALL, 188), SMALL, "text")


def area(view: dict[str, Any], names: list[str]) -> bytes | None:
    """The seat's own dungeon, tiles, tokens and goal cards, ~600 px wide."""
    seat = view.get("viewer")
    if seat is None or not view.get("mine"):
        return None
    p = view["players"][seat]
    cells = p["dungeon"]["cells"]
    s = grid_size(cells, AREA_W - 8, most=80)
    _, _, miny, maxy = _extent(cells)
    dungeon_h = 30 + (maxy - miny + 1) * s
    held = [("stored", t) for t in p["storage"]] + [("new", t) for t in p["new_tiles"]]
    if view.get("burrow") and view["current"] == seat:
        held += [("Burrow Bro", t) for t in view["burrow"]]
    tiles_h = 136 * ((len(held) + 2) // 3) if held else 0
    cw = AREA_W - 24
    cards_h = sum(_card_height(g, cw) + 10 for g in view["mine"]["hand"])
    key = _area_key(view["mine"]["hand"])
    img, d = canvas(AREA_W, 110 + dungeon_h + 20 + tiles_h + 44 + cards_h + 40 * len(key) + 12)
    d.rectangle([0, 0, AREA_W, 96], fill=PALETTE["panel"])
    text(d, (16, 8), _fit(f"{names[seat]}: your area", FS, AREA_W - 170), FS, seat_colour(seat))
    text(d, (AREA_W - 16, 4), f"{p['score']} pts", KEY, "text", "ra")
    x = 16
    for kind in ("architect", "mimic"):
        helper(d, kind, x + 16, 66, 16)
        text(d, (x + 38, 66), f"x{p['tokens'][kind]} {HELPERS[kind].split()[-1]}", FS, "text", "lm")
        x += 200
    y = 104 + draw_dungeon(d, cells, 4, 104, s) + 20
    for i, (label, t) in enumerate(held):
        name = "generic" if t["n"] == "G" else str(t["n"])
        _tile_both_sides(d, t, 16 + (i % 3) * 195, y + (i // 3) * 136, 90, f"{label} {name}")
    y += tiles_h
    text(d, (16, y + 4), "Your goal cards", FS, "accent")
    y += 44
    for g in view["mine"]["hand"]:
        y += _card(d, g, 12, y, cw) + 10
    for tok, words in key:  # what the squares of the shape pictures above mean
        shape_cell(d, tok, 16, y + 2, 32)
        text(d, (60, y + 18), _fit(words, SMALL, AREA_W - 76), SMALL, "text", "lm")
        y += 40
    return to_png(to_palette(img))


def _key_token(tok: str) -> str:
    """The line of the shape key that explains a square's code."""
    if tok[1:2].isdigit():
        return tok[0] + "2"
    if tok.startswith("H") and tok not in ("H", "HS"):
        return "Hred"  # a hallway of some colour
    return tok


def _area_key(hand: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The lines of the shape key that the shape cards in hand use."""
    used = {_key_token(t) for g in hand if g["kind"] == "shape" for r in g["rows"] for t in r.split()}
    return [(tok, words) for tok, words in SHAPE_KEY if tok in used]


PREVIEW_W = 640
CROP = 46  # a square in the small pictures of each turn on offer
TURN_H = 3 * CROP + 40


def _label_square(d: ImageDraw.ImageDraw, x: float, y: float, s: int, label: str, size: int) -> None:
    """A candidate square: an outline and its name, as the option names it."""
    d.rectangle([x + 2, y + 2, x + s - 2, y + s - 2], outline=PALETTE["accent"], width=3)
    w = text_width(label, size) + 8
    d.rectangle(
        [x + s / 2 - w / 2, y + s / 2 - size * 0.6, x + s / 2 + w / 2, y + s / 2 + size * 0.6], fill=(0, 0, 0)
    )
    text(d, (x + s / 2, y + s / 2), label, size, "white", "mm")


def _turn_crop(
    d: ImageDraw.ImageDraw,
    cells: dict[str, Any],
    hide: list[str],
    at: str,
    cell: dict[str, Any],
    x0: float,
    y0: float,
) -> None:
    """One turn on offer: the tile on its square among its neighbours (3 x 3 squares)."""
    cx, cy = _xy(at)
    s = CROP
    d.rectangle([x0, y0, x0 + 3 * s, y0 + 3 * s], outline=PALETTE["line"], width=1)
    for c, other in cells.items():
        x, y = _xy(c)
        if abs(x - cx) <= 1 and abs(y - cy) <= 1 and c not in hide and c != at:
            dungeon_cell(d, x0 + (x - cx + 1) * s, y0 + (y - cy + 1) * s, s, other)
    d.rectangle([x0 + s - 4, y0 + s - 4, x0 + 2 * s + 4, y0 + 2 * s + 4], outline=GOLD, width=3)
    dungeon_cell(d, x0 + s, y0 + s, s, cell)


def preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """A build step of the chooser: the seat's own dungeon with the candidate squares
    named as the options name them, the tile drawn where only one turn fits, and the
    tile in each turn on offer once the square is chosen."""
    cells = dict(view["players"][pv["seat"]]["dungeon"]["cells"])
    shown = dict(cells)
    for c, cell in pv.get("ghosts", {}).items():
        shown[c] = cell
    for c in list(pv.get("labels", {})) + list(pv.get("mark", [])):
        shown.setdefault(c, {"kind": "none"})
    s = grid_size(shown, PREVIEW_W - 8, most=72)
    minx, _, miny, maxy = _extent(shown)
    turns = pv.get("turns", [])
    per_row = 3  # a caption ("At AQ41 turned 90°") fits a third of the width
    turn_h = TURN_H * (-(-len(turns) // per_row))
    img, d = canvas(PREVIEW_W, 56 + 30 + (maxy - miny + 1) * s + 12 + turn_h)
    text(d, (12, 12), _fit(pv.get("title", ""), FS, PREVIEW_W - 24), FS, "text")
    real = {c: cell for c, cell in shown.items() if cell.get("kind") != "none"}
    draw_dungeon(d, real, 4, 56, s, _extent(shown))
    gx, gy = 4 + 48, 56 + 30
    size = FS if s >= 64 else SMALL if s >= 48 else 14
    for c in pv.get("mark", []):
        x, y = _xy(c)
        px, py = gx + (x - minx) * s, gy + (y - miny) * s
        d.rectangle([px + 1, py + 1, px + s - 1, py + s - 1], outline=GOLD, width=4)
    for c, label in pv.get("labels", {}).items():
        x, y = _xy(c)
        _label_square(d, gx + (x - minx) * s, gy + (y - miny) * s, s, label, size)
    y0 = gy + (maxy - miny + 1) * s + 12
    col = (PREVIEW_W - 16) // per_row
    for i, (caption, cell, at) in enumerate(turns):
        x, y = 8 + (i % per_row) * col, y0 + (i // per_row) * TURN_H
        _turn_crop(d, cells, pv.get("hide", []), at, cell, x + col / 2 - 1.5 * CROP, y)
        text(d, (x + col / 2, y + 3 * CROP + 6), _fit(caption, SMALL, col - 8), SMALL, "text", "ma")
    return to_png(to_palette(img))


# Old entry points (tables and the benchmark call these until they use RENDERER).
def render(view: dict[str, Any]) -> bytes:
    return board(view, default_names(view["seats"]))


def render_private(view: dict[str, Any]) -> bytes | None:
    return area(view, default_names(view["seats"]))


RENDERER = Renderer(board=board, area=area, preview=preview, guide=guide)
