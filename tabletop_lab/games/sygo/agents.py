"""Sygo's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent, expert_class

__all__ = ["AGENTS", "SygoExpert"]

#: Measured on 9x9 (10 games, colours alternating): rollouts cut off after 10 actions and evaluated beat
#: plain UCT at the same 3,000 simulations 0.80. 5,000 simulations took 0.10 s a move on 9x9 and
#: 0.15 s on 13x13 (a shared 2-core machine), so the default is 20,000: about 0.4 s on 9x9, more on
#: larger boards (set ``iterations`` or ``seconds`` there).
SygoExpert = expert_class("sygo", "Sygo", iterations=20_000, rollout=10, module=__name__)

#: Sygo's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": SygoExpert}
