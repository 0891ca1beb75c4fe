"""Cross-endodoi's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent
from ...agents.expert import expert_class

__all__ = ["AGENTS", "CrossEndodoiExpert"]

#: The settings that measured strongest at about half a second a move (CHANGELOG, issue 22).
CrossEndodoiExpert = expert_class("cross_endodoi", "Cross-endodoi", iterations=100_000, module=__name__)

#: Cross-endodoi's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": CrossEndodoiExpert}
