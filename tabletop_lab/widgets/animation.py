"""One move as a self-contained animation: ``animate_move(state, action)`` shows it step by step.

The frames come from the game's board adapter (Cross-endodoi: every seed, lap after lap) and
are rendered to a JavaScript player by ``FuncAnimation.to_jshtml``: no kernel is needed to play
it, so it works headless, in exported notebooks and in Voila. Matplotlib's player draws its
buttons with Font Awesome icons fetched from a CDN, blank without internet; ``offline_player``
swaps them for Unicode symbols, so the HTML needs nothing from outside.
"""

from __future__ import annotations

import re

from matplotlib.figure import Figure

from ..board_adapter import load_adapter
from ..core import State

__all__ = ["animate_move"]

#: Matplotlib's Font Awesome button icons -> Unicode symbols (U+FE0E asks for text, not emoji).
_BUTTON_SYMBOLS = {
    "fa fa-minus": "\u2212",
    "fa fa-fast-backward": "\u23ee\ufe0e",
    "fa fa-step-backward": "\u25c2",
    "fa fa-play fa-flip-horizontal": "\u25c0\ufe0e",
    "fa fa-pause": "\u23f8\ufe0e",
    "fa fa-play": "\u25b6\ufe0e",
    "fa fa-step-forward": "\u25b8",
    "fa fa-fast-forward": "\u23ed\ufe0e",
    "fa fa-plus": "+",
}
_ICON = re.compile(r'<i class="(fa [^"]*)"></i>')
_STYLESHEET_LINK = re.compile(r"<link\b[^>]*\bhref=\"https?://[^\"]*\"[^>]*>")


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
    return HTML(offline_player(animation.to_jshtml(default_mode="once")))


def offline_player(html: str) -> str:
    """``to_jshtml`` output without its CDN stylesheet, each icon replaced by a Unicode symbol.

    Raises ``ValueError`` for an icon it does not know (a new matplotlib may add one), rather
    than leaving a blank button.
    """

    def symbol(match: re.Match) -> str:
        if match.group(1) not in _BUTTON_SYMBOLS:
            raise ValueError(f"animation player: no symbol for the icon {match.group(1)!r}")
        return _BUTTON_SYMBOLS[match.group(1)]

    return _ICON.sub(symbol, _STYLESHEET_LINK.sub("", html))
