"""Issue 39 item 3: a vacation is one per person, for every server and every game.
"/game vacation days:5" in one server pauses her deadlines in all servers' games;
"days:0" in another ends it everywhere, and no deadline moves into the past (before:
the second server's deadline went from +48 h to -72 h and the computer played her
turn at once)."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import Store
from tables import HOUR, Tables
from tests.test_slowplay import ALICE, BOB, Clock

SERVER_A, SERVER_B = 500, 600
DAY = 24 * HOUR


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def t(tmp_path: Path, clock: Clock):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "v.db"), clock=clock).open()
    yield Tables(store, clock=clock)
    await store.close()


async def her_game(t: Tables, guild_id: int) -> int:
    """A game in ``guild_id`` where Alice (the host, seat 1) is to act; 48 h deadlines."""
    settings = {"deadline_hours": 48, "reminder_hours": 0}
    lobby = await t.create(ALICE, "alice", "test-race", seed=4, guild_id=guild_id, settings=settings)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    row = await t.store.get(lobby.game_id)
    assert row is not None and row.state is not None and row.seats[row.state["turn"] % 2].user_id == ALICE
    return lobby.game_id


async def her_deadline(t: Tables, gid: int, clock: Clock) -> float:
    """Hours from now to Alice's deadline in game ``gid``."""
    (due,) = [d for _i, _s, k, d in await t.store.timers_of(gid) if k == "deadline"]
    return (due - clock.now) / HOUR


async def test_a_vacation_started_in_one_server_pauses_her_deadlines_in_every_server(
    t: Tables, clock: Clock
) -> None:
    a, b = await her_game(t, SERVER_A), await her_game(t, SERVER_B)
    await t.set_vacation(ALICE, 5 * 24)  # "/game vacation days:5" in server A
    assert await her_deadline(t, a, clock) == pytest.approx(5 * 24 + 48)
    assert await her_deadline(t, b, clock) == pytest.approx(5 * 24 + 48), "server B's deadline did not pause"
    clock.now += 3 * DAY
    assert await t.fire_due() == [], "a deadline fired while she was away"
    assert len(await t.store.log(b)) == 0


async def test_back_in_another_server_ends_it_everywhere_without_deadlines_in_the_past(
    t: Tables, clock: Clock
) -> None:
    a, b = await her_game(t, SERVER_A), await her_game(t, SERVER_B)
    await t.set_vacation(ALICE, 5 * 24)  # in server A
    clock.now += HOUR
    await t.set_vacation(ALICE, 0)  # "days:0" an hour later, in server B
    # Her clocks stood still for the hour she was away: 48 h are left, in both servers.
    assert await her_deadline(t, a, clock) == pytest.approx(48)
    assert await her_deadline(t, b, clock) == pytest.approx(48)
    assert await t.fire_due() == [], "the computer played her turn at once"
    assert len(await t.store.log(a)) == len(await t.store.log(b)) == 0
    assert await t.store.vacation(ALICE) is None


async def test_ending_a_vacation_never_moves_a_deadline_into_the_past(t: Tables, clock: Clock) -> None:
    a = await her_game(t, SERVER_A)
    await t.set_vacation(ALICE, 5 * 24)
    # A deadline that was shorter than the time left away (a host's /game extend
    # undone, a deadline armed by an older release): back now gives it an hour.
    (timer_id, _s, _k, _d) = [x for x in await t.store.timers_of(a) if x[2] == "deadline"][0]
    await t.store.reschedule(timer_id, clock.now + 2 * HOUR)
    await t.set_vacation(ALICE, 0)
    assert await her_deadline(t, a, clock) == pytest.approx(1)
