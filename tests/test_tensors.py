"""The OpenSpiel-placed tensors of every game under every harness config (``testing.check_tensors``):
masks mark exactly the legal actions, tensors have their declared shape and never depend on
another seat's hidden data."""

import json

import pytest

from tabletop_lab import load_game
from tabletop_lab.registry import list_games
from tabletop_lab.testing import check_tensors, option_variants

CASES = [(name, options) for name in [row["name"] for row in list_games()] for options in option_variants(name)]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{json.dumps(o)}" for n, o in CASES])
def test_tensors_hold_their_contract(name, options):
    assert check_tensors(load_game(name, **options), n_games=1, seed=3) > 3


def test_sinomilia_tensor_shows_the_own_card_and_hides_the_opponents():
    """Both set cards differ between two states: only the owner's tensor tells them apart."""
    game = load_game("sinomilia")
    tensors = {}
    for orange, green in ((3, 5), (3, 7), (4, 5)):
        state = game.new_initial_state()
        state.apply_move(f"set {orange}")
        state.apply_move(f"set {green}")
        tensors[orange, green] = [state.observation_tensor(0), state.observation_tensor(1)]
    assert tensors[3, 5][0] == tensors[3, 7][0]  # Orange cannot see Green's card
    assert tensors[3, 5][1] != tensors[3, 7][1]  # Green sees their own
    assert tensors[3, 5][1] == tensors[4, 5][1] and tensors[3, 5][0] != tensors[4, 5][0]


def test_harness_catches_a_tensor_that_leaks_hidden_data(monkeypatch):
    """A Sinomilia encoding that reads the opponent's set card fails ``check_tensors``."""
    game = load_game("sinomilia")
    state_class = type(game.new_initial_state())
    honest = state_class.observation_tensor
    monkeypatch.setattr(
        state_class, "observation_tensor", lambda self, p: honest(self, p) + [(self.cards[1 - p] + 1) / 10]
    )
    monkeypatch.setattr(game, "observation_tensor_shape", lambda: [94 + 1])
    with pytest.raises(AssertionError, match="ignores others' hidden data"):
        check_tensors(game, n_games=1, seed=0)


def test_mask_and_tensor_refuse_what_is_not_a_seat():
    state = load_game("cross_endodoi").new_initial_state()
    assert state.legal_actions_mask() == [1] * 6 + [0] * 6
    for bad in (2, -1, "0", True):
        with pytest.raises(ValueError, match="player must be 0..1"):
            state.observation_tensor(bad)


def test_games_without_an_encoding_say_so():
    import tests.toy_games  # noqa: F401

    with pytest.raises(NotImplementedError, match="no tensor encoding"):
        load_game("test_nim").num_distinct_actions()


def test_sygo_marks_the_whole_group_that_grew():
    """Mid-turn, every stone of a start group that has grown carries the grown mark."""
    game = load_game("sygo", size=5)
    state = game.state_from_notation("...../...../...../.WW../..... W - 0")
    state.apply_action(state.string_to_action("grow d2"))
    tensor = state.observation_tensor(0)[2:]
    points = 25
    grown = tensor[5 * points : 6 * points]
    assert [p for p in range(points) if grown[p]] == [6, 7]  # b2 and c2, the group at its start
    assert tensor[3 * points + 8] == 1.0  # d2, the growth stone
    assert tensor[-1] == 1.0  # a growth turn is in progress
