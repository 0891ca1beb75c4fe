"""Game records: options, seed, start position and action strings; they replay exactly.

A record is tiny (OpenSpiel-style: parameters plus action history) and self-checking: the
result it stores must be the result its replay reaches. It carries the versions it was made
under (``versions``: the package's and the game's rules version, ``tabletop_lab.versions``).
Loading a record made under another rules version warns (``RulesVersionWarning``), since its
replay may differ; replaying it then raises, as for any record, at the first action that
cannot be played or when the result differs, and the error names both rules versions. A record
without versions (saved before they were recorded) counts as rules version 1.
"""

from __future__ import annotations

import json
import numbers
import warnings
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from .core import Game, State
from .errors import ActionError, PositionError, excerpt
from .parsing import read_json
from .registry import load_game
from .versions import FIRST_RULES_VERSION, package_version

__all__ = ["GameRecord", "RulesVersionWarning"]

_KEYS = (
    "version",
    "game",
    "options",
    "seed",
    "start",
    "actions",
    "agents",
    "result",
    "cards_shown",
    "versions",
    "hints",
)
#: The record format: 2 added ``cards_shown``, 3 ``versions``, 4 ``hints``; a record without
#: ``version`` is of format 1 (a field a record lacks takes its default: no hints, no cards shown).
RECORD_VERSION = 4
_MESSAGE_ROOM = 270  # characters of a replay error besides " cannot be played: " (under 300 in all)


class RulesVersionWarning(UserWarning):
    """A game record was made under another rules version of its game."""


