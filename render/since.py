"""The board as it changed since a seat's last move (issue 37 item 3): one animated
GIF, a frame a board the thread was shown, each frame with a caption band saying
which board it is ("2 of 3: after Bob's turn").

Why a GIF and not a strip or an animated PNG: Discord shows an animated PNG
attachment as a still image ("apng attachments/embeds are intentionally not
supported", discord/discord-api-docs#6359), and a strip of boards side by side is
shrunk on a phone below the type floor. A GIF frame is a whole board at its own
size, so every label keeps the size the board's type floor holds it to; the
caption is drawn at ``TEXT_KEY``. Boards are palette images of at most 96 colours
(``to_palette``), so a GIF's 256 colours lose nothing.

    changes(key, frames, names, max_bytes=MAX_BYTES) -> bytes | None

``frames``: (public view, caption) oldest first, each caption led by its place in
the GIF ("2 of 3: "); the last frame is held longest.
At most ``MAX_FRAMES`` are drawn (the first and the newest), and frames are left out
of the middle until the GIF is at most ``max_bytes``. Pure and CPU-bound: callers
run it off the event loop.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

import render
from render.base import PALETTE, TEXT_KEY, text, text_width, to_palette

MAX_BYTES = 2_000_000  # issue 37: "at most 2 MB"
MAX_FRAMES = 8
BAND = 16 + TEXT_KEY + 16  # the caption band above each board
PAD = 16
# How long each frame shows (ms): the newest board stays longest before the loop.
FIRST_MS, MIDDLE_MS, LAST_MS = 2000, 1600, 5000


def _framed(board: bytes, caption: str, size: tuple[int, int]) -> Image.Image:
    """The board under its caption band, on a canvas of ``size`` (frames of one GIF
    share one size; a shorter board is padded below)."""
    img = Image.new("RGB", size, PALETTE["bg"])
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, size[0], BAND - 1], fill=PALETTE["panel"])
    text(draw, (PAD, 16), fit(caption, size[0] - 2 * PAD), TEXT_KEY, "accent", role="key")
    with Image.open(io.BytesIO(board)) as b:
        img.paste(b.convert("RGB"), (0, BAND))
    return to_palette(img, 128)


def fit(caption: str, room: float) -> str:
    """``caption``, cut with an ellipsis where it would not fit ``room`` px."""
    if text_width(caption, TEXT_KEY) <= room:
        return caption
    while caption and text_width(caption + "…", TEXT_KEY) > room:
        caption = caption[:-1]
    return caption.rstrip() + "…"


def _gif(frames: list[Image.Image]) -> bytes:
    durations = [FIRST_MS] + [MIDDLE_MS] * (len(frames) - 2) + [LAST_MS] if len(frames) > 1 else [LAST_MS]
    out = io.BytesIO()
    frames[0].save(
        out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=False
    )
    return out.getvalue()


def chosen(count: int, most: int = MAX_FRAMES) -> list[int]:
    """Which of ``count`` frames are drawn: the first and the newest ``most - 1``."""
    if count <= most:
        return list(range(count))
    return [0, *range(count - most + 1, count)]


def changes(
    key: str, frames: list[tuple[dict[str, Any], str]], names: list[str], max_bytes: int = MAX_BYTES
) -> bytes | None:
    """The animated GIF of ``frames`` (see the module docstring), each caption led by
    its place ("2 of 3: "); None for fewer than two frames (nothing changed to show)
    or when even the first and last boards do not fit ``max_bytes``."""
    if len(frames) < 2:
        return None
    drawer = render.get(key).board
    boards = [(drawer(view, names), caption) for view, caption in (frames[i] for i in chosen(len(frames)))]
    sizes = [Image.open(io.BytesIO(b)).size for b, _c in boards]
    size = (max(w for w, _h in sizes), BAND + max(h for _w, h in sizes))
    while len(boards) >= 2:
        n = len(boards)
        data = _gif([_framed(b, f"{k} of {n}: {c}", size) for k, (b, c) in enumerate(boards, 1)])
        if len(data) <= max_bytes:
            return data
        del boards[n // 2]  # the middle goes first: the start and now stay
    return None
