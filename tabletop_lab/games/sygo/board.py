"""Sygo on the generic board widget: a click on a point places or grows a stone there.

Cells are point names (``"c3"``). A click on a point is the ``place`` or ``grow`` action at that
point (the two are never both legal at one point: a growth point touches a start group of the
mover, a placement point touches no stone of the mover). ``pass`` and ``finish`` have no cell:
the Board shows them as buttons. During a growth turn the targets show which points can still
grow, so which groups are still allowed to grow.
"""

from __future__ import annotations

from typing import Any

from ...board_adapter import BoardAdapter
from . import render
from .bitboard import geometry
from .rules import SygoState

__all__ = ["Adapter"]

BUTTONS = {0: "Pass", 1: "Finish turn"}


class Adapter(BoardAdapter):
    """Points are cells; ``action_cells`` is ``(point,)`` for stones and ``()`` for pass/finish."""

    figsize = render.FIGSIZE

    def setup(self, figure: Any) -> Any:
        self.ax = figure.add_axes(render.AXES_RECT)
        return self.ax

    def draw(self, state: SygoState, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        self.ax.clear()
        render.draw(state, self.ax, highlight=targets)

    def cell_at(self, x: float, y: float) -> str | None:
        size = self.game.options["size"]
        column, row = round(x), round(y)
        if 0 <= column < size and 0 <= row < size and abs(x - column) <= 0.5 and abs(y - row) <= 0.5:
            return geometry(size).names[row * size + column]
        return None

    def cell_xy(self, cell: str) -> tuple[float, float]:
        geom = geometry(self.game.options["size"])
        p = geom.index[cell]
        return (float(p % geom.size), float(p // geom.size))

    def action_cells(self, state: SygoState, action: int) -> tuple:
        if action in BUTTONS:
            return ()
        return (state.action_to_string(action).split(" ")[1],)

    def button_label(self, state: SygoState, action: int) -> str:
        return BUTTONS.get(action, state.action_to_string(action))

    def result_words(self, state: SygoState) -> str:
        return render.result_words(state)

    def cell_name(self, cell: str) -> str:
        return f"point {cell}"

    def legend(self) -> str:
        return (
            "Red dots: the stones of the last turn; small squares: stones reversed by it (their former colour). "
            "During a growth turn the stones are numbered in order and closed groups crossed. "
            "Green rings: points where you may place or grow."
        )

    def refusal(self, state: SygoState, cells: tuple) -> str:
        """The engine's reason, naming the rule: occupied, not next to a growing group, grown, closed ..."""
        p = state.geom.index[cells[-1]]
        may_place = not state.mid_turn() or state.turn.balancing
        kind = "place" if may_place and not state.turn.src[p] else "grow"
        action = state.string_to_action(f"{kind} {cells[-1]}")
        reason = state._illegal_reason(action)
        if reason is None:
            return super().refusal(state, cells)
        return f"{state.action_to_string(action)}: {reason}"
