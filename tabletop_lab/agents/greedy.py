"""One-step look-ahead: play the action whose resulting state the game's evaluation likes best."""

from __future__ import annotations

from ..core import Game, State
from .base import Agent, needs_perfect_information

__all__ = ["GreedyAgent"]


class GreedyAgent(Agent):
    """Scores each child by ``evaluate()[mover]`` (``returns()[mover]`` once the game is over)
    and plays a best one; the seeded rng breaks ties.

    Any number of players: each player looks after its own component, and teammates share
    returns, so a greedy player completes a teammate's win as readily as its own. In a turn of
    several actions the child is scored mid-turn, so the agent is as good as the game's
    evaluation of unfinished turns.
    """

    name = "greedy"
    title = "Greedy"

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        return needs_perfect_information(game)

    def choose_action(self, state: State) -> int:
        actions = self._check_supported(state)
        mover = state.current_player()
        best: list[int] = []
        best_value = float("-inf")
        for action in actions:
            child = state.child(action)
            value = (child.returns() if child.is_terminal() else child.evaluate())[mover]
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return self.rng.choice(best)
