"""A cheap heuristic value of a Capitals position for White (Black's is its negation).

It adds, White minus Black: pieces on the board (a Ram counts both its pieces), prisoners in
the Cages (worth 2 game points to a winning team), the Altar points, eliminated opponents,
and the safety of each team's Capitals (enemy units within two squares of a Capital in play),
then squashes the sum into (-1, 1) with ``tanh``. The compiled kernel's rollouts and search
evaluate with this module's ``white_score`` too (compiled by numba), so it is written once.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .geometry import CAPITALS, IS_RAM, TEAM_OF, chebyshev

if TYPE_CHECKING:
    from .rules import CapitalsState

#: The squares within two of each player's Capital, and how many (a table the kernel pads).
NEAR_CAPITAL = tuple(tuple(s for s in range(64) if chebyshev(s, c) <= 2) for c in CAPITALS)
NEAR_CAPITAL_N = tuple(len(squares) for squares in NEAR_CAPITAL)


def white_value(state: CapitalsState) -> float:
    """White's value of ``state`` in (-1, 1): ``tanh`` of ``white_score``."""
    each_team = state.game.options["altar_scoring"] == "each_team"
    altars = state.game_points() if each_team else [0, 0]
    cages = [len(cage) for cage in state.cages]
    return math.tanh(
        white_score(state.board, cages, state.eliminated, altars[0], altars[1], IS_RAM, TEAM_OF, NEAR_CAPITAL,
                    NEAR_CAPITAL_N)
    )  # fmt: skip


def white_score(board, cages, eliminated, altars0, altars1, is_ram, team_of, near, near_n) -> float:
    """The sum ``white_value`` squashes, White minus Black: from the board's 64 codes, each
    player's Cage size and elimination, each team's Altar points (0 when only the winner
    scores them) and the tables ``IS_RAM``, ``TEAM_OF``, ``NEAR_CAPITAL`` and its lengths.

    Written on plain sequences, with the tables passed in, so that the compiled kernel runs this
    same function (``kernel._white_score`` compiles it with numba, on its arrays): the
    evaluation is defined once.
    """
    material0 = material1 = 0
    for square in range(64):
        code = board[square]
        if code:
            worth = 2 if is_ram[code] else 1
            if team_of[code]:
                material1 += worth
            else:
                material0 += worth
    danger0 = danger1 = 0  # enemy units near a team's Capitals still in play
    out0 = out1 = 0  # eliminated players per team
    for player in range(4):
        team = player & 1
        if eliminated[player]:
            if team:
                out1 += 1
            else:
                out0 += 1
            continue
        squares = near[player]
        for i in range(near_n[player]):
            code = board[squares[i]]
            if code and team_of[code] != team:
                if team:
                    danger1 += 1
                else:
                    danger0 += 1
    return (
        (material0 - material1) / 6
        + (cages[0] + cages[2] - cages[1] - cages[3]) / 12
        + (altars0 - altars1) / 12
        + (out1 - out0) * 0.6
        + (danger1 - danger0) / 10
    )
