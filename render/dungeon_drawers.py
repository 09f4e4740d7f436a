"""Dungeon Drawers: every dungeon sheet on its A-H x 1-10 grid with the hero, the path,
improvement levels and hearts; the seat's own sheet and hand ("my area"); and small images
of a move being made (the chooser's previews).

Drawn for a phone (issue 28): a 1,200-px board is seen at about a third, so no text is
under 26 px and the title, whose turn, scores and the numbers a player decides by (hearts,
levels, a fight's strength) are 36 px or more. Four players' sheets stand in two columns
of two. Every mark has a legend entry; the last turn's changes are framed and told in words.
Monster and trap colours differ from every seat colour (a seat's colour draws its path).

Draws only what the view holds: the public view has no treasure coordinates and no
hands. Players are named by ``names``; the view's texts name seats "Player N", which
is replaced by the name here, as the tables layer does in messages.
"""

from __future__ import annotations

import re
from typing import Any

from PIL import ImageDraw

from render import Renderer, default_names
from render.base import PALETTE, canvas, grid, seat_colour, text, text_width, to_palette, to_png

W = 1200
# The type floor (issue 28; render/base.py names the same sizes on the shared branch).
TEXT_MIN, TEXT_BODY, TEXT_KEY, TEXT_TITLE = 30, 30, 40, 44  # issue 40
# Monster and trap colours: none is a seat colour (orange, sky, green, purple draw paths).
TAN = (200, 150, 100)
KIND: dict[str, tuple[str, Any]] = {
    "goblin": ("G", "yellow"),
    "orc": ("O", TAN),
    "dragon": ("D", "bad"),
    "trap": ("T", "white"),
}
TRACKS = ("goblin", "orc", "dragon", "trap", "treasure", "hand")
TRACK_LABEL = {
    "goblin": "Goblin",
    "orc": "Orc",
    "dragon": "Dragon",
    "trap": "Trap damage",
    "treasure": "Treasure",
    "hand": "Cards in hand",
}
PHASE = {
    "build": "Phase A: build",
    "path": "Phase B: hero paths",
    "defend": "Phase C: defend",
    "over": "Final",
}
SEAT_REF = re.compile(r"\bPlayer ([1-9])\b")
Colour = tuple[int, int, int]


def _colour(c: Any) -> Colour:
    return PALETTE[c] if isinstance(c, str) else tuple(c)  # type: ignore[return-value]


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


def token(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], kind: str, dead: bool = False
) -> None:
    """A monster (a disc) or a trap (a diamond) with its letter; crossed off: grey with a red X.
    Also the legend's and the levels' icons."""
    x0, y0, x1, y1 = box
    letter, fill = KIND[kind]
    colour = PALETTE["panel2"] if dead else _colour(fill)
    if kind == "trap":
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        d.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=colour, outline=PALETTE["black"])
    else:
        d.ellipse(box, fill=colour, outline=PALETTE["black"])
    if y1 - y0 >= 30:  # the small copies of a dungeon in a shapes preview go by colour and shape
        size = max(TEXT_MIN, int((y1 - y0) * 0.62))
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), letter, size, "muted" if dead else "black", "mm")
    if dead:  # crossed off: a thin X that leaves the letter readable
        d.line((x0, y0, x1, y1), fill=PALETTE["bad"], width=3)
        d.line((x0, y1, x1, y0), fill=PALETTE["bad"], width=3)


