"""Dungeon Decorators (2-4 players): draft two-sided tiles, build a dungeon, score goals."""

from . import witness
from .data import DATA
from .game import DungeonDecorators

# Every goal must be achievable with these tiles under these rules (raises DataError otherwise).
witness.check_goals(DATA)

GAME = DungeonDecorators()

__all__ = ["GAME", "DungeonDecorators"]
