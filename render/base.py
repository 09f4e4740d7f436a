"""Shared drawing primitives: fonts, palette, canvas, grid, PNG encoding.

Every game renderer is ``render/<module>.py`` exposing ``render(view) -> bytes``
(PNG). Optional: ``render_private(view_for_seat) -> bytes | None`` (shown only to
that seat) and ``render_steps(view_before, view_after) -> list[bytes]`` (images of
what happened in between, e.g. each step of a battle, posted with the board). Renderers only ever receive a *view* (``Game.view(state, seat)``), never
a state, so they cannot draw hidden information.

Boards are drawn for a phone: at most ~1200 px wide, high contrast, colour never
the only carrier of meaning (a letter or icon too). The type floor (issue 28): a
phone shows a 1,200-px board at about a third, so no text is drawn under
``TEXT_MIN`` px on an image 1,200 px wide, and the title, whose turn, the scores and
the numbers a player decides by are drawn at ``TEXT_KEY`` px or more. A renderer
says which labels those are with ``text(..., role=...)`` (``KEY_ROLES``);
``tests/test_render_labels.py`` holds every label of every board to the floor.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# ---- the type floor (issue 28) -------------------------------------------------------
# Sizes in px on an image FLOOR_WIDTH wide; a wider image needs proportionally more
# (it is shown scaled down), a narrower one is not let off (it may be shown as large).
FLOOR_WIDTH = 1200
TEXT_MIN = 30  # the smallest text anywhere: about 10 px on a phone, 11 points (issue 40)
TEXT_BODY = 30  # ordinary labels, legends, logs
TEXT_KEY = 40  # whose turn, scores, the numbers a player decides by
TEXT_TITLE = 44  # the board's title
# Roles of labels that must be at least TEXT_KEY: the board's title, whose turn
# (the status line), a score, and a number a player decides by (a price, a count
# of resources, a bid, a strength).
KEY_ROLES = frozenset({"title", "turn", "score", "key"})
ROLES = KEY_ROLES | {"body"}


def floor_size(role: str | None, width: int) -> int:
    """The least size in px a label of ``role`` may be drawn at on an image ``width``
    px wide."""
    least = TEXT_KEY if role in KEY_ROLES else TEXT_MIN
    return math.ceil(least * max(width, FLOOR_WIDTH) / FLOOR_WIDTH)


@dataclass(frozen=True)
class Label:
    """One call of :func:`text`, as :func:`recording` keeps it."""

    s: str
    size: int
    role: str | None
    mono: bool  # drawn on a one-bit (palette) canvas
    xy: tuple[float, float]
    anchor: str
    canvas: tuple[int, int]  # the width and height of the image drawn on


_RECORDER: list[list[Label]] = []


@contextmanager
def recording() -> Iterator[list[Label]]:
    """Every label :func:`text` draws inside the block, in order (for tests: the
    type floor, the words a player would say, nothing cut off)."""
    labels: list[Label] = []
    _RECORDER.append(labels)
    try:
        yield labels
    finally:
        _RECORDER.remove(labels)


# Colour-blind-safe-ish palette (Okabe-Ito based) plus neutrals.
PALETTE: dict[str, tuple[int, int, int]] = {
    "bg": (30, 30, 36),
    "panel": (46, 46, 56),
    "panel2": (60, 60, 74),
    "line": (110, 110, 130),
    "text": (240, 240, 240),
    "muted": (170, 170, 185),
    "accent": (255, 200, 60),
    "good": (90, 200, 120),
    "bad": (230, 90, 80),
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (213, 94, 0),
    "orange": (230, 159, 0),
    "yellow": (240, 228, 66),
    "green": (0, 158, 115),
    "blue": (0, 114, 178),
    "sky": (86, 180, 233),
    "purple": (204, 121, 167),
    "grey": (150, 150, 150),
    "brown": (140, 90, 50),
}

# One colour per seat, in seat order, with a letter so colour is not the only cue.
SEAT_COLOURS: list[tuple[int, int, int]] = [
    (230, 159, 0),
    (86, 180, 233),
    (0, 158, 115),
    (204, 121, 167),
    (240, 228, 66),
    (213, 94, 0),
]


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


@lru_cache(maxsize=64)
def font(size: int = 18) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font (no font file to ship)."""
    return ImageFont.load_default(size=size)


