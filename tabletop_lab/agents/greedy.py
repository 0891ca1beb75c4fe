"""One-step look-ahead: play the action whose resulting state the game's evaluation likes best."""

from __future__ import annotations

from ..core import State
from .base import Agent, legal_or_raise, require_perfect_information

__all__ = ["GreedyAgent"]


class GreedyAgent(Agent):
    """Scores each child by ``evaluate()[mover]`` (``returns()[mover]`` once the game is over)
    and plays a best one; the seeded rng breaks ties.

    In a turn of several actions the child is scored mid-turn, so the agent is as good as the
    game's evaluation of unfinished turns.
    """

    name = "greedy"

    def choose_action(self, state: State) -> int:
        require_perfect_information(self, state)
        actions = legal_or_raise(state)
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
