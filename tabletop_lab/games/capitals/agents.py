"""Capitals's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent
from ...agents.expert import expert_class

__all__ = ["AGENTS", "CapitalsExpert"]

#: The settings that measured strongest at about half a second a move (CHANGELOG, issue 22).
CapitalsExpert = expert_class("capitals", "Capitals", iterations=2000, horizon=8, module=__name__)

#: Capitals's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": CapitalsExpert}
