"""tabletop_lab.studies: the report-card studies are keyed, saved where the notebooks look, and
shown side by side; plots.plot_report_cards draws each card's values and intervals."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

from tabletop_lab import load_game, plots, stats, studies
from tabletop_lab.data import DATA_DIR


@pytest.fixture(scope="module")
def cards():
    frames = {p: studies.load_report("cross_endodoi", "standard", p, quick=True) for p in studies.PLAYERS}
    return frames, {p: stats.report_card(df, seed=0, resamples=200) for p, df in frames.items()}


def test_every_game_has_a_standard_setup_saved_under_data():
    assert set(studies.REPORT_SETUPS) == {"cross_endodoi", "sinomilia", "sinoda", "capitals", "sygo"}
    assert [s.label for s in studies.REPORT_SETUPS["sygo"]] == ["19×19", "9×9"]
    sygo_9 = studies.REPORT_SETUPS["sygo"][1]
    assert sygo_9.path("sygo", "expert") == DATA_DIR / "sygo" / "report_expert_size=9.parquet"
    assert studies.REPORT_SETUPS["sinoda"][0].path("sinoda", "random").name == "report_random.parquet"


def test_quick_studies_are_tiny_weak_and_never_saved(cards, tmp_path, monkeypatch):
    monkeypatch.setattr(studies, "data_path", lambda *parts: tmp_path.joinpath(*parts))
    studies.load_report("sinomilia", "standard", "random", quick=True)
    assert not list(tmp_path.rglob("*"))
    frames, _ = cards
    assert {p: len(df) for p, df in frames.items()} == studies.QUICK_GAMES
    assert frames["expert"].attrs["agents"][0].startswith("expert(iterations=20,")
    assert {"actions", "n_legal", "values"} <= set(frames["random"].columns)
    assert frames["random"].attrs["study_key"]["study"]["n_games"] == studies.QUICK_GAMES["random"]


def test_side_by_side_shows_value_and_interval_per_card(cards):
    _, by_player = cards
    table = studies.side_by_side(by_player)
    assert list(table.columns) == ["definition", "random (12 games)", "expert (2 games)"]
    row = by_player["random"].set_index("metric").loc["advantage_first"]
    assert (
        table.loc["advantage_first", "random (12 games)"]
        == f"{row['value']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]"
    )
    assert (
        table.loc["state_space_log10", "expert (2 games)"]
        == f"{by_player['expert'].set_index('metric').loc['state_space_log10', 'value']:.1f}"
    )
    assert table.loc["lead_change", "definition"].endswith(
        "(highest value) differs"
    )  # the source, not the words, is cut


def test_absent_metrics_say_why(cards):
    _, by_player = cards
    assert studies.absent_metrics(by_player["random"]) == [
        "coverage: the game counts no board sites (Game.num_sites; docs/metrics.md says why)"
    ]
    sinomilia = stats.report_card(studies.load_report("sinomilia", "standard", "random", quick=True), resamples=50)
    gaps = studies.absent_metrics(sinomilia)
    assert gaps[0] == "drawishness: the game cannot end in a draw"
    assert not any(gap.startswith("state_space_log10") for gap in gaps)  # Sinomilia bounds its positions


def test_bad_names_are_refused():
    with pytest.raises(ValueError, match="player must be one of random, expert"):
        studies.load_report("sygo", "9×9", "greedy", quick=True)
    with pytest.raises(ValueError, match="sygo has no report-card setup '7×7'"):
        studies.load_report("sygo", "7×7", "random", quick=True)
    with pytest.raises(ValueError, match="no report-card study for 'chess'"):
        studies.load_report("chess", "standard", "random", quick=True)


def test_plot_report_cards_draws_each_card_with_its_intervals(cards):
    _, by_player = cards
    ax = plots.plot_report_cards(by_player, ax=Figure().add_subplot())
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2 and ax.get_xlim()[0] < 0 < 1 <= ax.get_xlim()[1]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "balance" in labels and "duration_turns" not in labels
    card = by_player["random"].set_index("metric").reindex(labels)
    x = bars[0].lines[0].get_xdata()
    np.testing.assert_allclose(x, card["value"].to_numpy(dtype=float))
    wide = plots.plot_report_cards(by_player, ax=Figure().add_subplot(), unit=False)
    assert wide.get_xscale() == "log" and "game_tree_log10" in [t.get_text() for t in wide.get_yticklabels()]
    with pytest.raises(ValueError, match="at least one report card"):
        plots.plot_report_cards({})


#: Values an option study leaves out: Sinoda's first player 2 to 5 only rotate the seats of a
#: game of more players, which the seat rates already show.
NOT_PLAYED = {("sinoda", "first_player"): {2, 3, 4, 5}}


@pytest.mark.parametrize("game", sorted(studies.OPTION_STUDIES))
def test_every_rule_option_is_played_at_each_value_or_says_why_not(game):
    plan = studies.OPTION_STUDIES[game]
    setups = plan.setups()
    for spec in load_game(game).option_specs:
        played = {load_game(game, **options).options[spec.name] for options in setups.values()}
        if spec.name in plan.unmeasured:
            assert len(played) == 1 and plan.unmeasured[spec.name]
        elif spec.choices is None:
            assert len(played) > 1, spec.name  # a numeric option at a few values
        else:
            assert played == set(spec.choices) - NOT_PLAYED.get((game, spec.name), set()), spec.name


def test_the_option_study_in_quick_mode_plays_every_setup_on_the_same_seeds_and_saves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(studies, "data_path", lambda *parts: tmp_path.joinpath(*parts))
    frames = studies.load_option_games("cross_endodoi", quick=True)
    assert list(frames) == ["standard", *studies.OPTION_STUDIES["cross_endodoi"].variants]
    seeds = frames["standard"]["seed"].tolist()
    assert all(df["seed"].tolist() == seeds and {"actions", "values"} <= set(df) for df in frames.values())
    assert frames["seeds_per_hole=6"].attrs["options"]["seeds_per_hole"] == 6
    assert not list(tmp_path.rglob("*"))
    with pytest.raises(ValueError, match="no option study for 'chess'"):
        studies.load_option_games("chess")


def test_each_variant_is_compared_with_the_setup_seating_as_many_players_nearest_it():
    assert studies.paired_base("sinoda", "first_player=1") == "standard"
    assert studies.paired_base("sinoda", "players=4") is None  # no setup before it seats four
    assert studies.paired_base("sinoda", "players=4, teams=pairs") == "players=4"
    assert studies.paired_base("sinoda", "players=6, teams=triples") == "players=6"
    with pytest.raises(ValueError, match="no setup 'players=5'"):
        studies.paired_base("sinoda", "players=5")


def test_option_effects_are_the_paired_comparisons_with_each_base_and_plot_by_variant():
    frames = studies.load_option_games("sinoda", quick=True)
    table = studies.option_effects("sinoda", frames, ["duration_turns"], resamples=100)
    assert table["variant"].tolist() == [label for label in frames if studies.paired_base("sinoda", label)]
    row = table.set_index("variant").loc["players=4, teams=pairs"]
    expected = stats.compare_variants(frames["players=4"], frames["players=4, teams=pairs"], 0,
                                      metrics=["duration_turns"], resamples=100).iloc[0]  # fmt: skip
    assert row["base"] == "players=4" and row["difference"] == expected["difference"]
    ax = plots.plot_variant_differences(table, ax=Figure().add_subplot(), by="variant")
    assert [t.get_text() for t in ax.get_yticklabels()] == table["variant"].tolist()
    assert ax.get_title().startswith("duration_turns: each variant − its base")