def canvas(width: int, height: int, colour: str = "bg") -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), PALETTE[colour])
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=4096)
def _glyph(ch: str, size: int) -> tuple[Image.Image | None, int, int, int]:
    """One character rasterised once, pen at (0, baseline): (mask or None if no ink,
    x and y of the mask from the pen, advance in whole pixels)."""
    f = font(size)
    advance = round(f.getlength(ch))
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(ch, anchor="ls"))
    pad = 8  # getbbox and the rasteriser disagree by a pixel or two
    im = Image.new("L", (x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), 0)
    d = ImageDraw.Draw(im)
    d.text((pad - x0, pad - y0), ch, font=f, fill=255, anchor="ls")
    ink = im.getbbox()
    if ink is None:
        return None, 0, 0, advance
    return im.crop(ink), x0 - pad + ink[0], y0 - pad + ink[1], advance


def _compose(placed: list[tuple[Image.Image, int, int]]) -> tuple[Image.Image, int, int]:
    """Masks at (x, y) offsets as one mask, later ones laid over earlier ones as
    Pillow's own rasteriser lays glyphs; returns it with its top-left offset."""
    if len(placed) == 1:
        return placed[0]
    left = min(x for _m, x, _y in placed)
    top = min(y for _m, _x, y in placed)
    right = max(x + m.width for m, x, _y in placed)
    bottom = max(y + m.height for m, _x, y in placed)
    im = Image.new("L", (right - left, bottom - top), 0)
    boxes: list[tuple[int, int, int, int]] = []
    for m, x, y in placed:
        box = (x - left, y - top, x - left + m.width, y - top + m.height)
        if any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes):
            im.paste(_over(im.crop(box), m), box)  # glyphs that touch, as in "ff": blend
        else:
            im.paste(m, box)  # on blank ground a copy is the same, and far cheaper
        boxes.append(box)
    return im, left, top


def _over(below: Image.Image, above: Image.Image) -> Image.Image:
    """Coverage of ``above`` laid over ``below`` (both 8-bit), rounded as Pillow's
    rasteriser rounds overlapping glyphs (its alpha compositing)."""
    black = Image.new("L", below.size, 0)
    out = Image.alpha_composite(
        Image.merge("RGBA", (black, black, black, below)), Image.merge("RGBA", (black, black, black, above))
    )
    return out.getchannel("A")


@lru_cache(maxsize=16384)
def _word(w: str, size: int) -> tuple[Image.Image | None, int, int, int]:
    """A word from cached glyphs, pen at (0, baseline): (mask or None, x and y of the
    mask from the pen, advance)."""
    if len(w) == 1:
        return _glyph(w, size)
    placed: list[tuple[Image.Image, int, int]] = []
    pen = 0
    for ch in w:
        mask, dx, dy, adv = _glyph(ch, size)
        if mask is not None:
            placed.append((mask, pen + dx, dy))
        pen += adv
    if not placed:
        return None, 0, 0, pen
    im, left, top = _compose(placed)
    return im, left, top, pen


def _whole(s: str, size: int, anchor: str, mode: str) -> tuple[Image.Image, int, int]:
    f = font(size)
    # One-bit text is hinted for monochrome and runs wider than anti-aliased text
    # (3 % on a long line): measure it in the mode it is drawn in, or the tail of
    # the line falls off the mask (issue 21: "'=' a ti..." on every Dungeon Lair board).
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(s, mode="L" if mode == "L" else "1", anchor=anchor))
    pad = 8  # getbbox and the rasteriser disagree by a pixel or two
    im = Image.new(mode, (x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), 0)
    d = ImageDraw.Draw(im)
    d.fontmode = "L" if mode == "L" else "1"
    d.text((pad - x0, pad - y0), s, font=f, fill=255 if mode == "L" else 1, anchor=anchor)
    ink = im.getbbox() or (0, 0, 1, 1)
    return im.crop(ink), x0 - pad + ink[0], y0 - pad + ink[1]


@lru_cache(maxsize=256)
def _rise(size: int, vertical: str) -> int:
    """How far below the anchor point the baseline lies, for Pillow's vertical anchors."""
    f = font(size)
    return int(f.getbbox("x", anchor="l" + vertical)[1] - f.getbbox("x", anchor="ls")[1])


