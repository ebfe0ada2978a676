"""The rules engine of 1001 (Тисяча одне) in pure Python: cards, rules, deals, games, records.

No Django here: the web app, the bots and the command line all build on this package.
"""

from .actions import Action
from .cards import CARDS, Card, Rank, Suit
from .deal import DealState, Marriage, Trick, deck_from_hands
from .errors import EngineError, IllegalActionError, RecordError, RuleOptionError
from .game import Game
from .observation import Observation
from .options import DEFAULT_RULES, RuleSet

__all__ = [
    "CARDS",
    "DEFAULT_RULES",
    "Action",
    "Card",
    "DealState",
    "EngineError",
    "Game",
    "IllegalActionError",
    "Marriage",
    "Observation",
    "Rank",
    "RecordError",
    "RuleOptionError",
    "RuleSet",
    "Suit",
    "Trick",
    "deck_from_hands",
]
