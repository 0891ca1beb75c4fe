"""A cheap heuristic value of a Capitals position for White (Black's is its negation).

It adds, White minus Black: pieces on the board (a Ram counts both its pieces), prisoners in
the Cages (worth 2 game points to a winning team), the Altar points, eliminated opponents,
and the safety of each team's Capitals (enemy units within two squares of a Capital in play),
then squashes the sum into (-1, 1) with ``tanh``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .geometry import CAPITALS, IS_RAM, TEAM_OF, chebyshev

if TYPE_CHECKING:
    from .rules import CapitalsState

_NEAR_CAPITAL = tuple(tuple(s for s in range(64) if chebyshev(s, c) <= 2) for c in CAPITALS)


def white_value(state: CapitalsState) -> float:
    board = state.board
    material = [0, 0]
    for code in board:
        if code:
            material[TEAM_OF[code]] += 2 if IS_RAM[code] else 1
    cages = [len(state.cages[0]) + len(state.cages[2]), len(state.cages[1]) + len(state.cages[3])]
    altars = state.game_points() if state.game.options["altar_scoring"] == "each_team" else [0, 0]
    danger = [0, 0]  # enemy units near a team's Capitals still in play
    out = [0, 0]  # eliminated players per team
    for player in range(4):
        team = player & 1
        if state.eliminated[player]:
            out[team] += 1
            continue
        danger[team] += sum(1 for s in _NEAR_CAPITAL[player] if board[s] and TEAM_OF[board[s]] != team)
    score = (
        (material[0] - material[1]) / 6
        + (cages[0] - cages[1]) / 12
        + (altars[0] - altars[1]) / 12
        + (out[1] - out[0]) * 0.6
        + (danger[1] - danger[0]) / 10
    )
    return math.tanh(score)
