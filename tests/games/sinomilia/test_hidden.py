"""Sinomilia hidden information (spec 7.2): observations, masked actions, round reports, resampling."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_lab import GameRecord, load_game

from .helpers import load, play, random_states

GAME = load_game("sinomilia")


def with_hidden_card(state, player, card):
    """The position of ``state`` with ``player``'s set card replaced by ``card`` (from their hand)."""
    data = state.to_dict()
    old = data["set"][player]
    data["set"][player] = card
    data["hands"][player] = sorted(set(data["hands"][player]) - {card} | {old})
    return state.game.state_from_dict(data)


def test_observation_masks_the_opponents_card_and_hand():
    state = play(GAME.new_initial_state(), "set 3")
    seen = state.observation(1)
    assert list(seen)[:2] == ["game", "observer"] and seen["observer"] == 1
    assert seen["set"] == ["?", None] and seen["hands"] == [None, list(range(10))]
    own = state.observation(0)
    assert own["set"] == [3, None] and own["hands"][0] == [0, 1, 2, 4, 5, 6, 7, 8, 9] and own["hands"][1] is None
    keys = list(state.to_dict())
    assert list(seen) == keys[:1] + ["observer"] + keys[1:] + ["last_round"]
    assert seen["last_round"] is None


def test_unset_card_stays_null():
    assert GAME.new_initial_state().observation(1)["set"] == [None, None]


def test_masked_action_strings():
    state = GAME.new_initial_state()
    assert state.observed_action_string(3, 0) == "set 3"
    assert state.observed_action_string(3, 1) == "set ?"
    play(state, "set 3", "set 5", "chip moon")
    assert state.observed_action_string(state.string_to_action("change 2"), 1) == "change 2"
    assert state.observed_action_string(state.string_to_action("change 2"), 0) == "change ?"
    assert state.observed_action_string(state.string_to_action("chip sun"), 0) == "chip sun"
    play(state, "change 2")
    assert state.information_state_string(0).endswith("| set 3 set ? chip moon change ?")
    assert state.information_state_string(1).endswith("| set ? set 5 chip moon change 2")


def test_round_report_is_public_after_the_reveal_and_not_in_the_position():
    state = play(GAME.new_initial_state(), "set 4", "set 6", "chip moon", "pass")
    report = state.last_round_report
    assert report.cards == (4, 6) and report.table == 1 and report.moon == 1 and report.winner == 0
    assert report.decided == "distance" and report.owed == 3 and report.paid == 3 and report.table_taken == 1
    for p in (0, 1):
        assert state.observation(p)["last_round"] == report.to_dict()
    assert "last_round" not in state.to_dict()
    loaded = GAME.state_from_json(state.to_json())
    assert loaded == state and loaded.last_round_report is None  # the report is not part of the position


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 100_000))
def test_observations_never_depend_on_the_opponents_hidden_card(seed):
    rng = random.Random(seed)
    for state in random_states(seed, n_games=2):
        for player in (0, 1):
            opponent = 1 - player
            seen = state.observation(player)
            assert seen["hands"][opponent] is None
            assert seen["set"][opponent] in (None, "?")
            card = state.to_dict()["set"][opponent]
            if card is None:
                continue
            base = state.game.state_from_dict(state.to_dict())  # no history, no report: compare like with like
            other = with_hidden_card(state, opponent, rng.choice(state.to_dict()["hands"][opponent]))
            assert other.to_dict()["set"][opponent] != card
            assert other.observation(player) == base.observation(player)
            assert other.information_state_string(player) == base.information_state_string(player)
            assert seen["set"][opponent] == "?" != card


def test_played_histories_with_different_hidden_cards_look_the_same():
    a = play(GAME.new_initial_state(), "set 3", "set 5", "change 1", "chip sun")
    b = play(GAME.new_initial_state(), "set 8", "set 5", "change 0", "chip sun")
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation(1) == b.observation(1)
    assert a.information_state_string(0) != b.information_state_string(0)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 100_000))
def test_resample_is_consistent_with_what_the_player_knows(seed):
    rng = random.Random(seed)
    for state in random_states(seed, n_games=1):
        for player in (0, 1):
            twin = state.resample(player, rng)
            assert twin.observation(player) == state.observation(player)
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.to_dict()["hands"][player] == state.to_dict()["hands"][player]
            assert GAME.state_from_json(twin.to_json()) == twin
            replayed = GameRecord.from_state(twin).replay()
            assert replayed == twin and replayed.history() == twin.history()


def test_resample_varies_the_hidden_card_over_seeds():
    state = play(GAME.new_initial_state(), "set 3", "set 5", "chip sun")
    cards = {state.resample(1, random.Random(seed)).to_dict()["set"][0] for seed in range(60)}
    assert cards == set(range(10))  # Orange could hold any card
    assert all(state.resample(0, random.Random(seed)).to_dict()["set"][0] == 3 for seed in range(10))


def test_resample_draws_from_every_card_the_opponent_held_after_a_change():
    # Orange set 3, then changed to 3 again: any card in 0..9 minus discards is possible, 3 included.
    state = play(GAME.new_initial_state(), "set 9", "set 2", "chip sun", "pass", "pass")  # Green's 2 discarded
    play(state, "set 4", "set 6", "chip sun", "change 6")  # Green starts round 2
    cards = {state.resample(0, random.Random(seed)).to_dict()["set"][1] for seed in range(80)}
    assert cards == {0, 1, 3, 4, 5, 6, 7, 8, 9}


def test_resample_keeps_revealed_cards_and_redraws_changed_away_ones():
    state = play(GAME.new_initial_state(), "set 7", "set 2", "change 5", "chip sun", "pass", "pass")
    assert state.last_round_report.cards == (5, 2)
    firsts = set()
    for seed in range(40):
        twin = state.resample(1, random.Random(seed))
        assert twin.last_round_report == state.last_round_report
        firsts.add(twin.history()[0])  # Orange's first card, changed away and never revealed
    assert len(firsts) > 3


def test_resample_from_a_loaded_position_redraws_the_start_card():
    state = load(
        {
            **GAME.new_initial_state().to_dict(),
            "phase": "play",
            "set": [2, 7],
            "hands": [[0, 1, 3, 4, 5, 6, 7, 8, 9], [0, 1, 2, 3, 4, 5, 6, 8, 9]],
        }
    )
    cards = set()
    for seed in range(40):
        twin = state.resample(0, random.Random(seed))
        assert twin.observation(0) == state.observation(0)
        cards.add(twin.to_dict()["set"][1])
    assert len(cards) > 5


@pytest.mark.parametrize("player", [-1, 2, True])
def test_bad_player_numbers(player):
    state = GAME.new_initial_state()
    for call in (state.observation, state.information_state_string):
        with pytest.raises(ValueError, match="player"):
            call(player)
    with pytest.raises(ValueError, match="player"):
        state.resample(player, random.Random(0))
