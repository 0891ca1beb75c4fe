"""The per-game half of a board widget: how to draw one game and read clicks on it.

This module is part of the rendering layer: it imports the core and matplotlib only, never
ipywidgets, so ``import tabletop_lab.games.<game>.board`` stays light. The generic ``Board``
(``tabletop_lab.widgets``) knows nothing about any game's geometry. Each game supplies, in
``tabletop_lab/games/<game>/board.py`` (or where its ``Game.parts["board"]`` says), a
``BoardAdapter`` subclass named ``Adapter`` that

* draws states on a matplotlib axes (through the game's renderer), updating artists in place,
  showing only what seat ``viewer`` may see (``None``: everything), mid-turn states from
  ``state.snapshot()``;
* maps a click (data coordinates) to a **cell**: any hashable the game likes (a hole index, a
  triangle id, a square name). Boards of polygons (triangles, diamonds) only set
  ``polygons = {cell: [(x, y), ...]}`` and inherit ``cell_at`` (point in polygon) and
  ``cell_xy`` (centroid);
* says which clicks choose each action: ``action_cells(state, action)`` is the sequence of
  cells clicked to pick it. Cross-endodoi: ``(hole,)``. A piece move in Sinoda or Capitals:
  ``(from_cell, to_cell)``: the first click selects, the board then highlights the matching
  second cells. ``()`` means the action has no cell (pass, stop, finish ...): the Board shows it
  as a button labelled ``button_label(state, action)``. Sequences may be shared or be prefixes
  of one another: when the clicks so far complete several actions, or complete one while
  longer ones go on, the Board asks the user which (never a silent pick).

The geometry (``cell_at``, ``cell_xy``) and ``action_cells`` may depend on the seat last drawn
for (a hidden-information board draws the viewer's side at the bottom): the Board draws for a
viewer before it asks about cells. Turns of several actions need nothing more: the board keeps asking for actions while
``mid_turn()`` holds.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from .core import Game, Result, State
from .errors import RulesError
from .rulebook import rule_reference, without_reference

__all__ = ["BoardAdapter", "Refusal", "load_adapter", "result_text", "subsample", "wrap_title"]

#: The engine's "<game>: '<move>' is illegal: " before its reason.
_ENGINE_PREFIX = re.compile(r"^[a-z_0-9]+: (?:'[^']*'|\"[^\"]*\"|\S+) is (?:illegal|incomplete): ")


@dataclass(frozen=True)
class Refusal:
    """Why a click or a move was refused: ``words`` for the player, the ``rule`` behind it
    (a section of ``docs/rules/<game>.md``, "2.1" or "Decision 10", or ``None``) and the
    engine's own ``message``, which names that rule."""

    words: str
    rule: str | None
    message: str
    game: str


