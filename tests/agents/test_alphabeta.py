"""AlphaBetaAgent: depth-limited negamax for two-player zero-sum perfect-information games."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.toy_games  # noqa: F401  (registers the test games)
from tabletop_lab import load_game
from tabletop_lab.agents import AlphaBetaAgent, GreedyAgent
from tabletop_lab.agents.alphabeta import HEURISTIC_LIMIT, PLY_COST

from .play import score_against_random, wins_within

CROSS = load_game("cross_endodoi")

#: Positions where the mover forces a win within 3 actions with exactly one move, not within 1.
FORCED_WINS = [("1,2,1,1,7,0/0,0,0,1,0,0 14-9 0", 4), ("1,0,0,1,0,0/2,1,0,1,0,3 5-22 1", 11)]


@pytest.mark.parametrize(("notation", "winning"), FORCED_WINS)
def test_finds_a_forced_win_that_one_ply_misses(notation, winning):
    state = CROSS.state_from_notation(notation)
    me = state.current_player()
    assert wins_within(state, me, 3) and not wins_within(state, me, 1)  # the premise, by brute force
    assert [a for a in state.legal_actions() if wins_within(state.child(a), me, 2)] == [winning]
    assert GreedyAgent(seed=0).choose_action(state) != winning
    assert {AlphaBetaAgent(seed=s, depth=3).choose_action(state) for s in range(5)} == {winning}
    rows = AlphaBetaAgent(depth=3).analyse(state)
    assert rows[0] == {"action": winning, "move": str(winning), "value": pytest.approx(1 - 3 * PLY_COST)}
    assert all(row["value"] < HEURISTIC_LIMIT for row in rows[1:])  # no other action is a proven win


#: Positions where the mover wins at once with ``now`` and also forces a win in 3 actions with ``later``.
QUICK_AND_SLOW_WINS = [
    ("0,0,0,0,1,0/0,0,1,1,0,1 12-20 1", [8], [9, 11]),
    ("0,1,1,1,0,0/1,0,0,0,0,0 21-11 0", [2], [1, 3]),
]


@pytest.mark.parametrize(("notation", "now", "later"), QUICK_AND_SLOW_WINS)
def test_prefers_the_quickest_win(notation, now, later):
    state = CROSS.state_from_notation(notation)
    me = state.current_player()
    assert [a for a in state.legal_actions() if wins_within(state.child(a), me, 0)] == now  # the premise
    assert all(wins_within(state.child(a), me, 2) for a in later)
    for depth in (3, 5):
        assert {AlphaBetaAgent(seed=s, depth=depth).choose_action(state) for s in range(8)} == set(now)
    values = {row["action"]: row["value"] for row in AlphaBetaAgent(depth=3).analyse(state)}
    assert all(values[a] == pytest.approx(1 - PLY_COST) for a in now)
    assert all(values[a] == pytest.approx(1 - 3 * PLY_COST) for a in later)


#: Positions where every action loses by force; ``soon`` ones at the opponent's next action, ``late`` ones later.
LOSSES = [("0,0,0,0,0,0/1,1,1,2,0,0 20-11 1", [7, 9], [6, 8]), ("0,0,0,0,1,0/0,0,1,1,1,0 24-8 1", [8], [9, 10])]


@pytest.mark.parametrize(("notation", "soon", "late"), LOSSES)
def test_prefers_the_slowest_loss(notation, soon, late):
    state = CROSS.state_from_notation(notation)
    opponent = 1 - state.current_player()
    assert sorted(soon + late) == state.legal_actions()  # the premise, by brute force:
    assert all(wins_within(state.child(a), opponent, 1) for a in soon)
    assert all(wins_within(state.child(a), opponent, 3) and not wins_within(state.child(a), opponent, 1) for a in late)
    assert {AlphaBetaAgent(seed=s, depth=4).choose_action(state) for s in range(8)} <= set(late)
    values = {row["action"]: row["value"] for row in AlphaBetaAgent(depth=4).analyse(state)}
    assert max(values[a] for a in soon) < min(values[a] for a in late) < -HEURISTIC_LIMIT


def scaled_minimax(state, player, depth, ply=1):
    """Brute-force depth-limited minimax by ``current_player()``, scaled as the agent scales."""
    if state.is_terminal():
        return state.returns()[player] * (1 - PLY_COST * ply)
    if depth == 0:
        return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, state.evaluate()[player]))
    options = [scaled_minimax(state.child(a), player, depth - 1, ply + 1) for a in state.legal_actions()]
    return max(options) if state.current_player() == player else min(options)


def test_values_match_brute_force_minimax():
    """analyse() gives the exact depth-limited minimax value of every action, pruning, table or not:
    results at the end shrink by PLY_COST per action, the evaluation is clamped to HEURISTIC_LIMIT."""

    for notation, _ in FORCED_WINS + [("0,3,2,6,6,1/1,1,6,6,3,1 0-0 0", None)]:
        state = CROSS.state_from_notation(notation)
        me = state.current_player()
        for depth in (1, 2, 4):
            rows = AlphaBetaAgent(depth=depth).analyse(state)
            expected = {a: scaled_minimax(state.child(a), me, depth - 1) for a in state.legal_actions()}
            assert {row["action"]: row["value"] for row in rows} == pytest.approx(expected)


@settings(max_examples=40, deadline=None)
@given(
    pile=st.integers(1, 9),
    max_take=st.sampled_from([2, 3]),
    actions_per_turn=st.sampled_from([1, 2]),
    depth=st.integers(1, 6),
    taken_first=st.booleans(),
)
def test_values_match_brute_force_in_turns_of_several_actions(pile, max_take, actions_per_turn, depth, taken_first):
    """The table merges transpositions yet every value stays exact, mid-turn or not."""
    state = load_game(
        "test_nim", pile=pile + 1, max_take=max_take, actions_per_turn=actions_per_turn
    ).new_initial_state()
    if taken_first:
        state.apply_action(1)  # mid-turn when a turn has two actions
    me = state.current_player()
    rows = AlphaBetaAgent(depth=depth).analyse(state)
    expected = {a: scaled_minimax(state.child(a), me, depth - 1) for a in state.legal_actions()}
    assert {row["action"]: row["value"] for row in rows} == pytest.approx(expected)


def test_nim_solved_at_full_depth():
    """Two-player Nim taking 1-3: the mover wins by leaving a multiple of 4."""
    for pile in (5, 6, 7, 9, 10, 11):
        state = load_game("test_nim", pile=pile, max_take=3).new_initial_state()
        assert AlphaBetaAgent(seed=0, depth=pile).choose_action(state) == pile % 4


def test_follows_the_player_through_a_two_action_turn():
    """Nim with two takes of 1-2 per turn: from 7 only 1 then 1 wins (leaving 5); depth counts
    actions, so seeing the win takes 6 of them (this turn's 2, the reply's 2, the next turn's 2)."""
    game = load_game("test_nim", pile=7, actions_per_turn=2)
    state = game.new_initial_state()
    values = {row["move"]: row["value"] for row in AlphaBetaAgent(depth=6).analyse(state)}
    assert values["1"] > HEURISTIC_LIMIT and values["2"] < -HEURISTIC_LIMIT
    for seed in range(3):
        agent = AlphaBetaAgent(seed=seed, depth=6)
        turn = state.clone()
        turn.apply_action(agent.choose_action(turn))
        assert turn.mid_turn() and turn.current_player() == 0
        turn.apply_action(agent.choose_action(turn))
        assert turn.pile == 5 and turn.current_player() == 1


def test_takes_a_forced_draw_rather_than_a_forced_loss():
    state = load_game("test_draw_trap").new_initial_state()
    assert AlphaBetaAgent(seed=0, depth=2).analyse(state) == [
        {"action": 0, "move": "draw", "value": 0.0},
        {"action": 1, "move": "fight", "value": pytest.approx(-(1 - 2 * PLY_COST))},
    ]


def test_ties_are_broken_by_the_seed():
    """At depth 1 from the start several moves tie; seeds spread over exactly those."""
    state = CROSS.new_initial_state()
    rows = AlphaBetaAgent(depth=1).analyse(state)
    tied = {row["action"] for row in rows if row["value"] == rows[0]["value"]}
    assert len(tied) >= 3  # the premise
    assert {AlphaBetaAgent(seed=s, depth=1).choose_action(state) for s in range(30)} == tied


def test_a_node_budget_plays_the_deepest_completed_search_or_a_proven_win():
    """Whatever the budget, the choice is the one of the deepest completed iteration, or an
    action the interrupted iteration proved to win (checked by brute force)."""
    for notation in [FORCED_WINS[0][0], FORCED_WINS[1][0], "0,3,2,6,6,1/1,1,6,6,3,1 0-0 0"]:
        state = CROSS.state_from_notation(notation)
        me = state.current_player()
        depths = []
        for nodes in (1, 3, 10, 30, 100, 300, 1000):
            agent = AlphaBetaAgent(seed=nodes, nodes=nodes)
            choice = agent.choose_action(state)
            depth = agent.stats["depth"]
            depths.append(depth)
            completed = AlphaBetaAgent(seed=nodes, depth=depth).choose_action(state)
            assert choice == completed or wins_within(state.child(choice), me, depth + 1)
        assert depths == sorted(depths) and depths[-1] > depths[0]  # a bigger budget searches deeper


def test_a_win_proven_by_an_interrupted_iteration_is_played():
    """Nim, two takes of 1-3 per turn, pile 5: 2+3 or 3+2 wins this turn. Depth 1 sees no win
    and its choice varies with the seed; 3 nodes interrupt depth 2 after it proved a win."""
    state = load_game("test_nim", pile=5, max_take=3, actions_per_turn=2).new_initial_state()
    wins = {a for a in state.legal_actions() if wins_within(state.child(a), 0, 1)}
    assert wins == {2, 3} and {AlphaBetaAgent(seed=s, depth=1).choose_action(state) for s in range(10)} > wins
    for seed in range(10):
        agent = AlphaBetaAgent(seed=seed, nodes=3)
        assert agent.choose_action(state) in wins and agent.stats["depth"] == 1


def test_a_big_node_budget_finds_the_forced_win():
    notation, winning = FORCED_WINS[0]
    agent = AlphaBetaAgent(seed=0, nodes=100_000)
    assert agent.choose_action(CROSS.state_from_notation(notation)) == winning
    assert agent.stats["depth"] == 3  # it stopped once the win was proven


@pytest.mark.parametrize("seconds", [1e-9, 0.01, 0.1])
def test_a_time_budget_is_never_worse_than_a_completed_search(seconds):
    """What holds on any machine: the choice is legal, is that of a completed depth (>= 1) or a
    proven win, and an immediate win is always taken."""
    for notation, winning in FORCED_WINS:
        state = CROSS.state_from_notation(notation)
        agent = AlphaBetaAgent(seed=1, seconds=seconds)
        choice = agent.choose_action(state)
        assert agent.stats["depth"] >= 1
        assert choice in (winning, AlphaBetaAgent(seed=1, depth=agent.stats["depth"]).choose_action(state))
    for notation, now, _ in QUICK_AND_SLOW_WINS:
        assert AlphaBetaAgent(seed=1, seconds=seconds).choose_action(CROSS.state_from_notation(notation)) in now


def test_transpositions_in_a_turn_are_searched_once():
    """Nim with two takes of 1-3 per turn: the orders (a, b) and (b, a) reach one position. With the
    table, the search expands far fewer positions than the game tree holds, and at most a few times
    the distinct (position, depth) pairs it can meet."""
    state = load_game("test_nim", pile=12, max_take=3, actions_per_turn=2).new_initial_state()

    def tree_and_pairs(state, depth, pairs):
        """Non-terminal nodes of the depth-limited tree below ``state``; collects their (key, depth)."""
        if state.is_terminal() or depth == 0:
            return 0
        pairs.add((state.key(), depth))
        return 1 + sum(tree_and_pairs(state.child(a), depth - 1, pairs) for a in state.legal_actions())

    agent = AlphaBetaAgent(depth=8)
    agent.analyse(state)
    tree = distinct = 0
    for depth in range(1, agent.stats["depth"] + 1):  # every iteration of the deepening
        pairs = set()
        tree += sum(tree_and_pairs(state.child(a), depth - 1, pairs) for a in state.legal_actions())
        distinct += len(pairs)
    assert tree > 10 * distinct  # the premise: merging pays
    assert agent.stats["nodes"] <= 2 * distinct


def test_beats_random_at_cross_endodoi():
    assert score_against_random(CROSS, AlphaBetaAgent(depth=2), n_games=60, seed=5) >= 0.8


def test_refuses_games_of_more_than_two_players():
    game = load_game("test_nim", players=3)
    assert AlphaBetaAgent.unsupported_reason(game) == (
        "it searches two-player zero-sum games; this one has 3 players (use mcts)"
    )
    with pytest.raises(ValueError, match="AlphaBetaAgent cannot play test_nim: it searches two-player zero-sum"):
        AlphaBetaAgent().choose_action(game.new_initial_state())


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"depth": 0}, "depth must be an integer >= 1"),
        ({"depth": 2.0}, "depth must be an integer"),
        ({"seconds": -1}, "seconds must be a number > 0"),
        ({"nodes": 0}, "nodes must be an integer >= 1"),
    ],
)
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message):
        AlphaBetaAgent(**settings)
