"""``analyse(state)``: the best move, its line and the value of every whole move, by the game's expert.

Three searches make one analysis:

1. **The exact solver** (``solver.py``), in games of two sides with perfect information: it
   deepens ply by ply over the whole moves from the position until a node limit (``nodes``), and
   marks every move whose result it forces ``proven``, with the exact value 1, 0.5 or 0.
2. **The expert** (``make_agent("expert", game=...)``, the game's strongest player): its search
   from the position gives each first action its simulations (``visits``) and mean result. A
   move of several actions (Sygo's growth, Capitals' jump chains) is valued as the expert plays
   it: the position after a first action that does not complete the move is searched again,
   with the share of the simulations that action received, until the move is complete: along
   the expert's own choice first, then the others by their share (at most ``MAX_EXPANSIONS``
   searches). Moves the search never reached have no value (``None``). In a game of hidden information the
   expert is information-set MCTS, which reads only what the player to move may see; no
   exact search runs there, since it would read the hidden cards.
3. **The line**: the best move, then the best reply of a shorter analysis after it, and so on
   (``LINE_MOVES`` moves at most); with hidden information it is played out in one world drawn
   from what the player to move may see (``State.resample``), so that it reveals nothing.

Values are **win probabilities for the side of the player to move** (the team in team games):
a search's mean return ``r`` in [-1, 1] (+1 a win, -1 a loss, 0 a draw) is ``(r + 1) / 2``.

With ``budget`` (expert simulations at the position) the analysis is reproducible: the same
state, budget, node limit and seed give the same analysis. With ``seconds`` a short probe
search measures the machine's rate and the budget follows from it, so the answer depends on
the machine and its load.
"""

from __future__ import annotations

import heapq
import itertools
import math
import random
import time
from dataclasses import dataclass
from typing import Any

from ..agents import Agent, agents_for, make_agent
from ..agents.base import MAX_ITERATIONS, MAX_NODES, MAX_SECONDS, check_number
from ..core import State
from ..errors import EnumerationLimitError, excerpt
from .solver import RootBound, Solver, solvable

__all__ = [
    "Analysis",
    "MoveValue",
    "analyse",
    "expert_budget",
    "LINE_MOVES",
    "LINE_SHARE",
    "SOLVER_NODES",
    "PROBE_ITERATIONS",
]

#: The most whole moves in ``Analysis.line``.
LINE_MOVES = 5
#: The line's later moves are each found by an analysis with this fraction of the budget and
#: node limit (1/8): the line shows how the best move goes on, less surely than the move itself.
LINE_SHARE = 8
#: The exact solver's default node limit (positions expanded per analysis): a few tenths of a
#: second in Python on these games (a position costs some 0.1-0.3 ms), enough for the mates in 2 met in random play.
SOLVER_NODES = 3_000
#: Simulations of the first probe that measures the rate for a ``seconds`` budget (the second
#: has twice as many).
PROBE_ITERATIONS = 512
#: Of the time a ``seconds`` budget leaves after the probes: the solver's share, and the share
#: planned for the expert's simulations at the position (the rest goes to moves of several
#: actions and to the line, which stops when the time is up).
SOLVER_TIME_SHARE = 0.2
SEARCH_TIME_SHARE = 0.45
#: The fewest simulations of a search after an action that does not complete a move, and the
#: most such searches per analysis: prefixes beyond them keep their whole moves unvalued.
MIN_SEARCH = 64
MAX_EXPANSIONS = 12


@dataclass(frozen=True)
class MoveValue:
    """One whole move of the player to move, as the analysis values it.

    ``value``: the win probability for the mover's side after this move (``None``: the search
    never reached it); exact (1, 0.5 or 0) when ``proven``. ``visits``: the expert's simulations
    through it. ``depth``: for a proven move, the plies (whole moves, this one included) within
    which its result is forced; else how many plies deep the exact search checked every line
    below it (0: not at all).
    """

    move: str
    value: float | None
    visits: int
    depth: int
    proven: bool