class BoardAdapter:
    """Drawing and click mapping for one game under one rules config.

    Subclasses implement ``setup``, ``draw`` and ``action_cells``, and either set ``polygons``
    or implement ``cell_at`` and ``cell_xy``; the other methods have sensible defaults.
    """

    #: Figure size in inches for the board's canvas.
    figsize: tuple[float, float] = (6.0, 4.0)

    #: Cells drawn as polygons, ``{cell: [(x, y), ...]}`` in data coordinates (vertices in order);
    #: when set, ``cell_at`` and ``cell_xy`` come for free. May also be set per instance in ``setup``.
    polygons: dict[Hashable, list[tuple[float, float]]] | None = None

    def __init__(self, game: Game):
        self.game = game
        #: The step of the last move shown alone (1..``steps(state)``), ``None``: the whole move.
        self.step: int | None = None

    def steps(self, state: State) -> int:
        """How many steps of the last move the board can show one at a time (a relay's laps);
        0 when there is nothing to step through (the default)."""
        return 0

    def step_name(self) -> str:
        """What a step is called ("lap")."""
        return "step"

    def setup(self, figure: Any) -> Any:
        """Create the board's axes and artists on ``figure`` (once); return the axes."""
        raise NotImplementedError

    def draw(
        self,
        state: State,
        *,
        targets: frozenset = frozenset(),
        selected: tuple = (),
        preview: Any = None,
        viewer: int | None = None,
    ) -> None:
        """Show ``state``: ``targets`` are the cells a click may pick next, ``selected`` the cells
        clicked so far in this action, ``preview`` what ``preview()`` returned for the hovered
        action, ``viewer`` the seat whose view is drawn (``None``: everything)."""
        raise NotImplementedError

    def cell_at(self, x: float, y: float) -> Hashable | None:
        """The cell under the data point ``(x, y)``, or ``None``: the polygon containing it."""
        for cell, vertices in self._polygons().items():
            if _inside(x, y, vertices):
                return cell
        return None

    def cell_xy(self, cell: Hashable) -> tuple[float, float]:
        """Where ``cell`` is drawn, in data coordinates (used to click it in tests): the
        centroid of its polygon."""
        polygons = self._polygons()
        if cell not in polygons:
            raise KeyError(f"{self.game.name}: no cell {cell!r} on the board")
        return _centroid(polygons[cell])

    def _polygons(self) -> dict:
        if self.polygons is None:
            raise NotImplementedError(f"{type(self).__name__} sets no polygons and overrides no cell_at/cell_xy")
        return self.polygons

    def action_cells(self, state: State, action: int) -> tuple:
        """The cells clicked, in order, to choose ``action`` in ``state``; ``()`` for a button."""
        raise NotImplementedError

    def move_marks(self, state: State, actions: list[int]) -> tuple[tuple, frozenset]:
        """The ``(selected, targets)`` that mark a whole move of ``actions`` from ``state`` on
        the board as clicks mark it (a hint, a puzzle's solution): its first action's cells but
        the last selected, that last cell and the last cell of each later action ringed; nothing
        for a move of buttons only (a pass), which is said in words."""
        state, marked = state.clone(), []
        for action in actions:
            cells = tuple(self.action_cells(state, action))
            if cells:
                marked.append(cells)
            state.apply_action(action)
        if not marked:
            return (), frozenset()
        return marked[0][:-1], frozenset(cells[-1] for cells in marked)

    def button_label(self, state: State, action: int) -> str:
        """The label of the button of an action without cells (default: its string)."""
        return state.action_to_string(action)

    def result_note(self, state: State) -> str:
        """A few words after the result explaining the score, when the picture alone does not
        (for example seeds left on the board credited to their owner); none by default."""
        return ""

    def result_words(self, state: State) -> str:
        """The finished game's result in words for the status line: who won, why, and the count.

        By default the generic ``result_text`` followed by ``result_note``; a game's adapter
        says it in its own words (its renderer's ``result_words``)."""
        note = self.result_note(state)
        return result_text(state.result(), self.player_name) + (f": {note}" if note else "")

    def status_note(self, state: State) -> str:
        """What the player to move must do, when the status line should say more than "to move"
        (a sacrifice due, a prisoner to place); none by default."""
        return ""

    def legend(self) -> str:
        """One line saying what the picture's marks mean (rings, previews, arrows); none by default."""
        return ""

    def cell_name(self, cell: Hashable) -> str:
        return str(cell)

    def refusal(self, state: State, cells: tuple) -> str:
        """Why clicking ``cells`` picks no legal action, in words."""
        shown = " then ".join(self.cell_name(c) for c in cells)
        return f"{shown}: no legal action of {self.player_name(state.current_player())} starts this way"

    #: ``(pattern, words)`` pairs turning the engine's reasons into the player's words: the first
    #: pattern found (``re.search``) in a reason, its rule reference removed, gives ``words``
    #: formatted with the pattern's named groups (and ``{mover}``, the name of the seat to move).
    phrases: tuple[tuple[str, str], ...] = ()

    def explain(self, message: str, state: State | None = None) -> Refusal | None:
        """The player's words for an engine message, with the rule it names (``None`` when the
        message is not a refusal by the rules: it is shown as it is)."""
        rule = rule_reference(message)
        reason = without_reference(_ENGINE_PREFIX.sub("", message))
        engine = rule is not None or _ENGINE_PREFIX.match(message) is not None
        mover = ""
        if state is not None and not state.is_terminal():
            mover = self.player_name(state.current_player())
        for pattern, words in self.phrases:
            match = re.search(pattern, reason)
            if match:
                return Refusal(words.format(mover=mover, **match.groupdict()), rule, message, self.game.name)
        if not engine:
            return None
        return Refusal(_sentence(reason), rule, message, self.game.name)

    def preview(self, state: State, action: int) -> tuple[Any, str]:
        """What hovering over ``action`` shows: a value for ``draw(preview=...)`` and a line of text."""
        return None, state.action_to_string(action)

    def frames(self, state: State, action: int, max_frames: int, *, fine: bool = True) -> list:
        """At most ``max_frames`` animation frames of playing ``action``: every step of it when
        ``fine``, else only its key moments. None by default (no animation)."""
        return []

    def draw_frame(self, state: State, frame: Any) -> None:
        """Show one frame from ``frames`` (``state`` is the position before the action)."""
        raise NotImplementedError

    def team_name(self, team: int) -> str:
        """A team as the picture names it; by default "team A", "team B" ..."""
        return f"team {chr(ord('A') + team)}"

    def player_name(self, player: int) -> str:
        names = self.game.info.player_names
        return names[player] if player < len(names) else f"Player {player}"


