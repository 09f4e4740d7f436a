"""Issue 39 item 1: every interaction that makes a move carries an idempotency key,
kept with the move in its transaction. A second try with the same key (a retried
click, a command delivered twice) is told the move was already taken and is never
applied again, also when the game has come back to the same player meanwhile."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import Store
from tables import ALREADY, AlreadyTaken, TableError, Tables

ALICE, BOB = 11, 22


@pytest.fixture
async def tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "t.db")).open()
    yield Tables(store)
    await store.close()


async def against_the_computer(t: Tables) -> int:
    """Alice against one computer player: her turn comes back at once after each move."""
    lobby = await t.create(ALICE, "alice", "test-race", seed=4)
    await t.add_ai(lobby.game_id, ALICE)
    await t.start(lobby.game_id, ALICE)
    row = await t.store.get(lobby.game_id)
    assert row is not None and row.state is not None
    if row.seats[row.state["turn"] % 2].is_ai:  # the computer opened: let it move
        await t._run_ai(lobby.game_id)
    return lobby.game_id


async def test_a_retried_command_is_told_already_taken_and_not_played_again(tables: Tables) -> None:
    gid = await against_the_computer(tables)
    before = len(await tables.store.log(gid))
    await tables.act(gid, ALICE, "1", key="i1001")
    after = await tables.store.log(gid)
    assert len(after) == before + 2  # her move and the computer's: her turn again
    # The same command again (its answer was lost, or told her to try again): the
    # rules would take "1" again, but it is the same interaction.
    with pytest.raises(AlreadyTaken) as again:
        await tables.act(gid, ALICE, "1", key="i1001")
    assert str(again.value) == ALREADY == "Your move was already taken."
    assert await tables.store.log(gid) == after
    # A new command is a new move.
    await tables.act(gid, ALICE, "1", key="i1002")
    assert len(await tables.store.log(gid)) == before + 4


async def test_a_button_clicked_twice_is_told_already_taken(tables: Tables) -> None:
    gid = await against_the_computer(tables)
    row = await tables.store.get(gid)
    assert row is not None
    key = f"clk:mv:{gid}:{row.version}:0@{ALICE}"
    await tables.act(gid, ALICE, button=(row.version, 0), key=key)
    moved = await tables.store.log(gid)
    with pytest.raises(AlreadyTaken):
        await tables.act(gid, ALICE, button=(row.version, 0), key=key)
    assert await tables.store.log(gid) == moved
    # Another person's key is not hers: the same stale button is refused as stale.
    with pytest.raises(TableError, match="earlier board"):
        await tables.act(gid, ALICE, button=(row.version, 0), key=f"clk:mv:{gid}:{row.version}:0@{BOB}")


async def test_the_key_is_kept_with_the_move_in_the_log(tables: Tables) -> None:
    gid = await against_the_computer(tables)
    await tables.act(gid, ALICE, "2", key="i77")
    seq = await tables.store.move_by_key(gid, "i77")
    assert seq is not None
    log = await tables.store.log_full(gid)
    assert [(s, u, n) for s, _seat, u, n, _t in log if s == seq] == [(seq, ALICE, "2")]
    assert await tables.store.move_by_key(gid, "i78") is None
