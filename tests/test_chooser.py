"""The move chooser on the tables layer (issue 21 item 8): a move made only by
chooser steps, Back, stale and old clicks, a restart in the middle of a move,
Done exactly once, long steps paged."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine import core
from engine.core import IllegalAction
from store import Store
from tables import Step, TableError, Tables
from tests.fakegame import Race

ALICE, BOB = 11, 22


@pytest.fixture
async def tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "c.db")).open()
    yield Tables(store)
    await store.close()


async def human_vs_ai(t: Tables, key: str, seed: int = 3) -> int:
    game = core.get(key)
    lobby = await t.create(ALICE, "alice", key, seed=seed)
    for _ in range(game.min_players - 1):
        await t.add_ai(lobby.game_id, ALICE)
    await t.start(lobby.game_id, ALICE)
    return lobby.game_id


async def walk(t: Tables, gid: int, user: int, rnd: random.Random, target: list[str] | None = None) -> Step:
    """Narrow a move by chooser clicks only: follow ``target``'s tokens, or pick at
    random, until the step names a complete move. Returns that step."""
    row = await t.store.get(gid)
    assert row is not None
    panel = await t.panel(gid, user, row.version)
    step = panel.step
    if step is None:  # the moves fit as buttons; the chooser still answers step by step
        step = await t.choose(gid, user, row.version, 0, "page", 0)
    for _ in range(50):
        if step.update is not None:  # the pick completed the move: played at once, no Done
            return step
        if target is not None and step.depth == len(target):
            assert step.done is not None
            return step
        if target is None and step.done is not None and (not step.options or rnd.random() < 0.5):
            return step
        assert step.options, f"a step with nothing to choose and no Done: {step!r}"
        assert all(0 < len(label) <= 80 for _tok, label in step.options)
        if target is not None:
            tokens = [tok for tok, _label in step.options]
            index = tokens.index(target[step.depth])
        else:
            index = rnd.randrange(len(step.options))
        step = await t.choose(gid, user, row.version, step.depth, "pick", index)
    raise AssertionError("the chooser never named a complete move")


@pytest.mark.parametrize("key", [k for k in core.MODULES if not k.startswith("test-")])
async def test_every_game_can_be_played_by_chooser_steps_only(key: str, tables: Tables) -> None:
    """Issue 21 item 8: "A move must never need typing" - every move of this test is
    made by chooser clicks and Done, for the human seat of each game."""
    if key not in core.available():
        pytest.skip(f"{key} is not installed")
    game = core.get(key)
    gid = await human_vs_ai(tables, key)
    rnd = random.Random(key)
    for n in range(6):
        row = await tables.store.get(gid)
        assert row is not None and row.state is not None
        if row.status != "active":
            break
        seat = row.seat_of(ALICE)
        assert seat in game.to_act(row.state), "AI seats move at once; the game waits for alice"
        target = None
        if n % 2 == 0:  # half the moves aim at a random legal move through its segments
            action = rnd.choice(game.legal_actions(row.state, seat))
            target = [tok for tok, _label in game.segments(row.state, seat, action)]
        moves = len(await tables.store.log(gid))
        step = await walk(tables, gid, ALICE, rnd, target)
        if step.update is not None:
            update = step.update
        else:
            assert step.options, "Done is offered only while the move could still be extended"
            update = await tables.choose_done(gid, ALICE, row.version, step.depth)
        log = await tables.store.log(gid)
        assert len(log) > moves and log[moves][1] == seat
        if target is not None:
            assert log[moves][2] == game.format(action)
        assert update.version > row.version
        assert await tables.store.get_draft(gid, ALICE) is None, "Done clears the half-made move"


class Wide(Race):
    """60 moves in one step: more than a select menu holds."""

    key = "test-wide"

    def legal_actions(self, state: dict, seat: int) -> list[int]:
        return list(range(1, 61)) if seat in self.to_act(state) else []

    def _apply(self, state: dict, seat: int, action: int) -> list:
        if action not in range(1, 61):
            raise IllegalAction("Choose 1 to 60.")
        return super()._apply(state, seat, 1 + action % 3)

    def parse(self, text: str) -> int:
        if not text.strip().isdecimal():
            raise IllegalAction("Type a number.")
        return int(text)

    def describe(self, state: dict, action: int) -> str:
        return f"Take {action}, Player {state['turn'] % state['seats'] + 1}"

    def segments(self, state: dict, seat: int, action: int) -> list[tuple[str, str]]:
        return [(f"t{(action - 1) // 10}", f"Tens {(action - 1) // 10}"), (str(action), f"Take {action}")]


@pytest.fixture
def wide() -> Any:
    from render import register
    from tests import fakegame

    core._loaded[Wide.key] = Wide()
    core.MODULES.setdefault(Wide.key, "fakegame")
    register(Wide.key, fakegame.RENDERER)
    return Wide.key


async def two_humans(t: Tables, key: str) -> tuple[int, int, int]:
    lobby = await t.create(ALICE, "alice", key, seed=4)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    row = await t.store.get(lobby.game_id)
    assert row is not None and row.state is not None
    seat = row.state["turn"] % 2
    return lobby.game_id, row.seats[seat].user_id, row.version  # type: ignore[return-value]


async def test_back_stale_and_old_clicks(tables: Tables, wide: str) -> None:
    gid, user, ver = await two_humans(tables, wide)
    panel = await tables.panel(gid, user, ver)
    assert panel.buttons == [] and panel.step is not None, "60 moves do not fit as buttons"
    first = panel.step
    assert [tok for tok, _l in first.options] == [f"t{k}" for k in range(6)] and first.done is None
    step = await tables.choose(gid, user, ver, 0, "pick", 2)
    assert step.depth == 1 and step.path == ["Tens 2"] and len(step.options) == 10
    assert step.options[0] == ("21", "Take 21")
    with pytest.raises(TableError, match="already answered"):
        await tables.choose(gid, user, ver, 0, "pick", 1)  # a click on the first reply
    with pytest.raises(TableError, match="earlier board"):
        await tables.choose(gid, user, ver - 1, 1, "pick", 1)
    back = await tables.choose(gid, user, ver, 1, "back")
    assert (back.depth, back.options, back.path) == (0, first.options, [])
    assert await tables.store.get_draft(gid, user) == (ver, [])
    with pytest.raises(TableError, match="nothing to go back"):
        await tables.choose(gid, user, ver, 0, "back")
    with pytest.raises(TableError, match="not complete"):
        await tables.choose_done(gid, user, ver, 0)
    with pytest.raises(TableError, match="not your turn|not a player"):
        await tables.choose(gid, BOB if user == ALICE else ALICE, ver, 0, "pick", 0)
    assert await tables.store.log(gid) == [], "nothing is saved as a move before Done"


async def test_a_pick_that_completes_the_move_plays_it_once_and_names_the_players(
    tables: Tables, wide: str
) -> None:
    """Issue 26 item 3: "A pick that completes a move plays it; Done is shown only
    while the move could still be extended"."""
    gid, user, ver = await two_humans(tables, wide)
    first = await tables.choose(gid, user, ver, 0, "pick", 0)
    assert first.done is None and len(first.options) == 10
    # Issue 40 item 2: each option says what THAT pick plays, not one sentence for all ten.
    assert [h.split(",")[0] for h in first.hints] == [f"Plays at once: Take {k}" for k in range(1, 11)]
    step = await tables.choose(gid, user, ver, 1, "pick", 4)
    assert step.update is not None, "the pick completed the move: played, no Done"
    assert [n for _q, _s, n in await tables.store.log(gid)] == ["5"]
    assert step.update.post and step.update.turn and step.update.turn[0].startswith("Take 5, ")
    assert "Player" not in step.update.turn[0] and step.update.turn[0].split(", ")[1] in ("alice", "bob")
    with pytest.raises(TableError, match="earlier board"):
        await tables.choose(gid, user, ver, 1, "pick", 4)
    with pytest.raises(TableError, match="earlier board"):
        await tables.choose_done(gid, user, ver, 2)
    assert [n for _q, _s, n in await tables.store.log(gid)] == ["5"]


