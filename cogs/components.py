"""The persistent components of the lobby, the board and the private turn message,
registered at start-up (bot.py) so that clicks on messages posted before a restart
are still handled. (The guide's, the hints' and Play again's are registered beside
them: GUIDE_ITEMS, HINT_ITEMS, REMATCH_ITEMS.)"""

from __future__ import annotations

from cogs.hand import HandButton
from cogs.lobby_view import AddAISelect, LobbyButton
from cogs.panel import MoveButton, StepButton, StepSelect
from cogs.posting import ChooseButton

DYNAMIC_ITEMS = (LobbyButton, AddAISelect, MoveButton, ChooseButton, HandButton, StepButton, StepSelect)
