"""Computer players move after the person who moved was answered (issue 39): a
searching player thinks up to seconds a move, and a stuck worker up to the pool's
limit, and before, the mover's "Move taken" waited for all of it (31 s with a
stopped worker). Now the answer goes first; the computers then move, and the turn's
board (one for the mover's move and theirs) is posted, carrying the next turn into
the private turn messages of those it pings (the mover's included)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from cogs.posting import post_board
from cogs.stopping import stopper
from tables import DatabaseTimeout, TableError, Tables, Update

log = logging.getLogger("lairkeeper.cogs")

_running: set[asyncio.Task[Any]] = set()  # a reference is kept: tasks are weakly held


def computers_after(interaction: discord.Interaction, update: Update) -> None:
    """The mover is answered: computer players still to move think now."""
    if update.thinking:
        task = asyncio.create_task(computers_move(interaction.client, update.game_id))
        _running.add(task)
        task.add_done_callback(_running.discard)


async def computers_move(client: discord.Client, game_id: int) -> None:
    """Let the computer players of ``game_id`` move, then post the board owed. Never
    raises: what fails stays owed, and the timer loop posts it (or, for moves not
    made, the next start lets the computers move)."""
    tables: Tables = client.tables  # type: ignore[attr-defined]
    try:
        async with stopper(client).work():  # a stop waits for it
            update = await tables.computers_move(game_id)
            if update is not None:
                await post_board(client, update)
    except TableError:  # the bot is stopping: the next start lets them move
        log.info("game %s: the computer players move at the next start", game_id)
    except (DatabaseTimeout, discord.HTTPException, OSError, TimeoutError):
        log.warning("game %s: the computers' board waits (database or Discord)", game_id)
    except Exception:
        log.exception("game %s: the computer players' moves after a reply failed", game_id)
