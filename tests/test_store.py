"""Storage: migrations, the guarded move transaction, foreign files, reopen, timer
claims, on both backends (SQLite and PostgreSQL, tests/pgserver.py)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from store import Conflict, SeatRow, Store, StoreError
from store.db import APPLICATION_ID, MIGRATIONS, PG_MIGRATIONS
from tests.pgserver import fresh_database


async def started(store: Store) -> int:
    gid = await store.create_game("test-race", {}, 5, 1)
    await store.set_seats(gid, 0, [SeatRow(0, 1, "a", False), SeatRow(1, 2, "b", False)])
    await store.start(gid, 1, {"n": 0})
    return gid


async def test_schema_is_versioned_and_marked(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    store = await Store(str(path)).open()
    await store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    # Reopening an up-to-date file migrates nothing and keeps the data.
    store = await Store(str(path)).open()
    assert await store.count() == 0
    await store.close()


async def test_move_writes_log_and_snapshot_together(db_target: str) -> None:
    store = await Store(db_target).open()
    gid = await started(store)
    v = await store.commit_move(gid, 2, [(0, 1, "2")], {"n": 2}, None, True)
    assert v == 3
    row = await store.get(gid)
    assert row is not None and row.state == {"n": 2} and row.moves == 1 and row.version == 3
    assert await store.log(gid) == [(1, 0, "2")]
    # A second commit at the old version is refused and changes nothing.
    with pytest.raises(Conflict):
        await store.commit_move(gid, 2, [(1, 2, "3")], {"n": 5}, None, True)
    row = await store.get(gid)
    assert row is not None and row.state == {"n": 2} and await store.log(gid) == [(1, 0, "2")]
    await store.close()


async def test_racing_commits_apply_once(db_target: str) -> None:
    store = await Store(db_target).open()
    gid = await started(store)
    results = await asyncio.gather(
        *(store.commit_move(gid, 2, [(0, 1, str(i))], {"n": i}, None, True) for i in range(20)),
        return_exceptions=True,
    )
    assert sum(1 for r in results if r == 3) == 1
    assert sum(1 for r in results if isinstance(r, Conflict)) == 19
    assert len(await store.log(gid)) == 1
    await store.close()


async def test_two_connections_race_on_one_file(db_target: str) -> None:
    """Two processes' worth of connections: the version guard still holds."""
    path = db_target
    a = await Store(path).open()
    b = await Store(path).open()
    gid = await started(a)
    results = await asyncio.gather(
        a.commit_move(gid, 2, [(0, 1, "1")], {"n": 1}, None, True),
        b.commit_move(gid, 2, [(0, 1, "2")], {"n": 2}, None, True),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "int"]
    assert len(await a.log(gid)) == 1
    await a.close()
    await b.close()


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE people (name TEXT)")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        asyncio.run(Store(str(path)).open())
    assert path.read_bytes() == before


def test_corrupt_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not a database at all" * 100)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not an SQLite database"):
        asyncio.run(Store(str(path)).open())
    assert path.read_bytes() == before


async def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = await Store(str(path)).open()
    await store.close()
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version={len(MIGRATIONS) + 5}")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match="newer Lairkeeper"):
        await Store(str(path)).open()


