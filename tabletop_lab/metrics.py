"""Per-game designer's metrics (Ludii's, after Browne): plain numpy on one recorded game.

Each function reads one game's recorded arrays (``simulate(record_actions=True,
evaluator="evaluate")``) and returns a float, NaN when the game gives the metric no value (too
short, no winner). ``stats.report_card`` averages them over games and bootstraps the
intervals. docs/metrics.md states each definition, its source in Ludii and where ours differs.

Values come as a ``(positions, teams)`` matrix, ``team_values``: row ``t`` holds each team's
evaluation of the position before move ``t``, in [-1, 1] (+1 a sure win for that team).

>>> v = team_values(np.array([0.1, -0.2, 0.3], np.float32), 2)  # two teams: team 0's values
>>> lead_change(v), round(uncertainty(v), 3)
(1.0, 0.8)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import numpy as np

__all__ = [
    "team_values",
    "branching_factor",
    "decision_moves",
    "game_tree_log10",
    "lead_change",
    "drama",
    "decisiveness",
    "uncertainty",
    "stability",
    "repetition",
    "coverage",
]


def team_values(values: np.ndarray, n_teams: int) -> np.ndarray:
    """A game's ``values`` column as a ``(positions, teams)`` matrix. A game of two teams
    records team 0's value alone (team 1's is its negation); others record one value per team
    and position, position by position."""
    values = np.asarray(values, np.float64)
    if n_teams < 2:
        raise ValueError(f"team_values needs 2 or more teams; got {n_teams!r}")
    if n_teams == 2:
        return np.column_stack([values, -values])
    if values.size % n_teams:
        raise ValueError(f"{values.size} values do not make whole positions of {n_teams} teams")
    return values.reshape(-1, n_teams)


def branching_factor(n_legal: np.ndarray) -> float:
    """The mean number of legal actions over the game's decisions (Ludii's BranchingFactor, Avg)."""
    return float(np.mean(n_legal)) if len(n_legal) else float("nan")


def decision_moves(n_legal: np.ndarray) -> float:
    """The share of decisions with more than one legal action (Ludii's DecisionMoves)."""
    return float(np.mean(np.asarray(n_legal) > 1)) if len(n_legal) else float("nan")


def game_tree_log10(n_legal: np.ndarray) -> float:
    """log10 of the game tree a game of this length and branching spans: decisions times
    log10 of their mean branching factor (Ludii's GameTreeComplexity, per game)."""
    if not len(n_legal):
        return float("nan")
    return float(len(n_legal) * np.log10(np.mean(n_legal)))


def _leaders(values: np.ndarray) -> np.ndarray:
    """A boolean ``(positions, teams)`` matrix: the teams whose value is the position's highest."""
    return values == values.max(axis=1, keepdims=True)


def lead_change(values: np.ndarray) -> float:
    """The share of consecutive positions whose leaders (the teams valued highest, ties
    included) differ (Ludii's LeadChange): 0 when the lead never changes, 1 when it changes
    every move; NaN for a game of fewer than two positions."""
    if len(values) < 2:
        return float("nan")
    leaders = _leaders(values)
    return float(np.mean((leaders[1:] != leaders[:-1]).any(axis=1)))


def drama(values: np.ndarray, winners: Collection[int]) -> float:
    """How far behind the eventual winners were, on average over the positions: the highest
    team value minus the winners' mean value (Ludii's Drama, Avg); NaN without winners."""
    if not len(values) or not winners:
        return float("nan")
    behind = values.max(axis=1) - values[:, sorted(winners)].mean(axis=1)
    return float(behind.mean())


def decisiveness(values: np.ndarray, winners: Collection[int]) -> float:
    """When the game was decided, as a share of its positions (Ludii's DecisivenessMoves): the
    threshold is the highest value any losing team reached; the game is decided at the first
    position where a winner is valued above it (at the end if never). Low: decided early.
    NaN without winners or losers."""
    losers = [k for k in range(values.shape[1]) if k not in winners]
    if not len(values) or not winners or not losers:
        return float("nan")
    threshold = values[:, losers].max()
    above = np.flatnonzero((values[:, sorted(winners)] > threshold).any(axis=1))
    return float(above[0] / len(values)) if len(above) else 1.0


def uncertainty(values: np.ndarray) -> float:
    """How open the outcome looked, averaged over the positions: 1 minus half the gap between
    the two highest team values (1 at an even position, 0 when one team is at +1 and the next
    at -1). Two teams: the mean of ``1 - |v|``."""
    if not len(values):
        return float("nan")
    top = np.sort(values, axis=1)[:, -2:]
    return float(np.mean(1 - (top[:, 1] - top[:, 0]) / 2))


def stability(values: np.ndarray) -> float:
    """The variance of each team's value over the game, averaged over the teams (Ludii's
    Stability sums it over the players): 0 when the evaluation never moves."""
    if not len(values):
        return float("nan")
    return float(np.var(values, axis=0).mean())


def repetition(keys: Iterable[object]) -> float:
    """The share of the game's positions (the start and after each move) that repeat an earlier
    one (Ludii's PositionalRepetition): ``1 - distinct / total``."""
    keys = list(keys)
    return 1 - len(set(keys)) / len(keys) if keys else float("nan")


def coverage(masks: Iterable[int], num_sites: int) -> float:
    """The share of the board's sites that held a piece at some position of the game (Ludii's
    BoardCoverageDefault); ``masks`` are the positions' occupied sites as bit masks."""
    seen = 0
    for mask in masks:
        seen |= mask
    return seen.bit_count() / num_sites
