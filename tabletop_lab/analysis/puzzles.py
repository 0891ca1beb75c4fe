"""Puzzles: positions from real games where exactly one move wins (or saves) the game, or,
in a hidden-card game, where one move is clearly best in expected chips.

A puzzle is a position of a perfect-information game of two sides, the move that solves it and
the lines that show why: the solution's winning line, and for every other move the line that
refutes it. ``label`` says how sure it is: ``"proven"`` means the exact solver (``solver.py``)
proved every move's result, exactly one move reaching the best of them (a forced win, or a draw
where every other move loses), all others worse; ``"search-verified"`` that the solution is a
proven forced win and every other move proven not to force one within a ``margin`` of plies
more (by the solver, or where it runs out of nodes by the mate search of ``mate.py``).
``depth`` grades it: the plies (whole moves of any player, the solution included) within which
the proof forces the result, the solution's for a win and the longest refutation's for a save
(how far one must look to see the other moves fail).

Hidden cards (Sinomilia). A puzzle of goal ``"best"`` is a decision of one round: the position
is a full one (the opponent's set card included, so that ``state()`` loads it), but the puzzle
is the player to move's information set: a viewer shows only that player's observation, and
the answer must not depend on the hidden card. ``values`` maps every legal move to its expected
chip gain in the round for the player to move, by the one-round solver
(``tabletop_lab.games.sinomilia.solver``): the move, then that player's best reply to the
opponent's solved strategy, the opponent's hidden cards weighed by how likely that strategy
makes them given what the player has seen (``RoundSolution.decision``). ``label`` ``"proven"``
there means exactly this: the values are exact sums over the whole tree of the round as the
solver restricts it (each player spends at most ``source["budget"]`` chips on Actions), against
a CFR+ strategy whose exploitability (``source["exploitability"]`` chips, measured exactly) is
far below the margin, and the solution beats every other move by ``margin`` chips. It is not a
proof that every equilibrium, or play beyond the round or the budget, ranks the moves the same
way. ``line`` is the solution alone and each refutation the move alone: what follows depends on
the hidden card. Such puzzles are graded by ``margin`` (``MARGIN_DIFFICULTIES``: a small margin
is hard to see), and ``depth`` is the most turns the round can still last (the solver's horizon).

``data/<game>/puzzles.json`` holds each game's puzzles (``scripts/make_puzzles.py`` writes them,
recording its command, budgets and version); ``load_puzzles(game)`` reads them back and
``check_answer(puzzle, move)`` grades an answer.

>>> puzzle = load_puzzles("cross_endodoi")[0]
>>> check_answer(puzzle, puzzle.solution).right
True
>>> hidden = load_puzzles("sinomilia")[0]
>>> check_answer(hidden, hidden.solution).value == max(hidden.values.values())
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import State
from ..data import data_path
from ..errors import DataError, excerpt
from ..registry import load_game
from .mate import MateSearch
from .solver import RootBound, Solver, solvable

__all__ = [
    "Puzzle",
    "Verdict",
    "LABELS",
    "GOALS",
    "DIFFICULTIES",
    "MARGIN_DIFFICULTIES",
    "FORMAT_VERSION",
    "load_puzzles",
    "read_puzzles",
    "check_answer",
    "difficulty",
    "prove_unique",
    "Proof",
    "best_line",
]

#: The version of the ``puzzles.json`` layout this module reads and writes.
FORMAT_VERSION = 1
#: How a puzzle was checked: every move's result proven, or a decisive margin at a stated budget.
LABELS = ("proven", "search-verified")
#: What the solution achieves: a forced win, a draw where every other move loses, or (hidden
#: cards) the best expected chips by a margin.
GOALS = ("win", "save", "best")
#: Difficulty by ``depth`` (plies): the most plies of each grade, the last open-ended.
DIFFICULTIES = (("easy", 1), ("medium", 3), ("hard", 5), ("expert", None))
#: Difficulty of a ``"best"`` puzzle by its margin in chips: the least margin of each grade.
MARGIN_DIFFICULTIES = (("easy", 2.0), ("medium", 1.0), ("hard", 0.5), ("expert", 0.0))
_FIELDS = ("game", "options", "position", "solution", "line", "refutations", "label", "goal", "depth", "source")


def difficulty(depth: int | None = None, margin: float | None = None) -> str:
    """The grade of a puzzle whose proof needs ``depth`` plies (``DIFFICULTIES``), or whose
    solution is best by ``margin`` chips (``MARGIN_DIFFICULTIES``)."""
    if margin is not None:
        return next(name for name, least in MARGIN_DIFFICULTIES if margin >= least)
    for name, most in DIFFICULTIES:
        if most is None or depth <= most:
            return name
    raise AssertionError("the last grade is open-ended")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module's docstring).

    ``position`` is the game's text notation, or its JSON where it has none
    (``Game.load_position`` reads both); ``options`` the rules config it is played under.
    ``solution`` is a whole-move string, ``line`` the winning line as whole-move strings (the
    solution first), ``refutations`` maps each other legal move to the line that refutes it (that
    move first). ``source`` says where the position came from (the seed of the game, its ply).
    ``values`` (required for goal ``"best"``, absent otherwise in the shipped files) maps every
    legal move to its expected chips for the player to move. A viewer shows the position as the player to move sees it
    (``state().observation(state().current_player())``): in a hidden-card game the position
    holds the opponent's hidden card.
    """

    game: str
    options: dict[str, Any]
    position: str
    solution: str
    line: tuple[str, ...]
    refutations: dict[str, tuple[str, ...]]
    label: str
    goal: str
    depth: int
    source: dict[str, Any] = field(default_factory=dict)
    values: dict[str, float] | None = None

    @property
    def margin(self) -> float | None:
        """How many chips the solution's value exceeds the best other move's (``None`` without values)."""
        if self.values is None:
            return None
        return round(self.values[self.solution] - max(v for m, v in self.values.items() if m != self.solution), 9)

    @property
    def difficulty(self) -> str:
        return difficulty(self.depth, self.margin)

    def state(self) -> State:
        """The puzzle's position, a fresh state."""
        return load_game(self.game, **self.options).load_position(self.position)

    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``puzzles.json`` stores (``from_dict`` reads it back); ``values`` only when set."""
        data = {
            "game": self.game,
            "options": dict(self.options),
            "position": self.position,
            "solution": self.solution,
            "line": list(self.line),
            "refutations": {move: list(line) for move, line in self.refutations.items()},
            "label": self.label,
            "goal": self.goal,
            "depth": self.depth,
            "source": dict(self.source),
        }
        if self.values is not None:
            data["values"] = dict(self.values)
        return data

    @classmethod
    def from_dict(cls, data: Any, where: str = "puzzle") -> Puzzle:
        """A puzzle from its JSON object; raises ``DataError`` naming the field that is wrong."""
        if not isinstance(data, dict):
            raise DataError(f"{where}: a puzzle is a JSON object, got {excerpt(data)}")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise DataError(f"{where}: missing {', '.join(missing)}")
        _expect(isinstance(data["game"], str), where, "game", "a game name", data["game"])
        _expect(isinstance(data["options"], dict), where, "options", "an object", data["options"])
        for name in ("position", "solution"):
            _expect(isinstance(data[name], str) and data[name], where, name, "non-empty text", data[name])
        _expect(_is_line(data["line"]), where, "line", "a list of move strings", data["line"])
        refutations = data["refutations"]
        _expect(
            isinstance(refutations, dict) and all(_is_line(line) for line in refutations.values()),
            where,
            "refutations",
            "an object of move -> list of move strings",
            refutations,
        )
        _expect(data["label"] in LABELS, where, "label", " or ".join(LABELS), data["label"])
        _expect(data["goal"] in GOALS, where, "goal", " or ".join(GOALS), data["goal"])
        depth = data["depth"]
        _expect(
            isinstance(depth, int) and not isinstance(depth, bool) and depth >= 1,
            where,
            "depth",
            "a whole number >= 1",
            depth,
        )
        _expect(isinstance(data["source"], dict), where, "source", "an object", data["source"])
        values = _values(data, where)
        return cls(
            game=data["game"],
            options=dict(data["options"]),
            position=data["position"],
            solution=data["solution"],
            line=tuple(data["line"]),
            refutations={move: tuple(line) for move, line in refutations.items()},
            label=data["label"],
            goal=data["goal"],
            depth=depth,
            source=dict(data["source"]),
            values=values,
        )


def _values(data: dict, where: str) -> dict[str, float] | None:
    """The optional ``values``: required for goal "best", a number for the solution and for
    each refutation, the solution's strictly the largest."""
    values = data.get("values")
    if values is None:
        _expect(data["goal"] != "best", where, "values", "given for goal best", values)
        return None
    numbers = isinstance(values, dict) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values.values()
    )
    _expect(numbers, where, "values", "an object of move -> number", values)
    moves = {data["solution"], *data["refutations"]}
    _expect(set(values) == moves, where, "values", "one number per move (the solution and each refutation)", values)
    others = [v for move, v in values.items() if move != data["solution"]]
    best = values[data["solution"]]
    _expect(all(best > v for v in others), where, "values", "largest for the solution", values)
    return {move: float(v) for move, v in values.items()}


