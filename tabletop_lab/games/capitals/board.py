"""Capitals on the generic board widget: squares are diamond-shaped polygon cells.

Cells are square names (``"d4"``). Clicks choose actions as follows (``action_cells``):

* a step: the piece, then the square it goes to; a chain's first jump: the piece, then the
  landing; a dismantle: the Ram, then the square for its top piece. A Ram's step and its
  dismantle to the same square share a click sequence: the Board asks which one is meant;
* during a chain, each ``hop`` is one click on its landing square;
* ``sacrifice`` and ``release``: one click on the square;
* ``transfer``, ``pass-turn``, ``skip`` and ``stop`` have no cell: the Board shows them as buttons.

The diamonds are ``polygons``: the shared ``BoardAdapter`` finds the square under a click and
each square's centre from them.
"""

from __future__ import annotations

from typing import Any

from ...board_adapter import BoardAdapter
from . import render
from .geometry import (
    DISMANTLE,
    HOP,
    JUMP,
    KIND,
    RELEASE,
    SACRIFICE,
    SOURCE,
    SQUARE_NAMES,
    STEP,
    TARGET,
)
from .rules import CapitalsState

__all__ = ["Adapter"]


class Adapter(BoardAdapter):
    """Square names are cells; see the module docstring for the click sequences."""

    figsize = render.FIGSIZE
    polygons = {name: render.square_polygon(name) for name in SQUARE_NAMES}

    def setup(self, figure: Any) -> Any:
        self.view = render.BoardView(figure.add_axes(render.AXES_RECT))
        return self.view.ax

    def draw(self, state, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        """Everything is public, so ``viewer`` changes nothing."""
        self.view.update(state, highlight=targets, selected=selected)

    def action_cells(self, state: CapitalsState, action: int) -> tuple:
        kind = KIND[action]
        if kind in (STEP, JUMP, DISMANTLE):
            return (SQUARE_NAMES[SOURCE[action]], SQUARE_NAMES[TARGET[action]])
        if kind in (HOP, SACRIFICE, RELEASE):
            return (SQUARE_NAMES[TARGET[action]],)
        return ()

    def button_label(self, state: CapitalsState, action: int) -> str:
        return state.action_to_string(action)

    def result_words(self, state: CapitalsState) -> str:
        return render.result_words(state)

    def preview(self, state: CapitalsState, action: int) -> tuple[Any, str]:
        return None, state.action_to_string(action)