def _tokens(d: ImageDraw.ImageDraw, g: Grid, sheet: dict[str, Any]) -> None:
    """Walls, monsters and traps. Drawn after the path, so the path never covers a letter."""
    crossed = set(sheet["crossed"])
    cs = g.cell
    inset = max(2, cs // 12)
    for cell, kind in sheet["grid"].items():
        x0, y0 = g.corner(cell)
        if kind == "wall":
            d.rectangle((x0, y0, x0 + cs, y0 + cs), fill=PALETTE["grey"])
            continue
        token(d, (x0 + inset, y0 + inset, x0 + cs - inset, y0 + cs - inset), kind, cell in crossed)


def _treasures(d: ImageDraw.ImageDraw, g: Grid, cells: list[str]) -> None:
    """A hidden treasure: a gold corner in the space's top-right (clear of the letter)."""
    k = max(14, g.cell * 2 // 5)
    for cell in cells:
        x0, y0 = g.corner(cell)
        x1 = x0 + g.cell
        d.polygon(
            [(x1 - k, y0 + 1), (x1 - 1, y0 + 1), (x1 - 1, y0 + k)],
            fill=PALETTE["accent"],
            outline=PALETTE["black"],
        )


def _changed(d: ImageDraw.ImageDraw, g: Grid, cells: list[str]) -> None:
    """The spaces the last turn changed: a thick white frame (the legend's "changed")."""
    for cell in cells:
        x0, y0 = g.corner(cell)
        d.rectangle((x0 + 1, y0 + 1, x0 + g.cell - 1, y0 + g.cell - 1), outline=PALETTE["white"], width=4)


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


def hero_mark(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, dead: bool = False) -> None:
    """The hero figure: a white disc with a black ring and "H" (a red disc with "X" once dead)."""
    d.ellipse(
        (cx - r, cy - r, cx + r, cy + r),
        fill=PALETTE["bad" if dead else "white"],
        outline=PALETTE["black"],
        width=3,
    )
    text(d, (cx, cy), "X" if dead else "H", max(TEXT_MIN, int(r * 1.35)), "black", "mm")


def _hero_at(g: Grid, p: dict[str, Any]) -> tuple[float, float, float]:
    """Where the hero figure stands: the top-left corner of his space (never hiding a letter);
    before he enters, outside the grid's top-left corner (the entrance); once escaped, beside
    the exit below H10."""
    hero, path, cs = p["hero"], p["path"], g.cell
    r = max(TEXT_MIN * 0.6, cs * 0.3)
    if hero["state"] == "escaped":
        return g.x + 8 * cs + r + 4, g.y + 10 * cs + r + 2, r
    if hero["pos"] < 0:
        return g.x - r - 2, g.y - r - 2, r
    x, y = g.corner(path[hero["pos"]])
    return x + r * 0.45, y + r * 0.45, r  # over the corner: the letter in the middle stays readable


def _gates(d: ImageDraw.ImageDraw, g: Grid, label: int, waiting: bool) -> None:
    """IN in the corner above the row numbers (unless the hero waits there), OUT below the grid
    left of the exit stub."""
    if not waiting:
        text(d, (g.x - 4, g.y - 4), "IN", label, "good", "rd")
    text(d, (g.x + 7 * g.cell + g.cell // 3, g.y + 10 * g.cell + 2), "OUT", label, "good", "ra")


def draw_grid(
    d: ImageDraw.ImageDraw,
    g: Grid,
    p: dict[str, Any],
    colour: Colour,
    label: int,
    changed: list[str] | None = None,
) -> None:
    """A whole sheet grid: coordinates, entrance and exit, path, tokens, treasures, the last
    turn's changes framed, the hero."""
    grid(d, (g.x, g.y), 8, 10, g.cell, size=label)
    walking = bool(p.get("path"))
    _gates(d, g, label, walking and p["hero"]["pos"] < 0 and p["hero"]["state"] == "in")
    if walking:
        draw_path(d, g, p["path"], colour)
    elif p.get("path_drawn"):
        text(d, (g.x + 4 * g.cell, g.y + 5 * g.cell), "path drawn, hidden", label, "text", "mm")
    _tokens(d, g, p["sheet"])
    _treasures(d, g, p["sheet"].get("treasures") or [])
    _changed(d, g, changed or [])
    if walking:
        cx, cy, r = _hero_at(g, p)
        hero_mark(d, cx, cy, r, p["hero"]["state"] == "dead")


# ---- icons: the levels beside a grid and the legend ---------------------------------------------

ICON = 34


def _heart(d: ImageDraw.ImageDraw, x: float, y: float, s: float = ICON) -> None:
    """A heart: the hero's hearts left."""
    r = s / 4
    red = PALETTE["bad"]
    d.ellipse((x, y + 2, x + 2 * r, y + 2 + 2 * r), fill=red)
    d.ellipse((x + 2 * r, y + 2, x + 4 * r, y + 2 + 2 * r), fill=red)
    d.polygon([(x, y + 2 + r), (x + 4 * r, y + 2 + r), (x + 2 * r, y + s)], fill=red)


def _cards_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: float = ICON) -> None:
    """Two cards, one behind the other: the cards-in-hand level."""
    w, h = s * 0.55, s * 0.8
    d.rectangle(
        (x + s * 0.3, y, x + s * 0.3 + w, y + h), fill=PALETTE["panel2"], outline=PALETTE["sky"], width=2
    )
    d.rectangle(
        (x + s * 0.1, y + s * 0.18, x + s * 0.1 + w, y + s * 0.18 + h),
        fill=PALETTE["panel"],
        outline=PALETTE["sky"],
        width=2,
    )


def _treasure_icon(d: ImageDraw.ImageDraw, x: float, y: float, s: float = ICON) -> None:
    d.rectangle(
        (x + 2, y + 2, x + s - 2, y + s - 2), fill=PALETTE["black"], outline=PALETTE["accent"], width=2
    )
    text(d, (x + s / 2, y + s / 2), "$", TEXT_MIN, "accent", "mm")


def icon(d: ImageDraw.ImageDraw, x: float, y: float, what: str) -> None:
    """The mark ``what`` as drawn on the board, ICON px square, top-left at (x, y)."""
    s = ICON
    if what in KIND:
        token(d, (x, y, x + s, y + s), what)
    elif what == "crossed":
        token(d, (x, y, x + s, y + s), "orc", dead=True)
    elif what == "wall":
        d.rectangle((x, y, x + s, y + s), fill=PALETTE["grey"])
    elif what == "hero":
        hero_mark(d, x + s / 2, y + s / 2, s / 2)
    elif what == "heart":
        _heart(d, x, y)
    elif what in ("hand", "cards"):
        _cards_icon(d, x, y)
    elif what == "treasure":
        _treasure_icon(d, x, y)
    elif what == "hidden":
        d.rectangle((x, y, x + s, y + s), outline=PALETTE["line"])
        _treasures(d, Grid(int(x), int(y), s), ["A1"])
    elif what == "changed":
        d.rectangle((x + 1, y + 1, x + s - 1, y + s - 1), outline=PALETTE["white"], width=4)
    elif what == "path":
        d.line((x, y + s / 2, x + s, y + s / 2), fill=seat_colour(1), width=4)
        _arrow(d, (x + s / 2, y + s / 2), (1, 0), s * 0.22, seat_colour(1))


LEGEND = [
    ("goblin", "goblin: 1 point, deals 1 damage"),
    ("orc", "orc: 2 points, deals 2"),
    ("dragon", "dragon: 3 points, deals 3"),
    ("trap", "trap: deals the trap level once"),
    ("wall", "wall: the path never enters it"),
    ("crossed", "crossed off: gone"),
    ("hero", "the hero walking this dungeon"),
    ("heart", "his hearts left"),
    ("path", "his path (drawn by the next player)"),
    ("changed", "changed in the last turn"),
]
LEVELS_NOTE = (
    "Beside each dungeon, its levels: a monster fights with 2 dice + its level and wins on 20; "
    "the trap level is a trap's damage; $ is the points a guarded treasure scores; "
    "the cards are the hand its owner refills to."
)


def legend(d: ImageDraw.ImageDraw, x0: int, y: int, width: int, treasure: bool = False) -> int:
    """Every mark with what it does, icons flowing in lines. Returns the y below it."""
    entries = LEGEND + ([("hidden", "a treasure hidden here")] if treasure else [])
    text(d, (x0, y), "What the marks mean", TEXT_BODY, "accent")
    y += TEXT_BODY + 12
    x = x0
    for what, words in entries:
        w = ICON + 8 + text_width(words, TEXT_MIN) + 28
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + ICON + 12
        icon(d, x, y, what)
        text(d, (x + ICON + 8, y + ICON / 2), words, TEXT_MIN, "text", "lm")
        x += int(w)
    y += ICON + 14
    for line in wrap(LEVELS_NOTE, width, TEXT_MIN):
        text(d, (x0, y), line, TEXT_MIN, "muted")
        y += TEXT_MIN + 6
    return y


# ---- one player's block on the board --------------------------------------------------------------

CELL, LABEL = 44, TEXT_MIN
BLOCK_W = (W - 48) // 2  # two columns: two players side by side, four in two rows of two


def _levels(d: ImageDraw.ImageDraw, x: int, y: int, p: dict[str, Any], view: dict[str, Any]) -> int:
    """The hero's hearts and each improvement level at the key size, each behind its icon."""
    hero = p["hero"]
    _heart(d, x, y + 2)
    hearts = f"{hero['hearts']}/{view['hearts']}"
    text(
        d,
        (x + ICON + 8, y + ICON / 2 + 2),
        hearts,
        TEXT_KEY,
        "bad" if hero["state"] == "dead" else "text",
        "lm",
        role="key",
    )
    y += ICON + 14
    text(d, (x, y), "Levels", TEXT_MIN, "muted")
    y += TEXT_MIN + 8
    for t in TRACKS:
        icon(d, x, y, t)
        lv = p["levels"][t]
        value = f"+{lv}" if t in ("goblin", "orc", "dragon") else str(lv)
        text(d, (x + ICON + 8, y + ICON / 2), value, TEXT_KEY, "text", "lm", role="key")
        y += ICON + 8
    return y


def _hero_word(p: dict[str, Any]) -> str | None:
    hero = p["hero"]
    if hero["state"] == "dead":
        return "The hero died here."
    if hero["state"] == "escaped":
        return f"The hero escaped with {hero['hearts']} hearts."
    return None


def _block_lines(
    p: dict[str, Any], view: dict[str, Any], names: list[str]
) -> list[tuple[str, str, int, str | None]]:
    """The words under a grid: the hero's end, treasures and cards, the card being installed,
    hero actions lying on the dungeon, the score."""
    out: list[tuple[str, str, int, str | None]] = []
    word = _hero_word(p)
    if word:
        out.append((word, "bad" if p["hero"]["state"] == "dead" else "text", TEXT_BODY, None))
    hidden = f"Treasures hidden: {p['treasure_count']}."
    if view["phase"] == "build":
        out.append((f"{hidden} Cards taken: {len(p['taken'])}.", "text", TEXT_MIN, None))
        if p["pending"]:
            c = view["cards"][str(p["pending"]["card"])]
            out.append((f"Installing card #{p['pending']['card']} {c['name']}", "accent", TEXT_MIN, None))
    elif view["phase"] in ("defend", "over"):
        out.append(
            (f"{hidden} Cards: {p['hand_count']} in hand, {p['deck_count']} in deck.", "text", TEXT_MIN, None)
        )
    else:
        out.append((hidden, "text", TEXT_MIN, None))
    for h in p["on"]:
        c = view["cards"].get(str(h["card"]))
        what = f"{c['name']} ({c['short']})" if c else f"card #{h['card']}"
        out.append((f"Lying on it: {what}, by {names[h['by']]}", "sky", TEXT_MIN, None))
    res = view.get("result")
    if res:
        seat = p["seat"]
        out.append((f"Score {res['scores'][seat]}", "accent", TEXT_KEY, "score"))
        parts = ", ".join(f"{k} {v}" for k, v in res["breakdown"][seat].items())
        out.append((parts, "muted", TEXT_MIN, None))
    return out


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
        extra = " - winner"
    name = _fit(names[seat] + extra, x + width - tx - 8, size)
    text(d, (tx, y + h / 2), name, size, "black" if acting else colour, "lm")
    return y + h + 6


def _changed_cells(view: dict[str, Any], seat: int) -> list[str]:
    last = view.get("last") or {}
    cells = last.get("cells") or []
    return list(cells[seat]) if seat < len(cells) else []


def _block(
    d: ImageDraw.ImageDraw, x: int, y: int, p: dict[str, Any], view: dict[str, Any], names: list[str]
) -> int:
    """One player's sheet: name bar, grid with the levels beside it, the words below. Returns
    the y below it."""
    y = _name_bar(d, x, y, BLOCK_W, p, view, names, TEXT_KEY)
    g = Grid(x + LABEL + 10, y + LABEL + 8, CELL)
    draw_grid(d, g, p, seat_colour(p["seat"]), LABEL, _changed_cells(view, p["seat"]))
    _levels(d, g.x + 8 * CELL + 16, g.y, p, view)
    y = g.y + 10 * CELL + LABEL + 10
    for s, colour, size, role in _block_lines(p, view, names):
        for line in wrap(_named(s, names), BLOCK_W - 8, size):
            text(d, (x + 4, y), line, size, colour, role=role)
            y += size + 6
    return y


# ---- the public board ------------------------------------------------------------------------------

TALL = 3200  # boards are drawn on a tall canvas and cropped to what was drawn


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def _last_lines(view: dict[str, Any]) -> list[str]:
    """The last turn in words: its public events, without the round's display (shown whole)
    and the status lines (the status is at the top)."""
    last = view.get("last") or {}
    fight = " fights the "  # the fight line above says it with the dice and strength
    lines = [
        s
        for s in last.get("lines") or []
        if not s.startswith(("Round ", "Phase C, ")) and not (view.get("encounter") and fight in s)
    ]
    return lines[-5:]


def _info(view: dict[str, Any], names: list[str]) -> list[tuple[str, str, int, str | None]]:
    """The lines above the sheets: whose turn (or the result), the fight, the cards on
    display (each whole, with its effect), the last turn in words. Wrapped, never cut."""
    width = W - 32
    out: list[tuple[str, str, int, str | None]] = []
    res = view.get("result")
    if res:
        ranked = sorted(range(view["seats"]), key=lambda s: -res["scores"][s])
        winners = " and ".join(names[s] for s in res["winners"])
        out.append((f"Winner: {winners}", "accent", TEXT_KEY, "score"))
        # "Bot 3: 9 points", never "Bot 3 9": a computer's name ends in a number.
        scores = "Final scores: " + "; ".join(f"{names[s]}: {_points(res['scores'][s])}" for s in ranked)
        out += [(w, "text", TEXT_KEY, "score") for w in wrap(scores, width, TEXT_KEY)]
    else:
        out += [(w, "text", TEXT_KEY, "turn") for w in wrap(_named(view["status"], names), width, TEXT_KEY)]
    enc = view.get("encounter")
    if enc and enc["kind"] != "trap":
        dice = " and ".join(map(str, enc["dice"]))
        line = f"Fight: {enc['kind']} on {enc['cell']}, dice {dice}, strength {view['strength']} (needs {view['target']})"
        out += [(w, "accent", TEXT_KEY, "key") for w in wrap(line, width, TEXT_KEY)]
    if view["phase"] == "build" and view["display"]:
        out.append(("On display:", "accent", TEXT_BODY, None))
        for c in view["display"]:
            card = _named(view["cards"][str(c)]["text"], names)
            out += [(w, "text", TEXT_BODY, None) for w in wrap(card, width, TEXT_BODY)]
    last = _last_lines(view)
    if last:
        out.append(("Last turn:", "accent", TEXT_BODY, None))
        for s in last:
            out += [(w, "text", TEXT_MIN, None) for w in wrap(_named(s, names), width, TEXT_MIN)]
    return out


def _title(view: dict[str, Any]) -> str:
    title = f"Dungeon Drawers - {PHASE[view['phase']]}"
    if view["phase"] == "build":
        title += f", round {view['round']} of {view['rounds']}"
    return title


def board(view: dict[str, Any], names: list[str]) -> bytes:
    img, d = canvas(W, TALL)
    d.rectangle((0, 0, W, TEXT_TITLE + 28), fill=PALETTE["panel"])
    text(d, (16, 14), _title(view), TEXT_TITLE, "accent", role="title")
    y = TEXT_TITLE + 40
    for line, colour, size, role in _info(view, names):
        text(d, (16, y), line, size, colour, role=role)
        y += size + 8
    y += 12
    players = view["players"]
    for row in range(0, len(players), 2):
        bottoms = [
            _block(d, 16 + i * (BLOCK_W + 16), y, p, view, names)
            for i, p in enumerate(players[row : row + 2])
        ]
        y = max(bottoms) + 18
    y = legend(d, 16, y, W - 32, treasure=view["phase"] == "over")
    # a palette PNG: a third of the encode time and half the bytes of the RGB one (flat board art)
    return to_png(to_palette(img.crop((0, 0, W, y + 8))))


# ---- my area: the seat's own sheet and hand ------------------------------------------------------

AREA_W = 1200
AREA_CELL = 64


def _tracks(
    d: ImageDraw.ImageDraw, x: int, y: int, width: int, p: dict[str, Any], view: dict[str, Any]
) -> int:
    """Each improvement track: its name and level, then its boxes in their groups (checked
    boxes filled), as large as the width allows."""
    size = TEXT_BODY
    label_w = max(int(text_width(f"{TRACK_LABEL[t]} +12", size)) for t in TRACKS) + 12
    most = max(sum(b for b, _ in view["tracks"][t]["groups"]) for t in TRACKS)
    groups = max(len(view["tracks"][t]["groups"]) for t in TRACKS)
    unit = (width - label_w) / (most + groups / 2 + 1)  # a box and its gap; half a box between groups
    bs = max(12, min(size, int(unit) - 3))
    for t in TRACKS:
        lv = p["levels"][t]
        plus = "+" if t in ("goblin", "orc", "dragon") else ""
        text(d, (x, y), f"{TRACK_LABEL[t]} {plus}{lv}", size, "text")
        bx, done, i = x + label_w, p["sheet"]["imp"][t], 0
        for boxes, _lvl in view["tracks"][t]["groups"]:
            for _ in range(boxes):
                top = y + (size - bs) // 2 + 4
                d.rectangle(
                    (bx, top, bx + bs, top + bs),
                    fill=PALETTE["accent"] if i < done else None,
                    outline=PALETTE["text"],
                    width=2,
                )
                bx += bs + 3
                i += 1
            bx += max(6, bs // 2)
        y += size + 14
    return y


def _hand_lines(view: dict[str, Any], me: dict[str, Any], names: list[str]) -> list[tuple[str, str, int]]:
    """The seat's own words below its sheet: the card being installed, the hand (or in Phases
    A and B the action cards taken), each card with what it does."""
    out: list[tuple[str, str, int]] = []
    width = AREA_W - 32
    pend = me.get("pending")
    if pend:
        card = view["cards"][str(pend["card"])]
        els = card["elements"]
        nxt = els[pend["next"]] if pend["next"] < len(els) else "nothing: turn the card over"
        line = f"Installing #{pend['card']} {card['name']}, next: {nxt}"
        out += [(w, "accent", TEXT_BODY) for w in wrap(line, width, TEXT_BODY)]
    hand = me.get("hand") or []
    if hand:
        out.append(("Your hand:", "accent", TEXT_BODY))
    elif view["phase"] in ("build", "path") and me["taken"]:
        # the action deck may be looked at any time in Phase A (rulebook p.5): what each card will do
        hand = me["taken"]
        out.append(("Your action cards:", "accent", TEXT_BODY))
    for c in hand:
        info = view["cards"][str(c)]
        line = f"#{c} {info['name']} ({info['type']} action): {info['effect']}"
        out += [(w, "text", TEXT_MIN) for w in wrap(_named(line, names), width, TEXT_MIN)]
    return out


def _area_side(d: ImageDraw.ImageDraw, x: int, y: int, me: dict[str, Any], view: dict[str, Any]) -> int:
    """Beside the seat's grid: the hero in its dungeon, its improvement tracks, its treasures."""
    width = AREA_W - 16 - x
    hero = me["hero"]
    words = {
        "in": f"The hero in your dungeon: {hero['hearts']} of {view['hearts']} hearts",
        "dead": "The hero in your dungeon is dead",
        "escaped": f"The hero escaped from your dungeon with {hero['hearts']} hearts",
    }[hero["state"]]
    _heart(d, x, y + 2)
    for i, line in enumerate(wrap(words, width - ICON - 10, TEXT_KEY)):
        text(d, (x + ICON + 10, y + i * (TEXT_KEY + 6)), line, TEXT_KEY, "text", role="key")
    y += len(wrap(words, width - ICON - 10, TEXT_KEY)) * (TEXT_KEY + 6) + 14
    text(d, (x, y), "Your improvements (boxes checked)", TEXT_BODY, "accent")
    y = _tracks(d, x, y + TEXT_BODY + 12, width, me, view) + 8
    treasures = ", ".join(me["sheet"]["treasures"]) or "none yet"
    for line in wrap(f"Your treasures (gold corners): {treasures}", width, TEXT_BODY):
        text(d, (x, y), line, TEXT_BODY, "accent")
        y += TEXT_BODY + 6
    return y


def area(view: dict[str, Any], names: list[str]) -> bytes | None:
    seat = view.get("viewer")
    if seat is None:
        return None
    me = view["players"][seat]
    img, d = canvas(AREA_W, TALL)
    y = _name_bar(d, 0, 0, AREA_W, me, view, names, TEXT_KEY)
    g = Grid(LABEL + 24, y + LABEL + 14, AREA_CELL)
    draw_grid(d, g, me, seat_colour(seat), LABEL, _changed_cells(view, seat))
    side = _area_side(d, g.x + 8 * AREA_CELL + 40, g.y, me, view)
    y = max(g.y + 10 * AREA_CELL + LABEL + 16, side) + 8
    for line, colour, s in _hand_lines(view, me, names):
        text(d, (16, y), line, s, colour)
        y += s + 6
    y = legend(d, 16, y + 14, AREA_W - 32, treasure=True)
    return to_png(to_palette(img.crop((0, 0, AREA_W, y + 8))))


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


TOP = 76  # below a preview's title of two lines


def _preview_title(d: ImageDraw.ImageDraw, width: int, head: str) -> None:
    for i, line in enumerate(wrap(head, width - 16, TEXT_MIN)[:2]):
        text(d, (8, 6 + i * 32), line, TEXT_MIN, "text")


def _path_preview(view: dict[str, Any], pv: dict[str, Any], names: list[str]) -> bytes:
    """The dungeon the seat draws in, the path so far (arrows, passes told apart), the space the
    hero's path now stands on ringed, and where each run on offer ends, named as its option; the
    routes to the exit on offer drawn thin, each named on the space its option names (the run it
    begins with, or the monster or trap it goes through)."""
    owner = view["players"][pv["owner"]]
    cells, cell, label = pv["cells"], 44, TEXT_MIN
    width = label + 24 + 8 * cell + 60
    img, d = canvas(width, TOP + label + 12 + 10 * cell + label + 24)
    _preview_title(
        d,
        width,
        f"Path in {names[pv['owner']]}'s dungeon: {len(cells)} space{'' if len(cells) == 1 else 's'}, on {cells[-1]}",
    )
    g = Grid(label + 24, TOP + label + 12, cell)
    grid(d, (g.x, g.y), 8, 10, cell, size=label)
    _gates(d, g, label, False)
    colour = seat_colour(pv["owner"])  # as the board draws this dungeon's path
    draw_path(d, g, cells, colour)
    for way in pv.get("routes") or []:  # the whole routes to the exit on offer, thin and blue
        for a, b in zip([cells[-1], *way], way, strict=False):
            d.line((g.centre(a), g.centre(b)), fill=PALETTE["sky"], width=1)
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
    cell, label = 44, TEXT_MIN
    width = label + 24 + 8 * cell + 24
    img, d = canvas(width, TOP + label + 12 + 10 * cell + label + 16)
    _preview_title(d, width, f"{names[pv['owner']]}'s dungeon: where does the {pv['what']} go?")
    g = Grid(label + 24, TOP + label + 12, cell)
    grid(d, (g.x, g.y), 8, 10, cell, size=label)
    _gates(d, g, label, False)
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
    """Each way the wall formation can lie, drawn on a small copy of the seat's dungeon and
    named as its option ("W1".. or "Shape 1"..); when quarters are offered too, one more copy
    with the quarters framed and tagged "Q1".."Q4" as their options name them. Up to 8 copies
    four a row, more (at most 25) seven a row and smaller, so the picture stays phone-sized."""
    me = view["players"][pv["owner"]]
    shapes = pv["shapes"]
    quarters = pv.get("quarters") or []
    tiles = len(shapes) + (1 if quarters else 0)
    cell, per_row = (18, 4) if tiles <= 8 else (9, 7)
    tile_w, tile_h = 8 * cell + 16, 10 * cell + 40
    rows = -(-tiles // per_row)
    width = max(per_row, min(tiles, per_row)) * tile_w + 16
    img, d = canvas(width, TOP + rows * tile_h + 8)
    _preview_title(d, width, f"{names[pv['owner']]}'s dungeon: where does the {pv['what']} go?")
    for i in range(tiles):
        x = 8 + (i % per_row) * tile_w
        y = TOP + (i // per_row) * tile_h
        g = Grid(x, y + 32, cell)
        sh = shapes[i] if i < len(shapes) else None
        text(d, (x, y), sh["label"] if sh else "Q1-Q4", TEXT_MIN, "accent" if sh else "sky")
        grid(d, (g.x, g.y), 8, 10, cell, col_labels=[], row_labels=[])
        _tokens(d, g, me["sheet"])
        if sh is not None:
            for c in sh["cells"]:
                x0, y0 = g.corner(c)
                d.rectangle((x0, y0, x0 + cell, y0 + cell), fill=PALETTE["accent"])
            continue
        for q in quarters:  # the quarters' tile
            xs = [g.corner(c)[0] for c in q["cells"]]
            ys = [g.corner(c)[1] for c in q["cells"]]
            d.rectangle(
                (min(xs) + 1, min(ys) + 1, max(xs) + cell - 1, max(ys) + cell - 1),
                outline=PALETTE["sky"],
                width=2,
            )
            tag, x0, y0 = q["label"], min(xs) + 3, min(ys) + 3
            d.rectangle((x0, y0, x0 + 4 + text_width(tag, 14), y0 + 17), fill=PALETTE["black"])
            text(d, (x0 + 2, y0 + 1), tag, 14, "sky")
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
