"""One turn, one board (issue 26) on the tables layer: a board when the turn id
changes, its text summing up the turn; pings for whoever's turn begins, never for
the mover's own continuation; one board for a simultaneous phase; a person's only
move played for them (and said), unless the server turns it off; the private turn
message (header, the turn so far, the next step); a restart and a crash in the
middle of a turn; typed moves count as part of the turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import core
from store import Store
from tables import Tables, Update
from tests.fakegame import Turns

ALICE, BOB, CAROL = 11, 22, 33
KEY = Turns.key


@pytest.fixture
async def t(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "t.db")).open()
    tables = Tables(store)
    await tables.start_tracking()
    yield tables
    await store.close()


async def start(
    t: Tables, users: tuple[int, ...] = (ALICE, BOB), settings: dict[str, Any] | None = None
) -> int:
    lobby = await t.create(users[0], "alice", KEY, seed=4, settings=settings)
    for uid, name in zip(users[1:], ("bob", "carol"), strict=False):
        await t.join(lobby.game_id, uid, name)
    await t.set_refs(lobby.game_id, thread_id=5000 + lobby.game_id)
    update = await t.start(lobby.game_id, users[0])
    await t.mark_posted(update)
    return lobby.game_id


async def state(t: Tables, gid: int) -> tuple[Any, dict[str, Any]]:
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    return row, row.state


async def user_to_act(t: Tables, gid: int) -> int:
    row, st = await state(t, gid)
    seats = sorted(core.get(KEY).to_act(st))
    return row.seats[seats[0]].user_id  # type: ignore[no-any-return]


async def first_move_made(path: str) -> tuple[Store, Tables, int, int]:
    """A store at ``path`` holding a started game whose mover has made the first move
    of a two-move turn ("2"): the point the restart and crash tests stop the bot at."""
    store = await Store(path).open()
    t = Tables(store)
    await t.start_tracking()
    gid = await start(t)
    mover = await user_to_act(t, gid)
    await t.act(gid, mover, "2")
    return store, t, gid, mover


async def posted(t: Tables, update: Update, boards: list[Update]) -> None:
    """What cogs.posting.post_board does: only a board the thread is owed, once."""
    if update.post and await t.posted_version(update.game_id) < update.version:
        boards.append(update)
        await t.mark_posted(update)


async def test_a_turn_of_two_moves_posts_one_board_and_pings_the_next_seat(t: Tables) -> None:
    """Build 1: "the thread gets one board per turn, whose text sums up the turn's
    public moves in words, and pings exactly the people who must act next"."""
    gid = await start(t)
    mover = await user_to_act(t, gid)
    other = BOB if mover == ALICE else ALICE
    first = await t.act(gid, mover, "2")  # typed, like /play: part of the turn
    assert not first.post and first.png is None and first.ping == [], "no board inside a turn"
    assert first.next is not None and first.next.turn == ["Add 2"], "the turn so far, in words"
    assert first.next.header.startswith("Your card:"), "the seat's own state heads the message"
    assert await t.owed() == [], "a move inside a turn owes the thread nothing"
    second = await t.act(gid, mover, "5")
    assert second.post and second.png is not None and second.next is None
    assert "adds 2; the total is 2." in second.text and "marks the total low." in second.text
    assert "alice" in second.text and "Player 1" not in second.text, "names put in"
    assert second.ping == [other], "the next seat, never the mover"
    assert second.turn == ["Add 2", "Mark low"]


async def test_a_whole_game_posts_one_board_a_turn(t: Tables) -> None:
    gid = await start(t, (ALICE, BOB, CAROL))
    game = core.get(KEY)
    boards: list[Update] = []
    turns = 0
    while True:
        row, st = await state(t, gid)
        if row.status == "over":
            break
        seat = sorted(game.to_act(st))[0]
        user = row.seats[seat].user_id
        legal = game.legal_actions(st, seat)
        update = await t.act(gid, user, str(legal[len(boards) % len(legal)]))
        _row, after = await state(t, gid)
        changed = game.is_over(after) or game.turn_id(st) != game.turn_id(after)
        turns += changed
        assert update.post == changed, "a board exactly when the turn id changed"
        if not changed:
            assert update.ping == [] and update.png is None
        if update.post:
            assert user not in update.ping or seat in game.to_act(after), "the mover: only for a new turn"
        await posted(t, update, boards)
    assert len(boards) == turns and boards[-1].over and "Final scores" in boards[-1].text
    assert await t.owed() == []


