"""The one-round CFR solver: a tree that follows the engine, falling exploitability, near 0 on a tiny round."""

import pytest

from tabletop_lab import load_game
from tabletop_lab.games.sinomilia.solver import (
    action_values,
    best_response_value,
    build_round,
    cfr_plus,
    expected_value,
    exploitability,
    node_after,
    reply_values,
    round_position,
    solve_round,
)

TINY = ([3, 5, 9], [2, 4, 9])


@pytest.fixture(scope="module")
def tiny_tree():
    return build_round(*TINY, chips=(15, 15), budget=(1, 1))


def test_round_position_is_a_valid_setting_phase():
    data = round_position([3, 5, 9], [0, 1, 2, 9], (10, 20), start_player=1)
    state = load_game("sinomilia").state_from_dict(data)
    assert state.current_player() == 1 and state.legal_moves() == ["set 0", "set 1", "set 2", "set 9"]
    assert data["round"] == 8 and data["last_round_winner"] == 1


@pytest.mark.parametrize(
    ("hands", "chips"), [(([3, 5], [2, 4, 9]), (15, 15)), (([3, 5, 8], [2, 4, 9]), (15, 15)), (TINY, (10, 10))]
)
def test_bad_rounds_are_refused(hands, chips):
    with pytest.raises(ValueError, match="hand|chips"):
        round_position(*hands, chips)


def test_tree_follows_the_engine_and_the_budget(tiny_tree):
    tree = tiny_tree
    assert tree.player[0] == 0 and [a for a, _ in tree.children[0]] == [3, 5, 9]
    # every leaf's payoff is the engine's chip change for the round; players never exceed the budget
    leaves = [n for n in range(tree.size) if tree.player[n] < 0]
    assert len(leaves) > 100
    assert all(-30 < tree.payoff[n] < 30 for n in leaves)
    # each player spends at most one chip (budget 1): after a chip or change, only pass (or set)
    stack = [(0, (0, 0))]
    while stack:
        node, spent = stack.pop()
        player = tree.player[node]
        for action, child in tree.children[node]:
            if 10 <= action < 22:
                assert spent[player] == 0
                stack.append((child, (spent[0] + (player == 0), spent[1] + (player == 1))))
            else:
                stack.append((child, spent))
    # information sets never show the opponent's cards: Orange holds 3 and 5, Green 2 and 4
    for key, player in zip(tree.infosets, tree.infoset_player):
        hidden = (
            ("set 2", "set 4", "change 2", "change 4") if player == 0 else ("set 3", "set 5", "change 3", "change 5")
        )
        assert not any(h in key for h in hidden)


def test_a_leaf_payoff_matches_playing_the_round():
    tree = build_round(*TINY, budget=(1, 1))
    node, actions = 0, []
    while tree.player[node] >= 0:
        action, node = tree.children[node][-1]  # always the last listed action (pass once both set)
        actions.append(action)
    state = tree.start.clone()
    for action in actions:
        state.apply_action(action)
    assert state.chips[0] - 15 == tree.payoff[node]
    assert state.last_round_report is not None


def test_exploitability_falls_with_iterations(tiny_tree):
    values = [exploitability(tiny_tree, cfr_plus(tiny_tree, n)) for n in (2, 20, 200)]
    assert values[0] > values[1] > values[2] >= -1e-9
    assert values[2] < 0.01


def test_uniform_strategy_is_exploitable_and_best_responses_bound_the_value(tiny_tree):
    uniform = [[1 / len(a)] * len(a) for a in tiny_tree.infoset_actions]
    assert exploitability(tiny_tree, uniform) > 0.5
    solved = cfr_plus(tiny_tree, 300)
    value = expected_value(tiny_tree, solved)
    assert best_response_value(tiny_tree, solved, 0) >= value - 1e-9
    assert best_response_value(tiny_tree, solved, 1) >= -value - 1e-9


def test_solve_round_reports_strategy_by_information_state():
    solution = solve_round(*TINY, budget=(1, 1), iterations=100)
    assert solution.exploitability < 0.05
    first = solution.strategy[solution.tree.infosets[0]]
    assert set(first) == {"set 3", "set 5", "set 9"} and abs(sum(first.values()) - 1) < 1e-9
    assert all(abs(sum(p.values()) - 1) < 1e-9 for p in solution.strategy.values())


