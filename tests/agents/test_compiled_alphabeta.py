"""The compiled alpha-beta (``compiled_alphabeta.py``) is the Python search, node for node.

From the same seed and budget, ``AlphaBetaAgent`` with kernels on (one compiled call an
iteration) and off (``_Search`` in Python) must give the same ``analyse()`` rows, the same
choice and the same ``stats`` (depth reached and positions expanded), with a depth, with a node
budget that interrupts an iteration, and in endgames where every line ends.
"""

from __future__ import annotations

import random

import pytest

from tabletop_lab import load_game
from tabletop_lab.agents import AlphaBetaAgent, alphabeta
from tabletop_lab.agents.alphabeta import _CompiledSearch
from tabletop_lab.compiled_alphabeta import EPS, HEURISTIC_LIMIT, PLY_COST
from tabletop_lab.kernels import use_kernels

CONFIGS = [{}, {"seeds_per_hole": 6, "skip_origin": True}, {"first_player": 1}, {"pie_rule": True}]
BUDGETS = [{"depth": 1}, {"depth": 5}, {"depth": 9}, {"nodes": 1}, {"nodes": 700}, {"nodes": 5000}]


def position(options, n_actions, seed):
    """A position after ``n_actions`` random actions, or None when the game ended first."""
    state = load_game("cross_endodoi", **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(n_actions):
        if state.is_terminal():
            return None
        state.apply_action(rng.choice(state.legal_actions()))
    return None if state.is_terminal() else state


def searched(state, seed, budget, compiled):
    """analyse() rows and stats, then choose_action and its stats, kernels on or off."""
    previous = use_kernels(compiled)
    try:
        analyst, chooser = AlphaBetaAgent(seed=seed, **budget), AlphaBetaAgent(seed=seed, **budget)
        rows = analyst.analyse(state)
        choice = chooser.choose_action(state)
        return rows, analyst.stats, choice, chooser.stats, chooser.rng.getstate()
    finally:
        use_kernels(previous)


@pytest.mark.parametrize("options", CONFIGS)
@pytest.mark.parametrize("budget", BUDGETS, ids=lambda b: f"{next(iter(b))}={next(iter(b.values()))}")
def test_the_compiled_search_is_the_python_search(options, budget):
    compared = 0
    for seed, n_actions in enumerate((0, 6, 14, 22, 30, 38, 1)):  # from the opening to endgames, then the reply
        state = position(options, n_actions, seed)
        if state is None:
            continue
        assert _CompiledSearch.for_state(state, None, None) is not None  # the premise: it runs compiled
        before = state.key()
        assert searched(state, seed, budget, True) == searched(state, seed, budget, False)
        assert state.key() == before  # the search leaves the position alone
        compared += 1
    assert compared >= 3


def test_a_node_budget_interrupts_the_compiled_search_as_the_python_one():
    state = position({}, 4, 0)
    rows, stats, *_ = searched(state, 0, {"nodes": 3000}, True)
    assert 3000 <= stats["nodes"] < 3000 + 10 and stats["depth"] >= 2  # stopped inside an iteration
    deeper = searched(state, 0, {"depth": stats["depth"] + 1}, True)[1]
    assert deeper["nodes"] > stats["nodes"]  # the premise: the next iteration needed more


def test_the_constants_are_the_python_search_s():
    assert (PLY_COST, HEURISTIC_LIMIT, EPS) == (alphabeta.PLY_COST, alphabeta.HEURISTIC_LIMIT, alphabeta._EPS)


def test_without_kernels_there_is_no_compiled_search():
    state = position({}, 0, 0)
    previous = use_kernels(False)
    try:
        assert _CompiledSearch.for_state(state, None, None) is None
    finally:
        use_kernels(previous)


def test_an_action_the_engine_declines_is_left_out_by_both_searches():
    """A sowing past ``max_laps`` raises LapLimitError in the engine; both searches leave such
    an action out, alike, and never die of it."""
    from tabletop_lab.games.cross_endodoi import LapLimitError

    game = load_game("cross_endodoi", max_laps=2)
    declined = 0
    for seed in range(12):
        state = game.state_from_dict(position({}, seed, seed).to_dict())
        refused = []
        for action in state.legal_actions():
            try:
                state.child(action)
            except LapLimitError:
                refused.append(action)
        for budget in ({"depth": 4}, {"nodes": 400}):
            compiled = searched(state, seed, budget, True)
            assert compiled == searched(state, seed, budget, False)
            assert not {row["action"] for row in compiled[0]} & set(refused)
            playable = [a for a in state.legal_actions() if a not in refused]
            assert compiled[2] in (playable or state.legal_actions()[:1])  # none: the engine raises on it
        declined += bool(refused)
    assert declined  # the premise: some roots have such actions
