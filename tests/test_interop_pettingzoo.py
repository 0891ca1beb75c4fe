"""Every game as a PettingZoo AEC environment: PettingZoo's own API and seed tests, and its
documented responses to bad input."""

import json
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tabletop_lab import load_game
from tabletop_lab.errors import RulesError
from tabletop_lab.interop.pettingzoo import env

CASES = [
    ("cross_endodoi", {}),
    ("sygo", {}),
    ("sygo", {"size": 5, "growth": "all"}),
    ("sinoda", {}),
    ("sinoda", {"players": 6, "teams": "pairs"}),
    ("sinomilia", {}),
    ("capitals", {}),
]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{json.dumps(o)}" for n, o in CASES])
def test_pettingzoo_api_and_seed_tests_pass(name, options):
    with warnings.catch_warnings():
        # PettingZoo warns about dict observations for environments outside its own list
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env(name, **options), num_cycles=1000)
        seed_test(lambda: env(name, **options), num_cycles=500)


def play_random(environment, seed):
    """Play masked random actions to the end; the list of (agent, action) played."""
    rng = np.random.default_rng(seed)
    environment.reset(seed=seed)
    played = []
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append((agent, action))
        environment.step(action)
    return played


@pytest.mark.parametrize("name", ["sygo", "capitals"])
def test_moves_of_several_actions_are_steps_of_one_agent(name):
    options = {"size": 5} if name == "sygo" else {}
    environment = env(name, **options)
    repeats = 0
    for seed in range(3):
        played = play_random(environment, seed)
        state = load_game(name, **options).new_initial_state()
        for agent, action in played:
            assert agent == f"player_{state.current_player()}"
            repeats += state.mid_turn()
            state.apply_action(action)
        assert state.is_terminal() and state.history() == environment.unwrapped.state.history()
    assert repeats > 0  # some move took several actions, all by the same agent


def test_final_rewards_are_the_engine_returns_teammates_alike():
    environment = env("capitals")
    returns = None
    rng = np.random.default_rng(5)
    environment.reset()
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            if returns is None:
                returns = environment.unwrapped.state.returns()
            assert reward == returns[int(agent.split("_")[1])]
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert returns[0] == returns[2] and returns[1] == returns[3]


def test_an_illegal_action_ends_the_game_for_its_agent_and_leaves_the_state_unchanged():
    environment = env("cross_endodoi")
    environment.reset()
    environment.step(1)
    before = environment.unwrapped.state.to_json()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's own "illegal move" warning
        environment.step(0)  # hole 0 is South's; North is to move
    raw = environment.unwrapped
    assert raw.state.to_json() == before and raw.state.history() == [1]
    assert all(raw.terminations.values())
    assert raw._cumulative_rewards == {"player_0": 0.0, "player_1": -1.0}


def test_an_action_outside_the_space_is_refused():
    environment = env("sinomilia")
    environment.reset()
    with pytest.raises(AssertionError):
        environment.step(23)
    assert environment.unwrapped.state.history() == []


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"seeds_per_hole": "3"}, "seeds_per_hole"),
        ({"first_player": True}, "first_player"),
        ({"render_mode": "human"}, "render_mode"),
        ({"max_actions": 0}, "max_actions"),
        ({"colour": 1}, "colour"),
    ],
)
def test_wrong_options_name_the_option(options, named):
    with pytest.raises(RulesError, match=named):
        env("cross_endodoi", **options)


def test_a_game_past_max_actions_is_truncated():
    environment = env("sinoda", max_actions=5)
    environment.reset()
    for _ in range(5):
        observation, *_ = environment.last()
        environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    raw = environment.unwrapped
    assert all(raw.truncations.values()) and not any(raw.terminations.values())
    assert raw._cumulative_rewards == dict.fromkeys(raw.possible_agents, 0.0)
    assert len(raw.state.history()) == 5 and not raw.state.is_terminal()


def test_ansi_render_is_the_position_text():
    environment = env("cross_endodoi", render_mode="ansi")
    environment.reset()
    assert environment.render() == "3,3,3,3,3,3/3,3,3,3,3,3 0-0 0"