async def test_checkpoints_run_in_the_background_and_keep_the_wal_small(tmp_path: Path) -> None:
    """A save never copies the WAL back itself (that made every ~100th save slow);
    the background checkpoint keeps the WAL small: between moves of real games it
    catches up and the WAL starts again; under a steady stream of saves, a RESTART
    checkpoint past the limit bounds it."""
    path, wal = tmp_path / "x.db", Path(str(tmp_path / "x.db") + "-wal")
    store = await Store(str(path)).open()
    store.backend.WAL_LIMIT = 400  # type: ignore[union-attr]  # pages
    assert (await store.db.execute_fetchall("PRAGMA wal_autocheckpoint"))[0][0] == 0  # type: ignore[index]
    try:
        gid = await started(store)
        big = {"n": 0, "pad": "x" * 12_000}  # 3-4 pages a snapshot
        version = 2
        for i in range(300):  # moves with pauses, as in play: ~5 MB of WAL if nothing copied it back
            version = await store.commit_move(gid, version, [(0, 1, str(i))], {**big, "n": i}, None, False)
            if store.backend._ckpt_task is not None:  # type: ignore[union-attr]
                await store.backend._ckpt_task  # type: ignore[union-attr]  # a pause long enough for the checkpoint to catch up
        assert wal.stat().st_size < 1_500_000, f"WAL grew to {wal.stat().st_size} bytes"
        for i in range(300, 900):  # back to back: ~9 MB if nothing bounded it
            version = await store.commit_move(gid, version, [(0, 1, str(i))], {**big, "n": i}, None, False)
        assert wal.stat().st_size < 4_000_000, f"WAL grew to {wal.stat().st_size} bytes"
        row = await store.get(gid)
        assert row is not None and row.state is not None and row.state["n"] == 899 and row.moves == 900
    finally:  # a failed assertion must not leave aiosqlite's threads holding the process open
        await store.close()
    assert not wal.exists()  # the last connection folded it in


# ---- both backends: one schema history, upgrades, refusals ---------------------------


def test_one_schema_history_for_both_engines() -> None:
    """Version i means the same schema on both engines: the lists move in step."""
    assert len(MIGRATIONS) == len(PG_MIGRATIONS)


async def _columns(store: Store) -> dict[str, list[str]]:
    if store.postgres:
        rows = await store._fetch(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name <> 'lairkeeper_schema' "
            "ORDER BY table_name, ordinal_position"
        )
        out: dict[str, list[str]] = {}
        for t, c in rows:
            out.setdefault(t, []).append(c)
        return out
    tables = [
        r[0] for r in await store._fetch("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")
    ]
    return {t: [r[1] for r in await store._fetch(f"PRAGMA table_info({t})")] for t in tables}


async def test_both_engines_build_the_same_tables_and_columns(tmp_path: Path) -> None:
    a = await Store(str(tmp_path / "x.db")).open()
    with fresh_database() as url:
        b = await Store(url).open()
        try:
            assert await a.schema_version() == await b.schema_version() == len(MIGRATIONS)
            assert await _columns(a) == await _columns(b)
        finally:
            await a.close()
            await b.close()


async def test_older_database_upgrades_itself_on_start_up(db_target: str) -> None:
    """A database at schema 3 (what main wrote before timers had claims) is carried
    to the current schema on open, keeping its games and timers."""
    from store import db as dbmod

    old = dbmod.PG_MIGRATIONS if db_target.startswith("postgresql") else dbmod.MIGRATIONS
    saved = list(old)
    del old[3:]
    try:
        store = await Store(db_target).open()
        # A game, its log and a timer as schema 3 wrote them (today's Store methods
        # read and write columns of later schemas, so plain SQL here).
        async with store.transaction() as tx:
            (gid,) = (
                await tx.fetch(
                    "INSERT INTO games (game_key, seed, status, version, moves, state, created_at, updated_at) "
                    "VALUES ('test-race', 5, 'active', 3, 1, '{\"n\": 1}', 0, 0) RETURNING id"
                )
            )[0]
            for seat in (0, 1):
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                    gid,
                    seat,
                    seat + 1,
                    "a",
                )
            await tx.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, notation, created_at) VALUES (?, 1, 0, 1, '1', 0)",
                gid,
            )
            await tx.execute(
                "INSERT INTO timers (game_id, seat, kind, due) VALUES (?, ?, ?, ?)", gid, 1, "reminder", 50.0
            )
        assert await store.schema_version() == 3
        await store.close()
    finally:
        old[:] = saved
    store = await Store(db_target).open()
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        row = await store.get(gid)
        assert row is not None and row.state == {"n": 1} and await store.log(gid) == [(1, 0, "1")]
        assert row.revision == 2 and row.upgrades == []  # schema 3: rules revision 2 (issue 27)
        assert [t[1:] for t in await store.claim_due(100.0)] == [(gid, 1, "reminder", 50.0)]
    finally:
        await store.close()


