"""Draw any game's state: dispatch to the game's renderer (``Game.part("render")``) and make PNGs.

Every game's renderer module provides ``draw(state, ax=None, **opts) -> Axes`` (a pure
function of its inputs, drawing on a new ``matplotlib.figure.Figure`` when ``ax`` is None),
``FIGSIZE`` and ``AXES_RECT``. Only the object-oriented matplotlib API is used here, never
pyplot, so drawing makes no figure that pyplot would keep alive.
"""

from __future__ import annotations

import io
from types import ModuleType
from typing import Any

from .core import Game, State
from .errors import RulesError
from .registry import game_class

__all__ = ["draw", "figure_png", "renderer", "state_png"]


def renderer(game: Game | str) -> ModuleType:
    """The renderer module of ``game`` (a Game or a game name).

    >>> renderer("cross_endodoi").__name__
    'tabletop_lab.games.cross_endodoi.render'
    """
    cls = game_class(game) if isinstance(game, str) else type(game)
    module = cls.part("render")
    if module is None:
        raise RulesError(f"game {cls.info.name!r} has no renderer")
    return module


def draw(state: State, ax: Any = None, **opts: Any):
    """Draw ``state`` with its game's renderer on ``ax`` (a new figure when None); returns the Axes.

    ``opts`` are the renderer's keywords, for example ``highlight=`` and ``show_last_move=``.
    """
    return renderer(state.game).draw(state, ax, **opts)


def state_png(state: State, **opts: Any) -> bytes:
    """``state`` drawn as PNG bytes, on a throw-away figure.

    >>> from tabletop_lab import load_game
    >>> state_png(load_game("cross_endodoi").new_initial_state())[:8]
    b'\\x89PNG\\r\\n\\x1a\\n'
    """
    return figure_png(draw(state, **opts).figure)


def figure_png(figure: Any, dpi: float | None = None) -> bytes:
    """The PNG bytes of a matplotlib figure (rendered with Agg, whatever its canvas)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()
