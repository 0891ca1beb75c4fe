"""Draw Capitals positions with matplotlib: the 8x8 board as a diamond (spec 1.1).

Square ``(r, c)`` is drawn at ``x = c - r``, ``y = r + c`` with y pointing down, as a diamond
cell with corners ``(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)``::

                a1 (top: White, upright)
        a8 (left: Black, flipped)     h1 (right: Black, upright)
                h8 (bottom: White, flipped)

Each player's Territory is tinted in their colour and their Capital marked with a star. Pieces
are discs, light for White's owners and dark for Black's, with ``▲`` for upright (players 0
and 1) and ``▼`` for flipped (players 2 and 3) owners; the ring shows the controller's colour.
A Ram is two stacked discs. Each player's Cage and Altar are counted beside their corner, with a
small disc per piece in its owner's colours. Every file letter and rank number is written along
both edges it meets, so a square such as c3 is found as on a chessboard. The title shows the cycle, whose turn it is and the Hunger Epoch; the last move's path
(or the chain in progress) is drawn as arrows. Everything is read from ``state.snapshot()``,
so turns in progress draw too. ``draw`` is a pure function of its inputs; ``BoardView`` keeps
one axes and redraws only what changes (the board itself is one stored image, see
``tabletop_lab.fastdraw``), which the board widget uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Polygon
from matplotlib.text import Text

from ...board_adapter import wrap_title
from ...fastdraw import StaticLayer
from .geometry import CAPITALS, SQUARE_OF, TERRITORIES
from .rules import PLAYER_NAMES, CapitalsState

__all__ = ["AXES_RECT", "FIGSIZE", "BoardView", "draw", "square_polygon", "square_xy", "status_text"]

FIGSIZE = (7.0, 7.4)
AXES_RECT = (0.0, 0.0, 1.0, 0.9)  # the top strip holds the title
XLIM, YLIM = (-11.5, 11.5), (17.6, -3.3)  # y points down; the top corner's panel stays below the title
LIGHT, DARK, EDGE = "#f0d9b5", "#b58863", "#7a5c3e"
PLAYER_COLOURS = ("#2b83ba", "#d7191c", "#1a9641", "#fdae61")  # ring and territory tint per player
TEAM_FACE = ("#fbfaf5", "#2b2b2b")  # White's pieces, Black's pieces
TEAM_TEXT = ("#2b2b2b", "#fbfaf5")
TARGET, SELECTED, PATH, HUNGER = "#ffd92f", "#e7298a", "#1f4e9c", "#b2182b"
PIECE_R = 0.56
# Where each player's Cage and Altar rows start (left end), beside their corner.
_PANELS = ((-3.4, -1.9), (5.4, 11.0), (-3.4, 16.2), (-11.2, 11.0))
PANEL_DISCS = 10  # discs drawn per Cage or Altar row; more are counted as "+n"


def square_xy(square: str | int) -> tuple[float, float]:
    """The centre of ``square`` (a name or an index) in data coordinates.

    >>> square_xy("a1"), square_xy("h1"), square_xy("h8"), square_xy("a8")
    ((0.0, 0.0), (7.0, 7.0), (0.0, 14.0), (-7.0, 7.0))
    """
    index = SQUARE_OF[square] if isinstance(square, str) else square
    r, c = divmod(index, 8)
    return float(c - r), float(r + c)


def square_polygon(square: str | int) -> list[tuple[float, float]]:
    """The four corners of the diamond cell of ``square``: top, right, bottom, left."""
    x, y = square_xy(square)
    return [(x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)]


TEAM_NAMES = ("White", "Black")


def result_words(state: CapitalsState, detail: bool = True) -> str:
    """The end in words: who won and why (the fallen Capitals, or who has no pieces left, or the
    cycle cap), then each team's game points and, with ``detail``, where they come from (rule 5.4)."""
    result = state.result()
    if result is None:
        raise ValueError("capitals: the game is not over, so it has no result to word")
    if result.is_draw:
        how = f"a draw: the cycle cap was reached after cycle {state.game.options['max_cycles']}"
    else:
        team = result.winners[0] & 1
        winner, loser = TEAM_NAMES[team], TEAM_NAMES[1 - team]
        if result.reason == "capitals":
            fallen = " and ".join(f"{PLAYER_NAMES[p]}'s" for p in (1 - team, 3 - team))
            why = f"both {loser} Capitals have fallen ({fallen})"
        else:
            why = f"{loser} has no pieces left on the board"
        how = f"{winner} wins: {why}"
    return f"Game over: {how}. Game points: {_points_words(state, result, detail)}"


