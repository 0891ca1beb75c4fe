"""Two tiny games, for tests only, with what Cross-endodoi lacks: 3 players, moves of several
actions, and a forced draw. Importing this module registers them; their ``test_`` names never
collide with real games, and ``list_games()`` (which lists the specified games) ignores them.

* ``test_nim``: one pile; each action takes 1..``max_take`` stones; a turn is
  ``actions_per_turn`` actions by the same player (it ends early when the pile is empty); whoever
  takes the last stone wins and everyone else loses. With two players and one action per turn,
  the mover wins exactly when the pile is not a multiple of ``max_take + 1``; with two actions
  per turn (``max_take=2``) a turn takes 2..4 stones, and the losing piles are the multiples of 5.
* ``test_draw_trap``: player 0 may ``draw`` at once or ``fight``; after a fight player 1 picks one
  of ``replies`` replies, and only the last one wins for player 1 (every other one loses). Random
  play makes fighting look good; a search that respects player 1's choices and values a draw
  at half a win must take the draw.
"""

from __future__ import annotations

import re
from typing import Any

from tabletop_lab.core import (
    TERMINAL,
    Game,
    GameInfo,
    Option,
    Result,
    State,
    check_keys,
    non_negative_int,
    positive_int,
)
from tabletop_lab.errors import ActionSyntaxError, PositionError
from tabletop_lab.registry import register_game

_TAKE = re.compile(r"[1-9][0-9]*")


@register_game
class NimGame(Game):
    parts = {"board": "tests.widgets.toy_boards:NimBoard"}  # its board adapter, drawn in plain text
    info = GameInfo(
        name="test_nim",
        title="Nim (test)",
        summary="Take 1..max_take stones per action; whoever takes the last stone wins.",
        players=(2, 3),
        utility="general_sum",
        multi_action_moves=True,
        max_actions=1000,
    )
    option_specs = (
        Option("players", 2, "number of players", choices=(2, 3)),
        Option("pile", 10, "stones at the start", check=positive_int, allowed="a positive integer"),
        Option("max_take", 2, "most stones one action takes", choices=(2, 3)),
        Option("actions_per_turn", 1, "actions in one turn", choices=(1, 2)),
    )

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def utility(self) -> str:
        """Two players: one's win is the other's loss; three: each for themselves."""
        return "zero_sum" if self.num_players == 2 else "general_sum"

    def new_initial_state(self) -> NimState:
        return NimState(self, self.options["pile"], 0)

    def state_from_dict(self, data: Any) -> NimState:
        """``{"game": "test_nim", "pile": p, "to_move": m}``; at ``pile`` 0, ``to_move`` is the winner."""
        check_keys(data, ("game", "pile", "to_move"), self.name)
        if not non_negative_int(data["pile"]):
            raise PositionError(f"test_nim: field 'pile' must be an integer >= 0, got {data['pile']!r}")
        if type(data["to_move"]) is not int or not 0 <= data["to_move"] < self.num_players:
            raise PositionError(f"test_nim: field 'to_move' must be 0..{self.num_players - 1}, got {data['to_move']!r}")
        state = type(self.new_initial_state())(self, data["pile"], data["to_move"])  # a subclass's states
        state._start = state.to_dict()
        return state


class NimState(State):
    """The pile, the player to move and how many actions of the current turn are done.

    When the last stone goes the turn does not pass, so ``to_move`` names the winner.
    """

    def __init__(self, game: NimGame, pile: int, to_move: int):
        super().__init__(game)
        self.pile = pile
        self.to_move = to_move
        self.taken = 0  # actions already played in the current turn

    def current_player(self) -> int:
        return TERMINAL if self.pile == 0 else self.to_move

    def is_terminal(self) -> bool:
        return self.pile == 0

    def mid_turn(self) -> bool:
        return self.taken > 0

    def result(self) -> Result | None:
        if self.pile:
            return None
        return Result((self.to_move,), tuple(self.scores()), "standard")

    def scores(self) -> list[float]:
        return [float(self.pile == 0 and p == self.to_move) for p in range(self.game.num_players)]

    def _legal_actions(self) -> list[int]:
        return list(range(1, min(self.pile, self.game.options["max_take"]) + 1))

    def _illegal_reason(self, action: int) -> str | None:
        if not 1 <= action <= self.game.options["max_take"]:
            raise ActionSyntaxError(
                f"test_nim: an action takes 1..{self.game.options['max_take']} stones, got {action}"
            )
        if self.pile == 0:
            return "the game is over"
        if action > self.pile:
            return f"only {self.pile} stone(s) left"
        return None

    def _apply(self, action: int) -> None:
        self.pile -= action
        if self.pile == 0:
            self.taken = 0
            return
        self.taken += 1
        if self.taken == self.game.options["actions_per_turn"]:
            self.taken = 0
            self.to_move = (self.to_move + 1) % self.game.num_players

    def _copy_into(self, new: NimState) -> None:
        pass  # only immutable fields

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 1 <= action <= self.game.options["max_take"]:
            raise ActionSyntaxError(f"test_nim: action {action!r} takes no valid number of stones")
        return str(action)

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str) or not _TAKE.fullmatch(text) or int(text) > self.game.options["max_take"]:
            raise ActionSyntaxError(f"test_nim: {text!r} is not a take of 1..{self.game.options['max_take']} stones")
        return int(text)

    def _move_actions(self, text: str) -> list[int]:
        """A move is its takes separated by single spaces, such as ``"1 2"``."""
        return [self.string_to_action(part) for part in text.split(" ")]

    def _move_string(self, actions: list[int]) -> str:
        return " ".join(str(a) for a in actions)

    def to_dict(self) -> dict:
        if self.taken:
            raise PositionError("test_nim: a position is between turns; this turn is in progress")
        return {"game": self.game.name, "pile": self.pile, "to_move": self.to_move}

    def _progress_dict(self) -> dict:
        return {"game": self.game.name, "pile": self.pile, "to_move": self.to_move, "taken": self.taken}

    def key(self) -> tuple:
        return (self.pile, self.to_move, self.taken)


