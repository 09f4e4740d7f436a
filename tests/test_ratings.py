"""Ratings and /stats (issue 41): OpenSkill's Plackett-Luce over the stored results
in the order the games ended; rebuilt, the same numbers; what /stats shows."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from render import base, standings
from store import SeatRow, Store
from tables import Tables
from tables.ratings import OVERALL, Played, computer, person, plackett_luce, rate_all

ANN, BOB, CID, DEE = 11, 12, 13, 14


def seats(*who: int | str) -> list[SeatRow]:
    """People by user id, computer players by strength ("easy", "normal", "hard")."""
    return [
        SeatRow(i, None, f"Bot {i}", True, w) if isinstance(w, str) else SeatRow(i, w, f"user{w}", False)
        for i, w in enumerate(who)
    ]


SERIES = [  # (game key, seats, ranking): a known series with a shared place and computers
    ("dungeon-lair", seats(ANN, BOB), [[0], [1]]),
    ("dungeon-lair", seats(BOB, CID, "easy"), [[1], [0, 2]]),
    ("monster-inn", seats(ANN, BOB, CID, "hard"), [[3], [0], [2], [1]]),
    ("dungeon-lair", seats(ANN, CID, "easy", "easy"), [[2], [0], [1, 3]]),
]


def test_ratings_equal_the_librarys_own_computation() -> None:
    """The issue: "ratings from a known series of results equal the library's own computation"."""
    book = rate_all(Played(i, k, "over", float(i), s, r) for i, (k, s, r) in enumerate(SERIES, 1))
    model = PlackettLuce()
    want: dict[tuple[str, str], tuple[float, float]] = {}
    for key, ss, ranking in SERIES:
        place = {seat: i + 1 for i, g in enumerate(ranking) for seat in g}
        for pool in (key, OVERALL):
            whos = [person(s.user_id) if s.user_id else computer(s.level) for s in ss]
            before = [want.get((pool, w), (model.mu, model.sigma)) for w in whos]
            out = model.rate(
                [[model.create_rating(list(b))] for b in before], ranks=[place[s.seat] for s in ss]
            )
            new: dict[str, list[tuple[float, float]]] = {}
            for w, team in zip(whos, out, strict=True):
                new.setdefault(w, []).append((team[0].mu, team[0].sigma))
            for w, rs in new.items():  # two easy seats in one game: their mean
                want[(pool, w)] = (sum(m for m, _ in rs) / len(rs), sum(s for _, s in rs) / len(rs))
    assert set(book.ratings) == set(want)
    for k, (mu, sigma) in want.items():
        assert book.ratings[k].mu == pytest.approx(mu, abs=1e-12)
        assert book.ratings[k].sigma == pytest.approx(sigma, abs=1e-12)
    # Bob lost 2-player Dungeon Lair to Ann: below her in that game's pool.
    assert book.ratings[("dungeon-lair", person(ANN))].mu > book.ratings[("dungeon-lair", person(BOB))].mu
    easy = book.ratings[("dungeon-lair", computer("easy"))]
    assert easy.games == 2 and easy.wins == 1


def test_the_rebuilds_quick_update_gives_the_librarys_numbers_to_the_bit() -> None:
    """A rebuild does 20,000 updates without the library's argument checks and copies:
    every rating, for 2 to 9 seats, shared places included, is exactly ``rate``'s."""
    import random

    model, rnd = PlackettLuce(), random.Random(41)
    for _ in range(2000):
        n = rnd.randint(2, 9)  # 9: more seats than the reused objects, the library's own way
        players = [(rnd.uniform(5, 45), rnd.uniform(0.5, 25 / 3)) for _ in range(n)]
        ranks = [rnd.randint(1, n) for _ in range(n)]
        want = model.rate([[model.create_rating(list(p))] for p in players], ranks=list(ranks))
        assert plackett_luce(players, ranks) == [(t[0].mu, t[0].sigma) for t in want]


def test_newcomers_are_provisional_for_their_first_five_games() -> None:
    games = [Played(i, "dungeon-lair", "over", float(i), seats(ANN, BOB), [[0], [1]]) for i in range(1, 6)]
    book = rate_all(games[:4])
    assert book.ratings[("dungeon-lair", person(ANN))].provisional
    book.add(games[4])
    assert not book.ratings[("dungeon-lair", person(ANN))].provisional


