"""Playing a batch of games: the unit of work a worker runs, and what it returns.

``play_batch`` is a pure importable function (a process pool can send it a ``Batch``): it plays
the batch's consecutive games, each from its own seed, with its own copies of the agents, and
returns their rows as columns (numpy arrays and lists) for ``frame.build_frame``. When every
seat is ``random`` and the game has a compiled kernel (``tabletop_lab.kernels``), the kernel
plays the batch, with the very rows the Python engine gives. ``play_out`` is the loop that lets
seated agents play one state to its end; ``simulate`` and ``play_game`` share it.
"""

from __future__ import annotations

import copy
import pickle
import time
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..agents import Agent, RandomAgent
from ..core import TERMINAL, Game, State, canonical_json
from ..errors import ActionError, IllegalActionError, excerpt
from ..kernels import CUT, FINISHED, REPLAY, RULE_CAP, PlayedGames, PlayoutKernel, playout_kernel
from ..streams import fresh_streams

__all__ = [
    "AgentError",
    "Batch",
    "COLUMNS",
    "EVALUATORS",
    "Trace",
    "evaluator_agent",
    "final_position",
    "kernel_for",
    "play_batch",
    "play_out",
    "recorded_columns",
    "reset_agents",
]

_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / golden ratio: consecutive multiples spread over 64 bits
_MASK63 = (1 << 63) - 1
#: What ``play_batch`` returns per game, as columns.
COLUMNS = ("game_id", "seed", "seating", "first_player", "outcome", "winners", "scores",
           "reason", "n_turns", "n_moves", "n_actions", "duration_s", "final")  # fmt: skip
#: The ``evaluator`` names ``simulate`` knows besides an agent spec: how a position's value is
#: found. An agent spec (``"expert:iterations=200"``) values a position by that agent's search.
EVALUATORS = ("evaluate",)


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

    def __reduce__(self):
        """Keeps the fields and the agent's exception when a process pool sends the error back:
        pickling drops ``__cause__``, and the pool then sets it to the worker's traceback, so
        the cause travels in the state (as a ``RuntimeError`` naming it if it does not pickle)
        until ``restore_cause`` puts it back."""
        fields = (self.args[0], self.game_id, self.seed, self.seat, self.agent, self.position)
        return type(self), fields, {**self.__dict__, "_cause": _portable(self.__cause__)}

    def restore_cause(self) -> None:
        """In the process that received this error from another: ``__cause__`` is the agent's
        exception again, with the other process's traceback as a note on it."""
        cause = self.__dict__.pop("_cause", None)
        if cause is None:
            return
        remote = self.__cause__
        if remote is not None and remote is not cause and str(remote).strip():
            cause.add_note(f"in the worker process:{remote}")
        self.__cause__ = cause


def _portable(error: BaseException | None) -> BaseException | None:
    """``error`` when it pickles, else a ``RuntimeError`` naming its type and message."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {excerpt(str(error), limit=200)[1:-1]}")
    return error


class Batch(NamedTuple):
    """A run of consecutive games for one worker; everything needed to play them."""

    game: Game
    agents: tuple[Agent, ...]  # in the caller's order; ``arrangements`` seats them
    first_id: int
    seeds: np.ndarray  # int64 (non-negative), one per game
    arrangements: np.ndarray  # int8, a row per game: the index of the agent in each seat
    max_actions: int
    record_actions: bool = False  # also return each game's actions and numbers of legal actions
    evaluator: str | None = None  # also return each position's value (one of EVALUATORS; plays in Python)


class Trace:
    """What ``play_out`` records of one game beside its row: the number of legal actions before
    each action and, with an evaluator, the value of each position (the state before each move,
    as Ludii evaluates a trial), per team: team 0's value alone in a game of two teams (the other
    is its negation in a zero-sum game), else one value per team in ``game.teams()`` order.

    The evaluator is ``"evaluate"`` (a team's value is ``evaluate()`` of its first member) or an
    agent with ``analyse`` (``evaluator_agent``), reset from the game's seed: its search's mean
    return at the position, the visits-weighted mean of its actions' values for the player to
    move, turned to team 0's side (two teams only)."""

    __slots__ = ("n_legal", "values", "_members", "_agent", "_team_zero")

    def __init__(self, game: Game, count_legal: bool, evaluator: str | None, agent: Agent | None = None):
        self.n_legal: list[int] | None = [] if count_legal else None
        self.values: list[float] | None = None if evaluator is None else []
        teams = game.teams()
        self._members = [teams[0][0]] if len(teams) == 2 else [team[0] for team in teams]
        self._agent = agent
        self._team_zero = frozenset(teams[0])

    def observe(self, state: State, position: bool) -> None:
        """Before an action: count the legal actions; at a position, keep its value."""
        if self.n_legal is not None:
            self.n_legal.append(len(state.legal_actions()))
        if position and self.values is not None:
            if self._agent is None:
                value = state.evaluate()
                self.values.extend(value[p] for p in self._members)
            else:
                self.values.append(self._searched_value(state))

    def _searched_value(self, state: State) -> float:
        rows = [row for row in self._agent.analyse(state) if row["visits"]]
        mean = sum(row["value"] * row["visits"] for row in rows) / sum(row["visits"] for row in rows)
        return mean if state.current_player() in self._team_zero else -mean


def evaluator_agent(game: Game, evaluator: str | None) -> Agent | None:
    """The agent an evaluator spec names (``None`` for no evaluator or ``"evaluate"``).

    Raises ``ValueError`` for a spec that is neither a known name nor an agent that can analyse
    this game, or a game of more than two teams (a search values the mover's side only)."""
    if evaluator is None or evaluator in EVALUATORS:
        return None
    from ..agents import make_agent

    try:
        agent = make_agent(evaluator, game=game)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"evaluator must be None, {', '.join(EVALUATORS)} or an agent spec: {exc}"[:300]) from None
    if not callable(getattr(agent, "analyse", None)):
        raise ValueError(f"evaluator {excerpt(evaluator)}: agent {agent.label!r} has no search to value positions")
    if len(game.teams()) != 2:
        raise ValueError(f"an agent evaluator needs two sides; {game.name} here has {len(game.teams())} teams")
    return agent


