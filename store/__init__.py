"""Persistence: SQLite through aiosqlite (the default) or PostgreSQL through asyncpg."""

from store.db import Conflict, GameRow, SeatRow, Store, StoreError, encode_state

__all__ = ["Conflict", "GameRow", "SeatRow", "Store", "StoreError", "encode_state"]
