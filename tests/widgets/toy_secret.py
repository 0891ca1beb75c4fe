"""A two-move guessing game whose first action is secret, for the Board's tests: importing this
module registers ``test_secret_pick`` and its board adapter.

The picker (seat 0) secretly picks a colour; the guesser (seat 1) sees the move as ``pick ?``
and guesses a colour in public. The guesser wins a right guess, the picker a wrong one. The
colour is shown to the guesser only when the game is over.
"""

from __future__ import annotations

from typing import Any

from tabletop_lab.core import TERMINAL, Game, GameInfo, Result, State, check_keys
from tabletop_lab.errors import ActionSyntaxError, PositionError
from tabletop_lab.registry import register_game
from tests.widgets.toy_boards import TextBoard, diamond

COLOURS = ("crimson", "teal", "amber")  # words no other text on the board contains
_ACTIONS = [f"pick {c}" for c in COLOURS] + [f"guess {c}" for c in COLOURS]


@register_game
class SecretPickGame(Game):
    parts = {"board": "tests.widgets.toy_secret:SecretPickBoard"}  # its board adapter, drawn in plain text
    info = GameInfo(
        name="test_secret_pick",
        title="Secret pick (test)",
        summary="One player picks a colour in secret, the other guesses it.",
        players=(2,),
        information="imperfect",
        max_actions=2,
        player_names=("Picker", "Guesser"),
    )

    def new_initial_state(self) -> SecretPickState:
        return SecretPickState(self, None, None)

    def state_from_dict(self, data: Any) -> SecretPickState:
        """``{"game": "test_secret_pick", "pick": colour or null, "guess": colour or null}``."""
        check_keys(data, ("game", "pick", "guess"), "test_secret_pick")
        for field in ("pick", "guess"):
            if data[field] is not None and data[field] not in COLOURS:
                raise PositionError(f"test_secret_pick: field {field!r} must be null or one of {', '.join(COLOURS)}")
        if data["pick"] is None and data["guess"] is not None:
            raise PositionError("test_secret_pick: field 'guess' must be null before a pick")
        state = SecretPickState(self, data["pick"], data["guess"])
        state._start = state.to_dict()
        return state

    def state_from_observation(self, data: Any, player: int, rng: Any) -> SecretPickState:
        """``observation(player)`` with a secret pick (``"?"``) drawn from ``rng``."""
        if isinstance(data, dict) and data.get("pick") == "?":
            data = {**data, "pick": rng.choice(COLOURS)}
        return self.state_from_dict(data)


class SecretPickState(State):
    def __init__(self, game: SecretPickGame, pick: str | None, guess: str | None):
        super().__init__(game)
        self.pick = pick
        self.guess = guess

    def current_player(self) -> int:
        return 0 if self.pick is None else 1 if self.guess is None else TERMINAL

    def is_terminal(self) -> bool:
        return self.guess is not None

    def result(self) -> Result | None:
        if self.guess is None:
            return None
        winner = 1 if self.guess == self.pick else 0
        return Result((winner,), tuple(float(p == winner) for p in range(2)), "standard")

    def scores(self) -> list[float]:
        result = self.result()
        return list(result.scores) if result else [0.0, 0.0]

    def _legal_actions(self) -> list[int]:
        return [0, 1, 2] if self.pick is None else [3, 4, 5]

    def _illegal_reason(self, action: int) -> str | None:
        self.action_to_string(action)
        if self.is_terminal():
            return "the game is over"
        if action not in self._legal_actions():
            return "the picker picks first, then the guesser guesses"
        return None

    def _apply(self, action: int) -> None:
        if action < 3:
            self.pick = COLOURS[action]
        else:
            self.guess = COLOURS[action - 3]

    def _copy_into(self, new: SecretPickState) -> None:
        pass  # only immutable fields

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action < len(_ACTIONS):
            raise ActionSyntaxError(f"test_secret_pick: no action {action!r}")
        return _ACTIONS[action]

    def string_to_action(self, text: str) -> int:
        if text not in _ACTIONS:
            raise ActionSyntaxError(f"test_secret_pick: {text!r} is not one of {', '.join(_ACTIONS)}")
        return _ACTIONS.index(text)

    def observed_action_string(self, action: int, player: int) -> str:
        """The pick is secret from the guesser."""
        self._check_player(player)
        return "pick ?" if action < 3 and player == 1 else self.action_to_string(action)

    def to_dict(self) -> dict:
        return {"game": "test_secret_pick", "pick": self.pick, "guess": self.guess}

    def observation(self, player: int) -> dict:
        self._check_player(player)
        hidden = player == 1 and self.pick is not None and not self.is_terminal()
        return {**self.to_dict(), "pick": "?" if hidden else self.pick}

    def reveals(self, action: int) -> bool:
        """The guess ends the game, and the pick is shown."""
        return action >= 3

    def resample(self, player: int, rng: Any) -> SecretPickState:
        self._check_player(player)
        world = self.clone()
        if player == 1 and self.pick is not None and not self.is_terminal():
            world.pick = rng.choice(COLOURS)
        return world

    def key(self) -> tuple:
        return (self.pick, self.guess)


class SecretPickBoard(TextBoard):
    """A diamond per colour: the picker clicks one to pick it, the guesser to guess it."""

    polygons = {colour: diamond(2 + 2 * k, 1) for k, colour in enumerate(COLOURS)}

    def action_cells(self, state, action: int) -> tuple:
        return (COLOURS[action % 3],)

    def describe(self, state, viewer) -> str:
        seen = state.to_dict() if viewer is None else state.observation(viewer)
        return f"pick {seen['pick']}, guess {seen['guess']}"