def play_batch(batch: Batch) -> dict[str, Any]:
    """Play the games of ``batch``; their rows as columns (numpy arrays and lists, see ``build_frame``).

    The rows depend on the batch alone: each agent is reset from the game's seed before every
    game, so what the agents did before does not matter. The batch plays with its own copies of
    the agents (never shared with a batch running beside it in another thread), copied once per
    batch: copying an agent's random generator costs as much as playing a random game. When an
    agent fails, the error carries the columns of the games finished so far as ``finished_rows``
    (a list of such column dicts). When every agent is a ``RandomAgent`` and the game has a
    compiled kernel (``tabletop_lab.kernels``), the kernel plays the batch: the same games from
    the same random streams, several times faster.
    """
    kernel = kernel_for(batch)
    if kernel is not None:
        return _kernel_batch(batch, kernel)
    return _python_batch(batch)


def kernel_for(batch: Batch) -> PlayoutKernel | None:
    """The game's kernel when it may play the batch: random players in every seat, no evaluator."""
    if batch.evaluator is not None or not all(type(a) is RandomAgent for a in batch.agents):
        return None
    return playout_kernel(batch.game)


def _python_batch(batch: Batch) -> dict[str, Any]:
    """Play the batch's games with the Python engine and the agents."""
    game = batch.game
    agents = copy.deepcopy(batch.agents)
    n_seats = len(agents)
    recorded = recorded_columns(batch.record_actions, batch.evaluator)
    evaluating = evaluator_agent(game, batch.evaluator)
    columns: dict[str, list] = {name: [] for name in COLUMNS + recorded}
    for offset, (seed, seating) in enumerate(zip(batch.seeds.tolist(), batch.arrangements.tolist())):
        game_id, arrangement = batch.first_id + offset, tuple(seating)
        seated = [agents[i] for i in arrangement]
        started = time.perf_counter()
        state = game.new_initial_state()
        first_player = state.current_player()
        reset_agents(seated, seed)
        if evaluating is not None:  # a stream of its own, apart from every seat's
            evaluating.reset((seed + (n_seats + 1) * _GOLDEN) & _MASK63)
        trace = Trace(game, batch.record_actions, batch.evaluator, evaluating) if recorded else None
        try:
            n_turns, n_moves, n_actions = play_out(state, seated, batch.max_actions, game_id, seed, trace)
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
               reason, n_turns, n_moves, n_actions, duration, final_position(state))  # fmt: skip
        for name, value in zip(COLUMNS, row):
            columns[name].append(value)
        if batch.record_actions:
            columns["actions"].append(np.array(state.history(), np.int32))
            columns["n_legal"].append(np.array(trace.n_legal, np.int32))
        if batch.evaluator is not None:
            columns["values"].append(np.array(trace.values, np.float32))
    return _arrays(columns, n_seats)


