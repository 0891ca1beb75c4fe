"""The compiled MCTS search (``agents/compiled_mcts.py``) is the Python search, node for node.

From the same seed, ``MCTSAgent`` with kernels on (compiled tree) and off (Python tree, Python
rollouts) must give the same ``analyse()`` rows, ``choose_action``, ``stats`` and leave its
``rng`` in the same state; the MT19937 port must shuffle as ``random.shuffle``; and each game's
tree operations must agree with the engine on legal actions, players, transitions and keys.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletop_lab import LapLimitError, load_game
from tabletop_lab.agents import MCTSAgent
from tabletop_lab.agents.compiled_mcts import mt_from_random, mt_into_random, mt_shuffle, search_root
from tabletop_lab.kernels import playout_kernel, use_kernels

#: (game, options, random actions played before searching, Sygo: stop mid-turn)
POSITIONS = [
    ("cross_endodoi", {}, 0, False),
    ("cross_endodoi", {"seeds_per_hole": 6, "skip_origin": True}, 7, False),
    ("cross_endodoi", {"first_player": 1}, 25, False),
    ("sygo", {"size": 5}, 0, False),
    ("sygo", {"size": 5}, 9, True),
    ("sygo", {"size": 4, "balancing": False}, 6, True),
    ("sygo", {"size": 6, "balancing": False}, 14, False),
    ("sygo", {"size": 3}, 4, True),
]


def position(name, options, n_actions, mid_turn, seed):
    """A position from random play: ``n_actions`` actions, then (``mid_turn``) on until a turn is
    in progress; ``None`` when the game ended first."""
    state = load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(n_actions):
        if state.is_terminal():
            return None
        state.apply_action(rng.choice(state.legal_actions()))
    while mid_turn and not state.mid_turn():
        if state.is_terminal():
            return None
        state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() else state


def searched(state, seed, iterations, paranoid, compiled):
    """analyse() rows, choose_action, stats and rng state of a fresh agent, kernels on or off."""
    previous = use_kernels(compiled)
    try:
        agent = MCTSAgent(seed=seed, iterations=iterations, paranoid=paranoid)
        rows = agent.analyse(state)
        stats, rng_state = agent.stats, agent.rng.getstate()
        chooser = MCTSAgent(seed=seed, iterations=iterations, paranoid=paranoid)
        choice = chooser.choose_action(state)
        return rows, stats, rng_state, choice, chooser.rng.getstate()
    finally:
        use_kernels(previous)


@pytest.mark.parametrize("name, options, n_actions, mid_turn", POSITIONS)
@pytest.mark.parametrize("iterations", [1, 2, 50, 300])
def test_the_compiled_search_is_the_python_search(name, options, n_actions, mid_turn, iterations):
    seeds = (0, 1, 2) if iterations < 300 else (3,)
    compared = 0
    for seed in seeds:
        state = position(name, options, n_actions, mid_turn, seed)
        if state is None:
            continue
        assert playout_kernel(state.game).tree_root(state) is not None  # the compiled tree searches it
        before = state.clone()
        for paranoid in (False, True):
            compiled = searched(state, seed, iterations, paranoid, True)
            assert compiled == searched(state, seed, iterations, paranoid, False)
            assert compiled[1] == {"simulations": iterations, "nodes": compiled[1]["nodes"]}
        assert state._key() == before._key()  # the search leaves the position alone
        compared += 1
    assert compared


@pytest.mark.parametrize("mid_turn", [False, True])
def test_the_compiled_search_is_the_python_search_on_sygo_9x9(mid_turn):
    """The benchmark's board (the Python side takes about a second for 50 simulations)."""
    state = position("sygo", {"size": 9}, 20, mid_turn, 7)
    assert searched(state, 7, 50, False, True) == searched(state, 7, 50, False, False)


def test_search_root_answers_as_the_agent_and_moves_the_rng_as_the_python_search():
    state = position("sygo", {"size": 5}, 9, True, 0)
    rng = random.Random(5)
    found = search_root(state, rng, 40, 2.0, False)
    agent = MCTSAgent(seed=5, iterations=40, c=2.0)
    with_kernels_off = use_kernels(False)
    try:
        rows = agent.analyse(state)
    finally:
        use_kernels(with_kernels_off)
    assert rng.getstate() == agent.rng.getstate()
    assert sum(visits for _, visits, _ in found.edges) == 40
    tried = {action: (visits, total / visits) for action, visits, total in found.edges}
    assert {row["action"]: (row["visits"], row["value"]) for row in rows if row["visits"]} == tried
    assert [row["action"] for row in rows if not row["visits"]] == found.untried
    assert found.nodes == agent.stats["nodes"]


