"""Sygo's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent
from ...agents.expert import expert_class

__all__ = ["AGENTS", "SygoExpert"]

#: The settings that measured strongest at about half a second a move (CHANGELOG, issue 22).
SygoExpert = expert_class("sygo", "Sygo", iterations=5000, module=__name__)

#: Sygo's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": SygoExpert}