def _points_words(state: CapitalsState, result, detail: bool = True) -> str:
    """Each team's game points with their terms: 2 per caged opponent piece (winner only), ±1 per Altar piece."""
    points = state.game_points()
    winner = -1 if result.is_draw else result.winners[0] & 1
    each_team = state.game.options["altar_scoring"] == "each_team"
    parts = []
    for team in (0, 1):
        terms = []
        if team == winner:
            caged = sum(1 for p in (team, team + 2) for o in state.cages[p] if o & 1 != team)
            if caged:
                terms.append(f"{caged} caged × 2")
        if each_team or team == winner:
            theirs = sum(1 for p in (team, team + 2) for o in state.altars[p] if o & 1 != team)
            own = sum(1 for p in (team, team + 2) for o in state.altars[p] if o & 1 == team)
            if theirs:
                terms.append(f"+{theirs} on the Altars")
            if own:
                terms.append(f"−{own} own on the Altars")
        shown = f" ({', '.join(terms)})" if terms and detail else ""
        parts.append(f"{TEAM_NAMES[team]} {str(points[team]).replace('-', '−')}{shown}")
    return ", ".join(parts)


def status_text(state: CapitalsState) -> str:
    """The title: cycle, Hunger Epoch, and whose turn it is (or the result)."""
    data = state.snapshot()
    cycle = f"Cycle {data['cycle']}" + (" · HUNGER EPOCH" if state.is_hunger_cycle else "")
    if state.result() is not None:
        return f"{cycle} · {result_words(state, detail=False).removeprefix('Game over: ')}"
    actor = data["actor"]
    doing = ""
    if data["releases"]:
        doing = " · place a released prisoner"
    elif data["pending_sacrifice"]:
        doing = " · sacrifice a piece"
    elif state.mid_turn() and state.chain is not None:
        doing = " · chain in progress"
    extra = " (extra turn)" if data["extra_turn"] else ""
    return f"{cycle} · {PLAYER_NAMES[actor]} to move{extra}{doing}"


def draw(
    state: CapitalsState,
    ax: Axes | None = None,
    *,
    highlight: Iterable[str] = (),
    selected: Iterable[str] = (),
    show_last_move: bool = True,
    title: str | None = None,
    viewer: int | None = None,
) -> Axes:
    """Draw ``state`` on ``ax`` (a new figure when ``None``) and return the axes.

    ``highlight``: squares to mark as targets of the next click; ``selected``: squares clicked
    so far. ``show_last_move``: the path of the latest move, or of the chain in progress.
    ``title`` replaces the status line. ``viewer`` changes nothing: everything is public.
    """
    if ax is None:
        ax = Figure(figsize=FIGSIZE).add_axes(AXES_RECT)
    BoardView(ax).update(state, highlight=highlight, selected=selected, show_last_move=show_last_move, title=title)
    return ax


class BoardView:
    """One axes showing Capitals positions: the fixed board is drawn once, as a ``StaticLayer``
    (``cells`` are its 64 square diamonds), and ``update`` replaces everything else."""

    def __init__(self, ax: Axes):
        self.ax = ax
        self._ink = ax.title.get_color()  # the page's text colour, for a title outside a Hunger cycle
        ax.set_xlim(*XLIM)
        ax.set_ylim(*YLIM)
        ax.set_aspect("equal", adjustable="box")
        ax.set_axis_off()
        self.cells = [
            Polygon(square_polygon(i), closed=True, fc=DARK if sum(divmod(i, 8)) % 2 else LIGHT, ec=EDGE, lw=0.5)
            for i in range(64)
        ]
        tints = [
            Polygon(square_polygon(s), closed=True, fc=PLAYER_COLOURS[p], alpha=0.25, lw=0)
            for p, squares in enumerate(TERRITORIES)
            for s in squares
        ]
        stars = [
            Polygon(
                _star(square_xy(c)[0], square_xy(c)[1] + 0.62), closed=True, fc=PLAYER_COLOURS[p], ec="black", lw=0.5
            )
            for p, c in enumerate(CAPITALS)
        ]
        ax.add_artist(StaticLayer(ax, self.cells + tints + stars + _square_labels()))
        self._artists: list = []

    def update(
        self,
        state: CapitalsState,
        *,
        highlight: Iterable[str] = (),
        selected: Iterable[str] = (),
        show_last_move: bool = True,
        title: str | None = None,
    ) -> None:
        """Show ``state``, its targets, selection and move path, replacing what was shown."""
        ax = self.ax
        for artist in self._artists:
            artist.remove()
        before = set(ax.patches) | set(ax.texts)
        data = state.snapshot()
        hunger = state.is_hunger_cycle
        selected, highlight = set(selected), set(highlight)
        for name in highlight | selected:
            colour = SELECTED if name in selected else TARGET
            ax.add_patch(Polygon(square_polygon(name), closed=True, fc="none", ec=colour, lw=3, zorder=4))
        if hunger:
            ax.text(0, 7, "HUNGER", ha="center", va="center", fontsize=30, color=HUNGER, alpha=0.18, zorder=2)
        for square, owner, controller, top in data["pieces"]:
            _draw_unit(ax, square_xy(square), owner, controller, top)
        for player in range(4):
            _draw_panel(ax, player, data, player == data["actor"] and not state.is_terminal())
        path = _path(state, data) if show_last_move else []
        for a, b in zip(path, path[1:]):
            arrow = FancyArrowPatch(square_xy(a), square_xy(b), arrowstyle="-|>", mutation_scale=14, color=PATH, lw=2)
            ax.add_patch(arrow).set_zorder(6)
        text = wrap_title(title if title is not None else status_text(state), ax.figure.get_figwidth())
        ax.set_title(text, fontsize=11, color=HUNGER if hunger else self._ink)
        self._artists = [a for a in (*ax.patches, *ax.texts) if a not in before]


