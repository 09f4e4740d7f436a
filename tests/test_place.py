"""The seat's lasting private place (issue 37), its decisions (tables/place.py): who
gets a turn in their place, once; who the board still pings; the server setting."""

from __future__ import annotations

import time
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


@pytest.fixture
async def lair(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A running two-player Dungeon Lair game: (tables, game id, the two users, its row)."""
    store = await Store(str(tmp_path / "p.db")).open()
    t = Tables(store)
    try:
        gid, (a, b) = await new_table(t, "dungeon-lair", seed=3, players=2)
        row = await store.get(gid)
        assert row is not None
        yield t, gid, (a, b), row
    finally:
        await store.close()


async def test_a_turn_goes_into_a_place_once_and_never_to_the_mover(lair) -> None:  # type: ignore[no-untyped-def]
    t, gid, (a, b), row = lair
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


async def test_an_abandoned_games_places_are_closed_and_only_then(lair) -> None:  # type: ignore[no-untyped-def]
    """A game abandoned (by its host, or by a missed deadline under that policy) has no
    more turns: every turn message still offering choices in its places is closed."""
    t, gid, (a, b), row = lair
    await t.keep_place(PlaceRow(gid, a, "dm", 77, 88, row.version))
    await t.keep_place(PlaceRow(gid, b, "dm", 78, None, 0, CLOSED))  # DMs closed: nothing there
    assert await t.places_of_abandoned(gid) == [], "a running game's turns stay open"
    await t.store.abandon(gid, row.version)
    [(place, sentence)] = await t.places_of_abandoned(gid)
    assert (place.user_id, place.message_id) == (a, 88)
    assert sentence.startswith(f"Game #{gid} (Dungeon Lair) was abandoned") and "{board}" in sentence
    await t.place_closed(place, over=True)
    assert await t.places_of_abandoned(gid) == [], "closed once"


async def test_a_player_back_after_a_while_sees_in_words_and_picture_what_changed(tmp_path: Path) -> None:
    """A turn in the place opens with what happened since the seat's last move; the
    picture of the boards comes when the player was away (not after minutes)."""
    from engine import core
    from tables.place import PICTURE_AFTER

    now = [time.time()]  # the move log is stamped by the store with the real time
    store = await Store(str(tmp_path / "n.db")).open()
    t = Tables(store, clock=lambda: now[0])
    try:
        gid, users = await new_table(t, "dungeon-lair", seed=5, players=2)
        game = core.get("dungeon-lair")
        first = None
        for _ in range(40):  # play until the first seat has moved and is to act again after the other
            row = await store.get(gid)
            assert row is not None and row.state is not None
            seat = min(game.to_act(row.state))
            if first is None:
                first = seat
            elif seat == first and row.moves > 2 and await store.last_mover(gid, 0) != users[first]:
                break
            action = game.legal_actions(row.state, seat)[0]
            await t.act(gid, users[seat], game.format(action))
        assert first is not None
        text, picture = await t.turn_news(gid, users[first])
        assert "Since your last move" in text and picture is None  # minutes ago: words only
        now[0] += PICTURE_AFTER + 60
        text, picture = await t.turn_news(gid, users[first])
        assert "Since your last move" in text and picture is not None and picture[:3] == b"GIF"
    finally:
        await store.close()
