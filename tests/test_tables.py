"""The application layer with the fake game: who may act, refusals, races, replay."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine import core
from store import Store
from tables import TableError, Tables
from tests.playout import replay

ALICE, BOB, CAROL = 11, 22, 33


@pytest.fixture
async def tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    store = await Store(str(tmp_path / "t.db")).open()
    yield Tables(store)
    await store.close()


async def two_player_game(t: Tables) -> int:
    lobby = await t.create(ALICE, "alice", "test-race", seed=4)
    await t.join(lobby.game_id, BOB, "bob")
    await t.start(lobby.game_id, ALICE)
    return lobby.game_id


def who(t_state: dict) -> int:
    return t_state["turn"] % t_state["seats"]


async def acting_user(t: Tables, gid: int) -> tuple[int, int]:
    row = await t.store.get(gid)
    assert row is not None and row.state is not None
    seat = who(row.state)
    return row.seats[seat].user_id, row.seats[1 - seat].user_id  # type: ignore[return-value]


async def test_lobby_rules(tables: Tables) -> None:
    lobby = await tables.create(ALICE, "alice", "test-race")
    with pytest.raises(TableError, match="already seated"):
        await tables.join(lobby.game_id, ALICE, "alice")
    with pytest.raises(TableError, match="Only the host"):
        await tables.start(lobby.game_id, BOB)
    with pytest.raises(TableError, match="at least 2"):
        await tables.start(lobby.game_id, ALICE)
    with pytest.raises(TableError, match="not seated"):
        await tables.leave(lobby.game_id, BOB)
    await tables.join(lobby.game_id, BOB, "bob")
    await tables.leave(lobby.game_id, BOB)
    await tables.add_ai(lobby.game_id, ALICE)
    await tables.add_ai(lobby.game_id, ALICE)
    await tables.add_ai(lobby.game_id, ALICE)
    with pytest.raises(TableError, match="full"):
        await tables.join(lobby.game_id, CAROL, "carol")
    update = await tables.start(lobby.game_id, ALICE)
    assert update.png and update.png.startswith(b"\x89PNG")
    with pytest.raises(TableError, match="already started"):
        await tables.join(lobby.game_id, CAROL, "carol")


async def test_unknown_game_and_bad_option(tables: Tables) -> None:
    with pytest.raises(TableError, match="no game called"):
        await tables.create(ALICE, "alice", "chess")
    with pytest.raises(TableError, match="no option"):
        await tables.create(ALICE, "alice", "test-race", {"colour": "red"})
    with pytest.raises(TableError, match="must be one of"):
        await tables.create(ALICE, "alice", "test-race", {"open_cards": "maybe"})


async def test_refusals_change_nothing(tables: Tables) -> None:
    gid = await two_player_game(tables)
    before = await tables.store.get(gid)
    mover, waiter = await acting_user(tables, gid)
    with pytest.raises(TableError, match="not a player"):
        await tables.act(gid, CAROL, "1")
    with pytest.raises(TableError, match="not your turn"):
        await tables.act(gid, waiter, "1")
    with pytest.raises(TableError, match="Type 1, 2 or 3"):
        await tables.act(gid, mover, "seven")
    with pytest.raises(TableError, match="earlier board"):
        await tables.act(gid, mover, button=(before.version - 1, 0))  # type: ignore[union-attr]
    after = await tables.store.get(gid)
    assert after is not None and before is not None
    assert (after.version, after.state, after.moves) == (before.version, before.state, before.moves)
    assert await tables.store.log(gid) == []


async def test_play_to_the_end_and_replay(tables: Tables) -> None:
    gid = await two_player_game(tables)
    while True:
        row = await tables.store.get(gid)
        assert row is not None
        if row.status == "over":
            break
        mover, _ = await acting_user(tables, gid)
        update = await tables.act(gid, mover, button=(row.version, 2))
        assert update.png is not None
    assert row.result is not None and row.state is not None
    log = [(seat, note) for _seq, seat, note in await tables.store.log(gid)]
    rebuilt = replay(core.get("test-race"), 2, row.seed, row.options, log)
    assert rebuilt == row.state
    assert "Final scores" in update.text and "Winner" in update.text


async def test_concurrent_clicks_apply_once(tables: Tables) -> None:
    gid = await two_player_game(tables)
    row = await tables.store.get(gid)
    assert row is not None
    mover, _ = await acting_user(tables, gid)
    results = await asyncio.gather(
        *(tables.act(gid, mover, button=(row.version, 0)) for _ in range(10)), return_exceptions=True
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(ok) == 1 and len(refused) == 9
    assert len(await tables.store.log(gid)) == 1


async def test_private_news_goes_to_the_actor_only(tables: Tables) -> None:
    gid = await two_player_game(tables)
    mover, waiter = await acting_user(tables, gid)
    update = await tables.act(gid, mover, "1")
    row = await tables.store.get(gid)
    assert row is not None and row.state is not None
    seat = row.seat_of(mover)
    card = row.state["cards"][seat]
    assert update.actor_private == f"Your card is still {card}."
    assert "card is still" not in update.text
    assert update.ping == [waiter]
    text, _png = await tables.hand(gid, waiter)
    assert text.startswith("Your secret card is")


async def test_ai_seats_move_by_themselves(tables: Tables) -> None:
    lobby = await tables.create(ALICE, "alice", "test-race", seed=1)
    await tables.add_ai(lobby.game_id, ALICE)
    await tables.start(lobby.game_id, ALICE)
    for _ in range(20):
        row = await tables.store.get(lobby.game_id)
        assert row is not None and row.state is not None
        if row.status == "over":
            break
        assert row.seats[who(row.state)].user_id == ALICE, "the AI seat must already have moved"
        await tables.act(lobby.game_id, ALICE, "1")
    assert row.status == "over"


async def test_close_and_reopen_mid_game(tmp_path: Path) -> None:
    path = str(tmp_path / "r.db")
    store = await Store(path).open()
    t = Tables(store)
    gid = await two_player_game(t)
    mover, _ = await acting_user(t, gid)
    await t.act(gid, mover, "2")
    await store.close()
    store = await Store(path).open()
    t = Tables(store)
    mover, _ = await acting_user(t, gid)
    await t.act(gid, mover, "3")
    assert [n for _s, _seat, n in await store.log(gid)] == ["2", "3"]
    await store.close()


async def test_autocomplete_lists_legal_moves(tables: Tables) -> None:
    gid = await two_player_game(tables)
    mover, waiter = await acting_user(tables, gid)
    assert await tables.choices(gid, mover) == [("Add 1", "1"), ("Add 2", "2"), ("Add 3", "3")]
    assert await tables.choices(gid, mover, "2") == [("Add 2", "2")]
    assert await tables.choices(gid, waiter) == []


async def test_abandon_permissions(tables: Tables) -> None:
    gid = await two_player_game(tables)
    with pytest.raises(TableError, match="Only the host"):
        await tables.abandon(gid, BOB, is_admin=False)
    assert "abandoned" in await tables.abandon(gid, BOB, is_admin=True)
    with pytest.raises(TableError, match="abandoned"):
        await tables.act(gid, ALICE, "1")


async def test_move_choices_are_private_to_the_player_to_act(tables: Tables) -> None:
    gid = await two_player_game(tables)
    row = await tables.store.get(gid)
    assert row is not None
    mover, waiter = await acting_user(tables, gid)
    board = await tables.board(gid)
    assert board.choose, "the public board offers a 'Your move' button, not the moves themselves"
    panel = await tables.panel(gid, mover, row.version)
    assert panel.step is None and panel.buttons == [("Add 1", 0), ("Add 2", 1), ("Add 3", 2)]
    with pytest.raises(TableError, match="not your turn"):
        await tables.panel(gid, waiter, row.version)
    # One board a turn: the newest board may be moves old; its button opens the turn now.
    older = await tables.panel(gid, mover, row.version - 1)
    assert older.version == row.version and older.buttons == panel.buttons
    assert older.header == "Your secret card is " + str(row.state["cards"][row.seat_of(mover)]) + "."
    with pytest.raises(TableError, match="out of date"):
        await tables.panel(gid, mover, row.version + 1)


async def test_engine_player_numbers_become_names(tables: Tables) -> None:
    gid = await two_player_game(tables)
    row = await tables.store.get(gid)
    assert row is not None
    assert (
        Tables.named(row, "Player 1 pays Player 2; Player 9 is nobody.")
        == "alice pays bob; Player 9 is nobody."
    )


def test_long_news_shortens_the_middle_never_the_final_scores() -> None:
    from tables import MESSAGE_ROOM, fit_message

    news = [f"Player {i % 4 + 1} does something long and wordy, number {i}." for i in range(200)]
    tail = "**Final scores**\n1. alice: 12\n2. bob: 9\nWinner: alice!"
    text = fit_message("The AI takes over.", news, tail)
    assert len(text) <= MESSAGE_ROOM
    assert text.startswith("The AI takes over.") and text.endswith(tail)
    assert "number 199." in text and "number 0." not in text
    assert "earlier line(s) not shown; /history has every move." in text
    assert fit_message("", ["a", "b"], "end") == "a\nb\nend"


async def test_an_ai_failure_never_loses_the_human_move(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await tables.create(ALICE, "alice", "test-race", seed=1)
    await tables.add_ai(lobby.game_id, ALICE)
    await tables.start(lobby.game_id, ALICE)
    row = await tables.store.get(lobby.game_id)
    assert row is not None and row.state is not None
    assert row.seats[who(row.state)].user_id == ALICE

    def broken(self: object, view: dict, legal: list, rnd: object) -> int:
        raise KeyError("monster")

    from tests.fakegame import Race

    # Both the searching player and the easy one it falls back on fail.
    monkeypatch.setattr(Race, "ai_choose", broken)
    update = await tables.act(lobby.game_id, ALICE, "1")
    assert update.png is not None
    assert [n for _q, _s, n in await tables.store.log(lobby.game_id)] == ["1"], "the human move stands"
    monkeypatch.undo()
    assert await tables.resume_all() == 1, "the next start lets the AI move"
    assert len(await tables.store.log(lobby.game_id)) == 2


async def test_step_images_come_from_the_renderer_with_both_views(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    import render
    from tests import fakegame

    seen: list[tuple[int, int]] = []

    def steps(before: dict, after: dict, names: list[str]) -> list:
        seen.append((before["total"], after["total"]))
        return [lambda: fakegame.render(after)] * 12

    monkeypatch.setitem(
        render.REGISTRY, "test-race", render.Renderer(board=fakegame.RENDERER.board, steps=steps)
    )
    gid = await two_player_game(tables)
    mover, _ = await acting_user(tables, gid)
    update = await tables.act(gid, mover, "3")
    assert seen == [(0, 3)]
    assert len(update.steps) == 8, "at most 8 step images fit beside the board and the scores"
    assert (await tables.board(gid)).steps == [], "a re-posted board repeats no steps"


async def test_moves_too_long_for_discord_autocomplete_are_sent_by_reference(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakegame import Race

    monkeypatch.setattr(Race, "format", lambda self, a: f"{a} " + "x" * 120)
    gid = await two_player_game(tables)
    row = await tables.store.get(gid)
    assert row is not None
    mover, _ = await acting_user(tables, gid)
    found = await tables.choices(gid, mover)
    assert [v for _label, v in found] == [f"#{row.version}.0", f"#{row.version}.1", f"#{row.version}.2"]
    assert all(len(v) <= 100 for _l, v in found)
    await tables.act(gid, mover, f"#{row.version}.2")
    assert [n.split()[0] for _q, _s, n in await tables.store.log(gid)] == ["3"]
    mover2, _ = await acting_user(tables, gid)
    with pytest.raises(TableError, match="earlier board"):
        await tables.act(gid, mover2, f"#{row.version}.0")


async def test_a_parser_that_trips_is_still_a_clear_refusal(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.fakegame import Race

    def fragile(self: object, text: str) -> int:
        return int(text)  # '①'.isdigit() is True, int('①') raises ValueError

    monkeypatch.setattr(Race, "parse", fragile)
    gid = await two_player_game(tables)
    mover, _ = await acting_user(tables, gid)
    with pytest.raises(TableError, match="is not a move in Race to Ten"):
        await tables.act(gid, mover, "①")
    assert await tables.store.log(gid) == []


def test_refusals_are_cleaned_for_the_player() -> None:
    from tables import clean_sentence

    assert clean_sentence("'J8\x00' is not a place on the map.") == "'J8' is not a place on the map."
    assert clean_sentence("'\x1b[31mA1' is\nnot\u202e free.") == "'[31mA1' is not free."
    cut = clean_sentence("'" + "9" * 1200 + "' is not a tile.")
    assert cut == "'" + "9" * 39 + "\u2026' is not a tile."
    # Apostrophes are not quotes: a long sentence with them is left whole.
    text = "It's the players' turn to place the tiles they drafted in their own dungeons, isn't it."
    assert clean_sentence(text) == text
    assert len(clean_sentence("No. " * 200)) == 300


async def test_a_hostile_move_is_refused_in_one_short_line(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.core import IllegalAction
    from tests.fakegame import Race

    def echo(self: object, text: str) -> int:
        raise IllegalAction(f"'{text}' is not a move.")

    monkeypatch.setattr(Race, "parse", echo)
    gid = await two_player_game(tables)
    mover, _ = await acting_user(tables, gid)
    with pytest.raises(TableError) as err:
        await tables.act(gid, mover, "7" * 100_000 + "\x00\u202e\n\x1b[2J")
    assert str(err.value) == "'" + "7" * 39 + "\u2026' is not a move."
    assert await tables.store.log(gid) == []


def test_tables_is_split_by_concern() -> None:
    """Issue 16 item 1: a package, no module over 400 lines, no function over 80."""
    import ast

    root = Path(__file__).resolve().parents[1] / "tables"
    modules = sorted(root.glob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") <= 400, f"{path.name} has {text.count(chr(10))} lines"
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                assert length <= 80, f"{path.name}: {node.name} is {length} lines"


def test_cogs_share_one_helper_module_and_never_touch_engine_or_store() -> None:
    """Issue 16 items 1 and 6: the cogs call the Tables facade only."""
    root = Path(__file__).resolve().parents[1] / "cogs"
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "from engine" not in text and "import engine" not in text, path.name
        assert ".store" not in text, path.name
        others = {"games", "slowplay"} - {path.stem}
        for other in others:
            assert f"cogs.{other}" not in text, f"{path.name} imports cogs.{other}"


async def test_refusals_name_the_players(tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16 item 4: an engine sentence naming a seat reaches Discord with the name."""
    from engine.core import IllegalAction
    from tests.fakegame import Race

    def refuse(self: object, state: dict, seat: int, action: int) -> list:
        raise IllegalAction(f"Player {seat + 1} may not add {action} while Player {2 - seat} waits.")

    monkeypatch.setattr(Race, "_apply", refuse)
    gid = await two_player_game(tables)
    mover, waiter = await acting_user(tables, gid)
    names = {ALICE: "alice", BOB: "bob"}
    with pytest.raises(TableError) as err:
        await tables.act(gid, mover, "2")
    assert str(err.value) == f"{names[mover]} may not add 2 while {names[waiter]} waits."


