"""Persistence: SQLite through aiosqlite (the default) or PostgreSQL through asyncpg."""

from store.db import (
    CommitUnknown,
    Conflict,
    DatabaseTimeout,
    GameRow,
    PlaceRow,
    SeatRow,
    Store,
    StoreError,
    encode_state,
)

__all__ = ["CommitUnknown", "Conflict", "DatabaseTimeout", "GameRow", "SeatRow", "Store", "StoreError"]
__all__ += ["PlaceRow", "encode_state"]
