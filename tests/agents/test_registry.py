"""make_agent and AGENTS: agents by name, with settings, and clear errors."""

import doctest

import pytest

import tabletop_lab.agents
import tabletop_lab.agents.registry
from tabletop_lab.agents import (
    AGENTS,
    AlphaBetaAgent,
    GreedyAgent,
    MCTSAgent,
    RandomAgent,
    make_agent,
)


def test_every_agent_is_registered_under_its_name():
    assert AGENTS == {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent, "alphabeta": AlphaBetaAgent}
    for name, cls in AGENTS.items():
        agent = make_agent(name, seed=4)
        assert type(agent) is cls and agent.name == name and agent.seed == 4


def test_settings_are_parsed():
    agent = make_agent("mcts:iterations=200,c=1.4", seed=3)
    assert (agent.iterations, agent.c, agent.seconds, agent.seed) == (200, 1.4, None, 3)
    assert make_agent(" alphabeta : depth = 3 ").depth == 3
    assert make_agent("mcts:seconds=0.25,c=none").settings() == {"seconds": 0.25}
    assert make_agent("mcts:").iterations == 1000


def test_an_agent_is_returned_and_reseeded():
    agent = GreedyAgent(seed=1)
    assert make_agent(agent) is agent and agent.seed == 1
    assert make_agent(agent, seed=9) is agent and agent.seed == 9


def test_reseeding_restarts_the_randomness():
    from tabletop_lab import load_game

    state = load_game("cross_endodoi").new_initial_state()
    agent = RandomAgent(seed=5)
    first = [agent.choose_action(state) for _ in range(10)]
    make_agent(agent, seed=5)
    assert [agent.choose_action(state) for _ in range(10)] == first


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("minimax", "unknown agent 'minimax'.*valid agents: random, greedy, mcts, alphabeta"),
        ("", "unknown agent ''"),
        ("mcts:depth=3", "agent 'mcts' has no setting depth.*valid settings: iterations, seconds, c"),
        ("greedy:depth=3", "agent 'greedy' has no setting depth.*valid settings: none"),
        ("mcts:iterations", "'iterations' is not of the form key=value"),
        ("mcts:iterations=", "not of the form key=value"),
        ("mcts:iterations=many", "iterations='many' is not a number or 'none'"),
        ("mcts:iterations=1,iterations=2", "'iterations' is given twice"),
        ("mcts:iterations=0", "iterations must be an integer >= 1"),
        ("alphabeta:depth=2.5", "depth must be an integer"),
        (42, "an agent spec is an Agent or a string"),
        (None, "an agent spec is an Agent or a string"),
    ],
)
def test_bad_specs_say_what_is_valid(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


@pytest.mark.parametrize("module", [tabletop_lab.agents, tabletop_lab.agents.registry], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
