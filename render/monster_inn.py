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
``support <n> gold|gem`` names. No text is under 30 px (issue 40's floor, readable at a
third of the size on a phone); the title, whose turn, scores and the numbers a player
bids by are 36 px or more. Seats have their own colours, none a monster kind's colour,
and a yellow frame marks the cards the last turn placed or supported.
"""

from __future__ import annotations

from typing import Any

from PIL import ImageDraw

from engine.core import name_seats
from render import Renderer, default_names
from render.base import PALETTE, box, canvas, text, text_width, to_palette, to_png

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
# Seat colours of this game only: the shared ones are orange, green, pink and red, the
# colours of Kobolds, Goblins, Undead and Orcs (issue 28: "Bot 1 and Kobolds both orange").
SEAT_COLOURS = [(255, 255, 255), (40, 230, 230), (190, 230, 70), (210, 170, 120), (165, 140, 255)]
SMALL, BIG = 30, 40  # the floor (issue 40), and the size of the title, turn, scores and bid numbers
BACK = (70, 60, 90)
FACE = (225, 215, 190)  # a humanoid turned face up at the scoring
GOLD = (240, 200, 40)
GEM = (86, 180, 233)
IW, IH = 150, 196  # inn cards
DW, DH, DGAP = 80, 96, 6  # dungeon cards
COL = DW + 6  # dungeon column pitch


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


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


def _purse_width(gold: int, gem: int, size: int) -> float:
    r = size * 0.45
    words = (f"{gold} gold", f"{gem} gem" + ("" if gem == 1 else "s"))
    return sum(2 * r + 8 + text_width(w, size) + 18 for w in words) - 18


def _purse(d: ImageDraw.ImageDraw, x: float, y: float, gold: int, gem: int, size: int = BIG) -> float:
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
        text(d, (x + w / 2, y + 12), c["kind"], SMALL, ink, "ma")
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
        text(d, (x + w / 2, y + 12), "Humanoid", SMALL, ink, "ma")
        text(d, (x + w / 2, y + 54), c["range"], 44, ink, "ma")
        text(d, (x + w / 2, y + 106), "face down", SMALL, "muted", "ma")
        _skulls(d, x + w / 2, y + h - 46, c["skulls"], 13, ink)
        return
    label = str(c["value"]) if revealed else c["range"]
    text(d, (x + w / 2, y + 10 * s), label, max(SMALL, round((32 if revealed else 26) * s)), ink, "ma")
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


LAST_LINES = 3  # at most this many lines of "Last turn: ..." (the history has the rest)


def _header_lines(view: View, names: list[str]) -> tuple[list[str], list[str]]:
    """Whose turn (40 px) and what the last turn did (30 px), wrapped to the board."""
    status = _wrap(name_seats(view["status"], names), BIG, WIDTH - 2 * PAD)
    last = view.get("last")
    said: list[str] = []
    if last and last["lines"]:
        said = _wrap("Last turn: " + name_seats(" ".join(last["lines"]), names), SMALL, WIDTH - 2 * PAD)
        if len(said) > LAST_LINES:
            said = [*said[: LAST_LINES - 1], said[LAST_LINES - 1] + " ..."]
    return status, said


def _header_height(view: View, names: list[str]) -> int:
    status, said = _header_lines(view, names)
    return 60 + 46 * len(status) + 34 * len(said) + 10 + 12


def _header(d: ImageDraw.ImageDraw, view: View, names: list[str]) -> int:
    if view["over"]:
        title = f"Monster Inn - final scores after {view['round']} rounds"
    else:
        deck = f"{view['deck']} card{'s' if view['deck'] != 1 else ''} left in the deck"
        title = f"Monster Inn - round {view['round']} of {view['rounds']} - {deck}"
    status, said = _header_lines(view, names)
    h = _header_height(view, names)
    d.rectangle((0, 0, WIDTH, h - 12), fill=PALETTE["panel"])
    text(d, (PAD, 10), title, BIG, "accent", role="title")
    y = 58
    for line in status:
        text(d, (PAD, y), line, BIG, role="turn")
        y += 46
    for line in said:
        text(d, (PAD, y), line, SMALL, "accent")
        y += 34
    return h


INN_H = 86 + IH + 46  # the title line, the deck's line, the cards, 'next to go'


def _draw_inn(d: ImageDraw.ImageDraw, view: View, names: list[str], y: int) -> None:
    text(d, (PAD, y), "The Inn", BIG, "accent")
    text(d, (PAD + 150, y + 6), "whoever leaves takes the leftmost creature", SMALL, "muted")
    top = view.get("deck_top")
    if top is not None:  # the back of the deck's top card, seen by everyone at the table
        what = "a monster" if top["type"] == "monster" else f"humanoid {top['range']}, {top['skulls']} skulls"
        # A line of its own (issue 40): beside the inn's words it ran into them at 30 px.
        text(d, (PAD, y + 46), f"Top of the deck: {what}", SMALL, "accent")
    cy = y + 86
    x: float = PAD
    for i, c in enumerate(view["inn"]):
        (_monster if c["type"] == "monster" else _humanoid)(d, x, cy, c, 1, True)
        if i == 0:
            d.rectangle((x, cy + IH + 4, x + IW, cy + IH + 10), fill=PALETTE["accent"])
            text(d, (x + IW / 2, cy + IH + 14), "next to go", SMALL, "accent", "ma")
        x += IW + 12
    px = WIDTH - PAD - 340  # the supply's 30-px words fit inside (issue 40)
    box(d, (px, cy, WIDTH - PAD, cy + IH), fill="panel")
    text(d, (px + 16, cy + 10), "Pool", 30, "accent")
    pool = view["pool"]
    if pool["n"]:
        word = "gold" if pool["type"] == "gold" else ("gem" if pool["n"] == 1 else "gems")
        _treasure_icon(d, pool["type"], px + 16, cy + 54, 17)
        text(d, (px + 58, cy + 50), f"{pool['n']} {word}", BIG)
    else:
        text(d, (px + 16, cy + 50), "empty", BIG, "muted")
    text(d, (px + 16, cy + 104), "Supply", SMALL, "muted")
    _purse(d, px + 16, cy + 142, view["supply"]["gold"], view["supply"]["gem"], SMALL)


def _place(view: View, seat: int) -> int:
    for i, group in enumerate(view["ranking"], 1):
        if seat in group:
            return i
    return 0


PLACE_H = 50


def _final_banner(d: ImageDraw.ImageDraw, view: View, names: list[str], y: int) -> int:
    """The winner, big, and the places with fame, where it came from, and treasure (the tie-break)."""
    winners = view["ranking"][0]
    fame = view["scoring"][winners[0]]["fame"]
    who = " and ".join(names[s] for s in winners)
    word = "Winners" if len(winners) > 1 else "Winner"
    box(d, (PAD, y, WIDTH - PAD, y + 64), fill=(70, 60, 20), outline="accent", width=3)
    text(d, (WIDTH / 2, y + 32), f"{word}: {who} with {fame} fame", 40, "accent", "mm", role="score")
    y += 76
    for group in view["ranking"]:
        for s in group:
            p = view["players"][s]
            sc = view["scoring"][s]
            line = f"{_place(view, s)}. {names[s]}: {sc['fame']} fame"
            text(d, (PAD + 8, y), line, BIG, seat_colour(s))
            b = sc["breakdown"]
            why = f"monsters {b['monsters']}, beaten {b['beaten']}, treasure {b['treasure']}"
            text(d, (PAD + 520, y + 6), f"{why}; {p['gold'] + p['gem']} treasures", SMALL, "muted")
            y += PLACE_H
    return y + 8


def _final_height(view: View) -> int:
    return 76 + PLACE_H * view["seats"] + 8


def _player_height(view: View) -> int:
    return 58 + 2 * DH + DGAP + 36 + (34 if view["over"] else 0) + 10


def _marks(view: View, seat: int) -> set[tuple[str, int]]:
    """The cards of ``seat``'s dungeon the last turn placed or supported."""
    last = view.get("last") or {}
    return {(kind, i) for s, kind, i in last.get("cards", []) if s == seat}


