"""The live private turn message (issue 26): each player's newest private message of a
game, and the newest interaction whose token may still edit it.

Discord lets a bot edit an ephemeral message only through an interaction token: the
one that created it, or one of a component clicked on it (``PATCH
/webhooks/{application}/{token}/messages/@original``), for 15 minutes after that
interaction. When a player's turn begins and their last click on their turn message is
recent enough, the bot edits that message to show the new turn, so they play on
without pressing "Your move" on the board.

Kept in memory only, on purpose: a token is a credential to this player's private
message, the store need not hold it, and it is useless 15 minutes later anyway. A
restart forgets every record; the player then presses "Your move" as before.

The newest message is the live one: when a player opens a second private turn message
(pressing "Your move" again, typing /play), the older one is retired (its buttons
removed, one sentence pointing at the newer one), so two messages never offer the same
turn."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from dataclasses import dataclass

import discord

log = logging.getLogger("lairkeeper.cogs")

# Discord's interaction tokens live 15 minutes; a turn is carried into the private
# message only while the player's last click on it is younger than this (a minute to
# spare for the panel's drawing and a slow request).
DEFAULT_SECONDS = 14 * 60
TOKEN_SECONDS = 15 * 60
ENV = "LAIRKEEPER_TURN_MESSAGE_SECONDS"
MAX_KEPT = 20_000  # records kept at most (the oldest go first); each is one interaction
RETIRED = "Your turn goes on in your newer private message below."


def live_seconds() -> float:
    """How long after a player's last click the bot still carries their next turn into
    their private message: ``LAIRKEEPER_TURN_MESSAGE_SECONDS`` (0: never), default 14
    minutes, at most the token's 15."""
    text = (os.environ.get(ENV) or "").strip()
    if not text:
        return DEFAULT_SECONDS
    try:
        value = float(text)
    except ValueError:
        log.warning("%s=%r is not a number of seconds; using %d", ENV, text, DEFAULT_SECONDS)
        return DEFAULT_SECONDS
    return max(0.0, min(value, TOKEN_SECONDS))


def received(interaction: discord.Interaction) -> float:
    """When the bot received ``interaction`` (monotonic seconds); its token's 15 minutes
    began a little earlier, which the margin covers."""
    at = interaction.extras.get("lk_received")
    if not isinstance(at, float):
        at = time.monotonic()
        interaction.extras["lk_received"] = at
    return at


@dataclass
class Live:
    interaction: discord.Interaction  # the newest whose @original is the turn message
    message_id: int | None  # the turn message (None: not known)
    at: float  # when that interaction was received (time.monotonic)
    version: int | None = None  # the game version its choices belong to (None: it offers none)


class LiveTurns:
    """Per (game, user): the live private turn message."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = live_seconds() if seconds is None else seconds
        self._live: dict[tuple[int, int], Live] = {}
        self._locks: dict[tuple[int, int], asyncio.Lock] = {}

    def lock(self, game_id: int, user_id: int) -> asyncio.Lock:
        return self._locks.setdefault((game_id, user_id), asyncio.Lock())

    def get(self, game_id: int, user_id: int) -> Live | None:
        """The live record if its token is young enough to edit the message with."""
        live = self._live.get((game_id, user_id))
        if live is None:
            return None
        if time.monotonic() - live.at >= self.seconds:
            self._live.pop((game_id, user_id), None)
            return None
        return live

    def keep(
        self,
        game_id: int,
        user_id: int,
        interaction: discord.Interaction,
        message_id: int | None,
        version: int | None = None,
    ) -> Live | None:
        """``interaction`` just showed ``user_id``'s turn message ``message_id`` (its
        @original), offering choices of game ``version``: it is the live one now.
        Returns the record of an older, different message that is still editable, to
        be retired."""
        key = (game_id, user_id)
        old = self.get(game_id, user_id)
        self._live.pop(key, None)  # re-inserted last: the dict's order is the age
        self._live[key] = Live(interaction, message_id, received(interaction), version)
        while len(self._live) > MAX_KEPT:
            gone = next(iter(self._live))
            self._live.pop(gone, None)
            self._locks.pop(gone, None)
        if old is None or old.interaction is interaction:
            return None
        if message_id is not None and old.message_id == message_id:
            return None
        return old

    def drop(self, game_id: int, user_id: int, live: Live | None = None) -> None:
        """Forget the record (only ``live``, if given: a newer one stays)."""
        key = (game_id, user_id)
        if live is None or self._live.get(key) is live:
            self._live.pop(key, None)

    def __len__(self) -> int:
        return len(self._live)


async def retire(live: Live) -> None:
    """Take the buttons off an older private turn message: the newer one is live."""
    try:
        await live.interaction.edit_original_response(
            content=RETIRED, view=None, attachments=[], allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as exc:  # expired or gone: its buttons are version guarded anyway
        log.info("an older private turn message was not retired (%s)", exc.status)


NOT_YOURS = "That is another player's private message; your own turn is on the board's Your move button."


def clicked_someone_elses(interaction: discord.Interaction) -> bool:
    """A click on a private message that answered another person (issue 39). Discord's
    client cannot send one (nobody else sees an ephemeral message), but a forged or
    replayed request can: it would play the clicker's move and write their answer
    into the other player's message. A public message (a board) is anyone's."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    meta = getattr(message, "interaction_metadata", None) or getattr(message, "interaction", None)
    owner = getattr(getattr(meta, "user", None), "id", None)
    return owner is not None and owner != interaction.user.id
