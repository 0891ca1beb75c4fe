"""The compiled Sinoda kernel against the Python engine (the reference), game by game.

Every kernel game must be the game the Python engine plays from the same random streams: same
actions (checked one by one on a sample), same final position (canonical JSON), same length,
scores, winners, reason and outcome. Every rules config runs through both: 2, 3, 4 and 6
players, every first player, both four-player starts, both team layouts at six and pairs at
four, and three custom boards (the small board renamed with names JSON must escape, two players
on the large board, a ring with a tail). 8,850 games run to their end through both paths, 400
more are cut at ``max_actions`` and 260 are compared action by action: the Python engine plays a
random game in 2 to 11 ms, so 10^5 games would take several minutes; the file takes about 35 s of
CPU (the Python side). Rollouts from positions met in play and from arbitrary positions
(hypothesis) give the same values and streams as ``random_rollout``. The kernel never answers
``REPLAY``: the engine has no error that a random game can meet.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_lab import load_game
from tabletop_lab.agents import MCTSAgent
from tabletop_lab.games.sinoda import board_data
from tabletop_lab.kernels import CUT, FINISHED, playout_kernel, random_rollout, use_kernels
from tabletop_lab.sim import simulate
from tests.games.sinoda.helpers import random_positions
from tests.kernel_reference import reference_game

pytest.importorskip("numba", reason="the kernels need numba (a dependency of tabletop-lab)")

CAP = load_game("sinoda").info.max_actions


def _renamed(data: dict) -> dict:
    """A board-data object with every cell renamed so that JSON must escape it (quote, é)."""
    name = {c: f'"{c}\u00e9' for c in data["cells"]}
    return {
        "cells": [name[c] for c in data["cells"]],
        "adjacency": {name[c]: [name[n] for n in around] for c, around in data["adjacency"].items()},
        "seats": [[name[c] for c in seat] for seat in data["seats"]],
    }


#: A square a-b-c-d with a tail d-e-...-n: paths that would come back to their start.
RING = {
    "cells": list("abcdefghijklmn"),
    "adjacency": {
        "a": ["b", "d"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c", "a", "e"],
        **{x: [w, y] for w, x, y in zip("defghijklm", "efghijklm", "fghijklmn")}, "n": ["m"],
    },
    "seats": [list("abcefg"), list("ijklmn")],
}  # fmt: skip
CUSTOM_BOARDS = {
    "renamed": _renamed(board_data(2)),
    "large-two": {**board_data(3), "seats": board_data(3)["seats"][:2]},
    "ring": RING,
}

#: Every rules config of the standard boards, then the custom boards.
CONFIGS = (
    [{"players": 2, "first_player": f} for f in range(2)]
    + [{"players": 3, "first_player": f} for f in range(3)]
    + [
        {"players": 4, "teams": teams, "four_player_start": start, "first_player": f}
        for teams, start, f in itertools.product(("none", "pairs"), ("corner", "side"), range(4))
    ]
    + [{"players": 6, "teams": teams, "first_player": f} for teams in ("none", "pairs", "triples") for f in range(6)]
    + [{"board": name} for name in CUSTOM_BOARDS]
)
#: Games per config: the two-player engine is fastest and its configs are the most played.
GAMES = {2: 3000, 3: 80, 4: 60, 6: 50, "board": 250}


def config_id(options: dict) -> str:
    return "-".join(str(v) for v in options.values())


def game_of(options: dict):
    if "board" in options:
        return load_game("sinoda", board=CUSTOM_BOARDS[options["board"]])
    return load_game("sinoda", **options)


def kernel_of(game):
    kernel = playout_kernel(game)
    assert kernel is not None, "Sinoda has a kernel for every config"
    return kernel


def python_game(game, streams, cap=CAP):
    """The reference (``tests.kernel_reference``): the final state."""
    return reference_game(game, streams, cap).state


def seeds(n, players, seed):
    return np.random.default_rng(seed).integers(0, 2**64, size=(n, players), dtype=np.uint64)


def assert_same_game(played, g, state):
    """Row ``g`` of the kernel's games is the engine's ``state`` (played to its end or the cap)."""
    assert played.final[g].decode() == state.to_json()
    assert played.n_actions[g] == played.n_moves[g] == played.n_turns[g] == len(state.history())
    assert played.scores[g].tolist() == state.scores()
    result = state.result()
    if result is None:
        assert played.outcome[g] == CUT
        return
    assert played.outcome[g] == FINISHED
    assert [p for p in range(len(played.scores[g])) if played.winners[g] >> p & 1] == list(result.winners)
    assert played.reasons[played.reason[g]] == result.reason


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_every_kernel_game_is_the_engines_game(options):
    game = game_of(options)
    n = GAMES["board" if "board" in options else options["players"]]
    streams = seeds(n, game.num_players, len(CONFIGS) + CONFIGS.index(options))
    played = kernel_of(game).random_games(game, streams, CAP)
    assert set(played.outcome.tolist()) <= {FINISHED, CUT}
    for g in range(n):
        assert_same_game(played, g, python_game(game, streams[g]))
    if "board" not in options:
        assert (played.outcome == FINISHED).all()  # random games on the standard boards end long before the cap


@pytest.mark.parametrize("options", CONFIGS[::4] + CONFIGS[-3:], ids=config_id)
def test_kernel_actions_are_the_engines_actions(options):
    game = game_of(options)
    kernel = kernel_of(game)
    for streams in seeds(20, game.num_players, 7):
        recorded = kernel.recorded_game(game.new_initial_state(), streams, CAP)
        state = python_game(game, streams)
        assert recorded.actions == state.history()
        assert recorded.played.final[0].decode() == state.to_json()


@pytest.mark.parametrize("players", [2, 6])
def test_games_cut_at_max_actions_stop_there(players):
    game = load_game("sinoda", players=players, teams="triples" if players == 6 else "none")
    streams = seeds(200, players, 3)
    cap = 260 if players == 2 else 450  # about the mean length: some games end within it, most others not
    played = kernel_of(game).random_games(game, streams, cap)
    assert set(played.outcome.tolist()) == {FINISHED, CUT}
    for g in range(len(streams)):
        state = python_game(game, streams[g], cap=cap)
        assert_same_game(played, g, state)
        assert (played.outcome[g] == CUT) == (not state.is_terminal())


def positions_in_play(options, n, seed):
    """Positions met by random play under ``options``, finished ones included."""
    game = game_of(options)
    rng = np.random.default_rng(seed)
    return [
        python_game(game, rng.integers(0, 2**64, game.num_players, dtype=np.uint64), cap=int(rng.integers(0, 600)))
        for _ in range(n)
    ]


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 6, "teams": "pairs"}, {"board": "large-two"}])
def test_rollouts_match_the_python_rollout(options):
    game = game_of(options)
    kernel = kernel_of(game)
    states = positions_in_play(options, 60, 11)
    assert any(s.is_terminal() for s in states) and not all(s.is_terminal() for s in states)
    for i, state in enumerate(states):
        for budget in (0, 7, CAP):  # nothing, cut short (evaluate()), to the end
            stream = (i * 0x9E3779B97F4A7C15 + budget) % 2**64
            assert kernel.rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)


@settings(max_examples=150, deadline=None)
@given(
    random_positions(
        [{}, {"players": 3}, {"players": 4, "teams": "pairs"}, {"players": 6}, {"players": 6, "teams": "triples"}]
    ),
    st.integers(0, 2**64 - 1),
    st.sampled_from([3, 40, CAP]),
)
def test_rollouts_match_from_arbitrary_positions(case, stream, budget):
    """Pieces anywhere with any values, captures already made: the Sinoda check, every end."""
    game, data = case
    state = game.state_from_dict(data)
    before = state.to_json()
    assert kernel_of(game).rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)
    assert state.to_json() == before


@pytest.mark.parametrize("options", [{}, {"players": 6, "teams": "triples"}])
def test_simulate_gives_the_same_rows_with_and_without_the_kernel(options):
    game = load_game("sinoda", **options)
    agents = ["random"] * game.num_players
    compiled = simulate(game, agents, 40, seed=5, progress=False)
    use_kernels(False)
    try:
        reference = simulate(game, agents, 40, seed=5, progress=False)
    finally:
        use_kernels(None)
    columns = [c for c in reference.columns if c != "duration_s"]
    assert compiled[columns].equals(reference[columns])


@pytest.mark.parametrize("options, paranoid", [({}, False), ({"players": 6, "teams": "pairs"}, True)])
def test_mcts_decides_the_same_with_and_without_the_kernel(options, paranoid):
    game = game_of(options)
    state = python_game(game, seeds(1, game.num_players, 4)[0], cap=40)  # early: the game goes on
    compiled = MCTSAgent(seed=4, iterations=60, paranoid=paranoid).analyse(state)
    use_kernels(False)
    try:
        reference = MCTSAgent(seed=4, iterations=60, paranoid=paranoid).analyse(state)
    finally:
        use_kernels(None)
    assert compiled == reference


def test_every_config_is_supported_and_kernels_switch_off():
    for options in CONFIGS:
        assert kernel_of(game_of(options)).supports(game_of(options))
    game = load_game("sinoda")
    use_kernels(False)
    try:
        assert playout_kernel(game) is None
    finally:
        use_kernels(None)
    assert playout_kernel(game) is not None


def test_the_kernel_leaves_its_inputs_alone():
    game = load_game("sinoda", players=4, teams="pairs")
    state = positions_in_play({"players": 4, "teams": "pairs"}, 1, 2)[0]
    before = state.clone()
    streams = seeds(5, 4, 1)
    copy = streams.copy()
    kernel = kernel_of(game)
    kernel.rollout(state, CAP, 5)
    kernel.random_games(game, streams, CAP)
    kernel.recorded_game(state, streams[0], CAP)
    assert state == before and state.history() == before.history() and state.to_json() == before.to_json()
    assert (streams == copy).all()


@pytest.mark.parametrize("options", [{}, {"players": 6}, {"board": "ring"}], ids=config_id)
def test_board_tables_hold_every_path_of_the_board(options):
    """The kernel's arrays list, for each cell and value, the board's destinations in canonical
    order and exactly the cells each minimal path passes through (padded with the empty cell)."""
    from tabletop_lab.games.sinoda.kernel import board_tables  # after the numba check

    board = game_of(options).board
    tables = board_tables(board)
    empty = board.size
    for cell in range(board.size):
        for v in range(1, 5):
            g = 4 * cell + v - 1
            entries = range(tables.group[g], tables.group[g + 1])
            assert [int(tables.dest[j]) for j in entries] == list(board.routes[cell][v])
            for j in entries:
                paths = tables.mids[tables.path[j] : tables.path[j + 1]]
                assert (paths[:, v - 1 :] == empty).all()
                masks = [sum(1 << int(c) for c in row[: v - 1]) for row in paths]
                assert tuple(masks) == board.routes[cell][v][int(tables.dest[j])]
    assert tables.path[-1] == len(tables.mids)