def _player_top(d: ImageDraw.ImageDraw, view: View, p: dict[str, Any], name: str, y: int) -> None:
    s = p["seat"]
    acting = s in view["to_act"]
    x: float = PAD + 24
    text(d, (x, y + 8), name, BIG, seat_colour(s))
    x += text_width(name, BIG) + 16
    if acting or (view["over"] and s in view["ranking"][0]):
        word = "TO ACT" if acting else "WINNER"
        w = text_width(word, 30) + (44 if acting else 20)
        box(d, (x, y + 8, x + w, y + 48), fill="accent", outline=None, radius=6)
        if acting:
            d.polygon([(x + 10, y + 16), (x + 26, y + 28), (x + 10, y + 40)], fill=PALETTE["black"])
        text(d, (x + (34 if acting else 10), y + 13), word, 30, "black")
        x += w + 16
    elif not view["over"]:
        note = "bidding" if p["in_round"] else "left this round"
        text(d, (x, y + 16), note, SMALL, "muted")
        x += text_width(note, SMALL) + 16
    if view["over"]:
        text(
            d,
            (WIDTH - PAD - 16, y + 8),
            f"{view['scoring'][s]['fame']} fame",
            BIG,
            "accent",
            "ra",
            role="score",
        )
    elif p["gold"] is None:
        text(d, (WIDTH - PAD - 16, y + 16), "treasure hidden", SMALL, "muted", "ra")
    else:
        right = WIDTH - PAD - 16 - _purse_width(p["gold"], p["gem"], BIG)
        _purse(d, max(x, right), y + 8, p["gold"], p["gem"])


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
    _dungeon(d, p, PAD + 28, y + 60, 1.0, cols, marks=_marks(view, p["seat"]))


