"""Every game as an OpenSpiel game: ``load_game(name, **options)`` gives a ``pyspiel.Game``.

>>> from tabletop_lab.interop.openspiel import load_game
>>> game = load_game("cross_endodoi", seeds_per_hole=6)
>>> game.get_parameters()["seeds_per_hole"], game.num_distinct_actions()
(6, 12)
>>> state = game.new_initial_state()
>>> state.legal_actions(), state.action_to_string(0, 2)
([0, 1, 2, 3, 4, 5], '2')

Importing this module registers every game with pyspiel as a Python game named
``tabletop_lab_<name>``, so ``pyspiel.load_game("tabletop_lab_sygo(size=9)")`` works too:

* **Game type**: sequential, deterministic (no chance nodes), terminal rewards; perfect or
  imperfect information as ``GameInfo.information`` says; zero-sum when every outcome's
  returns sum to 0 (two players, or two equal teams: Capitals), general-sum otherwise (Sinoda,
  whose player count and teams are options). Information-state strings, observation strings
  and observation tensors are provided; information-state tensors are not.
* **Parameters**: every rule option and engine parameter, with the engine's defaults. OpenSpiel
  parameters cannot be null or objects, so an option whose value is ``None`` (no cap) is passed
  as ``0``, which none of those options accepts otherwise, and Sinoda's board-data object as
  ``json64:`` and its canonical JSON in unpadded base64url (game strings such as
  ``tabletop_lab_sinoda(board=...)`` cannot hold JSON's commas and brackets). Values are checked by the engine: a wrong value or type raises its ``RulesError``
  naming the option. A parameter has one type, so a float option given a whole number (Sygo's
  ``komi=3``) is passed as a float (``3.0``).
* **Game info**: ``num_distinct_actions()``, ``observation_tensor_shape()`` and the player count
  of the engine under those options; utilities -1..1; ``max_game_length`` is the simulation cap
  ``GameInfo.max_actions``: a game still running there ends with returns of 0 (the cut the
  simulation runner reports as capped).
* **Observer**: ``observation_tensor``/``observation_string`` are the engine's
  ``observation_tensor(player)`` and canonical ``observation(player)`` JSON; the
  information-state string is ``information_state_string(player)``.

A move of several actions is several OpenSpiel actions by the same player, teams are seats
with equal returns (``tabletop_lab.interop``). ``state.engine`` is the live tabletop_lab state.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np
import pyspiel

from ..core import Game, Option, State, canonical_json
from ..errors import RulesError, excerpt
from ..registry import game_class, game_names
from ..registry import load_game as load_engine

__all__ = ["load_game", "register", "register_all", "short_name"]

_REGISTERED: dict[str, type] = {}
#: How an object-valued option (Sinoda's board data) starts as a parameter: then base64url JSON.
_OBJECT = "json64:"


def short_name(name: str) -> str:
    """The pyspiel name of game ``name``: ``tabletop_lab_<name>``."""
    return f"tabletop_lab_{name}"


def load_game(name: str, **options: Any) -> pyspiel.Game:
    """The ``pyspiel.Game`` of ``name`` under ``options`` (checked by the engine first)."""
    engine = load_engine(name, **options)
    cls = register(name)
    params = {spec.name: _to_param(spec, _value(engine, spec.name)) for spec in _specs(type(engine))}
    return cls(params)


def register(name: str) -> type:
    """Register game ``name`` with pyspiel (once) and return its ``pyspiel.Game`` class."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    engine_class = game_class(name)
    default = engine_class()
    info = engine_class.info
    game_type = pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"tabletop_lab {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION
        if info.perfect_information
        else pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if _zero_sum(name) else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(info.players),
        min_num_players=min(info.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            spec.name: _to_param(spec, _value(default, spec.name)) for spec in _specs(engine_class)
        },
    )
    cls = type(f"OpenSpiel_{name}", (_OpenSpielGame,), {"engine_name": name, "game_type": game_type})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[name] = cls
    return cls