async def test_a_simultaneous_phase_is_one_board(t: Tables) -> None:
    """Build 1: "In a simultaneous phase ... the board comes when the phase's choices
    are all in"; a secret vote never reaches the thread."""
    gid = await start(t, (ALICE, BOB, CAROL))
    game = core.get(KEY)
    while True:  # play on to the vote
        row, st = await state(t, gid)
        if st["stage"] == "vote":
            break
        seat = sorted(game.to_act(st))[0]
        update = await t.act(gid, row.seats[seat].user_id, str(game.legal_actions(st, seat)[0]))
        if update.post:
            await t.mark_posted(update)
    assert sorted(update.ping) == [ALICE, BOB, CAROL], "every voter is pinged when the vote begins"
    first = await t.act(gid, ALICE, "7")
    second = await t.act(gid, BOB, "6")
    assert not first.post and not second.post, "no board while the votes come in"
    assert first.next is None, "alice has voted: nothing more to choose"
    assert first.actor_private == "You voted nay in secret."
    last = await t.act(gid, CAROL, "6")
    assert last.post and "The votes are in: 2 aye, 1 nay." in last.text
    for who in ("alice", "bob", "carol"):
        assert f"{who} has voted." in last.text
    assert "nay in secret" not in last.text and "aye in secret" not in last.text


async def test_an_only_move_is_played_and_said_unless_turned_off(t: Tables) -> None:
    """Build 3: "A move that is a person's only legal action and reveals nothing to
    anyone is played for them at once and said in the board text (a server setting
    may turn this off)"."""
    gid = await start(t)
    mover = await user_to_act(t, gid)
    update = await t.act(gid, mover, "3")  # an odd total: "Mark high" is the only move
    assert update.post, "the only move ended the turn: the board comes at once"
    assert "had only one possible move; it was played for them." in update.text
    assert "marks the total high." in update.text
    log = await t.store.log_full(gid)
    assert [(n, u) for _q, _s, u, n, _at in log] == [("3", mover), ("4", None)]

    off = await start(t, settings={"auto_play": False})
    mover = await user_to_act(t, off)
    update = await t.act(off, mover, "3")
    assert not update.post and update.next is not None and update.next.buttons == [("Mark high", 0)]
    with pytest.raises(Exception, match="on or off"):
        await t.set_guild_settings(1, {"auto_play": "maybe"})


async def test_a_restart_in_the_middle_of_a_turn_resumes_it(tmp_path: Path) -> None:
    """Build 2: "A half-made turn survives a restart"; the turn's board still sums up
    the moves made before the restart (replayed: the kept news died with the process)."""
    path = str(tmp_path / "r.db")
    store, t, gid, mover = await first_move_made(path)
    await store.close()  # kill -9 between two moves of one turn: the first is saved

    store = await Store(path).open()
    t = Tables(store)
    row, _st = await state(t, gid)
    panel = await t.panel(gid, mover, row.version - 1)  # the board's button, one move old
    assert panel.turn == ["Add 2"] and panel.header.startswith("Your card:")
    assert await t.owed() == [], "nothing is owed in the middle of a turn"
    update = await t.act(gid, mover, "4")
    assert update.post and "adds 2; the total is 2." in update.text
    await t.mark_posted(update)
    assert await t.owed() == []
    await store.close()


async def test_a_crash_after_a_turns_last_move_posts_its_board_once(tmp_path: Path) -> None:
    path = str(tmp_path / "k.db")
    store, t, gid, mover = await first_move_made(path)
    await t.act(gid, mover, "4")  # the turn ends; the bot dies before the board is posted
    await store.close()

    store = await Store(path).open()
    t = Tables(store)
    assert await t.owed() == [gid]
    owed = await t.owed_board(gid)
    assert owed is not None and "2 moves since the last board" in owed.text
    assert "adds 2" in owed.text and "marks the total high" in owed.text
    assert await t.mark_posted(owed) and not await t.mark_posted(owed), "posted once"
    assert await t.owed() == [] and await t.owed_board(gid) is None
    await store.close()


async def test_after_the_ai_turn_the_mover_is_pinged_for_their_new_turn(t: Tables) -> None:
    """The turn id comes back to the same seat after the AI's turn: that is a new
    turn (a board, a ping), not a continuation of the old private message."""
    lobby = await t.create(ALICE, "alice", KEY, seed=4)
    await t.add_ai(lobby.game_id, ALICE)
    await t.mark_posted(await t.start(lobby.game_id, ALICE))
    gid = lobby.game_id
    assert await user_to_act(t, gid) == ALICE, "the AI moved at once"
    first = await t.act(gid, ALICE, "2")
    assert not first.post and first.next is not None
    end = await t.act(gid, ALICE, "5")
    assert end.post and end.next is None and end.ping == [ALICE], "a new turn: the board pings alice"
    assert "Bot 1 (Easy AI) adds 3" in end.text, "the AI's turn is summed up on the same board"


