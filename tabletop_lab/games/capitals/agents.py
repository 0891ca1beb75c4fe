"""Capitals's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent, expert_class

__all__ = ["AGENTS", "CapitalsExpert"]

#: Measured (10 games, 2,000 simulations against ``mcts:iterations=1000``): rollouts cut off after 4
#: actions 1.00, a horizon of 8 actions from the root 1.00, and the first beat the second 0.80; random
#: rollouts at 1,000 beat greedy only 0.80 (horizon=8: 1.00, in a tenth of the time). 5,000
#: simulations took 0.125 s a move, so the default is 20,000.
CapitalsExpert = expert_class("capitals", "Capitals", iterations=20_000, rollout=4, module=__name__)

#: Capitals's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": CapitalsExpert}
