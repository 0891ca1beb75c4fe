"""Draw Cross-endodoi positions with matplotlib: holes, seeds, stores and the last move's laps.

The board is drawn as seen from South's seat, in data coordinates x 0..8, y 0..3.4::

    y 3.1   (North's counts)                                          North
    y 2.3   [N store] 11  10   9   8   7   6
    y 1.6             (hole indices of both rows)
    y 0.9             0   1   2   3   4   5  [S store]
    y 0.2   South     (South's counts)
            x 0.5     1.5 ...              6.5   7.5

Each store sits on its owner's right. ``draw`` is a pure function of its inputs; ``BoardView``
keeps the artists of one axes and updates them in place, which the widgets use to redraw a
board without making figures. ``sowing_frames`` shows a move seed by seed for animations, from
the engine's trace of the move.

Redrawing is kept cheap for the widgets (a click redraws the whole figure with Agg): what never
changes (the board, rows, stores and fixed labels) is drawn by ``StaticLayer`` as one stored
image, and the counts and lap numbers are ``CachedText``s that reuse the pixels of a string
already drawn. Both draw their artists normally on any other renderer (PDF, SVG).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch, Rectangle
from matplotlib.path import Path
from matplotlib.text import Text

from ...board_adapter import wrap_title
from ...fastdraw import StaticLayer, add_cached_text
from .rules import NUM_HOLES, OFFERED, PLAYER_NAMES, ROW, SWAPPED, CrossEndodoiState, MoveReport, lap_path

__all__ = [
    "AXES_RECT",
    "FIGSIZE",
    "BoardView",
    "SowingFrame",
    "draw",
    "hole_at",
    "hole_xy",
    "sowing_frames",
    "status_text",
]

FIGSIZE = (7.2, 3.6)  # inches; with AXES_RECT the data units come out square
AXES_RECT = (0.0, 0.0, 1.0, 0.86)  # the top strip holds the title
XLIM, YLIM = (0.0, 8.0), (-0.05, 3.35)
SOUTH_Y, NORTH_Y = 0.9, 2.3
HOLE_R = 0.4
STORE_X = (7.5, 0.5)  # South's store on South's right, North's on North's right
MAX_DOTS = 30  # seeds drawn per hole; the count text is always exact
MAX_LAPS_DRAWN = 8  # a longer move shows its last laps only, and says so in the title

BOARD_FACE, BOARD_EDGE = "#e8c99b", "#8b5a2b"
ROW_FACE, MOVER_ROW_FACE = "#e8c99b", "#f7e6c6"
HOLE_FACE, HOLE_EDGE = "#c8a06e", "#7a4e24"
SEED = "#3d2614"
TARGET = "#1b9e77"  # legal holes
ACTIVE = "#d95f02"  # hovered move and animation
PATH = "#1f4e9c"  # the last move's laps
CAPTURE = "#c0392b"


class SowingFrame(NamedTuple):
    """The board at one step of a move: after the start, a lift, a seed dropped or the capture.

    ``lap`` counts from 1 (0 is the position before the move); ``origin`` is the lap's origin;
    ``hole`` the hole just emptied or sown (``None`` at the start); ``in_hand`` the seeds still
    to sow in this lap; ``event`` one of ``"start"``, ``"lift"``, ``"sow"``, ``"capture"``.
    """

    holes: tuple[int, ...]
    stores: tuple[int, int]
    lap: int
    origin: int
    hole: int | None
    in_hand: int
    event: str


# ----------------------------------------------------------------------------- geometry


def hole_xy(hole: int) -> tuple[float, float]:
    """Where ``hole`` is drawn, in data coordinates: South's 0..5 left to right at the bottom,
    North's 11..6 left to right at the top.

    >>> hole_xy(0), hole_xy(11), hole_xy(6)
    ((1.5, 0.9), (1.5, 2.3), (6.5, 2.3))
    """
    if not (type(hole) is int and 0 <= hole < NUM_HOLES):
        raise ValueError(f"cross_endodoi: hole must be an int 0..11, got {hole!r}")
    column = hole if hole < ROW else NUM_HOLES - 1 - hole
    return (1.5 + column, SOUTH_Y if hole < ROW else NORTH_Y)


def hole_at(x: float, y: float) -> int | None:
    """The hole whose cell contains the data point ``(x, y)``, or ``None`` (stores, margins).

    Each hole owns a whole column-by-row cell, so clicks need not hit the circle exactly.

    >>> hole_at(1.6, 1.0), hole_at(6.4, 2.0), hole_at(0.5, 1.0)
    (0, 6, None)
    """
    column = math.floor(x - 1.0)
    middle = (SOUTH_Y + NORTH_Y) / 2
    if not 0 <= column < ROW or not SOUTH_Y - 0.7 <= y <= NORTH_Y + 0.7:
        return None
    return column if y < middle else NUM_HOLES - 1 - column


# ----------------------------------------------------------------------------- drawing


def draw(
    state: CrossEndodoiState,
    ax: Axes | None = None,
    *,
    highlight=(),
    preview: CrossEndodoiState | None = None,
    show_last_move: bool = True,
    frame: SowingFrame | None = None,
    title: str | None = None,
    lap: int | None = None,
) -> Axes:
    """Draw ``state`` on ``ax`` (a new figure when ``None``) and return the axes.

    ``highlight``: holes to ring (legal targets). ``preview``: the position after a candidate
    move (``state.child(action)``); its counts are shown as ``now→after`` and its laps dashed.
    ``show_last_move``: draw the laps of the move that led here (``state.last_move``) and mark
    its capture. ``frame``: draw a step of a move from ``sowing_frames`` instead of the counts.
    ``title`` replaces the status line. ``lap`` (1..laps): of the last move's laps, show that
    one alone in full, the others faint and unnumbered, and say in the title where it went: a
    long relay read lap by lap. ``ax.figure`` displays itself in a notebook.
    """
    if ax is None:
        ax = Figure(figsize=FIGSIZE).add_axes(AXES_RECT)
    view = BoardView(ax)
    view.update(
        state, highlight=highlight, preview=preview, show_last_move=show_last_move, frame=frame, title=title, lap=lap
    )
    return ax


class BoardView:
    """The artists of one drawn board, made once and updated in place by ``update``.

    ``hole_patches``, ``count_texts`` (per hole) and ``store_texts`` (per player) are public so
    that tests and widgets can read what is shown. A hole patch is visible only when its hole is
    highlighted: a plain hole looks the same and is part of the static layer, drawn as one image.
    """

    def __init__(self, ax: Axes):
        self.ax = ax
        ax.set_xlim(*XLIM)
        ax.set_ylim(*YLIM)
        ax.set_aspect("equal", adjustable="box")
        ax.set_axis_off()
        static = [
            FancyBboxPatch((0.08, 0.35), 7.84, 2.5, boxstyle="round,pad=0.05", fc=BOARD_FACE, ec=BOARD_EDGE, lw=2)
        ]
        self.row_patches = [Rectangle((1.02, y - 0.55), 5.96, 1.1, fc=ROW_FACE, ec="none") for y in (SOUTH_Y, NORTH_Y)]
        static += self.row_patches
        static += [
            FancyBboxPatch((x - 0.33, 0.5), 0.66, 2.2, boxstyle="round,pad=0.05", fc=HOLE_FACE, ec=HOLE_EDGE, lw=1.5)
            for x in STORE_X
        ]
        static += [Circle(hole_xy(h), HOLE_R, fc=HOLE_FACE, ec=HOLE_EDGE, lw=1.2) for h in range(NUM_HOLES)]
        for h in range(NUM_HOLES):
            x, y = hole_xy(h)
            static.append(
                Text(x, y + (0.52 if h < ROW else -0.52), str(h), ha="center", va="center", fontsize=8, color="#6b4a2b")
            )
        # Each row's owner, with an arrow along the sowing towards the owner's store (South's on
        # the right, North's on the left): the names sit in the corners the store counts leave free.
        static.append(Text(0.5, 0.15, "South →", ha="center", va="center", fontsize=9, style="italic"))
        static.append(Text(7.5, 3.1, "← North", ha="center", va="center", fontsize=9, style="italic"))
        ax.add_artist(StaticLayer(ax, static))
        # Each hole again, drawn over its plain self in the static layer when highlighted only.
        self.hole_patches = [
            ax.add_patch(Circle(hole_xy(h), HOLE_R, fc=HOLE_FACE, ec=HOLE_EDGE, lw=1.2, visible=False))
            for h in range(NUM_HOLES)
        ]
        self.seeds = ax.scatter(np.empty(0), np.empty(0), s=14, c=SEED, zorder=3, linewidths=0)
        count_style = {"ha": "center", "va": "center", "fontsize": 12, "fontweight": "bold", "zorder": 5}
        self.count_texts = [
            add_cached_text(ax, hole_xy(h)[0], 0.15 if h < ROW else 3.1, **count_style) for h in range(NUM_HOLES)
        ]
        self.store_texts = [
            add_cached_text(ax, STORE_X[0], 0.15, **count_style),
            add_cached_text(ax, STORE_X[1], 3.1, **count_style),
        ]
        # The lap numbers and the capture mark, shown by _draw_laps and hidden (empty) otherwise.
        self._lap_labels = [
            add_cached_text(
                ax,
                0,
                0,
                ha="center",
                va="center",
                fontsize=8,
                color="white",
                zorder=7,
                bbox={"boxstyle": "circle,pad=0.2", "fc": PATH, "ec": "none"},
            )
            for _ in range(MAX_LAPS_DRAWN)
        ]
        self._capture_mark = add_cached_text(ax, 0, 0, ha="center", va="center", fontsize=22, color=CAPTURE, zorder=7)
        self.title = ax.set_title("", fontsize=11, y=1.0)  # a fixed y: no layout work per draw
        self._transient: list = []  # paths and marks of one update, removed by the next

    def update(
        self,
        state: CrossEndodoiState,
        *,
        highlight=(),
        preview: CrossEndodoiState | None = None,
        show_last_move: bool = True,
        frame: SowingFrame | None = None,
        title: str | None = None,
        lap: int | None = None,
    ) -> None:
        """Show ``state``; the keywords are those of ``draw``."""
        for artist in self._transient:
            artist.remove()
        self._transient = []
        for text in (*self._lap_labels, self._capture_mark):
            text.set_text("")
        holes, stores = (frame.holes, frame.stores) if frame is not None else (state.holes, state.stores)
        mover = None if state.is_terminal() else state.to_move  # the side to move, whoever plays it
        for side, patch in enumerate(self.row_patches):
            patch.set_facecolor(MOVER_ROW_FACE if side == mover and frame is None else ROW_FACE)
        self._draw_seeds(holes, stores)
        for h, text in enumerate(self.count_texts):
            _show_count(text, holes[h], preview.holes[h] if preview is not None else None)
        for p, text in enumerate(self.store_texts):
            _show_count(text, stores[p], preview.stores[p] if preview is not None else None)
        targets = set(highlight)
        for h, patch in enumerate(self.hole_patches):
            colour, width = (TARGET, 2.8) if h in targets else (HOLE_EDGE, 1.2)
            patch.set_edgecolor(colour)
            patch.set_linewidth(width)
            patch.set_visible(h in targets)
        if frame is not None:
            self._draw_frame_marks(frame)
        elif preview is not None and preview.last_move is not None:
            self._draw_laps(preview.last_move, ACTIVE, dashed=True)
        elif show_last_move and state.last_move is not None:
            self._draw_laps(state.last_move, PATH, dashed=False, focus=lap)
            if lap is not None:
                title = lap_text(state.last_move, lap)
        self.title.set_text(wrap_title(title if title is not None else status_text(state, frame), FIGSIZE[0]))

    # --- pieces of update ----------------------------------------------------------------

    def _draw_seeds(self, holes, stores) -> None:
        points = []
        for h, count in enumerate(holes):
            x, y = hole_xy(h)
            points.extend((x + dx, y + dy) for dx, dy in _hole_layout(min(count, MAX_DOTS)))
        for p, count in enumerate(stores):
            points.extend((STORE_X[p] + dx, 1.6 + dy) for dx, dy in _store_layout(count))
        self.seeds.set_offsets(np.array(points, dtype=float).reshape(-1, 2))

    def _draw_laps(self, report, colour: str, dashed: bool, focus: int | None = None) -> None:
        """Each lap as an arrow along the ring from its origin to its last hole, numbered; with
        ``focus``, that lap alone numbered and in full, the others faint (and any lap of a long
        move may be the one shown)."""
        laps = report.laps
        if focus is not None and not 1 <= focus <= len(laps):
            raise ValueError(f"cross_endodoi: lap {focus!r} of a move of {len(laps)} laps; laps are 1..{len(laps)}")
        first = max(0, len(laps) - MAX_LAPS_DRAWN) if focus is None else 0
        style = "--" if dashed else "-"
        labels = iter(self._lap_labels)
        for number, lap in enumerate(laps[first:], start=first + 1):
            focused = focus is None or number == focus
            if focus is not None and not focused and abs(number - focus) > 1:
                continue  # a long relay: the lap shown and its neighbours, faint
            shift = 0.12 * (number % 3 - 1)  # overlapping laps stay apart
            points = [(x, y + shift) for x, y in map(hole_xy, _lap_holes(lap))]
            arrow = FancyArrowPatch(
                path=Path(points),
                arrowstyle="-|>",
                mutation_scale=14 if focused else 9,
                color=colour,
                lw=2.6 if focus is not None and focused else 2 if focused else 1,
                ls=style,
                alpha=0.85 if focused else 0.2,
                zorder=7 if focused else 5,
                gid=f"lap {number}" + ("" if focused else " faint"),
            )
            self._add(arrow)
            if focused:
                label = next(labels, None)
                if label is not None:
                    x, y = points[0]
                    label.set_position((x - 0.22, y + 0.22))
                    label.set_text(str(number))
                    label.get_bbox_patch().set_facecolor(colour)
        if report.capture_hole is not None and (focus is None or focus == len(laps)):
            for hole in (report.capture_hole, laps[-1].last):
                self._add(Circle(hole_xy(hole), HOLE_R + 0.04, fill=False, ec=CAPTURE, lw=2.5, zorder=6))
            self._capture_mark.set_position(hole_xy(report.capture_hole))
            self._capture_mark.set_text("×")

    def _draw_frame_marks(self, frame: SowingFrame) -> None:
        """Ring the lap's origin and the hole just sown or emptied."""
        if frame.hole is None:
            return
        colour = CAPTURE if frame.event == "capture" else ACTIVE
        self._add(Circle(hole_xy(frame.origin), HOLE_R + 0.05, fill=False, ec=PATH, lw=2, ls="--", zorder=6))
        self._add(Circle(hole_xy(frame.hole), HOLE_R + 0.05, fill=False, ec=colour, lw=3, zorder=7))

    def _add(self, artist):
        """Add a patch of this update; ``add_artist`` skips ``add_patch``'s data-limit work,
        useless with fixed limits."""
        self._transient.append(self.ax.add_artist(artist))
        return artist


