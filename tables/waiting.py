""" "Every game waiting on me" (issue 37 item 4): across all servers, each running
game where it is this user's turn, with a jump link to its thread and its deadline,
the soonest deadline first.

One store query finds the user's running seats (``Store.running_seats``); whose turn
it is comes from each snapshot (``Game.to_act``), read off the event loop. The same
list answers ``/waiting`` (an embed, cogs/waiting.py) and is the text the seat's
lasting place keeps up to date in a DM.

The API (stable; the seat's lasting place calls it):

    await tables.waiting(user_id) -> Waiting
    Waiting.games -> tuple[WaitingGame, ...]    # soonest deadline first, then longest waiting
    Waiting.text(room=MESSAGE_ROOM, servers=None) -> str   # the DM's text: the title, one game a line
    Waiting.title -> str                        # "2 games are waiting on you"
    Waiting.body(room=EMBED_ROOM, servers=None) -> str     # the lines alone (an embed's description)
    WaitingGame.url -> str                      # https://discord.com/channels/<guild>/<thread>

``servers``: guild id -> the server's name, which the cog knows and the tables do not.
Discord renders ``<t:...:R>`` as "in 5 hours" / "2 days ago" in the reader's
language and keeps it current, so a message kept for days never goes stale.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import core
from tables.base import TablesBase
from tables.text import MESSAGE_ROOM, plural

JUMP = "https://discord.com/channels/{}/{}"
# An embed's description holds 4,096 characters.
EMBED_ROOM = 4000


@dataclass(frozen=True)
class WaitingGame:
    """One game where it is the user's turn."""

    game_id: int
    title: str
    guild_id: int | None
    thread_id: int | None
    since: float  # when the turn began
    deadline: float | None  # the seat's turn deadline (None: the game has none)
    paused: bool  # the host paused it: no move until it is resumed

    @property
    def url(self) -> str | None:
        """The jump link to the game's thread (a game without a guild: a DM channel)."""
        if self.thread_id is None:
            return None
        return JUMP.format(self.guild_id if self.guild_id is not None else "@me", self.thread_id)

    def line(self, servers: Mapping[int, str] | None = None) -> str:
        name = f"{self.title} #{self.game_id}"
        where = f"[{name}]({self.url})" if self.url else f"**{name}**"
        server = (servers or {}).get(self.guild_id or 0)
        if server:
            where += f" in {server}"
        if self.paused:
            return f"- {where}: your turn since <t:{int(self.since)}:R>, paused by the host"
        due = f"deadline <t:{int(self.deadline)}:R>" if self.deadline is not None else "no deadline"
        return f"- {where}: your turn since <t:{int(self.since)}:R>, {due}"


@dataclass(frozen=True)
class Waiting:
    """Every game waiting on ``user_id``, the most pressing first."""

    user_id: int
    games: tuple[WaitingGame, ...]

    @property
    def title(self) -> str:
        n = len(self.games)
        if not n:
            return "No game is waiting on you"
        return f"{plural(n, 'game')} {'is' if n == 1 else 'are'} waiting on you"

    def text(self, room: int = MESSAGE_ROOM, servers: Mapping[int, str] | None = None) -> str:
        """The title, then one game a line, in at most ``room`` characters (the DM)."""
        head = f"**{self.title}:**" if self.games else f"**{self.title}.**"
        return f"{head}\n{self.body(room - len(head) - 1, servers)}"

    def body(self, room: int = EMBED_ROOM, servers: Mapping[int, str] | None = None) -> str:
        """One game a line in at most ``room`` characters (an embed's description);
        games that do not fit are counted on the last line."""
        if not self.games:
            return "You will be told when one is."
        lines = [g.line(servers) for g in self.games]
        kept: list[str] = []
        for k, line in enumerate(lines):
            more = len(MORE) + 8 if k < len(lines) - 1 else 0
            if len(line) + 1 + more > room:
                break
            kept.append(line)
            room -= len(line) + 1
        if len(kept) < len(lines):
            kept.append(MORE.format(len(lines) - len(kept)))
        return "\n".join(kept)


MORE = "- ... and {} more: /waiting lists them all."


def _pressing(g: WaitingGame) -> tuple[bool, bool, float, float]:
    """Sort key: playable games first, the soonest deadline, then the longest wait."""
    return (g.paused, g.deadline is None, g.deadline or 0.0, g.since)


def games_waiting(rows: list[tuple[Any, ...]]) -> list[WaitingGame]:
    """The rows of ``Store.running_seats`` whose seat is to act. CPU-bound (each
    snapshot is read): run it off the event loop."""
    out: list[WaitingGame] = []
    for gid, guild, thread, key, state, since, seat, paused, due in rows:
        if state is None:
            continue
        try:
            game = core.get(key)
        except Exception:  # a game this release no longer has: not playable here
            continue
        st = json.loads(state)
        if game.is_over(st) or seat not in game.to_act(st):
            continue
        out.append(
            WaitingGame(
                gid,
                game.title,
                guild,
                thread,
                float(since),
                None if due is None else float(due),
                bool(paused),
            )
        )
    out.sort(key=_pressing)
    return out


class WaitingMixin(TablesBase):
    async def waiting(self, user_id: int) -> Waiting:
        """Every running game, in every server, where it is ``user_id``'s turn."""
        rows = await self.store.running_seats(user_id)
        found = await asyncio.to_thread(games_waiting, rows) if rows else []
        return Waiting(user_id, tuple(found))
