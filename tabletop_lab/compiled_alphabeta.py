"""``AlphaBetaAgent``'s search compiled with numba: the same iterations, node for node.

The Python search (``agents/alphabeta.py``) expands some 5,000 positions a second in
Cross-endodoi: each costs a ``State`` per child, ``key()``, ``evaluate()`` and a dict lookup.
Compiled on a game kernel's array form of a state, one iteration of its deepening (``_Search.root``
at one depth) runs here as one call, with an explicit stack instead of recursion, on the same
operations the compiled MCTS uses (``compiled_search``): ``legal``, ``apply``, ``player`` and
``rollout``, whose budget-0 call is the evaluation (``evaluate()``, or ``returns()`` at the end).

**Exactly the Python search.** The same children in the same order (the previous best action
first, then by static value, a stable sort), the same transposition table keyed by (key, depth)
and cleared each iteration, the same best-action table across iterations, the same bounds, the
same node count and budget checks, and the same float expressions: ``choose_action``,
``analyse()`` and ``stats`` equal the Python search's (``tests/agents/test_compiled_alphabeta.py``).
The deepening loop itself stays in Python (``AlphaBetaAgent._root_values``), one call an iteration.

Each game's kernel defines a small ``@njit`` entry calling ``alphabeta_iteration`` with its
operations (inlined, as ``uct_search`` is: see ``compiled_search``) and names it in its
``TreeRoot.alphabeta``; a game without one searches in Python.
"""

from __future__ import annotations

import numba
import numpy as np

from .compiled_search import _lookup, _rehashed
from .jit import copy_into, grown, grown_rows, internal

__all__ = ["alphabeta_iteration", "new_best_table", "COMPLETED", "OUT_OF_BUDGET"]

_inline = numba.njit(cache=True, nogil=True, inline="always")

#: ``alphabeta_iteration``'s statuses: the iteration completed; the node budget ran out (the
#: Python search's ``_OutOfBudget``).
COMPLETED, OUT_OF_BUDGET = 0, 1
#: Transposition-table bounds, as ``alphabeta._EXACT, _LOWER, _UPPER``.
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: ``alphabeta.PLY_COST``, ``HEURISTIC_LIMIT`` and ``_EPS``, which its tests pin to these.
PLY_COST, HEURISTIC_LIMIT, EPS = 1e-6, 0.99, 1e-9


def new_best_table(key_width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """An empty best-action table (keys, actions, open-addressing slots, count): what one
    decision's iterations share, as ``_Search.best_action``."""
    return np.empty((64, key_width), np.int64), np.empty(64, np.int64), np.full(256, -1, np.int64), 0


@_inline
def _static(state, mover, ply, player, rollout, rules, values):
    """``alphabeta._static_value(state, mover, ply)`` from the kernel's budget-0 rollout
    (inlined: it takes the game's operations as arguments, see ``compiled_search``)."""
    terminal = player(state, rules) < 0
    rollout(state, 0, np.uint64(0), rules, values)
    if terminal:
        return (values[mover] - values[1 - mover]) / 2 * (1 - PLY_COST * ply)
    value = (values[mover] - values[1 - mover]) / 2
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, value))


@internal
def _stored(keys, acts, table, count, key, width):
    """``table[key] = act`` semantics: the row of ``key`` (added when new) and the arrays, which grow."""
    h, found = _lookup(table, keys, key, width)
    if found >= 0:
        return found, keys, acts, table, count
    if count == keys.shape[0]:
        keys, acts = grown_rows(keys), grown(acts)
    copy_into(keys[count], key)
    table[h] = count
    count += 1
    if 2 * count > table.shape[0]:
        table = _rehashed(table, keys, count, width)
    return count - 1, keys, acts, table, count