def status_text(state: CrossEndodoiState, frame: SowingFrame | None = None) -> str:
    """One line for the title: whose turn (the side to move, and where the pie rule's swap
    stands), the result, or what an animation frame shows.

    >>> from tabletop_lab import load_game
    >>> status_text(load_game("cross_endodoi").new_initial_state())
    'South to move'
    """
    if frame is not None:
        who = PLAYER_NAMES[state.to_move]
        if frame.event == "start":
            return f"{who} sows hole {frame.origin}"
        if frame.event == "capture":
            return f"{who} captures from hole {frame.hole}"
        return f"{who} sows: lap {frame.lap} from hole {frame.origin}, {frame.in_hand} in hand"
    if state.result() is not None:
        return result_words(state).removeprefix("Game over: ")
    text = f"{PLAYER_NAMES[state.to_move]} to move"
    if state.pie == OFFERED:
        text += f" (or swap sides and take over {PLAYER_NAMES[1 - state.to_move]})"
    elif state.pie == SWAPPED:
        text += " · sides swapped"
    last = last_move_text(state)
    return f"{text} · {last}" if last else text


def result_words(state: CrossEndodoiState) -> str:
    """The end in words (rule 2.4): which side wins, the winner's score first, why play stopped,
    and where the other side's seeds went (and, after a swap, that the sides were swapped).

    >>> from tabletop_lab import load_game
    >>> result_words(load_game("cross_endodoi").load_position("0,0,0,0,0,0/1,2,0,0,0,3 20-10 0"))
    'Game over: South wins, 20–16: South has no seeds left to sow; North gets the 6 seeds left on the board (store 10 + 6)'
    """
    result = state.result()
    if result is None:
        raise ValueError("cross_endodoi: the game is not over, so it has no result to word")
    stuck, other = state.to_move, 1 - state.to_move
    scores = [result.scores[state.seat_of(side)] for side in (0, 1)]  # by side
    if result.is_draw:
        head = f"a draw, {scores[0]}–{scores[1]}"
    else:
        winner = state.seat_of(result.winners[0])  # the winner's side
        head = f"{PLAYER_NAMES[winner]} wins, {scores[winner]}–{scores[1 - winner]}"
    if state.pie == SWAPPED:
        head += " (sides swapped: North's seat played South)"
    why = f"{PLAYER_NAMES[stuck]} has no seeds left to sow"
    left = sum(state.holes)
    if left:
        seeds = f"{left} seed{'s' if left > 1 else ''}"
        why += f"; {PLAYER_NAMES[other]} gets the {seeds} left on the board (store {state.stores[other]} + {left})"
    return f"Game over: {head}: {why}"


