"""A local Discord stand-in for end-to-end tests (test-only; see server.py).

standin = await StandIn().start()          # listens on 127.0.0.1, random port
# run the bot with LAIRKEEPER_DISCORD_BASE=standin.base
await standin.wait_ready()
alice = standin.user(101, "alice")
r = await alice.slash("game new", game="monster-inn")
"""

from tests.standin.actors import Actor
from tests.standin.server import Attachment, DiscordError, Interaction, Message, StandIn

__all__ = ["Actor", "Attachment", "DiscordError", "Interaction", "Message", "StandIn"]