async def test_hand_sends_the_players_own_area_drawn_with_names(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 21 item 6: "Show my hand" and /hand also send the renderer's "my area" image,
    drawn from the player's own view, with the players' names."""
    import render
    from tests import fakegame

    seen: list[tuple[dict, list[str]]] = []

    def area(view: dict, names: list[str]) -> bytes:
        seen.append((view, names))
        return fakegame.render(view)

    renderer = render.Renderer(board=fakegame.RENDERER.board, area=area)
    monkeypatch.setitem(render.REGISTRY, "test-race", renderer)
    gid = await two_player_game(tables)
    row = await tables.store.get(gid)
    assert row is not None and row.state is not None
    text, png = await tables.hand(gid, BOB)
    assert png is not None and png.startswith(b"\x89PNG") and text.startswith("Your secret card is")
    view, names = seen[-1]
    assert names == ["alice", "bob"]
    assert view["cards"][1] == row.state["cards"][1] and view["cards"][0] is None, "bob's own view"


# ---- computer players' strengths (issue 30) ------------------------------------------


async def test_computer_players_get_the_chosen_or_the_servers_strength(tables: Tables) -> None:
    from tables import DEFAULT_SETTINGS

    guild = 4242
    lobby = await tables.create(ALICE, "alice", "test-race", guild_id=guild, ai_players=2, ai_level="hard")
    assert [(s.name, s.is_ai, s.ai_level) for s in lobby.seats] == [
        ("alice", False, None),
        ("Bot 1", True, "hard"),
        ("Bot 2", True, "hard"),
    ]
    assert "Seated (3): alice, Bot 1 (Hard AI), Bot 2 (Hard AI)." in lobby.text
    with pytest.raises(TableError, match="3 computer players at most"):
        await tables.create(ALICE, "alice", "test-race", ai_players=4)
    with pytest.raises(TableError, match="not a strength"):
        await tables.create(ALICE, "alice", "test-race", ai_players=1, ai_level="expert")
    # Unless chosen: the server's strength.
    await tables.set_guild_settings(guild, {"ai_level": "normal"})
    other = await tables.create(ALICE, "alice", "test-race", guild_id=guild)
    other = await tables.add_ai(other.game_id, ALICE)
    assert other.seats[1].ai_level == "normal" and "Bot 1 (Normal AI)" in other.text
    other = await tables.add_ai(other.game_id, ALICE, "easy")
    assert other.seats[2].ai_level == "easy"
    with pytest.raises(TableError, match="easy, normal or hard"):
        await tables.set_guild_settings(guild, {"ai_level": "expert"})
    assert (await tables.guild_settings(None))["ai_level"] == DEFAULT_SETTINGS["ai_level"]


def test_the_servers_default_strength_is_normal() -> None:
    """The shipped default (the test suite plays with easy players: tests/conftest.py)."""
    import importlib

    import tables.settings

    fresh = importlib.reload(tables.settings)
    try:
        assert fresh.DEFAULT_SETTINGS["ai_level"] == "normal"
    finally:
        fresh.DEFAULT_SETTINGS["ai_level"] = "easy"


async def test_a_seat_taken_over_plays_at_the_servers_strength(tables: Tables) -> None:
    guild = 4343
    await tables.set_guild_settings(guild, {"ai_level": "hard"})
    lobby = await tables.create(ALICE, "alice", "test-race", guild_id=guild)
    await tables.join(lobby.game_id, BOB, "bob")
    await tables.start(lobby.game_id, ALICE)
    from tables import thinking

    asked: list[str] = []

    def run(job: thinking.Job) -> object:  # the easy move, at once (a hard one takes 2 s)
        asked.append(job.level)
        return thinking.easy(job)

    tables.thinker = thinking.Thinker(0, run=run)
    row = await tables.store.get(lobby.game_id)
    assert row is not None
    seat = row.seat_of(BOB)
    update = await tables.take_over(lobby.game_id, BOB)
    row = await tables.store.get(lobby.game_id)
    assert row is not None and seat is not None
    assert row.seats[seat].is_ai and row.seats[seat].ai_level == "hard"
    assert "bob left; the AI plays their seat" in update.text
    if not asked:  # it was alice's turn: her move lets the new computer player move
        await tables.act(lobby.game_id, ALICE, "1")
    assert asked and set(asked) == {"hard"}, "the taken-over seat's moves are asked of a hard player"


async def test_a_computer_seat_of_an_earlier_release_plays_as_easy_and_says_so(tables: Tables) -> None:
    from store import SeatRow

    lobby = await tables.create(ALICE, "alice", "test-race")
    await tables.store.set_seats(
        lobby.game_id,
        lobby.version,
        [SeatRow(0, ALICE, "alice", False), SeatRow(1, None, "Bot 1", True, None)],
    )
    row = await tables.store.get(lobby.game_id)
    assert row is not None and row.seats[1].ai_level is None and row.seats[1].level == "easy"
    assert "Bot 1 (Easy AI)" in (await tables.lobby(lobby.game_id)).text


async def test_games_resume_side_by_side_after_a_restart(
    tables: Tables, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart's owed computer moves run as many games at once as the pool has
    workers, not one game after another."""
    ids = []
    for _ in range(4):
        lobby = await tables.create(ALICE, "alice", "test-race", seed=1)
        await tables.add_ai(lobby.game_id, ALICE)
        await tables.start(lobby.game_id, ALICE, run_ai=False)
        ids.append(lobby.game_id)
    running, most, done = 0, 0, []

    async def run_ai(game_id: int) -> list:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.05)
        running -= 1
        done.append(game_id)
        return ["moved"] if game_id != ids[-1] else []

    monkeypatch.setattr(tables, "_run_ai", run_ai)
    monkeypatch.setattr(tables.thinker, "workers", 2)
    assert await tables.resume_all() == 3, "games with a move made are counted"
    assert sorted(done) == sorted(ids)
    assert most == 2, "two games at once with two workers"
