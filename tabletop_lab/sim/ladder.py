"""Levels of play (after mrraow's ladders): random, then the game's simple player, then its
expert at doubling budgets; each level plays the level below, and the ladder stops at the first
level that is not significantly stronger than the one below it (its interval reaches down to 0.5:
it contains 0.5, or the level is weaker).

A game is played between two *sides*: every seat of a team plays the side's agent (in
two-player games a team is one seat), and side A (the higher level) holds each team in turn, so
colours and seats are balanced. A side scores 1 for a win, 1/2 for a draw and for a game cut by
a cap, 0 for a loss; the interval is Wilson's, 95%.

>>> ladder_levels(load_game("sinoda"), levels=3, budget=4000)
['random', 'greedy', 'expert:iterations=1000', 'expert:iterations=2000', 'expert:iterations=4000']
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..agents import agents_for, make_agent
from ..core import Game
from ..registry import load_game  # noqa: F401  (the doctest's)
from ..stats import wilson
from .checks import Progress, check_progress, positive_int, progress_reporter, resolve_game, seed_value
from .runner import simulate

__all__ = ["ladder", "ladder_levels", "head_to_head", "SIMPLE_PLAYERS", "LADDER_COLUMNS"]

#: The second rung, the first the game supports: a one-ply player, else a game's own heuristic.
SIMPLE_PLAYERS = ("greedy", "sinomilia_heuristic")
#: One row per rung above the first.
LADDER_COLUMNS = ["level", "agent", "opponent", "wins", "draws", "losses", "capped", "n", "rate", "ci_low", "ci_high"]


def ladder_levels(game: Game, levels: int = 4, budget: int | None = None) -> list[str]:
    """The rungs for ``game``: ``random``, its simple player (``SIMPLE_PLAYERS``), then
    ``levels`` expert budgets doubling up to ``budget`` (default: the expert's own)."""
    levels = positive_int(levels, "levels")
    names = agents_for(game)
    if "expert" not in names:
        raise ValueError(f"{game.name} has no expert agent; its agents: {', '.join(names)}")
    top = make_agent("expert", game=game).iterations if budget is None else positive_int(budget, "budget")
    if top >> (levels - 1) < 1:
        raise ValueError(f"budget {top} cannot be halved {levels - 1} times; use fewer levels or a larger budget")
    rungs = ["random", *(name for name in SIMPLE_PLAYERS if name in names)][:2]
    rungs += [f"expert:iterations={top >> k}" for k in range(levels - 1, -1, -1)]
    return rungs


def head_to_head(
    game: Game, a: str, b: str, n_games: int, seed: int = 0, workers: int = 1, progress: Progress = False
) -> dict[str, Any]:
    """``a`` against ``b``, side by side (see the module docstring): ``wins, draws, losses,
    capped, n, rate, ci_low, ci_high`` for ``a``. Side A holds team ``g % 2`` in game ``g``."""
    teams = game.teams()
    if len(teams) != 2:
        raise ValueError(f"a head-to-head is between two sides; {game.name} with these options has {len(teams)} teams")
    n_games = positive_int(n_games, "n_games")
    counts = {"wins": 0, "draws": 0, "losses": 0, "capped": 0}
    done = 0
    for team_a in (0, 1):
        n = (n_games + 1 - team_a) // 2
        if not n:
            continue
        seated = [a if game.team_of(seat) == team_a else b for seat in range(game.num_players)]
        df = simulate(
            game,
            seated,
            n,
            seed=seed * 2 + team_a,
            workers=workers,
            seats="fixed",
            progress=lambda k, _, base=done: progress(base + k, n_games) if callable(progress) else None,
        )
        done += n
        side = set(teams[team_a])
        for winners, draw, capped in zip(df["winners"], df["draw"], df["hit_cap"]):
            if capped:
                counts["capped"] += 1
            elif draw:
                counts["draws"] += 1
            elif side & set(winners):
                counts["wins"] += 1
            else:
                counts["losses"] += 1
    score = counts["wins"] + 0.5 * (counts["draws"] + counts["capped"])
    low, high = wilson(score, n_games)
    return {**counts, "n": n_games, "rate": score / n_games, "ci_low": float(low), "ci_high": float(high)}


def ladder(
    game: str | Game,
    n_games: int = 40,
    levels: int = 4,
    budget: int | None = None,
    seed: int = 0,
    workers: int = 1,
    progress: Progress = True,
) -> pd.DataFrame:
    """Climb ``ladder_levels(game, levels, budget)``: rung ``i`` plays rung ``i - 1`` for
    ``n_games`` games; stop after the first rung not shown stronger (``ci_low <= 0.5``). One row per rung
    played (``LADDER_COLUMNS``); ``df.attrs`` holds the game, options, rungs (with their
    budgets), games, seed and ``stopped`` (the level it stopped at, or None when it reached the top).
    Rung ``i``'s match is seeded from ``(seed, i)``."""
    game = resolve_game(game)
    n_games, seed = positive_int(n_games, "n_games"), seed_value(seed)
    workers = positive_int(workers, "workers")
    check_progress(progress)
    rungs = ladder_levels(game, levels, budget)
    labels = [make_agent(spec, game=game).label for spec in rungs]
    report, close = progress_reporter(progress, (len(rungs) - 1) * n_games, f"{game.name} ladder")
    rows = []
    stopped = None
    try:
        for level in range(1, len(rungs)):
            rung_seed = int(
                np.random.SeedSequence(seed, spawn_key=(level,)).generate_state(1, np.uint64)[0] >> np.uint64(2)
            )
            base = (level - 1) * n_games
            result = head_to_head(
                game,
                rungs[level],
                rungs[level - 1],
                n_games,
                rung_seed,
                workers,
                progress=lambda done, _, base=base: report(base + done),
            )
            rows.append({"level": level, "agent": labels[level], "opponent": labels[level - 1], **result})
            if result["ci_low"] <= 0.5:  # equal within the interval, or weaker
                stopped = level
                break
    finally:
        close()
    df = pd.DataFrame(rows, columns=LADDER_COLUMNS)
    df.attrs.update(
        game=game.name, options=dict(game.options), rungs=labels, n_games=n_games, seed=seed, stopped=stopped
    )
    return df