def _frame(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    """The yellow frame round a card the last turn changed (outside the card, so it hides nothing)."""
    d.rounded_rectangle((x - 5, y - 5, x + w + 5, y + h + 5), radius=10, outline=PALETTE["accent"], width=5)


def _dungeon(
    d: ImageDraw.ImageDraw,
    p: dict[str, Any],
    x0: float,
    top: float,
    s: float,
    cols: list[dict[str, Any]] | None,
    first: int = 0,
    marks: set[tuple[str, int]] | None = None,
) -> None:
    """Monsters on top, humanoids below, columns numbered from ``first + 1`` (as the
    support move names them); at the end each column's fame."""
    mons, hums = p["monsters"], p["humanoids"]
    marks = marks or set()
    n = max(len(mons), len(hums))
    w, h, pitch = DW * s, DH * s, COL * s
    if n == 0:
        text(d, (x0, top + h / 2), "no creatures yet", max(SMALL, round(26 * s)), "muted", "lm")
    for i in range(n):
        cx = x0 + i * pitch
        hy = top + h + DGAP * s
        if ("monsters", first + i) in marks:
            _frame(d, cx, top, w, h)
        if ("humanoids", first + i) in marks:
            _frame(d, cx, hy, w, h)
        if i < len(mons):
            _monster(d, cx, top, mons[i], s, False)
            if mons[i]["support"]:
                _treasure_icon(d, mons[i]["support"], cx + w - 22 * s, top - 6 * s, 12 * s)
        else:
            d.rounded_rectangle((cx, top, cx + w, top + h), radius=8, outline=PALETTE["line"], width=2)
        if i < len(hums):
            _humanoid(d, cx, hy, hums[i], s, False)
            if cols is not None and cols[i]["outcome"] in ("wins", "supported", "no monster"):
                colour = PALETTE["bad"] if cols[i]["outcome"] == "wins" else PALETTE["text"]
                d.line((cx + 6, hy + 6, cx + w - 6, hy + h - 6), fill=colour, width=round(5 * s))
                d.line((cx + w - 6, hy + 6, cx + 6, hy + h - 6), fill=colour, width=round(5 * s))
        text(d, (cx + w / 2, hy + h + 6 * s), str(first + i + 1), max(SMALL, round(24 * s)), "muted", "ma")
        if cols is not None:
            f = cols[i]["fame"]
            fill = "good" if f > 0 else ("bad" if f < 0 else "muted")
            text(d, (cx + w / 2, hy + h + 36 * s), f"{f:+d}" if f else "0", round(30 * s), fill, "ma")


# Each mark drawn, and what it does (issue 28: a legend entry says what the mark means).
LEGEND = [
    "Top: monsters, colour and letter = kind. Below: the humanoid each must beat, face down:",
    "its back shows its combat value range and skulls. A coin or gem on a monster: support,",
    "it beats its humanoid unseen. Column numbers name a monster in support 2 gold.",
]
FINAL_LEGEND = [
    "Under each column: its fame. Red cross: the humanoid was stronger, turned over and removed.",
    "White cross: removed unseen (the monster had support, or no monster above it). Light card:",
    "a humanoid turned face up, with its combat value. Treasure: 1 fame per 3.",
]
FRAME_WORDS = "a card the last turn placed in a dungeon or supported"


def _legend_lines(view: View) -> list[str]:
    # One paragraph wrapped to the width (issue 40: hand-made breaks fell mid-sentence at 30 px).
    return _wrap(" ".join(FINAL_LEGEND if view["over"] else LEGEND), SMALL, WIDTH - 2 * PAD)


def _framed(view: View) -> bool:
    return bool((view.get("last") or {}).get("cards"))


def _legend_height(view: View) -> int:
    return 42 + 40 * _framed(view) + 34 * len(_legend_lines(view)) + 10


def _legend(d: ImageDraw.ImageDraw, view: View, y: int) -> None:
    x: float = PAD
    for kind, colour in KIND_COLOURS.items():
        box(d, (x, y, x + 34, y + 32), fill=colour, outline=None, radius=4)
        text(d, (x + 17, y + 16), KIND_LETTERS[kind], SMALL, _ink(colour), "mm")
        text(d, (x + 42, y + 2), kind, SMALL)
        x += 50 + text_width(kind, SMALL) + 10
    if _framed(view):
        y += 40
        d.rounded_rectangle((PAD + 2, y, PAD + 32, y + 34), radius=6, outline=PALETTE["accent"], width=4)
        text(d, (PAD + 42, y + 4), FRAME_WORDS, SMALL, "accent")
    for i, line in enumerate(_legend_lines(view)):
        text(d, (PAD, y + 42 + 34 * i), line, SMALL, "muted")


def board(view: View, names: list[str] | None = None) -> bytes:
    names = _names(view, names)
    top = _header_height(view, names)
    middle = _final_height(view) if view["over"] else INN_H
    height = top + middle + (_player_height(view) + 10) * view["seats"] + _legend_height(view)
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
    text(d, (PAD, 12), f"{names[seat]}: my dungeon", BIG, _ink(seat_colour(seat)))
    _purse(d, PAD, 78, p["gold"], p["gem"], BIG)
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
        marks = _marks(view, seat)
        _dungeon(d, part, PAD + 8, y + 8, AREA_S, cols[lo:hi] if cols else None, first=lo, marks=marks)
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