@lru_cache(maxsize=8192)
def _stamp(s: str, size: int, anchor: str, mode: str) -> tuple[Image.Image, int, int]:
    """``s`` as one mask (8-bit, anti-aliased, for RGB boards; one-bit for palette
    boards, which cannot blend) and its offset from the anchor point.

    Glyph rendering was most of a board's render time, and a board of a game not
    seen before has many labels never drawn before (1 ms each for FreeType to lay
    out and rasterise). So a label is put together from cached words, and a new word
    from cached glyphs: Pillow's basic layout (no kerning, whole-pixel advances)
    places each glyph exactly where drawing the whole string would, and tests/test_render_base.py holds it to that, pixel for pixel.
    One-bit text is hinted for monochrome, with other advances: it is drawn whole."""
    if mode != "L":
        return _whole(s, size, anchor, mode)
    words = s.split(" ")
    space = _word(" ", size)[3]
    placed: list[tuple[Image.Image, int, int]] = []
    pen = 0
    for i, w in enumerate(words):
        if w:
            mask, dx, dy, adv = _word(w, size)
            if mask is not None:
                placed.append((mask, pen + dx, dy))
            pen += adv
        if i < len(words) - 1:
            pen += space
    width = pen
    horizontal, vertical = anchor[0], anchor[1]
    shift_x = {"l": 0, "m": -((width + 1) // 2), "r": -width}[horizontal]
    shift_y = _rise(size, vertical)
    if not placed:
        return Image.new("L", (1, 1), 0), shift_x, shift_y
    im, left, top = _compose(placed)
    return im, left + shift_x, top + shift_y


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int = 18,
    fill: str | tuple[int, int, int] = "text",
    anchor: str = "la",
    role: str | None = None,
) -> None:
    """Draw ``s`` at ``xy``. ``role`` marks a label the type floor holds to
    ``TEXT_KEY`` ("title", "turn", "score", "key": see ``KEY_ROLES``)."""
    if not s:
        return
    if _RECORDER:
        mono = draw.mode not in ("RGB", "RGBA")
        label = Label(s, size, role, mono, (xy[0], xy[1]), anchor, tuple(draw.im.size))  # type: ignore[arg-type]
        for labels in _RECORDER:
            labels.append(label)
    colour = PALETTE[fill] if isinstance(fill, str) else fill
    im, x0, y0 = _stamp(s, size, anchor, "L" if draw.mode in ("RGB", "RGBA") else "1")
    draw.bitmap((round(xy[0]) + x0, round(xy[1]) + y0), im, fill=colour)


def text_width(s: str, size: int = 18, mono: bool = False) -> float:
    """The advance of ``s`` (what Pillow's getlength gives), from the cached words.
    ``mono``: as drawn on a one-bit (palette) canvas, whose hinted text is wider."""
    if mono:
        return float(font(size).getlength(s, mode="1"))
    space = _word(" ", size)[3]
    return float(sum(_word(w, size)[3] for w in s.split(" ") if w) + space * s.count(" "))


def box(
    draw: ImageDraw.ImageDraw,
    rect: tuple[float, float, float, float],
    fill: str | tuple[int, int, int] = "panel",
    outline: str | tuple[int, int, int] | None = "line",
    width: int = 2,
    radius: int = 8,
) -> None:
    f = PALETTE[fill] if isinstance(fill, str) else fill
    o = PALETTE[outline] if isinstance(outline, str) else outline
    draw.rounded_rectangle(rect, radius=radius, fill=f, outline=o, width=width)


def column_label(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet style)."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def grid(
    draw: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    cols: int,
    rows: int,
    cell: int,
    col_labels: Iterable[str] | None = None,
    row_labels: Iterable[str] | None = None,
    size: int = 16,
) -> None:
    """Grid lines plus coordinate labels above and left of the grid (letters for
    columns, numbers from 1 for rows unless labels are given)."""
    x0, y0 = origin
    line = PALETTE["line"]
    for c in range(cols + 1):
        draw.line([(x0 + c * cell, y0), (x0 + c * cell, y0 + rows * cell)], fill=line, width=1)
    for r in range(rows + 1):
        draw.line([(x0, y0 + r * cell), (x0 + cols * cell, y0 + r * cell)], fill=line, width=1)
    cl = list(col_labels) if col_labels is not None else [column_label(c) for c in range(cols)]
    rl = list(row_labels) if row_labels is not None else [str(r + 1) for r in range(rows)]
    for c, lab in enumerate(cl):
        text(draw, (x0 + c * cell + cell / 2, y0 - 4), lab, size, "muted", "md")
    for r, lab in enumerate(rl):
        text(draw, (x0 - 6, y0 + r * cell + cell / 2), lab, size, "muted", "rm")


PNG_LEVEL = 3

# The house colours, as a swatch added to the sample the palette is built from, so a
# colour that covers only a few pixels (a seat marker, a warning) keeps its exact shade.
_SWATCH_ROW = 6


@lru_cache(maxsize=1)
def _swatch(width: int) -> Image.Image:
    cols = list(dict.fromkeys([*PALETTE.values(), *SEAT_COLOURS]))
    img = Image.new("RGB", (width, _SWATCH_ROW * len(cols)))
    draw = ImageDraw.Draw(img)
    for i, c in enumerate(cols):
        draw.rectangle([0, i * _SWATCH_ROW, width, (i + 1) * _SWATCH_ROW - 1], fill=c)
    return img


