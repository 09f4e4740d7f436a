"""Play again (issue 41) in the tables layer: the next game of a table, seats turned
by one, its people asked to confirm; the end-to-end test by clicks is in
tests/e2e/test_e2e_monster_inn.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from store import SeatRow, Store
from tables import TableError, Tables
from tests.test_ratings import finish

ANN, BOB, CID = 21, 22, 23


@pytest.fixture
async def t(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "again.db")).open()
    yield Tables(store)
    await store.close()


def table(*who: int | str) -> list[SeatRow]:
    return [
        SeatRow(i, None, f"Bot {i}", True, w) if isinstance(w, str) else SeatRow(i, w, f"p{w}", False)
        for i, w in enumerate(who)
    ]


async def test_play_again_seats_the_same_table_turned_by_one(t: Tables) -> None:
    """The issue: "each person already seated and asked to confirm with one click ...
    Seat order rotates so the same person does not always start"."""
    old = await finish(t.store, "dungeon-lair", table(ANN, "hard", BOB), [[0], [1], [2]], 1000.0)
    again = await t.play_again(old, BOB, "Bob")
    lobby = again.lobby
    assert again.new and again.channel_id == 5 and lobby.host_id == BOB
    assert [(s.user_id, s.is_ai, s.ai_level) for s in lobby.seats] == [
        (None, True, "hard"),
        (BOB, False, None),
        (ANN, False, None),
    ]
    assert lobby.waiting == [ANN] and "p21 (to confirm)" in lobby.text and "I'm in" in lobby.text
    # Ann presses Play again too, on the same final board: the lobby Bob opened.
    same = await t.play_again(old, ANN, "Ann")
    assert not same.new and same.lobby.game_id == lobby.game_id
    with pytest.raises(TableError, match="Only the players"):
        await t.play_again(old, CID, "Cid")
    confirmed = await t.confirm(lobby.game_id, ANN)
    assert confirmed.waiting == [] and "to confirm" not in confirmed.text
    with pytest.raises(TableError, match="in already"):
        await t.confirm(lobby.game_id, ANN)


async def test_an_old_board_plays_again_only_while_its_game_is_the_tables_latest(t: Tables) -> None:
    first = await finish(t.store, "dungeon-lair", table(ANN, BOB), [[0], [1]], 1000.0)
    await finish(t.store, "dungeon-lair", table(BOB, ANN), [[1], [0]], 2000.0)
    with pytest.raises(TableError, match="newer game"):
        await t.play_again(first, ANN, "Ann")
    # Another game at another table (another game kind) does not count.
    other = await finish(t.store, "monster-inn", table(ANN, BOB, CID), [[0], [1], [2]], 3000.0)
    assert (await t.play_again(other, CID, "Cid")).new


async def test_start_opens_the_seats_of_who_did_not_confirm(t: Tables) -> None:
    """ "the host may start once the people present have confirmed (the others' seats go back to open)" """
    old = await finish(t.store, "dungeon-lair", table(ANN, BOB, CID), [[0], [1], [2]], 1000.0)
    lobby = (await t.play_again(old, ANN, "Ann")).lobby
    with pytest.raises(TableError, match="did not confirm yet; without them"):
        await t.start(lobby.game_id, ANN, run_ai=False)  # Ann alone is too few
    assert (await t.lobby(lobby.game_id)).waiting == [BOB, CID]  # nothing changed
    await t.join(lobby.game_id, CID, "Cid")  # Join on a kept seat confirms it
    await t.start(lobby.game_id, ANN, run_ai=False)
    row = await t._load(lobby.game_id)
    # Turned by one (Ann, Bob, Cid -> Bob, Cid, Ann), Bob's seat open again.
    assert row.status == "active" and [s.user_id for s in row.seats] == [CID, ANN]


def test_the_final_board_carries_play_again_that_survives_a_restart() -> None:
    """A DynamicItem: the custom_id alone (the game id) rebuilds the button after a restart."""
    import asyncio

    from cogs.posting import board_view
    from cogs.rematch import REMATCH_ITEMS, PlayAgainButton
    from tables import Update

    async def build() -> tuple[list[dict], list[dict]]:
        over = board_view(Update(game_id=5, version=3, thread_id=1, text="", over=True))
        running = board_view(Update(game_id=5, version=3, thread_id=1, text="", choose=True))
        return (
            [c for row in over.to_components() for c in row["components"]],
            [c for row in running.to_components() for c in row["components"]],
        )

    done, running = asyncio.run(build())
    assert [(c["label"], c["custom_id"]) for c in done] == [("Play again", "lk:again:5")]
    assert "Play again" not in [c["label"] for c in running]
    assert PlayAgainButton in REMATCH_ITEMS
    assert PlayAgainButton.__discord_ui_compiled_template__.fullmatch("lk:again:5")
