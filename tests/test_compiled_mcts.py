"""The compiled MCTS search (``compiled_search.py``) is the Python search, node for node.

From the same seed, ``MCTSAgent`` with kernels on (compiled tree) and off (Python tree, Python
rollouts) must give the same ``analyse()`` rows, ``choose_action``, ``stats`` and leave its
``rng`` in the same state; the MT19937 port must shuffle as ``random.shuffle``; and each game's
tree operations must agree with the engine on legal actions, players, transitions and keys.
"""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest

from tabletop_lab import load_game
from tabletop_lab.agents import MCTSAgent
from tabletop_lab.compiled_search import mt_from_random, mt_into_random, mt_shuffle, search_root
from tabletop_lab.games.cross_endodoi import LapLimitError
from tabletop_lab.kernels import playout_kernel, use_kernels

#: (game, options, random actions played before searching, Sygo: stop mid-turn)
POSITIONS = [
    ("cross_endodoi", {}, 0, False),
    ("cross_endodoi", {"seeds_per_hole": 6, "skip_origin": True}, 7, False),
    ("cross_endodoi", {"first_player": 1}, 25, False),
    ("cross_endodoi", {"pie_rule": True}, 0, False),  # the swap a move ahead
    ("cross_endodoi", {"pie_rule": True, "first_player": 1}, 1, False),  # the swap offered at the root
    ("sygo", {"size": 5}, 0, False),
    ("sygo", {"size": 5}, 9, True),
    ("sygo", {"size": 4, "balancing": False}, 6, True),
    ("sygo", {"size": 6, "balancing": False}, 14, False),
    ("sygo", {"size": 3}, 4, True),
    ("sygo", {"size": 5, "komi": 2.5}, 9, True),
    ("sygo", {"size": 4, "komi": 16}, 3, False),
    ("sinoda", {}, 20, False),
    ("sinoda", {"players": 3}, 40, False),
    ("sinoda", {"players": 4, "teams": "pairs"}, 60, False),
    ("sinoda", {"players": 6, "teams": "triples"}, 90, False),
    ("capitals", {}, 10, False),
    ("capitals", {"capture_removal": "immediate", "pass_turn_cost": "removed"}, 40, True),
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


#: 300 simulations of Sinoda on the large board or of Capitals take the Python search some 5 s: 50 at most there
SEARCHES = [
    (*where, iterations)
    for where in POSITIONS
    for iterations in (1, 2, 50, 300)
    if iterations <= 50 or where[0] not in ("sinoda", "capitals") or (where[0] == "sinoda" and not where[1])
]


@pytest.mark.parametrize("name, options, n_actions, mid_turn, iterations", SEARCHES)
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
        assert state.key() == before.key()  # the search leaves the position alone
        compared += 1
    assert compared


@pytest.mark.parametrize("mid_turn", [False, True])
def test_the_compiled_search_is_the_python_search_on_sygo_9x9(mid_turn):
    """The benchmark's board (the Python side takes about a second for 50 simulations)."""
    state = position("sygo", {"size": 9}, 20, mid_turn, 7)
    assert searched(state, 7, 50, False, True) == searched(state, 7, 50, False, False)


#: (game, options, random actions before searching, horizon, rollout): the evaluation cut-offs
CUT_OFFS = [
    ("cross_endodoi", {}, 5, None, 3),
    ("sygo", {"size": 5}, 9, 6, None),
    ("sygo", {"size": 5, "komi": 3.5}, 9, None, 4),
    ("sinoda", {}, 20, None, 2),
    ("sinoda", {"players": 4, "teams": "pairs"}, 60, 3, 0),
    ("capitals", {}, 10, 12, 4),
]


@pytest.mark.parametrize("name, options, n_actions, horizon, rollout", CUT_OFFS)
def test_the_compiled_search_cuts_off_as_the_python_search(name, options, n_actions, horizon, rollout):
    """``horizon`` and ``rollout`` stop simulations at the same points in both searches."""
    state = position(name, options, n_actions, False, 4)
    results = []
    for compiled in (True, False):
        previous = use_kernels(compiled)
        try:
            agent = MCTSAgent(seed=4, iterations=60, horizon=horizon, rollout=rollout)
            results.append((agent.analyse(state), agent.stats, agent.rng.getstate()))
        finally:
            use_kernels(previous)
    assert results[0] == results[1]
    plain = MCTSAgent(seed=4, iterations=60).analyse(state)
    assert results[0][0] != plain  # the premise: the cut-off changed what the search saw


def test_the_compiled_search_reads_the_komi():
    """Decision 15 reaches the compiled tree: the same search with a komi sees other values."""
    state = position("sygo", {"size": 5}, 9, False, 4)
    with_komi = load_game("sygo", size=5, komi=3.5).state_from_notation(state.notation())
    assert searched(state, 4, 60, False, True)[0] != searched(with_komi, 4, 60, False, True)[0]


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


#: (game, options) of every rules config family with tree operations, for the operation tests
CONFIGS = [
    ("cross_endodoi", {}),
    ("cross_endodoi", {"seeds_per_hole": 6, "skip_origin": True}),
    ("cross_endodoi", {"pie_rule": True}),
    ("sygo", {"size": 5}),
    ("sygo", {"size": 4, "balancing": False}),
    ("sygo", {"size": 7}),
    ("sinoda", {}),
    ("sinoda", {"players": 3}),
    ("sinoda", {"players": 4, "teams": "pairs", "four_player_start": "side"}),
    ("sinoda", {"players": 6, "teams": "triples", "first_player": 2}),
    ("capitals", {}),
    (
        "capitals",
        {
            "capture_removal": "immediate",
            "transfers_per_turn": 2,
            "prisoner_placement": "fixed",
            "pass_turn_cost": "removed",
            "max_cycles": 3,
        },
    ),
    ("capitals", {"hunger_first": "alternate", "pass_turn_chain": True}),
]


def states_in_play(name, options, n, seed):
    """``n`` states met in random games (mid-turn ones included), the final ones too."""
    game = load_game(name, **options)
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < n:
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        found.append(state)
    return found


@pytest.mark.parametrize("name, options", CONFIGS)
def test_tree_operations_are_the_engines(name, options):
    """Random games played on the tree's arrays (``_tree_apply``) beside the engine: at every
    state the engine's player and legal actions, the key of the array the engine's state gives
    (``tree_root``), the kernel's rollout (values and stream) for budgets that end, cut and
    evaluate at once; and keys equal exactly when the states' ``key()`` are."""
    game = load_game(name, **options)
    kernel = playout_kernel(game)
    module = importlib.import_module(
        kernel.tree_root(game.new_initial_state()).entry.__module__
    )  # its tree operations'
    rng = random.Random(len(name) + len(options))
    by_key, by_array = {}, {}
    states = 0
    while states < 120:
        state = game.new_initial_state()
        tree = kernel.tree_root(state)
        array, rules, width = tree.state, tree.rules, tree.key_width
        out = np.empty(tree.max_legal, np.int64)
        while True:
            states += 1
            key = tuple(array[:width].tolist())
            assert key == tuple(kernel.tree_root(state).state[:width].tolist())
            by_key.setdefault(state.key(), set()).add(key)
            by_array.setdefault(key, set()).add(state.key())
            assert module._tree_player(array, rules) == state.current_player()
            legal = state.legal_actions()
            assert out[: module._tree_legal(array, rules, out)].tolist() == legal
            before = array.copy()
            for budget in (0, 3, game.info.max_actions):
                stream = rng.getrandbits(64)
                values = np.zeros(game.num_players)
                after_stream, status = module._tree_rollout(array, budget, np.uint64(stream), rules, values)
                expected, expected_stream = kernel.rollout(state, budget, stream)
                assert (values.tolist(), int(after_stream), status) == (expected, expected_stream, 0)
            assert array.tolist() == before.tolist()  # only apply changes the array
            if not legal or states >= 120:
                break
            action = rng.choice(legal)
            assert module._tree_apply(array, action, rules) == 0
            state.apply_action(action)
    assert all(len(keys) == 1 for keys in by_key.values())  # equal key(), equal array keys
    assert all(len(keys) == 1 for keys in by_array.values())  # and the converse


def sygo_key(array, words):
    """``SygoState.key()`` read back from the first ``5 * words + 4`` entries of a tree array."""

    def mask(part):
        return sum(int(w) << (32 * i) for i, w in enumerate(part))

    at = 2 * words
    key = (mask(array[:words]), mask(array[words:at]), int(array[at]), bool(array[at + 1]), int(array[at + 2]))
    if not array[at + 3]:
        assert not array[at + 4 : 5 * words + 4].any()
        return key
    return key + tuple(mask(array[at + 4 + k * words : at + 4 + (k + 1) * words]) for k in range(3))


@pytest.mark.parametrize("options", [{"size": 5}, {"size": 6, "balancing": False}])
def test_sygo_tree_keys_read_back_as_the_engines_keys(options):
    """The proof of key equality, field by field: the key part of the array is ``key()``."""
    states = states_in_play("sygo", options, 150, seed=options["size"])
    assert any(state.mid_turn() for state in states)
    words = (states[0].geom.points + 31) >> 5
    for state in states:
        assert sygo_key(playout_kernel(state.game).tree_root(state).state, words) == state.key()


def test_sygo_growth_all_is_searched_in_python():
    """The engine keeps growth='all' witnesses per turn, shared by every clone: the compiled tree
    declines those rules, and the agent searches them in Python."""
    state = load_game("sygo", size=4, growth="all").new_initial_state()
    assert playout_kernel(state.game).tree_root(state) is None
    assert searched(state, 0, 30, False, True) == searched(state, 0, 30, False, False)


def test_an_action_the_engine_declines_is_dropped_by_both_searches():
    """A Cross-endodoi sowing past ``max_laps`` raises LapLimitError in the engine (a guard, and a
    sowing that never ends, met only deep in a search, reaches it). Both searches leave such an
    action out of the tree and end a rollout there, evaluated, node for node alike; a search
    never dies of it."""
    game = load_game("cross_endodoi", max_laps=2)
    declined = 0
    for seed in range(12):
        state = game.state_from_dict(position("cross_endodoi", {}, seed, False, seed).to_dict())
        refused = [a for a in state.legal_actions() if _declines(state, a)]
        compiled = searched(state, seed, 200, False, True)
        assert compiled == searched(state, seed, 200, False, False)
        assert not {row["action"] for row in compiled[0]} & set(refused)
        playable = [a for a in state.legal_actions() if a not in refused]
        assert compiled[3] in (playable or state.legal_actions()[:1])  # none: the engine raises on it
        declined += bool(refused)
    assert declined  # the premise: some roots have such actions


def _declines(state, action):
    try:
        state.child(action)
    except LapLimitError:
        return True
    return False
