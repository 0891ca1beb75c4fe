"""Sinomilia rounds for the play-session tests: a round in play whose set cards a test chooses,
and an agent whose choices cannot depend on its hidden card."""

from __future__ import annotations

from tabletop_lab import load_game
from tabletop_lab.agents import Agent


class PublicAgent(Agent):
    """Sinomilia's Green for the oracle: it plays chips and passes only, never a card, so what
    it does cannot depend on the card it set (a real agent would leak it through its choices)."""

    name = "public"

    def choose_action(self, state):
        legal = self._check_supported(state)
        public = [a for a in legal if state.action_to_string(a) in ("chip sun", "chip moon", "pass")]
        return self.rng.choice(public or legal)


def sinomilia_round(green: int, table: tuple[int, int] = (0, 0), orange: int = 6):
    """Round 1 in play, Orange to move, each player's card set: the deals differ in ``green``."""
    hands = [[k for k in range(10) if k != orange], [k for k in range(10) if k != green]]
    data = {
        "game": "sinomilia",
        "round": 1,
        "phase": "play",
        "start_player": 0,
        "to_move": 0,
        "chips": [15 - (sum(table) + 1) // 2, 15 - sum(table) // 2],  # Orange played first
        "table": list(table),
        "hands": hands,
        "set": [orange, green],
        "discards": [[], []],
        "changed": [False, False],
        "last_action": None if table == (0, 0) else 1,
        "last_turn": "none" if table == (0, 0) else "sun",
        "last_round_winner": None,
        "cap_reached": False,
    }
    return load_game("sinomilia").state_from_dict(data)
