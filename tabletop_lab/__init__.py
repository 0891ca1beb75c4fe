"""tabletop_lab: exact engines, agents and statistics for five tabletop games.

>>> import tabletop_lab
>>> state = tabletop_lab.load_game("cross_endodoi").new_initial_state()
>>> state.legal_moves()
['0', '1', '2', '3', '4', '5']
>>> state.apply_move("2"); state.notation()
'5,5,1,0,4,4/4,0,4,4,4,1 0-0 1'
"""

__version__ = "0.1.0"

from .core import TERMINAL, Game, GameInfo, GameType, Option, Result, State
from .errors import (
    ActionError,
    ActionSyntaxError,
    EngineLimitError,
    EnumerationLimitError,
    IllegalActionError,
    PositionError,
    RulesError,
)
from .records import GameRecord
from .registry import list_games, load_game, register_game

__all__ = [
    "__version__",
    "TERMINAL",
    "Game",
    "GameInfo",
    "GameType",
    "Option",
    "Result",
    "State",
    "GameRecord",
    "list_games",
    "load_game",
    "register_game",
    "ActionError",
    "ActionSyntaxError",
    "EngineLimitError",
    "EnumerationLimitError",
    "IllegalActionError",
    "PositionError",
    "RulesError",
]
