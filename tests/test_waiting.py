"""Issue 37 item 4, "Every game waiting on me": across all servers, each game where
it is the player's turn, "with a jump link and the deadline"."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import Store
from tables import HOUR, Tables
from tables.waiting import MORE, Waiting, WaitingGame

ALICE, BOB, CAROL = 11, 22, 33
HOME, CLUB = 500 << 22, 900 << 22  # two servers


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def started(t: Tables, guild: int, thread: int, first: int, other: int, deadline: float = 0.0) -> int:
    """A Race to Ten game in ``guild`` whose first turn is ``first``'s."""
    settings = {"deadline_hours": deadline} if deadline else None
    lobby = await t.create(first, f"u{first}", "test-race", seed=4, guild_id=guild, settings=settings)
    await t.join(lobby.game_id, other, f"u{other}")
    await t.start(lobby.game_id, first)
    await t.set_refs(lobby.game_id, thread_id=thread)
    return lobby.game_id


@pytest.fixture
async def t(tmp_path: Path, db_target: str):  # type: ignore[no-untyped-def]
    clock = Clock()
    store = await Store(db_target, clock=clock).open()
    tables = Tables(store, clock=clock)
    tables.clock_for_test = clock  # type: ignore[attr-defined]
    yield tables
    await store.close()


async def test_waiting_lists_my_turns_in_every_server_with_links_and_deadlines(t: Tables) -> None:
    """Alice's turn in a game of each server, Bob's turn in a third: she sees the two,
    the one with a deadline first, each with its thread's jump link; Bob sees his."""
    calm = await started(t, HOME, 7001, ALICE, BOB)
    t.clock_for_test.now += HOUR  # type: ignore[attr-defined]
    rushed = await started(t, CLUB, 7002, ALICE, CAROL, deadline=12)
    bobs = await started(t, HOME, 7003, BOB, ALICE)

    mine = await t.waiting(ALICE)
    assert [g.game_id for g in mine.games] == [rushed, calm], "the game with a deadline comes first"
    first, second = mine.games
    assert first.url == f"https://discord.com/channels/{CLUB}/7002"
    assert second.url == f"https://discord.com/channels/{HOME}/7001"
    due = int(1_000_000 + HOUR + 12 * HOUR)
    text = mine.text(servers={CLUB: "Board Game Club"})
    assert mine.title == "2 games are waiting on you"
    assert f"[Race to Ten #{rushed}](https://discord.com/channels/{CLUB}/7002) in Board Game Club" in text
    assert f"deadline <t:{due}:R>" in text, "the deadline, which Discord shows as 'in 12 hours'"
    assert f"[Race to Ten #{calm}](https://discord.com/channels/{HOME}/7001): your turn since" in text
    assert "no deadline" in text
    assert f"#{bobs}" not in text, "a game waiting on somebody else is not listed"

    assert [g.game_id for g in (await t.waiting(BOB)).games] == [bobs]


async def test_a_game_leaves_the_list_when_my_turn_ends(t: Tables) -> None:
    gid = await started(t, HOME, 7001, ALICE, BOB)
    assert [g.game_id for g in (await t.waiting(ALICE)).games] == [gid]
    await t.act(gid, ALICE, "2")
    assert (await t.waiting(ALICE)).games == ()
    assert (await t.waiting(ALICE)).text().startswith("**No game is waiting on you.**")
    assert [g.game_id for g in (await t.waiting(BOB)).games] == [gid]


async def test_a_paused_game_says_so_and_comes_last(t: Tables) -> None:
    paused = await started(t, HOME, 7001, ALICE, BOB)
    t.clock_for_test.now += HOUR  # type: ignore[attr-defined]
    playable = await started(t, CLUB, 7002, ALICE, BOB)
    await t.pause(paused, ALICE)
    mine = await t.waiting(ALICE)
    assert [g.game_id for g in mine.games] == [playable, paused]
    assert mine.text().splitlines()[-1].endswith("paused by the host")


def test_many_games_fit_one_message_and_the_rest_are_counted() -> None:
    games = tuple(WaitingGame(k, "Dungeon Lair", HOME, 10**18 + k, 1e9, None, False) for k in range(60))
    text = Waiting(ALICE, games).text()
    assert len(text) <= 1900
    lines = text.splitlines()
    shown = len(lines) - 2
    assert 10 < shown < 60
    assert lines[-1] == MORE.format(60 - shown), "the games left out are counted, none cut in half"
