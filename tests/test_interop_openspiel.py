"""Every game as an OpenSpiel game: OpenSpiel's own random simulation test, its algorithms, and the
mapping of options, hidden information and bad input."""

import json

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, mcts

from tabletop_lab import load_game as load_engine
from tabletop_lab.errors import RulesError
from tabletop_lab.games.sinoda.geometry import board_data
from tabletop_lab.interop.openspiel import load_game

CASES = [
    ("cross_endodoi", {}),
    ("cross_endodoi", {"seeds_per_hole": 6, "skip_origin": True}),
    ("sygo", {"size": 9}),
    ("sygo", {"size": 5, "growth": "all", "balancing": False}),
    ("sygo", {"size": 5, "komi": 2.5}),
    ("sinoda", {}),
    ("sinoda", {"players": 4, "teams": "pairs"}),
    ("sinoda", {"board": board_data(2)}),
    ("sinomilia", {}),
    ("sinomilia", {"round_cap": None, "first_player": 1}),
    ("capitals", {}),
    ("capitals", {"capture_removal": "immediate", "transfers_per_turn": 2, "max_cycles": 15}),
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{json.dumps(o)}" for n, o in CASES])
def test_openspiel_random_sim_test_passes(name, options):
    game = load_game(name, **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_info_is_the_engines():
    game = load_game("sinoda", players=3)
    engine = load_engine("sinoda", players=3)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == engine.num_distinct_actions()
    assert game.observation_tensor_shape() == engine.observation_tensor_shape()
    assert game.max_game_length() == engine.info.max_actions
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert load_game("capitals").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert load_game("sinomilia").get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def test_states_play_as_the_engine_and_observe_only_the_own_view():
    game = load_game("sinomilia")
    state = game.new_initial_state()
    engine = load_engine("sinomilia").new_initial_state()
    for text in ("set 3", "set 7", "chip sun"):
        action = engine.string_to_action(text)
        state.apply_action(action)
        engine.apply_action(action)
    assert state.current_player() == engine.current_player() == 1
    for player in (0, 1):
        assert state.information_state_string(player) == engine.information_state_string(player)
        assert state.observation_tensor(player) == pytest.approx(engine.observation_tensor(player))
    assert "set ?" in state.information_state_string(0)  # Green's card stays hidden from Orange


def test_moves_of_several_actions_are_consecutive_actions_of_one_player():
    game = load_game("sygo", size=5)
    state = game.new_initial_state()
    for text in ("place c3", "place a1", "grow c2"):
        state.apply_action(state.engine.string_to_action(text))
    assert state.engine.mid_turn() and state.current_player() == 0
    state.apply_action(state.engine.string_to_action("finish"))
    assert state.current_player() == 1


def test_parameters_round_trip_through_pyspiel_null_as_0_and_boards_as_json():
    game = pyspiel.load_game("tabletop_lab_sinomilia(round_cap=0)")
    assert game.engine.options["round_cap"] is None
    assert load_game("sinomilia", round_cap=None).get_parameters()["round_cap"] == 0
    board = board_data(2)
    game = load_game("sinoda", board=board)
    assert game.engine.options["board"] == board and game.get_parameters()["board"].startswith("json64:")
    again = pyspiel.load_game(str(game))
    assert again.engine == game.engine
    komi = load_game("sygo", size=5, komi=3)  # a float option is a float parameter, whole or not
    assert komi.get_parameters()["komi"] == 3.0 and type(komi.get_parameters()["komi"]) is float
    assert pyspiel.load_game(str(komi)).engine.options["komi"] == 3.0


@pytest.mark.parametrize(
    ("options", "named"), [({"size": "9"}, "size"), ({"balancing": 1}, "balancing"), ({"colour": "W"}, "colour")]
)
def test_wrong_options_name_the_option(options, named):
    with pytest.raises(RulesError, match=named):
        load_game("sygo", **options)


def test_an_illegal_action_raises_and_leaves_the_state_unchanged():
    state = load_game("cross_endodoi").new_initial_state()
    before = str(state)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(7)  # hole 7 is North's; South is to move
    assert str(state) == before and state.history() == []


def test_openspiel_mcts_plays_a_game_against_a_random_bot():
    game = load_game("cross_endodoi")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=20, evaluator=evaluator, random_state=rng),
        pyspiel.make_uniform_random_bot(1, 7),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 2 and sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
