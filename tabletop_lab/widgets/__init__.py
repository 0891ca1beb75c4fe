"""Jupyter widgets: a playable ``Board``, a ``PuzzleBoard``, a ``ReplayViewer``, ``animate_move``, a ``SimulationPanel``
and a ``VariantLab``.

They need ipywidgets and ipympl (the ``widgets`` extra); ``import tabletop_lab`` does not import
them. Each game plugs into the generic board through ``games/<game>/board.py``, a subclass of
``BoardAdapter`` (``tabletop_lab/board_adapter.py``, re-exported here), which imports no widgets.
"""

from ..board_adapter import BoardAdapter, load_adapter
from .animation import animate_move
from .board import Board
from .links import page_query
from .puzzles import PuzzleBoard
from .replay import ReplayViewer
from .simulation import SimulationPanel
from .variants import VariantLab

__all__ = [
    "Board",
    "BoardAdapter",
    "PuzzleBoard",
    "ReplayViewer",
    "SimulationPanel",
    "VariantLab",
    "animate_move",
    "load_adapter",
    "page_query",
]
