"""The Sygo kernel's operations for ``MCTSAgent``'s compiled search (``compiled_search.py``),
on one int64 array a state (see ``kernel.py``); they are ``_play``'s steps.

The operations are inlined into ``_tree_search`` at numba's IR level, as ``uct_search`` is: as
compiled functions of their own, each one's module (``_tree_rollout``'s holds the random games'
whole entry) was optimised and compiled once more into the entry's. Inlining took the tree
search's own part of the first compile from about 11.7 s to 9.4 s of CPU, on top of the random
games' entry it calls (about 14.5 s): about 24 s in all for the expert.
"""

from __future__ import annotations

import numpy as np

from ...compiled_search import uct_search
from ...jit import copy_into, njit
from ...kernels import FINISHED
from .kernel_bits import (
    _GROW_OK,
    _HAS_GROWN,
    _MID_TURN,
    _NODE_CLOSED,
    _NODE_FIELDS,
    _NODE_GROWN,
    _NODE_MOVER,
    _NODE_OPP,
    _PASSES,
    _PLACE_CHECK,
    _PLACE_OK,
    _TO_MOVE,
    _any_bits,
    _inline,
    _points_at,
)
from .kernel_loop import _area_count, _balancing_now, _check_candidates, _legal_masks, _run_any, _scores
from .kernel_turn import _place, _start_turn, _step
from .rules import FINISH, FIRST_PLACE, PASS, komi_lead, komi_result

# ----------------------------------------------------------------------------- the compiled tree
# MCTSAgent's compiled search (compiled_search.py) on one int64 array a state (W words):
#   [0, 2W + 4)       the board as ``_play`` takes it: white, black, to_move, grown, passes, mid;
#   [2W + 4, 5W + 4)  mid-turn: the turn's node fields added, grown, closed (zero between moves);
#   [5W + 4, 7W + 4)  mid-turn: the turn's start position (white, black);
#   [7W + 4, ...)     mid-turn: the turn's growth stones in the order played, -1 after the last.
# The key is the first 5W + 4 entries. ``SygoState.key()`` is (white, black, to_move, grown,
# passes) between moves and that plus (node.added, node.grown, node.closed) mid-turn; ``mid``
# is set exactly mid-turn and the node fields are zero otherwise, the words are the bits of the
# engine's int masks (points, and start groups numbered by their lowest point in both), so two
# arrays have equal keys exactly when the two states' ``key()`` are equal.
# ``rules``: see ``SygoKernel.tree_root``. The operations are ``_play``'s steps: its turn start,
# its legal list (pass or finish, placements, growth stones, in point order) and its action.
# growth="all" is not searched here: the engine's turn analysis keeps its witnesses across every
# clone of a turn, which the tree would have to share node by node to answer as the engine does.


#: The entries of ``rules``, the tuple the tree's operations read (``SygoKernel.tree_root``):
#: the neighbour table and balancing option, ``_play``'s arrays (``_scratch``), then a rollout's
#: arguments for ``_run_any`` (its row, stream, out, no record, one stream).
_R_NBR, _R_BALANCING = 0, 1  # the board and the rules
_R_PT, _R_TB, _R_TV, _R_WB, _R_WP, _R_NODE, _R_FOUND, _R_WITNESSES, _R_N_WITNESSES = range(2, 11)  # _play's arrays
_R_ROW, _R_STREAMS, _R_OUT, _R_RECORD, _R_ONE_STREAM = range(11, 16)  # a rollout's _run_any arguments
_R_FB, _R_POINTS, _R_AFTER = range(16, 19)  # _play's arrays
_R_KOMI = 19  # the option komi, a float
_R_ENTRIES = 20

#: The rules' komi arithmetic (``SygoState.result``, ``evaluate``), compiled: one definition for both engines.
_komi_result, _komi_lead = njit(komi_result), njit(komi_lead)


@_inline
def _tree_turn(state, rules):
    """The turn's analysis (``pt``, ``tb``, ``tv`` of ``rules``) and its node (``rules``'
    ``node``) after the turn's stones so far."""
    pt, tb, tv, wb, wp, node = rules[_R_PT], rules[_R_TB], rules[_R_TV], rules[_R_WB], rules[_R_WP], rules[_R_NODE]
    words = wb.shape[1]
    at = 2 * words
    to_move = state[at + _TO_MOVE]
    mid = state[at + _MID_TURN] == 1
    start = 5 * words + 4 if mid else 0
    bal = _balancing_now(rules[_R_BALANCING], to_move, state[at + _HAS_GROWN])
    _start_turn(
        state,
        start + words * to_move,
        start + words * (1 - to_move),
        bal,
        pt,
        tb,
        tv,
        wb,
        node,
        np.int64(0),
    )
    for i in range(_NODE_FIELDS * words):
        node[i] = tv[i]
    if mid:
        i = 7 * words + 4
        while i < state.shape[0] and state[i] >= 0:
            _step(node, state[i], pt, tb, wb, wp)
            i += 1
    return node


