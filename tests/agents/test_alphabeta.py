"""AlphaBetaAgent: depth-limited negamax for two-player zero-sum perfect-information games."""

import pytest

import tests.toy_games  # noqa: F401  (registers the test games)
from tabletop_lab import load_game
from tabletop_lab.agents import AlphaBetaAgent, GreedyAgent

from .play import score_against_random, wins_within

CROSS = load_game("cross_endodoi")

#: Positions where the mover forces a win within 3 actions with exactly one move, not within 1.
FORCED_WINS = [("1,2,1,1,7,0/0,0,0,1,0,0 14-9 0", 4), ("1,0,0,1,0,0/2,1,0,1,0,3 5-22 1", 11)]


@pytest.mark.parametrize(("notation", "winning"), FORCED_WINS)
def test_finds_a_forced_win_that_one_ply_misses(notation, winning):
    state = CROSS.state_from_notation(notation)
    me = state.current_player()
    assert wins_within(state, me, 3) and not wins_within(state, me, 1)  # the premise, by brute force
    assert [a for a in state.legal_actions() if wins_within(state.child(a), me, 2)] == [winning]
    assert GreedyAgent(seed=0).choose_action(state) != winning
    assert {AlphaBetaAgent(seed=s, depth=3).choose_action(state) for s in range(5)} == {winning}
    rows = AlphaBetaAgent(depth=3).analyse(state)
    assert rows[0] == {"action": winning, "move": str(winning), "value": 1.0}
    assert all(row["value"] < 1.0 for row in rows[1:])


def test_values_match_brute_force_minimax():
    """analyse() gives the exact depth-limited minimax value of every action, pruning or not."""

    def minimax(state, player, depth):
        if state.is_terminal() or depth == 0:
            values = state.returns() if state.is_terminal() else state.evaluate()
            return values[player]
        options = [minimax(state.child(a), player, depth - 1) for a in state.legal_actions()]
        return max(options) if state.current_player() == player else min(options)

    for notation, _ in FORCED_WINS + [("0,3,2,6,6,1/1,1,6,6,3,1 0-0 0", None)]:
        state = CROSS.state_from_notation(notation)
        me = state.current_player()
        for depth in (1, 2, 4):
            rows = AlphaBetaAgent(depth=depth).analyse(state)
            expected = {a: minimax(state.child(a), me, depth - 1) for a in state.legal_actions()}
            assert {row["action"]: row["value"] for row in rows} == pytest.approx(expected)


def test_nim_solved_at_full_depth():
    """Two-player Nim taking 1-3: the mover wins by leaving a multiple of 4."""
    for pile in (5, 6, 7, 9, 10, 11):
        state = load_game("test_nim", pile=pile, max_take=3).new_initial_state()
        assert AlphaBetaAgent(seed=0, depth=pile).choose_action(state) == pile % 4


def test_follows_the_player_through_a_two_action_turn():
    """Nim with two takes of 1-2 per turn: from 7 only 1 then 1 wins (leaving 5); depth counts
    actions, so seeing the win takes 6 of them (this turn's 2, the reply's 2, the next turn's 2)."""
    game = load_game("test_nim", pile=7, actions_per_turn=2)
    state = game.new_initial_state()
    values = {row["move"]: row["value"] for row in AlphaBetaAgent(depth=6).analyse(state)}
    assert values == {"1": 1.0, "2": -1.0}
    for seed in range(3):
        agent = AlphaBetaAgent(seed=seed, depth=6)
        turn = state.clone()
        turn.apply_action(agent.choose_action(turn))
        assert turn.mid_turn() and turn.current_player() == 0
        turn.apply_action(agent.choose_action(turn))
        assert turn.pile == 5 and turn.current_player() == 1


def test_takes_a_forced_draw_rather_than_a_forced_loss():
    state = load_game("test_draw_trap").new_initial_state()
    assert AlphaBetaAgent(seed=0, depth=2).analyse(state) == [
        {"action": 0, "move": "draw", "value": 0.0},
        {"action": 1, "move": "fight", "value": -1.0},
    ]


def test_ties_are_broken_by_the_seed():
    """At depth 1 from the start several moves tie; seeds spread over exactly those."""
    state = CROSS.new_initial_state()
    rows = AlphaBetaAgent(depth=1).analyse(state)
    tied = {row["action"] for row in rows if row["value"] == rows[0]["value"]}
    assert len(tied) >= 3  # the premise
    assert {AlphaBetaAgent(seed=s, depth=1).choose_action(state) for s in range(30)} == tied


def test_iterative_deepening_with_a_time_budget_finds_the_win():
    notation, winning = FORCED_WINS[0]
    state = CROSS.state_from_notation(notation)
    assert AlphaBetaAgent(seed=0, seconds=0.5).choose_action(state) == winning


def test_a_tiny_time_budget_still_gives_a_legal_action():
    state = CROSS.new_initial_state()
    assert AlphaBetaAgent(seed=0, seconds=1e-9).choose_action(state) in state.legal_actions()


def test_beats_random_at_cross_endodoi():
    assert score_against_random(CROSS, AlphaBetaAgent(depth=2), n_games=60, seed=5) >= 0.8


def test_refuses_games_of_more_than_two_players():
    state = load_game("test_nim", players=3).new_initial_state()
    with pytest.raises(ValueError, match="two-player zero-sum games only; test_nim has 3 players"):
        AlphaBetaAgent().choose_action(state)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"depth": 0}, "depth must be an integer >= 1"),
        ({"depth": 2.0}, "depth must be an integer"),
        ({"seconds": -1}, "seconds must be a number > 0"),
    ],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        AlphaBetaAgent(**settings)
