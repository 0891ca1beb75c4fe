"""Play many seeded games between agents; one DataFrame row per game.

Reproducibility comes from seeds, never from scheduling. Game ``g`` of a run seeded ``s`` gets
its seed (and, with ``seats="random"``, its seating) from position ``g`` of streams of
``numpy.random.SeedSequence(s)``, so a row depends on ``(s, g)`` only: the same for one
process, a pool of any size, a Dask cluster, any batch size, and a shorter run's prefix.

Games travel in fixed-size batches to ``play_batch``, a pure importable function that
returns the batch's rows as columns; the parent builds the DataFrame, sorted by game id.
Each batch plays with its own copies of the agents, so batches running side by side in
threads never share one. Batches are collected as they finish, so an interrupted run keeps
every finished game, and so does a run stopped by an agent that raised
(``AgentError.finished``). When every seat is ``random`` and the game has a compiled kernel
(``tabletop_lab.kernels``), the kernel plays the batch, with the very rows the Python engine
gives (``TABLETOP_KERNELS=0`` switches it off).

A row's ``seed`` replays its game alone: ``play_game(game, agents_in_seat_order,
seed=row.seed)`` resets each seat's agent exactly as the run did.
"""

from __future__ import annotations

import copy
import itertools
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..agents import Agent, RandomAgent, make_agent
from ..core import TERMINAL, Game, State, canonical_json
from ..errors import ActionError, IllegalActionError, excerpt
from ..kernels import CUT, FINISHED, REPLAY, RULE_CAP, PlayoutKernel, playout_kernel
from ..records import GameRecord
from ..streams import fresh_streams
from .checks import Progress, check_progress, positive_int, progress_reporter, resolve_game, seed_value, unique_labels

__all__ = ["simulate", "play_game", "play_batch", "storable", "AgentError", "Batch", "SEATS"]

#: How agents are seated game by game: as given, cycling one seat per game, or shuffled.
SEATS = ("fixed", "rotate", "random")

_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / golden ratio: consecutive multiples spread over 64 bits
_MASK63 = (1 << 63) - 1
#: What ``play_batch`` returns per game, as columns.
_COLUMNS = ("game_id", "seed", "seating", "first_player", "outcome", "winners", "scores",
            "reason", "n_turns", "n_moves", "n_actions", "duration_s", "final")  # fmt: skip


class AgentError(RuntimeError):
    """An agent raised while choosing an action; the original exception is the ``__cause__``.

    The message and the fields name where: ``game_id`` (None outside ``simulate``), ``seed``,
    ``seat``, ``agent`` (its label) and ``position`` (an excerpt of the position's notation or
    JSON). ``simulate`` attaches ``finished``, the DataFrame of the games that finished before
    the run stopped (``attrs["interrupted"]`` True), as an interrupted run returns it.
    """

    def __init__(self, message: str, game_id: int | None, seed: int | None, seat: int, agent: str, position: str):
        super().__init__(message)
        self.game_id, self.seed, self.seat, self.agent, self.position = game_id, seed, seat, agent, position
        self.finished: pd.DataFrame | None = None

    def __reduce__(self):  # keeps the fields when a process pool sends the error back
        fields = (self.args[0], self.game_id, self.seed, self.seat, self.agent, self.position)
        return type(self), fields, self.__dict__


