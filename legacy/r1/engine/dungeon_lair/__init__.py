"""Dungeon Lair (Kalle Marjola, 2001-2003): a monster territory game on a shared tile map."""

from .game import DungeonLair

GAME = DungeonLair()

__all__ = ["GAME", "DungeonLair"]
