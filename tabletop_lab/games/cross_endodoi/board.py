"""Cross-endodoi on the generic board widget: one click on one of your holes is the move.

Cells are hole indices 0..11 (see ``render.hole_at``). Hovering over a legal hole previews
the move: the counts it leaves (``now→after``) and its laps, dashed. An agent's move is
animated a lap at a time from ``render.sowing_frames``. The pie rule's swap has no hole: it is
a button.
"""

from __future__ import annotations

from typing import Any

from ...board_adapter import BoardAdapter, subsample
from ...errors import ActionError
from . import render
from .rules import OFFERED, PLAYER_NAMES, ROW, SWAP, SWAPPED, CrossEndodoiState, LapLimitError

__all__ = ["Adapter"]


class Adapter(BoardAdapter):
    """Holes are cells; ``action_cells`` of hole h is ``(h,)``, of the swap ``()`` (a button)."""

    figsize = render.FIGSIZE
    phrases = (
        (
            r"hole (?P<hole>\d+) belongs to (?P<owner>\w+); \w+ sows one of holes (?P<first>\d+)\.\.(?P<last>\d+)",
            "Hole {hole} belongs to {owner}: you sow from your own row, holes {first}–{last}.",
        ),
        (r"hole (?P<hole>\d+) is empty", "Hole {hole} is empty: choose one of your holes that holds seeds."),
        (r"the game is over: (?P<who>\w+) has no seeds to sow", "The game is over: {who} has no seeds left to sow."),
    )

    def setup(self, figure: Any) -> Any:
        ax = figure.add_axes(render.AXES_RECT)
        self.view = render.BoardView(ax)
        return ax

    def draw(self, state, *, targets=frozenset(), selected=(), preview=None, viewer=None) -> None:
        """Everything is public in Cross-endodoi, so ``viewer`` changes nothing; ``selected`` is
        always empty (one click is a whole move). The title tells the last move only: the
        board's status line says whose turn it is."""
        lap = self.step if preview is None and self.step is not None and self.step <= self.steps(state) else None
        self.view.update(state, highlight=targets, preview=preview, title=render.last_move_text(state), lap=lap)

    def steps(self, state: CrossEndodoiState) -> int:
        """The laps of the last move, when there are several (a relay), to show one by one."""
        report = state.last_move
        return len(report.laps) if report is not None and len(report.laps) > 1 else 0

    def step_name(self) -> str:
        return "lap"

    def legend(self) -> str:
        return (
            "South's row is the lower one, its store on the right; North's the upper one, its store on "
            "the left. Green rings: holes you may sow. Hovering over one previews the move: counts "
            "now→after, its laps dashed. Numbered arrows: the laps of the last move (step through a long "
            "relay lap by lap below the board); ×: a capture."
        )

    def result_words(self, state: CrossEndodoiState) -> str:
        return render.result_words(state)

    def cell_at(self, x: float, y: float) -> int | None:
        return render.hole_at(x, y)

    def cell_xy(self, cell: int) -> tuple[float, float]:
        return render.hole_xy(cell)

    def action_cells(self, state, action: int) -> tuple[int, ...]:
        return () if action == SWAP else (action,)

    def button_label(self, state, action: int) -> str:
        return "swap sides"

    def status_note(self, state: CrossEndodoiState) -> str:
        """Under the pie rule (rule 2.5): at the offer, that the swap is there and what it does;
        after a swap, which row the player to move sows (the seats keep their names)."""
        if state.is_terminal() or state.pie not in (OFFERED, SWAPPED):
            return ""
        side = state.to_move
        if state.pie == SWAPPED:
            return f"the sides are swapped: sow {PLAYER_NAMES[side]}'s row, holes {ROW * side}–{ROW * side + ROW - 1}"
        return f"sow, or swap sides: take over {PLAYER_NAMES[1 - side]}'s row and let the other player move"

    def cell_name(self, cell: int) -> str:
        return f"hole {cell}"

    def refusal(self, state: CrossEndodoiState, cells: tuple) -> str:
        """The engine's own reason, naming the rule: an opponent's hole, an empty one ..."""
        try:
            state.parse_move(str(cells[-1]))
        except ActionError as exc:
            return str(exc)
        return super().refusal(state, cells)

    def preview(self, state: CrossEndodoiState, action: int) -> tuple[CrossEndodoiState | None, str]:
        """The position after sowing ``action``, and its laps and capture in words."""
        if action == SWAP:
            return state.child(action), f"swap: take over {PLAYER_NAMES[1 - state.to_move]}'s row; the board stays"
        try:
            after = state.child(action)
        except LapLimitError as exc:
            return None, str(exc)
        report = after.last_move
        laps = len(report.laps)
        text = f"hole {action}: {laps} lap{'s' if laps > 1 else ''}, ends in hole {report.laps[-1].last}"
        if report.captured:
            text += f", captures {report.captured}"
        return after, text

    def frames(self, state, action: int, max_frames: int, *, fine: bool = True) -> list[render.SowingFrame]:
        """Seed by seed when ``fine``, else the start, the end of each lap and the capture;
        thinned evenly to ``max_frames``. A swap moves no seed: no frames."""
        if action == SWAP:
            return []
        frames = render.sowing_frames(state, action)
        if not fine:
            frames = [f for i, f in enumerate(frames) if f.event in ("start", "capture") or _ends_lap(frames, i)]
        return subsample(frames, max_frames)

    def draw_frame(self, state, frame: render.SowingFrame) -> None:
        self.view.update(state, frame=frame)


def _ends_lap(frames: list[render.SowingFrame], i: int) -> bool:
    """True for the last seed of a lap: the next frame lifts, captures, or there is none."""
    frame = frames[i]
    return frame.event == "sow" and (i + 1 == len(frames) or frames[i + 1].event != "sow")
