"""The idempotency key of an interaction that makes a move (issue 39).

The key is stored with the move, in the move's own transaction (store/db.py,
``actions.move_key``), so a second try of the same interaction is answered with
what became of the first ("Your move was already taken.") and never applied
twice, even when the first try's answer was lost or came too late.

- A component (a private move button, a chooser pick or Done, a select): its
  custom id, which names the game and the version the choice belongs to, the
  values picked in a select, and the user. A second click of the same button by
  the same person is the same key, whichever interaction carries it.
- A typed command (``/play``): the interaction's id, which Discord gives each
  command once; a command delivered twice (a gateway resume) is the same key.
"""

from __future__ import annotations

import discord


def move_key(interaction: discord.Interaction) -> str:
    """The key of the move ``interaction`` makes (at most 160 characters)."""
    data = interaction.data or {}
    custom_id = data.get("custom_id") if interaction.type == discord.InteractionType.component else None
    if not custom_id:
        return f"i{interaction.id}"
    values = data.get("values") or []
    picked = "=" + ",".join(str(v)[:8] for v in values[:1]) if values else ""
    return f"c{str(custom_id)[:100]}{picked}@{interaction.user.id}"
