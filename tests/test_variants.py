"""``stats.compare_variants``: each report-card metric's difference between two option sets of
one game played on the same seeds, with a paired bootstrap interval."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tests.toy_games  # noqa: F401  (registers the toy games)
from tabletop_lab.sim import simulate
from tabletop_lab.stats import VARIANT_COLUMNS, compare_variants, report_card


def nim(n_games=40, seed=2, name="test_nim", **options):
    from tabletop_lab import load_game

    game = load_game(name, **options)
    return simulate(
        game, ["random", "random"], n_games, seed=seed, progress=False, record_actions=True, evaluator="evaluate"
    )


def test_a_variant_against_itself_differs_by_zero_with_a_zero_width_interval():
    df = nim()
    table = compare_variants(df, df, seed=1)
    assert list(table.columns) == VARIANT_COLUMNS
    assert (table["difference"] == 0).all()
    assert (table["ci_low"] == 0).all() and (table["ci_high"] == 0).all()
    assert (table["n"] == 40).all()


def test_the_values_are_the_report_cards():
    a, b = nim(pile=3), nim(pile=6)
    table = compare_variants(a, b).set_index("metric")
    for column, df in (("value_a", a), ("value_b", b)):
        card = report_card(df).set_index("metric")
        assert list(card.index) == list(table.index)
        np.testing.assert_allclose(table[column], card["value"])
    np.testing.assert_allclose(table["difference"], table["value_b"] - table["value_a"])
    swapped = compare_variants(b, a).set_index("metric")
    np.testing.assert_allclose(swapped["difference"], -table["difference"])


def test_the_bootstrap_is_paired_a_constant_shift_per_game_is_recovered_exactly():
    a = nim(60)
    b = a.copy()
    b["n_turns"] += 1  # every game one turn longer: an unpaired bootstrap would give a wide interval
    row = compare_variants(a, b).set_index("metric").loc["duration_turns"]
    assert row["difference"] == pytest.approx(1)
    assert row["ci_low"] == pytest.approx(1) and row["ci_high"] == pytest.approx(1)


def test_a_known_difference_is_recovered_from_real_games():
    one, two = nim(300, pile=1), nim(300, pile=2)  # one stone: the first player always wins; two: half the time
    table = compare_variants(one, two, seed=0).set_index("metric")
    first = table.loc["advantage_first"]
    assert first["value_a"] == 1 and first["ci_low"] < -0.5 < first["ci_high"] < 0
    decisions = table.loc["decision_moves"]  # one stone: no choice ever; two: the first decision is a choice
    assert decisions["value_a"] == 0 and decisions["ci_low"] > 0


def test_a_metric_only_one_variant_gives_is_left_out_with_a_note():
    a = nim(10)
    b = a.drop(columns=["values"])
    table = compare_variants(a, b)
    assert "drama" not in table["metric"].tolist() and "duration_turns" in table["metric"].tolist()
    assert any("only variant A gives them" in note and "drama" in note for note in table.attrs["notes"])


def test_frames_that_are_not_one_game_on_the_same_seeds_are_refused():
    a = nim(10)
    with pytest.raises(ValueError, match="games of test_nim and test_draw_trap: compare frames of one game"):
        compare_variants(a, nim(10, name="test_draw_trap"))
    with pytest.raises(ValueError, match="hold 10 and 12 games: simulate both with the same n_games and seed"):
        compare_variants(a, nim(12))
    with pytest.raises(
        ValueError, match=r"game 0 has seed \d+ in variant A and \d+ in B: simulate both with the same seed"
    ):
        compare_variants(a, nim(10, seed=3))
    with pytest.raises(ValueError, match="expected a DataFrame from tabletop_lab.sim.simulate"):
        compare_variants(a, pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="unknown metric 'fun'"):
        compare_variants(a, a, metrics=["fun"])
