"""UCT Monte Carlo tree search with random rollouts, max-n (or paranoid) over any number of players.

Each simulation walks down by UCT, adds one position (a copy of its parent's state with one
action applied: every node keeps its state, so a simulation applies one action in Python, not
one per level), plays uniformly random actions to the end (in the game's compiled kernel when
it has one, see ``tabletop_lab.kernels``; same values either way) and backs the result up the path. The result is a vector
with one value per player (``returns()``, or ``evaluate()`` when the rollout reaches the game's
action cap); every edge keeps the total of the component belonging to the player who chose it,
which is the only component its position ever selects on. So the search is max-n: it always
follows ``current_player()``, never ply parity, and handles turns of several actions, 3-6
players and teams (teammates share returns). With ``paranoid=True`` every player outside the
root player's team instead minimises the root player's component, as one coalition. A draw is
0 on the [-1, 1] scale, half way between a loss and a win.

Transpositions are merged: positions are nodes of a graph keyed by ``State.key()`` (UCT on
the DAG: statistics live on the edges, a node's count is the simulations through it), so the
k! orders of one set of sub-actions in a multi-action turn lead to one node, searched once.

With an ``iterations`` budget and a game kernel that offers tree operations (``tree_root``), the
whole search runs compiled (``compiled_search.py``): the same simulations from the same seed, with
the same ``analyse()`` rows, ``stats`` and rng state afterwards, only faster. A ``seconds``
budget, kernels switched off, or a game or config without those operations search in Python.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from ..core import Game, State
from ..errors import EngineLimitError
from ..kernels import playout_kernel, random_rollout, rollout_function
from .base import (
    MAX_ITERATIONS,
    MAX_SECONDS,
    Agent,
    budget_words,
    check_number,
    needs_perfect_information,
    no_gc_pauses,
)

__all__ = ["MCTSAgent", "DEFAULT_C", "MAX_HORIZON"]

#: UCB1's exploration constant sqrt(2) is for rewards in [0, 1]; returns span [-1, 1], twice as
#: wide, so the same exploration needs twice the constant.
DEFAULT_C = 2 * math.sqrt(2)
#: The longest evaluation horizon, in actions: beyond any game's own action cap here.
MAX_HORIZON = 100_000


class MCTSAgent(Agent):
    """UCT with random rollouts; plays the most visited action at the root.

    Args:
        iterations: simulations per decision (exactly this many, reproducible with a seed), at
            most ``MAX_ITERATIONS`` (1,000,000).
        seconds: when given, search for this long (at most ``MAX_SECONDS``, 600) instead of
            ``iterations`` simulations; the number of simulations then depends on the machine
            and its load, so choices are **not** reproducible even with a seed.
        c: the UCT exploration constant for returns in [-1, 1]; default ``DEFAULT_C`` (2 sqrt 2).
        paranoid: the other teams play as one coalition against the root player (default: max-n,
            each player after its own return).
        horizon: when given, a simulation stops after this many actions counted from the root
            (tree and rollout together, at most ``MAX_HORIZON``) and scores the game's
            ``evaluate()`` there.
        rollout: when given, a rollout stops after this many random actions (at most
            ``MAX_HORIZON``) and scores ``evaluate()`` there: an evaluation cut-off counted from
            the new position, so the tree may still grow deep (``horizon`` limits the tree too).

    Rollouts stop after ``rollout`` actions, or at ``horizon`` or ``game.info.max_actions``
    actions counted from the root, whichever comes first, and score ``evaluate()`` there. With a single legal action ``choose_action`` returns it without search.
    After each search ``stats`` holds ``simulations`` and ``nodes`` (distinct positions in the graph).
    """

    name = "mcts"
    title = "MCTS"
    kernel_paths = ("games", "search")  # compiled rollouts and search, on top of the random games' code

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 1000,
        seconds: float | None = None,
        c: float | None = None,
        paranoid: bool = False,
        horizon: int | None = None,
        rollout: int | None = None,
    ):
        super().__init__(seed)
        owner = type(self).__name__  # a subclass (an expert) names itself in errors
        check_number(owner, "iterations", iterations, minimum=1, inclusive=True, integer=True, maximum=MAX_ITERATIONS)
        if seconds is not None:
            check_number(owner, "seconds", seconds, minimum=0, inclusive=False, maximum=MAX_SECONDS)
        if c is not None:
            check_number(owner, "c", c, minimum=0, inclusive=True)
        if horizon is not None:
            check_number(owner, "horizon", horizon, minimum=1, inclusive=True, integer=True, maximum=MAX_HORIZON)
        if rollout is not None:
            check_number(owner, "rollout", rollout, minimum=0, inclusive=True, integer=True, maximum=MAX_HORIZON)
        self.horizon = horizon
        self.rollout = rollout
        self.iterations = iterations
        self.seconds = seconds
        if type(paranoid) is not bool:
            raise ValueError(f"{owner}: paranoid must be True or False, got {paranoid!r}")
        self.c = c
        self.paranoid = paranoid
        self.stats: dict[str, int] = {}

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        return needs_perfect_information(game)

    def describe(self) -> list[str]:
        return budget_words(self.settings())

    def settings(self) -> dict[str, Any]:
        budget = {"iterations": self.iterations} if self.seconds is None else {"seconds": self.seconds}
        if self.c is not None:
            budget["c"] = self.c
        if self.paranoid:
            budget["paranoid"] = True
        if self.horizon is not None:
            budget["horizon"] = self.horizon
        if self.rollout is not None:
            budget["rollout"] = self.rollout
        return budget

    def choose_action(self, state: State) -> int:
        actions = self._check_supported(state)
        if len(actions) == 1:
            return actions[0]
        return self._search(state, lambda root: _most_visited(root) if root.edges else actions[0])

    def analyse(self, state: State) -> list[dict]:
        """Search ``state`` and report every legal action, most visited first.

        Each dict has ``action``, ``move`` (its string), ``visits`` and ``value``: the mean
        return for the player to move over the simulations through that action, in [-1, 1]
        (``None`` for an action the budget never reached).
        """
        self._check_supported(state)
        tried, untried = self._search(
            state, lambda root: ([(e.action, e.visits, e.total) for e in root.edges], root.untried)
        )
        rows = [
            {"action": a, "move": state.action_to_string(a), "visits": visits, "value": total / visits}
            for a, visits, total in tried
        ]
        rows += [{"action": a, "move": state.action_to_string(a), "visits": 0, "value": None} for a in untried]
        rows.sort(key=lambda row: -row["visits"])
        return rows

    # --- the search -----------------------------------------------------------------------

    def _search(self, root_state: State, summarise: Callable[[_Node], Any]) -> Any:
        """``summarise(root)`` after the simulations: compiled (``compiled_search``) when the game's
        kernel has tree operations for this state and the budget is ``iterations``, else in
        Python. The Python tree is freed (by reference counting) before the cycle collector
        resumes; otherwise its first pass would scan the whole tree, which cost a quarter of a
        100-simulation search."""
        if self.seconds is None and playout_kernel(root_state.game) is not None:
            from ..compiled_search import search_root  # numba is loaded on first use only

            c = DEFAULT_C if self.c is None else self.c
            found = search_root(
                root_state, self.rng, self.iterations, c, self.paranoid, self._cap(root_state), self.rollout
            )
            if found is not None:
                self.stats = {"simulations": self.iterations, "nodes": found.nodes}
                return summarise(_Node.compiled_root(root_state, found.edges, found.untried))
        with no_gc_pauses():
            return summarise(self._simulate(root_state))

    def _simulate(self, root_state: State) -> _Node:
        rollout = _rollout_keeping_state(root_state.game)
        stream = self.rng.getrandbits(64)
        c = DEFAULT_C if self.c is None else self.c
        cap = self._cap(root_state)
        reward = self._reward(root_state)
        table: dict = {}
        root = self._node(root_state.clone(), table)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self._budget_left(done, deadline):
            done += 1
            node = root
            nodes = [root]
            edges: list[_Edge] = []
            # Selection and expansion: follow UCT through known positions until one is new.
            while len(edges) < cap:
                if node.untried:
                    action = node.untried.pop()
                    state = node.state.clone()
                    try:
                        state.apply_action(action)
                    except EngineLimitError:
                        continue  # the engine cannot play it (a sowing that never ends): never an edge
                    known = len(table)
                    edge = _Edge(action, self._node(state, table))
                    node.edges.append(edge)
                    new = len(table) > known
                else:
                    if not node.edges:
                        break  # the game is over here
                    edge = _uct_edge(node, c)
                    new = False
                edges.append(edge)
                node = edge.child
                nodes.append(node)
                if new:
                    break  # a new position: roll out from it
            # Rollout: uniformly random actions until the end or the cap.
            budget = cap - len(edges)
            if self.rollout is not None and self.rollout < budget:
                budget = self.rollout
            values, stream = rollout(node.state, budget, stream)
            for position in nodes:
                position.visits += 1
            for position, edge in zip(nodes, edges):
                edge.visits += 1
                edge.total += reward(values, position.player)
        self.stats = {"simulations": done, "nodes": len(table)}
        return root

    def _cap(self, state: State) -> int:
        """Actions from the root after which a simulation stops and scores ``evaluate()``."""
        cap = state.game.info.max_actions
        return cap if self.horizon is None else min(cap, self.horizon)

    def _node(self, state: State, table: dict) -> _Node:
        """The graph's node for ``state``, made (keeping ``state``, its actions shuffled) when new."""
        key = state.key()
        node = table.get(key)
        if node is None:
            node = table[key] = _Node(state, self._shuffled(state.legal_actions()))
        return node

    def _reward(self, state: State) -> Callable[[list[float], int], float]:
        """How a chooser scores a result: its own component (max-n); or, paranoid, the root
        player's component, kept by the root player's team and negated by everyone else."""
        if not self.paranoid:
            return lambda values, chooser: values[chooser]
        root = state.current_player()
        team = state.game.teams()[state.game.team_of(root)]
        return lambda values, chooser: values[root] if chooser in team else -values[root]

    def _budget_left(self, done: int, deadline: float | None) -> bool:
        """Whether to run another simulation: ``iterations`` in all, or until the deadline
        (at least one, so that the root always has a visited child)."""
        if deadline is None:
            return done < self.iterations
        return done == 0 or time.perf_counter() < deadline

    def _shuffled(self, actions: list[int]) -> list[int]:
        """The actions in seeded random order: expansion pops from the end, and UCT ties go
        to the first edge, so no action is favoured by its place in the legal list."""
        actions = list(actions)
        self.rng.shuffle(actions)
        return actions


