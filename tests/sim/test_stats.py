"""tabletop_lab.stats on hand-made results whose values are worked out by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy.stats import binomtest

from tabletop_lab import stats
from tabletop_lab.sim import simulate, tournament

from .helpers import GAMES_SPEC, AddUpGame, frame

GAMES = frame(GAMES_SPEC)


@pytest.mark.parametrize(("k", "n"), [(0, 1), (0, 10), (3, 10), (10, 10), (1, 2), (57, 100), (4999, 10000)])
def test_wilson_matches_scipy(k, n):
    expected = binomtest(k, n).proportion_ci(method="wilson")
    low, high = stats.wilson(k, n)
    assert low == pytest.approx(expected.low, abs=1e-12)
    assert high == pytest.approx(expected.high, abs=1e-12)


def test_wilson_other_confidence_and_arrays():
    expected = binomtest(7, 20).proportion_ci(confidence_level=0.9, method="wilson")
    assert stats.wilson(7, 20, confidence=0.9) == pytest.approx((expected.low, expected.high), abs=1e-12)
    low, high = stats.wilson([1, 7], [2, 20])
    assert (low[1], high[1]) == pytest.approx(stats.wilson(7, 20))
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


@pytest.mark.parametrize(("k", "n", "confidence"), [(5, 4, 0.95), (-1, 4, 0.95), (1, 4, 1.0)])
def test_wilson_refuses_impossible_counts(k, n, confidence):
    with pytest.raises(ValueError):
        stats.wilson(k, n, confidence)


def test_win_rates_by_agent():
    table = stats.win_rates(GAMES).set_index("agent")
    assert table.loc["A", ["wins", "draws", "losses", "n", "capped"]].tolist() == [2, 1, 1, 4, 1]
    assert table.loc["B", ["wins", "draws", "losses", "n", "capped"]].tolist() == [1, 1, 2, 4, 1]
    assert table.loc["A", "score"] == 2.5 and table.loc["A", "rate"] == 0.625
    assert table.loc["B", "rate"] == 0.375
    assert (table.loc["A", "ci_low"], table.loc["A", "ci_high"]) == pytest.approx(stats.wilson(2.5, 4))
    assert list(table.index) == ["A", "B"]  # order of first appearance


def test_win_rates_by_seat():
    table = stats.win_rates(GAMES, by="seat")
    assert table.seat.tolist() == [0, 1]
    assert table.rate.tolist() == [0.625, 0.375]
    assert table.wins.tolist() == [2, 1]


def test_first_player_advantage_counts_draws_half_and_follows_who_started():
    result = stats.first_player_advantage(GAMES)
    assert result["value"] == 3.5 / 4 and result["n"] == 4
    assert (result["ci_low"], result["ci_high"]) == pytest.approx(stats.wilson(3.5, 4))


def test_draws_exclude_timeouts_which_are_reported_apart():
    assert stats.draw_rate(GAMES)["value"] == 1 / 4
    assert stats.draw_rate(GAMES)["n"] == 4
    assert stats.timeout_rate(GAMES)["value"] == 1 / 5
    assert stats.timeout_rate(GAMES)["n"] == 5


def test_balance_is_one_minus_the_largest_seat_gap():
    assert stats.balance(GAMES) == pytest.approx(1 - (0.625 - 0.375))


def test_length_summary_skips_capped_games():
    table = stats.length_summary(GAMES)
    assert table.loc["n_turns", "mean"] == 25 and table.loc["n_turns", "max"] == 40
    assert table.loc["n_actions", "n"] == 4 and table.loc["n_actions", "capped"] == 1
    assert table.loc["n_turns", "sd"] == pytest.approx(12.909944, abs=1e-6)


def test_summary_collects_the_metrics():
    table = stats.summary(GAMES).set_index("metric")
    assert table.loc["first_player_advantage", "value"] == 3.5 / 4
    assert table.loc["timeout_rate", "value"] == 0.2
    assert table.loc["mean_n_turns", "value"] == 25
    assert table.loc["mean_n_turns", "ci_low"] < 25 < table.loc["mean_n_turns", "ci_high"]


def test_stats_refuse_a_frame_that_is_not_a_simulation():
    with pytest.raises(ValueError, match="tabletop_lab.sim.simulate"):
        stats.win_rates(GAMES.drop(columns="draw"))
    with pytest.raises(ValueError, match="by must be"):
        stats.win_rates(GAMES, by="colour")


def test_three_seats_share_out_the_results():
    df = simulate(AddUpGame(), ["random", "greedy", "random"], 30, seed=2, progress=False)
    by_seat = stats.win_rates(df, by="seat")
    assert by_seat.seat.tolist() == [0, 1, 2] and (by_seat.n == 30).all()
    assert (by_seat.wins + by_seat.draws + by_seat.losses).sum() == 3 * 30
    draws = int(df.draw.sum())
    assert (by_seat.draws == draws).all()
    assert by_seat.wins.sum() >= 30 - draws  # every other game has a winner, maybe several


def test_round_robin_plays_every_pair_with_both_views():
    table = tournament("cross_endodoi", ["random", "greedy", "random"], 10, seed=1, progress=False)
    assert len(table) == 6
    assert set(zip(table.agent, table.opponent)) == {
        (a, b) for a in ("random#1", "greedy", "random#2") for b in ("random#1", "greedy", "random#2") if a != b
    }
    pairs = table.set_index(["agent", "opponent"])
    for (a, b), row in pairs.iterrows():
        assert row.n == 10
        assert row.wins == pairs.loc[(b, a), "losses"]
        assert row.rate + pairs.loc[(b, a), "rate"] == pytest.approx(1)


def test_round_robin_progress_counts_all_games():
    seen = []
    tournament("cross_endodoi", ["random", "greedy", "random"], 4, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (12, 12)


def test_stats_tournament_is_the_sim_one_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="moved to tabletop_lab.sim.tournament"):
        old = stats.tournament("cross_endodoi", ["random", "greedy"], 4, seed=2, progress=False)
    pd.testing.assert_frame_equal(old, tournament("cross_endodoi", ["random", "greedy"], 4, seed=2, progress=False))


def test_round_robin_needs_enough_agents():
    with pytest.raises(ValueError, match="at least 3 agents"):
        tournament(AddUpGame(), ["random", "greedy"], 2, progress=False)


def test_win_rates_by_team_count_a_team_once_per_game():
    # four seats in two teams {0, 2} and {1, 3}; team 0 wins twice, team 1 once, one draw, one capped
    results = [((1, -1, 1, -1), False), ((1, -1, 1, -1), False), ((-1, 1, -1, 1), False), ((0,) * 4, False),
               ((0,) * 4, True)]  # fmt: skip
    df = pd.DataFrame(
        [
            {
                **{f"agent_{s}": "A" if s % 2 == 0 else "B" for s in range(4)},
                **{f"team_{s}": s % 2 for s in range(4)},
                **{f"returns_{s}": float(r[s]) for s in range(4)},
                "first_player": 0,
                "hit_cap": cap,
                "draw": not cap and r == (0, 0, 0, 0),
            }
            for r, cap in results
        ]
    )
    teams = stats.win_rates(df, by="team").set_index("team")
    assert teams.loc[0, ["wins", "draws", "losses", "n", "capped"]].tolist() == [2, 1, 1, 4, 1]
    assert teams.loc[1, ["wins", "draws", "losses", "n"]].tolist() == [1, 1, 2, 4]
    seats = stats.win_rates(df, by="seat")
    assert seats["n"].tolist() == [4, 4, 4, 4] and seats["wins"].tolist() == [2, 1, 2, 1]
    with pytest.raises(ValueError, match="by must be"):
        stats.win_rates(df, by="colour")