async def finish(
    store: Store,
    key: str,
    who: list[SeatRow],
    ranking: list[list[int]],
    ended: float,
    guild: int = 7,
    status: str = "over",
) -> int:
    scores = [0] * len(who)
    for i, group in enumerate(ranking):
        for s in group:
            scores[s] = 10 * (len(ranking) - i)
    result = {"scores": scores, "ranking": ranking, "winners": ranking[0], "breakdown": [], "tiebreak": None}
    async with store.transaction() as tx:
        (gid,) = (
            await tx.fetch(
                "INSERT INTO games (guild_id, channel_id, game_key, seed, status, version, moves, result, "
                "created_at, updated_at) VALUES (?, 5, ?, 1, ?, 3, 0, ?, ?, ?) RETURNING id",
                guild,
                key,
                status,
                json.dumps(result) if status == "over" else None,
                ended - 600,
                ended,
            )
        )[0]
        for s in who:
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, is_ai, ai_level) VALUES (?, ?, ?, ?, ?, ?)",
                gid,
                s.seat,
                s.user_id,
                s.name,
                int(s.is_ai),
                s.ai_level,
            )
    return int(gid)


@pytest.fixture
async def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    s = await Store(str(tmp_path / "r.db")).open()
    yield s
    await s.close()


async def test_rebuilding_gives_the_ratings_kept_game_by_game(store: Store) -> None:
    """Ratings kept up to date game by game (each final board) equal a rebuild from the
    games table; after a restart the stored copy, brought up to date, equals it too."""
    live = Tables(store, clock=lambda: 10_000.0)
    for i, (key, ss, ranking) in enumerate(SERIES * 6, 1):
        await finish(store, key, ss, ranking, 1000.0 + i)
        await live.rating_book(7)  # brought up to date after each game
    kept = await live.rating_book(7)
    assert kept.count == len(SERIES) * 6
    restarted = await Tables(store).rating_book(7)  # the stored copy (written at game 21) + 3 games
    async with store.transaction() as tx:
        await tx.execute("DELETE FROM rating_cache")
    rebuilt = await Tables(store).rating_book(7)
    for other in (restarted, rebuilt):
        assert other.ratings == kept.ratings and other.moves == kept.moves and other.history == kept.history
        assert other.against == kept.against and other.count == kept.count and other.games == kept.games


async def test_replaced_and_abandoned_games_count_as_the_server_decides(store: Store) -> None:
    t = Tables(store, clock=lambda: 10_000.0)
    await finish(store, "dungeon-lair", seats(ANN, BOB), [[0], [1]], 1001.0)
    left = seats(ANN, CID)  # Cid left: the computer played his seat to the end
    left[1] = SeatRow(1, CID, "user13", True, "easy")
    gone = await finish(store, "dungeon-lair", left, [[1], [0]], 1002.0)
    book = await t.rating_book(7)
    assert gone not in book.moves and (("dungeon-lair", person(CID))) not in book.ratings
    assert "not rated" in await t.rating_moves(await t._load(gone))
    await t.set_guild_settings(7, {"rate_unfinished": True})
    book = await t.rating_book(7)
    assert gone in book.moves and book.ratings[("dungeon-lair", person(CID))].wins == 1


async def test_stats_shows_the_rating_leaderboard_and_a_players_record(store: Store) -> None:
    t = Tables(store, clock=lambda: 1010.0)
    for i, (key, ss, ranking) in enumerate(SERIES, 1):
        await finish(store, key, ss, ranking, 1000.0 + i)
    text, png = await t.stats(7, "dungeon-lair")
    assert png is not None and png.startswith(b"\x89PNG")
    lines = text.splitlines()
    assert "3 rated games" in lines[0] and "(provisional)" in text
    assert "user11" in text and "Easy computer" in text
    mine, plot = await t.player_stats(7, ANN, "Ann", "dungeon-lair")
    assert plot is not None and "2 rated games" in mine
    # Game 4: one easy seat finished above her, the other below.
    assert "Against the Easy computer: ahead 1, behind 1." in mine
    tonight = await t.tonight(7, 12)
    assert "4 games" in tonight and "#3 Monster Inn" in tonight and "Hard computer won" in tonight
    assert "Easy computer: 1 win in 2 games" in tonight  # two seats of one game are one game
    assert "No games ended" in await Tables(store, clock=lambda: 1_000_000.0).tonight(7, 12)


def test_stats_pictures_pass_the_type_floor() -> None:
    """Issue 28's floor: "no text under 26 px; ... scores ... at 36 px or more"."""
    rows = [(f"player with a long name {i}", 30.0 - i, 9, 3, i > 5) for i in range(15)]
    for draw in (
        lambda: standings.leaderboard("Dungeon Lair", "40 rated games", rows),
        lambda: standings.rating_plot("Ann: Dungeon Lair", [0.0, 1.5, 3.2, 2.8, 5.0]),
    ):
        with base.recording() as labels:
            draw()
        assert labels
        low = [(lab.s, lab.size) for lab in labels if lab.size < base.floor_size(lab.role, lab.canvas[0])]
        assert not low, low
        assert {"title", "score"} <= {lab.role for lab in labels}


