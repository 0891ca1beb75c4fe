"""Race drawn as a track of squares 1..target, the count's square filled."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure

FIGSIZE = (4.0, 1.2)
AXES_RECT = (0.0, 0.0, 1.0, 1.0)


def draw(state: Any, ax: Any = None, *, viewer: int | None = None, **overlays: Any):
    """The track with the count marked; a new figure when ``ax`` is None."""
    if ax is None:
        ax = Figure(figsize=FIGSIZE).add_axes(AXES_RECT)
    target = state.game.options["target"]
    ax.set_xlim(0, target + 1)
    ax.set_ylim(0, 2)
    ax.set_axis_off()
    for square in range(1, target + 1):
        filled = square <= state.count
        ax.add_patch(square_patch(square, "tab:blue" if filled else "white"))
    ax.set_title(f"count {state.count} of {target}")
    return ax


def square_patch(square: int, colour: str):
    """The patch of ``square`` on the track."""
    from matplotlib.patches import Rectangle

    return Rectangle((square - 0.4, 0.6), 0.8, 0.8, facecolor=colour, edgecolor="black")