def _is_line(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(move, str) and move for move in value)


def _expect(ok: Any, where: str, name: str, wanted: str, got: Any) -> None:
    if not ok:
        raise DataError(f"{where}: {name} must be {wanted}, got {excerpt(got)}")


def read_puzzles(path: Path | str, game: str | None = None) -> list[Puzzle]:
    """The puzzles of the file at ``path`` (of ``game``, when given); raises ``DataError`` for a
    file that is not JSON, not a puzzles file, of another game or of another format version."""
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path.name}: cannot read the puzzles file ({type(exc).__name__}: {exc})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path.name}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(document, dict) or not isinstance(document.get("puzzles"), list):
        raise DataError(f"{path.name}: a puzzles file is an object with a 'puzzles' list, got {excerpt(document)}")
    if document.get("format") != FORMAT_VERSION:
        raise DataError(
            f"{path.name}: format {excerpt(document.get('format'))}, this version reads format {FORMAT_VERSION}"
        )
    if game is not None and document.get("game") != game:
        raise DataError(f"{path.name}: holds puzzles of {excerpt(document.get('game'))}, not {game}")
    puzzles = [Puzzle.from_dict(entry, f"{path.name}: puzzle {i}") for i, entry in enumerate(document["puzzles"])]
    for i, puzzle in enumerate(puzzles):
        if puzzle.game != document.get("game"):
            raise DataError(f"{path.name}: puzzle {i} is of {puzzle.game}, the file of {document.get('game')}")
    return puzzles


