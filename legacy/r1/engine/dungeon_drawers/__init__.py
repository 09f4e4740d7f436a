"""Dungeon Drawers (2-4 players): build, draw the hero's path, defend."""

from .game import DungeonDrawers

GAME = DungeonDrawers()

__all__ = ["GAME", "DungeonDrawers"]
