"""Deadlines own turns (issue 26 item 4, issue 27 Build 3) with a fake clock, over
every installed game and a game whose turns have several moves: a fired deadline
plays the seat's whole turn, and no seat that must act is ever without a deadline
(or a reminder) while deadlines are on; one board a turn throughout."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import core
from store import Store
from tables import HOUR, Tables
from tests.fakegame import Turns

GUILD = 700
USERS = [101, 102, 103, 104]


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


async def check_every_actor_has_timers(t: Tables, gid: int) -> None:
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    if row.status != "active":
        return
    acting = core.get(row.game_key).to_act(row.state)
    timers = {(seat, kind) for _i, seat, kind, _due in await t.store.timers_of(gid)}
    for seat in acting:
        assert (seat, "deadline") in timers, f"{row.game_key}: seat {seat} must act and has no deadline"
        assert (seat, "reminder") in timers, f"{row.game_key}: seat {seat} must act and has no reminder"


@pytest.mark.parametrize("key", [*core.available(), Turns.key])
async def test_no_seat_that_must_act_is_ever_without_a_deadline(key: str, tmp_path: Path) -> None:
    game = core.get(key)
    clock = Clock()
    store = await Store(str(tmp_path / "d.db"), clock=clock).open()
    t = Tables(store, clock=clock)
    await t.start_tracking()
    rnd = random.Random(key)
    players = max(2, game.min_players)
    try:
        lobby = await t.create(
            USERS[0],
            "p1",
            key,
            seed=11,
            guild_id=GUILD,
            settings={"deadline_hours": 1, "reminder_hours": 0.5},
        )
        gid = lobby.game_id
        for k in range(1, players):
            await t.join(gid, USERS[k], f"p{k + 1}")
        await t.set_refs(gid, thread_id=9100)
        await t.mark_posted(await t.start(gid, USERS[0]))
        fired = boards = 0
        for _step in range(80):
            await check_every_actor_has_timers(t, gid)
            row = await t.store.get(gid)
            assert row is not None and row.state is not None
            if row.status != "active":
                break
            before_turn = game.turn_id(row.state)
            if rnd.random() < 0.5:  # a person moves
                seat = rnd.choice(sorted(game.to_act(row.state)))
                action = rnd.choice(game.legal_actions(row.state, seat))
                update = await t.act(gid, row.seats[seat].user_id, game.format(action))  # type: ignore[arg-type]
                if update.post and await t.mark_posted(update):
                    boards += 1
                continue
            timers = await t.store.timers_of(gid)
            assert timers, "a seat must act, so a timer is running"
            # One deadline at a time (several seats' run out together), so that what
            # each did can be checked: the others wait a minute more, still armed.
            first = min(timers, key=lambda x: (x[3], x[2] != "deadline"))
            for timer_id, _seat, _kind, due in timers:
                if timer_id != first[0] and due <= first[3] + 1:
                    await t.store.reschedule(timer_id, first[3] + 60)
            clock.now = max(clock.now, first[3]) + 1
            for notice in await t.fire_due():
                if notice.kind != "deadline":
                    continue
                fired += 1
                after = await t.store.get(gid)
                assert after is not None and after.state is not None
                seat = next(s for s in range(players) if row.seats[s].name in notice.text)
                still = seat in game.to_act(after.state) and game.turn_id(after.state) == before_turn
                assert not still or after.status != "active", (
                    f"{key}: the deadline played one step; seat {seat} still owes the same turn"
                )
                if notice.update is not None and await t.mark_posted(notice.update):
                    boards += 1
        await check_every_actor_has_timers(t, gid)
        assert fired > 0, "no deadline fired: the test proved nothing"
        assert await t.owed() == [], "every turn's board went out"
    finally:
        await store.close()


async def test_a_deadline_plays_the_whole_turn(tmp_path: Path) -> None:
    """Issue 27 item 2: "When a deadline fires, the computer plays one action; if the
    same seat still owes the rest of its turn ... that seat has no deadline"."""
    clock = Clock()
    store = await Store(str(tmp_path / "w.db"), clock=clock).open()
    t = Tables(store, clock=clock)
    lobby = await t.create(
        USERS[0], "p1", Turns.key, seed=3, settings={"deadline_hours": 2, "reminder_hours": 0}
    )
    await t.join(lobby.game_id, USERS[1], "p2")
    await t.start(lobby.game_id, USERS[0])
    gid = lobby.game_id
    row = await store.get(gid)
    assert row is not None and row.state is not None
    seat = row.state["turn"] % 2
    clock.now += 2 * HOUR + 1
    (notice,) = await t.fire_due()
    assert "had the AI play the turn" in notice.text and notice.update is not None
    log = await store.log(gid)
    assert [s for _q, s, _n in log] == [seat, seat], "both moves of the turn, not one"
    assert notice.update.ping == [USERS[1 - seat]]
    assert [(s, k) for _i, s, k, _d in await store.timers_of(gid)] == [(1 - seat, "deadline")]
    await store.close()


async def test_a_deadline_turn_is_played_at_the_servers_strength_outside_the_lock(tmp_path: Path) -> None:
    """Issue 30: "A deadline or takeover move uses the server's default", and the
    search runs in the pool, never inside the game's lock or a transaction: while
    the deadline's player thinks, the game's lock is free."""
    import asyncio

    from tables import thinking

    clock = Clock()
    store = await Store(str(tmp_path / "s.db"), clock=clock).open()
    seen: list[tuple[str, bool]] = []
    t: Tables

    def run(job: thinking.Job) -> object:
        seen.append((job.level, t._locks[gid].locked()))
        return thinking.easy(job)

    t = Tables(store, clock=clock, thinker=thinking.Thinker(0, run=run))
    await t.set_guild_settings(GUILD, {"ai_level": "hard"})
    lobby = await t.create(
        USERS[0], "p1", Turns.key, seed=3, guild_id=GUILD, settings={"deadline_hours": 2, "reminder_hours": 0}
    )
    gid = lobby.game_id
    await t.join(gid, USERS[1], "p2")
    await t.start(gid, USERS[0])
    clock.now += 2 * HOUR + 1
    (notice,) = await asyncio.wait_for(t.fire_due(), 30)
    assert "had the AI play the turn" in notice.text
    assert seen and all(level == "hard" for level, _ in seen), seen
    assert not any(locked for _, locked in seen), "a player thought while holding the game's lock"
    t.close()
    await store.close()
