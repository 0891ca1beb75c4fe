"""tabletop_lab.plots draws what the statistics say: bars, error bars at the CIs, labels, n."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure

from tabletop_lab import plots, stats
from tabletop_lab.sim import tournament

from .helpers import GAMES_SPEC, frame

GAMES = frame(GAMES_SPEC)


def new_axes():
    return Figure().add_subplot()


def containers(ax, kind):
    return [c for c in ax.containers if isinstance(c, kind)]


def check_error_bars(ax, low, high):
    """The vertical error bars on ``ax`` span exactly ``low[i]..high[i]``."""
    (bars,) = containers(ax, ErrorbarContainer)
    segments = bars.lines[2][0].get_segments()
    np.testing.assert_allclose([s[:, 1].min() for s in segments], low)
    np.testing.assert_allclose([s[:, 1].max() for s in segments], high)


def check_labelled(ax):
    assert ax.get_ylabel() and ax.get_title()
    assert ax.get_legend() is not None and ax.get_legend().get_texts()


def test_win_rate_bars_and_their_error_bars_are_the_table():
    table = stats.win_rates(GAMES)
    ax = plots.plot_win_rates(table, ax=new_axes())
    (bars,) = containers(ax, BarContainer)
    assert [p.get_height() for p in bars.patches] == table.rate.tolist()
    check_error_bars(ax, table.ci_low, table.ci_high)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["A", "B"]
    assert ax.get_xlabel() == "agent"
    assert "n = 4" in ax.get_title() and "1 capped" in ax.get_title()
    check_labelled(ax)


def test_win_rates_by_seat_draws_one_bar_per_seat():
    ax = plots.plot_win_rates(stats.win_rates(GAMES, by="seat"), ax=new_axes())
    assert len(containers(ax, BarContainer)[0].patches) == 2
    assert ax.get_xlabel() == "seat"


def test_first_player_advantage_one_bar_per_setting():
    other = frame([{"seats": ("A", "B"), "returns": (-1, 1)}] * 3)
    ax = plots.plot_first_player_advantage({"hand-made": GAMES, "North always wins": other}, ax=new_axes())
    (bars,) = containers(ax, BarContainer)
    assert [p.get_height() for p in bars.patches] == [0.875, 0.0]
    expected = [stats.first_player_advantage(GAMES), stats.first_player_advantage(other)]
    check_error_bars(ax, [r["ci_low"] for r in expected], [r["ci_high"] for r in expected])
    assert "n = 3–4" in ax.get_title()
    check_labelled(ax)


def test_first_player_advantage_of_a_single_frame():
    ax = plots.plot_first_player_advantage(GAMES, ax=new_axes())
    assert len(containers(ax, BarContainer)[0].patches) == 1
    with pytest.raises(ValueError):
        plots.plot_first_player_advantage({}, ax=new_axes())


def test_lengths_histogram_counts_completed_games():
    ax = plots.plot_lengths(GAMES, ax=new_axes())
    heights = [p.get_height() for p in ax.patches]
    assert sum(heights) == 4  # the capped game is left out
    (mean_bar,) = containers(ax, ErrorbarContainer)
    x = mean_bar.lines[0].get_xdata()
    assert x[0] == pytest.approx(25)
    assert "n = 4" in ax.get_title() and "1 capped" in ax.get_title()
    check_labelled(ax)
    assert ax.get_xlabel()


def test_lengths_show_actions_when_turns_differ():
    df = GAMES.assign(n_actions=GAMES.n_turns * 2)
    ax = plots.plot_lengths(df, ax=new_axes())
    assert len(containers(ax, ErrorbarContainer)) == 2
    assert {t.get_text().split()[1] for t in ax.get_legend().get_texts() if t.get_text().startswith("mean")} == {
        "turns",
        "actions",
    }


def test_tournament_heat_map_cells_are_the_rates():
    table = tournament("cross_endodoi", ["random", "greedy"], 6, seed=0, progress=False)
    ax = plots.plot_tournament(table, ax=new_axes())
    (image,) = ax.get_images()
    grid = image.get_array()
    rates = table.set_index(["agent", "opponent"]).rate
    assert grid[0, 1] == rates[("random", "greedy")] and grid[1, 0] == rates[("greedy", "random")]
    assert np.ma.is_masked(grid[0, 0]) or np.isnan(grid[0, 0])
    assert len(ax.texts) == 2
    assert ax.get_xlabel() == "opponent" and ax.get_ylabel() == "agent" and "n = 6" in ax.get_title()


def test_tournament_labels_do_not_overlap():
    """Long agent labels (the statistics notebook's ladder) wrap before their settings."""
    agents = ["random", "greedy", "alphabeta(depth=4)", "mcts(iterations=500)"]
    rows = [
        {"agent": a, "opponent": o, "n": 10, "rate": 0.5, "ci_low": 0.2, "ci_high": 0.8}
        for a in agents
        for o in agents
        if a != o
    ]
    ax = plots.plot_tournament(pd.DataFrame(rows), ax=Figure(figsize=(7.5, 5.5)).add_subplot())
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(ax.figure).get_renderer()
    for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
        assert [t.get_text().replace("\n", "") for t in labels] == agents
        boxes = [t.get_window_extent(renderer) for t in labels]
        assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


def test_without_axes_a_new_figure_is_made():
    import matplotlib.pyplot as plt

    ax = plots.plot_win_rates(stats.win_rates(GAMES))
    assert ax.figure is not None
    plt.close(ax.figure)


def test_ladder_bars_are_each_rungs_rate_against_the_one_below():
    from tabletop_lab.sim.ladder import ladder

    table = ladder("cross_endodoi", 4, levels=2, budget=20, progress=False)
    ax = plots.plot_ladder(table, ax=new_axes())
    (bars,) = containers(ax, BarContainer)
    assert [b.get_height() for b in bars] == list(table["rate"])
    check_error_bars(ax, table["ci_low"], table["ci_high"])
    assert [t.get_text().replace("\n", "") for t in ax.get_xticklabels()][0] == "greedyvs random"
    stopped = table.attrs["stopped"]
    assert ("reached the top" if stopped is None else f"stopped at level {stopped}") in ax.get_title()
    assert "n = 4 games a rung" in ax.get_title()
