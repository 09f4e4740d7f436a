"""Dungeon Lords combat as a sequence of images (render_steps)."""

from __future__ import annotations

from typing import Any


def render_steps(before: dict[str, Any], after: dict[str, Any]) -> list[bytes]:
    """Images of the combat steps that happened between two public views."""
    return []