def lap_text(report: MoveReport, lap: int) -> str:
    """One lap of a move in words: "Lap 3 of 6: 4 seeds from hole 7 to hole 11, relayed"."""
    laps = report.laps
    step = laps[lap - 1]
    seeds = f"{step.seeds} seed{'s' if step.seeds != 1 else ''}"
    text = f"Lap {lap} of {len(laps)}: {seeds} from hole {step.origin} to hole {step.last}"
    if step.relay:
        text += ", the last seed found company: the sowing goes on from there"
    elif lap == len(laps) and report.captured:
        text += f", captures {report.captured}"
    return text


def last_move_text(state: CrossEndodoiState) -> str:
    """The last move in words ("North sowed hole 3: 2 laps, captured 4"), or "" if none is known."""
    report = state.last_move
    if report is None:
        return ""
    laps = len(report.laps)
    text = f"{PLAYER_NAMES[report.player]} sowed hole {report.hole}: {laps} lap{'s' if laps > 1 else ''}"
    if report.captured:
        text += f", captured {report.captured}"
    if laps > MAX_LAPS_DRAWN:
        text += f" (last {MAX_LAPS_DRAWN} drawn)"
    return text


# ----------------------------------------------------------------------------- animation


def sowing_frames(state: CrossEndodoiState, action: int) -> list[SowingFrame]:
    """Every step of playing ``action`` in ``state``: the start, then per lap the lift and each
    seed dropped, then the capture if any. The last frame is the position after the move.

    The steps come from the engine: its trace of the move (``last_move``: the laps, the
    capture) and the holes each lap sows (``rules.lap_path``); nothing here decides a rule.
    Raises the engine's errors for an illegal action, and ``LapLimitError`` past the game's
    ``max_laps``.

    >>> from tabletop_lab import load_game
    >>> state = load_game("cross_endodoi").new_initial_state()
    >>> frames = sowing_frames(state, 2)
    >>> [f.event for f in frames[:6]]  # 3 seeds sown clockwise, then a relay from hole 11
    ['start', 'lift', 'sow', 'sow', 'sow', 'lift']
    >>> frames[-1].holes == tuple(state.child(2).holes)
    True
    """
    report = state.child(action).last_move  # raises if illegal, or past the lap limit
    skip_origin = state.game.options["skip_origin"]
    holes, stores = list(state.holes), list(state.stores)
    frames = [SowingFrame(tuple(holes), tuple(stores), 0, action, None, 0, "start")]
    for number, lap in enumerate(report.laps, start=1):
        holes[lap.origin] = 0
        in_hand = lap.seeds
        frames.append(SowingFrame(tuple(holes), tuple(stores), number, lap.origin, lap.origin, in_hand, "lift"))
        for hole in lap_path(lap.origin, lap.seeds, skip_origin):
            holes[hole] += 1
            in_hand -= 1
            frames.append(SowingFrame(tuple(holes), tuple(stores), number, lap.origin, hole, in_hand, "sow"))
    if report.captured:
        last = report.laps[-1]
        holes[report.capture_hole] = holes[last.last] = 0
        stores[report.player] += report.captured
        frames.append(
            SowingFrame(tuple(holes), tuple(stores), len(report.laps), last.origin, report.capture_hole, 0, "capture")
        )
    return frames


