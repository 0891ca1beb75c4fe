"""The compiled Sinomilia kernel against the Python engine (the reference), game by game.

Every kernel game must be the game the Python engine plays from the same random streams: same
actions (checked one by one on a sample), same final position (canonical JSON, both set cards
included), same lengths, scores, winners, reason and outcome. 10^5 games over six rules configs
(both start players, round caps of 1, 2, 5, 200 and none) run through both paths: the file
takes about 20 s of CPU (numba's cache warm; compiling adds some 8 s), nearly all of it the Python
engine's. Rollouts from positions met in play, from worlds
drawn by ``resample`` (what information-set search rolls out from) and from arbitrary valid
positions (hypothesis) give the same values and streams as ``random_rollout``. The engine has
no safety guard that raises (the round cap is a rule), so the kernel never leaves a game to it
(``REPLAY``): the outcomes checked below are finished, capped or cut.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tabletop_lab import PositionError, load_game
from tabletop_lab.kernels import CUT, FINISHED, RULE_CAP, playout_kernel, random_rollout, use_kernels
from tabletop_lab.sim import simulate
from tests.kernel_reference import reference_game

pytest.importorskip("numba", reason="the kernels need numba (a dependency of tabletop-lab)")

GAMES = {  # rules config -> games through both paths: 10^5 in all
    (("first_player", 0), ("round_cap", 200)): 30_000,
    (("first_player", 1), ("round_cap", 200)): 20_000,
    (("first_player", 1), ("round_cap", None)): 20_000,
    (("first_player", 0), ("round_cap", 5)): 10_000,
    (("first_player", 0), ("round_cap", 2)): 10_000,
    (("first_player", 1), ("round_cap", 1)): 10_000,
}
CONFIGS = [dict(config) for config in GAMES]
CAP = 5000  # the game's max_actions


def config_id(options):
    return "-".join(map(str, options.values()))


def kernel_of(game):
    kernel = playout_kernel(game)
    assert kernel is not None, "Sinomilia has a kernel for every config"
    return kernel


def python_game(game, streams, cap=CAP):
    """The reference (``tests.kernel_reference``): the final state and its turns."""
    state, turns, _ = reference_game(game, streams, cap)
    return state, turns


def seeds(n, seed):
    return np.random.default_rng(seed).integers(0, 2**64, size=(n, 2), dtype=np.uint64)


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_every_kernel_game_is_the_engines_game(options):
    game = load_game("sinomilia", **options)
    n = GAMES[tuple(options.items())]
    streams = seeds(n, 1 + CONFIGS.index(options))
    played = kernel_of(game).random_games(game, streams, CAP)
    expected_outcomes = {FINISHED, RULE_CAP} if options["round_cap"] in (1, 2, 5) else {FINISHED}
    assert set(played.outcome.tolist()) == expected_outcomes  # short caps are hit, 200 practically never
    for g in range(n):
        state, turns = python_game(game, streams[g])
        result = state.result()
        assert played.final[g].decode() == state.to_json()
        assert (played.n_actions[g], played.n_moves[g], played.n_turns[g]) == (len(state.history()),) * 2 + (turns,)
        assert played.outcome[g] == (RULE_CAP if result.cap_reached else FINISHED)
        assert played.scores[g].tolist() == list(result.scores)
        assert [p for p in range(2) if played.winners[g] >> p & 1] == list(result.winners)
        assert played.reasons[played.reason[g]] == result.reason


@pytest.mark.parametrize("options", CONFIGS[1:5], ids=config_id)
def test_kernel_actions_are_the_engines_actions(options):
    game = load_game("sinomilia", **options)
    kernel = kernel_of(game)
    for streams in seeds(200, 7):
        recorded = kernel.recorded_game(game.new_initial_state(), streams, CAP)
        state, _ = python_game(game, streams)
        assert recorded.actions == state.history()
        assert recorded.played.final[0].decode() == state.to_json()


def test_games_cut_at_max_actions_stop_there():
    game = load_game("sinomilia", round_cap=None)
    streams = seeds(500, 3)
    played = kernel_of(game).random_games(game, streams, 30)
    assert set(played.outcome.tolist()) == {FINISHED, CUT}  # a few games end within 30 actions
    for g in range(len(streams)):
        state, turns = python_game(game, streams[g], cap=30)
        assert played.final[g].decode() == state.to_json()  # mid-round, set cards shown
        assert (played.outcome[g] == CUT) == (not state.is_terminal())
        assert (played.n_actions[g], played.n_turns[g]) == (len(state.history()), turns)
        assert played.scores[g].tolist() == state.scores()
        if played.outcome[g] == CUT:
            assert played.winners[g] == 0


def test_an_enormous_round_cap_plays_as_no_cap():
    """The largest cap an option takes fits the kernel's int64 entries."""
    game = load_game("sinomilia", round_cap=2**63 - 1)
    streams = seeds(300, 4)
    played = kernel_of(game).random_games(game, streams, CAP)
    for g in range(len(streams)):
        assert played.final[g].decode() == python_game(game, streams[g])[0].to_json()


@pytest.mark.parametrize("options", [CONFIGS[0], CONFIGS[4]], ids=config_id)
def test_simulate_gives_the_same_rows_with_and_without_the_kernel(options):
    game = load_game("sinomilia", **options)
    compiled = simulate(game, ["random", "random"], 400, seed=9, seats="random", progress=False)
    previous = use_kernels(False)
    try:
        reference = simulate(game, ["random", "random"], 400, seed=9, seats="random", progress=False)
    finally:
        use_kernels(previous)
    columns = [c for c in reference.columns if c != "duration_s"]
    assert compiled[columns].equals(reference[columns])


