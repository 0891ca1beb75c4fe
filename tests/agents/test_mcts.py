"""MCTSAgent: UCT with random rollouts, max-n over players, draws worth half a win."""

import math

import pytest

import tests.toy_games  # noqa: F401  (registers the test games)
from tabletop_lab import load_game
from tabletop_lab.agents import MCTSAgent, RandomAgent
from tabletop_lab.agents.base import MAX_ITERATIONS
from tabletop_lab.agents.mcts import DEFAULT_C

from .play import score_against_random

CROSS = load_game("cross_endodoi")


def test_beats_random_at_cross_endodoi():
    assert score_against_random(CROSS, MCTSAgent(iterations=50), n_games=40, seed=2) >= 0.8


def test_wins_more_than_its_share_with_three_players():
    """Against two random players a fair share is 1/3; MCTS must follow its own component."""
    game = load_game("test_nim", players=3, pile=12)
    assert score_against_random(game, MCTSAgent(iterations=100), n_games=90, seed=3) >= 0.5


def test_wins_more_than_its_share_with_three_players_and_two_action_turns():
    game = load_game("test_nim", players=3, pile=15, actions_per_turn=2)
    assert score_against_random(game, MCTSAgent(iterations=100), n_games=90, seed=4) >= 0.5


@pytest.mark.parametrize("seed", range(3))
def test_plays_both_actions_of_a_winning_turn(seed):
    """Nim, two takes of 1-2 per turn: from 7 the only winning turn is 1 then 1, leaving 5.

    After the first take the same player moves again; a search flipping sign every ply
    would take the wrong second stone.
    """
    state = load_game("test_nim", pile=7, actions_per_turn=2).new_initial_state()
    agent = MCTSAgent(seed=seed, iterations=300)
    state.apply_action(agent.choose_action(state))
    assert state.mid_turn() and state.current_player() == 0
    state.apply_action(agent.choose_action(state))
    assert state.pile == 5 and state.current_player() == 1


@pytest.mark.parametrize("seed", range(3))
def test_takes_a_forced_draw_rather_than_a_forced_loss(seed):
    """Fighting wins 4 random replies in 5, but the opponent has the winning one: draw instead."""
    state = load_game("test_draw_trap").new_initial_state()
    agent = MCTSAgent(seed=seed, iterations=200)
    assert state.action_to_string(agent.choose_action(state)) == "draw"
    rows = {row["move"]: row for row in agent.analyse(state)}
    assert rows["draw"]["value"] == 0.0  # a draw counts 0, half way between -1 and +1
    assert rows["fight"]["value"] < -0.2  # the opponent's node learned to reply with its win


def test_analyse_reports_visits_and_values():
    state = CROSS.state_from_notation("0,3,2,6,6,1/1,1,6,6,3,1 0-0 0")
    rows = MCTSAgent(seed=0, iterations=300).analyse(state)
    assert [row["visits"] for row in rows] == sorted((row["visits"] for row in rows), reverse=True)
    assert sum(row["visits"] for row in rows) == 300  # exactly `iterations` simulations
    assert sorted(row["action"] for row in rows) == state.legal_actions()
    assert all(row["move"] == state.action_to_string(row["action"]) for row in rows)
    assert all(-1.0 <= row["value"] <= 1.0 for row in rows)


def test_analyse_lists_unvisited_actions_without_a_value():
    state = CROSS.new_initial_state()
    rows = MCTSAgent(seed=0, iterations=4).analyse(state)
    assert len(rows) == 6 and sum(row["visits"] for row in rows) == 4
    assert [row["value"] is None for row in rows] == [False] * 4 + [True] * 2


def test_choice_is_the_most_visited_action():
    state = CROSS.state_from_notation("4,0,5,5,1,0/4,4,4,0,0,4 5-0 1")
    rows = MCTSAgent(seed=5, iterations=400).analyse(state)
    assert rows[0]["visits"] > rows[1]["visits"]
    assert MCTSAgent(seed=5, iterations=400).choose_action(state) == rows[0]["action"]


def test_rollouts_stop_at_the_cap_and_score_the_evaluation():
    """With a cap of 3 actions no rollout reaches the end of a 30-stone pile, so every value is
    the evaluation of an unfinished game: 0 in Nim."""
    game = load_game("test_nim", pile=30)
    game.info = type(game.info)(**{**game.info.__dict__, "max_actions": 3})
    rows = MCTSAgent(seed=0, iterations=100).analyse(game.new_initial_state())
    assert [row["value"] for row in rows] == [0.0, 0.0]
    uncapped = MCTSAgent(seed=0, iterations=100).analyse(load_game("test_nim", pile=30).new_initial_state())
    assert any(row["value"] != 0.0 for row in uncapped)


def test_a_single_legal_action_is_played_without_search():
    state = load_game("test_nim", pile=1).new_initial_state()
    assert MCTSAgent(seed=0, iterations=MAX_ITERATIONS).choose_action(state) == 1  # minutes if it searched


def test_seconds_budget_runs_at_least_one_simulation():
    rows = MCTSAgent(seed=0, seconds=1e-9).analyse(CROSS.new_initial_state())
    assert sum(row["visits"] for row in rows) >= 1


def test_default_exploration_constant_suits_returns_in_minus_one_one():
    assert DEFAULT_C == pytest.approx(2 * math.sqrt(2))
    assert MCTSAgent().c is None and MCTSAgent(c=0).c == 0


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": 0}, "iterations must be an integer >= 1"),
        ({"iterations": 2.5}, "iterations must be an integer"),
        ({"iterations": True}, "iterations must be an integer"),
        ({"seconds": 0}, "seconds must be a number > 0"),
        ({"seconds": "1"}, "seconds must be a number"),
        ({"c": -1}, "c must be a number >= 0"),
        ({"c": float("nan")}, "c must be a number"),
    ],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        MCTSAgent(**settings)


def test_random_rollouts_use_the_agents_seed_only():
    """Same seed, same statistics; another seed, other statistics."""
    state = CROSS.new_initial_state()
    first = MCTSAgent(seed=1, iterations=200).analyse(state)
    assert MCTSAgent(seed=1, iterations=200).analyse(state) == first
    assert MCTSAgent(seed=2, iterations=200).analyse(state) != first
    RandomAgent(seed=1)  # other agents' rngs are separate objects