# ----------------------------------------------------------------------------- helpers

_GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
_DOT_STEP = 0.33 / math.sqrt(MAX_DOTS)


def _hole_layout(n: int) -> list[tuple[float, float]]:
    """Offsets of ``n`` dots in a sunflower spiral that fills a hole at ``MAX_DOTS``."""
    return [
        (
            _DOT_STEP * math.sqrt(i + 0.5) * math.cos(i * _GOLDEN_ANGLE),
            _DOT_STEP * math.sqrt(i + 0.5) * math.sin(i * _GOLDEN_ANGLE),
        )
        for i in range(n)
    ]


def _store_layout(n: int) -> list[tuple[float, float]]:
    """Offsets of ``n`` dots in rows of four, filling a store from the bottom up (at most 72)."""
    n = min(n, 72)
    return [(-0.2 + 0.135 * (i % 4), -0.95 + 0.106 * (i // 4)) for i in range(n)]


def _lap_holes(lap) -> list[int]:
    """The holes a lap passes, origin first, along the ring up to its last hole (one round at most)."""
    steps = ((lap.last - lap.origin) * lap.direction) % NUM_HOLES or NUM_HOLES
    return [(lap.origin + lap.direction * k) % NUM_HOLES for k in range(steps + 1)]


def _show_count(text, now: int, after: int | None) -> None:
    if after is None or after == now:
        text.set_text(str(now))
        text.set_color("black")
    else:
        text.set_text(f"{now}→{after}")
        text.set_color(ACTIVE)
