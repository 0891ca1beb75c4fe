"""Sinoda on the generic board widget: click a piece, then a destination or a +/- button.

Cells are the board's cell names (``"U2,0"``) plus two pseudo-cells, ``"+"`` and ``"-"``: the
buttons drawn next to the selected piece. Every action takes two clicks:

* ``move A B`` is ``(A, B)``: the first click selects the piece (its destinations light up), the
  second picks where it goes;
* ``change A +`` is ``(A, "+")`` and ``change A -`` is ``(A, "-")``: after the first click the
  piece shows a small ``+`` button above its right corner and a ``−`` button below it (only
  those its value allows).

The triangles are the base class's polygon cells (``polygons``: hit-testing and centroids come
from there); the buttons are tested first while they are shown.
"""

from __future__ import annotations

import math
from typing import Any

from matplotlib.patches import Circle

from ...board_adapter import BoardAdapter
from ...errors import ActionError
from . import render
from .rules import SinodaState

__all__ = ["Adapter"]

CHANGE_BUTTONS = ("+", "-")
BUTTON_R = 0.22  # radius of the +/- buttons, in board units (a triangle's side is 1)


class Adapter(BoardAdapter):
    """Triangles are cells; a piece's actions are ``(cell, destination)`` or ``(cell, "+"/"-")``."""

    figsize = render.FIGSIZE

    def __init__(self, game):
        super().__init__(game)
        self.polygons = render.cell_polygons(game.board)
        self._buttons: dict[str, tuple[float, float]] = {}  # shown buttons and their centres

    def setup(self, figure: Any) -> Any:
        self.ax = figure.add_axes(render.AXES_RECT)
        return self.ax

    def draw(self, state, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        """Redraw: targets ringed, the selected piece marked with its +/- buttons."""
        ax = self.ax
        ax.clear()
        board_targets = [t for t in targets if t not in CHANGE_BUTTONS]
        piece = selected[0] if selected else None
        render.draw(state, ax, highlight=board_targets, selected=piece, reachable=None)
        self._buttons = {}
        if piece is not None:
            x, y = render.centroid(self.polygons[piece])
            for sign, dy in (("+", 0.3), ("-", -0.3)):
                if sign in targets:
                    centre = (x + 0.55, y + dy)
                    self._buttons[sign] = centre
                    ax.add_patch(Circle(centre, BUTTON_R, fc="white", ec=render.REACH, lw=2, zorder=8, gid=sign))
                    label = "+" if sign == "+" else "−"
                    ax.text(*centre, label, ha="center", va="center", fontsize=11, fontweight="bold", zorder=9)

    def cell_at(self, x: float, y: float) -> str | None:
        for sign, (bx, by) in self._buttons.items():
            if math.hypot(x - bx, y - by) <= BUTTON_R:
                return sign
        return super().cell_at(x, y)

    def cell_xy(self, cell: str) -> tuple[float, float]:
        if cell in CHANGE_BUTTONS:
            if cell not in self._buttons:
                raise ValueError(f"sinoda: the {cell} button is not shown (select a piece first)")
            return self._buttons[cell]
        return super().cell_xy(cell)

    phrases = (
        (
            r"(?P<c>\S+) is empty; \w+ must change or move one of their own pieces",
            "{c} is empty: click one of your own pieces.",
        ),
        (
            r"(?P<c>\S+) holds (?P<who>\w+)'s piece; \w+ changes or moves only their own",
            "That piece is {who}'s: you change or move only your own.",
        ),
        (
            r"nobody changes or moves a teammate's piece",
            "That piece is your teammate's: you change or move only your own.",
        ),
        (r"the piece on (?P<c>\S+) shows 1", "A 1 can only go up: values stay within 1–4."),
        (r"the piece on (?P<c>\S+) shows 4", "A 4 can only go down: values stay within 1–4."),
        (r"a move cannot end where it starts", "A move cannot end where it starts: a path never comes back."),
        (
            r"(?P<d>\S+) holds \w+'s own piece; a move ends on",
            "{d} holds your own piece: a move ends on an empty cell or captures an opponent's piece.",
        ),
        (r"a teammate's; teammates are never captured", "That piece is your teammate's: teammates are never captured."),
        (
            r"wrong length: (?P<d>\S+) is not exactly (?P<v>\d) (?P<steps>steps?) from (?P<c>\S+)",
            "{d} is not exactly {v} {steps} from {c}: a piece moves exactly as many steps as it shows.",
        ),
        (
            r"every (?P<v>\d)-step path from (?P<c>\S+) to (?P<d>\S+) passes through a piece",
            "Every {v}-step path from {c} to {d} is blocked: no piece may be jumped over.",
        ),
    )

    def team_name(self, team: int) -> str:
        """As the picture's panel names the teams (their pieces' edge colours)."""
        return f"team {render.TEAM_NAMES[team % len(render.TEAM_NAMES)]}"

    def legend(self) -> str:
        return (
            "Click a piece, then a ringed cell to move it or + / − to change its value. "
            "Arrow: the last move; ×: a capture; shaded flowers: start cells."
        )

    def result_note(self, state: SinodaState) -> str:
        """The Win by Sinoda inequality, when the game ended so."""
        return state.sinoda_arithmetic() or ""

    def result_words(self, state: SinodaState) -> str:
        return render.result_words(state)

    def action_cells(self, state: SinodaState, action: int) -> tuple[str, str]:
        words = state.action_to_string(action).split(" ")
        return (words[1], words[2])  # (cell, "+"/"-") or (from, to)

    def cell_name(self, cell: str) -> str:
        return {"+": "the + button", "-": "the − button"}.get(cell, cell)

    def refusal(self, state: SinodaState, cells: tuple) -> str:
        """The engine's own reason, naming the rule (empty cell, another's piece, wrong length ...)."""
        if len(cells) == 1:  # no action starts here: an empty cell or another player's piece
            reason = state._illegal_reason(state.string_to_action(f"change {cells[0]} +"))
            return reason or super().refusal(state, cells)
        if cells[1] in CHANGE_BUTTONS:
            move = f"change {cells[0]} {cells[1]}"
        else:
            move = f"move {cells[0]} {cells[1]}"
        try:
            state.parse_move(move)
        except ActionError as exc:
            return str(exc)
        return super().refusal(state, cells)

    def preview(self, state: SinodaState, action: int) -> tuple[Any, str]:
        """The hovered action in words, with the capture it makes."""
        text = state.action_to_string(action)
        after = state.child(action)
        captured = after.last_move.captured
        if captured is not None:
            owner, value = captured
            text += f": captures {render.PLAYER_NAMES[owner]}'s {value}"
        return None, text
