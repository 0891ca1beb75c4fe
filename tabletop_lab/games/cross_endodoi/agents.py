"""Cross-endodoi's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent, expert_class

__all__ = ["AGENTS", "CrossEndodoiExpert"]

#: Measured (20 games, colours alternating): 100,000 simulations beat ``mcts:iterations=1000`` 0.57 at
#: the default c (2 sqrt 2), 0.70 at c=0.7 and 0.57 at c=0.35; a 20-action rollout cut-off (c=1) 0.57.
#: At c=0.7 over 100 games: 0.695 [0.60, 0.78]; 300,000 simulations (40 games) 0.69, no better.
#: Compiled alpha-beta on the store difference, 100,000 positions a move (depth 14), beat it only
#: 0.55 (40 games): the evaluation, not the depth, is what it lacks.
CrossEndodoiExpert = expert_class("cross_endodoi", "Cross-endodoi", iterations=100_000, c=0.7, module=__name__)

#: Cross-endodoi's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": CrossEndodoiExpert}