@_inline
def _ordered_children(
    here, mover, ply, first, legal, apply, player, rollout, rules, buffer, child, kids, kid_action, kid_static, values,
):  # fmt: skip
    """``_Search.value``'s children of ``here`` into ``kids``, ``kid_action`` and ``kid_static``
    (their static values for ``mover``, ``ply`` actions below the root), sorted as it sorts them:
    ``first`` (the last best action) first, then by static value, a stable insertion sort.
    An action the engine declines (``apply`` < 0) is left out, as the Python search leaves it.
    Returns their number."""
    n = 0
    for j in range(legal(here, rules, buffer)):
        copy_into(child, here)
        if apply(child, buffer[j], rules) < 0:
            continue
        static = _static(child, mover, ply, player, rollout, rules, values)
        is_first = buffer[j] == first
        at = n
        n += 1
        while at > 0:
            before_first = kid_action[at - 1] == first
            if not ((is_first and not before_first) or (is_first == before_first and static > kid_static[at - 1])):
                break
            copy_into(kids[at], kids[at - 1])
            kid_action[at] = kid_action[at - 1]
            kid_static[at] = kid_static[at - 1]
            at -= 1
        copy_into(kids[at], child)
        kid_action[at] = buffer[j]
        kid_static[at] = static
    return n