def positions_in_play(options, n, seed):
    """Positions met by random play under ``options``: every phase, terminal ones included."""
    game = load_game("sinomilia", **options)
    rng = np.random.default_rng(seed)
    return [
        python_game(game, rng.integers(0, 2**64, 2, dtype=np.uint64), cap=int(rng.integers(0, 90)))[0] for _ in range(n)
    ]


@pytest.mark.parametrize("options", [CONFIGS[0], CONFIGS[2], CONFIGS[4]], ids=config_id)
def test_rollouts_match_the_python_rollout(options):
    game = load_game("sinomilia", **options)
    kernel = kernel_of(game)
    states = positions_in_play(options, 300, 11)
    assert {s.phase for s in states} == {0, 1, 2}
    for i, state in enumerate(states):
        for budget in (0, 1, 7, CAP):
            stream = (i * 0x9E3779B97F4A7C15 + budget) % 2**64
            assert kernel.rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)


def test_rollouts_match_in_resampled_worlds():
    """Information-set search rolls out from worlds drawn by ``resample``: hidden cards redrawn."""
    game = load_game("sinomilia")
    kernel = kernel_of(game)
    rng = random.Random(5)
    for i, state in enumerate(positions_in_play({}, 150, 12)):
        if state.is_terminal():
            continue
        world = state.resample(state.current_player(), rng)
        stream = i * 7919
        assert kernel.rollout(world, CAP, stream) == random_rollout(world.clone(), CAP, stream)


@st.composite
def play_or_set_positions(draw):
    """A valid position (spec 7.1) of the set or play phase, with its rules config."""
    round_ = draw(st.integers(1, 12))
    discards = [draw(st.sets(st.integers(0, 8), max_size=min(round_ - 1, 7))) for _ in range(2)]
    start = draw(st.integers(0, 1))
    phase = draw(st.sampled_from(["set", "play"]))
    sets = [None, None]
    if phase == "play":
        sets = [draw(st.sampled_from(sorted(set(range(10)) - d))) for d in discards]
    elif draw(st.booleans()):  # the start player has set
        sets[start] = draw(st.sampled_from(sorted(set(range(10)) - discards[start])))
    to_move = start if phase == "set" and sets[start] is None else 1 - start
    changed, sun, moon, last_action, last_turn = [False, False], 0, 0, None, "none"
    if phase == "play":
        to_move = draw(st.integers(0, 1))
        waiting = 1 - to_move
        last_turn = "none" if to_move == start and draw(st.booleans()) else draw(st.sampled_from(
            ["pass", "sun", "moon", "change"]))  # fmt: skip
        if last_turn != "none":
            changed = [draw(st.booleans()), draw(st.booleans())]
            sun, moon = draw(st.integers(0, 8)), draw(st.integers(0, 8))
            moon = min(moon, 8 - sun)
            sun += last_turn == "sun" and sun + moon < 8
            moon += last_turn == "moon" and sun + moon < 8
            changed[waiting] = changed[waiting] or last_turn == "change"
            acted = bool(sun + moon) or any(changed)
            last_action = waiting if last_turn != "pass" else (draw(st.integers(0, 1)) if acted else None)
    piles = 30 - sun - moon
    low = 1 if last_action is None else 0
    chips0 = draw(st.integers(low, piles - low))
    data = {
        "game": "sinomilia",
        "round": round_,
        "phase": phase,
        "start_player": start,
        "to_move": to_move,
        "chips": [chips0, piles - chips0],
        "table": [sun, moon],
        "hands": [sorted(set(range(10)) - discards[p] - {sets[p]}) for p in (0, 1)],
        "set": sets,
        "discards": [sorted(d) for d in discards],
        "changed": changed,
        "last_action": last_action,
        "last_turn": last_turn,
        "last_round_winner": None if round_ == 1 else start,
        "cap_reached": False,
    }
    round_cap = draw(st.sampled_from([None, round_, round_ + 1, 200]))
    return data, round_cap


@settings(max_examples=400, deadline=None)
@given(position=play_or_set_positions(), budget=st.integers(1, 300), stream=st.integers(0, 2**64 - 1))
def test_rollouts_match_from_arbitrary_positions(position, budget, stream):
    data, round_cap = position
    game = load_game("sinomilia", round_cap=round_cap)
    try:
        state = game.state_from_dict(data)
    except PositionError:  # a rare combination the strategy does not rule out (e.g. last_turn 'sun', no room)
        assume(False)
    expected = random_rollout(state.clone(), budget, stream)
    assert kernel_of(game).rollout(state, budget, stream) == expected


def test_the_kernel_leaves_its_inputs_alone():
    game = load_game("sinomilia")
    state = next(s for s in positions_in_play({}, 20, 2) if s.phase == 1)
    before, json_before = state.clone(), state.to_json()
    streams = seeds(5, 1)
    copy = streams.copy()
    kernel = kernel_of(game)
    kernel.rollout(state, CAP, 5)
    kernel.random_games(game, streams, CAP)
    kernel.recorded_game(state, streams[0], CAP)
    assert state == before and state.history() == before.history() and state.to_json() == json_before
    assert (streams == copy).all()