def test_budget_and_size_limits():
    with pytest.raises(ValueError, match="budget"):
        build_round(*TINY, budget=(-1, 1))
    with pytest.raises(ValueError, match="max_nodes"):
        build_round(*TINY, budget=(2, 2), max_nodes=500)
    with pytest.raises(ValueError, match="iterations"):
        cfr_plus(build_round(*TINY, budget=(0, 0)), 0)


def reach_probability(tree, strategy):
    """The probability that play under ``strategy`` passes through each information set."""
    reach = {}
    stack = [(0, 1.0, 1.0)]
    while stack:
        node, r0, r1 = stack.pop()
        player = tree.player[node]
        if player < 0:
            continue
        i = tree.infoset[node]
        reach[i] = reach.get(i, 0.0) + r0 * r1
        for p, (_, child) in zip(strategy[i], tree.children[node]):
            stack.append((child, r0 * p, r1) if player == 0 else (child, r0, r1 * p))
    return reach


def test_equilibrium_actions_are_indifferent_and_best(tiny_tree):
    """Where play goes with some probability, every action played there has the best value
    (elsewhere a choice does not change the result)."""
    strategy = cfr_plus(tiny_tree, 400)
    reach = reach_probability(tiny_tree, strategy)
    checked = 0
    for i, probs in enumerate(strategy):
        if reach.get(i, 0.0) < 0.02:
            continue
        values = action_values(tiny_tree, strategy, i)
        best = max(values)
        assert all(v > best - 0.02 for v, p in zip(values, probs) if p > 0.05)
        checked += 1
    assert checked >= 5
    root = action_values(tiny_tree, strategy, 0)
    assert abs(sum(p * v for p, v in zip(strategy[0], root)) - expected_value(tiny_tree, strategy)) < 1e-9


def test_reply_values_bound_the_strategy_values_and_agree_where_it_plays(tiny_tree):
    """Playing a move and then the best reply never does worse than following the strategy, and
    at the solved strategy both agree on the moves it plays where play goes."""
    strategy = cfr_plus(tiny_tree, 400)
    reach = reach_probability(tiny_tree, strategy)
    checked = 0
    for i, probs in enumerate(strategy):
        if reach.get(i, 0.0) < 0.02:
            continue
        replies, values = reply_values(tiny_tree, strategy, i), action_values(tiny_tree, strategy, i)
        assert all(r >= v - 1e-9 for r, v in zip(replies, values))
        assert all(abs(r - v) < 0.02 for r, v, p in zip(replies, values, probs) if p > 0.05)
        checked += 1
    assert checked >= 5


def test_a_decision_of_a_solved_round():
    solution = solve_round(*TINY, budget=(1, 1), iterations=200)
    root = solution.decision([])
    assert (root.player, root.moves, root.spent, root.reach) == (0, ["set 3", "set 5", "set 9"], (0, 0), 1.0)
    assert root.horizon == max(len(path) for path in _paths(solution.tree))
    played = solution.decision(["set 3", "set 2", "chip sun"])
    assert played.player == 1 and played.spent == (1, 0) and "set 2" in played.view and "set 3" not in played.view
    assert played.moves == ["chip sun", "chip moon", "change 2", "change 4", "change 9", "pass"]
    # Green's view is the same whatever Orange set: the decision is Green's information set
    assert solution.decision(["set 5", "set 2", "chip sun"]).values == played.values
    # past Orange's budget of one chip the tree offers Orange only the pass
    assert solution.decision(["set 3", "set 2", "chip sun", "chip sun"]).moves == ["pass"]
    with pytest.raises(ValueError, match="not in the round's tree"):
        solution.decision(["set 3", "set 2", "chip sun", "chip sun", "chip sun"])
    with pytest.raises(ValueError, match="end the round"):
        solution.decision(["set 3", "set 2", "pass", "pass"])
    assert node_after(solution.tree, []) == 0


def _paths(tree):
    stack, paths = [(0, ())], []
    while stack:
        node, path = stack.pop()
        if tree.player[node] < 0:
            paths.append(path)
        stack.extend((child, (*path, action)) for action, child in tree.children[node])
    return paths