async def test_newer_postgres_schema_is_refused() -> None:
    with fresh_database() as url:
        store = await Store(url).open()
        async with store.transaction() as tx:
            await tx.execute("UPDATE lairkeeper_schema SET version=?", len(PG_MIGRATIONS) + 5)
        await store.close()
        with pytest.raises(StoreError, match="newer Lairkeeper"):
            await Store(url).open()


async def test_foreign_postgres_database_is_refused_untouched() -> None:
    import asyncpg

    with fresh_database() as url:
        con = await asyncpg.connect(url)
        await con.execute("CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('ann')")
        with pytest.raises(StoreError, match="another program") as err:
            await Store(url).open()
        assert "\n" not in str(err.value) and str(err.value).count(". ") <= 2
        tables = await con.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema=current_schema()"
        )
        assert [r[0] for r in tables] == ["people"]
        assert await con.fetchval("SELECT name FROM people") == "ann"
        await con.close()


async def test_damaged_postgres_schema_table_is_refused() -> None:
    with fresh_database() as url:
        store = await Store(url).open()
        async with store.transaction() as tx:
            await tx.execute("DELETE FROM lairkeeper_schema")
        await store.close()
        with pytest.raises(StoreError, match="damaged"):
            await Store(url).open()


def test_unreachable_postgres_is_one_sentence() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StoreError, match="cannot be reached"):
        asyncio.run(Store(f"postgresql://postgres:secret@127.0.0.1:{port}/x").open())
    try:
        asyncio.run(Store(f"postgresql://postgres:secret@127.0.0.1:{port}/x").open())
    except StoreError as exc:
        assert "secret" not in str(exc)  # the password never reaches a log


async def test_huge_ids_fail_as_overflow_on_both(db_target: str) -> None:
    """A hostile id past 64 bits is an OverflowError on both engines (callers guard it alike)."""
    store = await Store(db_target).open()
    try:
        with pytest.raises(OverflowError):
            await store.by_thread(2**64)
    finally:
        await store.close()


async def test_every_writer_round_trips(db_target: str) -> None:
    """Each store method on each engine: what is written reads back the same."""
    store = await Store(db_target, clock=lambda: 1000.0).open()
    try:
        gid = await store.create_game("test-race", {"a": 1}, 2**62, 2**61, guild_id=2**60, channel_id=5)
        await store.set_refs(gid, thread_id=2**59, lobby_message_id=7)
        assert (await store.by_thread(2**59)).id == gid  # type: ignore[union-attr]
        assert (await store.by_thread(7)).id == gid  # type: ignore[union-attr]
        v = await store.set_seats(gid, 0, [SeatRow(0, 11, "a", False), SeatRow(1, None, "AI", True)])
        v = await store.start(gid, v, {"n": 0}, arm=[(0, "deadline", 2000.0)])
        assert [g.id for g in await store.games_of_user(11)] == [gid]
        assert [g.id for g in await store.games_of_user(11, guild_id=2**60)] == [gid]
        assert await store.active_with_ai() == [gid]
        v = await store.commit_move(gid, v, [(0, 11, "x"), (1, None, "y")], {"n": 2}, None, True)
        assert await store.log(gid) == [(1, 0, "x"), (2, 1, "y")]
        assert [e[:4] for e in await store.log_full(gid)] == [(1, 0, 11, "x"), (2, 1, None, "y")]
        v = await store.undo(gid, v, 2, {"n": 1}, [], [])
        assert await store.log(gid) == [(1, 0, "x")]
        await store.set_draft(gid, 11, v, ["a", "b"])
        assert await store.get_draft(gid, 11) == (v, ["a", "b"])
        await store.set_draft(gid, 11, v, None)
        assert await store.get_draft(gid, 11) is None
        await store.set_guild_settings(2**60, {"deadline_hours": 3})
        assert await store.guild_settings(2**60) == {"deadline_hours": 3}
        await store.set_dm(11, True)
        assert await store.wants_dm(11) and not await store.wants_dm(12)
        await store.set_vacation(11, 1000.0, 5000.0)
        assert await store.vacation(11) == (1000.0, 5000.0)
        assert await store.shift_deadlines(11, 100.0) == 1
        assert [t[1:] for t in await store.timers_of(gid)] == [(0, "deadline", 2100.0)]
        v = await store.hand_to_ai(gid, v, 0)
        assert await store.timers_of(gid) == []
        row = await store.get(gid)
        assert row is not None and row.seed == 2**62 and row.host_id == 2**61 and row.version == v
        assert [g.id for g in await store.games(2**60, "active")] == [gid]
        v = await store.abandon(gid, v)
        assert (await store.get(gid)).status == "abandoned"  # type: ignore[union-attr]
        assert await store.count() == 1
    finally:
        await store.close()


