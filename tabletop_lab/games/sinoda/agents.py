"""Sinoda's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent, expert_class

__all__ = ["AGENTS", "SinodaExpert"]

#: Measured against ``greedy`` (20 games, 5,000 simulations; random rollouts at 1,000: 0.05, issue 22):
#: evaluation at the new position (rollout=0) 0.80 at the default c, 1.00 at c=0.3; rollout=2 0.55,
#: 0.95 at c=0.5; horizon=3 from the root 0.93 (0.85 at c=0.5). The evaluation's values are small, so
#: a small exploration constant. 10,000 simulations took 0.06 s a move (4 players in pairs: 0.09 s),
#: so the default is 40,000.
SinodaExpert = expert_class("sinoda", "Sinoda", iterations=40_000, c=0.3, rollout=0, module=__name__)

#: Sinoda's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": SinodaExpert}
