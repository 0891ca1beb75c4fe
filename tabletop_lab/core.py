"""The game API shared by every game: options, games, states, results and the registry.

The names follow OpenSpiel (``load_game``, ``new_initial_state``, ``current_player``,
``legal_actions``, ``apply_action``, ``child``, ``clone``, ``is_terminal``, ``returns``) so that
an adapter could register our games there. Two levels of play exist side by side:

* **actions** are the atomic decisions, small context-free integers (``legal_actions()``,
  ``apply_action(a)``); agents and widgets use them, and ``action_to_string`` gives the
  canonical string of each;
* **moves** are whole turns as canonical strings (``legal_moves()``, ``apply_move(text)``);
  people, notation and tests use them. In games whose turns are a single decision the two
  coincide; Sygo growth and Capitals jump chains take several actions per move.

This module imports only the standard library, so ``import tabletop_lab`` stays light.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import ActionSyntaxError, IllegalActionError, PositionError, RulesError, excerpt
from .parsing import read_json

__all__ = [
    "TERMINAL",
    "Option",
    "GameInfo",
    "Result",
    "Game",
    "State",
    "register_game",
    "load_game",
    "list_games",
    "canonical_json",
]

#: ``current_player()`` at a terminal state (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL = -4

#: The largest count ``check_int_list`` accepts unless told otherwise: far above any game's,
#: small enough that arithmetic and messages on it stay cheap.
MAX_COUNT = 2**63 - 1

#: Every game the specs define; ``load_game`` names them in its errors.
SPECIFIED_GAMES = ("cross_endodoi", "sygo", "sinoda", "sinomilia", "capitals")


def canonical_json(obj: Any) -> str:
    """Compact JSON exactly as the spec's canonical serialisation asks (keys in given order)."""
    return json.dumps(obj, separators=(",", ":"))


# ----------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One rule option (or engine parameter): its default, its values and what it means.

    ``choices`` lists every value when the set is finite. Otherwise ``check`` tells whether a
    value is acceptable and ``allowed`` says in words what is. Types are strict: ``True`` is
    not accepted where ``1`` is, as the spec's conventions require.
    """

    name: str
    default: Any
    doc: str
    choices: tuple | None = None
    check: Callable[[Any], bool] | None = None
    allowed: str = ""

    def validate(self, value: Any, game: str) -> Any:
        if self.choices is not None:
            if any(_same_value(value, c) for c in self.choices):
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


def _same_value(value: Any, choice: Any) -> bool:
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
    """What a game is, for menus, documentation and the conformance harness.

    ``max_actions`` is the simulation cap: a random playout longer than this is cut and
    reported as capped (games without a rule cap, such as Cross-endodoi, are not proven to
    end). ``teams`` maps a player count to the partition of seats into teams.
    """

    name: str
    title: str
    summary: str
    players: tuple[int, ...]
    perfect_information: bool = True
    has_notation: bool = False
    max_actions: int = 1000
    player_names: tuple[str, ...] = ()


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


# ----------------------------------------------------------------------------- games


class Game:
    """A game under one rules config; it only makes states.

    Subclasses set ``info``, ``option_specs`` (rule options, in spec order),
    ``param_specs`` (engine parameters, which are not rules) and ``state_class``, and
    implement ``new_initial_state`` and ``state_from_dict``.
    """

    info: ClassVar[GameInfo]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    param_specs: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, **options: Any):
        specs = {o.name: o for o in self.option_specs}
        params = {p.name: p for p in self.param_specs}
        unknown = sorted(set(options) - set(specs) - set(params))
        if unknown:
            valid = ", ".join(list(specs) + list(params)) or "none"
            shown = ", ".join(excerpt(name, limit=40) for name in unknown[:5])
            raise RulesError(f"{self.info.name}: unknown option {shown}; valid options: {valid}")
        self.options: dict[str, Any] = {
            name: spec.validate(options[name], self.info.name) if name in options else spec.default
            for name, spec in specs.items()
        }
        self.params: dict[str, Any] = {
            name: spec.validate(options[name], self.info.name) if name in options else spec.default
            for name, spec in params.items()
        }
        self._check_options()

    def _check_options(self) -> None:
        """Cross-option constraints (for example Sinoda's teams and players)."""

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def num_players(self) -> int:
        return self.info.players[0]

    def new_initial_state(self) -> State:
        raise NotImplementedError

    def state_from_dict(self, data: Any) -> State:
        """Read a position from its JSON object (any key order); raises ``PositionError``."""
        raise NotImplementedError

    def state_from_json(self, text: str) -> State:
        return self.state_from_dict(read_json(text, f"{self.name}: position"))

    def state_from_notation(self, text: str) -> State:
        raise PositionError(f"{self.name} has no text notation; use state_from_dict or state_from_json")

    def load_position(self, text: str) -> State:
        """Read a position in text notation or JSON, whichever ``text`` is."""
        if not isinstance(text, str):
            raise PositionError(f"{self.name}: a position is text (notation or JSON), got {type(text).__name__}")
        if text.lstrip().startswith("{"):
            return self.state_from_json(text)
        return self.state_from_notation(text)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, canonical_json(self.options)))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self._default(k)}
        changed.update({k: v for k, v in self.params.items() if v != self._default(k)})
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"load_game({self.name!r}{args})"

    def _default(self, name: str) -> Any:
        for spec in self.option_specs + self.param_specs:
            if spec.name == name:
                return spec.default
        raise KeyError(name)