def to_palette(img: Image.Image, colours: int = 96) -> Image.Image:
    """Reduce an RGB board to ``colours`` palette entries, for a PNG half the bytes.

    The octree that picks the palette runs on a one-in-three sample of the pixels
    (nearest neighbour, so every sampled colour is a real one) plus the house colours;
    then every pixel is mapped to its nearest entry without dithering. Building the
    octree over the whole board cost 25-30 ms a board and was half the time of a move
    (docs/performance.md); this costs 7-10 ms for the same look."""
    step = 3
    small = img.resize((max(1, img.width // step), max(1, img.height // step)), Image.Resampling.NEAREST)
    swatch = _swatch(small.width)
    sample = Image.new("RGB", (small.width, small.height + swatch.height))
    sample.paste(small, (0, 0))
    sample.paste(swatch, (0, small.height))
    palette = sample.quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def to_png(img: Image.Image) -> bytes:
    """Encode as PNG. One place, so the benchmark compares against the same settings.

    Level 3 rather than zlib's default 6: on our boards it encodes 2-2.5x faster
    for PNGs only 10-20% larger (measured on a 1180x992 RGB board: 54 ms / 82 KB
    against 139 ms / 69 KB), and encoding dominated the time per move."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def header(draw: ImageDraw.ImageDraw, width: int, title: str, status: str) -> int:
    """Title bar with the status line (whose turn), at the type floor's key size.
    Returns the y below it."""
    bottom = 16 + TEXT_TITLE + (8 + TEXT_KEY if status else 0) + 12
    draw.rectangle([0, 0, width, bottom], fill=PALETTE["panel"])
    text(draw, (16, 12), title, TEXT_TITLE, "accent", role="title")
    text(draw, (16, 16 + TEXT_TITLE + 4), status, TEXT_KEY, "text", role="turn")
    return bottom + 12


# ---- layouts for a phone (issue 28) -----------------------------------------------------


def panel_columns(count: int) -> int:
    """How many columns ``count`` equal panels (one a seat) take: one for a single
    panel, two for two to four ("two columns of two" at four players: four panels
    side by side are a quarter of a phone's width each), three beyond."""
    return 1 if count <= 1 else 2 if count <= 4 else 3


def panel_boxes(
    count: int, width: int, height: int, top: int = 0, margin: int = 16, gap: int = 16
) -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1) of ``count`` panels each ``height`` px tall, laid
    out in :func:`panel_columns` columns across an image ``width`` px wide, in
    reading order, starting at ``top``."""
    cols = panel_columns(count)
    cell = (width - 2 * margin - (cols - 1) * gap) // cols
    out = []
    for i in range(count):
        r, c = divmod(i, cols)
        x0 = margin + c * (cell + gap)
        y0 = top + r * (height + gap)
        out.append((x0, y0, x0 + cell, y0 + height))
    return out


def fold_parts(length: int, breadth: int, aspect: float = 4 / 3, most: int = 4) -> int:
    """Into how many parts a picture ``length`` px long and ``breadth`` px across is
    best cut so that the parts laid side by side come nearest ``aspect`` (width over
    height; never exactly square: phones crop square previews)."""
    best, best_err = 1, float("inf")
    for parts in range(1, most + 1):
        ratio = parts * breadth / (length / parts)
        err = abs(math.log(ratio / aspect))
        if err < best_err:
            best, best_err = parts, err
    return best


def fold(img: Image.Image, cuts: list[int], gap: int = 16, colour: str = "bg") -> Image.Image:
    """A long (tall) picture folded into a near-square one: cut across at the
    y positions ``cuts`` (the renderer picks them between rows of its map, so
    nothing is cut through), the parts laid side by side, top-aligned. Pass
    ``cuts`` from :func:`fold_cuts`."""
    edges = [0, *sorted(c for c in cuts if 0 < c < img.height), img.height]
    parts = [img.crop((0, a, img.width, b)) for a, b in zip(edges, edges[1:], strict=False) if b > a]
    out = Image.new(img.mode, (len(parts) * img.width + (len(parts) - 1) * gap, max(p.height for p in parts)))
    out.paste(PALETTE[colour] if img.mode in ("RGB", "RGBA") else 0, (0, 0, out.width, out.height))
    for k, part in enumerate(parts):
        out.paste(part, (k * (img.width + gap), 0))
    return out


def fold_cuts(rows: list[int], parts: int) -> list[int]:
    """Where to cut a picture whose rows (of a map, of panels) end at the y
    positions ``rows`` (ascending; the last is the picture's height) into ``parts``
    parts of near-equal height, cutting only between rows."""
    if parts <= 1 or not rows:
        return []
    total = rows[-1]
    cuts: list[int] = []
    for k in range(1, parts):
        want = total * k / parts
        best = min(rows[:-1], key=lambda y: abs(y - want), default=None)
        if best is not None and best not in cuts and (not cuts or best > cuts[-1]):
            cuts.append(best)
    return cuts
