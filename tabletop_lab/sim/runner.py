"""Play many seeded games between agents; one DataFrame row per game.

Reproducibility comes from seeds, never from scheduling. Game ``g`` of a run seeded ``s`` gets
its seed (and, with ``seats="random"``, its seating) from position ``g`` of streams of
``numpy.random.SeedSequence(s)``, so a row depends on ``(s, g)`` only: the same for one
process, a pool of any size, a Dask cluster, any batch size, and a shorter run's prefix.

Games travel in fixed-size batches to ``batch.play_batch``, a pure importable function that
returns the batch's rows as columns; the parent builds the DataFrame (``frame.build_frame``),
sorted by game id. Each batch plays with its own copies of the agents, so batches running side
by side in threads never share one. Batches are collected as they finish, so an interrupted run
keeps every finished game, and so does a run stopped by an agent that raised
(``AgentError.finished``). A worker process that dies (SIGKILL, the out-of-memory killer) loses
only the batches it had not finished: they are played again on a fresh pool, with a warning
naming them, and give the same rows. When every seat is ``random`` and the game has a compiled
kernel (``tabletop_lab.kernels``), the kernel plays the batch, with the very rows the Python
engine gives (``TABLETOP_KERNELS=0`` switches it off).

This module plans the games and runs the batches; ``batch`` plays them and ``frame`` builds
the DataFrame.

A row's ``seed`` replays its game alone: ``play_game(game, agents_in_seat_order,
seed=row.seed)`` resets each seat's agent exactly as the run did.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from typing import Any

import numpy as np
import pandas as pd

from ..agents import Agent, RandomAgent, make_agent
from ..core import Game, State
from ..errors import IllegalActionError, excerpt
from ..kernels import compile_notice, playout_kernel
from ..records import GameRecord
from ..versions import package_version
from .batch import (
    EVALUATORS,
    AgentError,
    Batch,
    evaluator_agent,
    kernel_for,
    play_batch,
    play_out,
    recorded_columns,
    reset_agents,
)
from .checks import Progress, check_progress, positive_int, progress_reporter, resolve_game, seed_value, unique_labels
from .frame import build_frame

__all__ = ["simulate", "play_game", "WorkerLostError", "SEATS", "REPLAYS"]

#: How agents are seated game by game: as given, cycling one seat per game, or shuffled.
SEATS = ("fixed", "rotate", "random")
#: How many times a run replays the batches a dead worker process lost, each on a fresh pool.
REPLAYS = 2


class WorkerLostError(RuntimeError):
    """A worker process died (killed by a signal, out of memory) and the batches it lost could
    not be replayed: ``REPLAYS`` fresh pools died too, or the caller's executor is broken. The
    message names the batches; ``finished`` holds the games that finished, as for ``AgentError``."""

    finished: pd.DataFrame | None = None


def simulate(
    game: str | Game,
    agents: Sequence[str | Agent],
    n_games: int,
    seed: int = 0,
    *,
    workers: int = 1,
    executor: Executor | None = None,
    seats: str = "rotate",
    progress: Progress = True,
    batch_size: int | None = None,
    max_actions: int | None = None,
    record_actions: bool = False,
    evaluator: str | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` games of ``game`` between ``agents`` and return one row per game.

    ``agents`` holds one agent (or spec such as ``"mcts:iterations=200"``) per seat; they are
    copied, so the caller's objects are never changed. ``seats`` is ``"fixed"``, ``"rotate"``
    (agent ``i`` sits in seat ``(i + g) % n`` in game ``g``) or ``"random"``. Games run in this
    process when ``workers == 1``; otherwise in ``workers`` threads when a compiled kernel plays
    them (it releases the GIL), else in a process pool of ``workers``; or on ``executor`` (any
    ``concurrent.futures.Executor``, e.g. a Dask client's ``get_executor()``) when given, which
    then replaces ``workers``. ``progress`` is True (a tqdm bar), False, or a callable
    ``progress(done, total)`` counting games.

    A game still running after ``max_actions`` actions (default ``game.info.max_actions``) is
    cut: ``hit_cap`` is True, reason ``"cap"``, no winners, returns 0. A game ended by its own
    rules' safety cap (``Result.cap_reached``) keeps its result and is also marked ``hit_cap``;
    statistics treat both as timeouts. ``draw`` is True for uncapped games every player shares.

    With ``record_actions`` the frame gains two columns of int32 arrays, one per game:
    ``actions`` (the actions played, ``state.history()``; ``frame.replay_actions`` rebuilds the
    states) and ``n_legal`` (how many legal actions there were before each). Random games are
    still played by a compiled kernel, which records them itself. With ``evaluator="evaluate"``
    it also gains ``values`` (float32 arrays): the game's heuristic ``evaluate()`` of each
    position, taken before each move (``n_moves`` of them), for team 0 of a two-team game
    (player 0 and its partners; +1 is a sure win for them), else one value per team in turn
    (``batch.Trace``). With an agent spec instead (``evaluator="expert:iterations=200"``, two
    sides only) a position's value is that agent's search's mean return there, for team 0,
    seeded from the game's seed: slower, but a skilled player's view of who is winning.
    Evaluating plays every game in Python. ``tabletop_lab.metrics`` and
    ``stats.report_card`` read these columns.

    Columns: ``game_id, game, options, seed, agent_0.., team_0.. (each seat's index in
    ``game.teams()``), first_player, winners, winner_agents, returns_0.., score_0.., reason,
    n_turns, n_moves, n_actions, hit_cap, duration_s, final, draw`` (and ``actions, n_legal,
    values``). A turn is a run of moves
    by one player, a move ends on a position, and a move may take several actions. Repeated
    values are categoricals: ``winners`` holds tuples of seats and ``winner_agents`` tuples of
    labels (``storable(df)`` before ``to_parquet``); counts are small integers.
    ``df.attrs`` records ``game, options, agents, seed, seats, max_actions, n_games, evaluator``,
    ``interrupted`` (True when Ctrl-C stopped the run: the finished games are kept) and the
    versions the rows were made under, ``package_version`` and the game's ``rules_version``.

    Raises ``ValueError`` (before any game is played) for an unknown game, a wrong number of
    agents, an unknown agent spec or a bad argument; ``IllegalActionError`` when an agent
    returns an illegal action, naming the agent, seat, game id and seed; ``AgentError`` when an
    agent raises, naming the same and the position, its ``__cause__`` the agent's own exception
    (from a process pool too). Both carry the games that finished before as ``error.finished``
    (a DataFrame like the one returned, ``attrs["interrupted"]`` True). A worker process that
    dies costs only its unfinished batches, which are replayed on a fresh pool with a
    ``RuntimeWarning`` naming them (up to ``REPLAYS`` times, then ``WorkerLostError``, also
    with ``finished``; on a caller's ``executor`` that breaks, at once).
    """
    game = resolve_game(game)
    seated = [copy.deepcopy(a) for a in _resolve_agents(agents, game)]
    n_games = positive_int(n_games, "n_games")
    seed = seed_value(seed)
    workers = positive_int(workers, "workers")
    if seats not in SEATS:
        raise ValueError(f"seats must be one of {', '.join(SEATS)}; got {seats!r}")
    check_progress(progress)
    if executor is not None and not isinstance(executor, Executor):
        raise ValueError(f"executor must be a concurrent.futures.Executor; got {type(executor).__name__}")
    if type(record_actions) is not bool:
        raise ValueError(f"record_actions must be True or False; got {record_actions!r}")
    if evaluator is not None and not isinstance(evaluator, str):
        raise ValueError(f"evaluator must be None, {', '.join(EVALUATORS)} or an agent spec; got {excerpt(evaluator)}")
    evaluator_agent(game, evaluator)  # a bad spec fails before any game
    compiled = all(type(a) is RandomAgent for a in seated) and playout_kernel(game) is not None and evaluator is None
    size = _default_batch_size(n_games, compiled) if batch_size is None else positive_int(batch_size, "batch_size")
    cap = game.info.max_actions if max_actions is None else positive_int(max_actions, "max_actions")

    game_seeds, arrangements = _plan(seed, n_games, len(seated), seats)
    batches = [
        Batch(
            game,
            tuple(seated),
            start,
            game_seeds[start : start + size],
            arrangements[start : start + size],
            cap,
            record_actions,
            evaluator,
        )
        for start in range(0, n_games, size)
    ]
    labels = unique_labels([a.label for a in seated])

    def frame(done: list[dict[str, Any]], interrupted: bool) -> pd.DataFrame:
        df = build_frame(done, game, labels, recorded_columns(record_actions, evaluator))
        df.attrs.update(
            game=game.name,
            options=dict(game.options),
            agents=labels,
            seed=seed,
            seats=seats,
            max_actions=cap,
            n_games=n_games,
            evaluator=evaluator,
            interrupted=interrupted,
            package_version=package_version(),
            rules_version=game.info.rules_version,
        )
        return df

    try:
        notice = compile_notice(game, seated)
        done, interrupted = _run(batches, n_games, workers, executor, progress, game.name, notice)
    except (AgentError, IllegalActionError, WorkerLostError) as exc:
        exc.finished = frame(getattr(exc, "finished_rows", []), True)
        raise
    df = frame(done, interrupted)
    if interrupted:
        warnings.warn(
            f"simulation interrupted: kept the {len(df)} of {n_games} games that finished", RuntimeWarning, stacklevel=2
        )
    return df


