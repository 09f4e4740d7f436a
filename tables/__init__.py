"""The application layer: one table is one game in one Discord thread.

Loads a game, checks who may act, applies the action, saves, renders and
returns plain results. Knows nothing of discord: cogs turn these results into
messages. Player mistakes raise :class:`TableError` with one sentence and change
nothing.

:class:`Tables` is the one facade the cogs call; each concern is its own module:

- ``results``  what comes back: TableError, Lobby, Update, Notice, the chooser's Step and Panel
- ``base``     store, clock, locks, loading, saving a move, the game catalogue, timer changes
- ``lobby``    lobbies, seats, start, abandon, handing a seat to the AI
- ``rematch``  Play again: the next game of a table, its people asked to confirm
- ``play``     one move, the AI loop, autocomplete and the private move buttons
- ``chooser``  the step-by-step move chooser (half-made moves kept as drafts)
- ``board``    the board images and message, the private "my area" reply
- ``text``     players' names in engine texts, final scores, fitting a message
- ``timers``   reminders, deadlines, vacations, my games
- ``history``  /history, /replay, /undo
- ``replay``   the one replay of a stored game (seed + log, each move on the rules it was played under)
- ``revisions`` games carried to newer rules at start-up, and their threads told what changed
- ``stats``    /stats: ratings leaderboards, a player's plot, tonight's table
- ``ratings``  the ratings (OpenSkill), a pure function of the games that ended
- ``rules``    /rules: the How to play section, the rest attached
- ``hints``    the "Hint" button: the normal search's best moves for a seat, privately
- ``settings`` server and game settings, DM opt-in
- ``upkeep``   boards owed to a thread, handing a seat over, pause/resume/extend,
               lobby expiry, "tell me when I'm next", /mygames in pages
"""

from __future__ import annotations

from engine import search
from store import CommitUnknown, DatabaseTimeout
from tables.base import NOT_TAKEN, SLOW, GameInfo, MoveTaken, TablesBase, replayed
from tables.board import BoardMixin
from tables.chooser import ChooserMixin
from tables.hints import HintsMixin
from tables.history import TAKEN_BACK, HistoryMixin
from tables.lobby import LobbyMixin
from tables.play import CHOICE_REF, PlayMixin
from tables.rematch import Again, RematchMixin
from tables.replay import Replay, same_state
from tables.results import (
    HOUR,
    MAX_BUTTONS,
    MAX_STEP_IMAGES,
    Lobby,
    Notice,
    Panel,
    Step,
    TableError,
    Update,
    clean_sentence,
)
from tables.revisions import RevisionsMixin
from tables.rules import GuidePage, RulesMixin
from tables.settings import DEFAULT_SETTINGS, ON_DEADLINE, SettingsMixin, check_settings, parse_options
from tables.stats import StatsMixin
from tables.text import MESSAGE_ROOM, display_name, fit_message
from tables.timers import TimersMixin
from tables.upkeep import UpkeepMixin

# The strengths of computer players (engine/search.py), for the menus of the cogs.
AI_LEVELS = search.LEVELS


class Tables(
    UpkeepMixin,
    LobbyMixin,
    RematchMixin,
    ChooserMixin,
    PlayMixin,
    BoardMixin,
    TimersMixin,
    HistoryMixin,
    StatsMixin,
    RulesMixin,
    HintsMixin,
    SettingsMixin,
    RevisionsMixin,
    TablesBase,
):
    """The one facade the cogs call (see the module docstring for what is where)."""


__all__ = [
    "AI_LEVELS",
    "Again",
    "GuidePage",
    "CHOICE_REF",
    "NOT_TAKEN",
    "SLOW",
    "TAKEN_BACK",
    "CommitUnknown",
    "DatabaseTimeout",
    "MoveTaken",
    "DEFAULT_SETTINGS",
    "HOUR",
    "MAX_BUTTONS",
    "MAX_STEP_IMAGES",
    "MESSAGE_ROOM",
    "ON_DEADLINE",
    "GameInfo",
    "Lobby",
    "Notice",
    "Panel",
    "Replay",
    "Step",
    "TableError",
    "Tables",
    "Update",
    "check_settings",
    "clean_sentence",
    "display_name",
    "fit_message",
    "parse_options",
    "replayed",
    "same_state",
]