# ----------------------------------------------------------------------------- helpers


def _star(x: float, y: float, radius: float = 0.3) -> list[tuple[float, float]]:
    """A five-pointed star's ten corners around ``(x, y)``, pointing up on screen (y down)."""
    return [
        (x + r * math.sin(math.pi * k / 5), y - r * math.cos(math.pi * k / 5))
        for k, r in zip(range(10), [radius, radius * 0.45] * 5)
    ]


def _square_labels() -> list[Text]:
    """Coordinates just outside the board: each file's letter beside its squares of ranks 1 and
    8 (the upper right and lower left edges), each rank's number beside its squares of files a
    and h (the upper left and lower right edges)."""
    labels = []
    for i in range(8):
        file, rank = "abcdefgh"[i], str(i + 1)
        for square, text, (dx, dy) in (
            (f"{file}1", file, (0.85, -0.85)),
            (f"{file}8", file, (-0.85, 0.85)),
            (f"a{rank}", rank, (-0.85, -0.85)),
            (f"h{rank}", rank, (0.85, 0.85)),
        ):
            x, y = square_xy(square)
            labels.append(Text(x + dx, y + dy, text, ha="center", va="center", fontsize=8, color="#6b4a2b"))
    return labels


def _draw_unit(ax: Axes, xy: tuple[float, float], owner: int, controller: int, top: int | None) -> None:
    x, y = xy
    if top is None:
        _draw_disc(ax, x, y, owner, controller, PIECE_R)
        return
    _draw_disc(ax, x + 0.1, y + 0.14, owner, controller, PIECE_R * 0.9)  # bottom
    _draw_disc(ax, x - 0.1, y - 0.14, top, controller, PIECE_R * 0.9)  # top, on the stack


def _draw_disc(ax: Axes, x: float, y: float, owner: int, controller: int, radius: float) -> None:
    team = owner & 1
    ax.add_patch(Circle((x, y), radius, fc=TEAM_FACE[team], ec=PLAYER_COLOURS[controller], lw=2.2, zorder=5))
    ax.text(x, y, "▲" if owner < 2 else "▼", ha="center", va="center", fontsize=9, color=TEAM_TEXT[team], zorder=6)


def _draw_panel(ax: Axes, player: int, data: dict, to_move: bool) -> None:
    x0, y0 = _PANELS[player]
    name = PLAYER_NAMES[player] + (" — out" if data["eliminated"][player] else "")
    weight = "bold" if to_move else "normal"
    ax.text(x0, y0 - 0.7, name, fontsize=8, color=PLAYER_COLOURS[player], fontweight=weight, va="center")
    for row, (label, pile) in enumerate((("Cage", data["cages"][player]), ("Altar", data["altars"][player]))):
        y = y0 + 0.55 * row
        ax.text(x0, y, f"{label} {len(pile)}", fontsize=7, va="center")
        for i, owner in enumerate(pile[:PANEL_DISCS]):
            ax.add_patch(
                Circle((x0 + 2.0 + 0.42 * i, y), 0.18, fc=TEAM_FACE[owner & 1], ec=PLAYER_COLOURS[owner], lw=1)
            )
        if len(pile) > PANEL_DISCS:
            ax.text(x0 + 2.0 + 0.42 * PANEL_DISCS, y, f"+{len(pile) - PANEL_DISCS}", fontsize=7, va="center")


def _path(state: CapitalsState, data: dict) -> list[str]:
    progress = data.get("turn_in_progress")
    if progress and progress["chain"]:
        return [progress["chain"]["start"], *progress["chain"]["landings"]]
    last = state.last_move
    return last["path"] if last else []
