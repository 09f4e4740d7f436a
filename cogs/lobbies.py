"""A lobby's thread: every new game (``/game new``, Play again) plays in a thread opened
from its lobby message."""

from __future__ import annotations

import logging

import discord

from tables import Lobby, Tables

log = logging.getLogger("lairkeeper.lobbies")


async def open_thread(tables: Tables, message: discord.Message, lobby: Lobby) -> None:
    """Open the game's thread from its lobby message and store both; where no thread can
    be opened (no permission, a channel that has none) the game plays in the channel."""
    thread_id = message.channel.id
    try:
        thread = await message.create_thread(
            name=f"{lobby.title} #{lobby.game_id}", auto_archive_duration=10080
        )
        thread_id = thread.id
    except discord.HTTPException:
        log.warning("could not open a thread for game %s; playing in the channel", lobby.game_id)
    await tables.set_refs(lobby.game_id, thread_id=thread_id, lobby_message_id=message.id)
