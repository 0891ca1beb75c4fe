"""Sinomilia agents: seeded, legal, blind to the opponent's card, better than random."""

import random

import pytest

from tabletop_lab import load_game
from tabletop_lab.agents import ISMCTSAgent, RandomAgent
from tabletop_lab.games.sinomilia.agents import HeuristicAgent

from .helpers import play, random_states
from .test_hidden import with_hidden_card

GAME = load_game("sinomilia")


def play_game(agents, seed):
    state = GAME.new_initial_state()
    for seat, agent in enumerate(agents):
        agent.reset(seed * 10 + seat)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose_action(state))
    return state


@pytest.mark.parametrize("bluff", [-0.1, 1.5, "0.2", True, float("nan"), None])
def test_bluff_rate_is_validated(bluff):
    with pytest.raises(ValueError, match="bluff must be a number from 0 to 1"):
        HeuristicAgent(seed=0, bluff=bluff)


def test_settings_and_label():
    agent = HeuristicAgent(seed=3, bluff=0.5)
    assert agent.settings() == {"bluff": 0.5} and agent.label == "sinomilia_heuristic(bluff=0.5)"


def test_seeded_games_replay_exactly():
    a = play_game([HeuristicAgent(), HeuristicAgent()], seed=5)
    b = play_game([HeuristicAgent(), HeuristicAgent()], seed=5)
    assert a.history() == b.history()


def test_choices_never_depend_on_the_opponents_hidden_card():
    rng = random.Random(0)
    for state in random_states(11, n_games=6):
        if state.is_terminal():
            continue
        me = state.current_player()
        hidden = state.to_dict()["set"][1 - me]
        if hidden is None:
            continue
        other = with_hidden_card(state, 1 - me, rng.choice(state.to_dict()["hands"][1 - me]))
        for seed in range(3):
            assert HeuristicAgent(seed=seed).choose_action(state) == HeuristicAgent(seed=seed).choose_action(other)


def test_plays_toward_its_card():
    state = play(GAME.new_initial_state(), "set 3", "set 7")
    assert state.action_to_string(HeuristicAgent(seed=0, bluff=0).choose_action(state)) == "chip sun"
    play(state, "chip sun", "chip sun")  # T = 2: one more reaches 3, a moon chip
    assert state.action_to_string(HeuristicAgent(seed=0, bluff=0).choose_action(state)) == "chip moon"
    play(state, "chip sun", "pass")  # T = 3 = Orange's card, Green passed: Orange passes and the round ends
    assert state.action_to_string(HeuristicAgent(seed=0, bluff=0).choose_action(state)) == "pass"


def test_changes_when_the_table_ran_past_its_card():
    state = play(GAME.new_initial_state(), "set 7", "set 1", "chip sun", "chip sun", "chip sun", "chip sun")
    assert state.to_dict()["table"] == [4, 0] and state.current_player() == 0
    play(state, "chip sun")  # T = 5 and Green (set 1) is to move, far past its card
    assert state.action_to_string(HeuristicAgent(seed=0, bluff=0).choose_action(state)) == "change 5"


def test_bluff_rate_sets_how_often_moon_chips_are_played_when_past_the_card():
    state = play(GAME.new_initial_state(), "set 7", "set 0", "chip sun", "change 0", "chip sun")
    # Green holds 0, T = 2, Green changed already: only a bluff or a pass
    choices = [HeuristicAgent(seed=s, bluff=0.3).choose_action(state) for s in range(400)]
    moons = choices.count(state.string_to_action("chip moon")) / len(choices)
    assert 0.2 < moons < 0.4
    assert {state.action_to_string(a) for a in choices} == {"chip moon", "pass"}
    assert all(HeuristicAgent(seed=s, bluff=0).choose_action(state) == 22 for s in range(20))


def test_beats_random_play():
    wins = 0
    for seed in range(120):
        seats = [HeuristicAgent(), RandomAgent()] if seed % 2 else [RandomAgent(), HeuristicAgent()]
        heuristic_seat = 0 if seed % 2 else 1
        wins += heuristic_seat in play_game(seats, seed).result().winners
    assert wins > 80  # random play would win about half


def test_simulate_plays_the_heuristic_agent():
    from tabletop_lab.sim import simulate

    frame = simulate(GAME, [HeuristicAgent(bluff=0.1), "random"], 12, seed=2, progress=False)
    assert len(frame) == 12
    assert set(frame["reason"]) <= {"chips", "hand", "cap"}
    again = simulate(GAME, [HeuristicAgent(bluff=0.1), "random"], 12, seed=2, progress=False)
    assert list(frame["final"]) == list(again["final"])


def test_refuses_other_games():
    with pytest.raises(ValueError, match="plays Sinomilia only"):
        HeuristicAgent(seed=0).choose_action(load_game("cross_endodoi").new_initial_state())


def test_shared_ismcts_plays_sinomilia_blind_to_the_hidden_card():
    state = play(GAME.new_initial_state(), "set 3", "set 5", "chip sun")
    base = GAME.state_from_dict(state.to_dict())
    for card in (0, 8):
        other = with_hidden_card(base, 1, card)  # Green's card, hidden from Orange (to move)
        assert ISMCTSAgent(seed=1, iterations=40).choose_action(other) == ISMCTSAgent(
            seed=1, iterations=40
        ).choose_action(base)
