"""Simulations under faults: agents that raise, thread pools sharing agents, absurd agent settings."""

from __future__ import annotations

import os
import pickle
import signal
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest
from pandas.testing import assert_frame_equal

from tabletop_lab.agents import Agent, AlphaBetaAgent, MCTSAgent, make_agent
from tabletop_lab.agents.base import MAX_DEPTH, MAX_ITERATIONS, MAX_NODES, MAX_SECONDS
from tabletop_lab.sim import REPLAYS, AgentError, WorkerLostError, play_game, simulate


class CrashingAgent(Agent):
    """Plays randomly until its ``crash_at``-th decision of a game, then raises."""

    name = "crasher"

    def __init__(self, seed=None, crash_at=5, games_before=0):
        super().__init__(seed)
        self.crash_at = crash_at
        self.games_before = games_before  # resets (games) to play without crashing
        self.resets = 0
        self.decisions = 0

    def reset(self, seed):
        super().reset(seed)
        self.resets += 1
        self.decisions = 0

    def choose_action(self, state):
        self.decisions += 1
        if self.resets > self.games_before and self.decisions == self.crash_at:
            raise RuntimeError("the agent's model file is missing")
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))]


def without_durations(df):
    return df.drop(columns="duration_s")


# ----------------------------------------------------------------------------- an agent that raises


def test_an_agent_error_names_game_seed_seat_agent_and_position():
    crasher = CrashingAgent(crash_at=3, games_before=2)
    with pytest.raises(AgentError) as info:
        simulate("cross_endodoi", ["random", crasher], 10, seed=4, seats="fixed", progress=False, batch_size=10)
    error = info.value
    message = str(error)
    expected_seed = int(simulate("cross_endodoi", ["random", "random"], 3, seed=4, progress=False).seed[2])
    assert "agent 'crasher' in seat 1" in message
    assert "game 2" in message and f"(seed {expected_seed})" in message
    assert "RuntimeError: the agent's model file is missing" in message
    assert "position " in message and "/" in message  # the Cross-endodoi notation of the position
    assert len(message) < 500
    assert isinstance(error.__cause__, RuntimeError)
    assert (error.game_id, error.seed, error.seat, error.agent) == (2, expected_seed, 1, "crasher")


def test_an_agent_error_keeps_the_finished_games():
    crasher = CrashingAgent(crash_at=3, games_before=7)  # games 0..6 finish, game 7 fails
    with pytest.raises(AgentError) as info:
        simulate("cross_endodoi", ["random", crasher], 20, seed=4, seats="fixed", progress=False, batch_size=10)
    finished = info.value.finished
    assert list(finished.game_id) == list(range(7))
    # the kept rows are those of an undisturbed run: same seeds, same games
    normal = simulate("cross_endodoi", ["random", "random"], 7, seed=4, seats="fixed", progress=False)
    assert list(finished.seed) == list(normal.seed)
    assert finished.attrs["interrupted"] is True and finished.attrs["n_games"] == 20


def test_an_agent_error_from_a_process_pool_keeps_finished_batches():
    crasher = CrashingAgent(crash_at=3, games_before=12)  # each batch's agents are fresh copies
    with pytest.raises(AgentError) as info:
        simulate(
            "cross_endodoi", ["random", crasher], 40, seed=2, seats="fixed", progress=False, batch_size=20, workers=2
        )
    assert "game 12" in str(info.value) or "game 32" in str(info.value)
    finished = info.value.finished
    assert set(finished.game_id) <= set(range(40)) and 12 not in set(finished.game_id)


class ModelFileError(Exception):
    """An agent's own exception type, as a user's agent would raise."""


class BrokenModelAgent(CrashingAgent):
    name = "broken_model"

    def choose_action(self, state):
        if self.resets > self.games_before:
            raise ModelFileError("weights.bin is truncated")
        return super().choose_action(state)


def test_an_agent_error_from_a_process_pool_has_the_agents_exception_as_cause():
    with pytest.raises(AgentError) as info:
        simulate("cross_endodoi", ["random", BrokenModelAgent(games_before=3)], 20, seed=2, seats="fixed",
                 progress=False, batch_size=10, workers=2)  # fmt: skip
    cause = info.value.__cause__
    assert type(cause) is ModelFileError and str(cause) == "weights.bin is truncated"
    assert any("in the worker process:" in note and "Traceback" in note for note in cause.__notes__)


class UnpicklableError(Exception):
    def __init__(self, a, b):  # pickle calls UnpicklableError(message): a TypeError
        super().__init__(f"{a} and {b}")


class UnpicklableErrorAgent(CrashingAgent):
    def choose_action(self, state):
        raise UnpicklableError("left", "right")


def test_an_agents_exception_that_does_not_pickle_comes_back_named():
    with pytest.raises(AgentError) as info:
        simulate("cross_endodoi", ["random", UnpicklableErrorAgent()], 4, progress=False, batch_size=2, workers=2)
    cause = info.value.__cause__
    assert type(cause) is RuntimeError and str(cause) == "UnpicklableError: left and right"


# ----------------------------------------------------------------------------- a worker killed


