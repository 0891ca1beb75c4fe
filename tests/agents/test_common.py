"""What every agent promises: a legal action, the state untouched, seeded reproducibility, pickling."""

import pickle

import pytest

import tests.toy_games
import tests.toy_hidden  # noqa: F401
from tabletop_lab import load_game
from tabletop_lab.agents import AGENTS, AlphaBetaAgent, GreedyAgent, ISMCTSAgent, MCTSAgent, RandomAgent

from .play import play


def all_agents(seed=1):
    return [
        RandomAgent(seed=seed),
        GreedyAgent(seed=seed),
        MCTSAgent(seed=seed, iterations=60),
        AlphaBetaAgent(seed=seed, depth=3),
        ISMCTSAgent(seed=seed, iterations=60),
    ]


def positions():
    """Start and mid-game positions; one is in the middle of a two-action turn."""
    cross = load_game("cross_endodoi")
    mid_game = cross.state_from_notation("0,3,2,6,6,1/1,1,6,6,3,1 0-0 0")
    played = cross.new_initial_state()
    for move in ("2", "8", "4"):
        played.apply_move(move)
    nim = load_game("test_nim", pile=9, actions_per_turn=2)
    mid_turn = nim.new_initial_state()
    mid_turn.apply_action(1)
    return {
        "cross_start": cross.new_initial_state(),
        "cross_mid_game": mid_game,
        "cross_after_3_moves": played,
        "cross_6_seeds": load_game("cross_endodoi", seeds_per_hole=6, first_player=1).new_initial_state(),
        "cross_pie_offered": load_game("cross_endodoi", pie_rule=True).state_from_notation(  # the swap is legal
            "5,1,0,4,4,4/0,4,4,4,1,5 0-0 1 offered"
        ),
        "nim_mid_turn": mid_turn,
        "draw_trap": load_game("test_draw_trap").new_initial_state(),
    }


POSITIONS = positions()


@pytest.mark.parametrize("agent", all_agents(), ids=lambda a: a.name)
@pytest.mark.parametrize("name", list(POSITIONS))
def test_returns_a_legal_action_and_leaves_the_state_unchanged(agent, name):
    state = POSITIONS[name]
    before = state.clone()
    action = agent.choose_action(state)
    assert action in state.legal_actions()
    assert state == before and state.history() == before.history()
    if not state.mid_turn():
        assert state.to_json() == before.to_json()


@pytest.mark.parametrize("agent", [a for a in all_agents() if hasattr(a, "analyse")], ids=lambda a: a.name)
def test_analyse_leaves_the_state_unchanged(agent):
    state = POSITIONS["cross_after_3_moves"]
    before = state.clone()
    rows = agent.analyse(state)
    assert sorted(row["action"] for row in rows) == state.legal_actions()
    assert state == before and state.history() == before.history() and state.to_json() == before.to_json()


def test_three_players_and_two_action_turns():
    """Every agent but alpha-beta plays whole games of 3-player, 2-action-turn Nim legally."""
    game = load_game("test_nim", players=3, pile=14, actions_per_turn=2)
    for agent in [a for a in all_agents() if a.name != "alphabeta"]:
        seats = [agent, RandomAgent(seed=2), RandomAgent(seed=3)]
        final = play(game.new_initial_state(), seats)  # apply_action would raise on an illegal choice
        assert final.is_terminal() and len(final.result().winners) == 1


@pytest.mark.parametrize("agent", all_agents(), ids=lambda a: a.name)
def test_same_seed_same_game(agent):
    """Two games between identically seeded agents are identical, action for action."""
    start = load_game("cross_endodoi").new_initial_state()
    histories = []
    for _ in range(2):
        twin = type(agent)(seed=7, **agent.settings())
        histories.append(play(start, [twin, RandomAgent(seed=8)]).history())
    assert histories[0] == histories[1]


@pytest.mark.parametrize("agent", [a for a in all_agents() if a.name != "alphabeta"], ids=lambda a: a.name)
def test_reset_restarts_the_randomness(agent):
    state = load_game("cross_endodoi").new_initial_state()
    first = [agent.choose_action(state) for _ in range(8)]
    agent.reset(agent.seed)
    assert [agent.choose_action(state) for _ in range(8)] == first


def test_different_seeds_differ():
    """The seed matters: random agents with different seeds do not all play the same game."""
    start = load_game("cross_endodoi").new_initial_state()
    games = {tuple(play(start, [RandomAgent(seed=s), RandomAgent(seed=s + 100)]).history()) for s in range(5)}
    assert len(games) > 1


@pytest.mark.parametrize("agent", all_agents(), ids=lambda a: a.name)
def test_pickle_round_trip(agent):
    state = POSITIONS["cross_mid_game"]
    agent.choose_action(state)  # a used agent pickles too
    copy = pickle.loads(pickle.dumps(agent))
    assert repr(copy) == repr(agent) and copy.label == agent.label
    assert copy.choose_action(state) == agent.choose_action(state)  # same settings and rng state


@pytest.mark.parametrize("agent", all_agents(), ids=lambda a: a.name)
def test_a_finished_game_has_no_action_to_choose(agent):
    over = load_game("cross_endodoi").state_from_notation("0,0,0,0,0,0/3,3,3,3,3,3 18-0 0")
    with pytest.raises(ValueError, match="game is over"):
        agent.choose_action(over)


@pytest.mark.parametrize(
    "agent", [a for a in all_agents() if a.name in ("greedy", "mcts", "alphabeta")], ids=lambda a: a.name
)
def test_searching_agents_refuse_hidden_information(agent):
    game = load_game("test_hidden_card")
    assert "hidden information" in agent.unsupported_reason(game)
    with pytest.raises(ValueError, match=f"{type(agent).__name__} cannot play test_hidden_card: .*hidden information"):
        agent.choose_action(game.new_initial_state())


@pytest.mark.parametrize("agent", [a for a in all_agents() if a.name in ("random", "ismcts")], ids=lambda a: a.name)
def test_random_and_ismcts_play_hidden_information(agent):
    game = load_game("test_hidden_card", deal=7)
    assert agent.unsupported_reason(game) is None
    final = play(game.new_initial_state(), [agent, RandomAgent(seed=9)])
    assert final.is_terminal()


def test_every_agent_supports_cross_endodoi():
    assert all(cls.unsupported_reason(load_game("cross_endodoi")) is None for cls in AGENTS.values())


def test_labels_and_reprs_show_the_settings():
    assert RandomAgent(seed=3).label == "random" and repr(RandomAgent(seed=3)) == "RandomAgent(seed=3)"
    assert GreedyAgent().label == "greedy"
    assert MCTSAgent(iterations=200).label == "mcts(iterations=200)"
    assert MCTSAgent(seconds=0.5, c=1.4).label == "mcts(seconds=0.5,c=1.4)"
    assert repr(MCTSAgent(seed=2, iterations=50)) == "MCTSAgent(seed=2, iterations=50)"
    assert AlphaBetaAgent(depth=3).label == "alphabeta(depth=3)"
    assert AlphaBetaAgent(seconds=2).label == "alphabeta(seconds=2)"
    assert AlphaBetaAgent(nodes=500).label == "alphabeta(nodes=500)"
    assert MCTSAgent(iterations=50, paranoid=True).label == "mcts(iterations=50,paranoid=True)"
    assert ISMCTSAgent(iterations=50).label == "ismcts(iterations=50)"