def load_adapter(game: Game) -> BoardAdapter:
    """The board adapter of ``game``: its ``Game.part("board")`` (a game package's ``board.Adapter``)."""
    cls = type(game).part("board")
    if cls is None:
        raise RulesError(f"game {game.name!r} has no board adapter yet")
    return cls(game)


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop.

    >>> _sentence("hole 3 is empty; a move must lift at least one seed")
    'Hole 3 is empty; a move must lift at least one seed.'
    """
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def result_text(result: Result, name: Callable[[int], str]) -> str:
    """The result in words, ``name`` giving each player's name: "Game over: South wins, 20–16".

    >>> result_text(Result((1,), (3.0, 5.0), "standard"), lambda p: ["Ann", "Bo"][p])
    'Game over: Bo wins, 3–5'
    """
    scores = "–".join(str(int(s)) if float(s).is_integer() else f"{s:g}" for s in result.scores)
    if result.is_draw:
        text = f"Game over: draw, {scores}"
    else:
        winners = " and ".join(name(p) for p in result.winners)
        text = f"Game over: {winners} win{'s' if len(result.winners) == 1 else ''}, {scores}"
    if result.reason != "standard":
        text += f" ({result.reason})"
    return text


def wrap_title(text: str, width_inches: float, fontsize: float = 11, max_lines: int = 2) -> str:
    """``text`` broken into lines that fit a figure ``width_inches`` wide at ``fontsize`` points
    (at most ``max_lines``, the last one shortened with "…" if need be).

    >>> wrap_title("White wins: both Black Capitals have fallen", 2.5).splitlines()
    ['White wins: both Black', 'Capitals have fallen']
    """
    chars = max(10, int(width_inches * 72 / (fontsize * 0.6)))  # an average glyph is ~0.6 em wide
    lines = textwrap.wrap(text, chars) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = textwrap.shorten(lines[-1] + " …", chars, placeholder=" …")
    return "\n".join(lines)


def subsample(frames: list, max_frames: int) -> list:
    """At most ``max_frames`` of ``frames``, evenly spread, the first and last always kept.

    >>> subsample(list(range(10)), 4)
    [0, 3, 6, 9]
    """
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2, got {max_frames!r}")
    if len(frames) <= max_frames:
        return list(frames)
    last = len(frames) - 1
    return [frames[round(i * last / (max_frames - 1))] for i in range(max_frames)]


def _inside(x: float, y: float, vertices: list[tuple[float, float]]) -> bool:
    """Whether ``(x, y)`` lies in the polygon (even-odd ray casting; points on an edge count
    as inside, so a click on a shared edge picks the first polygon listed).

    >>> triangle = [(0, 0), (2, 0), (1, 2)]
    >>> _inside(1, 1, triangle), _inside(1.9, 1.9, triangle), _inside(1, 0, triangle)
    (True, False, True)
    """
    inside = False
    n = len(vertices)
    for i in range(n):
        (x1, y1), (x2, y2) = vertices[i], vertices[(i + 1) % n]
        if _on_segment(x, y, x1, y1, x2, y2):
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _on_segment(x: float, y: float, x1: float, y1: float, x2: float, y2: float) -> bool:
    cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
    scale = max(abs(x2 - x1), abs(y2 - y1), 1e-12)
    return (
        abs(cross) <= 1e-9 * scale
        and min(x1, x2) - 1e-9 <= x <= max(x1, x2) + 1e-9
        and min(y1, y2) - 1e-9 <= y <= max(y1, y2) + 1e-9
    )


def _centroid(vertices: list[tuple[float, float]]) -> tuple[float, float]:
    """The centroid of a simple polygon (its area's centre), which lies inside convex cells.

    >>> _centroid([(0, 0), (3, 0), (0, 3)])
    (1.0, 1.0)
    """
    area = cx = cy = 0.0
    n = len(vertices)
    for i in range(n):
        (x1, y1), (x2, y2) = vertices[i], vertices[(i + 1) % n]
        cross = x1 * y2 - x2 * y1
        area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if area == 0:
        raise ValueError(f"a cell polygon has no area: {vertices!r}")
    return (cx / (3 * area), cy / (3 * area))
