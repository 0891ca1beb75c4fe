"""Round robins: every set of distinct agents that fills a game's seats plays a match of games.

>>> df = tournament("cross_endodoi", ["random", "greedy", "random"], 4, seed=1, progress=False)
>>> df[["agent", "opponent"]].drop_duplicates().shape[0]
6
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..agents import Agent, make_agent
from ..core import Game
from ..stats import RATE_COLUMNS, win_rates
from .checks import check_progress, positive_int, progress_reporter, resolve_game, seed_value, unique_labels
from .runner import simulate

__all__ = ["tournament"]


def tournament(
    game: str | Game,
    agents: Sequence[str | Agent],
    n_games: int,
    seed: int = 0,
    workers: int = 1,
    progress: Any = True,
) -> pd.DataFrame:
    """A round robin: every set of distinct agents that fills the game's seats plays
    ``n_games`` games (seats rotating); one row per agent and match.

    In two-player games ``opponent`` is the other agent; with more seats it joins the others'
    labels with ``" & "``. Columns: ``agent, opponent`` then those of ``win_rates``. Match ``i``
    is seeded from ``(seed, i)``. ``progress`` counts games over the whole tournament.
    """
    game = resolve_game(game)
    if isinstance(agents, (str, Agent)) or not isinstance(agents, Sequence):
        raise ValueError(f"agents must be a list of agents or specs; got {agents!r}")
    built = [make_agent(spec, game=game) for spec in agents]
    seats = game.num_players
    if len(built) < max(seats, 2):
        raise ValueError(f"a {game.name} tournament needs at least {max(seats, 2)} agents; got {len(built)}")
    n_games, seed = positive_int(n_games, "n_games"), seed_value(seed)
    check_progress(progress)
    labels = unique_labels([a.label for a in built])
    matches = list(itertools.combinations(range(len(built)), seats))
    total = len(matches) * n_games
    report, close = progress_reporter(progress, total, "tournament")
    tables = []
    interrupted = False
    try:
        for i, match in enumerate(matches):
            match_seed = int(
                np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(1, np.uint64)[0] >> np.uint64(1)
            )
            df = simulate(
                game,
                [built[j] for j in match],
                n_games,
                match_seed,
                workers=workers,
                progress=lambda done, _, base=i * n_games: report(base + done),
            )
            # simulate labels each match on its own; name the agents as the tournament does
            names = dict(zip(df.attrs["agents"], (labels[j] for j in match)))
            agents = [f"agent_{s}" for s in range(seats)]  # categoricals: rename their categories
            table = win_rates(df.assign(**{c: df[c].cat.rename_categories(names) for c in agents}))
            table.insert(
                1, "opponent", [" & ".join(labels[j] for j in match if labels[j] != a) for a in table["agent"]]
            )
            tables.append(table)
            if df.attrs["interrupted"]:
                interrupted = True
                break
    finally:
        close()
    columns = ["agent", "opponent", *RATE_COLUMNS]
    result = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=columns)
    result.attrs.update(
        game=game.name, options=dict(game.options), agents=labels, seed=seed, n_games=n_games, interrupted=interrupted
    )
    return result
