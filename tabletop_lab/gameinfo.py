"""What a game declares about itself, and what a finished game is: rule options, ``GameInfo``,
``GameType`` and ``Result``, with the value checks options use.

These are plain frozen dataclasses with no behaviour beyond validation, kept apart from the game and
state machinery of ``core`` (which re-exports every name here, so ``from tabletop_lab.core import
Option`` keeps working). Like ``core``, this module imports only the standard library.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import RulesError, excerpt

__all__ = [
    "MAX_COUNT",
    "Option",
    "GameInfo",
    "GameType",
    "Result",
    "positive_int",
    "positive_int_or_none",
    "non_negative_int",
]

#: The largest count ``check_int_list`` accepts unless told otherwise: far above any game's,
#: small enough that arithmetic and messages on it stay cheap.
MAX_COUNT = 2**63 - 1

INFORMATION = ("perfect", "imperfect")
UTILITY = ("zero_sum", "general_sum", "team")


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One rule option (or engine parameter): its default, its values and what it means.

    ``choices`` lists every value when the set is finite. Otherwise ``check`` tells whether a
    value is acceptable and ``allowed`` says in words what is. Types are strict: ``True`` is
    not accepted where ``1`` is, as the spec's conventions require. ``example``, for an option
    whose values are structured (Sinoda's board data), is a valid one that the fuzz stage bends.
    """

    name: str
    default: Any
    doc: str
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = None
    allowed: str = ""
    example: Any = None

    def validate(self, value: Any, game: str) -> Any:
        if self.choices is not None:
            if any(same_value(value, c) for c in self.choices):
                return value
            shown = ", ".join(json.dumps(c) for c in self.choices)
        else:
            if self.check is not None and _passes(self.check, value):
                return value
            shown = self.allowed
        raise RulesError(
            f"{game}: option {self.name}={excerpt(value)} is not allowed; "
            f"valid values: {shown} (default {json.dumps(self.default)})"
        )

    def describe(self) -> dict:
        values = list(self.choices) if self.choices is not None else self.allowed
        return {"name": self.name, "default": self.default, "values": values, "doc": self.doc}


def same_value(value: Any, choice: Any) -> bool:
    """Equal and of the same type: ``1`` is not ``True``, as the spec's conventions require."""
    return type(value) is type(choice) and value == choice


def _passes(check: Callable[[Any], bool], value: Any) -> bool:
    """``check(value)``, False when the check cannot even compare ``value`` (a dict, a huge int...)."""
    try:
        return bool(check(value))
    except (TypeError, ValueError, OverflowError, RecursionError):
        return False


def positive_int_or_none(value: Any) -> bool:
    """True for ``None`` or an integer in 1..``MAX_COUNT`` (booleans excluded)."""
    return value is None or positive_int(value)


def non_negative_int(value: Any) -> bool:
    """True for an integer in 0..``MAX_COUNT`` (booleans excluded)."""
    return type(value) is int and 0 <= value <= MAX_COUNT


def positive_int(value: Any) -> bool:
    """True for an integer in 1..``MAX_COUNT`` (booleans excluded): no rule needs more, and a
    larger value could not even be printed in an error message."""
    return type(value) is int and 1 <= value <= MAX_COUNT


@dataclass(frozen=True)
class GameInfo:
    """What a game is, for menus, documentation, agents and the conformance harness.

    ``players`` lists the allowed player counts. ``information`` is ``"perfect"`` or
    ``"imperfect"`` (some player cannot see everything); ``utility`` is ``"zero_sum"`` (two
    players, one's gain the other's loss), ``"general_sum"`` (several players, each for
    themselves) or ``"team"`` (teammates share a result). ``multi_action_moves`` says a move may
    take several actions (see the module docstring). ``max_actions`` is the simulation cap: a
    random playout longer than this is cut and reported as capped. ``rules_version`` is raised
    whenever the engine's behaviour changes (what is legal, how a move plays, results), as pgx
    versions its environments: records and saved studies carry it (``tabletop_lab.versions``).
    """

    name: str
    title: str
    summary: str
    players: tuple[int, ...]
    information: str = "perfect"
    utility: str = "zero_sum"
    multi_action_moves: bool = False
    has_notation: bool = False
    max_actions: int = 1000
    player_names: tuple[str, ...] = ()
    #: Where menus list the game: by this rank, then by name (``registry.game_names``).
    menu_rank: int = 1000
    rules_version: int = 1

    def __post_init__(self) -> None:
        if self.information not in INFORMATION:
            raise RulesError(f"{self.name}: information must be one of {INFORMATION}, got {self.information!r}")
        if self.utility not in UTILITY:
            raise RulesError(f"{self.name}: utility must be one of {UTILITY}, got {self.utility!r}")

    @property
    def perfect_information(self) -> bool:
        return self.information == "perfect"


@dataclass(frozen=True)
class GameType:
    """A game's type under one rules config, as OpenSpiel's ``GameType``: what agents check."""

    information: str
    utility: str
    min_players: int
    max_players: int
    num_players: int

    @property
    def perfect_information(self) -> bool:
        return self.information == "perfect"


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game (spec README, "Results").

    ``winners`` is sorted; a list of every player is a draw. ``scores`` holds the game's own
    points per player. ``reason`` is the spec's short word (``"standard"``, ``"cap"`` ...).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    cap_reached: bool = False

    @property
    def is_draw(self) -> bool:
        return len(self.winners) == len(self.scores)

    def returns(self) -> list[float]:
        """+1 for each winner, -1 for every other player, 0 for everyone in a draw."""
        if self.is_draw:
            return [0.0] * len(self.scores)
        return [1.0 if p in self.winners else -1.0 for p in range(len(self.scores))]

    def to_dict(self) -> dict:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "cap_reached": self.cap_reached,
        }