async def test_a_move_made_while_the_board_is_on_its_way_owes_no_second_board(t: Tables) -> None:
    """The next seat moves inside its turn before the previous turn's board is marked
    posted: that board covers it, the thread is owed nothing more."""
    gid = await start(t)
    mover = await user_to_act(t, gid)
    await t.act(gid, mover, "2")
    end = await t.act(gid, mover, "4")
    assert end.post
    nxt = await user_to_act(t, gid)
    inside = await t.act(gid, nxt, "2")  # before the board above reached the thread
    assert await t.mark_posted(end)
    assert await t.owed() == [] and await t.posted_version(gid) == inside.version
    boards: list[Update] = []
    await posted(t, inside, boards)
    assert boards == [], "the cog finds the thread up to date: one board for the two"
    last = await t.act(gid, nxt, "4")
    assert last.post and "the total is 4." in last.text, "the next board: the next turn"
    assert "the total is 2." not in last.text, "the turn the first board covered is not repeated"


async def test_undo_inside_a_turn_posts_no_board(t: Tables) -> None:
    """/undo of a move inside the mover's own turn, which no board showed: the thread
    gets nothing (one board a turn), the private turn message goes back to the turn as
    it stands, and the turn's board later sums up only the moves that stand."""
    gid = await start(t)
    mover = await user_to_act(t, gid)
    other = BOB if mover == ALICE else ALICE
    boards: list[Update] = []
    await posted(t, await t.act(gid, mover, "2"), boards)
    undone = await t.undo(gid, mover)
    assert not undone.post and undone.ping == [] and undone.png is None and undone.text == ""
    assert undone.next is not None and undone.next.turn == [], "the turn so far is empty again"
    assert [label for label, _i in undone.next.buttons] == ["Add 1", "Add 2", "Add 3"]
    assert undone.next.version == undone.version
    assert await t.owed() == [], "the thread owes nothing: it never saw the move"
    # The turn goes on: 1 makes the total odd, so the mark is the only move (played for them).
    await posted(t, await t.act(gid, mover, "1"), boards)
    (board,) = boards
    assert "adds 1" in board.text and "adds 2" not in board.text, board.text
    assert board.ping == [other]


async def test_undo_of_a_move_the_table_saw_posts_a_board(t: Tables) -> None:
    gid = await start(t)
    mover = await user_to_act(t, gid)
    boards: list[Update] = []
    await posted(t, await t.act(gid, mover, "2"), boards)
    await posted(t, await t.act(gid, mover, "5"), boards)  # ends the turn: its board is posted
    assert len(boards) == 1
    undone = await t.undo(gid, mover)
    assert undone.post and "took back their last move" in undone.text
    assert undone.next is None


def test_a_turn_played_for_a_seat_stops_when_turn_nine_gives_way_to_turn_ten() -> None:
    """The rest of a seat's turn played for it (a timer, the computer) ends with that turn,
    also where the next turn's id sorts before it as text ("turn 10" before "turn 9", as
    Monster Inn's "9:1" and "10:1"): the seat's next turn is its own to play. A seat that
    plays twice running: the game with one seat. (Found by mutation testing.)"""
    from tables.turns import play_turn

    game = Turns()
    state = game.new(2, seed=3)
    state.update(seats=1, turn=9, round=0, total=0)  # one seat; no vote after this turn
    assert game.turn_id(state) == "seat 0 turn 9"
    after, moves, _said, _passed = play_turn(game, state, 0, skip=False)
    assert len(moves) == 2 and after["turn"] == 10, "the add and the mark of turn 9, nothing of turn 10"


def test_a_move_built_step_by_step_is_played_for_a_person_only_when_it_is_their_only_move() -> None:
    """A game that builds its moves step by step lists only a sample of them: one move in
    the sample is no "only move" while the chooser still offers a choice, and the bot
    must not play it for the person. (Found by mutation testing.)"""
    from tables.turns import the_one_move

    class Sampled(Turns):
        key = "test-sampled"

        def legal_actions(self, state: Any, seat: int) -> list[int]:
            return super().legal_actions(state, seat)[:1]  # a sample of one

        def chooser(self, state: Any, seat: int, prefix: list[str]) -> core.Choice:
            moves = super().legal_actions(state, seat)
            return self.narrow(state, seat, moves, prefix, "Choose your move.")

    game = Sampled()
    state = game.new(2, seed=3)
    assert game.legal_actions(state, 0) == [1]
    assert the_one_move(game, state, 0) is None, "adding 1, 2 or 3 is a choice"
    state.update(stage="mark", total=5)  # an odd total may only be marked high
    assert the_one_move(game, state, state["turn"] % 2) == 4
