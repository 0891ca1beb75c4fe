"""Sinoda's own agents: its ``expert`` (``make_agent("expert", game=game)``; see ``tabletop_lab.agents.expert``)."""

from __future__ import annotations

from ...agents import Agent
from ...agents.expert import expert_class

__all__ = ["AGENTS", "SinodaExpert"]

#: The settings that measured strongest at about half a second a move (CHANGELOG, issue 22).
SinodaExpert = expert_class("sinoda", "Sinoda", iterations=5000, horizon=3, module=__name__)

#: Sinoda's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {"expert": SinodaExpert}