@dataclass(frozen=True)
class Analysis:
    """The analysis of one position (``analyse``).

    ``best_move`` is a whole-move string (``State.apply_move`` plays it) and ``value`` its value:
    the position's win probability for the side of ``player``, the player to move (``side``: the
    seats sharing that player's result). ``proven``: that value is exact (a forced win, or every
    move's result forced). ``line``: the best line, ``best_move`` first. ``moves``: whole moves,
    best first (the best move, then by value, unvalued moves last): all of them, or the best
    ``top``; ``move_count`` counts them all (``None`` when too many to list).
    ``budget``: the expert's simulations at the position; ``simulations``: all of the analysis's;
    ``solver_nodes``: positions the exact search expanded (0 where it cannot run).
    """

    game: str
    player: int
    side: tuple[int, ...]
    best_move: str
    value: float
    proven: bool
    line: tuple[str, ...]
    moves: tuple[MoveValue, ...]
    move_count: int | None
    budget: int
    simulations: int
    solver_nodes: int
    seed: int

    def move(self, text: str) -> MoveValue | None:
        """The entry of whole move ``text`` in ``moves`` (``None`` when not listed)."""
        for entry in self.moves:
            if entry.move == text:
                return entry
        return None

    def to_frame(self) -> Any:
        """``moves`` as a pandas DataFrame (columns ``move, value, visits, depth, proven``)."""
        import pandas as pd

        columns = ["move", "value", "visits", "depth", "proven"]
        return pd.DataFrame([[getattr(m, c) for c in columns] for m in self.moves], columns=columns)


def analyse(
    state: State,
    seconds: float | None = None,
    budget: int | None = None,
    top: int | None = None,
    seed: int = 0,
    nodes: int | None = None,
) -> Analysis:
    """Analyse ``state`` (a position, the game not over) for the player to move.

    Args:
        seconds: think for about this long (at most 600; not reproducible).
        budget: the expert's simulations at the position (1 to 1,000,000); default the expert's
            own budget. Give ``seconds`` or ``budget``, not both.
        top: list only the best ``top`` moves (default: all).
        seed: the searches' seed: the same state, budget and seed give the same analysis.
        nodes: the exact solver's node limit (default ``SOLVER_NODES``; 0: no exact search).

    Raises ``ValueError`` for a finished game, a move in progress or a setting out of range.

    >>> from tabletop_lab import load_game
    >>> state = load_game("cross_endodoi").state_from_notation("0,0,0,0,0,1/0,0,0,0,0,1 20-14 0")
    >>> found = analyse(state, budget=200)
    >>> found.best_move, found.value, found.proven
    ('5', 1.0, True)
    """
    _check_state(state)
    _check_settings(seconds, budget, top, seed, nodes)
    expert = _expert_class(state)
    nodes = SOLVER_NODES if nodes is None else nodes
    deadline = end = None
    if seconds is not None:
        budget, deadline, end = _budget_for(state, expert, seconds, seed)
    elif budget is None:
        budget = expert_budget(state)
    solver = Solver(state.game) if solvable(state.game) is None and nodes > 0 else None
    before = solver.total_nodes if solver else 0
    found = _Search(state, expert, budget, nodes, seed, solver, deadline)
    line, spent = _line(state, found, expert, budget, nodes, seed, solver, end)
    moves = found.moves if top is None else found.moves[:top]
    return Analysis(
        game=state.game.name,
        player=state.current_player(),
        side=state.game.teams()[state.game.team_of(state.current_player())],
        best_move=found.best.move,
        value=found.best.value,
        proven=found.proven,
        line=tuple(line),
        moves=tuple(moves),
        move_count=found.legal,
        budget=budget,
        simulations=found.simulations + spent,
        solver_nodes=(solver.total_nodes - before) if solver else 0,
        seed=seed,
    )


# ----------------------------------------------------------------------------- the searches


