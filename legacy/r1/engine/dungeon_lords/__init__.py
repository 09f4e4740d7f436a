"""Dungeon Lords (base game) for 2-4 players."""

from .game import DungeonLords

GAME = DungeonLords()

__all__ = ["GAME", "DungeonLords"]