class KillingAgent(CrashingAgent):
    """Plays randomly; the process playing the game that starts when ``kill_at`` games have
    started (counted in a file, over every process) kills itself with SIGKILL, the first time
    only (a marker file): as the out-of-memory killer would."""

    name = "killer"

    def __init__(self, folder, kill_at):
        super().__init__(crash_at=0)  # never raises
        self.counter, self.marker, self.kill_at = folder / "games", folder / "killed", kill_at

    def reset(self, seed):
        super().reset(seed)
        with self.counter.open("a") as counter:
            counter.write(".")

    def choose_action(self, state):
        if self.decisions == 2 and self.counter.stat().st_size >= self.kill_at:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return super().choose_action(state)


def test_a_worker_killed_costs_only_its_batches_which_are_replayed_on_a_fresh_worker(tmp_path):
    args = ("cross_endodoi", ["greedy", KillingAgent(tmp_path, kill_at=25)], 60)
    kwargs = {"seed": 5, "progress": False, "batch_size": 5}
    with pytest.warns(
        RuntimeWarning,
        match=r"a worker process died \(killed\?\) with \d+ batches unfinished \(games \d+-\d+ from seed \d+",
    ):
        survived = simulate(*args, workers=2, **kwargs)
    assert (tmp_path / "killed").exists()
    started = (tmp_path / "games").stat().st_size
    (tmp_path / "alone").mkdir()
    undisturbed = simulate(args[0], ["greedy", KillingAgent(tmp_path / "alone", kill_at=10**9)], 60, **kwargs)
    assert_frame_equal(without_durations(survived), without_durations(undisturbed))
    assert survived.attrs["interrupted"] is False
    # When C >= 25 games had started, at most two batches (one per worker, five games each) were
    # unfinished, so at least C - 10 games were kept and not played again: C + 60 - (C - 10).
    assert 60 < started <= 70


def test_the_warning_says_how_many_finished_games_were_kept(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        simulate("cross_endodoi", ["greedy", KillingAgent(tmp_path, kill_at=25)], 60, seed=5, progress=False,
                 batch_size=5, workers=2)  # fmt: skip
    (warning,) = [w for w in caught if "worker process died" in str(w.message)]
    message = str(warning.message)
    kept = int(message.split("kept the ")[1].split(" ")[0])
    assert kept >= 15 and kept % 5 == 0 and "replay 1 of 2" in message and len(message) < 300
    assert warning.filename == __file__  # points at the simulate() call


class AlwaysKillingAgent(CrashingAgent):
    def choose_action(self, state):
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_batch_that_kills_every_worker_gives_up_naming_it_and_keeps_the_finished_games():
    with pytest.warns(RuntimeWarning, match="worker process died"), pytest.raises(WorkerLostError) as info:
        simulate("cross_endodoi", ["random", AlwaysKillingAgent()], 10, progress=False, batch_size=5, workers=2)
    assert f"again after {REPLAYS} replays" in str(info.value) and "games 0-4" in str(info.value)
    assert len(info.value.finished) == 0 and info.value.finished.attrs["interrupted"] is True


def test_an_agent_error_pickles_with_its_fields():
    crasher = CrashingAgent(crash_at=2)
    with pytest.raises(AgentError) as info:
        play_game("cross_endodoi", ["random", crasher], seed=3)
    again = pickle.loads(pickle.dumps(info.value))
    assert str(again) == str(info.value) and again.seat == 1 and again.game_id is None


# ----------------------------------------------------------------------------- thread pools


def test_a_thread_pool_gives_the_rows_of_one_process():
    args = ("cross_endodoi", ["random", "greedy"], 600)
    kwargs = {"seed": 9, "progress": False, "batch_size": 5}
    alone = simulate(*args, **kwargs)
    with ThreadPoolExecutor(3) as pool:
        threaded = simulate(*args, executor=pool, **kwargs)
    assert_frame_equal(without_durations(threaded), without_durations(alone))


# ----------------------------------------------------------------------------- absurd settings


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:iterations=999999999999999999999999", f"iterations must be an integer >= 1 and <= {MAX_ITERATIONS}"),
        ("mcts:seconds=1e300", f"seconds must be a number > 0 and <= {MAX_SECONDS}"),
        ("alphabeta:depth=100000", f"depth must be an integer >= 1 and <= {MAX_DEPTH}"),
        ("alphabeta:seconds=86400", "seconds must be a number > 0 and <="),
        ("alphabeta:nodes=10000000000000", f"nodes must be an integer >= 1 and <= {MAX_NODES}"),
        ("ismcts:iterations=999999999999999999999999", f"iterations must be an integer >= 1 and <= {MAX_ITERATIONS}"),
        ("mcts:iterations=" + "9" * 5000, "iterations=.* is too long"),
    ],
)
def test_absurd_agent_settings_are_refused(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec)


def test_the_bounds_themselves_are_accepted():
    assert MCTSAgent(iterations=MAX_ITERATIONS).iterations == MAX_ITERATIONS
    assert AlphaBetaAgent(depth=MAX_DEPTH, seconds=MAX_SECONDS).seconds == MAX_SECONDS
