"""Agents by name: ``AGENTS``, ``agents_for(game)`` and ``make_agent("mcts:iterations=200,c=1.4", seed=1)``.

``AGENTS`` are the shared agents, which play any game they support. A game may bring agents of
its own (``Game.part("agents")``: a game package's ``agents.py`` defining ``AGENTS``, such as
Sinomilia's ``sinomilia_heuristic``); ``agents_for(game)`` lists both, and ``make_agent(spec,
game=game)`` builds either.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

from ..core import Game
from ..errors import excerpt
from .alphabeta import AlphaBetaAgent
from .base import Agent, RandomAgent
from .greedy import GreedyAgent
from .ismcts import ISMCTSAgent
from .mcts import MCTSAgent

__all__ = ["AGENTS", "agents_for", "make_agent"]

#: Registry name -> agent class, for the agents every game may use.
AGENTS: dict[str, type[Agent]] = {
    cls.name: cls for cls in (RandomAgent, GreedyAgent, MCTSAgent, AlphaBetaAgent, ISMCTSAgent)
}

_INT = re.compile(r"^[+-]?[0-9]+$")
_MAX_DIGITS = 30  # far beyond any setting's bound, far below int()'s 4,300-digit limit


def agents_for(game: Game) -> list[str]:
    """The registry names of the agents that can play ``game`` under its options: the shared
    ones in ``AGENTS`` order, then the game's own.

    >>> from tabletop_lab import load_game
    >>> agents_for(load_game("cross_endodoi"))
    ['random', 'greedy', 'mcts', 'alphabeta', 'ismcts', 'expert']
    >>> agents_for(load_game("sinomilia"))
    ['random', 'ismcts', 'sinomilia_heuristic', 'expert']
    """
    return [name for name, cls in _known(game).items() if cls.unsupported_reason(game) is None]


def make_agent(spec: Agent | str, seed: int | None = None, game: Game | None = None) -> Agent:
    """An agent from a spec: an ``Agent`` (returned, reseeded when ``seed`` is given) or a string.

    The string is a registry name, optionally followed by ``:`` and ``key=value`` settings
    separated by commas; values are integers, decimals, ``true``, ``false`` or ``none``. The
    names are those of ``AGENTS`` and, when ``game`` is given, of the game's own agents.

    >>> make_agent("mcts:iterations=200,c=1.4", seed=3)
    MCTSAgent(seed=3, iterations=200, c=1.4)
    >>> make_agent("alphabeta:depth=3").label
    'alphabeta(depth=3)'
    >>> from tabletop_lab import load_game
    >>> make_agent("sinomilia_heuristic:bluff=0.5", game=load_game("sinomilia")).label
    'sinomilia_heuristic(bluff=0.5)'

    Raises ``ValueError`` naming the valid choices for an unknown agent or setting, the agent's
    own ``ValueError`` for a value out of range, and, when ``game`` is given, a ``ValueError``
    saying why the agent cannot play it and which agents can.
    """
    if isinstance(spec, Agent):
        _check_plays(type(spec), spec.name, game)
        if seed is not None:
            spec.reset(seed)
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"an agent spec is an Agent or a string such as 'mcts:iterations=200', got {spec!r}")
    name, _, text = spec.partition(":")
    name = name.strip()
    known = _known(game)
    if name not in known:
        if game is None:
            listed = f"valid agents: {', '.join(known)} (and a game's own, given game=)"
        else:
            listed = f"valid agents for {game.name}: {', '.join(known)}"
        raise ValueError(f"unknown agent {excerpt(name)} in spec {excerpt(spec)}; {listed}")
    cls = known[name]
    _check_plays(cls, name, game)
    settings = _parse_settings(text, spec)
    valid = [p for p in inspect.signature(cls).parameters if p != "seed"]
    unknown = [key for key in settings if key not in valid]
    if unknown:
        shown = ", ".join(valid) if valid else "none"
        raise ValueError(
            f"agent {name!r} has no setting {', '.join(unknown)} (in spec {spec!r}); valid settings: {shown}"
        )
    return cls(seed=seed, **settings)


def _known(game: Game | None) -> dict[str, type[Agent]]:
    """The shared agents, then (when ``game`` is given) the game's own."""
    own = {} if game is None else type(game).part("agents") or {}
    return {**AGENTS, **own}


def _check_plays(cls: type[Agent], name: str, game: Game | None) -> None:
    reason = None if game is None else cls.unsupported_reason(game)
    if reason is not None:
        raise ValueError(
            f"agent {name!r} cannot play {game.name}: {reason}; agents for {game.name}: {', '.join(agents_for(game))}"
        )


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


def _parse_value(text: str, key: str, spec: str) -> bool | int | float | None:
    word = text.lower()
    if word == "none":
        return None
    if len(text) > _MAX_DIGITS:
        raise ValueError(f"agent spec {excerpt(spec)}: {key}={excerpt(text, limit=30)} is too long for a setting")
    if word in ("true", "false"):
        return word == "true"
    if _INT.match(text):
        return int(text)
    try:
        return float(text)
    except ValueError:
        raise ValueError(
            f"agent spec {excerpt(spec)}: {key}={excerpt(text)} is not a number, 'true', 'false' or 'none'"
        ) from None
