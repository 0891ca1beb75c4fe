"""GreedyAgent: one-step look-ahead on the game's evaluation."""

import pytest

import tests.toy_team  # noqa: F401  (registers the test game)
from tabletop_lab import load_game
from tabletop_lab.agents import GreedyAgent, RandomAgent

from .play import score_against_random

CROSS = load_game("cross_endodoi")


@pytest.mark.parametrize(
    ("notation", "capture"),
    [("4,0,5,5,1,0/4,4,4,0,0,4 5-0 1", 11), ("0,3,2,6,6,1/1,1,6,6,3,1 0-0 0", 4)],
)
def test_takes_the_only_capture(notation, capture):
    state = CROSS.state_from_notation(notation)
    captures = {a: state.child(a).last_move.captured for a in state.legal_actions()}
    assert len(captures) >= 4 and [a for a, c in captures.items() if c] == [capture]  # the premise
    assert {GreedyAgent(seed=s).choose_action(state) for s in range(10)} == {capture}


def test_prefers_an_immediate_win_to_a_bigger_capture():
    state = CROSS.state_from_notation("0,0,0,1,0,0/0,0,0,1,13,2 10-9 1")
    children = {a: state.child(a) for a in state.legal_actions()}
    wins = [a for a, c in children.items() if c.is_terminal() and c.returns()[1] == 1]
    best_capture = max(children, key=lambda a: children[a].last_move.captured)
    assert wins == [9] and best_capture != 9  # the premise
    assert {GreedyAgent(seed=s).choose_action(state) for s in range(10)} == {9}


def test_ties_are_broken_by_the_seed():
    """Several moves tie for the best evaluation at the start; different seeds spread over them."""
    state = CROSS.new_initial_state()
    values = {a: state.child(a).evaluate()[0] for a in state.legal_actions()}
    tied = {a for a, v in values.items() if v == max(values.values())}
    assert len(tied) >= 3  # the premise
    choices = [GreedyAgent(seed=s).choose_action(state) for s in range(30)]
    assert set(choices) == tied
    assert choices == [GreedyAgent(seed=s).choose_action(state) for s in range(30)]


def test_beats_random():
    assert score_against_random(CROSS, GreedyAgent(), n_games=60, seed=1) >= 0.75
    assert score_against_random(CROSS, RandomAgent(), n_games=60, seed=1) < 0.65  # the baseline is not that high


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("teams", ["none", "alternate"])
def test_completes_its_own_or_a_teammates_win(players, teams):
    """Every token one step from home: greedy spreads over exactly the winning advances, its own
    and (in teams) its teammates' tokens."""
    game = load_game("test_team", players=players, teams=teams)
    state = game.state_from_dict({"game": "test_team", "tokens": [4] * players, "to_move": 0})
    mine = {0} if teams == "none" else set(range(0, players, 2))
    assert {GreedyAgent(seed=s).choose_action(state) for s in range(40)} == {2 * p + k for p in mine for k in (0, 1)}


@pytest.mark.parametrize(
    ("players", "teams", "least"), [(3, "none", 0.6), (4, "alternate", 0.7), (6, "alternate", 0.6)]
)
def test_beats_random_in_the_team_race(players, teams, least):
    game = load_game("test_team", players=players, teams=teams)
    assert score_against_random(game, GreedyAgent(), n_games=30, seed=1) >= least
