"""Sygo properties on random positions of 3x3 to 5x5 boards reached by random play.

* The whole moves reachable stone by stone are exactly ``legal_moves()`` (same canonical
  strings, same positions), every partial turn can be completed, and ``apply_move`` gives the
  stone-by-stone result.
* ``legal_moves()`` equals a brute-force reading of the rules that tries all k! orders of every
  growth set (``reference.reference_moves``), which checks the engine's greedy order test.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop_lab import load_game

from .reference import reference_moves

OPTIONS = st.fixed_dictionaries(
    {"size": st.integers(3, 5), "growth": st.sampled_from(["any", "all"]), "balancing": st.booleans()}
)


def random_position(options, seed, steps):
    """A position (between turns, not over) after up to ``steps`` random actions, or None."""
    rng = random.Random(seed)
    state = load_game("sygo", **options).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    while state.mid_turn():
        state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return None
    return state


def moves_stone_by_stone(state):
    """{canonical move: position JSON} of every turn completed from ``state`` action by action;
    asserts that every partial turn offers an action (no dead ends)."""
    found, seen, stack = {}, set(), [(state, [])]
    while stack:
        partial, path = stack.pop()
        actions = partial.legal_actions()
        assert actions, f"dead end after {partial.move_in_progress()} from {state.notation()}"
        for action in actions:
            after = partial.child(action)
            if after.mid_turn():
                if after.key() not in seen:
                    seen.add(after.key())
                    stack.append((after, path + [action]))
            else:
                move = state._move_string(path + [action])
                assert found.setdefault(move, after.to_json()) == after.to_json(), move
    return found


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(OPTIONS, st.integers(0, 10**6), st.integers(0, 40))
def test_stone_by_stone_turns_are_the_legal_moves(options, seed, steps):
    state = random_position(options, seed, steps)
    if state is None:
        return
    moves = state.legal_moves(limit=None)
    assert len(moves) == len(set(moves))
    by_stones = moves_stone_by_stone(state)
    assert set(by_stones) == set(moves)
    for move in moves:
        after = state.clone()
        after.apply_move(move)
        assert after.to_json() == by_stones[move]


@SETTINGS
@given(OPTIONS, st.integers(0, 10**6), st.integers(0, 40))
def test_legal_moves_match_the_brute_force_reading(options, seed, steps):
    state = random_position(options, seed, steps)
    if state is None or len(state.turn.groups) > 5:
        return  # k! orders of up to five stones keep the reference quick
    expected = reference_moves(state.notation(), growth=options["growth"], balancing=options["balancing"])
    assert set(state.legal_moves(limit=None)) == expected


@SETTINGS
@given(st.integers(3, 5), st.integers(0, 10**6), st.integers(0, 40))
def test_growth_order_and_moves_written_in_any_order(size, seed, steps):
    """A growth move given with its stones shuffled is the same move; its canonical string comes back."""
    state = random_position({"size": size}, seed, steps)
    if state is None:
        return
    rng = random.Random(seed)
    for move in state.legal_moves(limit=None):
        if not move.startswith("grow"):
            continue
        head, _, tail = move.partition(" + ")
        points = head.split()[1:]
        rng.shuffle(points)
        shuffled = "grow " + " ".join(points) + (f" + {tail}" if tail else "")
        one, two = state.clone(), state.clone()
        one.apply_move(shuffled)
        two.apply_move(move)
        assert one == two and one.move_history()[-1] == move


@settings(max_examples=3, deadline=None)
@given(
    st.sampled_from([{"size": 19}, {"size": 9, "growth": "all"}, {"size": 13, "balancing": False}]), st.integers(0, 99)
)
def test_random_games_on_bigger_boards_end_in_valid_positions(options, seed):
    """Every position of a random game reloads (so no group is ever left without liberties,
    Decision 12) and the game ends within the action cap."""
    game = load_game("sygo", **options)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        if not state.mid_turn():
            assert game.state_from_notation(state.notation()) == state
    assert len(state.history()) <= game.info.max_actions
    assert sum(state.result().scores) <= options["size"] ** 2
