"""Game records: options, seed, start position and action strings; they replay exactly.

A record is tiny (OpenSpiel-style: parameters plus action history) and self-checking: the
result it stores must be the result its replay reaches.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core import State
from .errors import PositionError
from .registry import load_game

__all__ = ["GameRecord"]

_KEYS = ("game", "options", "seed", "start", "actions", "agents", "result")


@dataclass
class GameRecord:
    """One game as played: enough to replay it action by action.

    ``start`` is the position JSON play began from, or ``None`` for the initial position.
    ``seed`` is the seed the players' randomness came from (the engines have none).
    """

    game: str
    options: dict[str, Any]
    actions: list[str]
    seed: int | None = None
    start: dict | None = None
    agents: list[str] | None = None
    result: dict | None = field(default=None)

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
        )

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` actions (all by default).

        Raises ``PositionError`` if a full replay ends with another result than recorded.
        """
        game = load_game(self.game, **self.options)
        state = game.new_initial_state() if self.start is None else game.state_from_dict(self.start)
        for text in self.actions[:upto]:
            state.apply_action(state.string_to_action(text))
        if upto is None and self.result is not None:
            reached = state.result()
            if reached is None or reached.to_dict() != self.result:
                raise PositionError(f"record replays to {reached}, but it records {self.result}")
        return state

    def states(self) -> list[State]:
        """Every state of the game, the start included: ``len(actions) + 1`` of them."""
        state = self.replay(0)
        states = [state.clone()]
        for text in self.actions:
            state.apply_action(state.string_to_action(text))
            states.append(state.clone())
        return states

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in _KEYS}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or not {"game", "options", "actions"} <= set(data):
            raise PositionError("a game record is a JSON object with at least 'game', 'options' and 'actions'")
        unknown = set(data) - set(_KEYS)
        if unknown:
            raise PositionError(f"game record has unknown key(s) {', '.join(sorted(unknown))}")
        if not isinstance(data["actions"], list) or not all(isinstance(a, str) for a in data["actions"]):
            raise PositionError("game record: 'actions' must be a list of action strings")
        return cls(**{k: data[k] for k in _KEYS if k in data})

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PositionError(f"game record is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text())
