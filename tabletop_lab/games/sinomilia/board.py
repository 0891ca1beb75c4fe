"""Sinomilia on the generic board widget: click a card of your hand to set it (or to change to it).

Cells are ``("hand", k)`` for card k of the hand drawn at the bottom (the mover's, when the board
shows the mover's view) and ``"set"`` for the bottom player's set card (``change`` to the same
card). Chips and passes have no cell: the Board shows them as buttons (``button_label``).
"""

from __future__ import annotations

from typing import Any

from ...board_adapter import BoardAdapter
from ...errors import ActionError
from . import render
from .rules import CHANGE, PASS, SUN, SinomiliaState

__all__ = ["Adapter"]

_BUTTONS = {SUN: "chip (sun)", SUN + 1: "chip (moon)", PASS: "pass"}


class Adapter(BoardAdapter):
    """Hand cards are cells; chips and pass are buttons."""

    phrases = (
        (
            r"out of turn: round \d+ is in its setting phase",
            "First set a card: click one of your hand's cards. Chips, changes and passes come after both cards are set.",
        ),
        (r"card (?P<card>\d+) is not in \w+'s hand", "Card {card} is not in your hand: click one of your cards."),
        (
            r"out of turn: cards are set only at the start of a round",
            "Cards are set only at the start of a round; to swap your set card, click it or a card of your hand (change).",
        ),
        (
            r"pile is empty: a player without chips can only pass",
            "Your pile is empty: without chips you can only pass.",
        ),
        (r"has already changed this round", "You have already changed your card this round: once per round."),
        (
            r"card (?P<card>\d+) is neither in \w+'s hand",
            "Card {card} is neither in your hand nor your set card: click one of your cards.",
        ),
    )

    figsize = render.FIGSIZE

    def __init__(self, game):
        super().__init__(game)
        self.bottom = 0  # the player whose hand is drawn at the bottom (the viewer)

    def setup(self, figure: Any) -> Any:
        self.ax = figure.add_axes(render.AXES_RECT)
        return self.ax

    def draw(self, state, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        """Draw what ``viewer`` may see; legal cards of the bottom hand are ringed."""
        self.ax.clear()
        self.bottom = 0 if viewer is None else viewer
        render.draw(state, self.ax, viewer=viewer)
        for cell in targets:
            x, y = self.cell_xy(cell)
            self.ax.add_patch(
                render.FancyBboxPatch(
                    (x - render.CARD_W / 2 - 0.05, y - render.CARD_H / 2 - 0.05),
                    render.CARD_W + 0.1,
                    render.CARD_H + 0.1,
                    boxstyle="round,pad=0.03",
                    fc="none",
                    ec="#1b9e77",
                    lw=2.5,
                    zorder=4,
                )
            )

    def cell_at(self, x: float, y: float):
        if abs(y - render.HAND_Y["bottom"]) > render.CARD_H / 2:
            return None
        sx, _ = render.set_card_xy("bottom")
        if abs(x - sx) <= render.CARD_W / 2:
            return "set"
        slot = round((x - 0.6) / 0.6)
        if 0 <= slot <= 9 and abs(x - render.card_xy(slot, "bottom")[0]) <= render.CARD_W / 2:
            return ("hand", slot)
        return None

    def cell_xy(self, cell) -> tuple[float, float]:
        if cell == "set":
            return render.set_card_xy("bottom")
        return render.card_xy(cell[1], "bottom")

    def action_cells(self, state: SinomiliaState, action: int) -> tuple:
        """``set k``: the card k; ``change k``: card k, or the set card when k is the card set now.

        Cards are cells only when the mover's hand is the one drawn at the bottom; otherwise, and
        for chips and passes, the action has no cell (a button).
        """
        if state.current_player() != self.bottom:
            return ()
        if action < SUN:
            return (("hand", action),)
        if CHANGE <= action < PASS:
            card = action - CHANGE
            return ("set",) if card == state.cards[state.to_move] else (("hand", card),)
        return ()

    def refusal(self, state: SinomiliaState, cells: tuple) -> str:
        """The engine's reason for the card clicked: ``set k`` or ``change k``, naming the rule."""
        cell = cells[-1]
        if state.current_player() == self.bottom:
            card = state.cards[state.to_move] if cell == "set" else cell[1]
            verb = "set" if state.to_dict()["phase"] == "set" else "change"
            try:
                state.parse_move(f"{verb} {card}")
            except ActionError as exc:
                return str(exc)
        return super().refusal(state, cells)

    def result_words(self, state: SinomiliaState) -> str:
        return render.result_words(state)

    def button_label(self, state: SinomiliaState, action: int) -> str:
        return _BUTTONS.get(action) or state.action_to_string(action)

    def cell_name(self, cell) -> str:
        return "your set card" if cell == "set" else f"card {cell[1]}"