@_inline
def alphabeta_iteration(
    legal, apply, player, rollout, rules, root, key_width, max_legal,
    order, depth, exact, armed, node_limit, nodes, best_keys, best_acts, best_table, n_best, root_values,
):  # fmt: skip
    """``_Search.root(state, order, depth, exact, values)`` on the array ``root``: the value of
    each action of ``order`` into ``root_values``, searched ``depth`` actions deep.

    ``nodes`` is the count so far; with ``armed``, reaching ``node_limit`` stops the iteration.
    The best-action table (``new_best_table``) is read and updated. Returns ``(status, nodes,
    valued, horizon_reached, best_keys, best_acts, best_table, n_best)``: ``valued`` root actions
    have their value when the budget ran out."""
    width = root.shape[0]
    probe_width = key_width + 1  # the table's key: the state's key, then the depth
    t_keys = np.empty((64, probe_width), np.int64)
    t_value = np.empty(64, np.float64)
    t_bound = np.empty(64, np.int64)
    t_table = np.full(256, -1, np.int64)
    t_count = 0
    probe = np.empty(probe_width, np.int64)
    levels = depth + 1
    state = np.empty((levels, width), np.int64)  # a frame's position (frame 0: the root's child)
    kids = np.empty((levels, max_legal, width), np.int64)
    kid_action = np.empty((levels, max_legal), np.int64)
    kid_static = np.empty((levels, max_legal), np.float64)
    n_kids = np.zeros(levels, np.int64)
    next_kid = np.zeros(levels, np.int64)
    f_depth = np.zeros(levels, np.int64)
    f_ply = np.zeros(levels, np.int64)
    f_alpha = np.zeros(levels, np.float64)
    f_beta = np.zeros(levels, np.float64)
    f_start = np.zeros(levels, np.float64)
    f_mover = np.zeros(levels, np.int64)
    f_best = np.zeros(levels, np.float64)
    f_best_action = np.zeros(levels, np.int64)
    f_negate = np.zeros(levels, np.bool_)
    buffer = np.empty(max_legal, np.int64)
    values = np.zeros(2, np.float64)
    child = np.empty(width, np.int64)
    horizon = False
    mover = player(root, rules)
    best_root = -np.inf
    for r in range(order.shape[0]):
        alpha = -np.inf if exact else best_root - EPS  # ties with the best stay exact
        copy_into(child, root)
        if apply(child, order[r], rules) < 0:  # the engine declines it: no value (NaN)
            root_values[r] = np.nan
            continue
        # child_value(child, mover, depth - 1, 1, alpha, inf)
        child_player = player(child, rules)
        if child_player < 0 or depth == 1:
            if child_player >= 0:
                horizon = True
            root_values[r] = _static(child, mover, 1, player, rollout, rules, values)
            if root_values[r] > best_root:
                best_root = root_values[r]
            continue
        # frame 0 is _Search.value(child, ...); the loop runs frames until frame 0 has its value
        top = 0
        copy_into(state[0], child)
        f_depth[0], f_ply[0] = depth - 1, 1
        f_negate[0] = child_player != mover
        if f_negate[0]:
            f_alpha[0], f_beta[0] = -np.inf, -alpha
        else:
            f_alpha[0], f_beta[0] = alpha, np.inf
        entering = True
        result = 0.0
        while True:
            done = False  # whether the frame on top has its value, in ``result``
            if entering:  # _Search.value: the table, then the position's children in order
                entering = False
                here = state[top]
                for i in range(key_width):
                    probe[i] = here[i]
                probe[key_width] = f_depth[top]
                _, found = _lookup(t_table, t_keys, probe, probe_width)
                if found >= 0:
                    v, bound = t_value[found], t_bound[found]
                    if (
                        bound == _EXACT
                        or (bound == _LOWER and v >= f_beta[top])
                        or (bound == _UPPER and v <= f_alpha[top])
                    ):
                        done, result = True, v
                if not done:
                    nodes += 1
                    if armed and nodes >= node_limit:
                        return OUT_OF_BUDGET, nodes, r, horizon, best_keys, best_acts, best_table, n_best
                    m = player(here, rules)
                    f_mover[top] = m
                    _, first_row = _lookup(best_table, best_keys, here, key_width)
                    first = best_acts[first_row] if first_row >= 0 else np.int64(-1)
                    n = _ordered_children(
                        here, m, f_ply[top] + 1, first, legal, apply, player, rollout, rules, buffer, child,
                        kids[top], kid_action[top], kid_static[top], values,
                    )  # fmt: skip
                    n_kids[top], next_kid[top] = n, 0
                    f_start[top] = f_alpha[top]
                    f_best[top], f_best_action[top] = -np.inf, -1
            else:  # a child's value came back: fold it into the frame on top
                if result > f_best[top]:
                    f_best[top], f_best_action[top] = result, kid_action[top, next_kid[top] - 1]
                if result > f_alpha[top]:
                    f_alpha[top] = result
                if f_alpha[top] >= f_beta[top]:
                    next_kid[top] = n_kids[top]  # a cut-off
            if not done:
                if next_kid[top] < n_kids[top]:  # child_value(next child, ...)
                    j = next_kid[top]
                    next_kid[top] = j + 1
                    kid = kids[top, j]
                    kid_player = player(kid, rules)
                    if kid_player < 0 or f_depth[top] == 1:
                        if kid_player >= 0:
                            horizon = True
                        result = kid_static[top, j]
                        continue
                    below = top + 1
                    copy_into(state[below], kid)
                    f_depth[below], f_ply[below] = f_depth[top] - 1, f_ply[top] + 1
                    f_negate[below] = kid_player != f_mover[top]
                    if f_negate[below]:
                        f_alpha[below], f_beta[below] = -f_beta[top], -f_alpha[top]
                    else:
                        f_alpha[below], f_beta[below] = f_alpha[top], f_beta[top]
                    top = below
                    entering = True
                    continue
                # every child is searched (or cut off): store the position, return its best
                best = f_best[top]
                bound = _UPPER if best <= f_start[top] else _LOWER if best >= f_beta[top] else _EXACT
                here = state[top]
                for i in range(key_width):
                    probe[i] = here[i]
                probe[key_width] = f_depth[top]
                row, t_keys, t_value, t_table, t_count = _stored(t_keys, t_value, t_table, t_count, probe, probe_width)
                if t_bound.shape[0] < t_value.shape[0]:
                    t_bound = grown(t_bound)
                t_value[row], t_bound[row] = best, bound
                row, best_keys, best_acts, best_table, n_best = _stored(
                    best_keys, best_acts, best_table, n_best, here, key_width
                )
                best_acts[row] = f_best_action[top]
                result = best
            if f_negate[top]:  # child_value's sign: it flips only when the player changes
                result = -result
            if top == 0:
                break
            top -= 1
        root_values[r] = result
        if result > best_root:
            best_root = result
    return COMPLETED, nodes, order.shape[0], horizon, best_keys, best_acts, best_table, n_best
