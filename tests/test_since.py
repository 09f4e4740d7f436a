"""Issue 37 item 3, "Since your last turn": the place opens each turn "with what
happened since the seat's last turn: the public moves in words (names put in) and
the seat's own private news, and a picture of the board as it changed (... at most
2 MB; readable at a third of its size)"."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import render
from engine import core
from render import base
from render import since as since_render
from store import GameRow, SeatRow, Store
from tables import Since, Tables
from tables.since import EARLIER, report
from tests.words import not_words

ALICE, BOB, CAROL = 11, 22, 33
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
GUILD = 500


def row_of(key: str, users: list[int], seed: int, state: dict[str, Any] | None = None) -> GameRow:
    """A started game as the store holds it (for the pure ``report``)."""
    game = core.get(key)
    seats = [SeatRow(i, u, NAMES[u], False) for i, u in enumerate(users)]
    state = state if state is not None else game.new(len(users), {}, seed)
    return GameRow(
        1, GUILD, None, 77, None, key, {}, seed, "active", 1, 0, users[0], state, None, 0.0, 0.0, None,
        seats, {}, revision=game.revision,
    )  # fmt: skip


def played(key: str, users: list[int], seed: int, moves: int) -> tuple[GameRow, list[Any]]:
    """A random game of ``moves`` moves, its row and its log (Store.log_full's rows)."""
    game = core.get(key)
    pick = random.Random(seed)
    state = game.new(len(users), {}, seed)
    log: list[Any] = []
    for k in range(moves):
        if game.is_over(state):
            break
        seat = pick.choice(sorted(game.to_act(state)))
        note = game.format(pick.choice(game.legal_actions(state, seat)))
        state, _ = game.apply(state, seat, game.parse(note))
        log.append((k + 1, seat, users[seat], note, 1_000_000.0 + 60 * k))
    return row_of(key, users, seed, state), log


def fixed_clock() -> float:
    return 1_000_000.0


async def open_tables(path: Path) -> Tables:
    """Tables on a stopped clock (twin games' moves carry the same times)."""
    return Tables(await Store(str(path), clock=fixed_clock).open(), clock=fixed_clock)


async def new_game(t: Tables, key: str, users: list[int], seed: int) -> int:
    lobby = await t.create(
        users[0], NAMES[users[0]], key, seed=seed, guild_id=GUILD, settings={"auto_play": False}
    )
    for u in users[1:]:
        await t.join(lobby.game_id, u, NAMES[u])
    await t.start(lobby.game_id, users[0])
    return lobby.game_id


# ---- the words ---------------------------------------------------------------------------


async def test_since_tells_the_other_players_moves_with_names_and_only_my_news(tmp_path: Path) -> None:
    """Race to Ten: after Alice's move Bob and Carol move; Alice's report names them,
    tells her own news and never Bob's or Carol's."""
    t = await open_tables(tmp_path / "s.db")
    gid = await new_game(t, "test-race", [ALICE, BOB, CAROL], seed=4)
    assert (await t.since(gid, 0)).empty, "a new game: nothing happened yet"
    await t.act(gid, ALICE, "2")
    assert (await t.since(gid, 0)).empty, "nothing happened since her move"
    bobs = await t.since(gid, 1)
    assert bobs.lines() == ["**Since the game began:**", "- Seat 1 adds 2; the total is 2."]
    await t.act(gid, BOB, "3")
    await t.act(gid, CAROL, "1")
    mine = await t.since(gid, 0)
    assert mine.moves == 2
    assert mine.public == ("Seat 2 adds 3; the total is 5.", "Seat 3 adds 1; the total is 6.")
    text = mine.text()
    assert text.startswith("**Since your last move** (<t:")
    assert "- Seat 2 adds 3; the total is 5." in text
    assert "Your card" not in text, "Bob's and Carol's news about their secret cards are theirs"
    await t.store.close()


async def test_names_are_put_in_and_moves_played_for_me_are_told(tmp_path: Path) -> None:
    """Dungeon Lair: the engine's "Player 2" reads "Bob"; a move the bot made for
    Alice (a deadline, an only move: logged without her) is news to her."""
    row, log = played("dungeon-lair", [ALICE, BOB], seed=3, moves=12)
    last_alice = max(i for i, e in enumerate(log) if e[1] == 0)
    got = report(row, log[: last_alice + 1] + log[last_alice + 1 :], 0, picture=False)
    assert all("Player 1" not in p and "Player 2" not in p for p in got.public)
    assert any("Bob" in p for p in got.public) or got.empty
    # The same log with Alice's last move made by the bot for her:
    bot_made = [
        *log[:last_alice],
        (log[last_alice][0], 0, None, log[last_alice][3], log[last_alice][4]),
        *log[last_alice + 1 :],
    ]
    told = report(row, bot_made, 0, picture=False)
    assert told.moves > got.moves
    assert any(p.startswith("Played for you: ") for p in told.private)


async def test_a_long_report_keeps_my_news_and_the_newest_moves() -> None:
    many = Since(
        1, 0, 200, tuple(f"Bob places tile {k} on the map." for k in range(200)), ("You drew T5.",), None, 1e9
    )
    text = many.text(600)
    assert len(text) <= 600
    lines = text.splitlines()
    assert lines[0].startswith("**Since your last move**")
    assert lines[1] == EARLIER.format(200 - (len(lines) - 4))
    assert lines[-3] == "- Bob places tile 199 on the map.", "the newest move stays"
    assert lines[-2:] == ["**Only you see:**", "- You drew T5."]


# ---- secrets: twin games differing only in another seat's secret ----------------------------


def _options(game: core.Game, one: Any, two: Any, seat: int, start: str) -> list[str]:
    """The moves of ``seat`` starting with ``start`` legal in both twins."""
    both = {game.format(a) for a in game.legal_actions(two, seat)}
    return [n for a in game.legal_actions(one, seat) if (n := game.format(a)).startswith(start) and n in both]


def twin_logs(key: str, seed: int, twist: str) -> tuple[list[str], list[str], list[int]]:
    """Two move lists of a 2-player game from one seed, the same except one secret
    choice of seat 1 (a notation starting with ``twist`` with two options), played
    on until seat 0 is to act. Returns both lists and the seat of each move."""
    game = core.get(key)
    pick = random.Random(seed)
    one, two = game.new(2, {}, seed), game.new(2, {}, seed)
    notes1: list[str] = []
    notes2: list[str] = []
    seats: list[int] = []
    twisted = False
    for _ in range(400):
        acting = sorted(game.to_act(one))
        assert acting == sorted(game.to_act(two))
        if twisted and 0 in acting:
            return notes1, notes2, seats
        secret = _options(game, one, two, 1, twist) if not twisted and 1 in acting else []
        if len(secret) >= 2:  # Bob's secret choice, made before Alice's turn
            seat, n1, n2, twisted = 1, secret[0], secret[-1], True
        else:
            seat = (1 if 1 in acting else acting[0]) if twisted else pick.choice(acting)
            n1 = n2 = pick.choice(_options(game, one, two, seat, ""))
        one, _ = game.apply(one, seat, game.parse(n1))
        two, _ = game.apply(two, seat, game.parse(n2))
        notes1.append(n1)
        notes2.append(n2)
        seats.append(seat)
    raise AssertionError("no twin found")


@pytest.mark.parametrize(
    ("key", "twist"),
    [("dungeon-drawers", "treasure "), ("dungeon-lords", "orders ")],
    ids=["drawers hidden treasure", "lords secret orders"],
)
async def test_my_report_is_the_same_whatever_another_seat_hides(
    tmp_path: Path, key: str, twist: str
) -> None:
    """Twin games from one seed, the same moves except Bob's secret: where Dungeon
    Drawers' treasure is hidden ("Make sure the other Dungeon Masters can't see your
    Treasure coordinates"), Dungeon Lords' orders before they are revealed ("only
    choosing Orders and choosing the initial inaccessible orders are truly
    simultaneous"). Alice's report, words and picture, is byte for byte the same,
    also after a restart."""
    notes1, notes2, seats = twin_logs(key, 5, twist)
    assert notes1 != notes2
    t = await open_tables(tmp_path / "s.db")
    reports = []
    for notes in (notes1, notes2):
        gid = await new_game(t, key, [ALICE, BOB], seed=5)
        for seat, note in zip(seats, notes, strict=True):
            await t.act(gid, (ALICE, BOB)[seat], note)
        reports.append(await t.since(gid, 0))
    a, b = reports
    assert not a.empty and a.public, "Bob's moves are told"
    assert (a.text(), a.image) == (b.text(), b.image)
    assert a.lines() == b.lines()
    await t.store.close()
    again = await open_tables(tmp_path / "s.db")  # a restart: the same report from the log
    assert (await again.since(1, 0)).text() == a.text()
    assert (await again.since(1, 0)).image == a.image
    await again.store.close()


# ---- the picture ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", core.available())
def test_the_picture_shows_each_board_since_and_passes_the_type_floor(key: str) -> None:
    """An animated GIF, one frame a turn since the seat's last move, every label at
    the type floor of an image that wide, the captions in words, at most 2 MB."""
    game = core.get(key)
    users = [ALICE, BOB, CAROL][: max(2, game.min_players)]
    row, log = played(key, users, seed=8, moves=60)
    assert row.state is not None
    # The seat that moved longest ago: the others' turns since are its picture.
    seat = min(range(len(users)), key=lambda s: max(i for i, e in enumerate(log) if e[1] == s))
    with base.recording() as labels:
        got = report(row, log, seat)
    assert got.image is not None, "something changed since: a picture"
    assert len(got.image) <= since_render.MAX_BYTES
    gif = Image.open(io.BytesIO(got.image))
    assert gif.format == "GIF" and gif.n_frames >= 2
    width = gif.width
    small = [f"{lab.s[:30]!r} at {lab.size}" for lab in labels if lab.size < base.floor_size(lab.role, width)]
    assert not small, f"labels under the type floor: {small[:10]}"
    captions = [lab.s for lab in labels if lab.canvas == gif.size]
    assert len(captions) == gif.n_frames and captions[0].startswith("1 of ")
    assert captions[-1].endswith("(now)") or captions[-1].endswith(": now")
    assert not [c for c in captions for _why in not_words(c)]


def test_frames_beyond_the_limit_keep_the_start_and_the_newest() -> None:
    assert since_render.chosen(5) == [0, 1, 2, 3, 4]
    assert since_render.chosen(12, 4) == [0, 9, 10, 11]


def test_a_picture_over_the_size_limit_drops_frames_from_the_middle() -> None:
    game = core.get("test-race")
    views = [({**game.view(game.new(2, {}, 1), None), "total": k}, f"after move {k}") for k in range(5)]
    names = render.default_names(2)
    whole = since_render.changes("test-race", views, names)
    assert whole is not None and Image.open(io.BytesIO(whole)).n_frames == 5
    cut = since_render.changes("test-race", views, names, max_bytes=len(whole) - 1)
    assert cut is not None and len(cut) < len(whole)
    assert Image.open(io.BytesIO(cut)).n_frames < 5


async def test_your_move_opens_with_what_happened_since(tmp_path: Path) -> None:
    """The ephemeral turn message ("Your move") also opens with the report, above the
    seat's own state, and stays within one Discord message."""
    t = await open_tables(tmp_path / "s.db")
    gid = await new_game(t, "test-race", [ALICE, BOB], seed=4)
    first = await t.panel(gid, ALICE, 1)
    assert first.header.startswith("Your secret card is"), "nothing happened yet: the seat's state alone"
    await t.act(gid, ALICE, "2")
    await t.act(gid, BOB, "3")
    row = await t.store.get(gid)
    assert row is not None
    panel = await t.panel(gid, ALICE, row.version)
    lines = panel.header.splitlines()
    assert lines[:2] == [
        f"**Since your last move** (<t:{int(fixed_clock())}:R>):",
        "- Seat 2 adds 3; the total is 5.",
    ]
    assert lines[-1].startswith("Your secret card is")
    assert len(panel.text) <= 1800
    await t.store.close()