class Batch(NamedTuple):
    """A run of consecutive games for one worker; everything needed to play them."""

    game: Game
    agents: tuple[Agent, ...]  # in the caller's order; ``arrangements`` seats them
    first_id: int
    seeds: np.ndarray  # int64 (non-negative), one per game
    arrangements: np.ndarray  # int8, a row per game: the index of the agent in each seat
    max_actions: int
    record_actions: bool = False  # also return each game's actions (and play in Python)


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

    With ``record_actions`` the frame gains a column ``actions``: each game's action strings as
    a tuple, as in ``GameRecord.actions`` (Parquet reads them back as arrays). Recording plays
    every game in Python, even random ones that a compiled kernel would play.

    Columns: ``game_id, game, options, seed, agent_0.., team_0.. (each seat's index in
    ``game.teams()``), first_player, winners, winner_agents, returns_0.., score_0.., reason,
    n_turns, n_moves, n_actions, hit_cap, duration_s, final, draw`` (and ``actions``). A turn is a run of moves
    by one player, a move ends on a position, and a move may take several actions. Repeated
    values are categoricals: ``winners`` holds tuples of seats and ``winner_agents`` tuples of
    labels (``storable(df)`` before ``to_parquet``); counts are small integers.
    ``df.attrs`` records ``game, options, agents, seed, seats, max_actions, n_games`` and
    ``interrupted`` (True when Ctrl-C stopped the run: the finished games are kept).

    Raises ``ValueError`` (before any game is played) for an unknown game, a wrong number of
    agents, an unknown agent spec or a bad argument; ``IllegalActionError`` when an agent
    returns an illegal action, naming the agent, seat, game id and seed; ``AgentError`` when an
    agent raises, naming the same and the position. Both carry the games that finished before
    as ``error.finished`` (a DataFrame like the one returned, ``attrs["interrupted"]`` True).
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
    compiled = all(type(a) is RandomAgent for a in seated) and playout_kernel(game) is not None and not record_actions
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
        )
        for start in range(0, n_games, size)
    ]
    labels = unique_labels([a.label for a in seated])

    def frame(done: list[dict[str, Any]], interrupted: bool) -> pd.DataFrame:
        df = _frame(done, game, labels, record_actions)
        df.attrs.update(
            game=game.name,
            options=dict(game.options),
            agents=labels,
            seed=seed,
            seats=seats,
            max_actions=cap,
            n_games=n_games,
            interrupted=interrupted,
        )
        return df

    try:
        done, interrupted = _run(batches, n_games, workers, executor, progress, game.name)
    except (AgentError, IllegalActionError) as exc:
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
        _reset(seated, seed_value(seed))
    cap = state.game.info.max_actions if max_actions is None else positive_int(max_actions, "max_actions")
    _play_out(state, seated, cap, None, seed)
    return GameRecord.from_state(state, seed=seed, agents=[a.label for a in seated])


def play_batch(batch: Batch) -> dict[str, Any]:
    """Play the games of ``batch``; their rows as columns (numpy arrays and lists, see ``_frame``).

    The rows depend on the batch alone: each agent is reset from the game's seed before every
    game, so what the agents did before does not matter. The batch plays with its own copies of
    the agents (never shared with a batch running beside it in another thread), copied once per
    batch: copying an agent's random generator costs as much as playing a random game. When an
    agent fails, the error carries the columns of the games finished so far as ``finished_rows``
    (a list of such column dicts). When every agent is a ``RandomAgent`` and the game has a
    compiled kernel (``tabletop_lab.kernels``), the kernel plays the batch: the same games from
    the same random streams, several times faster.
    """
    kernel = _kernel_for(batch)
    if kernel is not None:
        return _kernel_batch(batch, kernel)
    return _python_batch(batch)


def _kernel_for(batch: Batch) -> PlayoutKernel | None:
    """The game's kernel when it may play the batch: random players in every seat, no recording."""
    if batch.record_actions or not all(type(a) is RandomAgent for a in batch.agents):
        return None
    return playout_kernel(batch.game)


def _python_batch(batch: Batch) -> dict[str, Any]:
    """Play the batch's games with the Python engine and the agents."""
    game = batch.game
    agents = copy.deepcopy(batch.agents)
    n_seats = len(agents)
    columns: dict[str, list] = {name: [] for name in _COLUMNS + ("actions",) * batch.record_actions}
    for offset, (seed, seating) in enumerate(zip(batch.seeds.tolist(), batch.arrangements.tolist())):
        game_id, arrangement = batch.first_id + offset, tuple(seating)
        seated = [agents[i] for i in arrangement]
        started = time.perf_counter()
        state = game.new_initial_state()
        first_player = state.current_player()
        _reset(seated, seed)
        try:
            n_turns, n_moves, n_actions = _play_out(state, seated, batch.max_actions, game_id, seed)
        except (AgentError, IllegalActionError) as exc:
            exc.finished_rows = [_arrays(columns, n_seats)]
            raise
        duration = time.perf_counter() - started
        result = state.result()
        if result is None:
            winners, reason, outcome = 0, "cap", CUT
        else:
            winners = sum(1 << p for p in result.winners)
            reason, outcome = result.reason, RULE_CAP if result.cap_reached else FINISHED
        row = (game_id, seed, arrangement, first_player, outcome, winners, tuple(state.scores()),
               reason, n_turns, n_moves, n_actions, duration, _final(state))  # fmt: skip
        for name, value in zip(_COLUMNS, row):
            columns[name].append(value)
        if batch.record_actions:
            columns["actions"].append(tuple(state.history_strings()))
    return _arrays(columns, n_seats)


