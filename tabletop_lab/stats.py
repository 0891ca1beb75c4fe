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

>>> [round(bound, 4) for bound in wilson(8, 10)]
[0.4902, 0.9433]
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

__all__ = [
    "wilson",
    "win_rates",
    "first_player_advantage",
    "draw_rate",
    "timeout_rate",
    "balance",
    "length_summary",
    "summary",
    "RATE_COLUMNS",
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
