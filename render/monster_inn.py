"""Monster Inn images, drawn from views only.

- ``board``: the inn row (the creature being bid on marked), the pool and the
  supply, and every player's dungeon under their name; the player to act is
  framed and badged. Face-down humanoids show what their back shows (range and
  skulls); hidden purses say "treasure hidden". The last board shows the final
  scores, the places and the winner.
- ``area``: one seat's own part (purse, dungeon) about 600 px wide, at twice the
  board's scale, for the private reply.

Monsters carry their kind's colour AND letter (explained in the legend), so
colour is never the only cue. Dungeon columns are numbered: the number is what
``support <n> gold|gem`` names. Every text a player reads is >= 24 px.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from engine.core import name_seats
from render import Renderer, default_names
from render.base import PALETTE, box, canvas, seat_colour, text, text_width, to_palette, to_png

View = dict[str, Any]
WIDTH = 1200
PAD = 18
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "Undead": (204, 121, 167),
    "Kobolds": (230, 159, 0),
    "Goblins": (0, 158, 115),
    "Orcs": (213, 94, 0),
    "Trolls": (0, 114, 178),
}
KIND_LETTERS = {"Undead": "U", "Kobolds": "K", "Goblins": "G", "Orcs": "O", "Trolls": "T"}
BACK = (70, 60, 90)
FACE = (225, 215, 190)  # a humanoid turned face up at the scoring
GOLD = (240, 200, 40)
GEM = (86, 180, 233)
IW, IH = 150, 196  # inn cards
DW, DH, DGAP = 80, 96, 6  # dungeon cards
COL = DW + 6  # dungeon column pitch


def _ink(bg: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white text, whichever reads better on ``bg``."""
    lum = 0.299 * bg[0] + 0.587 * bg[1] + 0.114 * bg[2]
    return (0, 0, 0) if lum > 110 else (255, 255, 255)


def _skull(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: tuple[int, int, int]) -> None:
    """A small skull: round head, jaw, two eyes (top-left at x, y; size 2r)."""
    d.ellipse((x, y, x + 2 * r, y + 1.7 * r), fill=fill)
    d.rectangle((x + 0.45 * r, y + 1.3 * r, x + 1.55 * r, y + 2 * r), fill=fill)
    hole = (0, 0, 0) if sum(fill) > 300 else (255, 255, 255)
    e = 0.38 * r
    d.ellipse((x + 0.45 * r, y + 0.7 * r, x + 0.45 * r + e * 1.6, y + 0.7 * r + e * 1.6), fill=hole)
    d.ellipse((x + 1.55 * r - e * 1.6, y + 0.7 * r, x + 1.55 * r, y + 0.7 * r + e * 1.6), fill=hole)


def _skulls(
    d: ImageDraw.ImageDraw, cx: float, y: float, n: int, r: float, fill: tuple[int, int, int]
) -> None:
    step = 2 * r + 3
    x0 = cx - (n * step - 3) / 2
    for i in range(n):
        _skull(d, x0 + i * step, y, r, fill)


