"""Monster Inn (Roman Pelek): a push-your-luck bidding game for 3-5 players.

game.py: the Game class and the turn flow; rules.py: the moves and scoring;
notation.py: parse/format/describe and the chooser's steps; views.py: the view,
status and private text; ai.py: choose(view, legal, rnd) and the searching player's
hooks (rollout, evaluate, SEARCH, match_stats); sample.py: a state dealt from a seat's
view, for search; data.py: the cards.
"""

from .game import MonsterInn

GAME = MonsterInn()

# The computer player's module is loaded with the game rather than at the first move it
# is asked for (core's Game._ai_module): its tables are built, and without cached bytecode
# the module compiled, at start-up, not inside the first search.
from . import ai  # noqa: E402, F401  (ai.py needs the game class above)

__all__ = ["GAME", "MonsterInn"]