# ---- timers across processes ------------------------------------------------------------


async def test_a_due_timer_is_claimed_once_among_many_claimers(db_target: str) -> None:
    """Twenty stores (processes' worth of connections) claim at once: each due timer
    goes to exactly one of them, and a timer not yet due to none."""
    first = await Store(db_target).open()
    others = [await Store(db_target).open() for _ in range(19)]
    try:
        gids = [await started(first) for _ in range(10)]
        for i, gid in enumerate(gids):
            await first.commit_move(
                gid, 2, [(0, 1, "1")], {"n": 1}, None, True, arm=[(1, "deadline", 100.0 + i)]
            )
        not_yet = await started(first)
        await first.commit_move(not_yet, 2, [(0, 1, "1")], {"n": 1}, None, True, arm=[(1, "deadline", 900.0)])
        claims = await asyncio.gather(*(s.claim_due(500.0) for s in [first, *others]))
        got = [t[1] for c in claims for t in c]
        assert sorted(got) == sorted(gids)
        # Claimed: nobody gets them again while the lease runs...
        assert await first.claim_due(500.0) == []
        # ...and the next work of this process is at the end of the lease, not now (no spinning).
        assert await first.next_due() == 500.0 + Store.TIMER_LEASE
    finally:
        for s in [first, *others]:
            await s.close()


async def test_a_claimer_that_dies_releases_the_timer_after_its_lease(db_target: str) -> None:
    a = await Store(db_target).open()
    b = await Store(db_target).open()
    try:
        gid = await started(a)
        await a.commit_move(gid, 2, [(0, 1, "1")], {"n": 1}, None, True, arm=[(1, "reminder", 100.0)])
        (tid, *_rest) = (await a.claim_due(200.0))[0]
        await a.close()  # a dies holding the claim
        assert await b.claim_due(200.0 + Store.TIMER_LEASE - 1) == []
        assert [t[0] for t in await b.claim_due(200.0 + Store.TIMER_LEASE)] == [tid]
    finally:
        await b.close()


async def test_reschedule_is_conditional(db_target: str) -> None:
    """Two schedulers that both fired a reminder due at 100: only the first moves it."""
    a = await Store(db_target).open()
    b = await Store(db_target).open()
    try:
        gid = await started(a)
        await a.commit_move(gid, 2, [(0, 1, "1")], {"n": 1}, None, True, arm=[(1, "reminder", 100.0)])
        (tid, _g, _s, _k, due) = (await a.due_timers(150.0))[0]
        results = await asyncio.gather(
            a.reschedule(tid, due + 50, was=due), b.reschedule(tid, due + 50, was=due)
        )
        assert sorted(results) == [False, True]
        assert [t[3] for t in await a.timers_of(gid)] == [150.0]
        # Consuming is conditional the same way.
        assert not await b.reschedule(tid, None, was=due)
        assert await b.reschedule(tid, None, was=150.0)
        assert await a.timers_of(gid) == []
    finally:
        await a.close()
        await b.close()


