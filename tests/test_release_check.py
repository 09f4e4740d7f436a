"""The release check (issue 27): databases written by earlier releases
(tests/fixtures/release-<commit>.db, built by tests/fixtures/build_fixtures.py with
that release's own code) are opened by today's code, and every game in them must
still work: board, hand, /history (every page), /replay, /undo where allowed,
played on to its end, seed + log replaying to its snapshot, and `bot.py migrate`.

Every release adds its own fixture (docs/storage.md, "The release check")."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import render
from engine import core
from store import Store
from tables import Replay, TableError, Tables, replayed, same_state
from tables.replay import current_revision
from tables.turns import replay_news

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
# fixture -> the rules revision its games were begun under (schema <= 2: 1; 3-4: 2)
RELEASES = {"release-f63664e.db": 1, "release-4f183ac.db": 2, "release-1eec3aa.db": 3}
PEOPLE = (101, 102)


def test_every_release_fixture_is_checked() -> None:
    """A fixture added without an entry here would never be opened."""
    assert {p.name for p in FIXTURES.glob("release-*.db")} == set(RELEASES)


async def _open(tmp_path: Path, name: str) -> tuple[Store, Tables]:
    copy = tmp_path / name
    shutil.copy(FIXTURES / name, copy)  # never the committed file: opening it migrates it
    store = await Store(str(copy)).open()
    return store, Tables(store)


async def _log(store: Store, gid: int) -> list[tuple[int, str]]:
    return [(seat, note) for _q, seat, note in await store.log(gid)]


async def _replays_to_snapshot(store: Store, gid: int) -> None:
    row = await store.get(gid)
    assert row is not None and row.state is not None
    again = replayed(row, await _log(store, gid))
    if not same_state(again, row.state):
        keys = sorted(
            k for k in set(again) | set(row.state) if k != "revision" and again.get(k) != row.state.get(k)
        )
        raise AssertionError(
            f"game #{gid} ({row.game_key}): seed + log replay differs from the snapshot in {keys}"
        )


async def _look_at_everything(t: Tables, store: Store, gid: int) -> None:
    """Board, every seat's hand and area, /history every page, the pictures of the
    first, middle and last move, and /undo where the rules allow it."""
    row = await store.get(gid)
    assert row is not None
    update = await t.board(gid)
    assert update.png and update.text
    for s in row.seats:
        if not s.is_ai:
            text, _png = await t.hand(gid, s.user_id)  # type: ignore[arg-type]
            assert text and "Player " not in text
        await t.private_area(gid, s.seat)
    _first, pages = await t.history(gid, 1)
    for page in range(1, pages + 1):
        text, _ = await t.history(gid, page)
        assert "`" in text
        # A battle plan is secret in the public history (issue 20), also one played
        # under release f63664e, whose own history showed it.
        assert all("(secret)" in line for line in text.splitlines() if "`fight" in line)
    n = len(await store.log(gid))  # undone moves stay counted in row.moves
    for move in sorted({0, n // 2, n}):
        if row.status == "over":
            caption, png = await t.replay_png(gid, move)
            assert png and f"after move {move} of" in caption
        else:  # /replay is for finished games; its picture path is this one
            rep = Replay(row).run((await _log(store, gid))[:move])
            render.get(row.game_key).board(core.get(row.game_key).view(rep.carried(), None), ["a", "b", "c"])
    # Owed-board summaries replay the moves since the last board that reached the
    # thread (owed_board would swallow a failure into the log, so the replay itself).
    log_ = await store.log(gid)
    # A board marks a move NUMBER (a move taken back keeps its number): the half-way one.
    news = replay_news(row, log_, log_[n // 2 - 1][0] if n // 2 else 0)
    assert len(news) == n - n // 2 and all(e.text for s in news for e in s.events)
    await t.owed_board(gid)  # and the board it posts is drawn
    if row.status == "active":
        last = (await store.log(gid))[-1]
        if not row.seats[last[1]].is_ai:
            try:
                await t.undo(gid, row.seats[last[1]].user_id)  # type: ignore[arg-type]
            except TableError as exc:  # refused in one sentence, never a crash
                assert str(exc).endswith(".") and "\n" not in str(exc)


async def _play_to_end(t: Tables, store: Store, gid: int) -> None:
    """Each person types one move (their AI's choice) on the carried game, then
    hands the seat to the AI, which plays every seat to the end."""
    row = await store.get(gid)
    assert row is not None and row.state is not None
    game = core.get(row.game_key)
    for uid in PEOPLE:
        row = await store.get(gid)
        assert row is not None and row.state is not None
        seat = row.seat_of(uid)
        if row.status == "active" and seat in game.to_act(row.state):
            await t.act(gid, uid, text=game.format(game.ai_action(row.state, seat)))
    for uid in PEOPLE:
        if (await store.get(gid)).status == "active":  # type: ignore[union-attr]
            await t.take_over(gid, uid)
    row = await store.get(gid)
    assert row is not None and row.status == "over", f"game #{gid} ({row and row.game_key}) did not finish"


@pytest.mark.parametrize("name", sorted(RELEASES))
async def test_an_old_release_s_games_all_work_today(tmp_path: Path, name: str) -> None:
    store, t = await _open(tmp_path, name)
    figures: dict[str, Any] = {}
    try:
        assert await store.schema_version() >= 5
        games = [r for r in await store.games() if r.state is not None]
        assert len(games) == 15 and {r.status for r in games} == {"active", "over"}
        assert {r.revision for r in games} == {RELEASES[name]}
        for r in games:  # deadlines and reminders were armed by the old release
            kinds = {k for _id, _seat, k, _due in await store.timers_of(r.id)}
            assert kinds == ({"deadline", "reminder"} if r.status == "active" else set()), r.id
        wrong = []  # before any carry: the frozen or today's engine replays each log
        for r in games:
            try:
                await _replays_to_snapshot(store, r.id)
            except AssertionError as exc:
                wrong.append(str(exc))
        assert not wrong, "\n".join(wrong)

        carried, failed = await t.upgrade_games()
        stale = sum(1 for r in games if current_revision(r) < core.get(r.game_key).revision)
        assert (carried, failed) == (stale, 0)
        assert await t.upgrade_games() == (0, 0)  # carried once
        notices = await t.upgrade_notices()
        assert sorted(n.game_id for n in notices) == sorted(
            r.id
            for r in games
            if r.status == "active" and current_revision(r) < core.get(r.game_key).revision
        )
        assert all("continues under its newest rules" in n.text and "_" not in n.text for n in notices)
        assert await t.upgrade_notices() == []  # told once

        for r in games:
            row = await store.get(r.id)
            assert row is not None and row.state is not None
            game = core.get(row.game_key)
            assert game.rules_revision(row.state) == game.revision
            assert game.is_over(row.state) == (row.status == "over")
            await _replays_to_snapshot(store, r.id)
            await _look_at_everything(t, store, r.id)
            if row.status == "active":
                await _play_to_end(t, store, r.id)
                await _replays_to_snapshot(store, r.id)
                await _look_at_everything(t, store, r.id)
        figures["carried"] = carried
        figures["finished"] = sum(1 for r in games if r.status == "active")
        print(f"{name}: {figures['carried']} games carried, {figures['finished']} played on to their end")
    finally:
        await store.close()


def test_the_f63664e_fixture_holds_the_issue_s_failures() -> None:
    """The fixture reproduces what issue 27 saw: on today's engine alone, the logs of
        Dungeon Lords, Decorators and Drawers games of release f63664e do not replay to
        their snapshots ("You cannot pay ...", "A dungeon tile must be placed next to
        another dungeon tile.", a discard pile in another order), 12 of 15 in all (on the
    engines of 4f183ac; later ones may fail more of them, never fewer)."""
    import json
    import sqlite3

    con = sqlite3.connect(f"file:{FIXTURES / 'release-f63664e.db'}?mode=ro", uri=True)
    failing: list[str] = []
    try:
        games = con.execute("SELECT id, game_key, seed, options, state FROM games").fetchall()
        for gid, key, seed, options, state in games:
            game = core.get(key)
            (n,) = con.execute("SELECT count(*) FROM seats WHERE game_id=?", (gid,)).fetchone()
            now = game.new(n, json.loads(options), seed, revision=2)
            log = con.execute(
                "SELECT seat, notation FROM actions WHERE game_id=? AND undone=0 ORDER BY seq", (gid,)
            ).fetchall()
            try:
                for seat, note in log:
                    now, _ = game.apply(now, seat, game.parse(note))
            except Exception:
                failing.append(key)
                continue
            if not same_state(now, json.loads(state)):
                failing.append(key)
    finally:
        con.close()
    assert len(failing) >= 12 and {"dungeon-lords", "dungeon-decorators", "dungeon-drawers"} <= set(failing)


async def test_decorators_games_in_progress_are_no_longer_stuck_on_done(tmp_path: Path) -> None:
    """Issue 27: "at the end of a build the only legal move is `done`, and it is always
    refused with 'Your starting tile must stay where it is'" (G7 renamed AO41)."""
    store, t = await _open(tmp_path, "release-f63664e.db")
    try:
        await t.upgrade_games()
        from engine.dungeon_decorators import rules as R

        rows = [r for r in await store.games() if r.game_key == "dungeon-decorators"]
        for row in rows:
            assert row.state is not None
            for p in row.state["players"]:
                assert p["dungeon"][R.START]["t"] == "start"
                assert all("flip" not in cell for cell in p["dungeon"].values())
        for row in rows:
            if row.status == "active":
                await _play_to_end(t, store, row.id)
    finally:
        await store.close()


async def test_old_lair_snapshots_gain_options_catacombs(tmp_path: Path) -> None:
    store, t = await _open(tmp_path, "release-f63664e.db")
    try:
        rows = [r for r in await store.games() if r.game_key == "dungeon-lair"]
        assert rows and all("catacombs" not in r.state["options"] for r in rows)  # type: ignore[index]
        await t.upgrade_games()
        for r in rows:
            row = await store.get(r.id)
            assert row is not None and row.state is not None
            assert row.state["options"]["catacombs"] is False and row.state["cells"] == "xy"
    finally:
        await store.close()


def _migrate(src: Path, url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bot.py", "migrate", "--from", str(src), "--to", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("name", sorted(RELEASES))
async def test_an_old_release_migrates_to_postgresql(tmp_path: Path, name: str) -> None:
    """Issue 27: migrate refused "12 of 15 games do not replay to their snapshot".
    Checked on the file as the old release left it, and once the games were carried.
    Never skipped: without a server the test starts a throwaway cluster, as every
    PostgreSQL test does (tests/pgserver.py), and fails with its reason if it cannot."""
    from tests.pgserver import fresh_database

    pristine = tmp_path / "pristine.db"
    shutil.copy(FIXTURES / name, pristine)
    with fresh_database() as url:
        p = _migrate(pristine, url)
        assert p.returncode == 0, p.stderr + p.stdout
        assert "15 games replay to their snapshots" in p.stdout
    store, t = await _open(tmp_path, name)
    try:
        await t.upgrade_games()
    finally:
        await store.close()
    with fresh_database() as url:
        p = _migrate(tmp_path / name, url)
        assert p.returncode == 0, p.stderr + p.stdout
        assert "15 games replay to their snapshots" in p.stdout
