"""Agents by name: ``AGENTS`` and ``make_agent("mcts:iterations=200,c=1.4", seed=1)``."""

from __future__ import annotations

import inspect
import re
from typing import Any

from ..errors import excerpt
from .alphabeta import AlphaBetaAgent
from .base import Agent, RandomAgent
from .greedy import GreedyAgent
from .mcts import MCTSAgent

__all__ = ["AGENTS", "make_agent"]

#: Registry name -> agent class.
AGENTS: dict[str, type[Agent]] = {cls.name: cls for cls in (RandomAgent, GreedyAgent, MCTSAgent, AlphaBetaAgent)}

_INT = re.compile(r"^[+-]?[0-9]+$")
_MAX_DIGITS = 30  # far beyond any setting's bound, far below int()'s 4,300-digit limit


def make_agent(spec: Agent | str, seed: int | None = None) -> Agent:
    """An agent from a spec: an ``Agent`` (returned, reseeded when ``seed`` is given) or a string.

    The string is a registry name, optionally followed by ``:`` and ``key=value`` settings
    separated by commas; values are integers, decimals or ``none``.

    >>> make_agent("mcts:iterations=200,c=1.4", seed=3)
    MCTSAgent(seed=3, iterations=200, c=1.4)
    >>> make_agent("alphabeta:depth=3").label
    'alphabeta(depth=3)'

    Raises ``ValueError`` naming the valid choices for an unknown agent or setting, and the
    agent's own ``ValueError`` for a value out of range.
    """
    if isinstance(spec, Agent):
        if seed is not None:
            spec.reset(seed)
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is an Agent or a string such as 'mcts:iterations=200', got {spec!r}")
    name, _, text = spec.partition(":")
    name = name.strip()
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}; valid agents: {', '.join(AGENTS)}")
    cls = AGENTS[name]
    settings = _parse_settings(text, spec)
    valid = [p for p in inspect.signature(cls).parameters if p != "seed"]
    unknown = [key for key in settings if key not in valid]
    if unknown:
        shown = ", ".join(valid) if valid else "none"
        raise ValueError(
            f"agent {name!r} has no setting {', '.join(unknown)} (in spec {spec!r}); valid settings: {shown}"
        )
    return cls(seed=seed, **settings)


def _parse_settings(text: str, spec: str) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    if not text.strip():
        return settings
    for item in text.split(","):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key or not value:
            raise ValueError(f"agent spec {spec!r}: setting {item.strip()!r} is not of the form key=value")
        if key in settings:
            raise ValueError(f"agent spec {spec!r}: setting {key!r} is given twice")
        settings[key] = _parse_value(value, key, spec)
    return settings


def _parse_value(text: str, key: str, spec: str) -> int | float | None:
    if text.lower() == "none":
        return None
    if len(text) > _MAX_DIGITS:
        raise ValueError(f"agent spec {excerpt(spec)}: {key}={excerpt(text, limit=30)} is too long for a setting")
    if _INT.match(text):
        return int(text)
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"agent spec {spec!r}: {key}={text!r} is not a number or 'none'") from None
