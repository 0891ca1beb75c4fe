"""Building the results DataFrame from the columns of finished batches (``batch.play_batch``).

Repeated values are categoricals (game, options, agents, winners, reason) and counts are small
integers: about 95 bytes a row (Cross-endodoi) instead of 430 with lists and strings.
``storable`` readies a frame for Parquet; ``frame_game`` and ``replay_actions`` rebuild a
recorded game's states.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from ..core import Game, State, canonical_json
from ..kernels import CUT, FINISHED
from ..registry import load_game
from .batch import COLUMNS
from .checks import resolve_game

__all__ = ["build_frame", "storable", "frame_game", "replay_actions"]


def build_frame(
    batches: list[dict[str, Any]], game: Game, labels: list[str], recorded: tuple[str, ...] = ()
) -> pd.DataFrame:
    """The DataFrame of ``play_batch`` columns, sorted by game id, with agent labels filled in.

    Repeated values are categoricals (game, options, agents, winners, reason) and counts are
    small integers: about 95 bytes a row (Cross-endodoi) instead of 430 with lists and strings.
    ``winners`` and ``winner_agents`` hold tuples (``storable`` readies a frame for Parquet).
    ``recorded`` names the recorded columns the batches hold (``batch.recorded_columns``).
    """
    n = len(labels)
    batches = sorted(batches, key=lambda b: int(b["game_id"][0]) if len(b["game_id"]) else -1)
    numbers = [name for name in COLUMNS if name not in ("reason", "final")]
    col = {name: _concat([b[name] for b in batches]) for name in numbers} if batches else _empty_columns(n)
    col["final"] = [b["final"] for b in batches]
    rows = len(col["game_id"])
    seating = np.asarray(col["seating"], np.int8).reshape(rows, n)
    winners = np.asarray(col["winners"], np.int64)
    outcome = np.asarray(col["outcome"], np.int8)
    everyone = (1 << n) - 1
    data: dict[str, Any] = {
        "game_id": np.asarray(col["game_id"], np.int32),
        "game": pd.Categorical.from_codes(np.zeros(rows, np.int8), [game.name]),
        "options": pd.Categorical.from_codes(np.zeros(rows, np.int8), [canonical_json(game.options)]),
        "seed": np.asarray(col["seed"], np.int64),
    }
    for s in range(n):
        data[f"agent_{s}"] = pd.Categorical.from_codes(seating[:, s], labels)
    for s in range(n):
        data[f"team_{s}"] = np.full(rows, game.team_of(s), np.int8)
    data["first_player"] = np.asarray(col["first_player"], np.int8)
    subsets = [tuple(p for p in range(n) if mask >> p & 1) for mask in range(1 << n)]
    data["winners"] = pd.Categorical.from_codes(winners, _objects(subsets))
    data["winner_agents"] = _winner_agents(winners, seating, labels, subsets)
    draw = (winners == everyone) & (outcome == FINISHED)
    for s in range(n):  # as Result.returns(): +1 a winner, -1 the others, 0 in a draw; 0 for a cut game
        returns = np.where(winners >> s & 1, 1.0, -1.0).astype(np.float32)
        returns[(winners == everyone) | (outcome == CUT)] = 0.0
        data[f"returns_{s}"] = returns
    scores = np.asarray(col["scores"]).reshape(rows, n)
    if np.issubdtype(scores.dtype, np.integer) or (scores == np.round(scores)).all():
        scores = scores.astype(np.int32)
    for s in range(n):
        data[f"score_{s}"] = scores[:, s]
    data["reason"] = _reasons([b["reason"] for b in batches])
    data["n_turns"] = np.asarray(col["n_turns"], np.int32)
    data["n_moves"] = np.asarray(col["n_moves"], np.int32)
    data["n_actions"] = np.asarray(col["n_actions"], np.int32)
    data["hit_cap"] = outcome != FINISHED
    data["duration_s"] = np.asarray(col["duration_s"], np.float32)
    data["final"] = _text(col["final"])
    data["draw"] = draw
    for name in recorded:  # batch.recorded_columns: one numpy array per game
        data[name] = pd.Series([a for b in batches for a in b[name]], dtype=object)
    return pd.DataFrame(data, index=pd.RangeIndex(rows))


def storable(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` ready for ``to_parquet``: categoricals of tuples (``winners``, ``winner_agents``)
    become plain columns of tuples, which Parquet stores as lists (it cannot store them as
    categories). Other frames are returned as they are."""
    tuples = [
        c
        for c in df.columns
        if isinstance(df[c].dtype, pd.CategoricalDtype) and any(isinstance(v, tuple) for v in df[c].cat.categories)
    ]
    return df.astype({c: object for c in tuples}) if tuples else df