def load_puzzles(game: str) -> list[Puzzle]:
    """The shipped puzzles of ``game`` (``data/<game>/puzzles.json``), easiest first as stored.

    Raises ``DataError`` when the file is missing or malformed."""
    path = data_path(game, "puzzles.json")
    if not path.exists():
        raise DataError(f"no puzzles for {game!r}: {path.name} missing (scripts/make_puzzles.py {game} writes it)")
    return read_puzzles(path, game)


@dataclass(frozen=True)
class Verdict:
    """The grade of an answer: ``right``, the ``move`` given, and ``line``: the winning line when
    right, the refutation (that move first) when wrong; ``values``, the puzzle's value of every
    move (``None`` when it has none), and ``value``, the given move's (``line`` starts with it,
    as the puzzle writes it)."""

    right: bool
    move: str
    line: tuple[str, ...]
    values: dict[str, float] | None = None

    @property
    def value(self) -> float | None:
        return None if self.values is None else self.values.get(self.line[0])


def check_answer(puzzle: Puzzle, move: str) -> Verdict:
    """Grade ``move`` (a whole-move string) as the answer to ``puzzle``; the verdict carries the
    puzzle's ``values`` (every move's expected chips, for goal ``"best"``).

    Raises ``ValueError`` (the engine's, naming what is wrong) for a move that is not legal there.
    """
    state = puzzle.state()
    played = state.clone()
    played.apply_move(move)  # raises for an illegal or unreadable move
    text = played.move_history()[-1] if played.move_history() else move
    solved = state.clone()
    solved.apply_move(puzzle.solution)
    values = None if puzzle.values is None else dict(puzzle.values)
    if played.key() == solved.key():
        return Verdict(True, move, puzzle.line, values)
    for wrong, line in puzzle.refutations.items():
        other = state.clone()
        other.apply_move(wrong)
        if other.key() == played.key():
            return Verdict(False, move, line, values)
    return Verdict(False, move, (text,), values)


# ----------------------------------------------------------------------------- proving puzzles


def _children(state: State) -> dict[str, State]:
    children = {}
    for move in state.legal_moves():
        child = state.clone()
        child.apply_move(move)
        children[move] = child
    return children


@dataclass(frozen=True)
class Proof:
    """What ``prove_unique`` found: ``goal`` ("win" or "save"), the ``solution``, ``bounds``
    (move -> a ``RootBound`` for the mover), ``label`` and ``search``, which search proved it.

    ``label`` is "proven" when the exact solver proved every move's result, "search-verified"
    when the solution is a proven win and every other move was searched exhaustively ``margin``
    plies deeper than the solution's win without a forced win being found (so no other move wins
    as quickly, nor nearly as quickly). ``search`` is "solver" (``solver.py``) or "mate" (the mate
    search of ``mate.py``, whose bounds for the other moves are ``(-1, 1)`` at the plies searched)."""

    goal: str
    solution: str
    bounds: dict
    label: str
    search: str = "solver"