class _Search:
    """One position's exact search and expert search, combined (no line): ``moves`` best first,
    ``best``, ``proven``, ``legal`` (how many whole moves, or ``None``) and ``simulations``."""

    def __init__(
        self,
        state: State,
        expert: type[Agent],
        budget: int,
        nodes: int,
        seed: int,
        solver: Solver | None,
        deadline: float | None = None,
    ):
        self.state = state
        self.expert = expert
        self.seed = seed
        self.simulations = 0
        self._order = itertools.count()  # ties on the heap of searches to make: first pushed first
        try:
            legal: list[str] | None = state.legal_moves()
        except EnumerationLimitError:
            legal = None  # too many to list (a big Sygo board): the searched moves only
        self.legal = None if legal is None else len(legal)
        bounds: dict[str, RootBound] = {}
        if solver is not None and legal is not None:
            children = {move: _after(state, move) for move in legal}
            bounds, _ = solver.solve(state, children, nodes, deadline)
        everything_proven = legal is not None and all(bounds.get(m, _OPEN).proven for m in legal)
        found: dict[str, tuple[int, float | None]] = {}
        choice = None
        if not everything_proven:
            choice = self._expert_moves(budget, found)
        names = legal if legal is not None else list(found)
        self.moves = _ranked([_value(m, found.get(m), bounds.get(m)) for m in names])
        self.best = _best(self.moves, choice)
        self.moves = [self.best] + [m for m in self.moves if m is not self.best]
        self.proven = self.best.proven and (self.best.value == 1.0 or (legal is not None and everything_proven))

    def _expert_moves(self, budget: int, found: dict[str, tuple[int, float | None]]) -> str | None:
        """The expert's search from the position with ``budget`` simulations, and its searches
        after first actions that do not complete a move: along the expert's own choice first,
        then the others by the share of the simulations that reached them, at most
        ``MAX_EXPANSIONS``. Adds every whole move reached to ``found`` (move -> visits, value);
        returns the expert's choice (``None`` if its move was left incomplete)."""
        waiting: list[tuple[float, int, State, list[int], int, str]] = []  # a heap, largest share first
        choice = None
        job: tuple[State, list[int], int, str] | None = (self.state, [], budget, "root")
        expansions = 0
        while job is not None:
            position, path, share, tag = job
            principal = self._search_prefix(position, path, share, tag, found, waiting)
            if principal is None or isinstance(principal, str):
                choice = principal
                break
            expansions += 1
            job = principal if expansions <= MAX_EXPANSIONS else None
        while waiting and expansions < MAX_EXPANSIONS:
            _, _, position, path, share, tag = heapq.heappop(waiting)
            expansions += 1
            self._search_prefix(position, path, share, tag, found, waiting)
        return choice

    def _search_prefix(
        self,
        position: State,
        path: list[int],
        budget: int,
        tag: str,
        found: dict[str, tuple[int, float | None]],
        waiting: list,
    ) -> str | tuple | None:
        """Search ``position`` (the move so far: ``path``): add the whole moves it completes to
        ``found`` and push its visited incomplete ones on ``waiting``. Returns its most visited
        action's whole move, or the search to make after it (a tuple) when it is incomplete."""
        rows = self.expert(seed=_seed(self.seed, tag), iterations=budget).analyse(position)
        self.simulations += budget
        total = max(1, sum(row["visits"] for row in rows))
        principal = None
        for rank, row in enumerate(rows):  # most visited first: the expert's choice first
            actions = [*path, row["action"]]
            after = position.child(row["action"])
            while after.mid_turn() and len(after.legal_actions()) == 1:  # a forced continuation
                only = after.legal_actions()[0]
                actions.append(only)
                after.apply_action(only)
            if not after.mid_turn():
                move = self.state._move_string(actions)
                value = None if row["value"] is None else (row["value"] + 1) / 2
                if move not in found or found[move][0] < row["visits"]:
                    found[move] = (row["visits"], value)
                principal = move if rank == 0 else principal
            elif row["visits"]:
                share = max(min(MIN_SEARCH, budget), budget * row["visits"] // total)
                job = (after, actions, share, f"{tag}/{rank}")
                if rank == 0:
                    principal = job
                else:
                    heapq.heappush(waiting, (-share, next(self._order), *job))
        return principal


_OPEN = RootBound(-1.0, 1.0, 0)


def _value(move: str, searched: tuple[int, float | None] | None, bound: RootBound | None) -> MoveValue:
    """A move's entry: the exact value where proven, else the expert's held within the bounds."""
    visits, value = searched or (0, None)
    bound = bound or _OPEN
    if bound.proven:
        return MoveValue(move, (bound.lo + 1) / 2, visits, bound.depth, True)
    if value is not None:
        value = min(max(value, (bound.lo + 1) / 2), (bound.hi + 1) / 2)
    return MoveValue(move, value, visits, bound.depth, False)


def _ranked(moves: list[MoveValue]) -> list[MoveValue]:
    """Best first: by value (the quickest of proven wins, the slowest of proven losses first),
    then by visits; unvalued moves last, in the order given."""

    def rank(m: MoveValue) -> tuple:
        if m.value is None:
            return (1, 0.0, 0, 0)
        quick = (m.depth if m.value > 0.5 else -m.depth) if m.proven else 0
        return (0, -m.value, quick, -m.visits)

    return sorted(moves, key=rank)


def _best(moves: list[MoveValue], choice: str | None) -> MoveValue:
    """The best move: a proven win (the quickest); else the expert's choice, unless it is proven
    no better than another proven result, or the expert's best unproven move is worth less than
    the best proven one (a proven draw before an uncertain 0.45)."""
    wins = [m for m in moves if m.proven and m.value == 1.0]
    if wins:
        return wins[0]  # ranked: the quickest first
    proven = [m for m in moves if m.proven]
    open_moves = [m for m in moves if not m.proven and m.visits]
    by_name = {m.move: m for m in moves}
    candidate = by_name.get(choice) if choice is not None else None
    if candidate is None or candidate.proven or not candidate.visits:
        candidate = max(open_moves, key=lambda m: (m.visits, m.value), default=None)
    if candidate is None:
        return proven[0] if proven else moves[0]
    if proven and proven[0].value >= candidate.value:
        return proven[0]
    return candidate


def _line(
    state: State,
    found: _Search,
    expert: type[Agent],
    budget: int,
    nodes: int,
    seed: int,
    solver: Solver | None,
    end: float | None,
) -> tuple[list[str], int]:
    """The best line from ``state`` (``found``'s best move first) and the simulations spent on it,
    cut short at ``end`` (a ``time.perf_counter()`` value) when the analysis has a time. With
    hidden information it is played in one world drawn from the mover's view."""
    line = [found.best.move]
    position = state.clone()
    if not state.game.info.perfect_information:
        position = state.resample(state.current_player(), random.Random(_seed(seed, "world")))
    position.apply_move(found.best.move)
    spent = 0
    shorter = max(MIN_SEARCH, budget // LINE_SHARE)
    while len(line) < LINE_MOVES and not position.is_terminal():
        if end is not None and time.perf_counter() > end:
            break
        tag = _seed(seed, f"line/{len(line)}")
        step = _Search(position, expert, shorter, nodes // LINE_SHARE, tag, solver, end)
        spent += step.simulations
        line.append(step.best.move)
        position.apply_move(step.best.move)
    return line, spent


def _after(state: State, move: str) -> State:
    after = state.clone()
    after.apply_move(move)
    return after


def _seed(seed: int, tag: str) -> int:
    """A seed of its own for each search of an analysis, from the analysis's ``seed``."""
    return random.Random(f"{seed}/{tag}").getrandbits(62)


def _expert_class(state: State) -> type[Agent]:
    """The game's expert; a game without one (a plugin) gets the shared search that plays it."""
    names = agents_for(state.game)
    name = "expert" if "expert" in names else "mcts" if "mcts" in names else "ismcts"
    return type(make_agent(name, game=state.game))


def expert_budget(state: State) -> int:
    """The expert's own simulations a move in ``state``'s game: ``analyse``'s default budget."""
    return _expert_class(state)(seed=0).iterations


def _budget_for(state: State, expert: type[Agent], seconds: float, seed: int) -> tuple[int, float, float]:
    """For about ``seconds`` in all: the expert's simulations at the position, the solver's
    deadline and the line's. Two timed probe searches (after one that compiles the game's
    kernel if needed) of ``PROBE_ITERATIONS`` and twice as many simulations give the rate and how
    it falls as a tree grows (the time taken as a power of the simulations, from 1 to 1.5)."""
    start = time.perf_counter()
    expert(seed=seed, iterations=1).analyse(state)  # compiles the kernel, if not yet
    times = []
    for n in (PROBE_ITERATIONS, 2 * PROBE_ITERATIONS):
        began = time.perf_counter()
        expert(seed=seed, iterations=n).analyse(state)
        times.append(max(time.perf_counter() - began, 1e-6))
    now = time.perf_counter()
    left = max(seconds - (now - start), 0.0)
    power = min(max(math.log2(times[1] / times[0]), 1.0), 1.5)
    planned = 2 * PROBE_ITERATIONS * (left * SEARCH_TIME_SHARE / times[1]) ** (1 / power)
    budget = min(MAX_ITERATIONS, max(1, int(planned)))
    return budget, now + left * SOLVER_TIME_SHARE, start + seconds


# ----------------------------------------------------------------------------- checks


def _check_state(state: Any) -> None:
    if not isinstance(state, State):
        raise ValueError(f"analyse: state must be a tabletop_lab State, got {excerpt(state)}")
    if state.is_terminal():
        raise ValueError(f"analyse: the {state.game.name} game is over here; there is no move to analyse")
    if state.mid_turn():
        raise ValueError(
            f"analyse: a move is in progress ({' '.join(state.move_in_progress())}); "
            "analyse the position before it or after it"
        )


def _check_settings(seconds: Any, budget: Any, top: Any, seed: Any, nodes: Any) -> None:
    if seconds is not None and budget is not None:
        raise ValueError("analyse: give seconds or budget, not both")
    if seconds is not None:
        check_number("analyse", "seconds", seconds, minimum=0, inclusive=False, maximum=MAX_SECONDS)
    if budget is not None:
        check_number("analyse", "budget", budget, minimum=1, inclusive=True, integer=True, maximum=MAX_ITERATIONS)
    if top is not None:
        check_number("analyse", "top", top, minimum=1, inclusive=True, integer=True)
    if nodes is not None:
        check_number("analyse", "nodes", nodes, minimum=0, inclusive=True, integer=True, maximum=MAX_NODES)
    if type(seed) is not int:
        raise ValueError(f"analyse: seed must be an integer, got {excerpt(seed)}")
