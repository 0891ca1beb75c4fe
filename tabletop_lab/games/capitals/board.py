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
    ACTION_OF,
    CONTROLLER,
    DISMANTLE,
    HOP,
    JUMP,
    KIND,
    RELEASE,
    SACRIFICE,
    SOURCE,
    SQUARE_NAMES,
    SQUARE_OF,
    STEP,
    TARGET,
)
from .rules import CapitalsState

__all__ = ["Adapter"]


def _neighbours(square: str) -> list[str]:
    """The names of the squares next to ``square`` (any direction)."""
    file, rank = ord(square[0]) - ord("a"), int(square[1])
    return [
        f"{chr(ord('a') + file + df)}{rank + dr}"
        for df in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (df or dr) and 0 <= file + df < 8 and 1 <= rank + dr <= 8
    ]


class Adapter(BoardAdapter):
    """Square names are cells; see the module docstring for the click sequences."""

    figsize = render.FIGSIZE
    polygons = {name: render.square_polygon(name) for name in SQUARE_NAMES}
    phrases = (
        (r"the Hunger sacrifice is due", "Hunger: choose one of your pieces to sacrifice."),
        (
            r"there is no piece on (?P<sq>\w+) to sacrifice",
            "Hunger: {sq} is empty. Choose one of your pieces to sacrifice.",
        ),
        (
            r"the unit on (?P<sq>\w+) is not yours: the sacrifice",
            "Hunger: the unit on {sq} is not yours. Choose one of your own pieces to sacrifice.",
        ),
        (
            r"(?P<sq>\w+) is a Ram: Ram pieces may be sacrificed only",
            "Hunger: {sq} is a Ram, and these rules sacrifice single pieces only. Choose a single piece.",
        ),
        (
            r"released prisoners wait to be placed: .* of (?P<who>.+)'s Territory",
            "First put the released prisoner down: click an empty square of {who}'s Territory.",
        ),
        (
            r"^(?P<sq>[a-h][1-8]) is not in (?P<who>.+)'s Territory",
            "{sq} is not in {who}'s Territory: the released prisoner goes on an empty square there.",
        ),
        (
            r"the unit on (?P<sq>\w+) is controlled by (?P<who>.+?); .+ moves only their own units",
            "The unit on {sq} is {who}'s: you move only the units you control.",
        ),
        (r"^there is no piece on (?P<sq>\w+)$", "There is no piece on {sq}: click one of your own units first."),
        (r"^the unit on (?P<sq>\w+) has no legal move", "The unit on {sq} has no legal move now."),
        (
            r"a jump chain is in progress on (?P<sq>\w+)",
            "Your jump chain is on {sq}: click its next landing square, or press Stop.",
        ),
        (
            r"(?P<to>\w+) is not two squares from (?P<here>\w+) in a straight line",
            "{to} is no landing: a jump goes two squares in a straight line from {here}, over a unit.",
        ),
        (
            r"(?P<sq>\w+) holds an enemy unit: a step may not land on it",
            "{sq} holds an enemy unit: a step never lands on one; capture by jumping over it.",
        ),
    )

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

    def refusal(self, state: CapitalsState, cells: tuple) -> str:
        """The engine's reason for the squares clicked, naming the rule: during a Hunger
        sacrifice, a release or a chain the clicked square names it; else the first click's unit
        or the move from the first square to the second."""
        square = cells[-1]
        if state.releases:
            return self._reason(state, f"release {square}")
        if state.pending_sacrifice:
            return self._reason(state, f"sacrifice {square}")
        if state.chain is not None:
            return self._reason(state, f"hop {square}")
        if len(cells) == 1:
            code = state.board[SQUARE_OF[square]]
            if not code:
                return f"there is no piece on {square}"
            if CONTROLLER[code] != state.actor:
                return self._reason(state, next(f"step {square} {n}" for n in _neighbours(square)))
            return f"the unit on {square} has no legal move now (rule 3)"
        start, end = cells[0], cells[1]
        for kind in ("step", "jump", "dismantle"):
            text = f"{kind} {start} {end}"
            if text in ACTION_OF:
                return self._reason(state, text)
        return f"{end} is neither next to {start} nor two squares away in a line: no step or jump goes there (rule 3)"

    def _reason(self, state: CapitalsState, text: str) -> str:
        return state._illegal_reason(ACTION_OF[text]) or f"{text}: not legal here"

    def team_name(self, team: int) -> str:
        return render.TEAM_NAMES[team]

    def status_note(self, state: CapitalsState) -> str:
        """What the mover must do now, when it is not an ordinary move (rule 5.1, 5.2)."""
        if state.releases:
            _, territory = state.releases[0]
            return f"put the released prisoner on an empty square of {render.PLAYER_NAMES[territory]}'s Territory"
        if state.pending_sacrifice:
            return "Hunger: choose one of your pieces to sacrifice"
        return ""

    def legend(self) -> str:
        return (
            "Discs: pieces, light for White's and dark for Black's, ▲ upright (top and right) or ▼ flipped "
            "(bottom and left) by owner; the outline's colour is the player controlling the unit "
            "(blue White (top), red Black (right), green White (bottom), orange Black (left)). "
            "Two stacked discs: a Ram. Stars: the four Capitals; tinted squares: each player's Territory. "
            "Beside each corner: that player's Cage (prisoners) and Altar (sacrifices). Blue arrows: the "
            "last move's path or the chain so far. Yellow outlines: squares you may click; pink: your "
            "selection. HUNGER behind the board: a slot of a Hunger Epoch (every fourth cycle, or from slot "
            "1 of cycles 8, 16, ... to the next slot 0 with hunger_first = alternate), when a "
            "non-capturing move costs a sacrifice."
        )

    def result_words(self, state: CapitalsState) -> str:
        return render.result_words(state)

    def preview(self, state: CapitalsState, action: int) -> tuple[Any, str]:
        return None, state.action_to_string(action)
