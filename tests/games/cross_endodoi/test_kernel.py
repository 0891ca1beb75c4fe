"""The compiled Cross-endodoi kernel against the Python engine (the reference), game by game.

Every kernel game must be the game the Python engine plays from the same random streams:
same actions (checked one by one on a sample), same final position, same length, same
result. 10^5 games over every rules config run through both; rollouts from positions met in
play and from arbitrary positions (long laps, both origins, every stage of the pie rule's swap)
give the same values and streams.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_lab import load_game
from tabletop_lab.games.cross_endodoi import LapLimitError
from tabletop_lab.games.cross_endodoi.rules import PIE_STAGES, SWAP
from tabletop_lab.kernels import CUT, FINISHED, REPLAY, playout_kernel, random_rollout
from tests.kernel_reference import reference_game

pytest.importorskip("numba", reason="the kernels need numba (a dependency of tabletop-lab)")

CONFIGS = [
    {"seeds_per_hole": n, "skip_origin": skip, "first_player": first, "pie_rule": pie}
    for n, skip, first, pie in itertools.product((3, 6), (False, True), (0, 1), (False, True))
]
GAMES_PER_CONFIG = 6_250  # 16 configs: 10^5 games
CAP = 1000


def kernel_of(game):
    kernel = playout_kernel(game)
    assert kernel is not None, "Cross-endodoi has a kernel for every config"
    return kernel


def python_game(game, streams, cap=CAP):
    """The reference (``tests.kernel_reference``): the final state."""
    return reference_game(game, streams, cap).state


def seeds(n, seed):
    return np.random.default_rng(seed).integers(0, 2**64, size=(n, 2), dtype=np.uint64)


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(map(str, o.values())))
def test_every_kernel_game_is_the_engines_game(options):
    game = load_game("cross_endodoi", **options)
    streams = seeds(GAMES_PER_CONFIG, len(str(options)) + options["seeds_per_hole"] + options["first_player"])
    played = kernel_of(game).random_games(game, streams, CAP)
    assert (played.outcome == FINISHED).all()
    for g in range(GAMES_PER_CONFIG):
        state = python_game(game, streams[g])
        assert played.final[g].decode() == state.notation()
        assert played.n_actions[g] == len(state.history())
        result = state.result()
        assert played.scores[g].tolist() == list(result.scores)
        assert [p for p in range(2) if played.winners[g] >> p & 1] == list(result.winners)


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(map(str, o.values())))
def test_kernel_actions_are_the_engines_actions(options):
    game = load_game("cross_endodoi", **options)
    kernel = kernel_of(game)
    swaps = 0
    for streams in seeds(200, 7):
        recorded = kernel.recorded_game(game.new_initial_state(), streams, CAP)
        state = python_game(game, streams)
        assert recorded.actions == state.history()
        assert recorded.played.final[0].decode() == state.notation()
        swaps += SWAP in recorded.actions
    assert (swaps > 0) == options["pie_rule"]  # random play swaps about one game in seven


def test_games_cut_at_max_actions_stop_there():
    game = load_game("cross_endodoi")
    streams = seeds(300, 3)
    played = kernel_of(game).random_games(game, streams, 15)
    assert set(played.outcome.tolist()) == {FINISHED, CUT}  # some games end within 15 moves, most do not
    for g in range(len(streams)):
        state = python_game(game, streams[g], cap=15)
        assert played.final[g].decode() == state.notation()
        assert (played.outcome[g] == CUT) == (not state.is_terminal())
        assert played.n_actions[g] == len(state.history())
        if not state.is_terminal():
            assert played.scores[g].tolist() == state.scores()


def test_a_move_beyond_max_laps_is_left_to_the_engine():
    """The kernel does not raise the engine's LapLimitError: it marks the game for replay."""
    game = load_game("cross_endodoi", max_laps=2)
    streams = seeds(50, 5)
    played = kernel_of(game).random_games(game, streams, CAP)
    assert (played.outcome == REPLAY).any()
    for g in range(len(streams)):
        if played.outcome[g] == REPLAY:
            with pytest.raises(LapLimitError):
                python_game(game, streams[g])
        else:
            assert played.final[g].decode() == python_game(game, streams[g]).notation()


def positions_in_play(options, n, seed):
    """Positions met by random play under ``options``, terminal ones included."""
    game = load_game("cross_endodoi", **options)
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < n:
        state = python_game(game, rng.integers(0, 2**64, 2, dtype=np.uint64), cap=int(rng.integers(0, 60)))
        found.append(state)
    return found


@pytest.mark.parametrize("options", CONFIGS[::3], ids=lambda o: "-".join(map(str, o.values())))
def test_rollouts_match_the_python_rollout(options):
    game = load_game("cross_endodoi", **options)
    kernel = kernel_of(game)
    for i, state in enumerate(positions_in_play(options, 300, 11)):
        for budget in (0, 3, CAP):
            stream = (i * 0x9E3779B97F4A7C15 + budget) % 2**64
            assert kernel.rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)


@settings(max_examples=300, deadline=None)
@given(
    holes=st.lists(st.integers(0, 30), min_size=12, max_size=12),
    to_move=st.integers(0, 1),
    skip_origin=st.booleans(),
    pie=st.sampled_from([None, *PIE_STAGES]),
    stream=st.integers(0, 2**64 - 1),
)
def test_rollouts_match_from_arbitrary_positions(holes, to_move, skip_origin, pie, stream):
    """Piles of 12 to 30 seeds sow whole rounds: the kernel's round arithmetic meets the engine's;
    under the pie rule (``pie`` the swap's stage; ``None``: no pie rule) the swap and the sides'
    owners too."""
    total = sum(holes)
    seeds_per_hole = 3 if total <= 36 else 6
    if total > 72:
        holes = [h * 72 // total for h in holes]
    stores = [12 * seeds_per_hole - sum(holes), 0]
    game = load_game("cross_endodoi", seeds_per_hole=seeds_per_hole, skip_origin=skip_origin, pie_rule=pie is not None)
    position = {"game": "cross_endodoi", "holes": holes, "stores": stores, "to_move": to_move}
    state = game.state_from_dict(position if pie is None else {**position, "pie": pie})
    expected = random_rollout(state.clone(), 40, stream)
    assert kernel_of(game).rollout(state, 40, stream) == expected


def test_the_kernel_leaves_its_inputs_alone():
    game = load_game("cross_endodoi")
    state = positions_in_play({}, 1, 2)[0]
    before = state.clone()
    streams = seeds(5, 1)
    copy = streams.copy()
    kernel = kernel_of(game)
    kernel.rollout(state, CAP, 5)
    kernel.random_games(game, streams, CAP)
    assert state == before and state.history() == before.history()
    assert (streams == copy).all()
