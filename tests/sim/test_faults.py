"""Simulations under faults: agents that raise, thread pools sharing agents, absurd agent settings."""

from __future__ import annotations

import pickle
from concurrent.futures import ThreadPoolExecutor

import pytest
from pandas.testing import assert_frame_equal

from tabletop_lab.agents import Agent, AlphaBetaAgent, MCTSAgent, make_agent
from tabletop_lab.agents.base import MAX_DEPTH, MAX_ITERATIONS, MAX_NODES, MAX_SECONDS
from tabletop_lab.sim import AgentError, play_game, simulate


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
