"""Race: two players take turns adding 1 or 2 to a shared count; whoever reaches ``target`` wins.

Actions are ``0`` ("+1") and ``1`` ("+2"). The first player wins with perfect play unless
``target`` is a multiple of 3 (leave the opponent a multiple of 3 to go).
"""

from __future__ import annotations

from typing import Any

from tabletop_lab.core import TERMINAL, Game, GameInfo, Option, Result, State, check_keys, non_negative_int
from tabletop_lab.errors import ActionSyntaxError, PositionError

ACTIONS = ("+1", "+2")


class RaceGame(Game):
    """Not decorated with ``register_game``: the entry point registers it."""

    info = GameInfo(
        name="test_race",
        title="Race (entry-point test game)",
        summary="Add 1 or 2 to the count in turn; whoever reaches the target wins.",
        players=(2,),
        max_actions=100,
        player_names=("First", "Second"),
    )
    option_specs = (Option("target", 7, "the count that wins", choices=(5, 6, 7)),)

    def new_initial_state(self) -> RaceState:
        return RaceState(self, 0, 0)

    def state_from_dict(self, data: Any) -> RaceState:
        check_keys(data, ("game", "count", "to_move"), "test_race")
        if not non_negative_int(data["count"]) or data["count"] > self.options["target"]:
            raise PositionError(f"test_race: field 'count' must be 0..{self.options['target']}")
        if data["to_move"] not in (0, 1) or type(data["to_move"]) is not int:
            raise PositionError("test_race: field 'to_move' must be 0 or 1")
        state = RaceState(self, data["count"], data["to_move"])
        state._start = state.to_dict()
        return state


class RaceState(State):
    """The count and the player to move; at the target, ``to_move`` is the winner."""

    def __init__(self, game: RaceGame, count: int, to_move: int):
        super().__init__(game)
        self.count = count
        self.to_move = to_move

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        return self.count == self.game.options["target"]

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        return Result((self.to_move,), tuple(self.scores()), "standard")

    def scores(self) -> list[float]:
        return [float(self.is_terminal() and p == self.to_move) for p in range(2)]

    def _legal_actions(self) -> list[int]:
        return [a for a in (0, 1) if self.count + a + 1 <= self.game.options["target"]]

    def _illegal_reason(self, action: int) -> str | None:
        if action not in (0, 1):
            raise ActionSyntaxError(f"test_race: an action is 0 (+1) or 1 (+2), got {action!r}")
        if self.is_terminal():
            return "the game is over"
        if action not in self._legal_actions():
            return "it would pass the target"
        return None

    def _apply(self, action: int) -> None:
        self.count += action + 1
        if not self.is_terminal():
            self.to_move = 1 - self.to_move

    def _copy_into(self, new: RaceState) -> None:
        """Nothing mutable to copy: the fields are ints."""

    def action_to_string(self, action: int) -> str:
        if action not in (0, 1):
            raise ActionSyntaxError(f"test_race: no action {action!r}")
        return ACTIONS[action]

    def string_to_action(self, text: str) -> int:
        if text not in ACTIONS:
            raise ActionSyntaxError(f"test_race: a move is '+1' or '+2', got {text!r}")
        return ACTIONS.index(text)

    def to_dict(self) -> dict:
        return {"game": "test_race", "count": self.count, "to_move": self.to_move}

    def key(self) -> tuple:
        return (self.count, self.to_move)