async def test_a_long_step_is_paged_25_at_a_time(tables: Tables, wide: str, monkeypatch: Any) -> None:
    monkeypatch.setattr(Wide, "segments", lambda self, s, seat, a: [(str(a), f"Take {a}")])
    gid, user, ver = await two_humans(tables, wide)
    panel = await tables.panel(gid, user, ver)
    assert panel.step is not None
    step = panel.step
    assert (step.pages, len(step.shown), step.shown[0][0]) == (3, 25, "1")
    last = await tables.choose(gid, user, ver, 0, "page", 2)
    assert last.page == 2 and [tok for tok, _l in last.shown] == [str(k) for k in range(51, 61)]
    played = await tables.choose(gid, user, ver, 0, "pick", 55)
    assert played.update is not None and played.update.turn[0].startswith("Take 56")


async def test_a_half_made_move_survives_a_restart_until_the_game_moves_on(tmp_path: Path, wide: str) -> None:
    path = str(tmp_path / "r.db")
    store = await Store(path).open()
    try:
        t = Tables(store)
        gid, user, ver = await two_humans(t, wide)
        await t.choose(gid, user, ver, 0, "pick", 3)
    finally:
        await store.close()  # the restart; closed in finally, as an open store keeps pytest from ending

    store = await Store(path).open()
    try:
        t = Tables(store)
        panel = await t.panel(gid, user, ver)
        assert panel.step is not None and panel.step.depth == 1 and panel.step.path == ["Tens 3"]
        step = await t.choose(gid, user, ver, 1, "pick", 0)
        assert step.update is not None, "the pick completed the move and played it"
        other = BOB if user == ALICE else ALICE
        row = await store.get(gid)
        assert row is not None
        await t.choose(gid, other, row.version, 0, "pick", 1)
        assert await store.get_draft(gid, other) == (row.version, ["t1"])
        await t.act(gid, other, "7")  # typed instead: the game moves on
        await t.act(gid, user, "1")
        row = await store.get(gid)
        assert row is not None
        panel = await t.panel(gid, other, row.version)
        assert panel.step is not None and panel.step.depth == 0, "a draft of an earlier version is dropped"
        assert await store.get_draft(gid, other) is None
    finally:
        await store.close()