# ----------------------------------------------------------------------------- draw trap

_DRAW, _FIGHT, _REPLY = 0, 1, 2  # actions: draw, fight, then reply k is _REPLY + k
_STAGES = ("start", "draw", "fight", "done")


@register_game
class DrawTrapGame(Game):
    parts = {"board": "tests.widgets.toy_boards:TrapBoard"}  # its board adapter, drawn in plain text
    info = GameInfo(
        name="test_draw_trap",
        title="Draw trap (test)",
        summary="Take a draw, or fight and let the opponent pick the one reply that wins for them.",
        players=(2,),
        max_actions=10,
    )
    option_specs = (
        Option("replies", 5, "player 1's replies after a fight", check=positive_int, allowed="a positive integer"),
    )

    def new_initial_state(self) -> DrawTrapState:
        return DrawTrapState(self, "start", None)

    def state_from_dict(self, data: Any) -> DrawTrapState:
        """``{"game": "test_draw_trap", "stage": s, "reply": r}``; ``reply`` is set only when ``stage`` is ``"done"``."""
        check_keys(data, ("game", "stage", "reply"), "test_draw_trap")
        stage, reply = data["stage"], data["reply"]
        if stage not in _STAGES:
            raise PositionError(f"test_draw_trap: field 'stage' must be one of {', '.join(_STAGES)}, got {stage!r}")
        if (stage == "done") != (reply is not None):
            raise PositionError("test_draw_trap: field 'reply' is an integer exactly when 'stage' is 'done'")
        if reply is not None and (type(reply) is not int or not 0 <= reply < self.options["replies"]):
            raise PositionError(
                f"test_draw_trap: field 'reply' must be 0..{self.options['replies'] - 1}, got {reply!r}"
            )
        state = DrawTrapState(self, stage, reply)
        state._start = state.to_dict()
        return state


class DrawTrapState(State):
    def __init__(self, game: DrawTrapGame, stage: str, reply: int | None):
        super().__init__(game)
        self.stage = stage
        self.reply = reply

    def current_player(self) -> int:
        return {"start": 0, "fight": 1}.get(self.stage, TERMINAL)

    def is_terminal(self) -> bool:
        return self.stage in ("draw", "done")

    def result(self) -> Result | None:
        if self.stage == "draw":
            return Result((0, 1), (0.0, 0.0), "standard")
        if self.stage == "done":
            player_1_wins = self.reply == self.game.options["replies"] - 1
            return Result((1,) if player_1_wins else (0,), (float(not player_1_wins), float(player_1_wins)), "standard")
        return None

    def scores(self) -> list[float]:
        result = self.result()
        return list(result.scores) if result else [0.0, 0.0]

    def _legal_actions(self) -> list[int]:
        if self.stage == "start":
            return [_DRAW, _FIGHT]
        return [_REPLY + k for k in range(self.game.options["replies"])]

    def _illegal_reason(self, action: int) -> str | None:
        self.action_to_string(action)  # raises ActionSyntaxError for an unknown action
        if self.is_terminal():
            return "the game is over"
        if action not in self._legal_actions():
            return f"not a choice at stage {self.stage!r}"
        return None

    def _apply(self, action: int) -> None:
        if action == _DRAW:
            self.stage = "draw"
        elif action == _FIGHT:
            self.stage = "fight"
        else:
            self.stage, self.reply = "done", action - _REPLY

    def _copy_into(self, new: DrawTrapState) -> None:
        pass  # only immutable fields

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action < _REPLY + self.game.options["replies"]:
            raise ActionSyntaxError(f"test_draw_trap: no action {action!r}")
        return ("draw", "fight")[action] if action < _REPLY else f"reply{action - _REPLY}"

    def string_to_action(self, text: str) -> int:
        for action in range(_REPLY + self.game.options["replies"]):
            if text == self.action_to_string(action):
                return action
        raise ActionSyntaxError(f"test_draw_trap: {text!r} is not 'draw', 'fight' or 'reply<k>'")

    def to_dict(self) -> dict:
        return {"game": "test_draw_trap", "stage": self.stage, "reply": self.reply}

    def key(self) -> tuple:
        return (self.stage, self.reply)
