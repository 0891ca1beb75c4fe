"""MCTSAgent: UCT with random rollouts, max-n over players, draws worth half a win."""

import math

import pytest

import tests.toy_games
import tests.toy_team  # noqa: F401
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


#: (players, teams, fair share against random players): 1/players alone, 1/2 in two equal teams.
TEAM_GAMES = [(3, "none", 1 / 3), (4, "alternate", 1 / 2), (5, "none", 1 / 5), (6, "alternate", 1 / 2)]


@pytest.mark.parametrize(("players", "teams", "fair"), TEAM_GAMES)
def test_wins_more_than_its_share_in_the_team_race(players, teams, fair):
    """Significantly more than a fair share: the 95% Wilson interval of its score lies above it."""
    from tabletop_lab.stats import wilson

    game = load_game("test_team", players=players, teams=teams)
    n = 60
    score = score_against_random(game, MCTSAgent(iterations=100), n_games=n, seed=1)
    assert wilson(score * n, n)[0] > fair


def race(players, teams, tokens):
    game = load_game("test_team", players=players, teams=teams)
    return game.state_from_dict({"game": "test_team", "tokens": tokens, "to_move": 0})


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("teams", ["none", "alternate"])
def test_completes_its_own_or_a_teammates_win(players, teams):
    """Every token one step from the goal: player 0 wins by advancing its own token or, in teams,
    a teammate's (returns are shared); advancing anyone else's loses."""
    state = race(players, teams, [4] * players)
    mine = {0} if teams == "none" else set(range(0, players, 2))
    wins = {a for a in state.legal_actions() if state.child(a).returns()[0] == 1}
    assert wins == {2 * p + step for p in mine for step in (0, 1)}  # the premise
    for seed in range(3):
        assert MCTSAgent(seed=seed, iterations=100).choose_action(state) in wins


def test_paranoid_assumes_the_others_gang_up():
    """A kingmaker: player 2 wins next turn unless player 1, who cannot win, moves player 0's
    token home. Max-n leaves player 1 indifferent (it loses either way), so bringing player 0
    near the goal looks hopeful; paranoid search knows player 1 will not help."""
    state = race(3, "none", [2, 0, 4])
    for seed in range(2):
        maxn = MCTSAgent(seed=seed, iterations=1000).analyse(state)
        paranoid = MCTSAgent(seed=seed, iterations=1000, paranoid=True).analyse(state)
        assert maxn[0]["move"] in ("0+1", "0+2") and maxn[0]["value"] > -0.5
        assert all(row["value"] < -0.7 for row in paranoid)


def test_paranoid_counts_teammates_in_the_coalition_of_the_root_player():
    """In two teams paranoid is plain two-sided search: player 0 still completes a teammate's win."""
    state = race(4, "alternate", [0, 4, 4, 4])
    assert MCTSAgent(seed=0, iterations=200, paranoid=True).choose_action(state) in (4, 5)


def test_transpositions_are_merged():
    """Nim, two takes of 1-3 per turn: the orders of one turn's takes reach one position, and the
    search graph holds each position once, while the game tree holds it once per path."""
    state = load_game("test_nim", pile=8, max_take=3, actions_per_turn=2).new_initial_state()
    positions, paths = set(), 0
    stack = [state]
    while stack:
        node = stack.pop()
        paths += 1
        positions.add(node.key())
        stack += [node.child(a) for a in node.legal_actions()]
    assert paths > 5 * len(positions)  # the premise
    agent = MCTSAgent(seed=0, iterations=3000)
    agent.choose_action(state)
    assert agent.stats["simulations"] == 3000 and len(positions) - 2 <= agent.stats["nodes"] <= len(positions)


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
        ({"paranoid": 1}, "paranoid must be True or False"),
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


def test_a_position_that_comes_back_within_one_simulation_is_searched_without_error():
    """Cross-endodoi positions can repeat; a simulation that returns to a position through such a
    cycle meets an edge it made moments before and has not backed up yet (this game divided by
    its zero visits)."""
    from tabletop_lab.sim import play_game

    record = play_game("cross_endodoi", ["mcts:iterations=200", "mcts:iterations=200"], seed=1)
    final = record.replay()  # these two cycle until the simulation cap: the game's repeated positions
    assert final.is_terminal() or len(record.actions) == final.game.info.max_actions