@dataclass
class GameRecord:
    """One game as played: enough to replay it action by action.

    ``start`` is the position JSON play began from, or ``None`` for the initial position.
    ``seed`` is the seed the players' randomness came from (the engines have none).
    ``cards_shown``: someone at a Play board showed every seat's hidden cards during the game.
    ``versions`` is ``{"package": version, "rules": the game's rules version}`` when made.
    ``hints``: the actions played when each hint was shown at a Play board (one entry per hint;
    replay ignores them).

    A malformed record raises ``PositionError`` naming the field; an action that cannot be
    played on replay raises the engine's ``ActionError``, prefixed with its index in ``actions``.
    """

    game: str
    options: dict[str, Any]
    actions: list[str]
    seed: int | None = None
    start: dict | None = None
    agents: list[str] | None = None
    result: dict | None = field(default=None)
    cards_shown: bool = False
    versions: dict | None = None
    hints: list[int] = field(default_factory=list)
    version: int = RECORD_VERSION

    @classmethod
    def from_state(cls, state: State, seed: int | None = None, agents: list[str] | None = None) -> GameRecord:
        """The record of how ``state`` was reached from its start position."""
        result = state.result()
        return cls(
            game=state.game.name,
            options=dict(state.game.options),
            actions=state.history_strings(),
            seed=seed,
            start=state.start_position(),
            agents=agents,
            result=result.to_dict() if result else None,
            versions={"package": package_version(), "rules": state.game.info.rules_version},
        )

    @property
    def rules_version(self) -> int:
        """The rules version the record was made under (1 for a record without versions)."""
        return self.versions["rules"] if self.versions else FIRST_RULES_VERSION

    def _other_rules(self, game: Game) -> str:
        """``""``, or a note for messages when the record was made under other rules than ``game``'s."""
        now = game.info.rules_version
        if self.rules_version == now:
            return ""
        return f" (made under {self.game} rules version {self.rules_version}; these are version {now})"

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default).

        Raises ``PositionError`` if a full replay ends with another result than recorded.
        """
        _check_fields(self)
        game = load_game(self.game, **self.options)
        state = game.new_initial_state() if self.start is None else game.state_from_dict(self.start)
        for index, text in enumerate(self.actions[:upto]):
            self._play(state, index, text)
        if upto is None and self.result is not None:
            reached = state.result()
            if reached is None or reached.to_dict() != self.result:
                raise PositionError(
                    f"record replays to {excerpt(reached, limit=90)}, but it records "
                    f"{excerpt(self.result, limit=90)}{self._other_rules(game)}"
                )
        return state

    def states(self) -> list[State]:
        """Every state of the game, the start included: ``len(actions) + 1`` of them."""
        state = self.replay(0)
        states = [state.clone()]
        for index, text in enumerate(self.actions):
            self._play(state, index, text)
            states.append(state.clone())
        return states

    def _play(self, state: State, index: int, text: str) -> None:
        """Apply ``actions[index]``; an error says which action of the record failed and why.
        Between moves of several actions the state is told the actions to come (``foresee``)."""
        try:
            if state.game.info.multi_action_moves and not state.mid_turn():
                state.foresee(islice(self.actions, index, None))
            state.apply_action(state.string_to_action(text))
        except ActionError as exc:
            where = (
                f"game record{self._other_rules(state.game)}: actions[{index}] = {excerpt(text, limit=40)} "
                f"(action {index + 1} of {len(self.actions)})"
            )
            reason = str(exc)  # the engine's message, which may quote the action again: cut to fit
            room = _MESSAGE_ROOM - len(where)
            raise type(exc)(
                f"{where} cannot be played: {reason if len(reason) <= room else reason[: room - 3] + '...'}"
            ) from None

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in _KEYS}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or not {"game", "options", "actions"} <= set(data):
            raise PositionError("a game record is a JSON object with at least 'game', 'options' and 'actions'")
        unknown = [k for k in data if k not in _KEYS]
        if unknown:
            raise PositionError(
                f"game record has unknown key(s) {', '.join(excerpt(k, limit=40) for k in unknown[:5])}"
            )
        record = cls(**{"version": 1, **{k: data[k] for k in _KEYS if k in data}})
        _check_fields(record)
        record._warn_other_rules()
        return record

    def _warn_other_rules(self) -> None:
        """Warn (``RulesVersionWarning``) when the record was made under other rules than today's."""
        try:
            game = load_game(self.game, **self.options)
        except ValueError:
            return  # replay will say what is wrong with the game or its options
        note = self._other_rules(game)
        if note:
            warnings.warn(f"game record{note}: its replay may differ", RulesVersionWarning, stacklevel=3)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        return cls.from_dict(read_json(text, "game record"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text())


def _check_fields(record: GameRecord) -> None:
    """Raise ``PositionError`` naming the first field of ``record`` of the wrong type."""

    def optional(value: Any, kind: type) -> bool:
        return value is None or isinstance(value, kind)

    checks = (
        (
            "version",
            type(record.version) is int and 1 <= record.version <= RECORD_VERSION,
            f"a record format 1..{RECORD_VERSION}",
        ),
        ("cards_shown", type(record.cards_shown) is bool, "true or false"),
        ("game", isinstance(record.game, str), "a game name (string)"),
        (
            "options",
            isinstance(record.options, dict) and all(type(k) is str for k in record.options),
            "an object of options",
        ),
        (
            "actions",
            isinstance(record.actions, list) and all(type(a) is str for a in record.actions),
            "a list of action strings",
        ),
        (
            "seed",
            record.seed is None or _is_seed(record.seed),
            "a non-negative integer or null",
        ),
        ("start", optional(record.start, dict), "a position object or null"),
        (
            "agents",
            record.agents is None or (isinstance(record.agents, list) and all(type(a) is str for a in record.agents)),
            "a list of agent labels or null",
        ),
        ("result", optional(record.result, dict), "a result object or null"),
        (
            "hints",
            isinstance(record.hints, list) and all(_is_seed(h) for h in record.hints),
            "a list of action counts (non-negative integers)",
        ),
        ("versions", record.versions is None or _is_versions(record.versions), _VERSIONS),
    )
    for name, ok, expected in checks:
        if not ok:
            raise PositionError(f"game record: {name!r} must be {expected}, got {excerpt(getattr(record, name))}")


def _is_seed(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 0


_VERSIONS = 'an object {"package": version text, "rules": a positive integer} or null'


def _is_versions(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) == {"package", "rules"}
        and isinstance(value["package"], str)
        and type(value["rules"]) is int
        and value["rules"] >= FIRST_RULES_VERSION
    )
