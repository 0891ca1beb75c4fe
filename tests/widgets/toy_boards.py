"""Board adapters for the toy test games, named in their ``Game.parts``: the Board is
tested on what the real games need (moves of several actions, 3-6 seats in teams, actions
without a cell, clicks that complete several actions, hidden cards) before they exist.

Every adapter describes its cells as polygons (triangles and diamonds) and inherits the hit
test; each draws plain texts, so tests can read what the picture shows.
"""

from __future__ import annotations

from typing import Any

import tests.toy_games
import tests.toy_hidden
import tests.toy_team  # noqa: F401  (registers test_team)
from tabletop_lab.board_adapter import BoardAdapter

#: Names the hidden-card adapter gives the card values: words no other text on the board contains.
CARD_NAMES = ("jack", "queen", "king", "ace", "joker")


def diamond(x: float, y: float, r: float = 0.4) -> list[tuple[float, float]]:
    return [(x - r, y), (x, y - r), (x + r, y), (x, y + r)]


def triangle(x: float, y: float, r: float = 0.4) -> list[tuple[float, float]]:
    return [(x - r, y - r), (x + r, y - r), (x, y + r)]


class TextBoard(BoardAdapter):
    """A board of labelled polygons and one line of text, on axes spanning 0..8 x 0..3."""

    figsize = (4.0, 2.0)

    def setup(self, figure: Any) -> Any:
        ax = figure.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, 8)
        ax.set_ylim(0, 3)
        ax.set_axis_off()
        self.line = ax.text(4, 2.6, "", ha="center")
        self.marks = {cell: ax.text(*self.cell_xy(cell), "", ha="center") for cell in self.polygons}
        return ax

    def draw(self, state, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        self.line.set_text(self.describe(state, viewer))
        for cell, text in self.marks.items():
            text.set_text("*" if cell in targets else "+" if cell in selected else "")

    def describe(self, state, viewer) -> str:
        return str(state.snapshot())


class NimBoard(TextBoard):
    """A take of k stones is one click on the triangle k."""

    polygons = {k: triangle(2 * k, 1) for k in (1, 2, 3)}

    def action_cells(self, state, action: int) -> tuple:
        return (action,)


class TrapBoard(TextBoard):
    """``draw`` is a button; ``fight`` the triangle; ``reply0`` the left diamond, ``reply1`` the
    left then the right diamond (a prefix), every other reply the right diamond (shared)."""

    polygons = {"arena": triangle(1, 1), "left": diamond(4, 1), "right": diamond(6, 1)}

    def action_cells(self, state, action: int) -> tuple:
        text = state.action_to_string(action)
        if text == "draw":
            return ()
        if text == "fight":
            return ("arena",)
        return {"reply0": ("left",), "reply1": ("left", "right")}.get(text, ("right",))

    def button_label(self, state, action: int) -> str:
        return "offer a draw"


class TeamBoard(TextBoard):
    """Advancing token p by s steps: click p's diamond, then the triangle of s."""

    polygons = {
        **{("token", p): diamond(1 + p, 1.5, 0.3) for p in range(6)},
        **{("step", s): triangle(2 + 2 * s, 0.5, 0.3) for s in (1, 2)},
    }

    def action_cells(self, state, action: int) -> tuple:
        player, step = divmod(action, 2)
        return (("token", player), ("step", step + 1))


class HiddenCardBoard(TextBoard):
    """No cells (every action is a button); the picture names the cards the viewer may see."""

    polygons = {}

    def describe(self, state, viewer) -> str:
        seen = state.to_dict() if viewer is None else state.observation(viewer)
        cards = ["?" if c is None else CARD_NAMES[c] for c in seen["cards"]]
        return f"cards {' / '.join(cards)}; bets {' '.join(seen['bets'])}"

    def action_cells(self, state, action: int) -> tuple:
        return ()
