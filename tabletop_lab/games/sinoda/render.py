"""Draw Sinoda positions with matplotlib: the board of triangles, d4 pieces, scores and overlays.

The board is drawn in the spec's coordinates (vertex ``(q, r)`` at ``x = q + r/2``,
``y = r*sqrt(3)/2``, y up). Each piece is a d4 seen from above: a triangle in its owner's
colour with its three edges running to the apex, the top value in the middle. To the right of
the board a panel lists every player: colour, name, team, points captured (with the captured
pieces as small d4s in their owners' colours) and pieces left. The latest turn is marked (an
arrow for a move, a ring for a change, a cross on a capture).

Overlays (keywords of ``draw``): ``reachable=<cell>`` shades where that piece can move,
``attacked_by=<player>`` shades every cell that player's pieces can reach (pieces under threat
get a red ring), ``highlight`` rings cells (a widget's click targets), ``selected`` marks a
cell. Custom boards whose cell names are not triangle names are drawn on a ring of small
triangles.
"""

from __future__ import annotations

import math

from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, Polygon, Rectangle

from ...board_adapter import wrap_title
from .geometry import Board
from .rules import PLAYER_NAMES, SinodaState

__all__ = ["AXES_RECT", "COLOURS", "FIGSIZE", "cell_polygons", "centroid", "draw", "status_text"]

FIGSIZE = (9.0, 5.6)  # inches; board on the left, the players' panel on the right
AXES_RECT = (0.0, 0.0, 1.0, 0.93)  # the top strip holds the title

#: Piece colours by seat, matching ``rules.PLAYER_NAMES``.
COLOURS = ("#2b6cb0", "#c53030", "#2f855a", "#d69e2e", "#6b46c1", "#dd6b20")
#: Edge colour of the pieces of each team (team games only), and its name in the panel.
TEAM_EDGES = ("#111111", "#f7fafc", "#8b5a2b")
TEAM_NAMES = ("dark", "light", "brown")

BOARD_FACE, BOARD_EDGE = "#f3ead7", "#b9a88a"
REACH = "#1b9e77"
ATTACK = "#e53e3e"
LAST = "#444444"
CAPTURE = "#c0392b"
PIECE_SCALE = 0.72  # a piece's triangle relative to its cell


def centroid(points) -> tuple[float, float]:
    xs, ys = zip(*points, strict=True)
    return sum(xs) / len(xs), sum(ys) / len(ys)


def cell_polygons(board: Board) -> dict[str, list[tuple[float, float]]]:
    """Every cell's outline in data coordinates: its triangle, or for a custom board with other
    names, a small triangle on a ring (in the cells' order).

    >>> from tabletop_lab.games.sinoda.geometry import standard_board
    >>> [tuple(round(c, 2) for c in p) for p in cell_polygons(standard_board(2))["U0,0"]]
    [(0.0, 0.0), (1.0, 0.0), (0.5, 0.87)]
    """
    polygons = {name: board.polygon(i) for i, name in enumerate(board.names)}
    if all(p is not None for p in polygons.values()):
        return polygons
    n = board.size
    radius = max(2.0, n / (2 * math.pi) * 1.2)
    ring = {}
    for i, name in enumerate(board.names):
        angle = math.pi / 2 - 2 * math.pi * i / n
        cx, cy = radius * math.cos(angle), radius * math.sin(angle)
        ring[name] = [(cx + 0.5 * math.cos(a), cy + 0.5 * math.sin(a)) for a in (angle, angle + 2.094, angle + 4.189)]
    return ring