async def test_arming_a_timer_wakes_every_process(db_target: str) -> None:
    """SQLite: the process that armed it. PostgreSQL: every process on the database (NOTIFY)."""
    a = await Store(db_target).open()
    b = await Store(db_target).open()
    await b.listen()
    try:
        gid = await started(a)
        a.wake.clear()
        b.wake.clear()
        await a.commit_move(gid, 2, [(0, 1, "1")], {"n": 1}, None, True, arm=[(1, "reminder", 100.0)])
        await asyncio.wait_for(a.wake.wait(), 5)
        if a.postgres:
            await asyncio.wait_for(b.wake.wait(), 5)
        # A move that arms nothing wakes nobody.
        a.wake.clear()
        await a.commit_move(gid, 3, [(1, 2, "2")], {"n": 2}, None, True)
        await asyncio.sleep(0.2)
        assert not a.wake.is_set()
    finally:
        await a.close()
        await b.close()


async def test_shards_split_timers_and_restart_work(db_target: str) -> None:
    """A process of shards {1} of 2 claims only timers of guilds on shard 1; shard 0
    also takes the guild-less games."""
    from store.db import shard_of

    g0, g1 = 0 << 22, 1 << 22  # guild ids on shard 0 and 1 of 2
    assert (shard_of(g0, 2), shard_of(g1, 2), shard_of(None, 2)) == (0, 1, 0)
    base = await Store(db_target).open()
    s0 = await Store(db_target, shards=([0], 2)).open()
    s1 = await Store(db_target, shards=([1], 2)).open()
    try:
        made = {}
        for name, guild in (("g0", g0 + 7), ("g1", g1 + 7), ("none", None)):
            gid = await base.create_game("test-race", {}, 5, 1, guild_id=guild)
            await base.set_seats(gid, 0, [SeatRow(0, 1, "a", False), SeatRow(1, None, "AI", True)])
            await base.start(gid, 1, {"n": 0}, arm=[(0, "deadline", 100.0)])
            made[name] = gid
        assert await s1.active_with_ai() == [made["g1"]]
        assert await s0.active_with_ai() == sorted([made["g0"], made["none"]])
        assert await s1.next_due() == 100.0
        assert [t[1] for t in await s1.claim_due(200.0)] == [made["g1"]]
        assert sorted(t[1] for t in await s0.claim_due(200.0)) == sorted([made["g0"], made["none"]])
        with pytest.raises(ValueError):
            s0.set_shards([2], 2)
    finally:
        for s in (base, s0, s1):
            await s.close()


async def test_identify_slots_are_spaced_across_processes(db_target: str) -> None:
    """Discord allows one IDENTIFY a max_concurrency bucket every 5 s: three
    processes asking at once get slots 0, 5 and 10 s away; another bucket is free."""
    stores = [await Store(db_target).open() for _ in range(3)]
    try:
        waits = sorted(await asyncio.gather(*(s.identify_slot(0) for s in stores)))
        assert waits[0] < 1.0 and 4.0 < waits[1] - waits[0] < 6.0 and 4.0 < waits[2] - waits[1] < 6.0
        assert await stores[0].identify_slot(1) < 1.0
    finally:
        for s in stores:
            await s.close()


async def test_a_computer_seats_strength_is_stored(db_target: str) -> None:
    """Schema 6: seats.ai_level; NULL for people and for computer seats of earlier
    releases, which play as easy (today's player, the one their game began with)."""
    store = await Store(db_target).open()
    gid = await store.create_game("test-race", {}, 5, 1)
    await store.set_seats(
        gid,
        0,
        [
            SeatRow(0, 1, "a", False, "hard"),
            SeatRow(1, None, "Bot 1", True, "hard"),
            SeatRow(2, None, "Bot 2", True),
        ],
    )
    await store.start(gid, 1, {"n": 0})
    row = await store.get(gid)
    assert row is not None
    assert [s.ai_level for s in row.seats] == [None, "hard", None], "a person has no strength"
    assert [s.level for s in row.seats[1:]] == ["hard", "easy"], "a seat without one plays as easy"
    v = await store.hand_to_ai(gid, row.version, 0, "normal")
    row = await store.get(gid)
    assert row is not None and row.seats[0].is_ai and row.seats[0].ai_level == "normal"
    await store.give_seat(gid, v, 0, 3, "c")
    row = await store.get(gid)
    assert row is not None and not row.seats[0].is_ai and row.seats[0].ai_level is None
    await store.close()