class _OpenSpielGame(pyspiel.Game):
    """A tabletop_lab game under one set of options, as pyspiel sees it."""

    engine_name: str
    game_type: pyspiel.GameType

    def __init__(self, params: dict | None = None):
        specs = _specs(game_class(self.engine_name))
        given = params or {}
        options = {spec.name: _from_param(spec, given[spec.name]) for spec in specs if spec.name in given}
        engine = load_engine(self.engine_name, **options)
        self.engine = engine
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_distinct_actions(),
            max_chance_outcomes=0,
            num_players=engine.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=engine.info.max_actions,
        )
        full = {spec.name: _to_param(spec, _value(engine, spec.name)) for spec in specs}
        super().__init__(self.game_type, info, full)

    def new_initial_state(self) -> _OpenSpielState:
        return _OpenSpielState(self, self.engine.new_initial_state())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"{self.engine_name}: observer parameters are not supported; got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and not self.engine.info.perfect_information:
            if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
                raise ValueError(f"{self.engine_name}: only a player's own observation is supported")
        return _Observer(self.engine, perfect_recall)


class _OpenSpielState(pyspiel.State):
    """An OpenSpiel state around a live tabletop_lab state (``engine``)."""

    def __init__(self, game: _OpenSpielGame, engine: State):
        super().__init__(game)
        self.engine = engine
        self._cap = engine.game.info.max_actions

    def _capped(self) -> bool:
        return not self.engine.is_terminal() and len(self.engine.history()) >= self._cap

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self._capped() else self.engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.engine.legal_actions())

    def _apply_action(self, action: int) -> None:
        """Play ``action``; an illegal one raises ``pyspiel.SpielError`` with the engine's reason
        (as OpenSpiel's ``apply_action_with_legality_check`` does), the state unchanged."""
        try:
            self.engine.apply_action(int(action))
        except ValueError as exc:
            raise pyspiel.SpielError(str(exc)) from None

    def _action_to_string(self, player: int, action: int) -> str:
        return self.engine.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.engine.is_terminal() or self._capped()

    def returns(self) -> list[float]:
        return self.engine.returns()

    def __str__(self) -> str:
        return str(self.engine)


class _Observer:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, engine: Game, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        (length,) = engine.observation_tensor_shape()
        self.tensor = np.zeros(0 if perfect_recall else length, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state: _OpenSpielState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = state.engine.observation_tensor(player)

    def string_from(self, state: _OpenSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.engine.information_state_string(player)
        return canonical_json(state.engine.observation(player))


# ----------------------------------------------------------------------------- helpers


def _specs(engine_class: type[Game]) -> tuple[Option, ...]:
    return engine_class.option_specs + engine_class.param_specs


def _value(engine: Game, name: str) -> Any:
    return engine.options[name] if name in engine.options else engine.params[name]


def _to_param(spec: Option, value: Any) -> Any:
    """An option's value as an OpenSpiel parameter (bool, int, float or str)."""
    if value is None:
        return 0 if type(spec.default) is int else ""
    if isinstance(value, dict):  # game strings cannot hold JSON's commas and brackets
        return _OBJECT + base64.urlsafe_b64encode(canonical_json(value).encode()).decode().rstrip("=")
    if type(spec.default) is float and type(value) is int:  # a parameter has one type: Sygo's komi=3 is 3.0
        return float(value)
    return value


def _from_param(spec: Option, value: Any) -> Any:
    """The option's value from its OpenSpiel parameter (the inverse of ``_to_param``)."""
    if value == 0 and type(value) is int and type(spec.default) is int and _allows_none(spec):
        return None
    if isinstance(value, str) and value.startswith(_OBJECT):
        text = value[len(_OBJECT) :]
        try:
            return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        except ValueError:
            raise RulesError(f"option {spec.name}: {excerpt(value)} is not base64url of a JSON object") from None
    return value


def _allows_none(spec: Option) -> bool:
    try:
        spec.validate(None, "")
    except RulesError:
        return False
    return True


def _zero_sum(name: str) -> bool:
    """Whether returns always sum to 0: one player count, and two teams of equal size (two
    players alone, or Capitals' pairs) in every harness config. A game whose player count is an
    option (Sinoda) is declared general-sum even where one config is zero-sum."""
    engine_class = game_class(name)
    if len(engine_class.info.players) != 1:
        return False
    for options in engine_class.harness_configs():
        teams = engine_class(**options).teams()
        if len(teams) != 2 or len(teams[0]) != len(teams[1]):
            return False
    return True


def register_all() -> None:
    """Register every game of the registry with pyspiel (done once on import)."""
    for name in game_names():
        register(name)


register_all()