def frame_game(df: pd.DataFrame) -> Game:
    """The game (with its rule options) whose games a ``simulate`` frame holds; ``ValueError``
    for a frame of several games or option sets, or one without the ``game, options`` columns."""
    missing = [c for c in ("game", "options") if c not in df.columns]
    if missing:
        raise ValueError(f"expected a DataFrame from tabletop_lab.sim.simulate; it lacks {', '.join(missing)}")
    pairs = df[["game", "options"]].astype(str).drop_duplicates()
    if len(pairs) != 1:
        raise ValueError(f"expected the games of one game and option set; this frame has {len(pairs)}")
    name, options = pairs.iloc[0]
    return load_game(name, **json.loads(options))


def replay_actions(game: Game | str, actions: Iterable[int]) -> Iterator[State]:
    """The states of a recorded game (a row's ``actions``): the initial state, then the state
    after each action. One state is advanced in place and yielded each time, so a replay costs
    no copies: ``clone()`` a state to keep it. An action the rules do not allow there raises
    the engine's ``IllegalActionError`` naming it."""
    state = resolve_game(game).new_initial_state()
    yield state
    for action in actions:
        state.apply_action(int(action))
        yield state


def _winner_agents(winners: np.ndarray, seating: np.ndarray, labels: list[str], subsets: list[tuple]) -> pd.Categorical:
    """The winners' agent labels in seat order; every possible tuple is a category, so frames
    of the same agents share one dtype whatever games they hold."""
    categories = [t for k in range(len(labels) + 1) for t in itertools.permutations(labels, k)]
    index = {t: i for i, t in enumerate(categories)}
    n, bits = len(labels), max(1, (len(labels) - 1).bit_length())
    keys = winners.copy()  # one integer per (winners, seating): the mask, then each seat's agent
    for seat in range(n):
        keys += seating[:, seat].astype(np.int64) << (n + bits * seat)
    codes, distinct = pd.factorize(keys)  # hashing: no sort of every row
    agent_in = [[int(key) >> (n + bits * p) & ((1 << bits) - 1) for p in range(n)] for key in distinct]
    code_of = np.array(
        [
            index[tuple(labels[seats[p]] for p in subsets[int(key) & ((1 << n) - 1)])]
            for key, seats in zip(distinct, agent_in)
        ],
        np.int32,
    )
    codes = code_of[codes] if len(winners) else np.zeros(0, np.int32)
    return pd.Categorical.from_codes(codes, _objects(categories))


def _reasons(batches: list[tuple[np.ndarray, tuple[str, ...]]]) -> pd.Categorical:
    """The batches' ``(codes, words)`` as one Categorical; its categories are the reasons met, and "cap"."""
    met = {"cap"}
    for codes, words in batches:
        met.update(words[i] for i in np.flatnonzero(np.bincount(codes, minlength=len(words))))
    categories = sorted(met)
    index = {word: i for i, word in enumerate(categories)}
    parts = [np.array([index.get(w, -1) for w in words], np.int8)[codes] for codes, words in batches]
    return pd.Categorical.from_codes(np.concatenate(parts) if parts else np.zeros(0, np.int8), categories)


def _objects(values: list) -> pd.Index:
    return pd.Index(values, dtype=object, tupleize_cols=False)


def _text(parts: list) -> pd.api.extensions.ExtensionArray:
    """Strings (lists of ``str``, Arrow string arrays, or kernels' arrays of ASCII bytes) as one
    pandas ``str`` array; Arrow arrays are joined without a Python object per row."""
    if parts and all(type(p).__module__.startswith("pyarrow") for p in parts):
        import pyarrow as pa

        return pd.array(pa.chunked_array(parts, type=pa.large_string()).combine_chunks(), dtype="str")
    texts = [p.astype(str) if isinstance(p, np.ndarray) and p.dtype.kind == "S" else p for p in parts]
    return pd.array(np.asarray([t for p in texts for t in p], dtype=str), dtype="str")


def _concat(parts: list) -> Any:
    if all(isinstance(p, np.ndarray) for p in parts):
        return np.concatenate(parts)
    return [x for p in parts for x in p]


def _empty_columns(n_seats: int) -> dict[str, Any]:
    return {name: np.zeros((0, n_seats) if name in ("seating", "scores") else 0) for name in COLUMNS}
