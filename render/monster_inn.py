"""Monster Inn board: the inn row, the pool and supply, and every dungeon.

Drawn only from a view, so face-down humanoids show just their back range and
hidden purses show "hidden". Monsters carry their kind's colour AND letter, so
colour is never the only cue. Dungeon columns are numbered: the number is what
``support <n> gold|gem`` names.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from render import Renderer
from render.base import PALETTE, box, canvas, header, seat_colour, text, text_width, to_palette, to_png

WIDTH = 1000
PAD = 16
KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "Undead": (204, 121, 167),
    "Kobolds": (230, 159, 0),
    "Goblins": (0, 158, 115),
    "Orcs": (213, 94, 0),
    "Trolls": (0, 114, 178),
}
BACK = (70, 60, 90)
GOLD = (240, 200, 40)
GEM = (86, 180, 233)
# Inn cards and dungeon cards.
IW, IH = 150, 176
DW, DH = 66, 80
DGAP = 5


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


def _purse(d: ImageDraw.ImageDraw, x: float, y: float, gold: int, gem: int) -> float:
    """Gold and gem counts with icons; returns the x after them."""
    _coin(d, x, y + 1, 9)
    text(d, (x + 23, y), str(gold), 18)
    x += 23 + text_width(str(gold), 18) + 14
    _gem(d, x, y + 1, 9)
    text(d, (x + 23, y), str(gem), 18)
    return x + 23 + text_width(str(gem), 18)


def _monster(
    d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, c: dict[str, Any], big: bool
) -> None:
    col = KIND_COLOURS[c["kind"]]
    ink = _ink(col)
    box(d, (x, y, x + w, y + h), fill=col, outline="white", width=2, radius=8)
    if big:
        text(d, (x + w / 2, y + 10), c["kind"], 18, ink, "ma")
        text(d, (x + w / 2, y + 36), f"{c['letter']}{c['value']}", 44, ink, "ma")
        text(d, (x + w / 2, y + 96), f"value {c['value']}", 16, ink, "ma")
        _skulls(d, x + w / 2, y + h - 44, c["skulls"], 12, ink)
    else:
        text(d, (x + w / 2, y + 8), f"{c['letter']}{c['value']}", 26, ink, "ma")
        _skulls(d, x + w / 2, y + h - 30, c["skulls"], 7, ink)


def _humanoid(
    d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float, c: dict[str, Any], big: bool
) -> None:
    revealed = "value" in c
    fill = (215, 205, 185) if revealed else BACK
    ink = _ink(fill)
    box(d, (x, y, x + w, y + h), fill=fill, outline="muted", width=2, radius=8)
    if big:
        text(d, (x + w / 2, y + 10), "Humanoid", 18, ink, "ma")
        text(d, (x + w / 2, y + 40), "?", 48, ink, "ma")
        text(d, (x + w / 2, y + h - 52), c["range"], 26, ink, "ma")
        return
    if revealed:
        text(d, (x + w / 2, y + 8), f"H{c['value']}", 26, ink, "ma")
        _skulls(d, x + w / 2, y + h - 30, c["skulls"], 7, ink)
    else:
        text(d, (x + w / 2, y + 10), "H ?", 22, ink, "ma")
        text(d, (x + w / 2, y + h - 30), c["range"], 18, ink, "ma")


def _player_height(view: dict[str, Any], p: dict[str, Any]) -> int:
    return 34 + 2 * DH + DGAP + (30 if view["over"] else 0) + 30


def render(view: dict[str, Any]) -> bytes:
    players = view["players"]
    inn_h = 86 if view["over"] else IH + 80
    legend = 0 if view["over"] else 30
    height = 76 + inn_h + sum(_player_height(view, p) + 10 for p in players) + legend + PAD
    img, d = canvas(WIDTH, height)
    header(d, WIDTH, f"{view['title']} - round {view['round']}", view["status"])
    y = 76
    if view["over"]:
        _draw_final(d, view, y)
    else:
        _draw_inn(d, view, y)
    y += inn_h
    for p in players:
        h = _player_height(view, p)
        _draw_player(d, view, p, y, h)
        y += h + 10
    if not view["over"]:
        _gem(d, PAD, y + 3, 8)
        text(
            d,
            (PAD + 22, y),
            "on a monster = its support.  H ? = face-down humanoid, range on its back.  "
            "Column numbers are for: support <n> gold|gem",
            16,
            "muted",
        )
    # A flat-coloured board: a 96-colour palette encodes ~3x faster and ~2.5x smaller than RGB.
    return to_png(to_palette(img))


def _draw_inn(d: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> None:
    deck = f"deck: {view['deck']} card{'s' if view['deck'] != 1 else ''}"
    text(d, (PAD, y), "The Inn", 22, "accent")
    text(d, (PAD + 100, y + 3), f"(leftmost is taken by the next to leave; {deck})", 16, "muted")
    cy = y + 34
    x: float = PAD
    for i, c in enumerate(view["inn"]):
        (_monster if c["type"] == "monster" else _humanoid)(d, x, cy, IW, IH, c, True)
        if i == 0 and not view["over"]:
            d.rectangle((x, cy + IH + 4, x + IW, cy + IH + 9), fill=PALETTE["accent"])
            text(d, (x + IW / 2, cy + IH + 14), "next to go", 16, "accent", "ma")
        x += IW + 10
    if not view["inn"]:
        text(d, (PAD, cy + 20), "empty", 20, "muted")
    # Pool and supply on the right.
    px = WIDTH - PAD - 230
    box(d, (px, cy, WIDTH - PAD, cy + IH), fill="panel")
    text(d, (px + 14, cy + 10), "Pool", 22, "accent")
    pool = view["pool"]
    if pool["n"]:
        word = "gold" if pool["type"] == "gold" else ("gem" if pool["n"] == 1 else "gems")
        _treasure_icon(d, pool["type"], px + 14, cy + 44, 14)
        text(d, (px + 50, cy + 44), f"{pool['n']} {word}", 26)
    else:
        text(d, (px + 14, cy + 46), "empty", 22, "muted")
    text(d, (px + 14, cy + 96), "Supply", 18, "muted")
    _purse(d, px + 14, cy + 124, view["supply"]["gold"], view["supply"]["gem"])


def _draw_final(d: ImageDraw.ImageDraw, view: dict[str, Any], y: int) -> None:
    places = "   ".join(
        f"{i}. " + " = ".join(f"P{s + 1}" for s in group) for i, group in enumerate(view["ranking"], 1)
    )
    text(d, (PAD, y), f"Final scoring   {places}", 22, "accent")
    text(
        d,
        (PAD, y + 32),
        "Under each column: its fame. X = weaker humanoid removed. S = supported (humanoid removed unseen),",
        16,
        "muted",
    )
    text(
        d,
        (PAD, y + 52),
        "gone = no monster above (removed unseen). 1 fame per 3 treasures; ties: most treasure.",
        16,
        "muted",
    )


def render_private(view: dict[str, Any]) -> bytes:
    """The board as one seat sees it: the same picture plus that seat's own purse."""
    return render(view)


