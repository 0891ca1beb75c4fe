"""The game registry: every folder under ``tabletop_lab/games/`` is a game, found by discovery.

A game's package registers its ``Game`` class with ``@register_game`` when imported; nothing
lists games by hand. ``load_game`` imports every game package the first time it is asked,
so ``import tabletop_lab`` stays light and ``core`` never imports the games (no import circle).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from .core import Game
from .errors import RulesError, excerpt

__all__ = ["register_game", "load_game", "list_games", "game_class", "game_names"]

#: Every game the specs define, in the order menus list them; ``load_game`` names them in its errors.
SPECIFIED_GAMES = ("cross_endodoi", "sygo", "sinoda", "sinomilia", "capitals")

_GAMES: dict[str, type[Game]] = {}
_discovered = False


def register_game(cls: type[Game]) -> type[Game]:
    """Make ``cls`` loadable by ``load_game(cls.info.name)``; usable as a decorator."""
    _GAMES[cls.info.name] = cls
    return cls


def _discover() -> None:
    """Import each subpackage of ``tabletop_lab.games`` once; each registers itself."""
    global _discovered
    if _discovered:
        return
    from . import games

    for module in pkgutil.iter_modules(games.__path__):
        if module.ispkg:
            importlib.import_module(f"{games.__name__}.{module.name}")
    _discovered = True


def game_names() -> list[str]:
    """The registered games: the specified ones in spec order, then any others (test games) by name."""
    _discover()
    known = [n for n in SPECIFIED_GAMES if n in _GAMES]
    return known + sorted(n for n in _GAMES if n not in SPECIFIED_GAMES)


def game_class(name: Any) -> type[Game]:
    """The ``Game`` class registered as ``name``; ``RulesError`` naming the available games otherwise."""
    _discover()
    if not isinstance(name, str) or name not in _GAMES:
        available = ", ".join(game_names())
        if name in SPECIFIED_GAMES:
            raise RulesError(f"game {name!r} is specified but has no engine yet; available: {available}")
        raise RulesError(f"unknown game {excerpt(name)}; available: {available}")
    return _GAMES[name]


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` under a rules config; missing options take their defaults.

    >>> load_game("cross_endodoi", seeds_per_hole=6).options["seeds_per_hole"]
    6

    Raises ``RulesError`` for an unknown game, an unknown option or a value out of range.
    """
    return game_class(name)(**options)


def list_games(*, include_tests: bool = False) -> list[dict]:
    """Each game: name, title, players, game type, summary and options with defaults.

    Games whose names start with ``test_`` (the test suite's toy games) are left out unless
    ``include_tests``.
    """
    rows = []
    for name in game_names():
        if name.startswith("test_") and not include_tests:
            continue
        cls = _GAMES[name]
        rows.append(
            {
                "name": cls.info.name,
                "title": cls.info.title,
                "players": list(cls.info.players),
                "information": cls.info.information,
                "utility": cls.info.utility,
                "perfect_information": cls.info.perfect_information,
                "summary": cls.info.summary,
                "options": [o.describe() for o in cls.option_specs],
                "engine_parameters": [o.describe() for o in cls.param_specs],
            }
        )
    return rows
