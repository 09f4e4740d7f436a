"""Dungeon Decorators (2-4 players): draft two-sided tiles, build a dungeon, score goals."""

from .game import DungeonDecorators

GAME = DungeonDecorators()

__all__ = ["GAME", "DungeonDecorators"]