def _draw_player(d: ImageDraw.ImageDraw, view: dict[str, Any], p: dict[str, Any], y: int, h: int) -> None:
    s = p["seat"]
    acting = s in view.get("to_act", [])
    box(
        d,
        (PAD, y, WIDTH - PAD, y + h),
        fill="panel",
        outline="accent" if acting else "line",
        width=3 if acting else 2,
    )
    d.rectangle((PAD, y, PAD + 10, y + h), fill=seat_colour(s))
    x: float = PAD + 22
    name = f"P{s + 1}"
    text(d, (x, y + 8), name, 22, seat_colour(s))
    x += text_width(name, 22) + 12
    if acting:
        text(d, (x, y + 10), "TO ACT", 18, "accent")
        x += text_width("TO ACT", 18) + 12
    elif not view["over"]:
        note = "bidding" if p["in_round"] else "left this round"
        text(d, (x, y + 10), note, 16, "muted")
        x += text_width(note, 16) + 12
    if p["gold"] is None:
        text(d, (x + 10, y + 10), "treasure hidden", 16, "muted")
    else:
        x = _purse(d, x + 10, y + 8, p["gold"], p["gem"])
        text(d, (x + 8, y + 10), f"= {p['gold'] + p['gem']}", 16, "muted")
    if view["over"]:
        sc = view["scoring"][s]
        b = sc["breakdown"]
        line = (
            f"{sc['fame']} fame  (monsters {b['monsters']}, beaten {b['beaten']}, treasure {b['treasure']})"
        )
        text(d, (WIDTH - PAD - 14, y + 10), line, 18, "accent", "ra")
    mons, hums = p["monsters"], p["humanoids"]
    cols = max(len(mons), len(hums))
    top = y + 34
    text(d, (PAD + 22, top + DH / 2), "M", 18, "muted", "lm")
    text(d, (PAD + 22, top + DH + DGAP + DH / 2), "H", 18, "muted", "lm")
    x0 = PAD + 44
    if cols == 0:
        text(d, (x0, top + DH / 2), "empty dungeon", 18, "muted", "lm")
    for i in range(cols):
        cx = x0 + i * (DW + 4)
        if i < len(mons):
            m = mons[i]
            _monster(d, cx, top, DW, DH, m, False)
            if m["support"]:
                # The support treasure, drawn on the monster's corner.
                _treasure_icon(d, m["support"], cx + DW - 20, top - 4, 11)
        else:
            d.rounded_rectangle((cx, top, cx + DW, top + DH), radius=8, outline=PALETTE["line"], width=1)
        if i < len(hums):
            _humanoid(d, cx, top + DH + DGAP, DW, DH, hums[i], False)
        text(d, (cx + DW / 2, top + 2 * DH + DGAP + 4), str(i + 1), 16, "muted", "ma")
        if view["over"]:
            col = view["scoring"][s]["columns"][i]
            if col["outcome"] == "wins":  # the weaker humanoid was revealed and removed
                hy = top + DH + DGAP
                d.rounded_rectangle((cx, hy, cx + DW, hy + DH), radius=8, outline=PALETTE["bad"], width=4)
                d.line((cx + 4, hy + DH - 4, cx + DW - 4, hy + 4), fill=PALETTE["bad"], width=2)
            f = col["fame"]
            label = {"no monster": "gone", "supported": f"+{f} S"}.get(
                col["outcome"], f"{f:+d}" if f else "0"
            )
            fill = "good" if f > 0 else ("bad" if f < 0 else "muted")
            text(d, (cx + DW / 2, top + 2 * DH + DGAP + 26), label, 16, fill, "ma")


# The one protocol (render/__init__.py). Names are not drawn yet: see issue 21.
RENDERER = Renderer(
    board=lambda view, names: render(view),
    area=lambda view, names: render_private(view),
)
