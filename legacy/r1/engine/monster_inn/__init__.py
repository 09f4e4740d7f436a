"""Monster Inn (Roman Pelek): a push-your-luck bidding game for 3-5 players."""

from .game import MonsterInn

GAME = MonsterInn()

__all__ = ["GAME", "MonsterInn"]