# ----------------------------------------------------------------------------- states


class State:
    """A position plus the actions that led to it from where play started.

    Subclasses implement the rules through a few hooks:

    * ``current_player``, ``is_terminal``, ``result``, ``scores``;
    * ``_legal_actions()`` (never called at a terminal state);
    * ``_illegal_reason(action)``: ``None`` when legal, else the rule broken, in words;
    * ``_apply(action)``: play a legal action, raising before it changes anything;
    * ``action_to_string``, ``string_to_action``, ``to_dict``, ``_key``.

    Everything else (validation, history, moves, observations, records) lives here once.
    """

    game: Game

    def __init__(self, game: Game, start: dict | None = None):
        self.game = game
        self._history: list[int] = []
        self._start = start  # the position play started from, if not the initial one

    # --- the rules hooks ---------------------------------------------------------------

    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def result(self) -> Result | None:
        """The outcome when terminal, else ``None``."""
        raise NotImplementedError

    def scores(self) -> list[float]:
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _illegal_reason(self, action: int) -> str | None:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    def _key(self) -> tuple:
        """A hashable value that two states share exactly when they are the same position."""
        raise NotImplementedError

    # --- play -----------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The atomic actions of the player to move, in the spec's listing order."""
        if self.is_terminal():
            return []
        return self._legal_actions()

    def apply_action(self, action: int) -> None:
        """Play ``action``; on any error the state is left exactly as it was."""
        if type(action) is not int:
            raise ActionSyntaxError(
                f"{self.game.name}: an action is an int from legal_actions(), got {excerpt(action)}; "
                "use apply_move() for move strings"
            )
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"{self.game.name}: {self.action_to_string(action)!r} is illegal: {reason}")
        self._apply(action)
        self._history.append(action)

    def child(self, action: int) -> State:
        """A new state after ``action``; this one is unchanged."""
        new = self.clone()
        new.apply_action(action)
        return new

    def clone(self) -> State:
        new = copy.copy(self)
        new._history = list(self._history)
        self._copy_into(new)
        return new

    def _copy_into(self, new: State) -> None:
        """Give ``new`` its own copies of every mutable field (shallow copy already made)."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        """One float per player: +1 per winner, -1 per other player, 0 in a draw or mid-game."""
        result = self.result()
        if result is None:
            return [0.0] * self.game.num_players
        return result.returns()

    def evaluate(self) -> list[float]:
        """A heuristic value in [-1, 1] per player; ``returns()`` at the end."""
        return self.returns()

    def history(self) -> list[int]:
        """The actions played since the start (initial or loaded) position."""
        return list(self._history)

    def history_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self._history]

    def mid_turn(self) -> bool:
        """True while a turn of several decisions is in progress (never, in one-decision games)."""
        return False

    def start_position(self) -> dict | None:
        """The position play started from when it was loaded, else ``None`` (the initial one)."""
        return self._start

    # --- whole turns -------------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        """Canonical strings of every legal whole turn, in the spec's listing order."""
        return [self.action_to_string(a) for a in self.legal_actions()]

    def apply_move(self, text: str) -> None:
        """Play a whole turn given as a string; the state is unchanged on any error."""
        self.apply_action(self.string_to_action(text))

    def parse_move(self, text: str) -> int:
        """The action for ``text``, checked to be legal, without playing it."""
        action = self.string_to_action(text)
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"{self.game.name}: {excerpt(text)} is illegal: {reason}")
        return action

    # --- positions and observations -------------------------------------------------------

    def to_json(self) -> str:
        """The spec's canonical JSON serialisation."""
        return canonical_json(self.to_dict())

    def notation(self) -> str:
        raise PositionError(f"{self.game.name} has no text notation; use to_json()")

    def observation(self, player: int) -> dict:
        """What ``player`` may see; the full position in perfect-information games."""
        self._check_player(player)
        return self.to_dict()

    def resample(self, player: int, rng: Any) -> State:
        """A state ``player`` cannot tell from this one, others' hidden data drawn with ``rng``.

        Perfect-information games have nothing hidden, so this is a clone. Information-set
        search plays from such states; the harness checks observations ignore the difference.
        """
        self._check_player(player)
        return self.clone()

    def observed_action_string(self, action: int, player: int) -> str:
        """How ``player`` sees ``action`` (games with hidden actions mask it)."""
        return self.action_to_string(action)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` knows: their observation and the actions as they saw them."""
        seen = " ".join(self.observed_action_string(a, player) for a in self._history)
        return f"{canonical_json(self.observation(player))} | {seen}"

    def _check_player(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            raise ValueError(f"{self.game.name}: player must be 0..{self.game.num_players - 1}, got {excerpt(player)}")

    # --- dunder -----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game == self.game and other._key() == self._key()

    __hash__ = None  # states are mutable

    def __str__(self) -> str:
        return self.notation() if self.game.info.has_notation else self.to_json()

    def __repr__(self) -> str:
        if self.game.info.has_notation:
            return f"{self.game!r}.state_from_notation({self.notation()!r})"
        return f"{self.game!r}.state_from_json({self.to_json()!r})"

    def _repr_png_(self) -> bytes:
        """Draw the position when a notebook cell ends with a state (needs matplotlib)."""
        from .render import state_png  # imported here: the rules never need matplotlib

        return state_png(self)


# ----------------------------------------------------------------------------- registry

_GAMES: dict[str, type[Game]] = {}


def register_game(cls: type[Game]) -> type[Game]:
    """Make ``cls`` loadable by ``load_game(cls.info.name)``; usable as a decorator."""
    _GAMES[cls.info.name] = cls
    return cls


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` under a rules config; missing options take their defaults.

    >>> load_game("cross_endodoi", seeds_per_hole=6).options["seeds_per_hole"]
    6

    Raises ``RulesError`` for an unknown game, an unknown option or a value out of range.
    """
    _import_games()
    if not isinstance(name, str) or name not in _GAMES:
        available = ", ".join(sorted(_GAMES))
        if name in SPECIFIED_GAMES:
            raise RulesError(f"game {name!r} is specified but has no engine yet; available: {available}")
        raise RulesError(f"unknown game {excerpt(name)}; available: {available}")
    return _GAMES[name](**options)


def list_games() -> list[dict]:
    """Each available game: its name, title, players, summary and options with defaults."""
    _import_games()
    return [
        {
            "name": cls.info.name,
            "title": cls.info.title,
            "players": list(cls.info.players),
            "perfect_information": cls.info.perfect_information,
            "summary": cls.info.summary,
            "options": [o.describe() for o in cls.option_specs],
            "engine_parameters": [o.describe() for o in cls.param_specs],
        }
        for cls in (_GAMES[n] for n in SPECIFIED_GAMES if n in _GAMES)
    ]


def _import_games() -> None:
    from . import games  # noqa: F401  (each game registers itself on import)


def check_keys(data: Any, keys: Iterable[str], game: str) -> None:
    """Raise ``PositionError`` unless ``data`` is a dict with exactly ``keys``."""
    keys = list(keys)
    if not isinstance(data, dict):
        raise PositionError(f"{game}: a position must be a JSON object, got {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    extra = [k for k in data if k not in keys]
    if missing:
        raise PositionError(f"{game}: position is missing key(s) {', '.join(missing)}")
    if extra:
        shown = ", ".join(excerpt(k, limit=40) for k in extra[:5]) + (", ..." if len(extra) > 5 else "")
        raise PositionError(f"{game}: position has unknown key(s) {shown}; expected {', '.join(keys)}")
    if type(data["game"]) is not str or data["game"] != game:
        raise PositionError(f"{game}: field 'game' must be {game!r}, got {excerpt(data['game'])}")


def check_int_list(value: Any, length: int, field_name: str, game: str, maximum: int = MAX_COUNT) -> list[int]:
    """A list of ``length`` ints in 0..``maximum`` (booleans refused), or ``PositionError``."""
    if not isinstance(value, list) or len(value) != length:
        raise PositionError(f"{game}: field {field_name!r} must be a list of {length} integers, got {excerpt(value)}")
    for i, v in enumerate(value):
        if type(v) is not int:
            raise PositionError(f"{game}: {field_name}[{i}] must be an integer, got {excerpt(v)}")
        if v < 0:
            raise PositionError(f"{game}: {field_name}[{i}] is negative ({excerpt(v)})")
        if v > maximum:
            raise PositionError(f"{game}: {field_name}[{i}] is {excerpt(v)}, more than the maximum {maximum}")
    return list(value)
