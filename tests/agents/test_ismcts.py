"""ISMCTSAgent: information-set MCTS, determinising with resample() and never reading hidden data."""

import pytest

import tests.toy_games
import tests.toy_hidden  # noqa: F401
from tabletop_lab import load_game
from tabletop_lab.agents import ISMCTSAgent, RandomAgent

from .play import score_against_random

HIDDEN = load_game("test_hidden_card")  # three cards 0..2


def hidden(cards, bets):
    return HIDDEN.state_from_dict({"game": "test_hidden_card", "cards": cards, "bets": bets})


def test_beats_random_at_the_hidden_card_game():
    """Over every deal, seats alternating: random scores about 1/2, IS-MCTS clearly more."""

    def mean_score(make):
        scores = [
            score_against_random(load_game("test_hidden_card", deal=d), make(), n_games=8, seed=d) for d in range(9)
        ]
        return sum(scores) / len(scores)

    assert mean_score(lambda: RandomAgent()) < 0.57  # the baseline
    assert mean_score(lambda: ISMCTSAgent(iterations=200)) >= 0.65


@pytest.mark.parametrize("bets", [[], ["check"], ["bet"], ["check", "bet"]])
def test_choices_ignore_the_opponents_hidden_card(bets):
    """Same seed, same own card, any opponent card: the same statistics, action for action."""
    me = len(bets) % 2
    for mine in range(3):
        analyses = set()
        for theirs in range(3):
            cards = [mine, theirs] if me == 0 else [theirs, mine]
            state = hidden(cards, bets)
            assert state.current_player() == me
            rows = ISMCTSAgent(seed=4, iterations=150).analyse(state)
            choice = ISMCTSAgent(seed=4, iterations=150).choose_action(state)
            analyses.add((repr(rows), choice))
        assert len(analyses) == 1


def test_its_own_card_informs_its_values():
    """The values it reports depend on what it knows: a bet called by a higher card wins more."""
    values = {}
    for mine in (0, 2):
        rows = ISMCTSAgent(seed=1, iterations=300).analyse(hidden([mine, 1], []))
        values[mine] = {row["move"]: row["value"] for row in rows}
    assert values[2]["bet"] > values[0]["bet"] + 0.3
    assert values[2]["check"] > values[0]["check"] + 0.3


def test_resampling_draws_the_hidden_card_from_the_agents_rng():
    """The premise of the tests above: resample() varies what the searching player cannot see."""
    import random

    rng = random.Random(0)
    state = hidden([0, 2], [])
    worlds = [state.resample(0, rng) for _ in range(30)]
    assert {w.cards[1] for w in worlds} == {0, 1, 2} and {w.cards[0] for w in worlds} == {0}


def test_analyse_reports_every_action_and_all_simulations():
    state = hidden([1, 1], ["check"])
    agent = ISMCTSAgent(seed=0, iterations=120)
    rows = agent.analyse(state)
    assert sorted(row["action"] for row in rows) == state.legal_actions()
    assert sum(row["visits"] for row in rows) == 120 == agent.stats["simulations"]
    assert all(-1.0 <= row["value"] <= 1.0 for row in rows)
    assert agent.stats["nodes"] >= 2  # information sets below the root were met


@pytest.mark.parametrize("seed", range(3))
def test_plays_both_actions_of_a_winning_turn(seed):
    """In a perfect-information game it is UCT: Nim with two takes of 1-2 per turn, from 7 only 1 then 1 wins."""
    state = load_game("test_nim", pile=7, actions_per_turn=2).new_initial_state()
    agent = ISMCTSAgent(seed=seed, iterations=300)
    state.apply_action(agent.choose_action(state))
    assert state.mid_turn() and state.current_player() == 0
    state.apply_action(agent.choose_action(state))
    assert state.pile == 5 and state.current_player() == 1


def test_a_resample_that_changes_what_the_player_knows_is_refused(monkeypatch):
    state = hidden([0, 2], [])
    monkeypatch.setattr(type(state), "resample", lambda self, player, rng: hidden([1, 2], []))
    with pytest.raises(RuntimeError, match="resample\\(0\\) changed what player 0 knows"):
        ISMCTSAgent(seed=0, iterations=5).choose_action(state)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": 0}, "iterations must be an integer >= 1"),
        ({"seconds": 0}, "seconds must be a number > 0"),
        ({"c": -1}, "c must be a number >= 0"),
    ],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        ISMCTSAgent(**settings)


def test_fewer_iterations_than_actions_still_choose_a_legal_action():
    state = load_game("sinomilia").new_initial_state()  # ten cards to set
    agent = ISMCTSAgent(seed=1, iterations=3)
    assert agent.choose_action(state) in state.legal_actions()
