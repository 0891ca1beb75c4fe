"""UCT Monte Carlo tree search with random rollouts, max-n over any number of players.

Each simulation clones the root state once, walks down the tree by UCT, adds one node,
plays uniformly random actions to the end (in the game's compiled kernel when it has one, see
``tabletop_lab.kernels``; same values either way) and backs the result up the path. The result is a
vector with one value per player (``returns()``, or ``evaluate()`` when the rollout reaches the
game's action cap); every node keeps the total of the component belonging to the player who
chose the action leading to it, which is the only component its parent ever selects on. So
the search is max-n: it always follows ``current_player()``, never ply parity, and handles
turns of several actions, 3-6 players and teams (teammates share returns). A draw is 0 on the
[-1, 1] scale, half way between a loss and a win.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..core import State
from ..kernels import rollout_function
from .base import Agent, check_number, legal_or_raise, require_perfect_information

__all__ = ["MCTSAgent", "DEFAULT_C"]

#: UCB1's exploration constant sqrt(2) is for rewards in [0, 1]; returns span [-1, 1], twice as
#: wide, so the same exploration needs twice the constant.
DEFAULT_C = 2 * math.sqrt(2)


class MCTSAgent(Agent):
    """UCT with random rollouts; plays the most visited action at the root.

    Args:
        iterations: simulations per decision (exactly this many, reproducible with a seed).
        seconds: when given, search for this long instead of ``iterations`` simulations; the
            number of simulations then depends on the machine and its load, so choices are
            **not** reproducible even with a seed.
        c: the UCT exploration constant for returns in [-1, 1]; default ``DEFAULT_C`` (2 sqrt 2).

    Rollouts stop after ``game.info.max_actions`` actions counted from the root and score
    ``evaluate()`` there. With a single legal action ``choose_action`` returns it without search.
    """

    name = "mcts"

    def __init__(
        self, seed: int | None = None, iterations: int = 1000, seconds: float | None = None, c: float | None = None
    ):
        super().__init__(seed)
        check_number("MCTSAgent", "iterations", iterations, minimum=1, inclusive=True, integer=True)
        if seconds is not None:
            check_number("MCTSAgent", "seconds", seconds, minimum=0, inclusive=False)
        if c is not None:
            check_number("MCTSAgent", "c", c, minimum=0, inclusive=True)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c

    def settings(self) -> dict[str, Any]:
        budget = {"iterations": self.iterations} if self.seconds is None else {"seconds": self.seconds}
        return budget if self.c is None else {**budget, "c": self.c}

    def choose_action(self, state: State) -> int:
        require_perfect_information(self, state)
        actions = legal_or_raise(state)
        if len(actions) == 1:
            return actions[0]
        root = self._search(state, actions)
        best = max(root.children, key=lambda n: (n.visits, n.total / n.visits))
        return best.action

    def analyse(self, state: State) -> list[dict]:
        """Search ``state`` and report every legal action, most visited first.

        Each dict has ``action``, ``move`` (its string), ``visits`` and ``value``: the mean
        return for the player to move over the simulations through that action, in [-1, 1]
        (``None`` for an action the budget never reached).
        """
        require_perfect_information(self, state)
        actions = legal_or_raise(state)
        root = self._search(state, actions)
        rows = [
            {
                "action": n.action,
                "move": state.action_to_string(n.action),
                "visits": n.visits,
                "value": n.total / n.visits,
            }
            for n in root.children
        ]
        rows += [{"action": a, "move": state.action_to_string(a), "visits": 0, "value": None} for a in root.untried]
        rows.sort(key=lambda row: -row["visits"])
        return rows

    # --- the search -----------------------------------------------------------------------

    def _search(self, root_state: State, actions: list[int]) -> _Node:
        rollout = rollout_function(root_state.game)  # compiled where the game has a kernel
        stream = self.rng.getrandbits(64)
        c = DEFAULT_C if self.c is None else self.c
        cap = root_state.game.info.max_actions
        root = _Node(None, None, root_state.current_player(), self._shuffled(actions))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self._budget_left(done, deadline):
            done += 1
            state = root_state.clone()
            node = root
            path = [root]
            # Selection: descend through fully expanded nodes by UCT on the chooser's component.
            while not node.untried and node.children:
                node = _uct_child(node, c)
                state.apply_action(node.action)
                path.append(node)
            # Expansion: one new node, unless the walk ended at a terminal or capped node.
            if node.untried:
                action = node.untried.pop()
                state.apply_action(action)
                untried = self._shuffled(state.legal_actions()) if len(path) < cap else []
                child = _Node(action, node.player, state.current_player(), untried)
                node.children.append(child)
                path.append(child)
            # Rollout: uniformly random actions until the end or the cap.
            values, stream = rollout(state, cap - (len(path) - 1), stream)
            root.visits += 1
            for node in path[1:]:
                node.visits += 1
                node.total += values[node.chooser]
        return root

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Whether to run another simulation: ``iterations`` in all, or until the deadline
        (at least one, so that the root always has a visited child)."""
        if deadline is None:
            return done < self.iterations
        return done == 0 or time.perf_counter() < deadline

    def _shuffled(self, actions: list[int]) -> list[int]:
        """The actions in seeded random order: expansion pops from the end, and UCT ties go
        to the first child, so no action is favoured by its place in the legal list."""
        actions = list(actions)
        self.rng.shuffle(actions)
        return actions


class _Node:
    """A tree node: the action into it, who chose it, who moves next and its statistics.

    ``total`` sums the chooser's component of every result backed up through the node.
    Children are created one per simulation, from ``untried``.
    """

    __slots__ = ("action", "chooser", "player", "untried", "children", "visits", "total")

    def __init__(self, action: int | None, chooser: int | None, player: int, untried: list[int]):
        self.action = action
        self.chooser = chooser
        self.player = player
        self.untried = untried
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0


def _uct_child(node: _Node, c: float) -> _Node:
    """The child maximising mean value + c * sqrt(ln N / n) for the player choosing at ``node``."""
    scale = c * math.sqrt(math.log(node.visits))
    best = node.children[0]
    best_score = float("-inf")
    for child in node.children:
        n = child.visits
        score = child.total / n + scale / math.sqrt(n)
        if score > best_score:
            best, best_score = child, score
    return best
