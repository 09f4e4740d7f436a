"""Dungeon Drawers: every dungeon sheet on its A-H x 1-10 grid with the hero, the path,
improvements and hearts; the seat's own sheet and hand ("my area"); and a small image
of a hero path being drawn step by step (the chooser's preview).

Draws only what the view holds: the public view has no treasure coordinates and no
hands. Players are named by ``names``; the view's texts name seats "Player N", which
is replaced by the name here, as the tables layer does in messages.
"""

from __future__ import annotations

import re
from typing import Any

from PIL import ImageDraw

from render import Renderer, default_names
from render.base import PALETTE, canvas, grid, header, seat_colour, text, text_width, to_palette, to_png

W = 1200
KIND = {"goblin": ("G", "green"), "orc": ("O", "orange"), "dragon": ("D", "red"), "trap": ("T", "purple")}
TRACK_LABEL = {
    "goblin": "Goblin",
    "orc": "Orc",
    "dragon": "Dragon",
    "trap": "Trap dmg",
    "treasure": "Treasure",
    "hand": "Hand",
}
PHASE = {
    "build": "Phase A: build",
    "path": "Phase B: hero paths",
    "defend": "Phase C: defend",
    "over": "Final",
}
SEAT_REF = re.compile(r"\bPlayer ([1-9])\b")
Colour = tuple[int, int, int]


def _named(s: str, names: list[str]) -> str:
    """The view's "Player N" replaced by the player's name (as tables does in messages)."""
    return SEAT_REF.sub(
        lambda m: names[int(m.group(1)) - 1] if int(m.group(1)) <= len(names) else m.group(0), s
    )


def wrap(s: str, width: float, size: int) -> list[str]:
    """``s`` in lines no wider than ``width`` at ``size``, broken between words only."""
    lines: list[str] = []
    cur = ""
    for word in s.split(" "):
        trial = f"{cur} {word}" if cur else word
        if cur and text_width(trial, size) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    return [*lines, cur] if cur else lines


def _fit(s: str, width: float, size: int) -> str:
    """One line: cut at a word with '...' if it is wider than ``width`` (names, short labels)."""
    if text_width(s, size) <= width:
        return s
    words = s.split(" ")
    while len(words) > 1 and text_width(" ".join(words) + "...", size) > width:
        words.pop()
    out = " ".join(words)
    while len(out) > 1 and text_width(out + "...", size) > width:
        out = out[:-1]
    return out + "..."


# ---- one grid: tokens, path, hero ---------------------------------------------------------------


class Grid:
    """Where a sheet's grid lies on the image: top-left of A1 and the cell size."""

    def __init__(self, x: int, y: int, cell: int) -> None:
        self.x, self.y, self.cell = x, y, cell

    def corner(self, c: str) -> tuple[int, int]:
        return self.x + "ABCDEFGH".index(c[0]) * self.cell, self.y + (int(c[1:]) - 1) * self.cell

    def centre(self, c: str) -> tuple[float, float]:
        x, y = self.corner(c)
        return x + self.cell / 2, y + self.cell / 2