def _arrays(columns: dict[str, list], n_seats: int) -> dict[str, Any]:
    """A batch's columns with the numeric ones as numpy arrays."""
    return {
        **columns,
        "game_id": np.array(columns["game_id"], np.int64),
        "seed": np.array(columns["seed"], np.int64),
        "seating": np.array(columns["seating"], np.int8).reshape(-1, n_seats),
        "scores": np.array(columns["scores"]).reshape(-1, n_seats),
        "reason": _coded(columns["reason"]),
    }


def _kernel_batch(batch: Batch, kernel: PlayoutKernel) -> dict[str, Any]:
    """The batch's random-against-random games played by the game's compiled kernel.

    Seat ``s`` draws from the stream ``RandomAgent`` gets from ``_reset``; games the kernel
    leaves to the engine (``REPLAY``, e.g. a move past the lap guard) send the whole batch to
    the Python engine, which raises its own error. Durations are the batch's time shared equally.
    """
    started = time.perf_counter()
    game = batch.game
    n, n_seats = len(batch.seeds), len(batch.agents)
    seeds = batch.seeds.astype(np.uint64)
    seats = np.arange(1, n_seats + 1, dtype=np.uint64)
    streams = fresh_streams((seeds[:, None] + seats * np.uint64(_GOLDEN)) & np.uint64(_MASK63))  # as _reset does
    played = kernel.random_games(game, streams, batch.max_actions)
    if (played.outcome == REPLAY).any():  # the engine plays the batch, and raises its own error
        return _python_batch(batch)
    words = played.reasons if "cap" in played.reasons else (*played.reasons, "cap")
    reason = np.where(played.outcome == CUT, words.index("cap"), played.reason).astype(np.int8)
    duration = (time.perf_counter() - started) / n
    return {
        "game_id": batch.first_id + np.arange(n, dtype=np.int32),  # small types: less to send back
        "seed": batch.seeds,
        "seating": batch.arrangements,
        "first_player": np.full(n, game.new_initial_state().current_player(), np.int8),
        "outcome": played.outcome,
        "winners": np.where(played.outcome == CUT, 0, played.winners).astype(np.int16),
        "scores": played.scores if played.scores.dtype.kind == "f" else played.scores.astype(np.int32),
        "reason": (reason, words),
        "n_turns": played.n_turns,
        "n_moves": played.n_moves,
        "n_actions": played.n_actions,
        "duration_s": np.full(n, duration, np.float32),
        "final": _compact_text(played.final),
    }


# ----------------------------------------------------------------------------- Helpers


def _play_out(
    state: State, seated: list[Agent], max_actions: int, game_id: int | None, seed: int | None
) -> tuple[int, int, int]:
    """Let the seated agents play ``state`` to the end or to ``max_actions``; count turns, moves
    and actions.

    A move starts with every action applied while ``mid_turn()`` is False; a turn is a run of
    moves by one player (Capitals' transfer and step are two moves of one turn). Kept tight:
    this loop is most of a random game's cost.
    """
    current_player, mid_turn, apply_action = state.current_player, state.mid_turn, state.apply_action
    n_turns = n_moves = n_actions = 0
    mover = None
    while n_actions < max_actions:
        player = current_player()
        if player == TERMINAL:
            break
        if not mid_turn():
            n_moves += 1
            if player != mover:
                n_turns += 1
                mover = player
        agent = seated[player]
        try:
            action = agent.choose_action(state)
        except Exception as exc:
            raise _agent_error(exc, state, agent, player, game_id, seed, n_actions) from exc
        try:
            apply_action(action)
        except ActionError as exc:
            where = f"game {game_id} (seed {seed})" if game_id is not None else f"a game (seed {seed})"
            raise IllegalActionError(
                f"agent {agent.label!r} in seat {player} returned illegal action {action!r} in {where} "
                f"after {n_actions} actions: {exc}"
            ) from exc
        n_actions += 1
    return n_turns, n_moves, n_actions


def _agent_error(
    exc: Exception, state: State, agent: Agent, seat: int, game_id: int | None, seed: int | None, n_actions: int
) -> AgentError:
    where = f"game {game_id} (seed {seed})" if game_id is not None else f"a game (seed {seed})"
    position = excerpt(_final(state), limit=120)
    return AgentError(
        f"agent {agent.label!r} in seat {seat} raised {type(exc).__name__}: {excerpt(str(exc), limit=160)[1:-1]} "
        f"in {where} after {n_actions} actions, at position {position}",
        game_id,
        seed,
        seat,
        agent.label,
        position,
    )


