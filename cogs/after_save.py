"""What a player is told once their move is saved (issue 39): the move was taken,
whatever fails after the save. A saved move answered "your move was not taken. Try
again in a minute." (the database had stalled between the commit and the read of
the mover's next turn) was retried and played twice; nothing after a save may
invite a retry."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from tables import MoveTaken

log = logging.getLogger("lairkeeper.cogs")

# A saved move whose next turn (the mover's again) could not be read: the board's
# "Your move" button shows it once the database answers.
NEXT_TURN_LATER = "Your next turn is on the board's Your move button when the database answers again."
TAKEN_LATER = "Move taken. The board will be posted shortly."


@contextlib.asynccontextmanager
async def saved(game_id: int) -> AsyncIterator[None]:
    """Around what follows a saved move (the board, the mover's answer): a failure
    there is logged and answered "Move taken" (MoveTaken), never "not taken"."""
    try:
        yield
    except MoveTaken:
        raise
    except Exception:
        log.exception("game %s: a saved move's answer failed", game_id)
        raise MoveTaken(TAKEN_LATER) from None
