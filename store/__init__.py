"""Persistence: SQLite through aiosqlite."""

from store.db import Conflict, GameRow, SeatRow, Store, StoreError

__all__ = ["Conflict", "GameRow", "SeatRow", "Store", "StoreError"]
