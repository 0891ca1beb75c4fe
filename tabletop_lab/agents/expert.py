"""The ``expert``: each game's strongest player, built from the shared searches with the settings
that measured best for that game.

A game registers its expert in its own ``agents.py`` (``Game.part("agents")``) with
``expert_class``, which fixes the game it plays and its default budget; ``make_agent("expert",
game=game)`` and ``agents_for(game)`` then find it, and so do the seat pickers.

For games of perfect information the expert is ``MCTSAgent``'s compiled UCT search with a game's
own exploration constant and evaluation cut-off (``rollout``: random rollouts mislead the search
in Sinoda, and cost time for little in Sygo and Capitals); for games of hidden information,
``ISMCTSAgent`` (``hidden_expert_class``). Its budget is ``iterations`` (reproducible: the same choices from the same seed
and budget); with ``seconds`` it times a short compiled probe search, then searches afresh with
as many simulations as the rest of the time allows at the rate the probe measured (a choice that
depends on the machine's speed and load, so not reproducible).

>>> from tabletop_lab import load_game
>>> from tabletop_lab.agents import make_agent
>>> make_agent("expert", game=load_game("cross_endodoi")).name
'expert'
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from ..core import Game, State
from ..kernels import compiling_in_background, playout_kernel
from .base import MAX_ITERATIONS, Agent
from .ismcts import ISMCTSAgent
from .mcts import DEFAULT_C, MCTSAgent, _Node

__all__ = [
    "ExpertAgent",
    "HiddenExpertAgent",
    "expert_class",
    "hidden_expert_class",
    "PROBE_ITERATIONS",
    "TIME_SHARE",
    "WAITING_SECONDS",
]

#: Simulations of the probe search that measures the rate for a ``seconds`` budget.
PROBE_ITERATIONS = 64
#: The longest a move of an ``iterations`` budget may take while the game's kernel compiles in the
#: background for a board (``kernels.ready_kernels_only``): it searches in Python meanwhile, some
#: ten to a hundred times slower, so it stops at this time instead of blocking the board.
WAITING_SECONDS = 2.0
#: The share of the remaining time the main search plans to use: a search's rate falls a little as
#: its tree grows, so planning on all of it would overrun.
TIME_SHARE = 0.7


class ExpertAgent(MCTSAgent):
    """UCT over the compiled kernel, with a game's tuned defaults (see ``expert_class``)."""

    name = "expert"
    #: The game (registry name) this expert plays.
    game_name = ""

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        if game.name != cls.game_name:
            return f"it is the expert for {cls.game_name} only (each game registers its own)"
        return super().unsupported_reason(game)

    def _search(self, root_state: State, summarise: Callable[[_Node], Any]) -> Any:
        game = root_state.game
        if self.seconds is None and playout_kernel(game) is None and compiling_in_background(game):
            self.seconds = WAITING_SECONDS  # a board waits for no compiler: a Python search for this long
            try:
                return super()._search(root_state, summarise)
            finally:
                self.seconds = None
        if self.seconds is None or playout_kernel(game) is None:
            return super()._search(root_state, summarise)  # iterations; or Python until the deadline
        from ..compiled_search import search_root  # numba is loaded on first use only

        start = time.perf_counter()
        c = DEFAULT_C if self.c is None else self.c
        cap = self._cap(root_state)
        probe = min(PROBE_ITERATIONS, self.iterations)
        found = search_root(root_state, self.rng, probe, c, self.paranoid, cap, self.rollout)
        if found is None:  # no compiled search for this state: the Python one, until the deadline
            return super()._search(root_state, summarise)
        spent = time.perf_counter() - start
        left = self.seconds - spent
        n = probe
        if left > 0:
            rate = probe / max(spent, 1e-9)
            planned = min(MAX_ITERATIONS, int(rate * left * TIME_SHARE))
            longer = None
            if planned > probe:
                longer = search_root(root_state, self.rng, planned, c, self.paranoid, cap, self.rollout)
            if longer is not None:  # None: the engine must search this line itself; the probe's answer stands
                found, n = longer, planned
        self.stats = {"simulations": n, "nodes": found.nodes}
        return summarise(_Node.compiled_root(root_state, found.edges, found.untried))


def expert_class(
    game_name: str,
    title: str,
    iterations: int,
    c: float | None = None,
    horizon: int | None = None,
    rollout: int | None = None,
    paranoid: bool = False,
    module: str | None = None,
) -> type[Agent]:
    """An ``ExpertAgent`` class for ``game_name`` (``title`` names it) whose settings default to
    the given ones: what a game's ``agents.py`` registers as ``"expert"``. ``module``: the module
    that keeps the class under its name (``__name__`` there), so that process pools can pickle it."""

    class Expert(ExpertAgent):
        __doc__ = (
            f"The expert for {title}: compiled UCT, by default {iterations:,} simulations a move"
            + (f", rollouts cut off after {rollout} actions and evaluated" if rollout is not None else "")
            + (f", an evaluation horizon {horizon} actions from the root" if horizon else "")
            + "; ``seconds`` searches for a time instead (not reproducible)."
        )

        def __init__(
            self,
            seed: int | None = None,
            iterations: int = iterations,
            seconds: float | None = None,
            c: float | None = c,
            horizon: int | None = horizon,
            rollout: int | None = rollout,
            paranoid: bool = paranoid,
        ):
            super().__init__(
                seed, iterations=iterations, seconds=seconds, c=c, paranoid=paranoid, horizon=horizon, rollout=rollout
            )

    return _named(Expert, game_name, title, module)


def _named(cls: type[Agent], game_name: str, title: str, module: str | None) -> type[Agent]:
    """``cls`` for ``game_name``, named ``<Title>Expert`` in ``module`` (where pickle finds it)."""
    cls.game_name = game_name
    cls.__name__ = cls.__qualname__ = "".join(part.capitalize() for part in re.split(r"[-\s]", title)) + "Expert"
    if module is not None:
        cls.__module__ = module
    return cls


class HiddenExpertAgent(ISMCTSAgent):
    """Information-set MCTS with a game's tuned defaults, for games of hidden information (see
    ``hidden_expert_class``). It reads only what its seat may see; ``seconds`` searches until the
    deadline (the tree is Python's, the rollouts compiled)."""

    name = "expert"
    #: The game (registry name) this expert plays.
    game_name = ""

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        if game.name != cls.game_name:
            return f"it is the expert for {cls.game_name} only (each game registers its own)"
        return super().unsupported_reason(game)


def hidden_expert_class(game_name: str, title: str, iterations: int, c: float | None = None, module: str | None = None):
    """A ``HiddenExpertAgent`` class for ``game_name``, as ``expert_class`` makes for the others."""

    class Expert(HiddenExpertAgent):
        __doc__ = (
            f"The expert for {title}: information-set MCTS, by default {iterations:,} simulations a move; "
            "``seconds`` searches for a time instead (not reproducible)."
        )

        def __init__(
            self,
            seed: int | None = None,
            iterations: int = iterations,
            seconds: float | None = None,
            c: float | None = c,
        ):
            super().__init__(seed, iterations=iterations, seconds=seconds, c=c)

    return _named(Expert, game_name, title, module)
