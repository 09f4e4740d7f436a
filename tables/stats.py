"""Statistics of a server's finished games (``/stats``)."""

from __future__ import annotations

import asyncio
from typing import Any

from engine import core
from store import GameRow
from tables.base import TablesBase
from tables.text import plural, seat_label


def tally(rows: list[GameRow]) -> list[dict[str, Any]]:
    """Per player: games, wins and total score; best first (wins, then average)."""
    table: dict[int | str, dict[str, Any]] = {}
    for r in rows:
        if r.result is None:
            continue
        for s in r.seats:
            # A computer player of each strength is a player of its own.
            key: int | str = s.user_id if s.user_id is not None and not s.is_ai else f"AI:{s.name}:{s.level}"
            e = table.setdefault(key, {"name": seat_label(s), "games": 0, "wins": 0, "total": 0})
            e["games"] += 1
            e["total"] += r.result["scores"][s.seat]
            if s.seat in r.result["winners"]:
                e["wins"] += 1
    return sorted(table.values(), key=lambda e: (-e["wins"], -e["total"] / e["games"], e["name"]))


class StatsMixin(TablesBase):
    async def stats(self, guild_id: int | None, game_key: str | None = None) -> tuple[str, bytes | None]:
        """Games played, wins and average scores per player in a server (optionally one game)."""
        if game_key is not None:
            self.game_info(game_key)  # an unknown game is one sentence
        rows = [r for r in await self.store.games(guild_id, "over") if game_key in (None, r.game_key)]
        if not rows:
            return "No finished games here yet.", None
        board = tally(rows)
        title = core.get(game_key).title if game_key else "All games"
        lines = [f"**{title}**: {plural(len(rows), 'game')} played."]
        for i, e in enumerate(board[:20], 1):
            lines.append(
                f"{i}. {e['name']}: {plural(e['wins'], 'win')} in {plural(e['games'], 'game')}, "
                f"average score {e['total'] / e['games']:.1f}"
            )
        from render import summary

        png = await asyncio.to_thread(
            summary.leaderboard,
            title,
            f"{plural(len(rows), 'game')} played",
            [(e["name"], e["games"], e["wins"], round(e["total"] / e["games"], 1)) for e in board[:15]],
        )
        return "\n".join(lines), png