def play_game(
    state_or_game: State | Game | str,
    agents: Sequence[str | Agent],
    seed: int | None = None,
    max_actions: int | None = None,
) -> GameRecord:
    """Play one game from a position (a clone of it; the state passed is unchanged) or from a
    game's initial position, with one agent per seat, and return its record.

    With a ``seed`` every seat's agent is reset from it first (as ``simulate`` does, so a row's
    ``seed`` replays that game); without one the agents carry on with their own randomness.
    The given agent objects are used, not copied. A game cut by ``max_actions`` (default
    ``game.info.max_actions``) has a record with ``result`` None.
    """
    if isinstance(state_or_game, State):
        state = state_or_game.clone()
    else:
        state = resolve_game(state_or_game).new_initial_state()
    seated = _resolve_agents(agents, state.game)
    if seed is not None:
        reset_agents(seated, seed_value(seed))
    cap = state.game.info.max_actions if max_actions is None else positive_int(max_actions, "max_actions")
    play_out(state, seated, cap, None, seed)
    return GameRecord.from_state(state, seed=seed, agents=[a.label for a in seated])


def _plan(seed: int, n_games: int, n_seats: int, seats: str) -> tuple[np.ndarray, np.ndarray]:
    """Each game's seed (int64) and seating (a row of agent indices, int8); entry ``g`` depends
    on ``(seed, g)`` only."""
    game_stream, seat_stream = np.random.SeedSequence(seed).spawn(2)
    game_seeds = (_generate_state(game_stream, n_games) >> np.uint64(1)).astype(np.int64)  # fits int64
    order = np.arange(n_seats, dtype=np.int8)
    if seats == "fixed":
        arrangements = np.tile(order, (n_games, 1))
    elif seats == "rotate":
        rotations = (order[None, :] - order[:, None]) % n_seats  # row r: seat s holds agent (s - r) mod n
        arrangements = rotations[np.arange(n_games) % n_seats]
    else:
        arrangements = np.argsort(np.random.default_rng(seat_stream).random((n_games, n_seats)), axis=1)
    return game_seeds, arrangements.astype(np.int8)


