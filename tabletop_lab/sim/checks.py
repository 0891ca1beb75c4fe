"""Argument checks and progress reporting shared by the runner and the tournament.

Every check raises ``ValueError`` with a message naming the argument, before any game is played.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any

from ..core import Game
from ..registry import load_game

__all__ = [
    "Progress",
    "check_progress",
    "positive_int",
    "progress_reporter",
    "resolve_game",
    "seed_value",
    "unique_labels",
]

#: True (a tqdm bar), False (nothing) or a callable ``progress(done, total)`` counting games.
Progress = bool | Callable[[int, int], Any]


def resolve_game(game: Any) -> Game:
    if isinstance(game, Game):
        return game
    if isinstance(game, str):
        return load_game(game)
    raise ValueError(f"game must be a game name or a Game from load_game(); got {type(game).__name__}")


def unique_labels(labels: list[str]) -> list[str]:
    """Labels made distinct: a label used by several agents gets ``#1``, ``#2``... in seat order."""
    counts = {label: labels.count(label) for label in labels}
    seen: dict[str, int] = {}
    unique = []
    for label in labels:
        if counts[label] == 1:
            unique.append(label)
        else:
            seen[label] = seen.get(label, 0) + 1
            unique.append(f"{label}#{seen[label]}")
    return unique


def positive_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a positive integer; got {value!r}")
    return int(value)


def seed_value(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"seed must be a non-negative integer; got {value!r}")
    return int(value)


def check_progress(progress: Any) -> None:
    if not (isinstance(progress, bool) or callable(progress)):
        raise ValueError(f"progress must be True, False or a callable progress(done, total); got {progress!r}")


def progress_reporter(
    progress: Progress, total: int, desc: str, notice: str | None = None, unit: str = "game"
) -> tuple[Callable[[int], Any], Callable[[], Any]]:
    """``report(done)`` and ``close()`` for a tqdm bar (counting ``unit``s), a user callable or
    nothing. A bar reads ``notice`` (such as ``"compiling Sygo (about 45 s, once per machine)"``)
    until the first are done."""
    if progress is True:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit=unit, desc=f"{desc}: {notice}" if notice else desc)

        def report(done: int) -> None:
            if notice and done:
                bar.set_description(desc, refresh=False)
            bar.update(done - bar.n)

        return report, bar.close
    if progress is False:
        return (lambda done: None), (lambda: None)
    return (lambda done: progress(done, total)), (lambda: None)