def draw(
    state: SinodaState,
    ax: Axes | None = None,
    *,
    viewer: int | None = None,
    highlight=(),
    selected: str | None = None,
    reachable: str | None = None,
    attacked_by: int | None = None,
    show_last_move: bool = True,
    title: str | None = None,
) -> Axes:
    """Draw ``state`` on ``ax`` (a new figure when ``None``) and return the axes.

    ``viewer`` changes nothing (everything in Sinoda is public). ``highlight``: cell names to
    ring; ``selected``: a cell to mark as picked; ``reachable``: a cell holding a piece, whose
    destinations are shaded; ``attacked_by``: a player whose reachable cells are shaded;
    ``show_last_move``: mark the turn that led here; ``title`` replaces the status line.
    """
    if ax is None:
        ax = Figure(figsize=FIGSIZE).add_axes(AXES_RECT)
    board = state.game.board
    polygons = cell_polygons(board)
    xs = [x for p in polygons.values() for x, _ in p]
    ys = [y for p in polygons.values() for _, y in p]
    left, right, bottom, top = min(xs), max(xs), min(ys), max(ys)
    unit = (top - bottom) / 9  # one panel row
    panel_x = right + 0.6
    ax.set_xlim(left - 0.3, panel_x + 6.2 * unit * 1.15)
    ax.set_ylim(bottom - 0.3, top + 0.3)
    ax.set_aspect("equal", adjustable="box")
    ax.set_axis_off()

    snapshot = state.snapshot()
    pieces = {cell: (player, value) for cell, player, value in snapshot["pieces"]}
    seat_of = {board.names[c]: p for p, seat in enumerate(board.seats) for c in seat}
    faces = [_tint(COLOURS[seat_of[name]], 0.82) if name in seat_of else BOARD_FACE for name in board.names]
    ax.add_collection(
        PolyCollection([polygons[n] for n in board.names], facecolors=faces, edgecolors=BOARD_EDGE, linewidths=0.8)
    )

    if reachable is not None:
        _shade(ax, polygons, state.reachable_cells(reachable), REACH, "reachable")
        _ring(ax, polygons, [reachable], REACH, 2.5, "reachable from")
    if attacked_by is not None:
        attacked = state.attacked_cells(attacked_by)
        _shade(ax, polygons, attacked, ATTACK, "attacked")
        _ring(ax, polygons, [c for c in attacked if c in pieces], ATTACK, 2.5, "threatened")
    if highlight:
        _ring(ax, polygons, list(highlight), REACH, 2.2, "highlight")
    if selected is not None:
        _ring(ax, polygons, [selected], "#000000", 3.0, "selected")

    teams = state.game.teams()
    team_games = any(len(t) > 1 for t in teams)
    team_of = {p: t for t, members in enumerate(teams) for p in members}
    for cell, (player, value) in pieces.items():
        edge = TEAM_EDGES[team_of[player] % len(TEAM_EDGES)] if team_games else "#1a202c"
        _d4(
            ax, polygons[cell], COLOURS[player], value, edge=edge, width=2.2 if team_games else 1.0, gid=f"piece {cell}"
        )

    if show_last_move and state.last_move is not None:
        _mark_turn(ax, polygons, state)

    _panel(ax, state, snapshot, panel_x, top, unit, team_of if team_games else None)
    ax.set_title(wrap_title(title if title is not None else status_text(state), ax.figure.get_figwidth()), fontsize=11)
    return ax


def status_text(state: SinodaState) -> str:
    """One line for the title: who moves, or the result (with the Win by Sinoda arithmetic).

    >>> from tabletop_lab import load_game
    >>> status_text(load_game("sinoda").new_initial_state())
    'Blue to move'
    """
    result = state.result()
    if result is None:
        return f"{PLAYER_NAMES[state.current_player()]} to move"
    if result.reason == "sinoda":
        return state.sinoda_arithmetic().split(";")[0]
    return result_words(state).split(". Points captured")[0]


def result_words(state: SinodaState) -> str:
    """The end in words (rules 3.2 and 3.3): why the game ended, who wins and how (the most
    points, then the most pieces left; a team through its member), and the points each player
    captured. A Win by Sinoda gives its inequality.
    """
    result = state.result()
    if result is None:
        raise ValueError("sinoda: the game is not over, so it has no result to word")
    n = state.game.num_players
    scores = result.scores
    captured = "Points captured: " + ", ".join(f"{PLAYER_NAMES[p]} {scores[p]}" for p in range(n))
    if result.reason == "sinoda":
        return f"Game over: {state.sinoda_arithmetic()}. {captured}"
    counts = [len(state.pieces_of(p)) for p in range(n)]
    if 0 in counts:
        out = [PLAYER_NAMES[p] for p in range(n) if counts[p] == 0]
        why = f"{_names(out)} {'has' if len(out) == 1 else 'have'} no pieces left"
    elif max(counts) == 1:
        why = "every player is down to one piece"
    else:
        full = [PLAYER_NAMES[p] for p in range(n) if len(state.captured[p]) == 6]
        why = f"{_names(full)} captured 6 pieces"
    top = max(scores)
    tied = [p for p in range(n) if scores[p] == top]
    most = max(counts[p] for p in tied)
    best = [p for p in tied if counts[p] == most]
    if len(tied) == 1:
        how = f"with {top} points"
    elif len(best) < len(tied):
        behind = _names([PLAYER_NAMES[p] for p in tied if p not in best])
        how = f"with {top} points and more pieces left ({most}) than {behind}, who also has {top}"
    else:
        how = f"with {top} points and {most} piece{'s' if most != 1 else ''} left each"
    teams = state.game.teams()
    if result.is_draw:
        head = f"a draw: {_names([PLAYER_NAMES[p] for p in best])} tie {how}"
    elif any(len(team) > 1 for team in teams):
        winning = [t for t, members in enumerate(teams) if set(members) <= set(result.winners)]
        team_words = " and ".join(f"team {TEAM_NAMES[t % len(TEAM_NAMES)]}" for t in winning)
        verb = "wins" if len(winning) == 1 else "share the win"
        head = f"{team_words} {verb}: {_names([PLAYER_NAMES[p] for p in best])} {how}"
    else:
        verb = "wins" if len(best) == 1 else "share the win"
        head = f"{_names([PLAYER_NAMES[p] for p in best])} {verb} {how}"
    return f"Game over: {head} ({why}). {captured}"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ----------------------------------------------------------------------------- Helpers


