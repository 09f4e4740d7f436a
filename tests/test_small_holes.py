"""Issue 39 item 6, the small holes: /undo on a paused game; the board after an
upgrade; two deadlines firing in one pass; /game new with an unknown or a repeated
option. (A click on another person's private turn message: tests/e2e/test_e2e_retry.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import core
from store import Store
from tables import HOUR, TableError, Tables, parse_options
from tests.test_slowplay import ALICE, BOB, Clock

GUILD = 500


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def t(tmp_path: Path, clock: Clock):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "h.db"), clock=clock).open()
    yield Tables(store, clock=clock)
    await store.close()


async def started(t: Tables, key: str = "test-race", settings: dict | None = None) -> int:
    lobby = await t.create(ALICE, "alice", key, seed=4, guild_id=GUILD, settings=settings)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    await t.store.set_refs(lobby.game_id, thread_id=9000 + lobby.game_id)
    return lobby.game_id


async def to_act(t: Tables, gid: int) -> list[int]:
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    return [row.seats[s].user_id for s in sorted(core.get(row.game_key).to_act(row.state))]  # type: ignore[misc]


async def test_undo_is_refused_on_a_paused_game(t: Tables) -> None:
    gid = await started(t)
    (mover,) = await to_act(t, gid)
    await t.act(gid, mover, "2")
    await t.pause(gid, ALICE)
    before = await t.store.log(gid)
    with pytest.raises(TableError, match="paused"):
        await t.undo(gid, mover)
    assert await t.store.log(gid) == before, "a paused game's move was taken back"


def test_a_repeated_option_is_refused_with_a_sentence() -> None:
    with pytest.raises(TableError, match="open_cards.*twice"):
        parse_options("open_cards=true open_cards=false")


async def test_an_unknown_option_is_refused_not_dropped(t: Tables) -> None:
    games = await t.store.count()
    with pytest.raises(TableError, match="no option called 'setup'"):
        await t.create(ALICE, "alice", "test-race", parse_options("setup=1"), guild_id=GUILD)
    with pytest.raises(TableError, match="no option called 'colour'"):
        await t.create(ALICE, "alice", "test-race", parse_options("colour=red"), guild_id=GUILD)
    assert await t.store.count() == games, "a lobby was opened"


async def test_the_board_after_an_upgrade_neither_counts_old_moves_nor_pings(t: Tables) -> None:
    for marked in (False, True):  # a game from before boards were tracked, and one after
        gid = await started(t)
        for _ in range(3):
            (mover,) = await to_act(t, gid)
            await t.act(gid, mover, "1")
        row = await t.store.get(gid)
        assert row is not None and row.state is not None
        if marked:
            await t.mark_posted(await t.board(gid))
        else:
            await t.store.mark_all_posted()  # the first start that tracked boards
        # The start-up carries the game to newer rules (helper H6's part): its
        # version moves on, no move is made, and the thread is owed a fresh board
        # (the old one's buttons are stale).
        up = [{"at": row.moves, "from": 1, "to": 2, "told": False}]
        await t.store.carry(gid, row.version, row.state, up)
        assert gid in await t.store.owed()
        update = await t.owed_board(gid)
        assert update is not None
        assert "since the last board" not in update.text, update.text
        assert update.ping == [] and update.dm == [], "the fresh board pinged the player again"


async def vote_stage(t: Tables) -> int:
    """A two-seat game of test-turns at its first vote (both seats choose at once,
    each with a deadline), its earlier boards never reached the thread."""
    gid = await started(t, "test-turns", {"deadline_hours": 4, "reminder_hours": 0})
    for _ in range(20):
        row = await t.store.get(gid)
        assert row is not None and row.state is not None
        if row.state["stage"] == "vote":
            return gid
        acting = await to_act(t, gid)
        seat = row.seat_of(acting[0])
        assert seat is not None
        legal = core.get(row.game_key).legal_actions(row.state, seat)
        await t.act(gid, acting[0], str(legal[0]))
    raise AssertionError("no vote")


async def test_two_deadlines_in_one_pass_post_no_line_twice(t: Tables, clock: Clock) -> None:
    gid = await vote_stage(t)
    assert sorted(await to_act(t, gid)) == [ALICE, BOB]
    clock.now += 5 * HOUR  # both deadlines have passed: one pass of the timer loop fires both
    notices = [n for n in await t.fire_due() if n.game_id == gid]
    assert {n.kind for n in notices} == {"deadline"}
    boards = [n.update.text for n in notices if n.update is not None]
    assert boards, "no board for the deadlines"
    # Before: two boards, the second repeating the first's lines ("bob has voted.").
    lines = [line for text in boards for line in text.splitlines()]
    assert len(boards) == 1 and lines.count("bob has voted.") == lines.count("alice has voted.") == 1, boards
    said = "\n".join(boards + [n.text for n in notices if n.update is None])
    assert "alice missed the turn deadline" in said and "bob missed the turn deadline" in said, said
    assert await to_act(t, gid) != [], "the game goes on"
