"""Every stored game of every release replays to its snapshot (issue 39).

``tests/fixtures/corpus-<commit>.db.xz`` are databases written by a release's own
code (``build_fixtures.py --corpus``): every game at 2-4 players, with and without
its variants, stopped at each phase it went through and at points spread over the
game, with half-made moves, deadlines and computer seats. Opened with today's code,
each game's seed + log must give back its snapshot exactly, before the start-up
carry and after it (through the revision's steps at the upgrade point). A change of
a game's state shape or of the text it stores, made without a rules revision, fails
here. Generic over games and revisions: a new revision needs no change to this file,
a new release only its corpus (docs/storage.md, "The release check")."""

from __future__ import annotations

import lzma
import shutil
from pathlib import Path

import pytest

from engine import core
from store import Store
from tables import Tables, replayed, same_state
from tables.replay import current_revision

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPORA = sorted(FIXTURES.glob("corpus-*.db.xz"))
# The release fixtures of issue 27 (15 games each) replay here as well.
RELEASE_FILES = sorted(FIXTURES.glob("release-*.db"))


def test_every_release_has_a_corpus_and_the_newest_is_rich() -> None:
    """A release's fixture without a corpus beside it would check 15 games only."""
    from tests.test_release_check import RELEASES

    releases = {name.removeprefix("release-").removesuffix(".db") for name in RELEASES}
    corpora = {p.name.removeprefix("corpus-").removesuffix(".db.xz") for p in CORPORA}
    assert releases <= corpora
    assert corpora - releases, "today's release has a corpus of its own"


async def _opened(tmp_path: Path, src: Path) -> Store:
    copy = tmp_path / src.name.removesuffix(".xz")
    if src.suffix == ".xz":
        with lzma.open(src) as f, open(copy, "wb") as out:
            shutil.copyfileobj(f, out)
    else:
        shutil.copy(src, copy)  # never the committed file: opening it migrates it
    return await Store(str(copy)).open()


async def _not_replaying(store: Store) -> list[str]:
    wrong = []
    for row in await store.games():
        if row.state is None or row.game_key not in core.available():
            continue
        log_ = [(seat, note) for _q, seat, note in await store.log(row.id)]
        try:
            again = replayed(row, log_)
        except Exception as exc:  # a logged move refused on replay
            wrong.append(f"game #{row.id} ({row.game_key}): move refused on replay: {exc}")
            continue
        if not same_state(again, row.state):
            keys = sorted(
                k for k in set(again) | set(row.state) if k != "revision" and again.get(k) != row.state.get(k)
            )
            wrong.append(f"game #{row.id} ({row.game_key}, {row.moves} moves): differs in {keys}")
    return wrong


@pytest.mark.parametrize("src", CORPORA + RELEASE_FILES, ids=lambda p: p.name)
async def test_every_stored_game_replays_to_its_snapshot(tmp_path: Path, src: Path) -> None:
    store = await _opened(tmp_path, src)
    try:
        rows = [r for r in await store.games() if r.state is not None]
        assert rows
        wrong = await _not_replaying(store)
        assert not wrong, "\n".join(wrong)
        stale = sum(1 for r in rows if current_revision(r) < core.get(r.game_key).revision)
        assert await Tables(store).upgrade_games() == (stale, 0)
        wrong = await _not_replaying(store)
        assert not wrong, "after the carry:\n" + "\n".join(wrong)
    finally:
        await store.close()


async def test_migrate_keeps_release_4f183ac_s_dungeon_lords_games(tmp_path: Path) -> None:
    """Issue 39: "`bot.py migrate` refuses a database holding a Dungeon Lords game from
    release 4f183ac (exit 3, nothing kept)": its season log said "Trap Card(s)"."""
    from tests.pgserver import fresh_database
    from tests.test_release_check import _migrate

    src = FIXTURES / "corpus-4f183ac.db.xz"
    copy = tmp_path / "corpus-4f183ac.db"
    with lzma.open(src) as f, open(copy, "wb") as out:
        shutil.copyfileobj(f, out)
    with fresh_database() as url:
        p = _migrate(copy, url)
        assert p.returncode == 0, p.stderr + p.stdout[-2000:]
        assert "233 games replay to their snapshots" in p.stdout