def test_since_takes_hours_or_days_and_refuses_anything_else() -> None:
    from tables import TableError
    from tables.stats import since_hours

    assert since_hours("12h") == 12 and since_hours("2d") == 48 and since_hours(" 6 ") == 6
    for bad in ("", "soon", "0h", "-3h", "12m", "9" * 40):
        with pytest.raises(TableError, match="not a time span"):
            since_hours(bad)


async def test_kept_ratings_are_not_rebuilt_for_games_that_rank_nobody(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby closed before anyone sat down, and a game no longer installed, stay in the
    count the kept ratings are checked by: later games are added, nothing is rebuilt."""
    from tables import ratings

    builds: list[int] = []
    real = ratings.rate_all
    monkeypatch.setattr(ratings, "rate_all", lambda games, u=False: builds.append(1) or real(games, u))
    t = Tables(store, clock=lambda: 10_000.0)
    await finish(store, "dungeon-lair", seats(ANN, BOB), [[0], [1]], 1001.0)
    await finish(store, "no-such-game", seats(ANN, BOB), [[0], [1]], 1002.0)
    empty = await t.create(ANN, "Ann", "dungeon-lair", guild_id=7, take_seat=False)
    await t.abandon(empty.game_id, ANN, True)
    assert (await t.rating_book(7)).count == 3 and builds == [1]
    # (the store stamps the closed lobby with the real time: the next game ends after it)
    await finish(store, "dungeon-lair", seats(BOB, ANN), [[0], [1]], time.time() + 1000)
    book = await t.rating_book(7)
    assert book.count == 4 and builds == [1] and book.ratings[("dungeon-lair", person(BOB))].wins == 1


async def test_a_final_board_does_not_wait_for_a_long_first_rebuild(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board goes out without its ratings line while a server's first ratings are
    built; the build goes on, and the next board (or /stats) has them."""
    import asyncio

    from tables import ratings, stats

    real = ratings.rate_all

    def slow(games: object, u: bool = False) -> ratings.Book:
        time.sleep(1.0)
        return real(games, u)  # type: ignore[arg-type]

    monkeypatch.setattr(ratings, "rate_all", slow)
    monkeypatch.setattr(stats, "BOARD_WAIT", 0.2)
    gid = await finish(store, "dungeon-lair", seats(ANN, BOB), [[0], [1]], 1001.0)
    t = Tables(store, clock=lambda: 10_000.0)
    row = await t._load(gid)
    t0 = time.perf_counter()
    assert await t.rating_moves(row) == ""
    assert time.perf_counter() - t0 < 0.9
    await asyncio.sleep(1.2)
    assert (await t.rating_moves(row)).startswith("Ratings: user11 0.0 →")


async def test_a_start_up_builds_a_servers_first_ratings_so_no_stats_waits_for_them(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games stored before ratings existed (or under another ratings format): the
    start-up builds each server's ratings, so the first /stats and the next final board
    find them kept; servers whose kept ratings are current are left to their first use."""
    from tables import ratings

    builds: list[int] = []
    real = ratings.rate_all

    def counted(games: object, u: bool = False) -> ratings.Book:
        builds.append(1)
        return real(games, u)  # type: ignore[arg-type]

    monkeypatch.setattr(ratings, "rate_all", counted)
    store = await Store(db_target).open()  # on SQLite and PostgreSQL
    for i, (key, ss, ranking) in enumerate(SERIES, 1):
        await finish(store, key, ss, ranking, 1000.0 + i)
        await finish(store, key, ss, ranking, 1000.0 + i, guild=8)
    assert await Tables(store).warm_ratings([7, 8, 9]) == 2  # server 9 has no games
    assert builds == [1, 1]
    after_restart = Tables(store, clock=lambda: 10_000.0)
    text, _png = await after_restart.stats(7)
    assert "4 rated games" in text and builds == [1, 1]  # read back, not rebuilt
    assert await Tables(store).warm_ratings([7, 8, 9]) == 0
    # The ratings' format changed (an upgrade): the start-up rebuilds that server's.
    async with store.transaction() as tx:
        await tx.execute("UPDATE rating_cache SET book = ? WHERE guild_id = 8", '{"format":1}')
    assert await Tables(store).warm_ratings([7, 8]) == 1 and builds == [1, 1, 1]
    assert ratings.is_current((await store.kept_ratings_head(8, False)) or "")
    await store.close()
