"""The seat's lasting private place (issue 37), its decisions (tables/place.py): who
gets a turn in their place, once; who the board still pings; the server setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import PlaceRow, Store
from tables import TableError, Tables, Update, check_settings
from tables.place import CLOSED, WHY, board_pings
from tests.reliability._util import new_table


def test_the_board_pings_neither_the_mover_nor_whoever_was_reached_privately() -> None:
    # "the player who just moved and goes on is never notified"; "default: no ping for a
    # seat already notified privately"
    u = Update(1, 5, 9, "", ping=[11, 12, 13])
    assert board_pings(u, placed={12}, setting="unplaced", mover=11) == [13]
    assert board_pings(u, placed={12}, setting="always", mover=11) == [12, 13]
    assert board_pings(u, placed=set(), setting="unplaced", mover=None) == [11, 12, 13]


def test_where_turns_come_is_a_server_setting_checked_in_one_sentence() -> None:
    assert check_settings({"place": "thread", "board_ping": "always"}) == {
        "place": "thread",
        "board_ping": "always",
    }
    with pytest.raises(TableError, match="dm, thread or off"):
        check_settings({"place": "email"})
    with pytest.raises(TableError, match="unplaced or always"):
        check_settings({"board_ping": "sometimes"})


async def test_a_turn_goes_into_a_place_once_and_never_to_the_mover(tmp_path: Path) -> None:
    store = await Store(str(tmp_path / "p.db")).open()
    t = Tables(store)
    try:
        gid, (a, b) = await new_table(t, "dungeon-lair", seed=3, players=2)
        row = await store.get(gid)
        assert row is not None
        u = Update(gid, row.version, None, "", ping=[a, b])
        got = await t.deliveries(u, mover=a)
        assert [(d.user_id, d.new) for d in got] == [(b, True)]  # the mover sees it in their answer
        await t.keep_place(PlaceRow(gid, b, "dm", 77, 88, row.version))
        again = await t.deliveries(u, mover=a)  # posted again (a retry, another process): no new message
        assert [(d.user_id, d.new, d.shown) for d in again] == [(b, False, True)]
        # Several choose at once: another's move brings an older place message up to date (an edit).
        later = Update(gid, row.version + 1, None, "", ping=[], acting=[b])
        assert [(d.user_id, d.new) for d in await t.deliveries(later, mover=a)] == [(b, False)]
        # A place that could not be had says why, in one sentence, with "Your move".
        await t.keep_place(PlaceRow(gid, a, "dm", None, None, 0, CLOSED))
        assert await t.place_problem(gid, a) == WHY[CLOSED]
        assert await t.place_problem(gid, b) is None
        assert await t.dm_channel_of(b) == 77  # a DM channel is opened once a player
    finally:
        await store.close()