def _coin(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.ellipse((x, y, x + 2 * r, y + 2 * r), fill=GOLD, outline=(120, 90, 0), width=2)


def _gem(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    d.polygon(
        [(x + r, y), (x + 2 * r, y + r), (x + r, y + 2 * r), (x, y + r)], fill=GEM, outline=(20, 60, 110)
    )


def _treasure_icon(d: ImageDraw.ImageDraw, t: str, x: float, y: float, r: float) -> None:
    (_coin if t == "gold" else _gem)(d, x, y, r)


def _purse(d: ImageDraw.ImageDraw, x: float, y: float, gold: int, gem: int, size: int = 26) -> float:
    """'(coin) 3 gold  (gem) 4 gems' with icons; returns the x after it."""
    r = size * 0.45
    for t, n in (("gold", gold), ("gem", gem)):
        _treasure_icon(d, t, x, y + size * 0.1, r)
        word = f"{n} gold" if t == "gold" else f"{n} gem" + ("" if n == 1 else "s")
        text(d, (x + 2 * r + 8, y), word, size)
        x += 2 * r + 8 + text_width(word, size) + 18
    return x


def _names(view: View, names: list[str] | None) -> list[str]:
    return list(names) if names else default_names(view["seats"])


# ---- cards -------------------------------------------------------------------------------


def _monster(d: ImageDraw.ImageDraw, x: float, y: float, c: dict[str, Any], s: float, big: bool) -> None:
    """A face-up monster; ``s`` scales the dungeon-size card (the area draws it bigger)."""
    col = KIND_COLOURS[c["kind"]]
    ink = _ink(col)
    w, h = (IW, IH) if big else (DW * s, DH * s)
    box(d, (x, y, x + w, y + h), fill=col, outline="white", width=2, radius=8)
    if big:
        text(d, (x + w / 2, y + 12), c["kind"], 26, ink, "ma")
        text(d, (x + w / 2, y + 48), str(c["value"]), 64, ink, "ma")
        _skulls(d, x + w / 2, y + h - 46, c["skulls"], 13, ink)
        return
    text(d, (x + w / 2, y + 8 * s), f"{KIND_LETTERS[c['kind']]}{c['value']}", round(32 * s), ink, "ma")
    _skulls(d, x + w / 2, y + h - 28 * s, c["skulls"], 8 * s, ink)


def _humanoid(d: ImageDraw.ImageDraw, x: float, y: float, c: dict[str, Any], s: float, big: bool) -> None:
    """A humanoid: its back (range and skulls) or, once revealed, its face (value)."""
    revealed = "value" in c
    fill = FACE if revealed else BACK
    ink = _ink(fill)
    w, h = (IW, IH) if big else (DW * s, DH * s)
    box(d, (x, y, x + w, y + h), fill=fill, outline="muted", width=2, radius=8)
    if big:
        text(d, (x + w / 2, y + 12), "Humanoid", 26, ink, "ma")
        text(d, (x + w / 2, y + 54), c["range"], 44, ink, "ma")
        text(d, (x + w / 2, y + 108), "face down", 24, "muted", "ma")
        _skulls(d, x + w / 2, y + h - 46, c["skulls"], 13, ink)
        return
    label = str(c["value"]) if revealed else c["range"]
    text(d, (x + w / 2, y + 10 * s), label, round((32 if revealed else 26) * s), ink, "ma")
    _skulls(d, x + w / 2, y + h - 26 * s, c["skulls"], 8 * s, ink)


# ---- the board ----------------------------------------------------------------------------


def _wrap(s: str, size: int, width: float) -> list[str]:
    lines: list[str] = []
    for word in s.split(" "):
        if lines and text_width(f"{lines[-1]} {word}", size) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _header(d: ImageDraw.ImageDraw, view: View, names: list[str]) -> int:
    if view["over"]:
        title = f"Monster Inn - final scores after {view['round']} rounds"
    else:
        deck = f"{view['deck']} card{'s' if view['deck'] != 1 else ''} left in the deck"
        title = f"Monster Inn - round {view['round']} of {view['rounds']} - {deck}"
    lines = _wrap(name_seats(view["status"], names), 26, WIDTH - 2 * PAD)
    h = 56 + 34 * len(lines) + 10
    d.rectangle((0, 0, WIDTH, h), fill=PALETTE["panel"])
    text(d, (PAD, 10), title, 32, "accent")
    for i, line in enumerate(lines):
        text(d, (PAD, 54 + 34 * i), line, 26)
    return h + 12


def _header_height(view: View, names: list[str]) -> int:
    lines = _wrap(name_seats(view["status"], names), 26, WIDTH - 2 * PAD)
    return 56 + 34 * len(lines) + 10 + 12


INN_H = 40 + IH + 44


def _draw_inn(d: ImageDraw.ImageDraw, view: View, names: list[str], y: int) -> None:
    text(d, (PAD, y), "The Inn", 28, "accent")
    text(d, (PAD + 124, y + 2), "whoever leaves takes the leftmost creature", 24, "muted")
    top = view.get("deck_top")
    if top is not None:  # the back of the deck's top card, seen by everyone at the table
        what = "a monster" if top["type"] == "monster" else f"humanoid {top['range']}, {top['skulls']} skulls"
        text(d, (WIDTH - PAD, y + 2), f"Top of the deck: {what}", 24, "accent", "ra")
    cy = y + 40
    x: float = PAD
    for i, c in enumerate(view["inn"]):
        (_monster if c["type"] == "monster" else _humanoid)(d, x, cy, c, 1, True)
        if i == 0:
            d.rectangle((x, cy + IH + 4, x + IW, cy + IH + 10), fill=PALETTE["accent"])
            text(d, (x + IW / 2, cy + IH + 14), "next to go", 24, "accent", "ma")
        x += IW + 12
    px = WIDTH - PAD - 300
    box(d, (px, cy, WIDTH - PAD, cy + IH), fill="panel")
    text(d, (px + 16, cy + 12), "Pool", 28, "accent")
    pool = view["pool"]
    if pool["n"]:
        word = "gold" if pool["type"] == "gold" else ("gem" if pool["n"] == 1 else "gems")
        _treasure_icon(d, pool["type"], px + 16, cy + 54, 16)
        text(d, (px + 56, cy + 50), f"{pool['n']} {word}", 34)
    else:
        text(d, (px + 16, cy + 54), "empty", 28, "muted")
    text(d, (px + 16, cy + 104), "Supply", 26, "muted")
    _purse(d, px + 16, cy + 140, view["supply"]["gold"], view["supply"]["gem"], 24)


def _place(view: View, seat: int) -> int:
    for i, group in enumerate(view["ranking"], 1):
        if seat in group:
            return i
    return 0


def _final_banner(d: ImageDraw.ImageDraw, view: View, names: list[str], y: int) -> int:
    """The winner, big, and the places with fame and treasure (the tie-break)."""
    winners = view["ranking"][0]
    fame = view["scoring"][winners[0]]["fame"]
    who = " and ".join(names[s] for s in winners)
    word = "Winners" if len(winners) > 1 else "Winner"
    box(d, (PAD, y, WIDTH - PAD, y + 64), fill=(70, 60, 20), outline="accent", width=3)
    text(d, (WIDTH / 2, y + 32), f"{word}: {who} with {fame} fame", 40, "accent", "mm")
    y += 76
    for group in view["ranking"]:
        for s in group:
            p = view["players"][s]
            line = f"{_place(view, s)}. {names[s]}: {view['scoring'][s]['fame']} fame"
            text(d, (PAD + 8, y), line, 28, seat_colour(s))
            text(d, (PAD + 520, y + 2), f"{p['gold'] + p['gem']} treasures", 24, "muted")
            y += 36
    return y + 8


def _final_height(view: View) -> int:
    return 76 + 36 * view["seats"] + 8


def _player_height(view: View) -> int:
    return 48 + 2 * DH + DGAP + 32 + (34 if view["over"] else 0) + 10


def _player_top(d: ImageDraw.ImageDraw, view: View, p: dict[str, Any], name: str, y: int) -> None:
    s = p["seat"]
    acting = s in view["to_act"]
    x: float = PAD + 24
    text(d, (x, y + 10), name, 30, seat_colour(s))
    x += text_width(name, 30) + 16
    if acting:
        w = text_width("TO ACT", 26) + 44
        box(d, (x, y + 8, x + w, y + 42), fill="accent", outline=None, radius=6)
        d.polygon([(x + 10, y + 14), (x + 26, y + 25), (x + 10, y + 36)], fill=PALETTE["black"])
        text(d, (x + 34, y + 12), "TO ACT", 26, "black")
        x += w + 16
    elif view["over"] and s in view["ranking"][0]:
        w = text_width("WINNER", 26) + 20
        box(d, (x, y + 8, x + w, y + 42), fill="accent", outline=None, radius=6)
        text(d, (x + 10, y + 12), "WINNER", 26, "black")
    elif not view["over"]:
        note = "bidding" if p["in_round"] else "left this round"
        text(d, (x, y + 14), note, 24, "muted")
        x += text_width(note, 24) + 16
    if view["over"]:
        sc = view["scoring"][s]
        b = sc["breakdown"]
        line = f"{sc['fame']} fame = monsters {b['monsters']}, beaten {b['beaten']}, treasure {b['treasure']}"
        text(d, (WIDTH - PAD - 16, y + 12), line, 26, "accent", "ra")
    elif p["gold"] is None:
        text(d, (WIDTH - PAD - 16, y + 14), "treasure hidden", 24, "muted", "ra")
    else:
        _purse(d, max(x, WIDTH - PAD - 330), y + 12, p["gold"], p["gem"])


def _draw_player(d: ImageDraw.ImageDraw, view: View, p: dict[str, Any], name: str, y: int) -> None:
    h = _player_height(view)
    acting = p["seat"] in view["to_act"]
    box(
        d,
        (PAD, y, WIDTH - PAD, y + h),
        fill="panel",
        outline="accent" if acting else "line",
        width=5 if acting else 2,
    )
    d.rectangle((PAD, y, PAD + 12, y + h), fill=seat_colour(p["seat"]))
    _player_top(d, view, p, name, y)
    cols = view["scoring"][p["seat"]]["columns"] if view["over"] else None
    _dungeon(d, p, PAD + 28, y + 50, 1.0, cols)


def _dungeon(
    d: ImageDraw.ImageDraw,
    p: dict[str, Any],
    x0: float,
    top: float,
    s: float,
    cols: list[dict[str, Any]] | None,
    first: int = 0,
) -> None:
    """Monsters on top, humanoids below, columns numbered from ``first + 1`` (as the
    support move names them); at the end each column's fame."""
    mons, hums = p["monsters"], p["humanoids"]
    n = max(len(mons), len(hums))
    w, h, pitch = DW * s, DH * s, COL * s
    if n == 0:
        text(d, (x0, top + h / 2), "no creatures yet", round(26 * s), "muted", "lm")
    for i in range(n):
        cx = x0 + i * pitch
        if i < len(mons):
            _monster(d, cx, top, mons[i], s, False)
            if mons[i]["support"]:
                _treasure_icon(d, mons[i]["support"], cx + w - 22 * s, top - 6 * s, 12 * s)
        else:
            d.rounded_rectangle((cx, top, cx + w, top + h), radius=8, outline=PALETTE["line"], width=2)
        hy = top + h + DGAP * s
        if i < len(hums):
            _humanoid(d, cx, hy, hums[i], s, False)
            if cols is not None and cols[i]["outcome"] in ("wins", "supported", "no monster"):
                colour = PALETTE["bad"] if cols[i]["outcome"] == "wins" else PALETTE["text"]
                d.line((cx + 6, hy + 6, cx + w - 6, hy + h - 6), fill=colour, width=round(5 * s))
                d.line((cx + w - 6, hy + 6, cx + 6, hy + h - 6), fill=colour, width=round(5 * s))
        text(d, (cx + w / 2, hy + h + 4 * s), str(first + i + 1), round(24 * s), "muted", "ma")
        if cols is not None:
            f = cols[i]["fame"]
            fill = "good" if f > 0 else ("bad" if f < 0 else "muted")
            text(d, (cx + w / 2, hy + h + 32 * s), f"{f:+d}" if f else "0", round(30 * s), fill, "ma")


LEGEND = [
    "Top row: monsters (colour and letter = kind). Bottom row: the humanoid under each, face down:",
    "its back shows the combat value range and the skulls. A coin or gem on a monster = support.",
    "Column numbers are for support: type support 2 gold (or gem) for the monster in column 2.",
]
FINAL_LEGEND = [
    "Under each column: its fame. Red cross: the humanoid was weaker and removed after it was",
    "turned over. White cross: removed unseen (the monster had support, or no monster above it).",
    "Humanoid turned face up: light card with its combat value. 1 fame per 3 treasures.",
]


def _legend(d: ImageDraw.ImageDraw, view: View, y: int) -> None:
    x: float = PAD
    for kind, colour in KIND_COLOURS.items():
        box(d, (x, y, x + 34, y + 30), fill=colour, outline=None, radius=4)
        text(d, (x + 17, y + 15), KIND_LETTERS[kind], 24, _ink(colour), "mm")
        text(d, (x + 42, y + 2), kind, 24)
        x += 50 + text_width(kind, 24) + 22
    for i, line in enumerate(FINAL_LEGEND if view["over"] else LEGEND):
        text(d, (PAD, y + 42 + 32 * i), line, 24, "muted")


LEGEND_H = 42 + 32 * 3 + 10


def board(view: View, names: list[str] | None = None) -> bytes:
    names = _names(view, names)
    top = _header_height(view, names)
    middle = _final_height(view) if view["over"] else INN_H
    height = top + middle + (_player_height(view) + 10) * view["seats"] + LEGEND_H
    img, d = canvas(WIDTH, height)
    _header(d, view, names)
    y = top
    if view["over"]:
        _final_banner(d, view, names, y)
    else:
        _draw_inn(d, view, names, y)
    y += middle
    for p in view["players"]:
        _draw_player(d, view, p, names[p["seat"]], y)
        y += _player_height(view) + 10
    _legend(d, view, y)
    # A flat-coloured board: a 96-colour palette encodes ~3x faster and ~2.5x smaller than RGB.
    return to_png(to_palette(img))


# ---- my area --------------------------------------------------------------------------------

AREA_W = 600
AREA_S = 2.0  # twice the board's dungeon cards
AREA_COLS = 3  # columns of the dungeon per line at that scale


def _area_lines(p: dict[str, Any]) -> int:
    n = max(len(p["monsters"]), len(p["humanoids"]), 1)
    return (n + AREA_COLS - 1) // AREA_COLS


def area(view: View, names: list[str] | None = None) -> bytes | None:
    """The viewer's purse and dungeon, big; None for the public view."""
    seat = view.get("viewer")
    if seat is None:
        return None
    names = _names(view, names)
    p = view["players"][seat]
    below = (66 if view["over"] else 32) * AREA_S  # column numbers, and fame at the end
    block = (2 * DH + DGAP) * AREA_S + below + 20
    height = 210 + _area_lines(p) * block
    img, d = canvas(AREA_W, round(height))
    d.rectangle((0, 0, AREA_W, 60), fill=seat_colour(seat))
    text(d, (PAD, 12), f"{names[seat]}: my dungeon", 34, _ink(seat_colour(seat)))
    _purse(d, PAD, 78, p["gold"], p["gem"], 34)
    supported = sum(1 for m in p["monsters"] if m["support"])
    note = f"{supported} more on your monsters as support" if supported else "treasure: 1 fame per 3"
    text(d, (PAD, 124), note, 30, "muted")
    if not view["over"]:
        nxt = len(p["humanoids"]) + 1
        text(d, (PAD, 160), f"Next humanoid: under column {nxt}", 30, "muted")
    y = 206.0
    cols = view["scoring"][seat]["columns"] if view["over"] else None
    n = max(len(p["monsters"]), len(p["humanoids"]))
    for line in range(_area_lines(p)):
        lo, hi = line * AREA_COLS, min(n, (line + 1) * AREA_COLS)
        part = {"monsters": p["monsters"][lo:hi], "humanoids": p["humanoids"][lo:hi]}
        _dungeon(d, part, PAD + 8, y + 8, AREA_S, cols[lo:hi] if cols else None, first=lo)
        y += block
    return to_png(to_palette(img))


# The one protocol (render/__init__.py).
RENDERER = Renderer(board=board, area=area)


def render(view: View) -> bytes:
    """The public board with default names (the tables layer and the benchmark still
    call this name; the protocol's ``board`` takes the players' names)."""
    return board(view, None)


def render_private(view: View) -> bytes | None:
    """The seat's own area with default names (see :func:`render`)."""
    return area(view, None)
