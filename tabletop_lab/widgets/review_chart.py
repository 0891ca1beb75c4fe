"""The review's chart under a Play board: the win chance by move, mistakes marked, clickable.

``plots.plot_review`` draws the chart on an ipympl canvas (``controls.make_canvas``). A click
on it picks the move nearest the click, and the board goes to the position before that move,
as picking it in the move list does: the board then shows the move played, its label and the
better move. The move on screen is marked on the chart by a vertical line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..plots import plot_review
from .controls import make_canvas

__all__ = ["ReviewChart"]


class ReviewChart:
    """The chart of one review at a time (``show``), calling ``on_pick(move)`` (1-based, as in
    the review's ``move`` column) when a move is clicked. ``widget`` is the canvas to lay out."""

    FIGSIZE = (7.2, 3.2)

    def __init__(self, on_pick: Callable[[int], None]) -> None:
        self._on_pick = on_pick
        self.figure = make_canvas(self.FIGSIZE)
        self.figure.set_layout_engine("constrained")
        self.widget = self.figure.canvas
        self.widget.add_class("tl-review-chart")
        self.widget.layout.display = "none"
        self.widget.mpl_connect("button_press_event", self._on_press)
        self._drawn: tuple | None = None  # (review, side, move marked) on the canvas
        self._frame: Any = None

    def show(self, frame: Any, teams: Any, seat: int, name: str, move: int | None) -> None:
        """Chart ``frame`` (an ``analysis.review`` DataFrame, ``None`` to hide the chart) for
        ``seat``'s side, named ``name``, with ``move`` (the move on screen, or ``None``) marked.
        Redraws only when one of them changed."""
        self.widget.layout.display = "none" if frame is None else None
        self._frame = frame
        if frame is None:
            self._drawn = None
            return
        key = (id(frame), seat, move)
        if key == self._drawn:
            return
        self._drawn = key
        self.figure.clear()
        ax = plot_review(frame, teams, seat, name, ax=self.figure.add_subplot())
        if move is not None:
            ax.axvline(move, color="grey", linewidth=1)
        ax.set_title("Click a move to see it on the board", fontsize="small", loc="left")
        canvas = self.widget
        if getattr(canvas, "syncing_data_url", True):
            canvas.draw_idle()  # no browser view yet: it asks for its first picture itself
        else:
            canvas.draw()

    def move_at(self, x: float) -> int | None:
        """The move nearest the chart's x coordinate ``x`` (``None``: no review, or off the moves)."""
        if self._frame is None or len(self._frame) == 0:
            return None
        move = round(x)
        return move if 1 <= move <= len(self._frame) else None

    def _on_press(self, event: Any) -> None:
        if event.inaxes is None or event.xdata is None:
            return
        move = self.move_at(event.xdata)
        if move is not None:
            self._on_pick(move)
