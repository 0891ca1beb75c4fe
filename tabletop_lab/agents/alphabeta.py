"""Alpha-beta (negamax) with iterative deepening and a transposition table, for two-player
zero-sum games of perfect information; compiled (``compiled_alphabeta``) where a game's kernel
offers it, the same search node for node."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..core import Game, State
from ..errors import EngineLimitError
from ..kernels import playout_kernel
from .base import MAX_DEPTH, MAX_NODES, MAX_SECONDS, Agent, budget_words, check_number, needs_perfect_information

__all__ = ["AlphaBetaAgent", "PLY_COST", "HEURISTIC_LIMIT"]

#: A proven result is worth 1 - PLY_COST * (actions to the end) to the winner: among wins
#: the quickest scores highest, among losses the slowest.
PLY_COST = 1e-6
#: Heuristic values (``evaluate()`` at the horizon) are clamped to this, so that a proven win
#: or loss (within 10 000 actions) always outranks them.
HEURISTIC_LIMIT = 0.99
#: Values closer than this are equal: the tie-break and the root window use it.
_EPS = 1e-9
#: Nodes searched between two looks at the clock.
_CLOCK_EVERY = 256
#: Transposition-table bounds: the stored value is exact, a lower bound or an upper bound.
_EXACT, _LOWER, _UPPER = 0, 1, 2


class AlphaBetaAgent(Agent):
    """Negamax with alpha-beta pruning, iterative deepening and the game's ``evaluate()`` at the horizon.

    ``depth`` counts **actions**, not turns: in a game of several actions per turn one turn
    uses several plies of depth. The sign flips only when ``current_player()`` changes, never by
    ply parity, so a player acting twice in a row is searched correctly. A position's value for
    its mover is half the difference of the two players' components: ``returns()`` at the end,
    scaled by ``1 - PLY_COST * plies`` so that quicker wins and slower losses are preferred, and
    ``evaluate()`` (clamped to ``HEURISTIC_LIMIT``) at the horizon.

    The search deepens 1, 2, 3 ... actions. Each iteration orders the root actions by the
    previous iteration's values and every position's actions by its previous best action (then
    by static value), and a transposition table keyed by ``State.key()`` searches each position
    once per remaining depth, so the k! orders of one set of sub-actions in a multi-action turn
    are searched once. It stops at ``depth``; or, with a budget (``seconds`` or ``nodes``), when
    the budget is spent, playing the deepest **completed** iteration's choice, unless the
    interrupted iteration had already proved a better win. It also stops early once every line
    reaches the end, or (when choosing) once a win is proven: no deeper search finds a quicker one.

    Args:
        depth: actions searched without a budget, at most ``MAX_DEPTH`` (64).
        seconds: a time budget, at most ``MAX_SECONDS`` (600); the depth reached depends on the
            machine, so it is not reproducible.
        nodes: a budget of positions expanded, at most ``MAX_NODES``; reproducible, unlike ``seconds``.

    Among equal best root actions the seeded rng chooses. After each search ``stats`` holds
    ``depth`` (the deepest completed iteration) and ``nodes`` (positions expanded in all).
    """

    name = "alphabeta"
    title = "Alpha-beta"

    def __init__(self, seed: int | None = None, depth: int = 4, seconds: float | None = None, nodes: int | None = None):
        super().__init__(seed)
        check_number("AlphaBetaAgent", "depth", depth, minimum=1, inclusive=True, integer=True, maximum=MAX_DEPTH)
        if seconds is not None:
            check_number("AlphaBetaAgent", "seconds", seconds, minimum=0, inclusive=False, maximum=MAX_SECONDS)
        if nodes is not None:
            check_number("AlphaBetaAgent", "nodes", nodes, minimum=1, inclusive=True, integer=True, maximum=MAX_NODES)
        self.depth = depth
        self.seconds = seconds
        self.nodes = nodes
        self.stats: dict[str, int] = {}

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        reason = needs_perfect_information(game)
        if reason is not None:
            return reason
        kind = game.game_type
        if kind.num_players != 2:
            return f"it searches two-player zero-sum games; this one has {kind.num_players} players (use mcts)"
        if kind.utility != "zero_sum":
            return f"it searches two-player zero-sum games; this one is {kind.utility} (use mcts)"
        return None

    def describe(self) -> list[str]:
        return budget_words(self.settings())

    def settings(self) -> dict[str, Any]:
        budget = {"seconds": self.seconds, "nodes": self.nodes}
        budget = {key: value for key, value in budget.items() if value is not None}
        return budget or {"depth": self.depth}

    def choose_action(self, state: State) -> int:
        actions = self._check_supported(state)
        if len(actions) == 1:
            return actions[0]
        values = self._root_values(state, actions, exact=False)
        if not values:  # the engine declines every action (see ``_child``): it raises when one is played
            return actions[0]
        best = max(values.values())
        return self.rng.choice(sorted(a for a, v in values.items() if v >= best - _EPS))

    def analyse(self, state: State) -> list[dict]:
        """The searched value of every legal action for the player to move, best first.

        Each dict has ``action``, ``move`` (its string) and ``value`` in [-1, 1]: exact for the
        depth searched (the deepest completed iteration under a budget).
        """
        actions = self._check_supported(state)
        values = self._root_values(state, actions, exact=True)
        rows = [{"action": a, "move": state.action_to_string(a), "value": v + 0.0} for a, v in values.items()]
        rows.sort(key=lambda row: -row["value"])  # no -0.0 above
        return rows

    # --- iterative deepening ------------------------------------------------------------------

    def _root_values(self, state: State, actions: list[int], exact: bool) -> dict[int, float]:
        """Action -> value at the deepest completed iteration (plus any win proven after it).

        With ``exact`` every value is exact; otherwise only the best ones are, and the others
        are upper bounds below them, which is all the choice needs.
        """
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        search = _CompiledSearch.for_state(state, deadline, self.nodes) or _Search(deadline, self.nodes)
        budgeted = self.seconds is not None or self.nodes is not None
        completed: dict[int, float] = {}
        completed_depth = 0
        order = list(actions)
        depth = 0
        while budgeted or depth < self.depth:
            if completed and search.budget_spent(look_at_clock=True):
                break
            depth += 1
            values: dict[int, float] = {}
            try:
                search.root(state, order, depth, exact, values)
            except _OutOfBudget:
                best_so_far = max(completed.values())
                completed.update({a: v for a, v in values.items() if v > HEURISTIC_LIMIT and v > best_so_far})
                break
            completed, completed_depth = values, depth
            search.armed = True  # the first iteration always completes
            if not search.horizon_reached or (not exact and max(values.values()) > HEURISTIC_LIMIT):
                break  # every line ended, or a win is proven: deeper search changes nothing
            order = sorted(values, key=lambda a: -values[a])  # (actions the engine declines drop out)
        self.stats = {"depth": completed_depth, "nodes": search.nodes}
        return completed


class _Search:
    """One deepening search: its budget, the positions it expanded, and what it learned."""

    def __init__(self, deadline: float | None, node_limit: int | None):
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.armed = False  # budgets interrupt only once an iteration has completed
        self.horizon_reached = False
        self.table: dict[tuple, tuple[float, int]] = {}  # (key, depth) -> (value, bound); one iteration
        self.best_action: dict[Any, int] = {}  # key -> best action found last time; orders the next iteration

    def root(self, state: State, actions: list[int], depth: int, exact: bool, values: dict[int, float]) -> None:
        """Fill ``values`` with each root action's value at ``depth``, in the order given."""
        self.table = {}
        self.horizon_reached = False
        mover = state.current_player()
        best = float("-inf")
        for action in actions:
            alpha = float("-inf") if exact else best - _EPS  # ties with the best stay exact
            child = _child(state, action)
            if child is None:
                continue
            values[action] = self.child_value(child, mover, depth - 1, 1, alpha, float("inf"))
            best = max(best, values[action])

    def value(self, state: State, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The value of ``state`` for its mover, searched ``depth`` >= 1 actions deep.

        Exact when it lies strictly inside (alpha, beta); otherwise a bound on the same side.
        Within one iteration ``ply`` follows from ``depth``, so the table's key needs only
        the position and the depth.
        """
        key = state.key()
        stored = self.table.get((key, depth))
        if stored is not None:
            value, bound = stored
            if bound == _EXACT or (bound == _LOWER and value >= beta) or (bound == _UPPER and value <= alpha):
                return value
        self.tick()
        mover = state.current_player()
        first = self.best_action.get(key)
        children = []
        for action in state.legal_actions():
            child = _child(state, action)
            if child is None:
                continue
            children.append((action == first, _static_value(child, mover, ply + 1), action, child))
        children.sort(key=lambda c: (not c[0], -c[1]))  # last best first, then best static value
        start_alpha = alpha
        best, best_action = float("-inf"), None
        for _, static, action, child in children:
            value = self.child_value(child, mover, depth - 1, ply + 1, alpha, beta, static)
            if value > best:
                best, best_action = value, action
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        bound = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.table[(key, depth)] = (best, bound)
        self.best_action[key] = best_action
        return best

    def child_value(
        self, child: State, mover: int, depth: int, ply: int, alpha: float, beta: float, static: float | None = None
    ) -> float:
        """The value for ``mover`` of ``child`` (``ply`` actions below the root), searched
        ``depth`` more actions. ``static`` is ``_static_value(child, mover, ply)`` when the
        caller has it. The sign flips only when the player to move changes."""
        if child.is_terminal() or depth == 0:
            if not child.is_terminal():
                self.horizon_reached = True
            return _static_value(child, mover, ply) if static is None else static
        if child.current_player() == mover:
            return self.value(child, depth, ply, alpha, beta)
        return -self.value(child, depth, ply, -beta, -alpha)

    def tick(self) -> None:
        self.nodes += 1
        if self.armed and self.budget_spent(look_at_clock=self.nodes % _CLOCK_EVERY == 0):
            raise _OutOfBudget

    def budget_spent(self, look_at_clock: bool) -> bool:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            return True
        return look_at_clock and self.deadline is not None and time.perf_counter() > self.deadline


class _CompiledSearch:
    """``_Search`` on a game kernel's compiled operations (``compiled_alphabeta``): the same
    iterations, one compiled call each. With a deadline, each iteration's node limit is what the
    time left allows at the rate measured so far."""

    def __init__(self, tree, deadline: float | None, node_limit: int | None):
        from ..compiled_alphabeta import new_best_table  # numba is loaded on first use only

        self.tree = tree
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.armed = False
        self.horizon_reached = False
        self.best = new_best_table(tree.key_width)
        self.started = time.perf_counter()

    @classmethod
    def for_state(cls, state: State, deadline: float | None, node_limit: int | None) -> _CompiledSearch | None:
        """The compiled search of ``state``, or None when its game's kernel has none."""
        kernel = playout_kernel(state.game)
        tree = None if kernel is None or not hasattr(kernel, "tree_root") else kernel.tree_root(state)
        if tree is None or tree.alphabeta is None:
            return None
        return cls(tree, deadline, node_limit)

    def root(self, state: State, actions: list[int], depth: int, exact: bool, values: dict[int, float]) -> None:
        """``_Search.root``: raises ``_OutOfBudget`` as it does."""
        from ..compiled_alphabeta import COMPLETED

        tree = self.tree
        found = np.zeros(len(actions), np.float64)
        status, nodes, valued, horizon, *best = tree.alphabeta(
            tree.rules, tree.state, tree.key_width, tree.max_legal, np.array(actions, np.int64), depth, exact,
            self.armed, self._node_limit(), self.nodes, *self.best, found,
        )  # fmt: skip
        self.nodes, self.horizon_reached, self.best = int(nodes), bool(horizon), tuple(best)
        values.update((a, v) for a, v in zip(actions[:valued], found[:valued].tolist()) if v == v)  # NaN: declined
        if status != COMPLETED:
            raise _OutOfBudget

    def _node_limit(self) -> int:
        limit = 2**62 if self.node_limit is None else self.node_limit
        if self.deadline is not None and self.nodes:
            now = time.perf_counter()
            rate = self.nodes / max(now - self.started, 1e-9)
            limit = min(limit, self.nodes + max(1, int(rate * max(0.0, self.deadline - now))))
        return limit

    def budget_spent(self, look_at_clock: bool) -> bool:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            return True
        return look_at_clock and self.deadline is not None and time.perf_counter() > self.deadline


class _OutOfBudget(Exception):
    """Raised inside the search when the budget is spent; the deepening loop catches it."""


def _child(state: State, action: int) -> State | None:
    """``state.child(action)``, or None where the engine declines the action (``EngineLimitError``:
    a Cross-endodoi sowing past its lap limit), which the search then leaves out."""
    try:
        return state.child(action)
    except EngineLimitError:
        return None


def _static_value(state: State, mover: int, ply: int) -> float:
    """``mover``'s value of ``state`` without search, ``ply`` actions below the root.

    Half the difference of the two players' components: of ``returns()`` shrunk by
    ``PLY_COST`` per action at the end, of ``evaluate()`` clamped to ``HEURISTIC_LIMIT`` before it.
    """
    if state.is_terminal():
        values = state.returns()
        return (values[mover] - values[1 - mover]) / 2 * (1 - PLY_COST * ply)
    values = state.evaluate()
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, (values[mover] - values[1 - mover]) / 2))
