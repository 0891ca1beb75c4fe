"""Jump by jump (spec 9a) against whole moves: the same moves, the same results, no dead ends.

Positions come from seeded random play under random option sets; from each position every
sequence of actions is followed to the end of its move.
"""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_lab import load_game

OPTION_VALUES = {
    "capture_removal": ["end_of_chain", "immediate"],
    "chain_end_on_start": [False, True],
    "ram_attack_after": ["any", "friendly"],
    "ram_jump": ["single", "none"],
    "pass_turn_cost": ["altar", "removed"],
    "pass_turn_chain": [False, True],
    "capital_entry": ["any_landing", "final_square"],
    "sacrifice_from_ram": [False, True],
    "hunger_first": ["white", "alternate"],
}


def moves_by_actions(state):
    """Each move reachable action by action: its canonical string -> the position it reaches."""
    reached = {}
    stack = [(state, [])]
    while stack:
        partial, path = stack.pop()
        actions = partial.legal_actions()
        assert actions or not partial.mid_turn(), "a partial move can always be completed"
        for action in actions:
            after = partial.child(action)
            if after.mid_turn():
                stack.append((after, path + [action]))
            else:
                text = state._move_string(path + [action])
                assert text not in reached, f"two action sequences give the move {text!r}"
                reached[text] = after.to_json()
    return reached


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}))
def test_whole_moves_are_the_moves_built_jump_by_jump(seed, options):
    rng = random.Random(seed)
    state = load_game("capitals", **options).new_initial_state()
    for _ in range(rng.randrange(10, 80)):
        if state.is_terminal():
            break
        if not state.mid_turn():
            reached = moves_by_actions(state)
            moves = state.legal_moves()
            assert moves == sorted(moves) == sorted(reached)
            for move in moves:
                after = state.clone()
                after.apply_move(move)
                assert after.to_json() == reached[move]
                assert after.history()[len(state.history()) :] == state.clone()._move_actions(move)
        state.apply_action(rng.choice(state.legal_actions()))
