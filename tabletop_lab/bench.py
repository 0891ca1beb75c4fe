"""Speed measures shared by ``tabletop-lab bench`` and ``scripts/bench_anchors.py``.

Each measure runs for about ``seconds`` of wall-clock time and returns rates. ``compiled``
chooses the path: the Python engine (the reference) or the game's compiled kernel
(``tabletop_lab.kernels``); a game without a kernel has no compiled figures (``None``).
Figures on a shared machine are noisy: alternate the paths and repeat.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from .core import Game
from .kernels import playout_kernel, use_kernels
from .streams import choice_index, next_draw

__all__ = ["RandomRate", "random_play", "simulate_rate", "report_card_seconds", "mcts_rate"]


class RandomRate(NamedTuple):
    games_per_s: float
    actions_per_s: float
    actions_per_game: float


def random_play(game: Game, seconds: float, *, compiled: bool) -> RandomRate | None:
    """Uniformly random games from the initial position, in a tight loop (no agents, no rows)."""
    cap = game.info.max_actions
    n_games = n_actions = 0
    if compiled:
        kernel = playout_kernel(game)
        if kernel is None:
            return None
        rng = np.random.default_rng(0)
        batch = 1000
        kernel.random_games(game, rng.integers(0, 2**64, (1, game.num_players), np.uint64), cap)  # load
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            streams = rng.integers(0, 2**64, (batch, game.num_players), np.uint64)
            n_actions += int(kernel.random_games(game, streams, cap).n_actions.sum())
            n_games += batch
    else:
        stream = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            state = game.new_initial_state()
            legal_actions, apply_action = state.legal_actions, state.apply_action
            played = 0
            while played < cap:
                legal = legal_actions()
                if not legal:
                    break
                stream, draw = next_draw(stream)
                apply_action(legal[choice_index(draw, len(legal))])
                played += 1
            n_games += 1
            n_actions += played
    elapsed = time.perf_counter() - started
    return RandomRate(n_games / elapsed, n_actions / elapsed, n_actions / n_games)


def simulate_rate(game: Game, n_games: int, *, compiled: bool, workers: int = 1) -> float | None:
    """Games/s of ``simulate`` with random players in every seat (one DataFrame row each)."""
    from .sim import simulate

    if compiled and playout_kernel(game) is None:
        return None
    with _kernels(compiled):
        started = time.perf_counter()
        simulate(game, ["random"] * game.num_players, n_games, progress=False, workers=workers)
        return n_games / (time.perf_counter() - started)


def report_card_seconds(game: Game, seconds: float, *, compiled: bool) -> float | None:
    """Seconds ``stats.report_card`` takes over 1,000 recorded random games (docs/metrics.md,
    Speed), the replay for repetition and coverage included: the games ``simulate`` records on
    this path with actions and evaluations in about ``seconds`` (at least 4), repeated to make
    1,000 rows (each row costs the card what its game costs)."""
    import pandas as pd

    from .sim import simulate
    from .stats import report_card

    if compiled and playout_kernel(game) is None:
        return None
    agents = ["random"] * game.num_players
    record = {"progress": False, "record_actions": True, "evaluator": "evaluate"}
    with _kernels(compiled):
        simulate(game, agents, 1, **record)  # compile or load the recording before the clock runs
        started = time.perf_counter()
        simulate(game, agents, 4, seed=1, **record)
        n_games = min(1000, max(4, round(4 * seconds / (time.perf_counter() - started))))
        df = simulate(game, agents, n_games, seed=2, **record)
        df = pd.concat([df] * (1000 // n_games + 1), ignore_index=True).iloc[:1000]
        started = time.perf_counter()
        report_card(df)
        return time.perf_counter() - started


def mcts_rate(game: Game, seconds: float, iterations: int, *, compiled: bool) -> float | None:
    """MCTS simulations/s choosing the first move: UCT, or information-set MCTS in games with
    hidden information (``None`` for the compiled path of a game without a kernel)."""
    from .agents import ISMCTSAgent, MCTSAgent

    if compiled and playout_kernel(game) is None:
        return None
    search = MCTSAgent if game.info.perfect_information else ISMCTSAgent
    with _kernels(compiled):
        agent, state, calls = search(seed=0, iterations=iterations), game.new_initial_state(), 0
        search(seed=0, iterations=2).choose_action(state)  # compile or load the search before the clock runs
        started = time.perf_counter()
        while calls == 0 or time.perf_counter() - started < seconds:
            agent.choose_action(state)
            calls += 1
        return calls * iterations / (time.perf_counter() - started)


@contextmanager
def _kernels(compiled: bool) -> Iterator[None]:
    """Inside: kernels off for the reference path (as configured for the compiled one)."""
    previous = use_kernels(False) if not compiled else None
    try:
        yield
    finally:
        if not compiled:
            use_kernels(previous)
