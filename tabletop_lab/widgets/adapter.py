"""The per-game half of a board widget: how to draw one game and read clicks on it.

The generic ``Board`` knows nothing about any game's geometry. Each game supplies, in
``tabletop_lab/games/<game>/board.py``, a ``BoardAdapter`` subclass named ``Adapter`` that

* draws positions on a matplotlib axes (through the game's renderer), updating artists in place;
* maps a click (data coordinates) to a **cell**: any hashable the game likes (a hole index, a
  triangle id, a square name);
* says which clicks choose each action: ``action_cells(state, action)`` is the sequence of
  cells clicked to pick it. Cross-endodoi: ``(hole,)``. A piece move in Sinoda or Capitals:
  ``(from_cell, to_cell)``: the first click selects, the board then highlights the matching
  second cells. The sequences of one position's legal actions must be prefix-free.

Turns of several actions need nothing more: the board keeps asking for actions while
``mid_turn()`` holds. Games with hidden information draw for a ``viewer`` seat (``None`` means
everything may be shown), built on ``state.observation(viewer)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from typing import Any

from ..core import Game, State
from ..errors import RulesError

__all__ = ["BoardAdapter", "load_adapter"]


class BoardAdapter:
    """Drawing and click mapping for one game under one rules config.

    Subclasses implement ``setup``, ``draw``, ``cell_at``, ``cell_xy`` and ``action_cells``; the
    other methods have sensible defaults.
    """

    #: Figure size in inches for the board's canvas.
    figsize: tuple[float, float] = (6.0, 4.0)

    def __init__(self, game: Game):
        self.game = game

    def setup(self, figure: Any) -> Any:
        """Create the board's axes and artists on ``figure`` (once); return the axes."""
        raise NotImplementedError

    def draw(
        self,
        state: State,
        *,
        targets: frozenset = frozenset(),
        selected: tuple = (),
        preview: Any = None,
        viewer: int | None = None,
    ) -> None:
        """Show ``state``: ``targets`` are the cells a click may pick next, ``selected`` the cells
        clicked so far in this action, ``preview`` what ``preview()`` returned for the hovered
        action, ``viewer`` the seat whose view is drawn (``None``: everything)."""
        raise NotImplementedError

    def cell_at(self, x: float, y: float) -> Hashable | None:
        """The cell under the data point ``(x, y)``, or ``None``."""
        raise NotImplementedError

    def cell_xy(self, cell: Hashable) -> tuple[float, float]:
        """Where ``cell`` is drawn, in data coordinates (used to click it in tests)."""
        raise NotImplementedError

    def action_cells(self, state: State, action: int) -> tuple:
        """The cells clicked, in order, to choose ``action`` in ``state``."""
        raise NotImplementedError

    def cell_name(self, cell: Hashable) -> str:
        return str(cell)

    def refusal(self, state: State, cells: tuple) -> str:
        """Why clicking ``cells`` picks no legal action, in words."""
        shown = " then ".join(self.cell_name(c) for c in cells)
        return f"{shown}: no legal action of {self.player_name(state.current_player())} starts this way"

    def preview(self, state: State, action: int) -> tuple[Any, str]:
        """What hovering over ``action`` shows: a value for ``draw(preview=...)`` and a line of text."""
        return None, state.action_to_string(action)

    def frames(self, state: State, action: int, max_frames: int, *, fine: bool = True) -> list:
        """At most ``max_frames`` animation frames of playing ``action``: every step of it when
        ``fine``, else only its key moments. None by default (no animation)."""
        return []

    def draw_frame(self, state: State, frame: Any) -> None:
        """Show one frame from ``frames`` (``state`` is the position before the action)."""
        raise NotImplementedError

    def player_name(self, player: int) -> str:
        names = self.game.info.player_names
        return names[player] if player < len(names) else f"Player {player}"


def load_adapter(game: Game) -> BoardAdapter:
    """The board adapter of ``game``, from ``tabletop_lab.games.<name>.board.Adapter``."""
    try:
        module = importlib.import_module(f"tabletop_lab.games.{game.name}.board")
    except ModuleNotFoundError as exc:
        if exc.name != f"tabletop_lab.games.{game.name}.board":
            raise
        raise RulesError(f"game {game.name!r} has no board adapter yet") from None
    return module.Adapter(game)


def subsample(frames: list, max_frames: int) -> list:
    """At most ``max_frames`` of ``frames``, evenly spread, the first and last always kept.

    >>> subsample(list(range(10)), 4)
    [0, 3, 6, 9]
    """
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2, got {max_frames!r}")
    if len(frames) <= max_frames:
        return list(frames)
    last = len(frames) - 1
    return [frames[round(i * last / (max_frames - 1))] for i in range(max_frames)]
