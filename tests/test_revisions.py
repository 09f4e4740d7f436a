"""Rules revisions in the store and the tables (issue 27): schema 5 records the
revision a game was begun under; a game older than its engine is carried at
start-up, its upgrade point recorded and its thread told once; every replay
honours the point. The release fixtures are in tests/test_release_check.py; here
a rules change is simulated (Monster Inn's REVISION raised by one for the test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import core
from engine.monster_inn import upgrade as mi_upgrade
from store import Store
from tables import TableError, Tables, replayed, same_state
from tables.turns import replay_news


async def _game(t: Tables, moves: int) -> int:
    """Monster Inn, one person (user 1) and two AI seats, ``moves`` person moves in."""
    lobby = await t.create(1, "Ada", "monster-inn", seed=77)
    for _ in range(2):
        await t.add_ai(lobby.game_id, 1)
    await t.start(lobby.game_id, 1)
    game = core.get("monster-inn")
    for _ in range(moves):
        row = await t.store.get(lobby.game_id)
        assert row is not None and row.state is not None
        if 0 in game.to_act(row.state):
            await t.act(lobby.game_id, 1, text=game.format(game.ai_action(row.state, 0)))
    return lobby.game_id


async def test_a_new_game_records_the_revision_it_is_begun_under(tmp_path: Path) -> None:
    store = await Store(str(tmp_path / "x.db")).open()
    try:
        t = Tables(store)
        gid = await _game(t, 0)
        row = await store.get(gid)
        assert row is not None and row.state is not None
        assert row.revision == core.get("monster-inn").revision == row.state["revision"]
        assert row.upgrades == []
        assert await t.upgrade_games() == (0, 0)
    finally:
        await store.close()


async def test_a_game_in_progress_is_carried_once_and_its_thread_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = str(tmp_path / "x.db")
    store = await Store(path).open()
    t = Tables(store)
    try:
        gid = await _game(t, 3)
        before = await store.get(gid)
        now = mi_upgrade.REVISION
        assert before is not None and before.revision == now
        n_before = len(await store.log(gid))

        # A rules change ships: revision now + 1, with a step that adds a field.
        nxt = now + 1
        monkeypatch.setattr(mi_upgrade, "REVISION", nxt)
        monkeypatch.setattr(mi_upgrade, "STEPS", {**mi_upgrade.STEPS, nxt: lambda s: {**s, "carried": True}})
        monkeypatch.setattr(mi_upgrade, "CHANGES", {nxt: "Gold now counts double."})
        assert await t.upgrade_games() == (1, 0)
        assert await t.upgrade_games() == (0, 0)
        row = await store.get(gid)
        assert row is not None and row.state is not None
        assert row.state["revision"] == nxt and row.state["carried"] is True
        assert row.revision == now  # begun under
        assert row.upgrades == [{"at": n_before, "from": now, "to": nxt, "told": False}]
        assert row.version == before.version + 1  # a button of the old board is stale

        notices = await t.upgrade_notices()
        assert [n.game_id for n in notices] == [gid]
        assert "Gold now counts double." in notices[0].text
        assert await t.upgrade_notices() == []

        # The move before the upgrade point was played under the old rules: it stands.
        with pytest.raises(TableError, match="rules were updated since the last move"):
            await t.undo(gid, 1)
        # Replays cross the point exactly as the game did.
        log = [(s, note) for _q, s, note in await store.log(gid)]
        assert same_state(replayed(row, log), row.state)
        assert "carried" not in replayed(row, log[:-1])
        await t.history(gid, 1)
        # The game goes on under the new revision, and still replays.
        game = core.get("monster-inn")
        for _ in range(30):
            row = await store.get(gid)
            assert row is not None and row.state is not None
            if row.status != "active":
                break
            if 0 in game.to_act(row.state):
                await t.act(gid, 1, text=game.format(game.ai_action(row.state, 0)))
        row = await store.get(gid)
        assert row is not None and row.state is not None
        log3 = await store.log(gid)
        assert same_state(replayed(row, [(s, note) for _q, s, note in log3]), row.state)
        news = replay_news(row, log3, n_before - 1)
        assert len(news) == len(log3) - n_before + 1 and any(s.events for s in news)
    finally:
        await store.close()


async def test_a_finished_game_is_carried_without_telling_anyone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store(str(tmp_path / "x.db")).open()
    t = Tables(store)
    try:
        gid = await _game(t, 0)
        await t.take_over(gid, 1)
        row = await store.get(gid)
        assert row is not None and row.status == "over"
        monkeypatch.setattr(mi_upgrade, "REVISION", mi_upgrade.REVISION + 1)
        assert await t.upgrade_games() == (1, 0)
        assert await t.upgrade_notices() == []
        row = await store.get(gid)
        assert row is not None and row.upgrades[0]["told"] is True
        caption, png = await t.replay_png(gid, len(await store.log(gid)))
        assert png
    finally:
        await store.close()


async def test_schema_5_marks_games_by_the_schema_they_were_stored_under(tmp_path: Path) -> None:
    """schema <= 2 (release f63664e): revision 1; schemas 3-4: revision 2. The
    release fixtures are real databases of both (tests/test_release_check.py);
    here the rule itself, on a database stopped at schema 4 by hand."""
    import aiosqlite

    from store.db import APPLICATION_ID, MIGRATIONS

    for stop, expect in ((2, 1), (3, 2), (4, 2)):
        path = str(tmp_path / f"s{stop}.db")
        async with aiosqlite.connect(path) as db:
            for i in range(stop):
                await db.executescript(MIGRATIONS[i])
            await db.execute(
                "INSERT INTO games (id, game_key, seed, status, state, created_at, updated_at) "
                "VALUES (1, 'monster-inn', 1, 'active', '{}', 0, 0), (2, 'monster-inn', 1, 'lobby', NULL, 0, 0)"
            )
            await db.execute(f"PRAGMA user_version={stop}")
            await db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            await db.commit()
        store = await Store(path).open()
        try:
            assert (await store.get(1)).revision == expect  # type: ignore[union-attr]
            assert (await store.get(2)).revision is None  # type: ignore[union-attr]  # a lobby: set at start
        finally:
            await store.close()


@pytest.mark.parametrize("key", core.available())
def test_a_revision_1_state_from_any_point_carries_and_plays_to_the_end(key: str) -> None:
    """STEPS[2] carries a state of release f63664e's frozen engine (legacy/r1) from
    the start, the middle and the end of a game to today's engine, which shows it
    (every seat's view and text, the public view) and plays it on to the end; a
    finished game stays finished."""
    from tables.replay import carry, frozen_game

    game, old = core.get(key), frozen_game(key)
    seats = max(3, old.min_players)
    state = old.new(seats, None, 5)
    states = [state]
    while not old.is_over(state):
        seat = min(old.to_act(state))
        state, _ = old.apply(state, seat, old.ai_action(state, seat))
        states.append(state)
    picks = {0, 1, len(states) // 3, 2 * len(states) // 3, len(states) - 2, len(states) - 1}
    for i in sorted(picks):
        now = game.upgrade(carry(game, states[i], 1, 2))
        assert game.rules_revision(now) == game.revision
        assert game.is_over(now) == old.is_over(states[i]), i
        for seat in range(seats):
            assert game.view(now, seat)["viewer"] == seat
            game.private_text(now, seat)
        game.view(now, None)
        game.status(now)
        for _ in range(5000):
            if game.is_over(now):
                break
            seat = min(game.to_act(now))
            now, _ = game.apply(now, seat, game.ai_action(now, seat))
        assert game.is_over(now), f"move {i}: the carried game never ended"
        game.result(now)
