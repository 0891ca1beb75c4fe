"""Statistics over ``simulate`` rows: Wilson intervals and Ludii's game metrics.

Definitions (Ludii's, with draws counting half):

* a seat or agent **scores** 1 per win, 1/2 per draw, 0 per loss; its **rate** is score / n;
* **first-player advantage** (Ludii's AdvantageP1) is the first player's rate;
* **balance** is 1 - the largest difference between two seats' rates;
* **draw rate** (drawishness) is the share of games every player shares;
* **timeouts** are games cut by a cap (``hit_cap``): the runner's ``max_actions`` or a rule's
  safety cap. They have no natural result, so every rate above is over the *completed* games
  only, and timeouts are reported on their own (``timeout_rate``, the ``capped`` columns).

Intervals are Wilson score intervals (sane at 0%, 100% and small n). With draws as halves the
count is not binomial; Wilson on wins + draws/2 is then an approximation.

``report_card`` gathers these and the metrics of recorded games (``tabletop_lab.metrics``) in
one table, with percentile-bootstrap intervals over games (docs/metrics.md); ``compare_variants``
gives each metric's difference between two option sets played on the same seeds, with a paired
bootstrap interval.

>>> [round(bound, 4) for bound in wilson(8, 10)]
[0.4902, 0.9433]
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from . import metrics as per_game

__all__ = [
    "wilson",
    "win_rates",
    "first_player_advantage",
    "draw_rate",
    "timeout_rate",
    "balance",
    "length_summary",
    "summary",
    "report_card",
    "compare_variants",
    "RATE_COLUMNS",
    "CARD_METRICS",
    "CARD_COLUMNS",
    "VARIANT_COLUMNS",
]

_AGENT_COLUMN = re.compile(r"^agent_(\d+)$")
#: The columns of ``win_rates`` after the agent (or seat) column.
RATE_COLUMNS = ["wins", "draws", "losses", "n", "score", "rate", "ci_low", "ci_high", "capped"]


def wilson(k: Any, n: Any, confidence: float = 0.95) -> tuple[Any, Any]:
    """The Wilson score interval ``(low, high)`` for ``k`` successes in ``n`` trials.

    ``k`` may be fractional (draws as halves); ``k`` and ``n`` may be arrays. ``n == 0`` gives
    NaN bounds (no data). Equals ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``
    for integer ``k``.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1; got {confidence!r}")
    k_arr, n_arr = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    if np.any(n_arr < 0) or np.any(k_arr < 0) or np.any(k_arr > n_arr):
        raise ValueError(f"wilson needs 0 <= k <= n; got k={k!r}, n={n!r}")
    z = norm.ppf(0.5 + confidence / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k_arr / n_arr
        d = 1 + z**2 / n_arr
        centre = (p + z**2 / (2 * n_arr)) / d
        half = z * np.sqrt(p * (1 - p) / n_arr + z**2 / (4 * n_arr**2)) / d
    # exact at the ends, where rounding would leave the bound a hair away from the estimate
    low = np.where((k_arr == 0) & (n_arr > 0), 0.0, np.clip(centre - half, 0, 1))
    high = np.where((k_arr == n_arr) & (n_arr > 0), 1.0, np.clip(centre + half, 0, 1))
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def win_rates(df: pd.DataFrame, by: str = "agent") -> pd.DataFrame:
    """Wins, draws and losses per agent, per seat (``by="seat"``) or per team (``by="team"``,
    a team counted once per game, by its index in ``game.teams()``), with Wilson CIs.

    Columns: ``agent`` (or ``seat``, ``team``), ``wins, draws, losses, n`` (completed games),
    ``score`` (wins + draws/2), ``rate`` (score / n), ``ci_low, ci_high``, ``capped``
    (games cut by a cap, not in ``n``). Agents keep their order of first appearance. With
    more than two players a fair seat's rate is not 1/2: a win for one of n is 1/n.
    """
    if by not in ("agent", "seat", "team"):
        raise ValueError(f"by must be 'agent', 'seat' or 'team'; got {by!r}")
    seats = _seats(df)
    if by == "team" and "team_0" not in df.columns:
        raise ValueError("by='team' needs the team_<seat> columns of a simulate() DataFrame")
    keys = {"agent": lambda s: df[f"agent_{s}"], "seat": lambda s: s, "team": lambda s: df[f"team_{s}"]}
    long = pd.concat(
        [
            pd.DataFrame(
                {
                    "game": df.index,
                    by: keys[by](s),
                    "ret": df[f"returns_{s}"],
                    "draw": df["draw"],
                    "capped": df["hit_cap"],
                }
            )
            for s in range(seats)
        ],
        ignore_index=True,
    )
    if by == "team":  # teammates share one result
        long = long.drop_duplicates(["game", "team"])
    done = ~long["capped"]
    long["wins"] = done & (long["ret"] > 0)
    long["draws"] = done & long["draw"]
    long["losses"] = done & (long["ret"] < 0)
    table = long.groupby(by, sort=by != "agent")[["wins", "draws", "losses", "capped"]].sum().astype("int64")
    table = table.reset_index()
    return _rated(table)


def first_player_advantage(df: pd.DataFrame) -> dict[str, float]:
    """Ludii's AdvantageP1 over completed games: the first player's rate, draws counting half.

    The first player is the seat that made the game's first decision (``first_player``), so
    rules that let North start are handled. Returns ``value, ci_low, ci_high, n``.
    """
    done = df.loc[~df["hit_cap"]]
    returns = done[[f"returns_{s}" for s in range(_seats(df))]].to_numpy()
    first = returns[np.arange(len(done)), done["first_player"].to_numpy()]
    return _proportion(float(((first + 1) / 2).sum()), len(done))


def draw_rate(df: pd.DataFrame) -> dict[str, float]:
    """Drawishness: the share of completed games that are draws; ``value, ci_low, ci_high, n``."""
    _seats(df)
    done = df.loc[~df["hit_cap"]]
    return _proportion(float(done["draw"].sum()), len(done))


def timeout_rate(df: pd.DataFrame) -> dict[str, float]:
    """The share of all games cut by a cap; ``value, ci_low, ci_high, n``. Completion is 1 - this."""
    _seats(df)
    return _proportion(float(df["hit_cap"].sum()), len(df))


def balance(df: pd.DataFrame) -> float:
    """1 - the largest difference between two seats' rates (1 is perfectly balanced)."""
    rates = win_rates(df, by="seat")["rate"]
    return float(1 - (rates.max() - rates.min()))


def length_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Game length in turns, moves and actions over completed games (Ludii's DurationTurns and
    DurationMoves): ``n, mean, sd, min, q25, median, q75, max`` and ``capped`` (excluded).
    A turn is a run of moves by one player; a move may take several actions."""
    measures = [m for m in ("n_turns", "n_moves", "n_actions") if m in df.columns]
    done = df.loc[~df["hit_cap"], measures].astype("float64")
    table = done.describe().T.rename(columns={"count": "n", "std": "sd", "25%": "q25", "50%": "median", "75%": "q75"})
    table["n"] = table["n"].astype("int64")
    table["capped"] = int(df["hit_cap"].sum())
    table.index.name = "measure"
    return table


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """The game-level metrics in one table: ``metric, value, ci_low, ci_high, n``."""
    lengths = length_summary(df)
    rows = [
        {"metric": "first_player_advantage", **first_player_advantage(df)},
        {"metric": "draw_rate", **draw_rate(df)},
        {"metric": "timeout_rate", **timeout_rate(df)},
        {"metric": "balance", "value": balance(df), "n": int((~df["hit_cap"]).sum())},
    ]
    for measure in lengths.index:
        n, mean, sd = lengths.loc[measure, ["n", "mean", "sd"]]
        half = norm.ppf(0.975) * sd / np.sqrt(n) if n > 1 else np.nan
        rows.append(
            {"metric": f"mean_{measure}", "value": mean, "ci_low": mean - half, "ci_high": mean + half, "n": int(n)}
        )
    return pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high", "n"])


#: The columns of ``compare_variants``.
VARIANT_COLUMNS = ["metric", "value_a", "value_b", "difference", "ci_low", "ci_high", "n", "definition"]
#: The columns of ``report_card``.
CARD_COLUMNS = ["metric", "value", "ci_low", "ci_high", "n", "definition"]
#: ``report_card``'s metrics, in its order, with their definitions (docs/metrics.md has more).
CARD_METRICS = {
    "balance": "1 - the largest difference between two seats' rates over completed games, draws half "
    "(Ludii Balance); bootstrap interval",
    "advantage_first": "the first player's rate over completed games, draws half (Ludii AdvantageP1); Wilson interval",
    "drawishness": "the share of completed games that are draws (Ludii Drawishness); Wilson interval",
    "completion": "the share of games not cut by a cap (Ludii Completion); Wilson interval",
    "duration_turns": "turns per completed game, a turn a run of moves by one player "
    "(Ludii DurationTurnsNotTimeouts); mean",
    "branching_factor": "legal actions per decision, mean over a game's decisions (Ludii BranchingFactor Avg); "
    "mean over completed games",
    "decision_moves": "the share of a game's decisions with more than one legal action (Ludii DecisionMoves); "
    "mean over completed games",
    "decisiveness": "the share of a decided game's positions before a winner's value first exceeds every "
    "value a loser ever had (Ludii DecisivenessMoves); low is decided early",
    "lead_change": "the share of consecutive positions whose leading team (highest value) differs "
    "(Ludii LeadChange); mean over completed games",
    "drama": "the highest team value minus the winners' value, mean over a decided game's positions (Ludii Drama Avg)",
    "uncertainty": "1 - half the gap between the two highest team values, mean over a game's positions "
    "(after Browne's uncertainty; not Ludii's ClarityVariance)",
    "stability": "the variance of each team's value over a game, mean over teams (Ludii Stability sums over players)",
    "repetition": "the share of a game's positions that repeat an earlier one, by State.key() "
    "(Ludii PositionalRepetition)",
    "coverage": "the share of board sites that held a piece at some position of a game (Ludii BoardCoverageDefault)",
    "state_space_log10": "log10 of the game's own upper bound on its positions (Game.state_space_log10; "
    "Ludii StateSpaceComplexity is such a bound)",
    "game_tree_log10": "a game's decisions times log10 of their mean branching factor, mean over completed games "
    "(Ludii GameTreeComplexity)",
}
_NEEDS_ACTIONS = ("branching_factor", "decision_moves", "game_tree_log10")
_NEEDS_VALUES = ("decisiveness", "lead_change", "drama", "uncertainty", "stability")
_NEEDS_REPLAY = ("repetition", "coverage")
#: Games a bootstrap block resamples at once: about 4 million values per array.
_BLOCK_VALUES = 200_000


def report_card(
    df: pd.DataFrame,
    seed: int = 0,
    *,
    metrics: list[str] | None = None,
    replay: bool = True,
    resamples: int = 2000,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """The designer's report card of a ``simulate`` frame: one row per metric of ``CARD_METRICS``
    (or of ``metrics``, in that order), columns ``CARD_COLUMNS``.

    A metric is averaged over games; its interval is a percentile bootstrap over games
    (``resamples`` resamples of the games, drawn from ``seed``), since positions within one
    game are not independent; the rates ``stats`` already defines keep their Wilson intervals.
    ``n`` counts the games a metric is averaged over. A metric the game cannot have (draws in a
    game without them, coverage without a board) is left out; one the frame cannot give is
    left out with a note in ``card.attrs["notes"]`` saying what to record: ``record_actions=True``
    (branching, decisions, game tree), ``evaluator="evaluate"`` (the value metrics), and, for
    repetition and coverage, the actions and ``replay=True`` (which replays every completed game
    in Python, by ``Game.recorded_positions``). Raises ``ValueError`` for an unknown metric or
    a frame ``simulate`` did not make.
    """
    names = _metric_names(metrics, resamples)
    plan = _card_plan(df, names, replay)
    game, seats, done, wanted, notes, bound = plan.game, plan.seats, plan.done, plan.wanted, plan.notes, plan.bound
    columns = _per_game_columns(df, game, seats, done, wanted)
    means = _bootstrap_means(columns, resamples, seed) if columns else {}
    low_q, high_q = 50 * (1 - confidence), 50 * (1 + confidence)
    rows = []
    for metric in wanted:
        row: dict[str, Any] = {"metric": metric, "definition": CARD_METRICS[metric]}
        if metric == "advantage_first":
            row.update(first_player_advantage(df))
        elif metric == "drawishness":
            row.update(draw_rate(df))
        elif metric == "completion":
            cut = timeout_rate(df)
            row.update(value=1 - cut["value"], ci_low=1 - cut["ci_high"], ci_high=1 - cut["ci_low"], n=cut["n"])
        elif metric == "state_space_log10":
            row.update(value=bound, ci_low=np.nan, ci_high=np.nan, n=len(df))
        elif metric == "balance":
            boot = _balance_means(means, seats)
            row.update(value=balance(df), n=int(done.sum()), **_percentiles(boot, low_q, high_q))
        else:
            x = columns[metric]
            n = int(np.isfinite(x).sum())
            value = float(np.nanmean(x)) if n else np.nan
            row.update(value=value, n=n, **_percentiles(means[metric], low_q, high_q))
        rows.append(row)
    card = pd.DataFrame(rows, columns=CARD_COLUMNS)
    card["n"] = card["n"].astype("int64")
    card.attrs["notes"] = notes
    card.attrs.update({k: df.attrs[k] for k in ("game", "options", "agents", "evaluator") if k in df.attrs})
    return card


def compare_variants(
    df_a: pd.DataFrame,
    df_b: pd.DataFrame,
    seed: int = 0,
    *,
    metrics: list[str] | None = None,
    replay: bool = True,
    resamples: int = 2000,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """What variant B does to each report-card metric against variant A: one row per metric,
    columns ``VARIANT_COLUMNS`` (``difference`` is ``value_b - value_a``).

    ``df_a`` and ``df_b`` are ``simulate`` frames of one game under two option sets, played
    on the same seeds (the same ``seed`` argument and number of games): game ``i`` of A and
    game ``i`` of B share their seed and seating, so the interval is a paired percentile
    bootstrap over games, the same resampled indices for both frames (``resamples`` draws
    from ``seed``). The values are ``report_card``'s; a metric is shown when both frames give
    it (drawishness when either game can draw); notes on the others are in
    ``attrs["notes"]``. ``state_space_log10`` is a bound, not an estimate: its interval is its
    difference. ``n`` counts the pairs where at least one variant gives the metric a value.
    Raises ``ValueError`` for frames of different games, counts or seeds.
    """
    from .sim.frame import frame_game  # sim imports stats: imported here, not above

    names = _metric_names(metrics, resamples)
    _check_paired(df_a, df_b)
    can_draw = frame_game(df_a).can_draw or frame_game(df_b).can_draw
    plans = {side: _card_plan(df, names, replay, can_draw) for side, df in (("a", df_a), ("b", df_b))}
    wanted = [m for m in plans["a"].wanted if m in plans["b"].wanted]
    notes = list(dict.fromkeys(f"{side.upper()}: {note}" for side, plan in plans.items() for note in plan.notes))
    for side, other in (("a", "b"), ("b", "a")):
        only = [m for m in plans[side].wanted if m not in plans[other].wanted]
        if only:
            notes.append(f"{', '.join(only)}: only variant {side.upper()} gives {'it' if len(only) == 1 else 'them'}")
    columns = {}
    for side, df in (("a", df_a), ("b", df_b)):
        plan = plans[side]
        found = _per_game_columns(df, plan.game, plan.seats, plan.done, wanted, rates=True)
        columns.update({f"{side}/{key}": values for key, values in found.items()})
    means = _bootstrap_means(columns, resamples, seed) if columns else {}
    low_q, high_q = 50 * (1 - confidence), 50 * (1 + confidence)
    rows = []
    for metric in wanted:
        row: dict[str, Any] = {"metric": metric, "definition": CARD_METRICS[metric]}
        if metric == "state_space_log10":
            a, b = plans["a"].bound, plans["b"].bound
            row.update(value_a=a, value_b=b, ci_low=b - a, ci_high=b - a, n=len(df_a))
        elif metric == "balance":
            seats = plans["a"].seats
            boot = _balance_means(means, seats, "b/") - _balance_means(means, seats, "a/")
            either = plans["a"].done | plans["b"].done
            row.update(value_a=balance(df_a), value_b=balance(df_b), n=int(either.sum()))
            row.update(_percentiles(boot, low_q, high_q))
        else:
            a, b = columns[f"a/{metric}"], columns[f"b/{metric}"]
            row.update(value_a=_mean(a), value_b=_mean(b), n=int((np.isfinite(a) | np.isfinite(b)).sum()))
            row.update(_percentiles(means[f"b/{metric}"] - means[f"a/{metric}"], low_q, high_q))
        row["difference"] = row["value_b"] - row["value_a"]
        rows.append(row)
    table = pd.DataFrame(rows, columns=VARIANT_COLUMNS)
    table["n"] = table["n"].astype("int64")
    table.attrs["notes"] = notes
    table.attrs.update(game=str(df_a["game"].iat[0]), options_a=_options_of(df_a), options_b=_options_of(df_b))
    return table


def _check_paired(df_a: pd.DataFrame, df_b: pd.DataFrame) -> None:
    """Refuse two frames that are not the same games under two option sets."""
    if _seats(df_a) != _seats(df_b):
        raise ValueError(f"the variants seat {_seats(df_a)} and {_seats(df_b)} players: compare frames of one game")
    games = [str(df["game"].iat[0]) if len(df) else "(no games)" for df in (df_a, df_b)]
    if games[0] != games[1]:
        raise ValueError(f"the variants are games of {games[0]} and {games[1]}: compare frames of one game")
    if not len(df_a) or len(df_a) != len(df_b):
        raise ValueError(
            f"the variants hold {len(df_a)} and {len(df_b)} games: simulate both with the same n_games and seed"
        )
    if "seed" not in df_a.columns or "seed" not in df_b.columns:
        raise ValueError("expected frames from tabletop_lab.sim.simulate; a variant lacks the seed column")
    differ = np.flatnonzero(df_a["seed"].to_numpy() != df_b["seed"].to_numpy())
    if len(differ):
        raise ValueError(
            f"game {differ[0]} has seed {df_a['seed'].iat[differ[0]]} in variant A and "
            f"{df_b['seed'].iat[differ[0]]} in B: simulate both with the same seed"
        )


def _mean(values: np.ndarray) -> float:
    return float(np.nanmean(values)) if np.isfinite(values).any() else np.nan


def _options_of(df: pd.DataFrame) -> str:
    return str(df["options"].iat[0])


def _metric_names(metrics: list[str] | None, resamples: int) -> list[str]:
    """The metrics asked for, checked: all of ``CARD_METRICS`` for None."""
    if isinstance(metrics, str) or not (metrics is None or isinstance(metrics, (list, tuple))):
        raise ValueError(f"metrics must be None or a list of metric names; got {metrics!r}"[:300])
    names = list(CARD_METRICS) if metrics is None else list(metrics)
    unknown = [m for m in names if m not in CARD_METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; report_card knows {', '.join(CARD_METRICS)}")
    if type(resamples) is not int or resamples < 1:
        raise ValueError(f"resamples must be a positive integer; got {resamples!r}")
    return names


@dataclass
class _Plan:
    """What a card of one frame can show: its game, seats, completed games (``done``), the
    metrics it gives (``wanted``, in the order asked), notes on the others, the state-space bound."""

    game: Any
    seats: int
    done: np.ndarray
    wanted: list[str]
    notes: list[str]
    bound: float | None


def _card_plan(df: pd.DataFrame, names: list[str], replay: bool, can_draw: bool | None = None) -> _Plan:
    """Which of ``names`` the frame gives (``report_card`` explains the rules); ``can_draw``
    overrides the game's own ``can_draw`` (a comparison keeps draws if either variant has them)."""
    from .sim.frame import frame_game  # sim imports stats: imported here, not above

    seats = _seats(df)
    game = frame_game(df)
    done = ~df["hit_cap"].to_numpy()
    recorded = {c for c in ("actions", "n_legal", "values") if c in df.columns}
    notes: list[str] = []
    absent = set()
    if not (game.can_draw if can_draw is None else can_draw):
        absent.add("drawishness")
    if game.num_sites is None:
        absent.add("coverage")
    bound = game.state_space_log10()
    if bound is None and "state_space_log10" in names:
        absent.add("state_space_log10")
        notes.append(f"state_space_log10: {game.name} declares no bound (Game.state_space_log10)")
    wanted = [m for m in names if m not in absent]

    def needs(group: tuple[str, ...], column: str, what: str) -> None:
        missing = [m for m in wanted if m in group and m not in absent]
        if missing and column not in recorded:
            absent.update(missing)
            notes.append(f"{', '.join(missing)}: simulate with {what}")

    needs(_NEEDS_ACTIONS, "n_legal", "record_actions=True")
    needs(_NEEDS_VALUES, "values", 'evaluator="evaluate"')
    needs(_NEEDS_REPLAY, "actions", "record_actions=True")
    if not replay and any(m in wanted and m not in absent for m in _NEEDS_REPLAY):
        missing = [m for m in _NEEDS_REPLAY if m in wanted and m not in absent]
        absent.update(missing)
        notes.append(f"{', '.join(missing)}: call report_card with replay=True")
    return _Plan(game, seats, done, [m for m in wanted if m not in absent], notes, bound)


def _per_game_columns(
    df: pd.DataFrame,
    game: Any,
    seats: int,
    done: np.ndarray,
    wanted: list[str],
    rates: bool = False,
) -> dict[str, np.ndarray]:
    """Each bootstrapped metric's value per game (NaN where a game gives none), and for balance
    each seat's score per completed game (``seat_<s>``: 1 a win, 1/2 a draw, 0 a loss). With
    ``rates`` the Wilson-interval rates get columns too (the first player's score, a draw, not
    cut), so that a paired bootstrap can take their differences."""
    n = len(df)
    out: dict[str, np.ndarray] = {}
    if rates and "advantage_first" in wanted:
        returns = df[[f"returns_{s}" for s in range(seats)]].to_numpy(np.float64)
        first = returns[np.arange(n), df["first_player"].to_numpy(np.int64)]
        out["advantage_first"] = np.where(done, (first + 1) / 2, np.nan)
    if rates and "drawishness" in wanted:
        out["drawishness"] = np.where(done, df["draw"].to_numpy(np.float64), np.nan)
    if rates and "completion" in wanted:
        out["completion"] = done.astype(np.float64)

    def column(metric: str, rows: Any, function: Any) -> None:
        if metric in wanted:
            values = np.full(n, np.nan)
            for i in np.flatnonzero(rows):
                values[i] = function(i)
            out[metric] = values

    if "balance" in wanted:
        for s in range(seats):
            out[f"seat_{s}"] = np.where(done, (df[f"returns_{s}"].to_numpy(np.float64) + 1) / 2, np.nan)
    if "duration_turns" in wanted:
        out["duration_turns"] = np.where(done, df["n_turns"].to_numpy(np.float64), np.nan)
    if any(m in wanted for m in _NEEDS_ACTIONS):
        legal = df["n_legal"].to_numpy()
        column("branching_factor", done, lambda i: per_game.branching_factor(legal[i]))
        column("decision_moves", done, lambda i: per_game.decision_moves(legal[i]))
        column("game_tree_log10", done, lambda i: per_game.game_tree_log10(legal[i]))
    if any(m in wanted for m in _NEEDS_VALUES):
        n_teams = len(game.teams())
        matrices = [per_game.team_values(v, n_teams) for v in df["values"]]
        team_columns = df[[f"team_{s}" for s in range(seats)]].to_numpy()
        winners = [frozenset(int(team_columns[i, s]) for s in w) for i, w in enumerate(df["winners"])]
        decided = done & ~df["draw"].to_numpy()
        column("decisiveness", decided, lambda i: per_game.decisiveness(matrices[i], winners[i]))
        column("lead_change", done, lambda i: per_game.lead_change(matrices[i]))
        column("drama", decided, lambda i: per_game.drama(matrices[i], winners[i]))
        column("uncertainty", done, lambda i: per_game.uncertainty(matrices[i]))
        column("stability", done, lambda i: per_game.stability(matrices[i]))
    if any(m in wanted for m in _NEEDS_REPLAY):
        repeated, covered = np.full(n, np.nan), np.full(n, np.nan)
        sites = game.num_sites
        for i in np.flatnonzero(done):
            keys, masks = zip(*game.recorded_positions(df["actions"].iat[i]))
            repeated[i] = per_game.repetition(keys)
            if sites is not None:
                covered[i] = per_game.coverage(masks, sites)
        for metric, values in (("repetition", repeated), ("coverage", covered)):
            if metric in wanted:
                out[metric] = values
    return out


def _bootstrap_means(columns: dict[str, np.ndarray], resamples: int, seed: int) -> dict[str, np.ndarray]:
    """Each column's mean (over the games where it is defined) in ``resamples`` resamples of the
    games with replacement, drawn from ``seed``. The draws depend on the number of games alone,
    so a metric's interval does not depend on which others are asked for."""
    names = list(columns)
    matrix = np.column_stack([columns[name] for name in names])
    n = len(matrix)
    if n == 0:
        return {name: np.full(resamples, np.nan) for name in names}
    rng = np.random.default_rng(seed)
    block = max(1, _BLOCK_VALUES // n)
    means = []
    for start in range(0, resamples, block):
        picked = matrix[rng.integers(0, n, (min(block, resamples - start), n))]  # (block, games, columns)
        counts = np.isfinite(picked).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.nansum(picked, axis=1) / counts)
    stacked = np.concatenate(means)
    return {name: stacked[:, j] for j, name in enumerate(names)}


def _balance_means(means: dict[str, np.ndarray], seats: int, prefix: str = "") -> np.ndarray:
    """Balance in each resample, from the resampled seat scores (``seat_<s>`` columns)."""
    rates = np.column_stack([means[f"{prefix}seat_{s}"] for s in range(seats)])
    return 1 - (rates.max(axis=1) - rates.min(axis=1))


def _percentiles(boot: np.ndarray, low_q: float, high_q: float) -> dict[str, float]:
    finite = boot[np.isfinite(boot)]
    if not len(finite):
        return {"ci_low": np.nan, "ci_high": np.nan}
    low, high = np.percentile(finite, [low_q, high_q])
    return {"ci_low": float(low), "ci_high": float(high)}


def tournament(*args: Any, **kwargs: Any) -> pd.DataFrame:
    """Deprecated: ``tabletop_lab.sim.tournament``, which this calls (kept for one release)."""
    warnings.warn(
        "tabletop_lab.stats.tournament moved to tabletop_lab.sim.tournament; this alias goes in the next release",
        DeprecationWarning,
        stacklevel=2,
    )
    from .sim.tournament import tournament  # sim imports stats: imported here, not above

    return tournament(*args, **kwargs)


# ----------------------------------------------------------------------------- Helpers


def _seats(df: pd.DataFrame) -> int:
    """How many seats a ``simulate`` DataFrame has (its ``agent_<i>`` columns)."""
    seats = sum(1 for c in df.columns if _AGENT_COLUMN.match(str(c)))
    missing = [c for c in ("hit_cap", "draw", "first_player", "returns_0") if c not in df.columns]
    if not seats or missing:
        raise ValueError(
            f"expected a DataFrame from tabletop_lab.sim.simulate; it lacks {', '.join(missing) or 'agent_0'}"
        )
    return seats


def _rated(table: pd.DataFrame) -> pd.DataFrame:
    """Add ``n, score, rate`` and the Wilson interval to a table of wins, draws and losses."""
    wins, draws, losses = table["wins"], table["draws"], table["losses"]
    table["n"] = wins + draws + losses
    table["score"] = wins + draws / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        table["rate"] = table["score"] / table["n"]
    table["ci_low"], table["ci_high"] = wilson(table["score"].to_numpy(), table["n"].to_numpy())
    key = table.columns[0]
    return table[[key, *RATE_COLUMNS]]


def _proportion(k: float, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"value": k / n if n else float("nan"), "ci_low": low, "ci_high": high, "n": n}
