"""Posting a board (cogs/posting.py), without Discord. The nonce each board is sent with
(``board_nonce``): Discord drops a second message with a nonce it saw a few minutes
before, so a re-sent board posts once, and a different board must never look like a
re-send. A board sent through a stand-in thread (its ping), and the order of the
mover's answer and the other players' turns. (Found by mutation testing, docs/testing.md.)"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from cogs import posting as posting_module
from cogs.later import _later
from cogs.posting import board_nonce, post_board
from tables import Update


def nonce(game_id: int, version: int) -> str:
    return board_nonce(SimpleNamespace(game_id=game_id, version=version))  # type: ignore[arg-type]


def test_every_board_of_a_game_is_posted_and_a_resent_board_only_once() -> None:
    boards = [nonce(7, v) for v in range(1, 40)]
    assert len(set(boards)) == len(boards), "a later board would be dropped as a repeat"
    assert nonce(7, 12) == nonce(7, 12), "a board sent again after a crash carries the same nonce"
    assert nonce(7, 12) != nonce(8, 12)
    # Discord refuses a nonce over 25 characters: the longest game and version numbers fit.
    assert len(nonce(10**12 - 1, 10**9 - 1)) <= 25


async def test_an_older_board_is_never_posted_under_a_newer_one() -> None:
    """A board that arrives after a newer board of the game went out (a slow answer, a
    retry) is skipped: the thread never shows an old position last."""

    class Tables:
        marked: list[int] = []

        async def posted_version(self, game_id: int) -> int:
            return 5

        async def mark_posted(self, update: object) -> None:
            self.marked.append(1)

    client = SimpleNamespace(tables=Tables())  # no channel: a send would fail the test
    old = SimpleNamespace(post=True, game_id=7, version=3)
    assert await post_board(client, old) is None  # type: ignore[arg-type]
    assert Tables.marked == []


class Thread(discord.abc.Messageable):
    """A stand-in for a game's thread: keeps what the bot sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, discord.AllowedMentions]] = []

    async def _get_channel(self) -> Thread:
        return self

    async def send(self, content: str, **kw: Any) -> Any:  # type: ignore[override]
        self.sent.append((content, kw["allowed_mentions"]))
        return SimpleNamespace(id=len(self.sent), jump_url="https://discord.test/board")


class PostingTables:
    """What post_board asks of the tables: nothing posted yet, no private places."""

    def __init__(self) -> None:
        self.marked: list[int] = []

    async def posted_version(self, game_id: int) -> int:
        return 0

    async def mark_posted(self, update: Update) -> bool:
        self.marked.append(update.version)
        return True

    async def place_mode(self, game_id: int) -> tuple[str, str]:
        return "off", "always"

    async def mover_of(self, update: Update) -> int | None:
        return None


def posting(thread: Thread) -> Any:
    return SimpleNamespace(tables=PostingTables(), get_channel=lambda _id: thread)


async def no_places(*args: Any) -> set[int]:
    return set()


async def test_a_board_pings_the_player_whose_turn_begins_and_is_posted(monkeypatch: Any) -> None:
    """The board tells the next player it is their turn, pings only them, and is marked
    posted (a board that failed to send would stay owed and be sent again and again)."""
    monkeypatch.setattr(posting_module, "deliver", no_places)  # the private places: cogs/place.py's tests
    thread = Thread()
    client = posting(thread)
    update = Update(game_id=7, version=2, thread_id=55, text="Ann placed a worker.", ping=[111])
    assert await post_board(client, update, mover=222) is not None
    [(content, mentions)] = thread.sent
    assert content == "<@111> - your turn.\nAnn placed a worker."
    assert [u.id for u in mentions.users] == [111]  # type: ignore[union-attr]
    assert client.tables.marked == [2]


async def test_the_movers_own_answer_comes_before_the_other_players_turns(monkeypatch: Any) -> None:
    """After a click, the mover's answer is given first; the other players' turns reach
    their private places right after it (they take a moment: a picture each). A board
    posted with no click to answer (an owed board, a deadline) delivers them at once."""
    seen: list[str] = []

    async def deliver(*args: Any) -> set[int]:
        seen.append("turns delivered")
        return set()

    monkeypatch.setattr(posting_module, "deliver", deliver)
    update = Update(game_id=8, version=2, thread_id=55, text="Ann placed a worker.", ping=[111])
    await post_board(posting(Thread()), update, mover=222)
    seen.append("mover answered")
    await asyncio.gather(*_later)
    assert seen == ["mover answered", "turns delivered"]

    seen.clear()
    owed = Update(game_id=9, version=2, thread_id=55, text="Time ran out.", ping=[111])
    await post_board(posting(Thread()), owed)
    assert seen == ["turns delivered"]