@pytest.mark.parametrize("seed", range(4))
def test_mt19937_shuffles_as_random_shuffle(seed):
    rng, reference = random.Random(seed), random.Random(seed)
    reference.getrandbits(7)  # a state in the middle of the 624 words
    rng.setstate(reference.getstate())
    mt = mt_from_random(rng)
    for n in [*range(0, 70), 100, 255, 256, 257, 1000, 5000, 2**16 + 3]:
        x = np.arange(n, dtype=np.int64)
        mt_shuffle(mt, x, n)
        expected = list(range(n))
        reference.shuffle(expected)
        assert x.tolist() == expected
    mt_into_random(rng, mt)
    assert rng.getstate() == reference.getstate()
    assert rng.random() == reference.random()


def sygo_positions(options, n, seed):
    """Every state of random Sygo games (mid-turn ones included), ``n`` of them."""
    game = load_game("sygo", **options)
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < n:
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        found.append(state)
    return found


def sygo_key(array, words, n_points):
    """``SygoState._key()`` read back from the first ``5 * words + 4`` entries of a tree array."""

    def mask(part):
        return sum(int(w) << (32 * i) for i, w in enumerate(part))

    at = 2 * words
    key = (mask(array[:words]), mask(array[words:at]), int(array[at]), bool(array[at + 1]), int(array[at + 2]))
    if not array[at + 3]:
        assert not array[at + 4 : 5 * words + 4].any()
        return key
    return key + tuple(mask(array[at + 4 + k * words : at + 4 + (k + 1) * words]) for k in range(3))


@pytest.mark.parametrize("options", [{"size": 5}, {"size": 4, "balancing": False}, {"size": 7}])
def test_sygo_tree_operations_are_the_engines(options):
    """The tree's key is ``_key()``; its legal actions, player and transitions are the engine's."""
    from tabletop_lab.games.sygo import kernel

    states = sygo_positions(options, 150, seed=len(options) + options["size"])
    tree = kernel.KERNEL.tree_root(states[0])
    rules, words, n_points = tree.rules, (states[0].geom.points + 31) >> 5, states[0].geom.points
    out = np.empty(tree.max_legal, np.int64)
    rng = random.Random(1)
    assert any(state.mid_turn() for state in states)
    for state in states:
        array = kernel.KERNEL.tree_state(state)
        assert sygo_key(array, words, n_points) == state._key()
        assert kernel._tree_player(array, rules) == state.current_player()
        legal = state.legal_actions()
        assert out[: kernel._tree_legal(array, rules, out)].tolist() == legal
        for action in rng.sample(legal, min(4, len(legal))):
            after = array.copy()
            assert kernel._tree_apply(after, action, rules) == 0
            child = state.clone()
            child.apply_action(action)
            assert after.tolist() == kernel.KERNEL.tree_state(child).tolist()


def test_sygo_growth_all_is_searched_in_python():
    """The engine keeps growth='all' witnesses per turn, shared by every clone: the compiled tree
    declines those rules, and the agent searches them in Python."""
    state = load_game("sygo", size=4, growth="all").new_initial_state()
    assert playout_kernel(state.game).tree_root(state) is None
    assert searched(state, 0, 30, False, True) == searched(state, 0, 30, False, False)


def test_an_engine_error_in_the_tree_is_the_engines_error():
    """A Cross-endodoi move beyond ``max_laps`` raises LapLimitError in the engine; the compiled
    tree hands such a search back to Python, which raises it, leaving the rng as it was."""
    game = load_game("cross_endodoi", max_laps=2)
    raised = 0
    for seed in range(40):
        state = position("cross_endodoi", {}, 0, False, seed)
        state = game.state_from_dict(state.to_dict())
        agent = MCTSAgent(seed=seed, iterations=100)
        try:
            agent.analyse(state)
        except LapLimitError:
            raised += 1
            compiled_rng = agent.rng.getstate()
            with_kernels_off = use_kernels(False)
            try:
                python = MCTSAgent(seed=seed, iterations=100)
                with pytest.raises(LapLimitError):
                    python.analyse(state)
            finally:
                use_kernels(with_kernels_off)
            assert compiled_rng == python.rng.getstate()
            break
    assert raised