async def test_a_preview_image_follows_each_step(tables: Tables, wide: str, monkeypatch: Any) -> None:
    import render
    from engine.core import Choice
    from tests import fakegame

    drawn: list[tuple[Any, list[str]]] = []

    def preview(view: dict, data: dict, names: list[str]) -> bytes:
        drawn.append((data, names))
        return fakegame.render(view)

    def chooser(self: Wide, state: dict, seat: int, prefix: list[str]) -> Choice:
        # A game building its move step by step: a few options each step, a preview after each.
        if len(prefix) < 3:
            return Choice("Pick a digit.", [(str(d), f"Digit {d}") for d in (1, 2)], None, {"path": prefix})
        if len(prefix) < 4:  # the move could still be extended: Done plays it as it is
            return Choice("Done?", [("9", "Digit 9")], int("".join(prefix)) % 60 or 1, {"path": prefix})
        return Choice("Done.", [], int("".join(prefix)) % 60 or 1, {"path": prefix})

    monkeypatch.setattr(Wide, "chooser", chooser)
    monkeypatch.setitem(
        render.REGISTRY, Wide.key, render.Renderer(board=fakegame.RENDERER.board, preview=preview)
    )
    gid, user, ver = await two_humans(tables, wide)
    panel = await tables.panel(gid, user, ver)
    assert panel.step is not None and panel.step.preview is not None
    for depth in range(3):
        step = await tables.choose(gid, user, ver, depth, "pick", 1)
        assert step.preview and step.preview.startswith(b"\x89PNG")
    assert step.done is not None and step.options == [("9", "Digit 9")]
    assert drawn[-1] == ({"path": ["2", "2", "2"]}, ["alice", "bob"])
    await tables.choose_done(gid, user, ver, 3)
    assert [n for _q, _s, n in await tables.store.log(gid)] == [str(222 % 60)]


class Bids(Wide):
    """Every seat picks a number 1-60 at once (two chooser steps: tens, then the number);
    a number one seat took is gone for the others. The game ends once all have picked."""

    key = "test-bids"

    def _setup(self, state: dict, setup: Any) -> None:
        super()._setup(state, setup)
        state.update(picked={})

    def to_act(self, state: dict) -> set[int]:
        return set(range(state["seats"])) - {int(s) for s in state["picked"]}

    def legal_actions(self, state: dict, seat: int) -> list[int]:
        taken = set(state["picked"].values())
        return [n for n in range(1, 61) if n not in taken] if seat in self.to_act(state) else []

    def _apply(self, state: dict, seat: int, action: int) -> list:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("That number is taken or out of range.")
        state["picked"][str(seat)] = action
        if not self.to_act(state):
            state["winner"] = max(state["picked"], key=lambda s: state["picked"][s])
            state["winner"] = int(state["winner"])
        return []

    def describe(self, state: dict, action: int) -> str:
        return f"Take {action}"


@pytest.fixture
def bids() -> Any:
    from render import register
    from tests import fakegame

    core._loaded[Bids.key] = Bids()
    core.MODULES.setdefault(Bids.key, "fakegame")
    register(Bids.key, fakegame.RENDERER)
    return Bids.key