def _tint(colour: str, amount: float) -> tuple[float, float, float]:
    """``colour`` mixed with white (``amount`` 0: unchanged, 1: white)."""
    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


def _shrunk(points, scale: float) -> list[tuple[float, float]]:
    cx, cy = centroid(points)
    return [(cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in points]


def _shade(ax: Axes, polygons: dict, cells, colour: str, gid: str) -> None:
    """Fill ``cells`` lightly; the collection's ``gid`` says what it shows (tests read it)."""
    ax.add_collection(
        PolyCollection(
            [polygons[c] for c in cells], facecolors=colour, edgecolors="none", alpha=0.35, zorder=2, gid=gid
        )
    )


def _ring(ax: Axes, polygons: dict, cells, colour: str, width: float, gid: str) -> None:
    for cell in cells:
        outline = _shrunk(polygons[cell], 0.9)
        ax.add_patch(Polygon(outline, closed=True, fill=False, ec=colour, lw=width, zorder=5, gid=f"{gid} {cell}"))


def _d4(ax: Axes, outline, colour: str, value: int, *, edge: str, width: float, size: float = 1.0, gid=None) -> None:
    """A d4 seen from above: a triangle, its edges to the apex, and the top value at the apex."""
    corners = _shrunk(outline, PIECE_SCALE * size) if size == 1.0 else outline
    apex = centroid(corners)
    ax.add_patch(Polygon(corners, closed=True, fc=colour, ec=edge, lw=width, zorder=3, gid=gid))
    ax.add_collection(
        LineCollection([[apex, c] for c in corners], colors=_tint(colour, 0.45), linewidths=0.8, zorder=3)
    )
    ax.text(*apex, str(value), ha="center", va="center", fontsize=9 * size, fontweight="bold", color="white", zorder=4)


def _mark_turn(ax: Axes, polygons: dict, state: SinodaState) -> None:
    turn = state.last_move
    if len(turn.cells) == 2:
        start, end = (centroid(polygons[c]) for c in turn.cells)
        arrow = FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=14, color=LAST, lw=2, alpha=0.8, zorder=6)
        ax.add_patch(arrow).set_gid("last move")
        if turn.captured is not None:
            ax.text(*end, "×", ha="center", va="bottom", fontsize=20, color=CAPTURE, zorder=7, gid="capture")
    else:
        _ring(ax, polygons, turn.cells, LAST, 2.0, "last change")
        sign = turn.action[-1]
        x, y = centroid(polygons[turn.cells[0]])
        ax.text(x + 0.32, y + 0.25, f"{sign}1", fontsize=8, color=LAST, fontweight="bold", zorder=7)


def _panel(ax: Axes, state: SinodaState, snapshot: dict, x: float, top: float, unit: float, team_of) -> None:
    """One row per player: swatch, name (and team), points, pieces left, captured pieces."""
    n = state.game.num_players
    row = min(unit * 1.4, (top * 2) / max(n, 1) * 0.9)
    scores = state.scores()
    counts = [len(state.pieces_of(p)) for p in range(n)]
    mover = state.current_player()
    for p in range(n):
        y = top - (p + 0.6) * row
        edge = TEAM_EDGES[team_of[p] % len(TEAM_EDGES)] if team_of else "none"
        ax.add_patch(Rectangle((x, y - 0.25 * row), 0.4 * row, 0.5 * row, fc=COLOURS[p], ec=edge, lw=2))
        name = PLAYER_NAMES[p] + (f" (team {TEAM_NAMES[team_of[p] % len(TEAM_NAMES)]})" if team_of else "")
        weight = "bold" if p == mover else "normal"
        ax.text(x + 0.6 * row, y + 0.12 * row, name, fontsize=9, va="center", fontweight=weight)
        ax.text(x + 0.6 * row, y - 0.2 * row, f"{scores[p]} points · {counts[p]} on board", fontsize=8, va="center")
        for i, (owner, value) in enumerate(snapshot["captured"][p]):
            cx = x + 0.6 * row + (i + 0.5) * 0.42 * row
            cy = y - 0.5 * row
            small = [(cx - 0.18 * row, cy - 0.12 * row), (cx + 0.18 * row, cy - 0.12 * row), (cx, cy + 0.19 * row)]
            _d4(ax, small, COLOURS[owner], value, edge="#1a202c", width=0.6, size=0.7)
