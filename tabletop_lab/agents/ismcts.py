"""Information-set MCTS: UCT over what each player knows, playing in sampled worlds.

Single-observer determinising IS-MCTS after Cowling, Powley and Whitehouse, "Information Set
Monte Carlo Tree Search" (IEEE TCIAIG 2012), with each decision keyed by the information set
of the player making it. Each simulation draws a world consistent with what the searching
player knows (``state.resample(me, rng)``: the others' hidden data drawn from the agent's
seeded rng), walks it down by UCT, adds one decision, rolls out randomly (in the game's compiled
kernel when it has one, from a counter-based stream as MCTSAgent does) and backs the result
up. The statistics of a decision are shared by every world in which the player to move knows
the same: they are keyed by that player's ``information_state_string``. Selection uses each
action's *availability* count (how often it was legal when its information set was visited)
instead of the parent's visits, since an action is not legal in every world.

The agent reads nothing of the true state but the legal actions, the player to move, its own
information state and ``resample``: two states that differ only in data hidden from it give
the same choices under the same seed. In perfect-information games ``resample`` is a clone and
the agent is plain UCT on the game tree. Rewards are max-n, as in ``MCTSAgent``.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..core import State
from ..kernels import rollout_function
from .base import MAX_ITERATIONS, MAX_SECONDS, Agent, budget_words, check_number, no_gc_pauses
from .mcts import DEFAULT_C

__all__ = ["ISMCTSAgent"]


class ISMCTSAgent(Agent):
    """Information-set MCTS; plays the most visited action at the root. Plays any game.

    Args:
        iterations: simulations (sampled worlds) per decision, reproducible with a seed; at most
            ``MAX_ITERATIONS``.
        seconds: when given, search for this long instead (at most ``MAX_SECONDS``); not reproducible.
        c: the exploration constant for returns in [-1, 1]; default ``DEFAULT_C`` (2 sqrt 2).

    Rollouts stop after ``game.info.max_actions`` actions from the root and score
    ``evaluate()`` there. After each search ``stats`` holds ``simulations`` and ``nodes``
    (distinct information sets met).
    """

    name = "ismcts"
    title = "ISMCTS"
    kernel_paths = ("games", "search")  # compiled rollouts, on top of the random games' code

    def __init__(
        self, seed: int | None = None, iterations: int = 1000, seconds: float | None = None, c: float | None = None
    ):
        super().__init__(seed)
        owner = type(self).__name__  # a subclass (an expert) names itself in errors
        check_number(owner, "iterations", iterations, minimum=1, inclusive=True, integer=True, maximum=MAX_ITERATIONS)
        if seconds is not None:
            check_number(owner, "seconds", seconds, minimum=0, inclusive=False, maximum=MAX_SECONDS)
        if c is not None:
            check_number(owner, "c", c, minimum=0, inclusive=True)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.stats: dict[str, int] = {}

    def describe(self) -> list[str]:
        return budget_words(self.settings())

    def settings(self) -> dict[str, Any]:
        budget = {"iterations": self.iterations} if self.seconds is None else {"seconds": self.seconds}
        return budget if self.c is None else {**budget, "c": self.c}

    def choose_action(self, state: State) -> int:
        actions = self._check_supported(state)
        if len(actions) == 1:
            return actions[0]
        edges = self._search(state)
        # the most visited action; the budget may leave some unvisited (fewer iterations than actions)
        return max(actions, key=lambda a: (edges[a].visits, edges[a].mean() if edges[a].visits else 0.0))

    def analyse(self, state: State) -> list[dict]:
        """Search ``state`` and report every legal action, most visited first.

        Each dict has ``action``, ``move``, ``visits`` and ``value`` (the mean return for the
        player to move over the simulations through that action; ``None`` if never tried).
        """
        actions = self._check_supported(state)
        edges = self._search(state)
        rows = [
            {
                "action": a,
                "move": state.action_to_string(a),
                "visits": edges[a].visits,
                "value": edges[a].mean() if edges[a].visits else None,
            }
            for a in actions
        ]
        rows.sort(key=lambda row: -row["visits"])
        return rows

    # --- the search -----------------------------------------------------------------------

    def _search(self, root_state: State) -> dict[int, _Edge]:
        """Run the simulations; return the root information set's edges by action."""
        with no_gc_pauses():
            return self._simulate(root_state)

    def _simulate(self, root_state: State) -> dict[int, _Edge]:
        rng = self.rng
        rollout = rollout_function(root_state.game)
        stream = rng.getrandbits(64)
        c = DEFAULT_C if self.c is None else self.c
        cap = root_state.game.info.max_actions
        me = root_state.current_player()
        root_key = (me, root_state.information_state_string(me))
        table: dict[tuple[int, str], dict[int, _Edge]] = {}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations if deadline is None else (done == 0 or time.perf_counter() < deadline):
            done += 1
            world = root_state.resample(me, rng)
            path: list[tuple[_Edge, int]] = []
            depth = 0
            # Selection and expansion: UCT per information set until an action is tried first.
            while depth < cap and not world.is_terminal():
                player = world.current_player()
                key = (player, world.information_state_string(player))
                if depth == 0 and key != root_key:
                    raise RuntimeError(
                        f"{root_state.game.name}: resample({me}) changed what player {me} knows; "
                        "it must only redraw data hidden from that player"
                    )
                edges = table.setdefault(key, {})
                legal = world.legal_actions()
                for action in legal:
                    edges.setdefault(action, _Edge()).available += 1
                untried = [a for a in legal if not edges[a].visits]
                action = untried[rng.randrange(len(untried))] if untried else _uct_action(edges, legal, c)
                path.append((edges[action], player))
                world.apply_action(action)
                depth += 1
                if untried:
                    break
            # Rollout: uniformly random actions until the end or the cap (compiled where the game
            # has a kernel; the same values either way).
            values, stream = rollout(world, cap - depth, stream)
            for edge, player in path:
                edge.visits += 1
                edge.total += values[player]
        self.stats = {"simulations": done, "nodes": len(table)}
        return table[root_key]


class _Edge:
    """An action's statistics in one information set: simulations through it, the sum of the
    chooser's returns, and how often it was legal when the information set was visited."""

    __slots__ = ("visits", "total", "available")

    def __init__(self):
        self.visits = 0
        self.total = 0.0
        self.available = 0

    def mean(self) -> float:
        return self.total / self.visits


def _uct_action(edges: dict[int, _Edge], legal: list[int], c: float) -> int:
    """The legal action maximising mean + c * sqrt(ln(availability) / visits); first on ties."""
    best, best_score = legal[0], float("-inf")
    for action in legal:
        edge = edges[action]
        score = edge.mean() + c * math.sqrt(math.log(edge.available) / edge.visits)
        if score > best_score:
            best, best_score = action, score
    return best
