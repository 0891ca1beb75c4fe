"""The game registry: every folder under ``tabletop_lab/games/`` is a game, found by discovery,
and so is every game another package declares in the entry-point group ``tabletop_lab.games``.

A game's package registers its ``Game`` class with ``@register_game`` when imported; nothing
lists games by hand. ``load_game`` imports every game package the first time it is asked,
so ``import tabletop_lab`` stays light and ``core`` never imports the games (no import circle).
A game in another distribution names, in its packaging metadata, its Game class or a module that
registers it::

    [project.entry-points."tabletop_lab.games"]
    mygame = "mygame.rules:MyGame"

What a game brings beside its rules (renderer, board adapter, kernel, agents) it declares on its
class (``Game.part``), wherever it lives.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import pkgutil
import warnings
from typing import Any

from .core import Game
from .errors import RulesError, excerpt

__all__ = ["ENTRY_POINTS", "register_game", "load_game", "list_games", "game_class", "game_names"]

#: The entry-point group through which other distributions add games.
ENTRY_POINTS = "tabletop_lab.games"

_GAMES: dict[str, type[Game]] = {}
_discovered = False


def register_game(cls: type[Game]) -> type[Game]:
    """Make ``cls`` loadable by ``load_game(cls.info.name)``; usable as a decorator."""
    _GAMES[cls.info.name] = cls
    return cls


def _discover() -> None:
    """Import each subpackage of ``tabletop_lab.games`` and each ``tabletop_lab.games`` entry
    point once; each registers itself (an entry point naming a Game class is registered here)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from . import games

    for module in pkgutil.iter_modules(games.__path__):
        if module.ispkg:
            importlib.import_module(f"{games.__name__}.{module.name}")
    for entry in importlib.metadata.entry_points(group=ENTRY_POINTS):
        try:
            found = entry.load()
        except Exception as exc:  # another distribution's broken game must not hide the others
            warnings.warn(f"game entry point {entry.name} = {entry.value} failed to load: {exc!r}", stacklevel=3)
            continue
        if isinstance(found, type) and issubclass(found, Game):
            register_game(found)


def game_names() -> list[str]:
    """The registered games in menu order: by ``GameInfo.menu_rank``, then by name."""
    _discover()
    return sorted(_GAMES, key=lambda name: (_GAMES[name].info.menu_rank, name))


def game_class(name: Any) -> type[Game]:
    """The ``Game`` class registered as ``name``; ``RulesError`` naming the available games otherwise."""
    _discover()
    if not isinstance(name, str) or name not in _GAMES:
        raise RulesError(f"unknown game {excerpt(name)}; available: {', '.join(game_names())}")
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
