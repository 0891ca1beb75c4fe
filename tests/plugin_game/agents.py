"""Race's own agent: ``race_perfect`` leaves its opponent a multiple of 3 to go when it can."""

from __future__ import annotations

from tabletop_lab.agents import Agent


class PerfectAgent(Agent):
    """Plays the winning move when there is one, else +1."""

    name = "race_perfect"

    @classmethod
    def unsupported_reason(cls, game) -> str | None:
        return None if game.name == "test_race" else "it plays Race only"

    def choose_action(self, state) -> int:
        self._check_supported(state)
        to_go = state.game.options["target"] - state.count
        legal = state.legal_actions()
        winning = [a for a in legal if (to_go - a - 1) % 3 == 0]
        return (winning or legal)[0]


AGENTS = {PerfectAgent.name: PerfectAgent}