@_inline
def _tree_legal(state, rules, out):
    """``legal_actions()`` in the engine's order, as ``_play`` finds them."""
    nbr, pt, tb, tv, wb, wp = rules[_R_NBR], rules[_R_PT], rules[_R_TB], rules[_R_TV], rules[_R_WB], rules[_R_WP]
    fb, points, after = rules[_R_FB], rules[_R_POINTS], rules[_R_AFTER]
    words = wb.shape[1]
    n_points = nbr.shape[0]
    at = 2 * words
    if state[at + _PASSES] >= 2:
        return 0
    node = _tree_turn(state, rules)
    mid = state[at + _MID_TURN] == 1
    turn = (pt, tb, tv, wb, wp)
    finish = _legal_masks(node, mid, np.int64(0), turn, fb, points, after)
    if finish < 0 or _any_bits(fb, _PLACE_CHECK * words, 2 * words):
        finish = _check_candidates(  # the tree searches growth="any" only
            node,
            mid,
            finish,
            turn,
            fb,
            points,
            after,
            rules[_R_FOUND],
            rules[_R_WITNESSES],
            rules[_R_N_WITNESSES],
            False,
        )
    n = 0
    if not mid or finish:
        out[0] = FINISH if mid else PASS
        n = 1
    m = _points_at(fb, _PLACE_OK * words, words, points)
    for i in range(m):
        out[n] = FIRST_PLACE + points[i]
        n += 1
    m = _points_at(fb, _GROW_OK * words, words, points)
    for i in range(m):
        out[n] = FIRST_PLACE + n_points + points[i]
        n += 1
    return n


@_inline
def _tree_apply(state, action, rules):
    """``apply_action``: ``_play``'s step for one action, on the tree's array form."""
    nbr, pt, tb, wb, wp = rules[_R_NBR], rules[_R_PT], rules[_R_TB], rules[_R_WB], rules[_R_WP]
    words = wb.shape[1]
    n_points = nbr.shape[0]
    at = 2 * words
    to_move = state[at + _TO_MOVE]
    mid = state[at + _MID_TURN] == 1
    if action == PASS:
        state[at + _PASSES] += 1
        state[at + _TO_MOVE] = 1 - to_move
        return 0
    node = _tree_turn(state, rules)
    if action >= FIRST_PLACE + n_points:  # a growth stone: the turn goes on
        p = action - FIRST_PLACE - n_points
        stones = 7 * words + 4
        if not mid:
            for i in range(at):
                state[5 * words + 4 + i] = state[i]
            for i in range(stones, state.shape[0]):
                state[i] = -1
        i = stones
        while state[i] >= 0:
            i += 1
        state[i] = p
        _step(node, p, pt, tb, wb, wp)
        state[at + _MID_TURN] = 1
        for w in range(words):
            state[at + 4 + w] = node[w]  # added
            state[at + 4 + words + w] = node[_NODE_GROWN * words + w]  # grown
            state[at + 4 + 2 * words + w] = node[_NODE_CLOSED * words + w]  # closed
    else:  # finish or a placement: the turn ends
        if action != FINISH:
            _place(node, action - FIRST_PLACE, pt, tb, words)
        state[at + _PASSES] = 0
        if mid:
            state[at + _HAS_GROWN] = 1
        state[at + _TO_MOVE] = 1 - to_move
        state[at + _MID_TURN] = 0
        for i in range(at + 4, 7 * words + 4):
            state[i] = 0
        for i in range(7 * words + 4, state.shape[0]):
            state[i] = -1
    for w in range(words):  # the board as it stands
        state[words * to_move + w] = node[_NODE_MOVER * words + w]
        state[words * (1 - to_move) + w] = node[_NODE_OPP * words + w]
    return 0


@_inline
def _tree_player(state, rules):
    at = 2 * rules[_R_WB].shape[1]
    return -4 if state[at + _PASSES] >= 2 else state[at + _TO_MOVE]  # TERMINAL


@_inline
def _tree_rollout(state, budget, stream, rules, values):
    """``SygoKernel.rollout``: through ``_run`` from a copy of the state, as ``_play`` lays it out."""
    nbr, balancing, komi = rules[_R_NBR], rules[_R_BALANCING], rules[_R_KOMI]
    words = rules[_R_WB].shape[1]
    n_points = nbr.shape[0]
    at = 2 * words
    if budget > 0 and state[at + _PASSES] < 2:
        row, streams, out = rules[_R_ROW], rules[_R_STREAMS], rules[_R_OUT]
        copy_into(row[0, : at + 4], state[: at + 4])
        copy_into(row[0, at + 4 :], state[5 * words + 4 :])
        streams[0, 0] = stream
        rules[_R_N_WITNESSES][0] = 0
        _run_any(
            row,
            streams,
            rules[_R_ONE_STREAM],
            budget,
            nbr,
            balancing,
            rules[_R_WITNESSES],
            rules[_R_N_WITNESSES],
            rules[_R_RECORD],
            out,
        )
        stream = streams[0, 0]
        if out[0, 0] == FINISHED:
            value = float(_komi_result(out[0, 3], out[0, 4], komi))
        else:
            value = _komi_lead(out[0, 6], komi, n_points)
    elif state[at + _PASSES] >= 2:  # returns()
        s_white, s_black = _scores(state[:words], state[words:at], nbr)
        value = float(_komi_result(s_white, s_black, komi))
    else:  # evaluate()
        value = _komi_lead(_area_count(state[:words], state[words:at], nbr), komi, n_points)
    values[0] = value
    values[1] = -value
    return stream, 0


@njit
def _tree_search(rules, root, key_width, n_players, max_legal, iterations, c, cap, rollout_cap, paranoid, root_player,
                 team, mt, stream, out):  # fmt: skip
    return uct_search(
        _tree_legal, _tree_apply, _tree_player, _tree_rollout, rules, root, key_width, n_players, max_legal,
        iterations, c, cap, rollout_cap, paranoid, root_player, team, mt, stream, out,
    )  # fmt: skip