#: numpy's ``SeedSequence`` hash constants (``numpy/random/bit_generator.pyx``).
_INIT_B, _MULT_B, _XSHIFT = 0x8B51F9DD, 0x58F38DED, 16


def _generate_state(sequence: np.random.SeedSequence, n_words: int) -> np.ndarray:
    """``sequence.generate_state(n_words, np.uint64)``, vectorised: numpy's loop takes 0.15 s
    for 600,000 games, a serial cost that held back ``workers=2``. Word ``i`` of the uint32
    output mixes ``pool[i % pool_size]`` with ``INIT_B * MULT_B**i`` (mod 2**32); numpy's own
    method is the reference in the tests."""
    count = 2 * n_words
    powers = np.cumprod(np.r_[np.uint32(1), np.full(count, _MULT_B, np.uint32)], dtype=np.uint32)  # wraps
    hash_const = powers * np.uint32(_INIT_B)  # before word i: INIT_B * MULT_B**i
    pool = np.tile(sequence.pool, -(-count // len(sequence.pool)))[:count]
    mixed = (pool ^ hash_const[:-1]) * hash_const[1:]
    mixed ^= mixed >> np.uint32(_XSHIFT)
    return mixed.astype("<u4").view("<u8").astype(np.uint64)


def _run(
    batches: list[Batch],
    total: int,
    workers: int,
    executor: Executor | None,
    progress: Progress,
    desc: str,
    notice: str | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Play the batches here, in new threads or new process pools, or on ``executor``; a progress
    bar shows ``notice`` (a compile to wait for) until the first batch is done.

    Returns the columns of every finished batch and whether Ctrl-C (a ``KeyboardInterrupt``,
    also one raised by a progress callback) stopped the run.
    """
    report, close = progress_reporter(progress, total, desc, notice)
    done: list[dict[str, Any]] = []
    finished = 0

    def add(columns: dict[str, Any]) -> None:
        nonlocal finished
        done.append(columns)
        finished += len(columns["game_id"])
        report(finished)

    try:
        if executor is not None:
            lost = _run_on(executor, batches, add)
            if lost:
                raise WorkerLostError(f"simulation: {_lost_worker(lost)}, and the executor cannot be replaced")
        elif workers > 1 and kernel_for(batches[0]) is not None:
            # A kernel plays with the GIL released: threads share it, with no process to fork and
            # no result to send back. Python games need processes.
            with ThreadPoolExecutor(max_workers=workers) as pool:
                _run_on(pool, batches, add)
        elif workers > 1:
            _run_in_processes(batches, workers, add, lambda: finished)
        else:
            for batch in batches:
                add(play_batch(batch))
    except KeyboardInterrupt:
        return done, True
    except (AgentError, IllegalActionError, WorkerLostError) as exc:
        exc.finished_rows = done + getattr(exc, "finished_rows", [])
        raise
    finally:
        close()
    return done, False


def _run_in_processes(
    batches: list[Batch], workers: int, add: Callable[[dict[str, Any]], None], finished: Callable[[], int]
) -> None:
    """Play the batches in a pool of ``workers`` processes. A worker that dies (a signal such as
    SIGKILL, the out-of-memory killer) breaks the pool and every batch not yet finished on it:
    those are played again on a fresh pool, with a warning naming them (their rows are the same,
    as they depend on the seeds alone), up to ``REPLAYS`` times; then ``WorkerLostError``."""
    for replay in range(REPLAYS + 1):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            batches = _run_on(pool, batches, add)
        if not batches:
            return
        if replay < REPLAYS:
            warnings.warn(
                f"simulation: {_lost_worker(batches)}; kept the {finished()} finished games and replay "
                f"the others on a fresh worker pool (replay {replay + 1} of {REPLAYS})",
                RuntimeWarning,
                stacklevel=4,  # simulate's caller
            )
    raise WorkerLostError(f"simulation: {_lost_worker(batches)} again after {REPLAYS} replays on fresh pools")


def _lost_worker(batches: list[Batch]) -> str:
    """What a dead worker cost, for a message: the unfinished batches, by games and first seed."""
    shown = ", ".join(
        f"games {b.first_id}-{b.first_id + len(b.seeds) - 1} from seed {int(b.seeds[0])}" for b in batches[:2]
    )
    more = f" and {len(batches) - 2} more" if len(batches) > 2 else ""
    return f"a worker process died (killed?) with {len(batches)} batches unfinished ({shown}{more})"


def _run_on(executor: Executor, batches: list[Batch], add: Callable[[dict[str, Any]], None]) -> list[Batch]:
    """Submit every batch and ``add`` their columns as batches finish; on any error cancel the
    rest, and on Ctrl-C or an agent's failure also keep the batches that finished meanwhile.
    When the executor breaks (a worker process died), keep what finished and return the
    batches it lost; otherwise return ``[]``."""
    futures = {executor.submit(play_batch, batch): batch for batch in batches}
    pending = set(futures)

    def keep_finished() -> None:
        for future in list(pending):
            if future.done() and not future.cancelled() and future.exception() is None:
                pending.discard(future)
                add(future.result())

    try:
        for future in as_completed(futures):
            pending.discard(future)
            add(_result(future))
    except BrokenExecutor:
        keep_finished()
        return [batch for future, batch in futures.items() if future in pending or future.exception() is not None]
    except BaseException as exc:
        for future in pending:
            future.cancel()
        if isinstance(exc, (KeyboardInterrupt, AgentError, IllegalActionError)):
            keep_finished()
        raise
    return []


def _result(future: Future) -> dict[str, Any]:
    """The batch's columns; an agent's failure sent back by a process pool gets its cause back."""
    try:
        return future.result()
    except AgentError as exc:
        exc.restore_cause()
        raise


def _resolve_agents(agents: Any, game: Game) -> list[Agent]:
    """One agent per seat, built from specs by ``make_agent``."""
    if isinstance(agents, (str, Agent)) or not isinstance(agents, Sequence):
        raise ValueError(f"agents must be a list with one agent or spec per seat; got {agents!r}")
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"{game.name} has {n} seats, so it needs {n} agents; got {len(agents)}: {list(agents)!r}")
    return [make_agent(spec, game=game) for spec in agents]


def _default_batch_size(n_games: int, compiled: bool) -> int:
    """About 100 batches (progress steps and units of parallel work), 1 to 1,000 games each, or
    to 20,000 when a compiled kernel plays them (a few milliseconds of work each)."""
    return max(1, min(20_000 if compiled else 1000, n_games // 100))
