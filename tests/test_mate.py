"""``analysis.mate.MateSearch``: forced wins within N plies, proved and refuted exactly.

Its answers are checked against the brute force of ``test_analysis`` (every whole move, no
pruning, no table) in positions met near the end of seeded random games, for both sides; the
node limit, the winning line and bad input are checked too. Budgets are fixed (never time).
"""

from __future__ import annotations

import pytest

from tabletop_lab import load_game
from tabletop_lab.analysis.mate import MateSearch
from tests.test_analysis import endgame_positions, exact


@pytest.mark.parametrize(("name", "games", "most"), [("cross_endodoi", 8, 5), ("sinoda", 4, 3), ("capitals", 2, 3)])
def test_it_agrees_with_brute_force(name, games, most):
    positions = endgame_positions(name, games, last=4)
    search = MateSearch(positions[0].game)
    wins = 0
    for position in positions:
        for side in (0, 1):
            for plies in range(1, most + 1):
                expected = exact(position, side, plies) == 1.0
                assert search.wins_within(position, side, plies, nodes=10**6) is expected, (position, side, plies)
                wins += expected
    assert wins >= 4  # the sample holds forced wins, not only their absence


def test_the_node_limit_stops_it_and_what_it_proved_is_kept():
    state = load_game("cross_endodoi").state_from_notation("0,0,0,0,1,1/0,0,0,0,0,1 20-13 0")
    search = MateSearch(state.game)
    assert search.wins_within(state, 0, 5, nodes=2) is None
    assert search.quickest(state, 0, 9, nodes=1000) == (5, True)
    before = search.total_nodes
    assert search.wins_within(state, 0, 7, nodes=1) is True  # known: proven within 5
    assert search.total_nodes == before


def test_its_line_is_a_forced_win_played_out():
    state = load_game("cross_endodoi").state_from_notation("0,0,0,0,1,1/0,0,0,0,0,1 20-13 0")
    line = MateSearch(state.game).line(state, 0, 5, nodes=1000)
    assert line[0] == "4" and len(line) <= 5
    for move in line:
        state.apply_move(move)
    assert state.is_terminal() and state.returns()[0] == 1.0


def test_bad_input_is_refused_clearly():
    game = load_game("cross_endodoi")
    search = MateSearch(game)
    with pytest.raises(ValueError, match="side must be 0 or 1"):
        search.wins_within(game.new_initial_state(), 2, 3, nodes=10)
    with pytest.raises(ValueError, match="plies must be >= 0"):
        search.wins_within(game.new_initial_state(), 0, -1, nodes=10)
    with pytest.raises(ValueError, match="hidden information"):
        MateSearch(load_game("sinomilia"))
