"""Analysis: an evaluation and best line for any position (``analyse``) and a review of a whole
game (``review``), by each game's expert and an exact solver for small endgames.

>>> from tabletop_lab import load_game
>>> from tabletop_lab.analysis import analyse
>>> state = load_game("cross_endodoi").new_initial_state()
>>> found = analyse(state, budget=500)
>>> found.best_move in state.legal_moves(), 0 <= found.value <= 1
(True, True)

See ``docs/analysis.md`` for what the values mean and how the review labels moves.
"""

from .position import Analysis, MoveValue, analyse, expert_budget
from .review import COLUMNS, THRESHOLDS, label_for, review
from .solver import Solver, solvable

__all__ = [
    "Analysis",
    "MoveValue",
    "analyse",
    "expert_budget",
    "review",
    "label_for",
    "THRESHOLDS",
    "COLUMNS",
    "Solver",
    "solvable",
]
