"""Monster Inn board (placeholder while the full renderer is built)."""

from __future__ import annotations

from typing import Any

from render.base import canvas, header, text, to_png


def render(view: dict[str, Any]) -> bytes:
    img, d = canvas(800, 200)
    header(d, 800, view["title"], view["status"])
    text(d, (16, 100), f"Round {view['round']}", 18)
    return to_png(img)
