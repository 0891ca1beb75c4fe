"""Matches: colours swap every game and points are summed (Capitals' match rule, for any two-sided game)."""

import pytest

import tests.toy_games  # noqa: F401  (registers the toy games)
from tabletop_lab import load_game
from tabletop_lab.sim import match_result, play_game, play_match


def test_sides_swap_colours_and_points_are_each_games_team_points():
    game = load_game("cross_endodoi")
    df = play_match(game, ["greedy", "random"], n_games=4, seed=3)
    assert df["side_a_team"].tolist() == [0, 1, 0, 1]
    for row in df.itertuples():
        seats = ["greedy" if seat == row.side_a_team else "random" for seat in range(2)]
        final = play_game(game, seats, seed=row.seed).replay()
        assert [row.points_a, row.points_b] == [final.scores()[row.side_a_team], final.scores()[1 - row.side_a_team]]
    assert df.attrs["points_a"] == df["points_a"].sum() and df.attrs["match_winner"] == match_result(df)["match_winner"]


def test_a_match_is_reproducible_from_its_seed():
    a = play_match("cross_endodoi", ["mcts:iterations=20", "random"], n_games=2, seed=5)
    b = play_match("cross_endodoi", ["mcts:iterations=20", "random"], n_games=2, seed=5)
    assert a.equals(b)


def test_bad_matches_are_refused_clearly():
    with pytest.raises(ValueError, match="even number"):
        play_match("cross_endodoi", ["random", "random"], n_games=3)
    with pytest.raises(ValueError, match="has 3 teams"):
        play_match(load_game("test_nim", players=3), ["random", "random"])
    with pytest.raises(ValueError, match="two agents"):
        play_match("cross_endodoi", ["random"])
