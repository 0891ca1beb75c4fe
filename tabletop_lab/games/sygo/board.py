"""Sygo on the generic board widget: a click on a point places or grows a stone there.

Cells are point names (``"c3"``). A click on a point is the ``place`` or ``grow`` action at that
point (the two are never both legal at one point: a growth point touches a start group of the
mover, a placement point touches no stone of the mover). ``pass`` and ``finish`` have no cell:
the Board shows them as buttons. During a growth turn the targets show which points can still
grow, so which groups are still allowed to grow.
"""

from __future__ import annotations

from typing import Any

from ...board_adapter import BoardAdapter
from . import render
from .bitboard import geometry
from .rules import SygoState

__all__ = ["Adapter"]

BUTTONS = {0: "Pass", 1: "Finish turn"}


def growth_points(state: SygoState, points) -> frozenset[str]:
    """Those of ``points`` where a click grows a group (a legal ``grow``), not places a stone."""
    if not points:
        return frozenset()
    grows = {state.action_to_string(a) for a in state.legal_actions()}
    return frozenset(p for p in points if f"grow {p}" in grows)


class Adapter(BoardAdapter):
    """Points are cells; ``action_cells`` is ``(point,)`` for stones and ``()`` for pass/finish."""

    figsize = render.FIGSIZE
    phrases = (
        (r"the game is over: both players passed", "The game is over: both players passed in a row."),
        (r"(?P<p>\b[a-z]+[0-9]+) is occupied", "Point {p} is taken: choose an empty point."),
        (
            r"place (?P<p>\S+) touches \w+'s stone at (?P<q>\S+)",
            "A new stone may not touch your own stones ({q} is next to {p}): grow your group there instead.",
        ),
        (
            r"suicide: (?:the turn would leave|it leaves) (?P<g>.+) without liberties",
            "That would leave {g} with no liberties: suicide is not allowed.",
        ),
        (
            r"(?P<p>\S+) is not adjacent to a growing group",
            "Point {p} touches none of your groups from the start of this turn: a growth stone extends one of them.",
        ),
        (
            r"(?P<g>.+) has already grown this turn",
            "{g} has already grown this turn: each group grows by one stone per turn.",
        ),
        (
            r"(?P<g>.+) is closed: a capture this turn merged it",
            "{g} is closed: a capture this turn merged it, so it grows no more this turn.",
        ),
        (
            r"a placement cannot follow growth",
            "After growing you cannot place a stone: only Black's balancing move does that.",
        ),
        (
            r"the balancing move is gone",
            "Black's balancing move is gone: a growth move has already been made in this game.",
        ),
        (
            r"no legal turn can be completed after it",
            "After that stone every way to end the turn leaves one of your groups without liberties.",
        ),
        (
            r"a growth turn is in progress; pass",
            "You are in the middle of a growth turn: press Finish turn instead of passing.",
        ),
    )

    def setup(self, figure: Any) -> Any:
        self.ax = figure.add_axes(render.AXES_RECT)
        return self.ax

    def draw(self, state: SygoState, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        self.ax.clear()
        render.draw(state, self.ax, highlight=targets, growth=growth_points(state, targets))

    def cell_at(self, x: float, y: float) -> str | None:
        size = self.game.options["size"]
        column, row = round(x), round(y)
        if 0 <= column < size and 0 <= row < size and abs(x - column) <= 0.5 and abs(y - row) <= 0.5:
            return geometry(size).names[row * size + column]
        return None

    def cell_xy(self, cell: str) -> tuple[float, float]:
        geom = geometry(self.game.options["size"])
        p = geom.index[cell]
        return (float(p % geom.size), float(p // geom.size))

    def action_cells(self, state: SygoState, action: int) -> tuple:
        if action in BUTTONS:
            return ()
        return (state.action_to_string(action).split(" ")[1],)

    def button_label(self, state: SygoState, action: int) -> str:
        return BUTTONS.get(action, state.action_to_string(action))

    def preview(self, state: SygoState, action: int) -> tuple[Any, str]:
        """What a click here does, in words: a new stone, or a group growing (before the click)."""
        text = state.action_to_string(action)
        kind, _, point = text.partition(" ")
        if kind == "grow":
            return None, f"{point}: grows your group there (growth: each of your groups grows by one stone)"
        if kind == "place":
            balancing = state.mid_turn()
            return None, f"{point}: places a new stone" + (" (Black's balancing move)" if balancing else "")
        return None, text

    def result_words(self, state: SygoState) -> str:
        return render.result_words(state)

    def cell_name(self, cell: str) -> str:
        return f"point {cell}"

    def legend(self) -> str:
        return (
            "Red dots: the stones of the last turn; small squares: stones reversed by it (their former colour). "
            "During a growth turn the stones are numbered in order and closed groups crossed. "
            "Before you click: a green ring places a new stone there; a dashed blue ring with + grows one of "
            "your groups there (a growth turn: each group of the turn's start grows by one stone)."
        )

    def refusal(self, state: SygoState, cells: tuple) -> str:
        """The engine's reason, naming the rule: occupied, not next to a growing group, grown, closed ..."""
        p = state.geom.index[cells[-1]]
        may_place = not state.mid_turn() or state.turn.balancing
        kind = "place" if may_place and not state.turn.src[p] else "grow"
        action = state.string_to_action(f"{kind} {cells[-1]}")
        reason = state._illegal_reason(action)
        if reason is None:
            return super().refusal(state, cells)
        return f"{state.action_to_string(action)}: {reason}"
