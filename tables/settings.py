"""Server and game settings: turn deadlines, reminders, the home channel, DMs."""

from __future__ import annotations

import re
from typing import Any

from engine import search
from store import GameRow
from tables.base import TablesBase
from tables.results import TableError

# Server defaults (``/settings``); a game's own settings (``/game new``) override them.
DEFAULT_SETTINGS: dict[str, Any] = {
    "deadline_hours": 0.0,  # 0 = no turn deadline
    "reminder_hours": 24.0,  # 0 = no reminders
    "on_deadline": "ai",  # ai | skip | abandon
    "channel_id": None,  # where /game new opens games (None: the channel it is used in)
    "lobby_days": 7.0,  # a lobby nobody starts (or joins) for this long is closed
    # A person's only legal move that reveals nothing is played for them at once
    # and said on the board (issue 26 item 3).
    "auto_play": True,
    # The strength of new computer players unless the host chooses one, and of every
    # deadline move and takeover (issue 30): easy, normal or hard (engine/search.py).
    "ai_level": search.DEFAULT_LEVEL,
    # The "Hint" button answers in this game (issue 40 point 7); the host chooses
    # per game (``/game new hints:``), on unless switched off.
    "hints": True,
    # Whether abandoned games (by the standings when they stopped) and games where a
    # person was replaced mid-game move ratings (issue 41 item 4). Off: only games
    # played to the end by the people who began them are rated.
    "rate_unfinished": False,
}
ON_DEADLINE = ("ai", "skip", "abandon")
# The shortest turn deadline (hours). A deadline hands a person's turn to the AI: under
# an hour, people who answer a ping at their own pace (the point of slow play) would
# lose turns to it, and a deadline of seconds would let the AI play every seat.
MIN_DEADLINE_HOURS = 1.0


def check_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Validate a settings change; raises TableError with one sentence."""
    out: dict[str, Any] = {}
    for k, v in settings.items():
        if k not in DEFAULT_SETTINGS:
            raise TableError(f"There is no setting called '{k}'.")
        if k in ("deadline_hours", "reminder_hours"):
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v <= 24 * 60:
                raise TableError(f"'{k}' must be a number of hours from 0 (off) to 1440 (60 days).")
            if k == "reminder_hours" and 0 < v < 0.25:
                raise TableError("Reminders can come at most every 15 minutes (0.25 hours).")
            if k == "deadline_hours" and 0 < v < MIN_DEADLINE_HOURS:
                raise TableError("A turn deadline is at least one hour (1h), or off.")
            out[k] = float(v)
        elif k == "lobby_days":
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 1 <= v <= 365:
                raise TableError("'lobby_days' must be a number of days from 1 to 365.")
            out[k] = float(v)
        elif k in ("auto_play", "hints", "rate_unfinished"):
            if not isinstance(v, bool):
                raise TableError(f"'{k}' must be on or off.")
            out[k] = v
        elif k == "ai_level":
            if v not in search.LEVELS:
                raise TableError("'ai_level' must be easy, normal or hard.")
            out[k] = v
        elif k == "on_deadline":
            if v not in ON_DEADLINE:
                raise TableError("'on_deadline' must be ai, skip or abandon.")
            out[k] = v
        else:
            out[k] = None if v is None else int(v)
    return out


INTEGER = re.compile(r"-?[0-9]{1,18}")


def parse_options(text: str | None) -> dict[str, Any]:
    """``open_treasure=true beginner=false`` -> dict, values as JSON-ish literals."""
    out: dict[str, Any] = {}
    for part in (text or "").replace(",", " ").split():
        if "=" not in part:
            raise TableError(f"Options are written name=value, e.g. open_treasure=true; '{part}' is not.")
        k, v = part.split("=", 1)
        low = v.lower()
        value: Any = True if low in ("true", "yes", "on") else False if low in ("false", "no", "off") else v
        # Plain ASCII digits only: '1①'.isdigit() is True and '--5'.lstrip('-') is
        # digits, yet int() refuses both (found by the reliability fuzzer).
        if isinstance(value, str) and INTEGER.fullmatch(value):
            value = int(value)
        out[k.strip()] = value
    return out


class SettingsMixin(TablesBase):
    async def set_guild_settings(self, guild_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        current = await self.store.guild_settings(guild_id)
        current.update(check_settings(changes))
        await self.store.set_guild_settings(guild_id, current)
        return {**DEFAULT_SETTINGS, **current}

    async def guild_settings(self, guild_id: int | None) -> dict[str, Any]:
        """The server's settings over the defaults."""
        return {**DEFAULT_SETTINGS, **await self.store.guild_settings(guild_id)}

    async def settings_for(self, row: GameRow) -> dict[str, Any]:
        out = {**await self.guild_settings(row.guild_id), **row.settings}
        # Settings stored before the floor existed are read as at least the floor.
        if 0 < out.get("deadline_hours", 0) < MIN_DEADLINE_HOURS:
            out["deadline_hours"] = MIN_DEADLINE_HOURS
        return out

    async def set_notify(self, user_id: int, dm: bool) -> str:
        await self.store.set_dm(user_id, dm)
        if dm:
            return "You will also get a DM when it is your turn (if your DMs are open)."
        return "You will only be pinged in the game threads."
