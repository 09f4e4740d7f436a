"""Game-independent images: the final score breakdown and the server leaderboard."""

from __future__ import annotations

from typing import Any

from render.base import PALETTE, box, canvas, seat_colour, text, text_width, to_png

ROW = 40
PAD = 16


def _table(
    title: str,
    subtitle: str,
    headers: list[str],
    rows: list[list[str]],
    marks: list[tuple[int, int, int] | None],
) -> bytes:
    widths = [
        max(text_width(h, 18), *(text_width(r[i], 20) for r in rows)) + 28 for i, h in enumerate(headers)
    ]
    width = int(max(480, sum(widths) + 2 * PAD + 16))
    height = int(110 + ROW * (len(rows) + 1) + PAD)
    img, d = canvas(width, height)
    text(d, (PAD, 12), title, 28, "accent")
    text(d, (PAD, 50), subtitle, 18, "muted")
    y = 92
    x: float = PAD + 16
    for i, h in enumerate(headers):
        text(d, (x, y), h, 18, "muted")
        x += widths[i]
    y += ROW
    for r, row in enumerate(rows):
        box(
            d, (PAD, y - 6, width - PAD, y + ROW - 10), fill="panel" if r % 2 == 0 else "panel2", outline=None
        )
        if marks[r] is not None:
            d.rectangle((PAD, y - 6, PAD + 8, y + ROW - 10), fill=marks[r])
        x = float(PAD + 16)
        for i, cell in enumerate(row):
            text(d, (x, y), cell, 20, "accent" if i == len(row) - 1 and r == 0 else "text")
            x += widths[i]
        y += ROW
    return to_png(img)


def results(title: str, subtitle: str, names: list[str], result: dict[str, Any]) -> bytes:
    """Players in finishing order with every scoring category and the total."""
    cats: list[str] = []
    for b in result.get("breakdown") or []:
        for k in b:
            if k not in cats:
                cats.append(k)
    headers = ["#", "player", *cats, "total"]
    rows: list[list[str]] = []
    marks: list[tuple[int, int, int] | None] = []
    for place, group in enumerate(result["ranking"], 1):
        for seat in group:
            b = result["breakdown"][seat] if result.get("breakdown") else {}
            shared = "=" if len(group) > 1 else ""
            rows.append(
                [
                    f"{place}{shared}",
                    names[seat],
                    *(str(b.get(c, "")) for c in cats),
                    str(result["scores"][seat]),
                ]
            )
            marks.append(seat_colour(seat))
    winners = " and ".join(names[w] for w in result["winners"])
    return _table(f"{title}: final scores", f"{subtitle} - winner: {winners}", headers, rows, marks)


def leaderboard(title: str, subtitle: str, rows: list[tuple[str, int, int, float]]) -> bytes:
    """(name, games, wins, average score) rows, best first."""
    table = [[str(i), n, str(g), str(w), f"{a:.1f}"] for i, (n, g, w, a) in enumerate(rows, 1)]
    return _table(
        f"Leaderboard: {title}",
        subtitle,
        ["#", "player", "games", "wins", "avg score"],
        table,
        [PALETTE["accent"] if i == 0 else None for i in range(len(table))],
    )
