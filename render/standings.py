"""The /stats pictures (issue 41): the rating leaderboard and one player's rating
over time, drawn to the type floor (a phone shows them at about a third)."""

from __future__ import annotations

from render.base import PALETTE, TEXT_BODY, TEXT_KEY, TEXT_TITLE, box, canvas, text, text_width, to_png

PAD = 24
ROW = 56
WIDTH = 1200


def _fit(s: str, size: int, room: float) -> str:
    """``s`` cut with an ellipsis to ``room`` px (a long name must not run over the numbers)."""
    if text_width(s, size) <= room:
        return s
    while s and text_width(s + "…", size) > room:
        s = s[:-1]
    return s + "…"


def leaderboard(title: str, subtitle: str, rows: list[tuple[str, float, int, int, bool]]) -> bytes:
    """(name, rating, games, wins, provisional) rows, in leaderboard order."""
    cols = [("#", 70), ("player", 560), ("rating", 250), ("games", 140), ("wins", 0)]
    height = 150 + ROW * (len(rows) + 1) + PAD
    img, d = canvas(WIDTH, height)
    text(
        d,
        (PAD, 16),
        _fit(f"Leaderboard: {title}", TEXT_TITLE, WIDTH - 2 * PAD),
        TEXT_TITLE,
        "accent",
        role="title",
    )
    text(d, (PAD, 72), subtitle + " - ? marks a provisional rating", TEXT_BODY, "muted")
    y, x = 126, PAD + 16
    for head, w in cols:
        text(d, (x, y), head, TEXT_BODY, "muted")
        x += w
    y += ROW
    for i, (name, rating, games, wins, provisional) in enumerate(rows):
        box(
            d, (PAD, y - 8, WIDTH - PAD, y + ROW - 12), fill="panel" if i % 2 == 0 else "panel2", outline=None
        )
        cells = [
            str(i + 1),
            _fit(name, TEXT_KEY, cols[1][1] - 20),
            f"{rating:.1f}" + ("?" if provisional else ""),
            str(games),
            str(wins),
        ]
        x = PAD + 16
        for k, ((_head, w), cell) in enumerate(zip(cols, cells, strict=True)):
            colour = "accent" if i == 0 and k == 2 else "text"
            text(d, (x, y), cell, TEXT_KEY, colour, role="score" if k >= 2 else "key")
            x += w
        y += ROW
    return to_png(img)


def rating_plot(title: str, points: list[float]) -> bytes:
    """A player's rating after each rated game, as a line, the last value said."""
    w, h = 1000, 620
    left, right, top, bottom = 130, w - 60, 140, h - 90
    img, d = canvas(w, h)
    text(d, (PAD, 16), _fit(title, TEXT_TITLE, w - 2 * PAD), TEXT_TITLE, "accent", role="title")
    last = points[-1] if points else 0.0
    text(
        d,
        (PAD, 70),
        f"rating now {last:.1f} after {len(points)} rated game" + ("" if len(points) == 1 else "s"),
        TEXT_KEY,
        "text",
        role="score",
    )
    lo, hi = min([0.0, *points]), max([1.0, *points])
    span = hi - lo or 1.0
    box(d, (left, top, right, bottom), fill="panel", outline="line")
    text(d, (left - 12, top), f"{hi:.0f}", TEXT_BODY, "muted", anchor="ra")
    text(d, (left - 12, bottom), f"{lo:.0f}", TEXT_BODY, "muted", anchor="rd")
    text(d, (left, bottom + 16), "first game", TEXT_BODY, "muted")
    text(d, (right, bottom + 16), "latest", TEXT_BODY, "muted", anchor="ra")
    n = len(points)
    xy = [
        (
            left + 10 + (right - left - 20) * (i / (n - 1) if n > 1 else 0.5),
            bottom - 10 - (bottom - top - 20) * (p - lo) / span,
        )
        for i, p in enumerate(points)
    ]
    if len(xy) > 1:
        d.line(xy, fill=PALETTE["accent"], width=5)
    for x, y in xy[-1:] if len(xy) > 40 else xy:
        d.ellipse((x - 7, y - 7, x + 7, y + 7), fill=PALETTE["accent"])
    return to_png(img)
