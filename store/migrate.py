"""Moving a server: copy an SQLite database into an empty PostgreSQL one.

The copy runs in ONE PostgreSQL transaction: every table is copied (COPY, in an
order that keeps the foreign keys whole), the identity counters are moved past
the copied ids, the row counts are compared table by table, and every game that
has a snapshot is checked by the caller's ``check`` (``bot.py migrate`` replays
its seed + log and compares). Any difference rolls everything back, so the
target is either a faithful copy or as empty as it was.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from store.db import TABLES, GameRow, Store, StoreError

# Parents before children (seats, actions, timers, drafts, watchers, rematches refer to games).
ORDER = ("games", "seats", "actions", "timers", "drafts", "watchers", "rematches", "guild_settings")
ORDER += ("notify", "vacations", "meta", "rating_cache", "places", "board_claims")
IDENTITY = ("games", "actions", "timers")

Check = Callable[[GameRow, list[tuple[int, int, str]]], Awaitable[str | None]]


class Mismatch(StoreError):
    """The copy differs from the source; nothing was kept."""


async def copy(
    src: Store, dst: Store, check: Check | None, say: Callable[[str], None] = print
) -> dict[str, int]:
    """Copy ``src`` (SQLite, opened) into ``dst`` (PostgreSQL, opened, empty).
    Returns the rows copied per table. Raises StoreError (target not empty) or
    Mismatch (a count or a game differs; the transaction is rolled back)."""
    assert set(ORDER) == set(TABLES)
    if src.postgres or not dst.postgres:
        raise StoreError("migrate copies an SQLite database into a PostgreSQL one.")
    for t in ORDER:
        (n,) = (await dst._fetch(f"SELECT count(*) FROM {t}"))[0]
        if n:
            raise StoreError(
                f"The target database is not empty ({t} has {n} rows); migrate only into a new, empty database."
            )
    counts: dict[str, int] = {}
    async with dst.backend.transaction() as tx:
        con: Any = tx._con
        for t in ORDER:
            cols = [r[1] for r in await src._fetch(f"PRAGMA table_info({t})")]
            rows = [tuple(r) for r in await src._fetch(f"SELECT {', '.join(cols)} FROM {t}")]
            if rows:
                await con.copy_records_to_table(t, records=rows, columns=cols)
            counts[t] = len(rows)
            say(f"  {t}: {len(rows)} rows")
        for t in IDENTITY:
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{t}', 'id'), (SELECT max(id) FROM {t})) "
                f"WHERE EXISTS (SELECT 1 FROM {t})"
            )
        for t in ORDER:
            (n,) = (await tx.fetch(f"SELECT count(*) FROM {t}"))[0]
            if n != counts[t]:
                raise Mismatch(f"{t}: {counts[t]} rows in the source but {n} in the copy; nothing was kept.")
        checked = bad = 0
        # check None (benchmarks loading a built database): counts only.
        with_state = (
            []
            if check is None
            else await src._fetch("SELECT id FROM games WHERE state IS NOT NULL ORDER BY id")
        )
        for (gid,) in with_state:
            row = await src.get(gid)
            assert row is not None
            copied = await tx.fetch("SELECT state FROM games WHERE id=?", gid)
            if copied[0][0] != (await src._fetch("SELECT state FROM games WHERE id=?", gid))[0][0]:
                raise Mismatch(f"game #{gid}: its snapshot differs in the copy; nothing was kept.")
            log = [
                tuple(r)
                for r in await tx.fetch(
                    "SELECT seq, seat, notation FROM actions WHERE game_id=? AND undone=0 ORDER BY seq", gid
                )
            ]
            why = await check(row, log)  # type: ignore[arg-type,misc]
            checked += 1
            if why is not None:
                bad += 1
                say(f"  game #{gid}: {why}")
        if bad:
            raise Mismatch(f"{bad} of {checked} games do not replay to their snapshot; nothing was kept.")
        counts["games_replayed"] = checked
    return counts