def _final(state: State) -> str:
    """The final position as notation or JSON; a game cut mid-move gives the turn's snapshot."""
    if state.mid_turn():
        return canonical_json(state.snapshot())
    return state.notation() if state.game.info.has_notation else state.to_json()


def _reset(seated: list[Agent], seed: int) -> None:
    """Reset the agent in seat ``i`` from ``seed + (i + 1) * GOLDEN`` (mod 2**63).

    Distinct per seat, and nearly free: seeding ``random.Random`` (Mersenne Twister's
    ``init_by_array``) already scrambles neighbouring integers into unrelated streams, and a
    run's game seeds are themselves ``SeedSequence`` output.
    """
    for seat, agent in enumerate(seated, 1):
        agent.reset((seed + seat * _GOLDEN) & _MASK63)


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
    batches: list[Batch], total: int, workers: int, executor: Executor | None, progress: Progress, desc: str
) -> tuple[list[dict[str, Any]], bool]:
    """Play the batches here, in new threads or a new process pool, or on ``executor``.

    Returns the columns of every finished batch and whether Ctrl-C (a ``KeyboardInterrupt``,
    also one raised by a progress callback) stopped the run.
    """
    report, close = progress_reporter(progress, total, desc)
    done: list[dict[str, Any]] = []
    finished = 0

    def add(columns: dict[str, Any]) -> None:
        nonlocal finished
        done.append(columns)
        finished += len(columns["game_id"])
        report(finished)

    try:
        if executor is not None:
            _run_on(executor, batches, add)
        elif workers > 1:
            # A kernel plays with the GIL released: threads share it, with no process to fork and
            # no result to send back. Python games need processes.
            parallel = ThreadPoolExecutor if _kernel_for(batches[0]) is not None else ProcessPoolExecutor
            with parallel(max_workers=workers) as pool:
                _run_on(pool, batches, add)
        else:
            for batch in batches:
                add(play_batch(batch))
    except KeyboardInterrupt:
        return done, True
    except (AgentError, IllegalActionError) as exc:
        exc.finished_rows = done + getattr(exc, "finished_rows", [])
        raise
    finally:
        close()
    return done, False


def _run_on(executor: Executor, batches: list[Batch], add: Callable[[dict[str, Any]], None]) -> None:
    """Submit every batch and ``add`` their columns as batches finish; on any error cancel the
    rest, and on Ctrl-C or an agent's failure also keep the batches that finished meanwhile."""
    futures = [executor.submit(play_batch, batch) for batch in batches]
    pending = set(futures)
    try:
        for future in as_completed(futures):
            pending.discard(future)
            add(future.result())
    except BaseException as exc:
        for future in pending:
            future.cancel()
        if isinstance(exc, (KeyboardInterrupt, AgentError, IllegalActionError)):
            for future in pending:
                if future.done() and not future.cancelled() and future.exception() is None:
                    add(future.result())
        raise


def _frame(batches: list[dict[str, Any]], game: Game, labels: list[str], record_actions: bool = False) -> pd.DataFrame:
    """The DataFrame of ``play_batch`` columns, sorted by game id, with agent labels filled in.

    Repeated values are categoricals (game, options, agents, winners, reason) and counts are
    small integers: about 95 bytes a row (Cross-endodoi) instead of 430 with lists and strings.
    ``winners`` and ``winner_agents`` hold tuples (``storable`` readies a frame for Parquet).
    """
    n = len(labels)
    batches = sorted(batches, key=lambda b: int(b["game_id"][0]) if len(b["game_id"]) else -1)
    numbers = [name for name in _COLUMNS if name not in ("reason", "final")]
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
    if record_actions:
        data["actions"] = pd.Series([a for b in batches for a in b["actions"]], dtype=object)
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


def _coded(words: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """A batch's reasons as ``(codes, words)``: a pandas Categorical per batch would cost more
    than a kernel's batch of games (its categories are validated every time)."""
    distinct = tuple(dict.fromkeys(words))
    index = {word: i for i, word in enumerate(distinct)}
    return np.array([index[w] for w in words], np.int8), distinct


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


def _compact_text(final: np.ndarray) -> Any:
    """A kernel's final positions (ASCII bytes, fixed width) as an Arrow string array when
    pyarrow is installed: built in the worker, and half the size to send back."""
    try:
        import pyarrow as pa
    except ImportError:
        return final
    return pa.array(final, type=pa.binary()).cast(pa.large_string()) if final.dtype.kind == "S" else final


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
    return {name: np.zeros((0, n_seats) if name in ("seating", "scores") else 0) for name in _COLUMNS}


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
