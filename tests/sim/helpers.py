"""Test helpers: a hand-made results frame, and a three-seat game whose turns take two
actions, to test turn counting and seating beyond Cross-endodoi's two seats and one-action
turns (the game is not registered: tests pass the Game itself)."""

from __future__ import annotations

import pandas as pd

from tabletop_lab.core import TERMINAL, Game, GameInfo, Result, State

TURNS = 6  # two per player


class AddUpGame(Game):
    """Three players; a turn is two actions, each adding 1 or 2 to the mover's total.
    After six turns the highest total wins (ties share the win; all equal is a draw)."""

    info = GameInfo(name="add_up", title="Add up", summary="test game", players=(3,), max_actions=100)

    def new_initial_state(self) -> AddUpState:
        return AddUpState(self)


class AddUpState(State):
    def __init__(self, game: AddUpGame):
        super().__init__(game)
        self.totals = [0, 0, 0]
        self.to_move = 0
        self.step = 0  # 0: first action of a turn, 1: second
        self.turns = 0

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        return self.turns == TURNS

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        best = max(self.totals)
        return Result(tuple(p for p in range(3) if self.totals[p] == best), tuple(self.totals), "standard")

    def scores(self) -> list[int]:
        return list(self.totals)

    def mid_turn(self) -> bool:
        return self.step == 1

    def _legal_actions(self) -> list[int]:
        return [1, 2]

    def _illegal_reason(self, action: int) -> str | None:
        if self.is_terminal():
            return "the game is over"
        return None if action in (1, 2) else "add 1 or 2"

    def _apply(self, action: int) -> None:
        self.totals[self.to_move] += action
        if self.step == 0:
            self.step = 1
        else:
            self.step, self.to_move, self.turns = 0, (self.to_move + 1) % 3, self.turns + 1

    def _copy_into(self, new: AddUpState) -> None:
        new.totals = list(self.totals)

    def action_to_string(self, action: int) -> str:
        return str(action)

    def string_to_action(self, text: str) -> int:
        return int(text)

    def to_dict(self) -> dict:
        return {
            "game": "add_up",
            "totals": self.totals,
            "to_move": self.to_move,
            "step": self.step,
            "turns": self.turns,
        }

    def key(self) -> tuple:
        return (tuple(self.totals), self.to_move, self.step, self.turns)


# Five games between A and B. By hand:
#   A: wins g0, g3; draw g2; loss g1; g4 capped -> 2/1/1, score 2.5 of 4
#   B: win g1; draw g2; losses g0, g3           -> 1/1/2, score 1.5 of 4
#   seat 0: wins g0, g1; draw g2; loss g3 -> score 2.5; seat 1: score 1.5
#   first player (seat 1 in g3): win, win, draw, win -> 3.5 of 4
GAMES_SPEC = [
    {"seats": ("A", "B"), "returns": (1, -1), "turns": 10},
    {"seats": ("B", "A"), "returns": (1, -1), "turns": 20},
    {"seats": ("A", "B"), "returns": (0, 0), "turns": 30},
    {"seats": ("B", "A"), "returns": (-1, 1), "first": 1, "turns": 40},
    {"seats": ("A", "B"), "returns": (0, 0), "cap": True, "turns": 1000},
]


def frame(games: list[dict]) -> pd.DataFrame:
    """A two-seat DataFrame shaped like ``simulate``'s from short dicts:
    ``seats`` (agent per seat), ``returns``, ``first`` (default 0), ``cap`` and ``turns``."""
    rows = []
    for i, g in enumerate(games):
        returns, cap = g["returns"], g.get("cap", False)
        winners = [] if cap else [s for s in range(2) if returns[s] > 0] or [0, 1]
        rows.append(
            {
                "game_id": i,
                "agent_0": g["seats"][0],
                "agent_1": g["seats"][1],
                "first_player": g.get("first", 0),
                "winners": winners,
                "returns_0": float(returns[0]),
                "returns_1": float(returns[1]),
                "n_turns": g.get("turns", 10),
                "n_actions": g.get("turns", 10),
                "hit_cap": cap,
                "draw": not cap and winners == [0, 1],
            }
        )
    return pd.DataFrame(rows)