def prove_unique(
    state: State,
    nodes: int,
    solver: Solver | None = None,
    margin: int | None = None,
    mate_plies: int = 0,
    mate: MateSearch | None = None,
    mate_nodes: int | None = None,
) -> Proof | None:
    """Whether exactly one whole move of ``state`` reaches the best result (see ``Proof``).

    First the exact solver: every move's result proven within ``nodes`` positions expanded in
    all, one move winning (or, none winning, one drawing) and every other proven worse: a
    "proven" puzzle. With ``margin``, a move proven to win while no other move is proven to,
    each searched at least ``margin`` plies deeper than the win's proof, is a "search-verified"
    one. Where the solver runs out of nodes first, with ``margin`` and ``mate_plies`` the mate
    search (``mate``, else a new one) looks for the quickest forced win within ``mate_plies``
    plies, and proves that no other move wins within ``margin`` plies more, within
    ``mate_nodes`` positions (default ``nodes``): a "search-verified" puzzle. ``None`` otherwise (two winning moves, all
    moves losing, a single legal move, the node limits reached first).
    Raises ``ValueError`` for a game the solver cannot search.
    """
    reason = solvable(state.game)
    if reason is not None:
        raise ValueError(f"{state.game.name} has no proven puzzles: {reason}")
    children = _children(state)
    if len(children) < 2:
        return None
    proof, open_ = _by_solver(state, dict(children), nodes, solver or Solver(state.game), margin)
    if proof is not None or not open_ or not mate_plies or margin is None:
        return proof
    mate = mate or MateSearch(state.game)
    return _by_mate(state, children, nodes if mate_nodes is None else mate_nodes, margin, mate_plies, mate)


def _by_solver(
    state: State, remaining: dict[str, State], nodes: int, solver: Solver, margin: int | None
) -> tuple[Proof | None, bool]:
    """``prove_unique``'s exact route: the proof, or ``None`` and whether the position is still
    open (moves left unproven, no two proven wins: the solver ran out of nodes)."""
    found: dict = {}
    start = solver.total_nodes
    while remaining:
        left = nodes - (solver.total_nodes - start)
        if left <= 0:
            break
        bounds, _ = solver.solve(state, remaining, left)
        found.update(bounds)
        newly = [move for move, bound in bounds.items() if bound.proven]
        for move in newly:
            del remaining[move]
        if sum(1 for bound in found.values() if bound.lo == 1.0) > 1 or not newly:
            break
    wins = [move for move, bound in found.items() if bound.lo == 1.0]
    if len(wins) > 1:
        return None, False
    if remaining:
        if margin is None or not wins:
            return None, True
        enough = found[wins[0]].depth + margin
        if any(found[move].depth < enough for move in remaining):
            return None, True
        return Proof("win", wins[0], found, "search-verified"), False
    best = max(bound.lo for bound in found.values())
    top = [move for move, bound in found.items() if bound.lo == best]
    if best == -1.0 or len(top) != 1:
        return None, False
    return Proof("win" if best == 1.0 else "save", top[0], found, "proven"), False


def _by_mate(
    state: State, children: dict[str, State], nodes: int, margin: int, most: int, mate: MateSearch
) -> Proof | None:
    """``prove_unique``'s mate route: the one move that forces the quickest win (within ``most``
    plies), every other move proven not to win within ``margin`` plies more."""
    side = mate.side_of(state.current_player())
    start = mate.total_nodes

    def wins(child: State, plies: int) -> bool | None:
        left = nodes - (mate.total_nodes - start)
        return mate.wins_within(child, side, plies, left) if left > 0 else None

    for depth in range(1, most + 1):
        results = {move: wins(child, depth - 1) for move, child in children.items()}
        if None in results.values():
            return None
        winners = [move for move, won in results.items() if won]
        if len(winners) > 1:
            return None
        if winners:
            break
    else:
        return None
    (solution,) = winners
    bounds = {solution: RootBound(1.0, 1.0, depth)}
    for move, child in children.items():
        if move != solution:
            if wins(child, depth + margin - 1) is not False:
                return None
            bounds[move] = RootBound(-1.0, 1.0, depth + margin)
    return Proof("win", solution, bounds, "search-verified", "mate")


def best_line(state: State, plies: int, nodes: int, solver: Solver | None = None) -> tuple[str, ...]:
    """A line of best play from ``state``, at most ``plies`` whole moves, the solver's choices.

    Each side plays its best proven result: a win by the quickest proof, a loss by the slowest,
    so the line shows how long the losing side can hold out; the line stops at the game's end,
    at ``plies``, or where the solver proves nothing within ``nodes`` positions per move."""
    solver = solver or Solver(state.game)
    line: list[str] = []
    state = state.clone()
    while len(line) < plies and not state.is_terminal():
        children = _children(state)
        bounds, _ = solver.solve(state, children, nodes)
        proven = {move: bound for move, bound in bounds.items() if bound.proven}
        if not proven:
            break
        best = max(bound.lo for bound in proven.values())
        sign = 1 if best == 1.0 else -1  # quickest win, slowest loss (or draw)
        move = min((move for move, bound in proven.items() if bound.lo == best), key=lambda m: sign * proven[m].depth)
        line.append(move)
        state.apply_move(move)
    return tuple(line)
