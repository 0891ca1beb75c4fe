"""A bounded exact solver: proves the results of small endgames by exhaustive search through the engine.

It searches games of two sides (two players, or two teams such as Capitals' 2 against 2 and
Sinoda's four players in pairs) with perfect information. Values are the first side's result,
+1 a win, 0 a draw, -1 a loss, and every searched position gets an **interval** ``(lo, hi)``
that holds its true value: a terminal position its result, a position at the depth limit the
whole range ``(-1, 1)``, any other the max (first side to move) or min of its children's
intervals. Alpha-beta cuts children once the interval cannot matter to the parent, and every
interval it returns is still a true bound. A position is **proven** when ``lo == hi``: its
result is forced, whatever is played, within the depth searched.

Depth counts **whole moves** (plies), not actions: the actions of a move of several actions
(Sygo's growth, Capitals' jump chains) are searched one by one, merged by ``State.key()``, and
only the action that completes a move uses up a ply. So "a forced win within 3 plies" is a
mate in 2 for the player to move in a two-player game, as players count it.

The search deepens one ply at a time from the root and stops at a node limit: everything learned
so far stays true, so an interrupted search still reports the moves it proved. Proven values
are kept with the depth they needed, and the solver may be reused for later positions of the
same game (a review, a best line), which then start from what it knows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..core import Game, State

__all__ = ["Solver", "RootBound", "MAX_SOLVE_DEPTH", "solvable"]

#: The deepest iteration, in plies (whole moves): far beyond what a node limit lets it reach.
MAX_SOLVE_DEPTH = 64
_INF = float("inf")
_CLOCK_EVERY = 256  # positions expanded between two looks at the clock


def solvable(game: Game) -> str | None:
    """Why ``game`` (under its options) cannot be solved exactly, or ``None`` when it can."""
    if not game.info.perfect_information:
        return "it has hidden information: an exact search would read what the player may not see"
    if len(game.teams()) != 2:
        return f"it has {len(game.teams())} sides: only a game of two sides has one exact value to prove"
    return None


@dataclass(frozen=True)
class RootBound:
    """What the solver knows of one root move: bounds ``lo <= value <= hi`` for the **mover's**
    side (+1 win, 0 draw, -1 loss), and ``depth``, the plies (the move itself counted) within
    which the result is forced when proven, else the deepest iteration completed below it."""

    lo: float
    hi: float
    depth: int

    @property
    def proven(self) -> bool:
        return self.lo == self.hi


class _OutOfNodes(Exception):
    """The node limit (or the deadline) is reached; the deepening loop stops there."""


class Solver:
    """Interval alpha-beta over two sides, deepening ply by ply, for one game.

    ``solve(state, children, nodes)`` bounds each whole move from ``state`` (``children``: move
    -> the position after it), expanding at most ``nodes`` positions in this call;
    ``total_nodes`` counts the positions expanded in all calls.

    >>> from tabletop_lab import load_game
    >>> state = load_game("cross_endodoi").state_from_notation("0,0,0,0,1,1/0,0,0,0,0,1 20-13 0")
    >>> children = {}
    >>> for move in state.legal_moves():
    ...     children[move] = state.clone()
    ...     children[move].apply_move(move)
    >>> bounds, depth = Solver(state.game).solve(state, children, nodes=1000)
    >>> {move: (bound.lo, bound.hi, bound.depth) for move, bound in bounds.items()}
    {'4': (1.0, 1.0, 5), '5': (-1.0, 1.0, 4)}

    South wins by force with ``4`` within 5 plies; the search stops there, ``5`` still open, searched 4 plies deep.
    """

    def __init__(self, game: Game):
        reason = solvable(game)
        if reason is not None:
            raise ValueError(f"{game.name} cannot be solved exactly: {reason}")
        self.game = game
        teams = game.teams()
        self._first = {p: i == 0 for i, team in enumerate(teams) for p in team}
        self._scorer = teams[0][0]  # every member of a side shares its return
        #: key -> (value, plies): proven within that many plies (the fewest found).
        self._exact: dict[tuple, tuple[float, int]] = {}
        #: (key, plies) -> (lo, hi): true bounds from a search that many plies deep.
        self._bounds: dict[tuple, tuple[float, float]] = {}
        self._limit = 0
        self._deadline: float | None = None
        self.total_nodes = 0

    def solve(
        self, state: State, children: dict[str, State], nodes: int, deadline: float | None = None
    ) -> tuple[dict[str, RootBound], int]:
        """Bounds for each move of ``children`` (move -> the position after it) from ``state``,
        and the deepest iteration completed. Stops when every move is proven, when one is proven
        a win for the mover (the quickest: the search deepens a ply at a time), at
        ``MAX_SOLVE_DEPTH``, after expanding ``nodes`` positions, or at ``deadline`` (a
        ``time.perf_counter()`` value: a search for a time, which is not reproducible)."""
        mover_first = self._first[state.current_player()]
        self._limit = self.total_nodes + nodes
        self._deadline = deadline
        found: dict[str, tuple[float, float, int]] = {move: (-1.0, 1.0, 0) for move in children}
        completed = 0
        win = 1.0 if mover_first else -1.0
        try:
            for depth in range(1, MAX_SOLVE_DEPTH + 1):
                for move, child in children.items():
                    was_lo, was_hi, _ = found[move]
                    if was_lo == was_hi:
                        continue
                    lo, hi = self._search(child, depth - 1, -_INF, _INF)
                    lo, hi = max(lo, was_lo), min(hi, was_hi)  # both are true bounds
                    found[move] = (lo, hi, depth if lo == hi else 0)
                    if lo == hi == win:
                        return self._bounds_for(found, mover_first, completed), completed
                completed = depth
                if all(lo == hi for lo, hi, _ in found.values()):
                    break
        except _OutOfNodes:
            pass
        return self._bounds_for(found, mover_first, completed), completed

    @staticmethod
    def _bounds_for(
        found: dict[str, tuple[float, float, int]], mover_first: bool, completed: int
    ) -> dict[str, RootBound]:
        """The root's bounds for the mover's side."""
        bounds = {}
        for move, (lo, hi, proved_at) in found.items():
            if not mover_first:
                lo, hi = -hi, -lo
            bounds[move] = RootBound(lo + 0.0, hi + 0.0, proved_at or completed)
        return bounds

    def _search(self, state: State, depth: int, alpha: float, beta: float) -> tuple[float, float]:
        """True bounds on the first side's value of ``state``, searched ``depth`` plies deep;
        exact enough to decide against the window (``alpha``, ``beta``)."""
        if state.is_terminal():
            value = state.returns()[self._scorer]
            return value, value
        key = state.key()
        exact = self._exact.get(key)
        if exact is not None and exact[1] <= depth:
            return exact[0], exact[0]
        if depth == 0:
            return -1.0, 1.0
        known = self._bounds.get((key, depth))
        if known is not None and (known[0] >= beta or known[1] <= alpha):
            return known
        if self.total_nodes >= self._limit or (
            self._deadline is not None and self.total_nodes % _CLOCK_EVERY == 0 and time.perf_counter() > self._deadline
        ):
            raise _OutOfNodes
        self.total_nodes += 1
        maximise = self._first[state.current_player()]
        lo = hi = -_INF if maximise else _INF
        cut = False
        for action in state.legal_actions():
            child = state.child(action)
            left = depth if child.mid_turn() else depth - 1
            child_lo, child_hi = self._search(child, left, alpha, beta)
            if maximise:
                lo, hi = max(lo, child_lo), max(hi, child_hi)
                alpha = max(alpha, lo)
            else:
                lo, hi = min(lo, child_lo), min(hi, child_hi)
                beta = min(beta, hi)
            if alpha >= beta or (lo == 1.0 if maximise else hi == -1.0):
                cut = True
                break
        if cut:  # the children left unsearched may be anything
            if maximise:
                hi = 1.0
            else:
                lo = -1.0
        if known is not None:
            lo, hi = max(lo, known[0]), min(hi, known[1])
        if lo == hi:
            self._exact[key] = (lo, depth)
        else:
            self._bounds[(key, depth)] = (lo, hi)
        return lo, hi
