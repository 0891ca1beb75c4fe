"""Depth-limited alpha-beta (negamax) for two-player zero-sum games of perfect information."""

from __future__ import annotations

import time
from typing import Any

from ..core import State
from .base import MAX_DEPTH, MAX_SECONDS, Agent, check_number, legal_or_raise, require_perfect_information

__all__ = ["AlphaBetaAgent"]

#: Values closer than this are equal: the tie-break and the root window use it.
_EPS = 1e-9
#: Nodes searched between two looks at the clock.
_CLOCK_EVERY = 256


class AlphaBetaAgent(Agent):
    """Negamax with alpha-beta pruning and the game's ``evaluate()`` at the horizon.

    ``depth`` counts **actions**, not turns: in a game of several actions per turn one turn
    uses several plies of depth. The sign flips only when ``current_player()`` changes, so a
    player acting twice in a row is searched correctly. A position's value for its mover is
    half the difference of the two players' components (``returns()`` at the end, else
    ``evaluate()``), which is the component itself when the game is zero-sum.

    Children are ordered by that static value, best first, so cut-offs come early. Among equal
    best root actions the seeded rng chooses. With ``seconds`` the search deepens 1, 2, 3 ...
    actions until the time is up (``depth`` is then not used) and plays the deepest completed
    search; that depends on the machine, so it is not reproducible. ``depth`` is at most
    ``MAX_DEPTH`` (64) and ``seconds`` at most ``MAX_SECONDS`` (600).
    """

    name = "alphabeta"

    def __init__(self, seed: int | None = None, depth: int = 4, seconds: float | None = None):
        super().__init__(seed)
        check_number("AlphaBetaAgent", "depth", depth, minimum=1, inclusive=True, integer=True, maximum=MAX_DEPTH)
        if seconds is not None:
            check_number("AlphaBetaAgent", "seconds", seconds, minimum=0, inclusive=False, maximum=MAX_SECONDS)
        self.depth = depth
        self.seconds = seconds

    def settings(self) -> dict[str, Any]:
        return {"depth": self.depth} if self.seconds is None else {"seconds": self.seconds}

    def choose_action(self, state: State) -> int:
        actions = self._check(state)
        if len(actions) == 1:
            return actions[0]
        values = self._root_values(state, actions, exact=False)
        best = max(v for _, v in values)
        return self.rng.choice([a for a, v in values if v >= best - _EPS])

    def analyse(self, state: State) -> list[dict]:
        """The exact searched value of every legal action for the player to move, best first.

        Each dict has ``action``, ``move`` (its string) and ``value`` in [-1, 1].
        """
        actions = self._check(state)
        values = self._root_values(state, actions, exact=True)
        rows = [{"action": a, "move": state.action_to_string(a), "value": v + 0.0} for a, v in values]  # no -0.0
        rows.sort(key=lambda row: -row["value"])
        return rows

    # --- the search -----------------------------------------------------------------------

    def _check(self, state: State) -> list[int]:
        require_perfect_information(self, state)
        if state.game.num_players != 2:
            raise ValueError(
                f"AlphaBetaAgent plays two-player zero-sum games only; {state.game.name} has "
                f"{state.game.num_players} players (use MCTSAgent)"
            )
        return legal_or_raise(state)

    def _root_values(self, state: State, actions: list[int], exact: bool) -> list[tuple[int, float]]:
        """(action, value) for each root action at the full depth, or the deepest completed one.

        With ``exact`` every value is exact; otherwise only the best ones are, and the others
        are upper bounds below them, which is all the choice needs.
        """
        if self.seconds is None:
            return _Search(None).root(state, actions, self.depth, exact)
        search = _Search(time.perf_counter() + self.seconds)
        values = search.root(state, actions, 1, exact)  # depth 1 never looks at the clock
        depth = 1
        while search.horizon_reached:  # else every line reached the end: deeper adds nothing
            actions = [a for a, _ in sorted(values, key=lambda av: -av[1])]  # best first
            depth += 1
            search.horizon_reached = False
            try:
                values = search.root(state, actions, depth, exact)
            except _OutOfTime:
                break
        return values


class _Search:
    """One search: its deadline, the nodes it has visited and whether any line was cut short."""

    def __init__(self, deadline: float | None):
        self.deadline = deadline
        self.nodes = 0
        self.horizon_reached = False

    def root(self, state: State, actions: list[int], depth: int, exact: bool) -> list[tuple[int, float]]:
        mover = state.current_player()
        best = float("-inf")
        values = []
        for action in actions:
            alpha = float("-inf") if exact else best - _EPS  # ties with the best stay exact
            value = self.child_value(state.child(action), mover, depth - 1, alpha, float("inf"))
            values.append((action, value))
            best = max(best, value)
        return values

    def value(self, state: State, depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` for its mover, searched ``depth`` >= 1 actions deep.

        Exact when it lies strictly inside (alpha, beta); otherwise a bound on the same side.
        """
        self.tick()
        mover = state.current_player()
        children = []
        for action in state.legal_actions():
            child = state.child(action)
            children.append((_static_value(child, mover), child))
        children.sort(key=lambda sc: -sc[0])  # best first: cut-offs come early
        best = float("-inf")
        for static, child in children:
            value = self.child_value(child, mover, depth - 1, alpha, beta, static)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return best

    def child_value(
        self, child: State, mover: int, depth: int, alpha: float, beta: float, static: float | None = None
    ) -> float:
        """The value for ``mover`` of ``child``, searched ``depth`` more actions.

        ``static`` is ``_static_value(child, mover)`` when the caller already has it. The sign
        flips only when the player to move changes.
        """
        if child.is_terminal() or depth == 0:
            if not child.is_terminal():
                self.horizon_reached = True
            return _static_value(child, mover) if static is None else static
        if child.current_player() == mover:
            return self.value(child, depth, alpha, beta)
        return -self.value(child, depth, -beta, -alpha)

    def tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise _OutOfTime


class _OutOfTime(Exception):
    """Raised inside the search when the time budget is spent; the deepening loop catches it."""


def _static_value(state: State, mover: int) -> float:
    """``mover``'s value of ``state`` without search: half the difference of the two components."""
    values = state.returns() if state.is_terminal() else state.evaluate()
    return (values[mover] - values[1 - mover]) / 2
