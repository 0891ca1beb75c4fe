"""The conformance harness over every registered game and its harness configs (tabletop_lab.testing),
the toy test games included: they prove the shared machinery on what the real games need."""

import json

import pytest

import tests.toy_games
import tests.toy_hidden
import tests.toy_team  # noqa: F401
from tabletop_lab import list_games, load_game
from tabletop_lab.data import data_path, load_positions
from tabletop_lab.testing import check_game, option_variants

CASES = [(g["name"], options) for g in list_games(include_tests=True) for options in option_variants(g["name"])]


def saved_positions(name: str, options: dict) -> list[str]:
    """Curated positions of data/<game>/positions.json that are set under these rules."""
    if not data_path(name, "positions.json").exists():
        return []
    config = load_game(name, **options).options
    return [p.position for p in load_positions(name).values() if load_game(name, **p.options).options == config]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}-{json.dumps(o)}" for n, o in CASES])
def test_random_playouts_keep_every_invariant(name, options):
    game = load_game(name, **options)
    report = check_game(game, n_games=game.harness_games, seed=7, positions=saved_positions(name, options))
    assert report["games"] == game.harness_games
    assert report["states"] > 30


def test_every_specified_option_set_is_covered():
    assert ("cross_endodoi", {"seeds_per_hole": 6, "skip_origin": True, "first_player": 1, "pie_rule": True}) in CASES
    assert ("test_nim", {"actions_per_turn": 2}) in CASES
    assert {"test_nim", "test_team", "test_hidden_card"} <= {name for name, _ in CASES}


def test_harness_catches_a_resample_that_only_clones(monkeypatch):
    """Hidden information must really be resampled: a resample() that clones fails the harness."""
    state_class = type(load_game("test_hidden_card").new_initial_state())
    monkeypatch.setattr(state_class, "resample", lambda self, player, rng: self.clone())
    with pytest.raises(AssertionError, match="resample\\(\\) varies what is hidden"):
        check_game(load_game("test_hidden_card"), n_games=5, seed=0)


def test_moves_of_several_actions_are_compared_with_whole_moves():
    report = check_game(load_game("test_nim", actions_per_turn=2, players=3), n_games=5, seed=1)
    assert report["moves_compared"] > 5 and report["moves_too_many"] == 0


def test_harness_catches_a_move_string_that_depends_on_the_order(monkeypatch):
    """Whole moves must reach what the actions reach: a ``_move_string`` that drops an action fails."""
    state_class = type(load_game("test_nim").new_initial_state())
    monkeypatch.setattr(state_class, "_move_string", lambda self, actions: str(actions[0]))
    with pytest.raises(AssertionError, match="legal_moves|one position"):
        check_game(load_game("test_nim", actions_per_turn=2), n_games=1, seed=0)


def test_harness_catches_a_broken_engine(monkeypatch):
    """The harness is itself tested: an engine that lets North sow South's holes must fail it."""
    state_class = type(load_game("cross_endodoi").new_initial_state())
    monkeypatch.setattr(state_class, "_illegal_reason", lambda self, action: None)
    with pytest.raises(AssertionError, match="is refused"):
        check_game(load_game("cross_endodoi"), n_games=1, seed=0)
