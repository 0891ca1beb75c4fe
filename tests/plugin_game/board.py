"""Race's board adapter: click the square the count should move to."""

from __future__ import annotations

from typing import Any

from tabletop_lab.board_adapter import BoardAdapter

from . import render


class Adapter(BoardAdapter):
    """Cells are the track's squares 1..target, drawn by the game's renderer."""

    figsize = render.FIGSIZE

    def setup(self, figure: Any) -> Any:
        target = self.game.options["target"]
        self.polygons = {
            s: [(s - 0.4, 0.6), (s + 0.4, 0.6), (s + 0.4, 1.4), (s - 0.4, 1.4)] for s in range(1, target + 1)
        }
        self.ax = figure.add_axes(render.AXES_RECT)
        return self.ax

    def draw(self, state, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        self.ax.clear()
        render.draw(state, self.ax, viewer=viewer)

    def action_cells(self, state, action: int) -> tuple:
        return (state.count + action + 1,)