def _rollout_keeping_state(game: Game) -> Callable[[State, int, int], tuple[list[float], int]]:
    """The game's rollout, on a copy when it would change the state (the nodes keep theirs)."""
    rollout = rollout_function(game)  # compiled where the game has a kernel, which changes nothing
    if rollout is not random_rollout:
        return rollout
    return lambda state, budget, stream: random_rollout(state.clone(), budget, stream)


class _Node:
    """A position of the search graph: its state, who moves, actions not tried yet, the edges
    tried and the number of simulations through it. Terminal positions have neither actions nor edges."""

    __slots__ = ("state", "player", "untried", "edges", "visits")

    def __init__(self, state: State, untried: list[int]):
        self.state = state
        self.player = state.current_player()
        self.untried = untried
        self.edges: list[_Edge] = []
        self.visits = 0

    @classmethod
    def compiled_root(cls, state: State, edges: list[tuple[int, int, float]], untried: list[int]) -> _Node:
        """The root of a compiled search (``compiled_search.search_root``): its edges' statistics,
        without the graph below."""
        root = cls(state, untried)
        for action, visits, total in edges:
            edge = _Edge(action, None)
            edge.visits, edge.total = visits, total
            root.edges.append(edge)
        root.visits = sum(edge.visits for edge in root.edges)
        return root


class _Edge:
    """An action from a node to its child; ``total`` sums the chooser's component of every
    result backed up through it."""

    __slots__ = ("action", "child", "visits", "total")

    def __init__(self, action: int, child: _Node | None):
        self.action = action
        self.child = child
        self.visits = 0
        self.total = 0.0


def _most_visited(root: _Node) -> int:
    """The root's most visited action, the better mean among equals. (A root without edges has
    only actions the engine declines: ``choose_action`` then plays one, and the engine raises.)"""
    return max(root.edges, key=lambda e: (e.visits, e.total / e.visits)).action


def _uct_edge(node: _Node, c: float) -> _Edge:
    """The edge maximising mean value + c * sqrt(ln N / n) for the player choosing at ``node``."""
    scale = c * math.sqrt(math.log(node.visits))
    best = node.edges[0]
    best_score = float("-inf")
    for edge in node.edges:
        n = edge.visits
        if n == 0:  # made earlier in this simulation, which came back here through a cycle of positions
            return edge
        score = edge.total / n + scale / math.sqrt(n)
        if score > best_score:
            best, best_score = edge, score
    return best
