"""One move as a self-contained animation: ``animate_move(state, action)`` shows it step by step.

The frames come from the game's board adapter (Cross-endodoi: every seed, lap after lap) and
are rendered to a JavaScript player by ``FuncAnimation.to_jshtml``: no kernel is needed to play
it, so it works headless, in exported notebooks and in Voila.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from ..board_adapter import load_adapter
from ..core import State

__all__ = ["animate_move"]


def animate_move(state: State, action: int | str, *, max_frames: int = 40, interval_ms: int = 300):
    """An ``IPython.display.HTML`` animation of playing ``action`` (an int or a move string).

    Long moves are thinned evenly to ``max_frames`` frames, the first and last kept. Raises the
    engine's errors for an illegal action, and ``ValueError`` if the game has no animation.
    """
    from IPython.display import HTML
    from matplotlib.animation import FuncAnimation

    if isinstance(action, str):
        action = state.parse_move(action)
    adapter = load_adapter(state.game)
    frames = adapter.frames(state, action, max_frames)
    if not frames:
        raise ValueError(f"{state.game.name} has no move animation")
    figure = Figure(figsize=adapter.figsize)
    adapter.setup(figure)
    animation = FuncAnimation(
        figure, lambda i: adapter.draw_frame(state, frames[i]), frames=len(frames), interval=interval_ms, repeat=False
    )
    return HTML(animation.to_jshtml(default_mode="once"))
