"""The versions that saved data carry: the package's, and each game's rules version.

A game's ``GameInfo.rules_version`` is raised whenever its engine's behaviour changes (what is
legal, how a move plays, how a game ends), as pgx versions its environments. Game records
(``GameRecord.versions``) and saved studies (``simulate``'s ``df.attrs``, the key of
``data.load_or_run``) carry both, so data made under other rules is never taken for current.
Data saved before versions were recorded counts as rules version 1, the first.

>>> versions(["cross_endodoi"])["rules"]
{'cross_endodoi': 1}
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import metadata
from typing import Any

from .registry import load_game

__all__ = ["FIRST_RULES_VERSION", "package_version", "rules_version", "versions"]

#: The rules version of data saved before versions were recorded.
FIRST_RULES_VERSION = 1


def package_version() -> str:
    """The installed package's version (``tabletop_lab.__version__`` when it defines one)."""
    import tabletop_lab

    declared = getattr(tabletop_lab, "__version__", None)
    if declared:
        return str(declared)
    try:
        return metadata.version("tabletop-lab")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def rules_version(game: str) -> int:
    """The present rules version of the game named ``game``."""
    return load_game(game).info.rules_version


def versions(games: Iterable[str]) -> dict[str, Any]:
    """``{"package": ..., "rules": {game: rules version}}`` for the games named."""
    return {"package": package_version(), "rules": {name: rules_version(name) for name in sorted(set(games))}}