def recorded_columns(record_actions: bool, evaluator: str | None) -> tuple[str, ...]:
    """The recorded columns, in frame order: each game's actions and the number of legal
    actions before each (``record_actions``), each position's value (``evaluator``)."""
    return ("actions", "n_legal") * record_actions + ("values",) * (evaluator is not None)


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

    Seat ``s`` draws from the stream ``RandomAgent`` gets from ``reset_agents``; games the kernel
    leaves to the engine (``REPLAY``, e.g. a move past the lap guard) send the whole batch to
    the Python engine, which raises its own error. Durations are the batch's time shared equally.
    """
    started = time.perf_counter()
    game = batch.game
    n, n_seats = len(batch.seeds), len(batch.agents)
    seeds = batch.seeds.astype(np.uint64)
    seats = np.arange(1, n_seats + 1, dtype=np.uint64)
    streams = fresh_streams((seeds[:, None] + seats * np.uint64(_GOLDEN)) & np.uint64(_MASK63))  # as reset_agents does
    recorded: dict[str, list] = {}
    if batch.record_actions:
        played, recorded["actions"], recorded["n_legal"] = _recorded_games(kernel, game, streams, batch.max_actions)
    else:
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
        **recorded,
    }


def _recorded_games(
    kernel: PlayoutKernel, game: Game, streams: np.ndarray, max_actions: int
) -> tuple[PlayedGames, list[np.ndarray], list[np.ndarray]]:
    """The games ``kernel.random_games`` would play, one by one through ``recorded_game`` (the
    same games, with each action and the number of legal actions before it): the batch's
    ``PlayedGames``, and the games' actions and counts as int32 arrays."""
    start = game.new_initial_state()
    games = [kernel.recorded_game(start, row, max_actions) for row in streams]
    words = tuple(dict.fromkeys(w for g in games for w in g.played.reasons))
    index = {word: i for i, word in enumerate(words)}

    def joined(field: str) -> np.ndarray:
        return np.concatenate([getattr(g.played, field) for g in games])

    played = PlayedGames(
        outcome=joined("outcome"),
        winners=joined("winners"),
        scores=joined("scores"),
        reason=np.array([index[g.played.reasons[g.played.reason[0]]] for g in games], np.int8),
        reasons=words,
        n_turns=joined("n_turns"),
        n_moves=joined("n_moves"),
        n_actions=joined("n_actions"),
        final=joined("final"),
    )
    return played, [np.array(g.actions, np.int32) for g in games], [np.array(g.n_legal, np.int32) for g in games]


def _coded(words: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """A batch's reasons as ``(codes, words)``: a pandas Categorical per batch would cost more
    than a kernel's batch of games (its categories are validated every time)."""
    distinct = tuple(dict.fromkeys(words))
    index = {word: i for i, word in enumerate(distinct)}
    return np.array([index[w] for w in words], np.int8), distinct


def _compact_text(final: np.ndarray) -> Any:
    """A kernel's final positions (ASCII bytes, fixed width) as an Arrow string array when
    pyarrow is installed: built in the worker, and half the size to send back."""
    try:
        import pyarrow as pa
    except ImportError:
        return final
    return pa.array(final, type=pa.binary()).cast(pa.large_string()) if final.dtype.kind == "S" else final


def play_out(
    state: State,
    seated: list[Agent],
    max_actions: int,
    game_id: int | None,
    seed: int | None,
    trace: Trace | None = None,
) -> tuple[int, int, int]:
    """Let the seated agents play ``state`` to the end or to ``max_actions``; count turns, moves
    and actions, and record into ``trace`` when given.

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
        position = not mid_turn()
        if position:
            n_moves += 1
            if player != mover:
                n_turns += 1
                mover = player
        if trace is not None:
            trace.observe(state, position)
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
    position = excerpt(final_position(state), limit=120)
    return AgentError(
        f"agent {agent.label!r} in seat {seat} raised {type(exc).__name__}: {excerpt(str(exc), limit=160)[1:-1]} "
        f"in {where} after {n_actions} actions, at position {position}",
        game_id,
        seed,
        seat,
        agent.label,
        position,
    )


def final_position(state: State) -> str:
    """The final position as notation or JSON; a game cut mid-move gives the turn's snapshot."""
    if state.mid_turn():
        return canonical_json(state.snapshot())
    return state.notation() if state.game.info.has_notation else state.to_json()


def reset_agents(seated: list[Agent], seed: int) -> None:
    """Reset the agent in seat ``i`` from ``seed + (i + 1) * GOLDEN`` (mod 2**63).

    Distinct per seat, and nearly free: seeding ``random.Random`` (Mersenne Twister's
    ``init_by_array``) already scrambles neighbouring integers into unrelated streams, and a
    run's game seeds are themselves ``SeedSequence`` output.
    """
    for seat, agent in enumerate(seated, 1):
        agent.reset((seed + seat * _GOLDEN) & _MASK63)