def _tokens(d: ImageDraw.ImageDraw, g: Grid, sheet: dict[str, Any]) -> None:
    """Walls, monsters and traps. Drawn after the path, so the path never covers a letter."""
    crossed = set(sheet["crossed"])
    cs = g.cell
    inset = max(3, cs // 7)
    for cell, kind in sheet["grid"].items():
        x0, y0 = g.corner(cell)
        if kind == "wall":
            d.rectangle((x0, y0, x0 + cs, y0 + cs), fill=PALETTE["grey"])
            continue
        letter, fill = KIND[kind]
        dead = cell in crossed
        d.ellipse(
            (x0 + inset, y0 + inset, x0 + cs - inset, y0 + cs - inset),
            fill=PALETTE["panel2"] if dead else PALETTE[fill],
            outline=PALETTE["black"],
        )
        text(d, (x0 + cs / 2, y0 + cs / 2), letter, int(cs * 0.55), "muted" if dead else "black", "mm")
        if dead:  # crossed off: a thin X that leaves the letter readable
            d.line((x0 + inset, y0 + inset, x0 + cs - inset, y0 + cs - inset), fill=PALETTE["bad"], width=2)
            d.line((x0 + inset, y0 + cs - inset, x0 + cs - inset, y0 + inset), fill=PALETTE["bad"], width=2)


def _treasures(d: ImageDraw.ImageDraw, g: Grid, cells: list[str]) -> None:
    for cell in cells:
        x0, y0 = g.corner(cell)
        text(d, (x0 + g.cell - 2, y0 + 1), "$", max(14, g.cell // 3), "yellow", "ra")


def _arrow(
    d: ImageDraw.ImageDraw, at: tuple[float, float], step: tuple[int, int], size: float, fill: Colour
) -> None:
    """A filled arrowhead centred on ``at`` pointing along ``step``."""
    (x, y), (dx, dy) = at, step
    tip = (x + dx * size, y + dy * size)
    back = (x - dx * size, y - dy * size)
    px, py = -dy * size, dx * size
    d.polygon(
        [tip, (back[0] + px, back[1] + py), (back[0] - px, back[1] - py)], fill=fill, outline=PALETTE["black"]
    )


def _dashed(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: Colour, width: int
) -> None:
    n = 4
    for i in range(0, n, 2):
        p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
        d.line((p, q), fill=fill, width=width)


def draw_path(d: ImageDraw.ImageDraw, g: Grid, path: list[str], colour: Colour) -> None:
    """The hero's path: straight steps from centre to centre, an arrowhead on every step at
    the border between the two spaces, and a second pass over the same step drawn dashed in
    white with its arrowhead beside the first, so the two passes are told apart."""
    cs = g.cell
    lw = max(3, cs // 10)
    top = g.centre(path[0])
    # the entrance and the exit as stubs from the grid's edge, clear of the coordinate letters
    d.line(((top[0], g.y), top), fill=colour, width=lw)
    _arrow(d, (top[0], g.y + cs * 0.22), (0, 1), cs * 0.2, colour)
    used: set[frozenset[str]] = set()
    second = PALETTE["white"]
    for a, b in zip(path, path[1:], strict=False):
        pa, pb = g.centre(a), g.centre(b)
        step = (int((pb[0] - pa[0]) / cs), int((pb[1] - pa[1]) / cs))
        mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
        edge = frozenset((a, b))
        if edge in used:
            _dashed(d, pa, pb, second, lw)
            side = (-step[1] * cs * 0.26, step[0] * cs * 0.26)
            _arrow(d, (mid[0] + side[0], mid[1] + side[1]), step, cs * 0.17, second)
        else:
            used.add(edge)
            d.line((pa, pb), fill=colour, width=lw)
            _arrow(d, mid, step, cs * 0.2, colour)
        d.ellipse((pb[0] - lw / 2, pb[1] - lw / 2, pb[0] + lw / 2, pb[1] + lw / 2), fill=colour)
    end = g.centre(path[-1])
    if path[-1] == "H10":
        d.line((end, (end[0], end[1] + cs * 0.9)), fill=colour, width=lw)
        _arrow(d, (end[0], end[1] + cs * 0.6), (0, 1), cs * 0.2, colour)


def _hero(d: ImageDraw.ImageDraw, g: Grid, p: dict[str, Any]) -> None:
    """The hero figure: in the top-left corner of its space, so it never hides a monster's
    letter; at the entrance in the grid's top-left corner, once escaped below H10."""
    hero, path, cs = p["hero"], p["path"], g.cell
    r = max(9, cs * 0.22)
    if hero["state"] == "escaped":
        cx, cy = g.x + 8 * cs + 2, g.y + 10 * cs + r + 4
    elif hero["pos"] < 0:
        cx, cy = g.x - r - 3, g.y - r - 3
    else:
        x, y = g.corner(path[hero["pos"]])
        cx, cy = x + r + 1, y + r + 1
    fill = PALETTE["bad"] if hero["state"] == "dead" else PALETTE["white"]
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=PALETTE["good"], width=2)
    text(d, (cx, cy), "X" if hero["state"] == "dead" else "H", int(r * 1.3), "black", "mm")


def _gates(d: ImageDraw.ImageDraw, g: Grid, label: int) -> None:
    """IN in the corner above the row numbers, OUT below the grid left of the exit stub."""
    text(d, (g.x - 4, g.y - 4), "IN", label, "good", "rd")
    text(d, (g.x + 7 * g.cell - 2, g.y + 10 * g.cell + 4), "OUT", label, "good", "ra")


def draw_grid(d: ImageDraw.ImageDraw, g: Grid, p: dict[str, Any], colour: Colour, label: int) -> None:
    """A whole sheet grid: coordinates, entrance and exit, path, tokens, treasures, hero."""
    grid(d, (g.x, g.y), 8, 10, g.cell, size=label)
    _gates(d, g, label)
    if p.get("path"):
        draw_path(d, g, p["path"], colour)
    elif p.get("path_drawn"):
        text(d, (g.x + 4 * g.cell, g.y + 5 * g.cell), "path drawn (hidden)", label, "muted", "mm")
    _tokens(d, g, p["sheet"])
    _treasures(d, g, p["sheet"].get("treasures") or [])
    if p.get("path"):
        _hero(d, g, p)


# ---- the panel of one sheet ---------------------------------------------------------------------


def _tracks(
    d: ImageDraw.ImageDraw, x: int, y: int, width: int, p: dict[str, Any], view: dict[str, Any], size: int
) -> int:
    """Each improvement track: its level, then its boxes in their groups, as large as the width allows."""
    label_w = max(int(text_width(f"{TRACK_LABEL[t]} +{p['levels'][t]}", size)) for t in TRACK_LABEL) + 8
    most = max(sum(b for b, _ in view["tracks"][t]["groups"]) for t in TRACK_LABEL)
    groups = max(len(view["tracks"][t]["groups"]) for t in TRACK_LABEL)
    unit = (width - label_w) / (most + groups / 2 + 1)  # a box and its gap; half a box between groups
    bs = max(8, min(size - 6, int(unit) - 1))
    gap = max(4, bs // 2)
    for t, label in TRACK_LABEL.items():
        lv = p["levels"][t]
        plus = "+" if t in ("goblin", "orc", "dragon") else ""
        text(d, (x, y), f"{label} {plus}{lv}", size, "text")
        bx, done, i = x + label_w, p["sheet"]["imp"][t], 0
        for boxes, _lvl in view["tracks"][t]["groups"]:
            for _ in range(boxes):
                top = y + (size - bs) // 2 + 2
                d.rectangle(
                    (bx, top, bx + bs, top + bs),
                    fill=PALETTE["accent"] if i < done else None,
                    outline=PALETTE["muted"],
                )
                bx += bs + 1
                i += 1
            bx += gap
        y += size + 6
    return y


def _panel(
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    p: dict[str, Any],
    view: dict[str, Any],
    names: list[str],
    size: int,
) -> int:
    hero = p["hero"]
    state_word = {"in": "", "dead": " - DEAD", "escaped": " - escaped"}[hero["state"]]
    text(
        d,
        (x, y),
        f"Hearts {hero['hearts']}/{view['hearts']}{state_word}",
        size,
        "bad" if hero["state"] == "dead" else "text",
    )
    y += size + 8
    y = _tracks(d, x, y, width, p, view, size)
    text(d, (x, y), f"Treasures hidden: {p['treasure_count']}", size, "text")
    y += size + 6
    if view["phase"] == "build":
        line = f"Cards taken: {len(p['taken'])}" + (
            f", installing #{p['pending']['card']}" if p["pending"] else ""
        )
        text(d, (x, y), _fit(line, width, size), size, "accent" if p["pending"] else "muted")
        y += size + 6
    elif view["phase"] in ("defend", "over"):
        text(d, (x, y), f"Hand {p['hand_count']}, deck {p['deck_count']}", size, "muted")
        y += size + 6
    for h in p["on"]:
        c = view["cards"].get(str(h["card"]))
        what = f"{c['name']} ({c['short']})" if c else f"#{h['card']}"
        for line in wrap(f"On it: {what}, by {names[h['by']]}", width, size):
            text(d, (x, y), line, size, "sky")
            y += size + 4
    res = view.get("result")
    if res:
        seat = p["seat"]
        text(d, (x, y), f"Score {res['scores'][seat]}", size + 6, "accent")
        y += size + 12
        parts = ", ".join(f"{k} {v}" for k, v in res["breakdown"][seat].items())
        for line in wrap(parts, width, size - 2):
            text(d, (x, y), line, size - 2, "muted")
            y += size + 2
    return y


def _name_bar(
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    p: dict[str, Any],
    view: dict[str, Any],
    names: list[str],
    size: int,
) -> int:
    """The player's name; filled with the seat's colour and an arrow when the player is to act."""
    seat = p["seat"]
    colour = seat_colour(seat)
    acting = seat in view["to_act"]
    h = size + 14
    d.rectangle((x, y, x + width, y + h), fill=colour if acting else PALETTE["panel2"])
    tx = x + 8
    if acting:
        d.polygon([(tx, y + 6), (tx, y + h - 6), (tx + h / 2 - 2, y + h / 2)], fill=PALETTE["black"])
        tx += int(h / 2) + 6
    extra = ""
    if view["phase"] == "build" and view["start"] == seat:
        extra = " (starts)"
    res = view.get("result")
    if res and seat in res["winners"]:
        extra = " - WINNER"
    name = _fit(names[seat] + extra, x + width - tx - 8, size)
    text(d, (tx, y + h / 2), name, size, "black" if acting else colour, "lm")
    return y + h + 6


# ---- the public board ------------------------------------------------------------------------------

# Per number of players: cell size, coordinate label size, panel text size, and whether the
# panel stands beside the grid (2 players: keeps the board wide, not square) or below it.
LAYOUT = {2: (36, 18, 20, True), 3: (40, 18, 22, False), 4: (32, 16, 22, False)}
TALL = 2400  # boards are drawn on a tall canvas and cropped to what was drawn


def _info(view: dict[str, Any], names: list[str]) -> list[tuple[str, str, int]]:
    """The lines above the sheets: status, the display (each card whole, with its effect),
    the fight, the last events. Long lines are wrapped, never cut."""
    width = W - 32
    out: list[tuple[str, str, int]] = []
    res = view.get("result")
    if res:
        ranked = sorted(range(view["seats"]), key=lambda s: -res["scores"][s])
        winners = " and ".join(names[s] for s in res["winners"])
        out.append((f"Winner: {winners}", "accent", 28))
        out.append(
            ("Final scores: " + ", ".join(f"{names[s]} {res['scores'][s]}" for s in ranked), "text", 24)
        )
    else:
        out += [(line, "text", 24) for line in wrap(_named(view["status"], names), width, 24)]
    if view["phase"] == "build" and view["display"]:
        out.append(("On display:", "accent", 22))
        for c in view["display"]:
            out += [
                (line, "text", 20) for line in wrap(_named(view["cards"][str(c)]["text"], names), width, 20)
            ]
    enc = view.get("encounter")
    if enc and enc["kind"] != "trap":
        dice = " and ".join(map(str, enc["dice"]))
        line = f"Fight: {enc['kind']} on {enc['cell']}, dice {dice}, strength {view['strength']} (needs {view['target']})"
        out.append((line, "accent", 22))
    for line in [n for n in view["news"] if n != view["status"]][-2:]:
        out += [(w, "muted", 18) for w in wrap(_named(line, names), width, 18)]
    return out


def _column(
    d: ImageDraw.ImageDraw,
    x: int,
    y: int,
    width: int,
    p: dict[str, Any],
    view: dict[str, Any],
    names: list[str],
) -> int:
    """One player's sheet: name bar, grid, then the panel below it. Returns the y below it."""
    cell, label, size, beside = LAYOUT[view["seats"]]
    y = _name_bar(d, x, y, width, p, view, names, 26)
    g = Grid(x + label + 16, y + label + 12, cell)
    draw_grid(d, g, p, seat_colour(p["seat"]), label)
    below = g.y + 10 * cell + label + 12
    if beside:
        px = g.x + 8 * cell + 14
        return max(below, _panel(d, px, g.y, x + width - px, p, view, names, size))
    return _panel(d, x + 8, below, width - 16, p, view, names, size)


def board(view: dict[str, Any], names: list[str]) -> bytes:
    n = view["seats"]
    img, d = canvas(W, TALL)
    title = f"Dungeon Drawers - {PHASE[view['phase']]}"
    if view["phase"] == "build":
        title += f", round {view['round']} of {view['rounds']}"
    y = header(d, W, title, "")
    for line, colour, size in _info(view, names):
        text(d, (16, y), line, size, colour)
        y += size + 6
    y += 10
    col_w = W // n
    bottom = max(
        _column(d, s * col_w + 4, y, col_w - 8, p, view, names) for s, p in enumerate(view["players"])
    )
    # a palette PNG: a third of the encode time and half the bytes of the RGB one (flat board art)
    return to_png(to_palette(img.crop((0, 0, W, bottom + 12))))


# ---- my area: the seat's own sheet and hand, twice the scale ----------------------------------------

AREA_W = 600


def _hand_lines(view: dict[str, Any], me: dict[str, Any], names: list[str]) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    width = AREA_W - 32
    treasures = ", ".join(me["sheet"]["treasures"]) or "none yet"
    out += [(w, "yellow", 24) for w in wrap(f"Your treasures ($): {treasures}", width, 24)]
    pend = me.get("pending")
    if pend:
        card = view["cards"][str(pend["card"])]
        els = card["elements"]
        nxt = els[pend["next"]] if pend["next"] < len(els) else "nothing: turn the card over"
        out += [
            (w, "accent", 22)
            for w in wrap(f"Installing #{pend['card']} {card['name']}, next: {nxt}", width, 22)
        ]
    hand = me.get("hand") or []
    if hand:
        out.append(("Your hand:", "accent", 24))
    elif view["phase"] in ("build", "path") and me["taken"]:
        # the action deck may be looked at any time in Phase A (rulebook p.5): what each card will do
        hand = me["taken"]
        out.append(("Your action cards:", "accent", 24))
    for c in hand:
        info = view["cards"][str(c)]
        line = f"#{c} {info['name']} ({info['type']} action): {info['effect']}"
        out += [(w, "text", 22) for w in wrap(_named(line, names), width, 22)]
    return out


def area(view: dict[str, Any], names: list[str]) -> bytes | None:
    seat = view.get("viewer")
    if seat is None:
        return None
    me = view["players"][seat]
    cell, label, size = 60, 22, 24
    lines = _hand_lines(view, me, names)
    panel_h = (size + 8) + 6 * (size + 6) + 3 * (size + 6) + 2 * 2 * (size + 4) + 4 * (size + 4)
    height = (
        (size + 18) + label + 12 + 10 * cell + label + 16 + panel_h + sum(s + 6 for _, _, s in lines) + 16
    )
    img, d = canvas(AREA_W, height)
    y = _name_bar(d, 0, 0, AREA_W, me, view, names, size + 4)
    g = Grid(label + 24, y + label + 12, cell)
    draw_grid(d, g, me, seat_colour(seat), label)
    y = g.y + 10 * cell + label + 16
    y = _panel(d, 16, y, AREA_W - 32, me, view, names, size)
    for line, colour, s in lines:
        text(d, (16, y), line, s, colour)
        y += s + 6
    return to_png(to_palette(img.crop((0, 0, AREA_W, y + 12))))


# ---- the preview of a hero path being drawn ------------------------------------------------------


def _cell_label(d: ImageDraw.ImageDraw, g: Grid, c: str, label: str) -> None:
    """A candidate space: outlined, its name (as the option names it) on a dark plate."""
    x0, y0 = g.corner(c)
    cs = g.cell
    d.rectangle((x0 + 2, y0 + 2, x0 + cs - 2, y0 + cs - 2), outline=PALETTE["accent"], width=3)
    size = max(12, cs // 3)
    w = text_width(label, size)
    d.rectangle((x0 + 3, y0 + cs - size - 6, x0 + 7 + w, y0 + cs - 3), fill=PALETTE["black"])
    text(d, (x0 + 5, y0 + cs - 4), label, size, "accent", "ld")


def _title(d: ImageDraw.ImageDraw, width: int, head: str) -> None:
    for i, line in enumerate(wrap(head, width - 16, 20)[:2]):
        text(d, (8, 6 + i * 24), line, 20, "text")


def _path_preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """The dungeon the seat draws in, the path so far (arrows, passes told apart), the space the
    hero's path now stands on ringed, and where each run on offer ends, named as its option."""
    owner = view["players"][pv["owner"]]
    cells, cell, label = pv["cells"], 44, 18
    width = label + 24 + 8 * cell + 60
    img, d = canvas(width, 56 + label + 12 + 10 * cell + label + 24)
    _title(d, width, f"Path in {names[pv['owner']]}'s dungeon: {len(cells)} spaces, on {cells[-1]}")
    g = Grid(label + 24, 56 + label + 12, cell)
    grid(d, (g.x, g.y), 8, 10, cell, size=label)
    _gates(d, g, label)
    colour = seat_colour(pv["owner"])  # as the board draws this dungeon's path
    draw_path(d, g, cells, colour)
    for run in pv.get("runs") or []:  # where each run would go, thin
        for a, b in zip([cells[-1], *run], run, strict=False):
            d.line((g.centre(a), g.centre(b)), fill=PALETTE["accent"], width=1)
    _tokens(d, g, owner["sheet"])
    x0, y0 = g.corner(cells[-1])
    d.ellipse((x0 + 3, y0 + 3, x0 + cell - 3, y0 + cell - 3), outline=PALETTE["white"], width=3)
    labels = pv.get("labels") or {c: "" for c in pv.get("next") or []}
    for c, name in labels.items():
        if name:
            _cell_label(d, g, c, name)
    return to_png(to_palette(img))


def _cells_preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """The seat's own dungeon with each space on offer named as its option, and the quarters
    offered as "Other spaces" framed and named, their spaces dotted."""
    me = view["players"][pv["owner"]]
    cell, label = 44, 18
    width = label + 24 + 8 * cell + 24
    img, d = canvas(width, 56 + label + 12 + 10 * cell + label + 16)
    _title(d, width, f"{names[pv['owner']]}'s dungeon: where does the {pv['what']} go?")
    g = Grid(label + 24, 56 + label + 12, cell)
    grid(d, (g.x, g.y), 8, 10, cell, size=label)
    _gates(d, g, label)
    if me.get("path"):
        draw_path(d, g, me["path"], seat_colour(pv["owner"]))
    _tokens(d, g, me["sheet"])
    _treasures(d, g, me["sheet"].get("treasures") or [])
    for q in pv.get("quarters") or []:
        for c in q["cells"]:
            cx, cy = g.centre(c)
            d.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=PALETTE["sky"])
        xs = [g.corner(c)[0] for c in q["cells"]]
        ys = [g.corner(c)[1] for c in q["cells"]]
        box = (min(xs) + 1, min(ys) + 1, max(xs) + cell - 1, max(ys) + cell - 1)
        d.rectangle(box, outline=PALETTE["sky"], width=2)
    for c, name in pv["labels"].items():
        _cell_label(d, g, c, name)
    for q in pv.get("quarters") or []:  # the quarter's tag in its corner, as its option names it
        x = min(g.corner(c)[0] for c in q["cells"])
        y = min(g.corner(c)[1] for c in q["cells"])
        tag = q["label"]
        d.rectangle((x + 3, y + 3, x + 7 + text_width(tag, 14), y + 20), fill=PALETTE["black"])
        text(d, (x + 5, y + 4), tag, 14, "sky")
    return to_png(to_palette(img))


def _shapes_preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """Each way the wall formation can lie from the chosen space, drawn on a small copy of the
    seat's dungeon and named as its option."""
    me = view["players"][pv["owner"]]
    shapes = pv["shapes"]
    cell, per_row = 18, 4
    tile_w, tile_h = 8 * cell + 16, 10 * cell + 34
    rows = -(-len(shapes) // per_row)
    width = max(per_row, min(len(shapes), per_row)) * tile_w + 16
    img, d = canvas(width, 56 + rows * tile_h + 8)
    _title(d, width, f"{names[pv['owner']]}'s dungeon: which way does the {pv['what']} lie?")
    for i, sh in enumerate(shapes):
        x = 8 + (i % per_row) * tile_w
        y = 56 + (i // per_row) * tile_h
        text(d, (x, y), sh["label"], 18, "accent")
        g = Grid(x, y + 24, cell)
        grid(d, (g.x, g.y), 8, 10, cell, col_labels=[], row_labels=[])
        _tokens(d, g, me["sheet"])
        for c in sh["cells"]:
            x0, y0 = g.corner(c)
            d.rectangle((x0, y0, x0 + cell, y0 + cell), fill=PALETTE["accent"])
    return to_png(to_palette(img))


def preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """A half-made move of the chooser: a hero path so far, the spaces on offer for an element,
    or the ways a wall formation can lie."""
    kind = pv.get("kind", "path")
    if kind == "cells":
        return _cells_preview(view, pv, names)
    if kind == "shapes":
        return _shapes_preview(view, pv, names)
    return _path_preview(view, pv, names)


# ---- what tables calls today (until it reads RENDERER) ---------------------------------------------


def render(view: dict[str, Any]) -> bytes:
    return board(view, default_names(view["seats"]))


def render_private(view: dict[str, Any]) -> bytes | None:
    return area(view, default_names(view["seats"]))


RENDERER = Renderer(board=board, area=area, preview=preview)
