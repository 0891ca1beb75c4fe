"""make_agent and AGENTS: agents by name, with settings, and clear errors."""

import doctest

import pytest

import tabletop_lab.agents
import tabletop_lab.agents.registry
import tests.toy_games
import tests.toy_hidden
import tests.toy_team  # noqa: F401
from tabletop_lab import load_game
from tabletop_lab.agents import (
    AGENTS,
    AlphaBetaAgent,
    GreedyAgent,
    ISMCTSAgent,
    MCTSAgent,
    RandomAgent,
    agents_for,
    make_agent,
)


def test_every_agent_is_registered_under_its_name():
    assert AGENTS == {
        "random": RandomAgent,
        "greedy": GreedyAgent,
        "mcts": MCTSAgent,
        "alphabeta": AlphaBetaAgent,
        "ismcts": ISMCTSAgent,
    }
    for name, cls in AGENTS.items():
        agent = make_agent(name, seed=4)
        assert type(agent) is cls and agent.name == name and agent.seed == 4


def test_settings_are_parsed():
    agent = make_agent("mcts:iterations=200,c=1.4", seed=3)
    assert (agent.iterations, agent.c, agent.seconds, agent.seed) == (200, 1.4, None, 3)
    assert make_agent(" alphabeta : depth = 3 ").depth == 3
    assert make_agent("mcts:seconds=0.25,c=none").settings() == {"seconds": 0.25}
    assert make_agent("mcts:").iterations == 1000
    assert make_agent("mcts:paranoid=true").paranoid is True
    assert make_agent("mcts:paranoid=False").paranoid is False
    assert make_agent("alphabeta:nodes=500").settings() == {"nodes": 500}


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        (("cross_endodoi", {}), ["random", "greedy", "mcts", "alphabeta", "ismcts", "expert"]),
        (("test_nim", {"players": 3}), ["random", "greedy", "mcts", "ismcts"]),
        (("test_team", {"players": 4, "teams": "alternate"}), ["random", "greedy", "mcts", "ismcts"]),
        (("test_hidden_card", {}), ["random", "ismcts"]),
    ],
)
def test_agents_for_a_game_are_those_that_support_it(game, expected):
    name, options = game
    assert agents_for(load_game(name, **options)) == expected
    for agent in expected:
        assert make_agent(agent, seed=1, game=load_game(name, **options)).name == agent


@pytest.mark.parametrize(
    ("spec", "game", "message"),
    [
        (
            "alphabeta:depth=2",
            load_game("test_nim", players=3),
            "agent 'alphabeta' cannot play test_nim: it searches two-player zero-sum games; this one has 3 "
            "players .*; agents for test_nim: random, greedy, mcts, ismcts",
        ),
        (
            "mcts",
            load_game("test_hidden_card"),
            "agent 'mcts' cannot play test_hidden_card: it searches the true state, which holds hidden "
            "information here .*; agents for test_hidden_card: random, ismcts",
        ),
        (GreedyAgent(seed=1), load_game("test_hidden_card"), "agent 'greedy' cannot play test_hidden_card"),
    ],
)
def test_an_agent_that_cannot_play_the_game_is_refused(spec, game, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, seed=2, game=game)


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
        ("minimax", "unknown agent 'minimax'.*valid agents: random, greedy, mcts, alphabeta, ismcts"),
        ("", "unknown agent ''"),
        ("mcts:depth=3", "agent 'mcts' has no setting depth.*valid settings: iterations, seconds, c, paranoid"),
        ("greedy:depth=3", "agent 'greedy' has no setting depth.*valid settings: none"),
        ("mcts:iterations", "'iterations' is not of the form key=value"),
        ("mcts:iterations=", "not of the form key=value"),
        ("mcts:iterations=many", "iterations='many' is not a number, 'true', 'false' or 'none'"),
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


def test_a_games_own_agents_are_listed_and_built_for_that_game_only():
    from tabletop_lab.games.sinomilia.agents import HeuristicAgent
    from tabletop_lab.sim import simulate

    sinomilia = load_game("sinomilia")
    assert agents_for(sinomilia)[-2:] == ["sinomilia_heuristic", "expert"] and "sinomilia_heuristic" not in AGENTS
    agent = make_agent("sinomilia_heuristic:bluff=0.5,moon=false", seed=2, game=sinomilia)
    assert type(agent) is HeuristicAgent and (agent.bluff, agent.moon, agent.seed) == (0.5, False, 2)
    with pytest.raises(ValueError, match="unknown agent 'sinomilia_heuristic'.*a game's own, given game="):
        make_agent("sinomilia_heuristic")
    assert "sinomilia_heuristic" not in agents_for(load_game("cross_endodoi"))
    with pytest.raises(ValueError, match="valid agents for cross_endodoi: random, greedy"):
        make_agent("sinomilia_heuristic", game=load_game("cross_endodoi"))
    df = simulate("sinomilia", ["sinomilia_heuristic", "random"], 4, seed=1, progress=False)
    assert set(df.agent_0) | set(df.agent_1) == {"sinomilia_heuristic(bluff=0.2)", "random"}


def test_agents_have_display_names_in_words_and_labels_stay_as_they_were():
    from tabletop_lab import load_game

    named = {
        "random": "Random",
        "greedy": "Greedy",
        "mcts:iterations=300": "MCTS, 300 playouts",
        "mcts:seconds=2": "MCTS, 2 s per move",
        "alphabeta:depth=3": "Alpha-beta, depth 3",
        "alphabeta:nodes=5000": "Alpha-beta, at most 5000 positions",
        "ismcts:iterations=300": "ISMCTS, 300 playouts",
    }
    for spec, words in named.items():
        assert make_agent(spec).display_name == words
    assert make_agent("mcts:iterations=300").label == "mcts(iterations=300)"  # what saved studies store
    heuristic = make_agent("sinomilia_heuristic:bluff=0.5,moon=false", game=load_game("sinomilia"))
    assert heuristic.display_name == "Heuristic, bluffs 50%, never plays moon chips"
    assert heuristic.label == "sinomilia_heuristic(bluff=0.5,moon=False)"
