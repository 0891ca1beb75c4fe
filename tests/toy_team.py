"""A tiny race for 3-6 players, alone or in two teams, for tests only. Importing this module
registers it as ``test_team``.

Every player has a token on a track from 0 to ``goal``. On a turn the player to move advances
**any** token (its own, a teammate's or an opponent's) by 1 or 2 steps; the first token to reach
``goal`` wins for its owner's team. With ``teams="alternate"`` the even seats play against the odd
seats (3 players: seats 0 and 2 against seat 1); with ``"none"`` everyone plays alone. So a
player can win through a teammate, and a player who cannot win can choose who does (a
kingmaker), which tells max-n search from paranoid search. Every action advances a token, so
a game lasts at most ``players * (goal - 1) + 1`` actions.
"""

from __future__ import annotations

import re
from typing import Any

from tabletop_lab.core import TERMINAL, Game, GameInfo, Option, Result, State, check_int_list, check_keys
from tabletop_lab.errors import ActionSyntaxError, PositionError
from tabletop_lab.registry import register_game

_ACTION = re.compile(r"([0-9])\+([12])")
_TEAMS = ("none", "alternate")
_GOALS = tuple(range(2, 21))


@register_game
class TeamRaceGame(Game):
    parts = {"board": "tests.widgets.toy_boards:TeamBoard"}  # its board adapter, drawn in plain text
    info = GameInfo(
        name="test_team",
        title="Team race (test)",
        summary="Advance any token 1 or 2 steps; the first token at the goal wins for its owner's team.",
        players=(3, 4, 5, 6),
        utility="general_sum",
        max_actions=6 * 20,
    )
    option_specs = (
        Option("players", 3, "number of players", choices=(3, 4, 5, 6)),
        Option("teams", "none", "everyone alone, or even seats against odd seats", choices=_TEAMS),
        Option("goal", 5, "length of the track", choices=_GOALS),
    )

    @classmethod
    def harness_configs(cls) -> list[dict[str, Any]]:
        """Each player count, teams with an even and an odd count, and the shortest track."""
        counts = [{"players": n} for n in (4, 5, 6)]
        teams = [{"players": n, "teams": "alternate"} for n in (3, 6)]
        return [{}, *counts, *teams, {"goal": 2}]

    @property
    def num_players(self) -> int:
        return self.options["players"]

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The partition of seats into teams."""
        seats = range(self.num_players)
        if self.options["teams"] == "none":
            return tuple((p,) for p in seats)
        return tuple(p for p in seats if p % 2 == 0), tuple(p for p in seats if p % 2 == 1)

    @property
    def utility(self) -> str:
        """Free-for-all, or team play when there are teams."""
        return "team" if self.options["teams"] == "alternate" else "general_sum"

    def new_initial_state(self) -> TeamRaceState:
        return TeamRaceState(self, [0] * self.num_players, 0)

    def state_from_dict(self, data: Any) -> TeamRaceState:
        """``{"game": "test_team", "tokens": [...], "to_move": m}``; ``to_move`` is who moved last once a token is home."""
        check_keys(data, ("game", "tokens", "to_move"), "test_team")
        tokens = check_int_list(data["tokens"], self.num_players, "tokens", "test_team")
        goal = self.options["goal"]
        if any(t > goal for t in tokens) or sum(t == goal for t in tokens) > 1:
            raise PositionError(f"test_team: field 'tokens' must be 0..{goal} with at most one at the goal")
        if type(data["to_move"]) is not int or not 0 <= data["to_move"] < self.num_players:
            raise PositionError(
                f"test_team: field 'to_move' must be 0..{self.num_players - 1}, got {data['to_move']!r}"
            )
        state = TeamRaceState(self, tokens, data["to_move"])
        state._start = state.to_dict()
        return state


class TeamRaceState(State):
    def __init__(self, game: TeamRaceGame, tokens: list[int], to_move: int):
        super().__init__(game)
        self.tokens = tokens
        self.to_move = to_move

    def _home(self) -> int | None:
        """The player whose token reached the goal, if any."""
        goal = self.game.options["goal"]
        return next((p for p, t in enumerate(self.tokens) if t == goal), None)

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        return self._home() is not None

    def result(self) -> Result | None:
        home = self._home()
        if home is None:
            return None
        team = next(t for t in self.game.teams() if home in t)
        return Result(tuple(sorted(team)), tuple(float(t) for t in self.tokens), "standard")

    def scores(self) -> list[float]:
        return [float(t) for t in self.tokens]

    def evaluate(self) -> list[float]:
        """Per player: how far its team's best token leads the best other token, as a share of the track."""
        if self.is_terminal():
            return self.returns()
        goal = self.game.options["goal"]
        values = []
        for team in self.game.teams():
            ours = max(self.tokens[p] for p in team)
            theirs = max((t for p, t in enumerate(self.tokens) if p not in team), default=0)
            values += [(p, (ours - theirs) / goal) for p in team]
        return [value for _, value in sorted(values)]

    def _legal_actions(self) -> list[int]:
        return list(range(2 * self.game.num_players))

    def _illegal_reason(self, action: int) -> str | None:
        self.action_to_string(action)  # raises ActionSyntaxError for an int that is no action
        return "the game is over" if self.is_terminal() else None

    def _apply(self, action: int) -> None:
        player, step = divmod(action, 2)
        self.tokens[player] = min(self.tokens[player] + step + 1, self.game.options["goal"])
        if not self.is_terminal():
            self.to_move = (self.to_move + 1) % self.game.num_players

    def _copy_into(self, new: TeamRaceState) -> None:
        new.tokens = list(self.tokens)

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action < 2 * self.game.num_players:
            raise ActionSyntaxError(f"test_team: no action {action!r}; actions are 0..{2 * self.game.num_players - 1}")
        player, step = divmod(action, 2)
        return f"{player}+{step + 1}"

    def string_to_action(self, text: str) -> int:
        match = _ACTION.fullmatch(text) if isinstance(text, str) else None
        if match is None or int(match[1]) >= self.game.num_players:
            raise ActionSyntaxError(f"test_team: {text!r} is not '<seat>+<1 or 2>'")
        return 2 * int(match[1]) + int(match[2]) - 1

    def to_dict(self) -> dict:
        return {"game": "test_team", "tokens": list(self.tokens), "to_move": self.to_move}

    def key(self) -> tuple:
        return (tuple(self.tokens), self.to_move)