async def test_a_draft_outlives_another_seats_move_while_it_still_fits(tables: Tables, bids: str) -> None:
    """Simultaneous choosing: Bob's move no longer throws away Alice's half-made move;
    her Done plays it once if it is still legal; a draft the move made impossible is
    dropped with one sentence."""
    lobby = await tables.create(ALICE, "alice", bids, seed=4)
    await tables.join(lobby.game_id, BOB, "bob")
    await tables.join(lobby.game_id, 44, "carol")
    await tables.join(lobby.game_id, 55, "dave")
    await tables.start(lobby.game_id, ALICE)
    gid = lobby.game_id
    row = await tables.store.get(gid)
    assert row is not None
    ver = row.version
    # Alice: tens 2; Carol: a two-step draft naming 3 (Bob will take 3 first).
    await tables.choose(gid, ALICE, ver, 0, "pick", 2)
    await tables.store.set_draft(gid, 44, ver, ["t0", "3"])
    await tables.act(gid, BOB, "3")  # the version moves on
    # Alice's pick on her old reply: her tens still stand; the pick is shown again, not taken blind.
    again = await tables.choose(gid, ALICE, ver, 1, "pick", 4)
    assert again.update is None and again.note is not None and "still stand" in again.note
    assert [n for _s, _seat, n in await tables.store.log(gid)] == ["3"]
    played = await tables.choose(gid, ALICE, again.version, 1, "pick", 4)
    assert played.update is not None, "the pick completed the move: played once, no Done"
    log = await tables.store.log(gid)
    assert [(seat, note) for _s, seat, note in log] == [(1, "3"), (0, "25")]
    assert await tables.store.get_draft(gid, ALICE) is None
    with pytest.raises(TableError):  # a second pick plays nothing
        await tables.choose(gid, ALICE, again.version, 1, "pick", 4)
    assert len(await tables.store.log(gid)) == 2
    # Carol's draft named 3, which Bob took: dropped with one sentence; nothing played.
    with pytest.raises(TableError, match="no longer fits"):
        await tables.choose_done(gid, 44, ver, 2)
    assert await tables.store.get_draft(gid, 44) is None and len(await tables.store.log(gid)) == 2
    # A pick on an old reply while the draft still fits is shown again, not taken blind.
    await tables.choose(gid, 44, played.version, 0, "pick", 1)  # tens 1
    await tables.act(gid, 55, "12")  # Dave: the version moves on, 11 is still free
    again = await tables.choose(gid, 44, played.version, 1, "pick", 0)
    assert again.depth == 1 and again.note is not None and "still stand" in again.note
    assert await tables.store.get_draft(gid, 44) is not None
    step = await tables.choose(gid, 44, again.version, 1, "pick", 0)
    assert step.update is not None
    assert [note for _s, _seat, note in await tables.store.log(gid)] == ["3", "25", "12", "11"]


async def test_dungeon_lords_orders_draft_survives_the_other_lords_move(tables: Tables) -> None:
    """The case the chooser's drafts were fixed for: Dungeon Lords lords choose at
    once; one lord's move keeps the other's half-made choice, which Done then plays once."""
    if "dungeon-lords" not in core.available():
        pytest.skip("dungeon-lords is not installed")
    game = core.get("dungeon-lords")
    lobby = await tables.create(ALICE, "alice", "dungeon-lords", seed=5)
    await tables.join(lobby.game_id, BOB, "bob")
    await tables.start(lobby.game_id, ALICE)
    gid = lobby.game_id
    row = await tables.store.get(gid)
    assert row is not None and row.state is not None
    assert game.to_act(row.state) == {0, 1}, "both lords choose at once"
    for _ in range(40):  # on to the first choice both lords build in several steps (the orders)
        if game.to_act(row.state) == {0, 1}:
            first = await tables.panel(gid, ALICE, row.version)
            assert first.step is not None and first.header, "the seat's own state heads its turn message"
            then = [
                i
                for i, (tok, _label) in enumerate(first.step.options)
                if game.chooser(row.state, 0, [tok]).options
            ]
            if then:
                break
        for user in (ALICE, BOB):
            row = await tables.store.get(gid)
            assert row is not None and row.state is not None
            seat = row.seat_of(user)
            if seat in game.to_act(row.state):
                await tables.act(gid, user, game.format(game.legal_actions(row.state, seat)[0]))
        row = await tables.store.get(gid)
        assert row is not None and row.state is not None
    else:
        raise AssertionError("the lords never built a move in several steps")
    index = then[0]
    first_step = await tables.choose(gid, ALICE, row.version, 0, "pick", index)
    assert first_step.update is None and first_step.depth == 1
    await tables.act(gid, BOB, game.format(game.legal_actions(row.state, 1)[0]))
    panel = await tables.panel(gid, ALICE, row.version)
    assert panel.step is not None and panel.step.path == first_step.path and panel.step.depth == 1
    assert panel.step.note is not None and "still stand" in panel.step.note
    step, ver = panel.step, panel.version
    while step.update is None:
        step = await tables.choose(gid, ALICE, ver, step.depth, "pick", 0)
        ver = step.version
    seats = [seat for _q, seat, _n in await tables.store.log(gid)]
    assert seats[-2:] == [1, 0], seats
