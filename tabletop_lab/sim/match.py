"""Matches: a series of games between two sides that swap colours each game, points summed.

Capitals' match rule (spec section 5.4) in a form every two-sided game can use: a side is
one agent spec playing every seat of one team (in two-player games a team is one seat). In
game ``g`` side A holds team ``g % 2`` and side B the other, so over an even number of games
each side plays each colour equally often. A side's points in a game are
``game.team_points(team, scores)`` (by default the sum of its members' ``scores()``); the
side with more points over the match wins it, equal totals draw.

>>> df = play_match("cross_endodoi", ["greedy", "random"], n_games=2, seed=1)
>>> df[["game_no", "side_a_team", "winner"]].to_dict("list")["side_a_team"]
[0, 1]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..agents import Agent, make_agent
from ..core import Game
from .checks import positive_int, resolve_game, seed_value
from .runner import play_game

__all__ = ["play_match", "match_result"]

SIDES = ("A", "B")


def play_match(
    game: str | Game, sides: Sequence[str | Agent], n_games: int = 2, seed: int = 0, max_actions: int | None = None
) -> pd.DataFrame:
    """Play ``n_games`` (even, >= 2) games between two sides; one row per game.

    Columns: ``game_no, side_a_team, points_a, points_b, winner`` (``"A"``, ``"B"`` or
    ``"draw"``; a game cut by a cap is a draw), ``reason``, ``seed``. ``df.attrs`` holds the
    totals and the match winner (see ``match_result``). Game ``g`` is seeded from ``(seed, g)``.
    """
    game = resolve_game(game)
    teams = game.teams()
    if len(teams) != 2:
        raise ValueError(f"a match is between two sides; {game.name} with these options has {len(teams)} teams")
    if isinstance(sides, (str, Agent)) or len(sides) != 2:
        raise ValueError(f"sides must be two agents or specs, one per side; got {sides!r}")
    n_games = positive_int(n_games, "n_games")
    if n_games % 2:
        raise ValueError(f"a match has an even number of games, so that colours swap evenly; got {n_games}")
    seed = seed_value(seed)
    rows = []
    for g in range(n_games):
        game_seed = int(np.random.SeedSequence(seed, spawn_key=(g,)).generate_state(1, np.uint64)[0] >> np.uint64(1))
        team_a = g % 2
        seated = [
            make_agent(sides[0] if game.team_of(seat) == team_a else sides[1], game=game)
            for seat in range(game.num_players)
        ]
        record = play_game(game, seated, seed=game_seed, max_actions=max_actions)
        final = record.replay()
        scores = final.scores()
        points = [game.team_points(team_a, scores), game.team_points(1 - team_a, scores)]
        result = final.result()
        if result is None or result.is_draw:
            winner = "draw"
        else:
            winner = "A" if result.winners[0] in teams[team_a] else "B"
        rows.append(
            {
                "game_no": g,
                "side_a_team": team_a,
                "points_a": points[0],
                "points_b": points[1],
                "winner": winner,
                "reason": "cap" if result is None else result.reason,
                "seed": game_seed,
            }
        )
    df = pd.DataFrame(rows)
    df.attrs.update(
        game=game.name, options=dict(game.options), sides=[_label(s, game) for s in sides], **match_result(df)
    )
    return df


def match_result(df: pd.DataFrame) -> dict:
    """The match's totals and winner: ``points_a, points_b, match_winner`` ("A", "B" or "draw")."""
    a, b = float(df["points_a"].sum()), float(df["points_b"].sum())
    return {"points_a": a, "points_b": b, "match_winner": "A" if a > b else "B" if b > a else "draw"}


def _label(spec: str | Agent, game: Game) -> str:
    return spec.label if isinstance(spec, Agent) else make_agent(spec, game=game).label
