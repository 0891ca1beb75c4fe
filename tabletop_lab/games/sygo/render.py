"""Draw Sygo positions with matplotlib: a Go board with coordinates, stones and overlays.

Point ``(column, row)`` is drawn at data coordinates ``x = column``, ``y = row`` (row 0 is row 1
of the notation, at the bottom). Marks on stones:

* the stones the last turn added (or, during a growth turn, the growth stones so far, numbered
  in the order played): a small red dot or number;
* stones reversed by the last turn (or the turn in progress): a square of their former colour;
* during a growth turn, start groups that are closed carry a small grey cross.

Overlays (keywords of ``draw``): ``liberties`` (a point name: the liberties of the group there),
``territory`` (the engine's area estimate as small squares), ``legal`` (ring the points of the
legal actions), ``heat`` (a mapping point name -> value, such as agent visit counts, drawn as a
heat map), ``highlight`` (points to ring, used by the board widget).
``draw`` is a pure function of its inputs and draws mid-turn states from ``state.snapshot()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

from ...board_adapter import wrap_title
from .bitboard import COLUMNS, geometry
from .rules import PLAYER_NAMES, SygoState, area_estimate

__all__ = ["AXES_RECT", "FIGSIZE", "draw", "final_territory", "point_at", "point_xy", "result_words", "status_text"]

FIGSIZE = (6.0, 6.4)
AXES_RECT = (0.02, 0.02, 0.96, 0.9)
BOARD_FACE, LINE = "#dcb35c", "#3b2a14"
STONE = {"W": ("#f7f7f2", "#222222"), "B": ("#151515", "#000000")}
LAST, TARGET, LIBERTY, CLOSED = "#d62728", "#1b9e77", "#2ca02c", "#7f7f7f"
GROW = "#1f5fbf"  # rings of points where a click grows a group (placements ring in TARGET)
RADIUS = 0.46
STAR_POINTS = {9: (2, 4, 6), 13: (3, 6, 9), 19: (3, 9, 15)}


def point_xy(state: SygoState, name: str) -> tuple[float, float]:
    """Where the point ``name`` (such as ``"c3"``) is drawn."""
    p = state.geom.index[name]
    return (float(p % state.geom.size), float(p // state.geom.size))


def point_at(state: SygoState, x: float, y: float) -> str | None:
    """The point nearest to ``(x, y)``, or ``None`` outside the board."""
    size = state.geom.size
    column, row = round(x), round(y)
    if 0 <= column < size and 0 <= row < size and abs(x - column) <= 0.5 and abs(y - row) <= 0.5:
        return state.geom.names[row * size + column]
    return None


def draw(
    state: SygoState,
    ax: Axes | None = None,
    *,
    viewer: int | None = None,
    liberties: str | None = None,
    territory: bool = False,
    legal: bool = False,
    heat: Mapping[str, float] | None = None,
    highlight: Iterable[str] = (),
    show_last_turn: bool = True,
    title: str | None = None,
    growth: Iterable[str] = (),
) -> Axes:
    """Draw ``state`` on ``ax`` (a new figure when ``None``) and return the axes.

    Everything in Sygo is public, so ``viewer`` changes nothing. See the module docstring for
    the overlays; ``title`` replaces the status line. Rings of ``highlight`` points named in
    ``growth`` are dashed blue with a "+" (a click grows a group there), the others green (a
    click places a stone).
    """
    if ax is None:
        ax = Figure(figsize=FIGSIZE).add_axes(AXES_RECT)
    snap = state.snapshot()
    size = snap["size"]
    geom = geometry(size)
    board = {}  # point index -> "W" / "B"
    for r, row in enumerate(snap["board"]):
        for c, char in enumerate(row):
            if char != ".":
                board[(size - 1 - r) * size + c] = char
    _draw_board(ax, size)
    if heat:
        _draw_heat(ax, geom, heat)
    if state.is_terminal():  # the score on the board: each side's territory as small squares
        _draw_areas(ax, geom, final_territory(state))
    elif territory:
        _draw_territory(ax, geom, board)
    _draw_stones(ax, geom, board)
    if show_last_turn:
        _draw_turn_marks(ax, state, snap, board)
    if liberties is not None:
        _draw_liberties(ax, geom, board, liberties)
    rings = set(highlight)
    if legal:
        rings |= {state.action_to_string(a).split(" ")[1] for a in state.legal_actions() if a >= 2}
    grows = set(growth)
    for name in sorted(rings):
        x, y = _xy(geom, geom.index[name])
        if name in grows:  # a growth point: a dashed blue ring with a "+" (the group grows here)
            ring = Circle((x, y), RADIUS * 0.8, fill=False, ec=GROW, lw=2.2, ls="--", zorder=6, gid=f"grow {name}")
            ax.add_patch(ring)
            ax.text(x, y, "+", ha="center", va="center", fontsize=11, color=GROW, fontweight="bold", zorder=6)
        else:
            ax.add_patch(Circle((x, y), RADIUS * 0.8, fill=False, ec=TARGET, lw=2.2, zorder=6, gid=f"place {name}"))
    ax.set_title(wrap_title(title if title is not None else status_text(state), ax.figure.get_figwidth()), fontsize=11)
    return ax


def status_text(state: SygoState) -> str:
    """Who moves, the scores (Black's with its komi, said in brackets), and the result or the
    turn in progress.

    >>> from tabletop_lab import load_game
    >>> status_text(load_game("sygo", size=3, komi=2.5).state_from_notation(".../.B./... W - 0"))
    'White to move · White 0 – Black 11.5 (komi 2.5)'
    """
    white, black = state.scores()
    komi = state.game.options["komi"]
    score = f"White {white} – Black {black}" + (f" (komi {komi})" if komi else "")
    if state.result() is not None:
        return result_words(state)
    mover = PLAYER_NAMES[state.current_player()]
    if state.mid_turn():
        return f"{mover} growing: {' '.join(state.move_in_progress())} · {score}"
    passes = " · 1 pass" if state.passes == 1 else ""
    return f"{mover} to move · {score}{passes}"


def final_territory(state: SygoState) -> tuple[int, int]:
    """(White's, Black's) territory as point masks (rule 2.7): the empty regions whose bordering
    stones are all of one colour."""
    geom, white, black = state.geom, state.white, state.black
    areas = [0, 0]
    for region in geom.groups(geom.full & ~(white | black)):
        border = geom.dilate(region)
        touches_white, touches_black = bool(border & white), bool(border & black)
        if touches_white != touches_black:
            areas[0 if touches_white else 1] |= region
    return areas[0], areas[1]


def result_words(state: SygoState) -> str:
    """The end in words (rule 2.7): who wins, the winner's score first, and each side's stones
    plus territory (the empty points bordering their colour only), plus Black's komi if any.

    >>> from tabletop_lab import load_game
    >>> result_words(load_game("sygo", size=3).state_from_notation(".../.B./... W - 2"))
    'Game over: Black wins, 9–0: Black 1 stone + 8 territory, White 0 stones + 0 territory'
    >>> result_words(load_game("sygo", size=3, komi=0.5).state_from_notation("W.B/W.B/W.B W g 2"))
    'Game over: Black wins, 3.5–3: Black 3 stones + 0 territory + 0.5 komi, White 3 stones + 0 territory'
    """
    result = state.result()
    if result is None:
        raise ValueError("sygo: the game is not over, so it has no result to word")
    scores = result.scores
    order = (0, 1) if result.is_draw or result.winners[0] == 0 else (1, 0)
    stones = (state.white.bit_count(), state.black.bit_count())
    areas = [mask.bit_count() for mask in final_territory(state)]
    head = "a draw" if result.is_draw else f"{PLAYER_NAMES[order[0]]} wins"
    komi = state.game.options["komi"]
    counts = ", ".join(
        f"{PLAYER_NAMES[p]} {stones[p]} stone{'' if stones[p] == 1 else 's'} + {areas[p]} territory"
        + (f" + {komi} komi" if p == 1 and komi else "")
        for p in order
    )
    return f"Game over: {head}, {scores[order[0]]}–{scores[order[1]]}: {counts}"


# ----------------------------------------------------------------------------- pieces


def _xy(geom, p: int) -> tuple[int, int]:
    return p % geom.size, p // geom.size


def _draw_board(ax: Axes, size: int) -> None:
    ax.set_xlim(-1.2, size + 0.2)
    ax.set_ylim(-1.2, size + 0.2)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.add_patch(Rectangle((-0.8, -0.8), size + 0.6, size + 0.6, fc=BOARD_FACE, ec=LINE, lw=1.5, zorder=0))
    for i in range(size):
        ax.plot([0, size - 1], [i, i], color=LINE, lw=0.8, zorder=1)
        ax.plot([i, i], [0, size - 1], color=LINE, lw=0.8, zorder=1)
        ax.text(i, -1.0, COLUMNS[i], ha="center", va="center", fontsize=8)
        ax.text(-1.0, i, str(i + 1), ha="center", va="center", fontsize=8)
    stars = STAR_POINTS.get(size, ())
    ax.scatter([x for x in stars for _ in stars], [y for _ in stars for y in stars], s=12, c=LINE, zorder=1)


def _draw_stones(ax: Axes, geom, board: dict[int, str]) -> None:
    for colour in "WB":
        circles = [Circle(_xy(geom, p), RADIUS) for p, c in sorted(board.items()) if c == colour]
        face, edge = STONE[colour]
        ax.add_collection(PatchCollection(circles, facecolor=face, edgecolor=edge, linewidths=1.0, zorder=3))


def _draw_turn_marks(ax: Axes, state: SygoState, snap: dict, board: dict[int, str]) -> None:
    geom = state.geom
    if state.mid_turn():
        added = [geom.index[name] for name in snap["stones"]]
        reversed_points = [geom.index[name] for name in snap["reversed"]]
        for number, p in enumerate(added, start=1):
            x, y = _xy(geom, p)
            colour = "black" if board.get(p) == "W" else "white"
            ax.text(x, y, str(number), ha="center", va="center", fontsize=9, color=colour, zorder=5)
        closed = [g["at"] for g in snap["groups"] if g["closed"]]
        for name in closed:
            x, y = _xy(geom, geom.index[name])
            ax.plot([x - 0.15, x + 0.15], [y - 0.15, y + 0.15], color=CLOSED, lw=2, zorder=5)
            ax.plot([x - 0.15, x + 0.15], [y + 0.15, y - 0.15], color=CLOSED, lw=2, zorder=5)
    else:
        added_mask, reversed_mask = state.last_turn
        added = [p for p in range(geom.points) if (added_mask >> p) & 1]
        reversed_points = [p for p in range(geom.points) if (reversed_mask >> p) & 1]
        for p in added:
            ax.add_patch(Circle(_xy(geom, p), 0.12, fc=LAST, ec="none", zorder=5))
    for p in reversed_points:  # a square of the colour the stone had before
        x, y = _xy(geom, p)
        former = "B" if board.get(p) == "W" else "W"
        ax.add_patch(Rectangle((x - 0.17, y - 0.17), 0.34, 0.34, fc=STONE[former][0], ec=LAST, lw=1, zorder=4))


def _draw_liberties(ax: Axes, geom, board: dict[int, str], name: str) -> None:
    p = geom.index[name]
    if p not in board:
        return
    stones = sum(1 << q for q, c in board.items() if c == board[p])
    occupied = sum(1 << q for q in board)
    group = geom.flood(1 << p, stones)
    for q in range(geom.points):
        if (geom.liberties(group, geom.full & ~occupied) >> q) & 1:
            ax.add_patch(Circle(_xy(geom, q), 0.15, fc=LIBERTY, ec="none", zorder=5))


def _draw_territory(ax: Axes, geom, board: dict[int, str]) -> None:
    white = sum(1 << p for p, c in board.items() if c == "W")
    black = sum(1 << p for p, c in board.items() if c == "B")
    white_area, black_area = area_estimate(geom, white, black)
    occupied = white | black
    _draw_areas(ax, geom, (white_area & ~occupied, black_area & ~occupied))


def _draw_areas(ax: Axes, geom, areas: tuple[int, int]) -> None:
    """A small square of each colour on the empty points of (White's, Black's) area masks."""
    for colour, area in zip("WB", areas):
        squares = [
            Rectangle((x - 0.14, y - 0.14), 0.28, 0.28)
            for x, y in (_xy(geom, p) for p in range(geom.points) if area >> p & 1)
        ]
        face, edge = STONE[colour]
        ax.add_collection(
            PatchCollection(
                squares, facecolor=face, edgecolor=edge, linewidths=0.5, zorder=2, gid=f"territory-{colour}"
            )
        )


def _draw_heat(ax: Axes, geom, heat: Mapping[str, float]) -> None:
    top = max((abs(v) for v in heat.values()), default=0) or 1
    for name, value in heat.items():
        x, y = _xy(geom, geom.index[name])
        ax.add_patch(
            Rectangle((x - 0.5, y - 0.5), 1, 1, fc="#ff7f0e", alpha=0.7 * abs(value) / top, ec="none", zorder=2)
        )
