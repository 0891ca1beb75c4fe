"""Figures for simulation results: rates with 95% Wilson intervals, lengths, tournaments; and
the win probability through a reviewed game (``plot_review``).

Each function draws on ``ax`` (a new figure when ``None``), labels its axes, gives a legend
or colour bar, puts n in the title and returns the Axes. Only the object-oriented matplotlib
API is used, so the figures work with any backend, Agg included.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from . import stats

__all__ = [
    "plot_win_rates",
    "plot_first_player_advantage",
    "plot_lengths",
    "plot_tournament",
    "plot_ladder",
    "plot_variant_differences",
    "plot_review",
    "plot_report_cards",
]

_CI_LABEL = "95% Wilson CI"


def plot_win_rates(table: pd.DataFrame, ax: Any = None) -> Any:
    """Bars of each agent's (or seat's) rate from ``stats.win_rates``, with Wilson error bars.

    The dashed line is the mean rate over the rows: where every bar would stand if no agent or
    seat were better than another.
    """
    ax = _axes(ax)
    key = table.columns[0]
    x = np.arange(len(table))
    rate = table["rate"].to_numpy(dtype=float)
    bars = ax.bar(x, rate, color="tab:blue", label="rate (win 1, draw ½, loss 0)")
    ax.bar_label(bars, labels=[f"{r:.2f}" for r in rate], label_type="center", color="white")
    _error_bars(ax, x, rate, table["ci_low"], table["ci_high"])
    ax.axhline(rate.mean(), color="grey", linestyle="--", label="no difference")
    ax.set_xticks(x, [str(v) for v in table[key]])
    ax.set_xlabel(key)
    ax.set_ylabel("rate over completed games")
    ax.set_title(f"Results by {key} (n = {_n_text(table['n'])} games{_capped_text(table)})")
    _rate_axis(ax)
    return ax


def plot_first_player_advantage(data: pd.DataFrame | Mapping[str, Any], ax: Any = None) -> Any:
    """First-player advantage (draws count half) with its Wilson interval, one bar per setting.

    ``data`` is a ``simulate`` DataFrame (one bar), or a mapping from a label (an agent kind,
    a rules config...) to a DataFrame or to a ``stats.first_player_advantage`` result.
    """
    ax = _axes(ax)
    items = {"all games": data} if isinstance(data, pd.DataFrame) else dict(data)
    if not items:
        raise ValueError("plot_first_player_advantage needs at least one DataFrame or result")
    results = {
        label: stats.first_player_advantage(v) if isinstance(v, pd.DataFrame) else v for label, v in items.items()
    }
    x = np.arange(len(results))
    value = np.array([r["value"] for r in results.values()], dtype=float)
    ax.bar(x, value, color="tab:orange", label="first player's rate")
    _error_bars(ax, x, value, [r["ci_low"] for r in results.values()], [r["ci_high"] for r in results.values()])
    ax.axhline(0.5, color="grey", linestyle="--", label="no advantage")
    ax.set_xticks(x, list(results))
    ax.set_ylabel("first player's rate (win 1, draw ½)")
    ax.set_title(f"First-player advantage (n = {_n_text([r['n'] for r in results.values()])} completed games)")
    _rate_axis(ax)
    return ax


def plot_lengths(df: pd.DataFrame, ax: Any = None) -> Any:
    """Histogram of completed games' lengths in turns (and in actions where they differ),
    with each mean and its 95% confidence interval."""
    ax = _axes(ax)
    done = df.loc[~df["hit_cap"]]
    if done.empty:
        raise ValueError("plot_lengths: no completed game to plot")
    measures = [("n_turns", "turns", "tab:blue")]
    if not done["n_turns"].equals(done["n_actions"]):
        measures.append(("n_actions", "actions", "tab:green"))
    top = 0.0
    for column, name, colour in measures:
        values = done[column].to_numpy()
        counts, _, _ = ax.hist(values, bins=_bins(values), alpha=0.6, color=colour, label=name)
        top = max(top, counts.max())
        mean = values.mean()
        half = 1.959963984540054 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else 0.0
        ax.errorbar([mean], [top * 1.05], xerr=[[half], [half]], fmt="v", color=colour, capsize=4,
                    label=f"mean {name} {mean:.1f} (95% CI)")  # fmt: skip
    ax.set_xlabel("game length (turns)" if len(measures) == 1 else "game length")
    ax.set_ylabel("games")
    capped = int(df["hit_cap"].sum())
    cap = df.attrs.get("max_actions")
    cut = f"; {capped} capped" + (f" at {cap} actions" if cap else "") if capped else ""
    ax.set_title(f"Game length (n = {len(done)} completed games{cut})")
    ax.legend(fontsize="small")
    return ax


def plot_tournament(table: pd.DataFrame, ax: Any = None) -> Any:
    """Heat map of ``sim.tournament``: each row agent's rate against each opponent, with
    the 95% Wilson interval written in every cell."""
    ax = _axes(ax)
    agents = list(dict.fromkeys(table["agent"]))
    opponents = list(dict.fromkeys(table["opponent"]))
    if set(opponents) <= set(agents):  # two seats: same order both ways, the diagonal is empty
        opponents = [a for a in agents if a in opponents]
    cells = table.set_index(["agent", "opponent"])
    grid = np.full((len(agents), len(opponents)), np.nan)
    for (agent, opponent), row in cells.iterrows():
        i, j = agents.index(agent), opponents.index(opponent)
        grid[i, j] = row["rate"]
        dark = abs(row["rate"] - 0.5) > 0.3  # RdBu is dark towards both ends
        ax.text(j, i, f"{row['rate']:.2f}\n[{row['ci_low']:.2f}, {row['ci_high']:.2f}]",
                ha="center", va="center", fontsize="small", color="white" if dark else "black")  # fmt: skip
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.figure.colorbar(image, ax=ax, label="row agent's rate (win 1, draw ½)")
    ax.set_xticks(np.arange(len(opponents)), [_wrap(o) for o in opponents])
    ax.set_yticks(np.arange(len(agents)), [_wrap(a) for a in agents])
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title(f"Round robin (n = {_n_text(table['n'])} games per match)\ncells: rate [95% Wilson CI]")
    return ax


def plot_ladder(table: pd.DataFrame, ax: Any = None) -> Any:
    """Levels of play (``sim.ladder``): each rung's rate against the rung below, a bar with its
    95% Wilson interval, and a line at 0.5 (no stronger). The ladder stops at the first rung
    whose interval contains 0.5; the title says where it stopped, or that it reached the top."""
    ax = _axes(ax)
    x = np.arange(len(table))
    rate = table["rate"].to_numpy(dtype=float)
    stronger = table["ci_low"].to_numpy(dtype=float) > 0.5
    ax.bar(x, rate, color=np.where(stronger, "tab:blue", "tab:grey"), label="rate against the rung below")
    _error_bars(ax, x, rate, table["ci_low"], table["ci_high"])
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="no stronger")
    ticks = [f"{_wrap(a)}\nvs {_wrap(o)}" for a, o in zip(table["agent"], table["opponent"])]
    ax.set_xticks(x, ticks, fontsize="small")
    ax.set_ylabel("rate (win 1, draw ½)")
    stopped = table.attrs.get("stopped")
    end = f"stopped at level {stopped}" if stopped else "reached the top"
    ax.set_title(f"Levels of play (n = {_n_text(table['n'])} games a rung{_capped_text(table)}; {end})")
    _rate_axis(ax)
    return ax


def plot_variant_differences(table: pd.DataFrame, ax: Any = None, *, by: str = "metric") -> Any:
    """Each metric's difference (variant B minus A) from ``stats.compare_variants``, a dot with
    its paired-bootstrap interval as whiskers, one row per metric, and a line at zero (no
    difference). Plot metrics of one scale together (shares apart from counts of turns).

    ``by="variant"`` draws one metric of ``studies.option_effects`` instead: one row per
    variant, each against its base."""
    ax = _axes(ax)
    y = np.arange(len(table))[::-1]
    difference = table["difference"].to_numpy(dtype=float)
    low, high = table["ci_low"].to_numpy(dtype=float), table["ci_high"].to_numpy(dtype=float)
    ax.axvline(0, color="grey", linestyle="--", label="no difference")
    ax.errorbar(
        difference,
        y,
        xerr=[difference - low, high - difference],
        fmt="o",
        color="tab:blue",
        ecolor="black",
        capsize=4,
        label="95% paired bootstrap CI",
    )
    ax.set_yticks(y, [str(m) for m in table[by]])
    ax.set_ylim(-0.8, len(table) - 0.2)
    ax.set_xlabel("difference, B − A")
    what = "Variant B − variant A" if by == "metric" else f"{table['metric'].iat[0]}: each variant − its base"
    ax.set_title(f"{what} (n = {_n_text(table['n'])} paired games)", fontsize="medium")
    return ax


#: The review labels ``plot_review`` marks, with their colours.
REVIEW_MARKS = {"inaccuracy": "gold", "mistake": "darkorange", "blunder": "crimson"}


def plot_review(table: pd.DataFrame, teams: Any, seat: int = 0, name: str | None = None, ax: Any = None) -> Any:
    """The win probability of ``seat``'s side before each move of a review (``analysis.review``),
    its moves' inaccuracies, mistakes and blunders marked at the move (by whichever side made it).

    ``teams`` is the game's ``teams()`` (two sides): a row's ``value_before`` is for its mover's
    side, turned here to ``seat``'s. ``name`` names the side on the axis (default "seat N").
    """
    ax = _axes(ax)
    side = next(i for i, team in enumerate(teams) if seat in team)
    own = np.array([int(player) in teams[side] for player in table["player"]], dtype=bool)
    before = table["value_before"].to_numpy(dtype=float)
    value = np.where(own, before, 1 - before)
    moves = table["move"].to_numpy()
    ax.plot(moves, value, color="tab:blue", marker=".", label=f"win chance of {name or f'seat {seat}'}")
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    for label, colour in REVIEW_MARKS.items():
        marked = (table["label"] == label).to_numpy()
        if marked.any():
            ax.scatter(moves[marked], value[marked], s=60, color=colour, zorder=3, label=label)
    ax.set_xlabel("move (the win chance before it)")
    ax.set_ylabel("win probability")
    ax.set_xlim(0.5, max(1, len(table)) + 0.5)
    _rate_axis(ax)
    return ax


#: The report-card metrics whose values lie on a 0-1 scale (rates, shares, values' spreads),
#: drawn on one axis; the others (turns, branching, log sizes) go on a log axis.
UNIT_METRICS = (
    "balance", "advantage_first", "drawishness", "completion", "decision_moves", "decisiveness",
    "lead_change", "drama", "uncertainty", "stability", "repetition", "coverage",
)  # fmt: skip


def plot_report_cards(cards: Mapping[str, pd.DataFrame], ax: Any = None, *, unit: bool = True) -> Any:
    """Dot-and-whisker chart of report cards (``stats.report_card``) side by side: one row per
    metric, one dot per card (its label in the legend) with its 95% interval as a whisker.

    With ``unit`` the metrics on a 0-1 scale (``UNIT_METRICS``), on a 0-1 axis; otherwise the
    others (turns, branching factor, log10 sizes) on a log axis, since they differ by orders of
    magnitude. A metric absent from a card has no dot there.
    """
    if not cards:
        raise ValueError("plot_report_cards needs at least one report card")
    ax = _axes(ax)
    present = [m for m in stats.CARD_METRICS if any(m in set(c["metric"]) for c in cards.values())]
    metrics = [m for m in present if (m in UNIT_METRICS) == unit]
    if not metrics:
        raise ValueError(f"plot_report_cards: no {'0-1' if unit else 'unbounded'} metric in these cards")
    y = np.arange(len(metrics))
    step = 0.36 / max(1, len(cards) - 1)
    top = 1.0
    for k, (label, card) in enumerate(cards.items()):
        rows = card.set_index("metric").reindex(metrics)
        offset = (k - (len(cards) - 1) / 2) * step
        value = rows["value"].to_numpy(dtype=float)
        low = np.where(np.isnan(rows["ci_low"].to_numpy(dtype=float)), value, rows["ci_low"].to_numpy(dtype=float))
        high = np.where(np.isnan(rows["ci_high"].to_numpy(dtype=float)), value, rows["ci_high"].to_numpy(dtype=float))
        top = max(top, float(np.nanmax(high)))
        games = int(card["n"].max())
        ax.errorbar(value, y + offset, xerr=[value - low, high - value], fmt="o", capsize=3,
                    label=f"{label} ({games:,} games)")  # fmt: skip
    ax.set_yticks(y, metrics)
    ax.invert_yaxis()
    if unit:
        ax.set_xlim(-0.02, top * 1.02)
        ax.set_xlabel("value (0 to 1) with 95% interval")
    else:
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # there whenever an axes is

        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("value (log scale) with 95% interval")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Report card: " + " vs ".join(cards) if len(cards) <= 2 else "Report cards side by side")
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=2, frameon=False)
    return ax


# ----------------------------------------------------------------------------- Helpers


def _rate_axis(ax: Any) -> None:
    """A 0-1 rate axis with a free band above 1 where the legend sits, clear of the bars."""
    ax.set_ylim(0, 1.22)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.legend(loc="upper center", ncols=3, fontsize="small", frameon=False)


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt  # pyplot only to make a figure a notebook shows

    _, ax = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
    return ax


def _error_bars(ax: Any, x: np.ndarray, value: np.ndarray, low: Any, high: Any) -> None:
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    ax.errorbar(x, value, yerr=[value - low, high - value], fmt="none", ecolor="black", capsize=5, label=_CI_LABEL)


def _n_text(ns: Any) -> str:
    ns = [int(n) for n in ns]
    return f"{min(ns)}" if min(ns) == max(ns) else f"{min(ns)}–{max(ns)}"


def _capped_text(table: pd.DataFrame) -> str:
    capped = int(table["capped"].max()) if "capped" in table else 0
    return f", {capped} capped" if capped else ""


def _wrap(label: str) -> str:
    """An agent label on two lines before its settings (``"mcts\n(iterations=500)"``) when long,
    so neighbouring tick labels do not run into each other."""
    name, bracket, settings = label.partition("(")
    return f"{name}\n{bracket}{settings}" if bracket and len(label) > 10 else label


def _bins(values: np.ndarray) -> Any:
    """Integer-aligned bins (lengths are whole numbers): one per length, or wider ones of equal
    width when the range is large, so no bin straddles a gap between integers."""
    low, high = int(values.min()), int(values.max())
    width = max(1, math.ceil((high - low + 1) / 60))
    return np.arange(low, high + width + 1, width) - 0.5
