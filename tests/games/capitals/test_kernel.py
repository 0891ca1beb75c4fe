"""The compiled Capitals kernel against the Python engine (the reference), game by game.

Every kernel game must be the game the Python engine plays from the same random streams: same
actions (checked one by one on a sample), same final position (canonical JSON, or the turn's
snapshot for a game cut mid-turn), same turns, moves and actions, same scores, winners and
outcome. 8,100 games run through both over 23 rules configs (the harness configs and every
option's other values one at a time): a random Capitals game costs the engine about 2.5 ms
(180 actions), so 10^5 games would take minutes; the whole file takes about 35 s of CPU (some
15 s more when numba has to compile the kernel first). Rollouts from positions met in play
(chains, sacrifices and releases in progress included) and from arbitrary positions
(hypothesis) give the same values and stream states as ``random_rollout``, and MCTS analyses a
position the same with either.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_lab import load_game
from tabletop_lab.agents import MCTSAgent
from tabletop_lab.core import canonical_json
from tabletop_lab.games.capitals.geometry import CAPITAL_OWNER, SQUARE_NAMES
from tabletop_lab.kernels import CUT, FINISHED, RULE_CAP, playout_kernel, random_rollout, use_kernels
from tabletop_lab.sim import simulate
from tests.kernel_reference import reference_game

from .helpers import position

pytest.importorskip("numba", reason="the kernels need numba (a dependency of tabletop-lab)")

HARNESS = load_game("capitals").harness_configs()  # the defaults first
ONE_CHANGE = [
    {"eliminated_slot": "skip"},
    {"dismantle_top": "keep"},
    {"capture_removal": "immediate"},
    {"chain_end_on_start": True},
    {"ram_attack_after": "friendly"},
    {"ram_jump": "none"},
    {"synergy_adjacency": 4},
    {"transfers_per_turn": 0},
    {"transfers_per_turn": 3},
    {"pass_turn_cost": "removed"},
    {"pass_turn_chain": True},
    {"capital_entry": "final_square"},
    {"elimination_is_attack": False},
    {"sacrifice_from_ram": True},
    {"prisoner_placement": "fixed"},
    {"altar_scoring": "winner_only"},
    {"hunger_first": "alternate"},
    {"max_cycles": None},
    {"max_cycles": 30},
]
CONFIGS = HARNESS + ONE_CHANGE
GAMES = {0: 1500}  # the default rules get more games; 300 for each other config: 8,100 in all
CAP = 20_000


def config_id(options: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def kernel_of(game):
    kernel = playout_kernel(game)
    assert kernel is not None, "Capitals has a kernel for every rules config"
    return kernel


def python_game(game, streams, cap=CAP):
    """The reference (``tests.kernel_reference``): the final state, its turns and moves."""
    return reference_game(game, streams, cap)


def final_text(state) -> str:
    return canonical_json(state.snapshot()) if state.mid_turn() else state.to_json()


def seeds(n, seed):
    return np.random.default_rng(seed).integers(0, 2**64, size=(n, 4), dtype=np.uint64)


def check_same_games(game, streams, played, cap):
    reasons = [*played.reasons]
    for g in range(len(streams)):
        state, turns, moves = python_game(game, streams[g], cap)
        assert played.final[g].decode() == final_text(state)
        assert (played.n_turns[g], played.n_moves[g], played.n_actions[g]) == (turns, moves, len(state.history()))
        assert played.scores[g].tolist() == state.scores()
        result = state.result()
        if result is None:
            assert played.outcome[g] == CUT
            continue
        assert played.outcome[g] == (RULE_CAP if result.cap_reached else FINISHED)
        assert [p for p in range(4) if played.winners[g] >> p & 1] == list(result.winners)
        assert reasons[played.reason[g]] == result.reason


@pytest.mark.parametrize("index", range(len(CONFIGS)), ids=[config_id(o) for o in CONFIGS])
def test_every_kernel_game_is_the_engines_game(index):
    game = load_game("capitals", **CONFIGS[index])
    streams = seeds(GAMES.get(index, 300), 100 + index)
    played = kernel_of(game).random_games(game, streams, CAP)
    assert not (played.outcome == CUT).any()
    if CONFIGS[index].get("max_cycles") in (15, 30):  # random games last some 36 cycles
        assert (played.outcome == RULE_CAP).any()
    check_same_games(game, streams, played, CAP)


@pytest.mark.parametrize("options", CONFIGS[::4], ids=config_id)
def test_kernel_actions_are_the_engines_actions(options):
    game = load_game("capitals", **options)
    kernel = kernel_of(game)
    for streams in seeds(40, 7):
        recorded = kernel.recorded_game(game.new_initial_state(), streams, CAP)
        state = python_game(game, streams)[0]
        assert recorded.actions == state.history()
        assert recorded.played.final[0].decode() == final_text(state)


def test_games_cut_at_max_actions_stop_there():
    """Cut games stop exactly at ``max_actions``, some in the middle of a chain or a pass-turn."""
    game = load_game("capitals")
    kernel = kernel_of(game)
    cut_mid_turn = 0
    for cap in (25, 90, 170):
        streams = seeds(100, cap)
        played = kernel.random_games(game, streams, cap)
        check_same_games(game, streams, played, cap)
        cut_mid_turn += sum(b"turn_in_progress" in text for text in played.final)
    assert cut_mid_turn > 0


def test_simulate_gives_the_same_rows_with_and_without_the_kernel():
    game = load_game("capitals", **HARNESS[2])
    with_kernel = simulate(game, ["random"] * 4, 150, seed=3, progress=False)
    use_kernels(False)
    try:
        without = simulate(game, ["random"] * 4, 150, seed=3, progress=False)
    finally:
        use_kernels(None)
    columns = [c for c in with_kernel.columns if c != "duration_s"]
    assert with_kernel[columns].astype(str).equals(without[columns].astype(str))


def positions_in_play(options, n, seed):
    """States met by random play under ``options``: positions, chains, pass-turns waiting for
    their sacrifice, pending sacrifices and releases, and finished games."""
    game = load_game("capitals", **options)
    rng = np.random.default_rng(seed)
    return [python_game(game, rng.integers(0, 2**64, 4, dtype=np.uint64), cap=int(rng.integers(0, 260)))[0]
            for _ in range(n)]  # fmt: skip


@pytest.mark.parametrize("options", HARNESS, ids=config_id)
def test_rollouts_match_the_python_rollout(options):
    game = load_game("capitals", **options)
    kernel = kernel_of(game)
    states = positions_in_play(options, 150, 11)
    assert any(s.mid_turn() for s in states) and any(s.is_terminal() for s in states)
    for i, state in enumerate(states):
        for budget in (0, 4, 1000):
            stream = (i * 0x9E3779B97F4A7C15 + budget) % 2**64
            assert kernel.rollout(state, budget, stream) == random_rollout(state.clone(), budget, stream)


OPTION_VALUES = {
    "capture_removal": ("end_of_chain", "immediate"),
    "chain_end_on_start": (False, True),
    "ram_attack_after": ("any", "friendly"),
    "sacrifice_from_ram": (False, True),
    "altar_scoring": ("each_team", "winner_only"),
}


@st.composite
def crowded_positions(draw):
    """A loadable position with units scattered over the board (Rams among them), Cages and
    Altars filled at random, in any cycle: more jumps, chains and Ram attacks than play meets."""
    options = draw(st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}))
    counts = [0] * 4
    pieces = {}
    for square in draw(st.lists(st.integers(0, 63), unique=True, min_size=2, max_size=34)):
        controller = draw(st.integers(0, 3))
        owner = controller ^ draw(st.sampled_from((0, 2)))
        top = draw(st.sampled_from((None, None, controller, controller ^ 2)))
        capital = CAPITAL_OWNER[square]
        if counts[owner] == 9 or (top is not None and counts[top] + (top == owner) >= 9):
            continue
        if capital >= 0 and capital & 1 != controller & 1:
            continue  # an opponent on a Capital in play is no position
        counts[owner] += 1
        if top is not None:
            counts[top] += 1
        pieces[SQUARE_NAMES[square]] = (owner, controller, top)
    cages = [[], [], [], []]
    for player in range(4):
        for owner in draw(st.lists(st.sampled_from((player ^ 1, player ^ 3)), max_size=4)):
            if counts[owner] < 9:
                counts[owner] += 1
                cages[player].append(owner)
    slot = draw(st.integers(0, 3))
    data = position(pieces, cycle=draw(st.integers(1, 12)), slot=slot, actor=slot, cages=cages)
    return load_game("capitals", **options).state_from_dict(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=crowded_positions(), stream=st.integers(0, 2**64 - 1), budget=st.integers(1, 60))
def test_rollouts_match_from_arbitrary_positions(state, stream, budget):
    expected = random_rollout(state.clone(), budget, stream)
    assert kernel_of(state.game).rollout(state, budget, stream) == expected


def test_mcts_analyses_the_same_with_and_without_the_kernel():
    """MCTS rolls out through the kernel: the same statistics as with Python rollouts."""
    state = next(s for s in positions_in_play({}, 20, 5) if not s.is_terminal())
    compiled = MCTSAgent(seed=4, iterations=60).analyse(state)
    use_kernels(False)
    try:
        reference = MCTSAgent(seed=4, iterations=60).analyse(state)
    finally:
        use_kernels(None)
    assert compiled == reference


def test_the_kernel_leaves_its_inputs_alone():
    game = load_game("capitals")
    state = next(s for s in positions_in_play({}, 50, 2) if s.mid_turn())
    before = state.clone()
    streams = seeds(5, 1)
    copy = streams.copy()
    kernel = kernel_of(game)
    kernel.rollout(state, CAP, 5)
    kernel.random_games(game, streams, CAP)
    kernel.recorded_game(state, streams[0], CAP)
    assert state.key() == before.key() and state.history() == before.history()
    assert (streams == copy).all()


def test_the_kernel_wipes_a_mark_set_before_a_black_opened_epoch():
    """Slot 0 of cycle 8 is outside the Epoch that Black opens (``hunger_first = "alternate"``):
    a mark set there is gone when the Epoch opens, in the kernel as in the engine (5.2)."""
    game = load_game("capitals", hunger_first="alternate")
    quiet = {"a1": 0, "h1": 1, "h8": 2, "a8": 3, "d4": 0, "e4": 1, "d5": 2, "e5": 3}
    start = game.state_from_dict(position(quiet, cycle=8, cages=[[1, 3], [0], [3], [2]],
                                          altar_filled=[True, False, False, False]))  # fmt: skip
    reached = 0
    for streams in seeds(30, 27):
        recorded = kernel_of(game).recorded_game(start, streams, 12)
        state = start.clone()
        for action in recorded.actions:
            state.apply_action(action)
            if (state.cycle, state.slot, state.actor, state.extra_turn) == (8, 1, 1, False):  # the Epoch opens
                reached += 1
                assert state.altar_filled == [False] * 4
        assert recorded.played.final[0].decode() == final_text(state)
    assert reached > 0
