"""The Sygo kernel's legal actions and game loop (see ``kernel.py``): ``_legal_masks`` and
``_check_candidates`` give ``SygoState._legal_actions`` as bitsets, ``_play`` plays random
actions from the players' streams, ``_run_any`` and ``_run_all`` (the compiled entries, one per
``growth`` option) play a batch of games, ``_scores`` and ``_area_count`` score them and
``_write_notations`` writes their final positions.
"""

from __future__ import annotations

import numpy as np

from ...jit import choice_index, copy_into, next_draw, njit
from ...kernels import CUT, FINISHED, REPLAY
from .kernel_bits import (
    _ADDED,
    _ALIVE,
    _ALL_GROWTH,
    _BALANCING_NOW,
    _BOARD_FULL,
    _BOARD_NOT_FIRST,
    _BOARD_NOT_LAST,
    _BOARD_SIZE,
    _BREATHING,
    _DEBRUIJN,
    _EMPTY,
    _FB_ROWS,
    _FULL,
    _GROW_CHECK,
    _GROW_OK,
    _HAS_GROWN,
    _MID_TURN,
    _MOVER,
    _NBR,
    _NEAR,
    _NODE_ADDED,
    _NODE_CLOSED,
    _NODE_FIELDS,
    _NODE_GROWN,
    _NODE_MOVER,
    _NODE_OPP,
    _NOT_FIRST,
    _NOT_LAST,
    _OPEN,
    _OPP,
    _PASSES,
    _PLACE_CHECK,
    _PLACE_OK,
    _START,
    _TO_MOVE,
    _TV_COUNTS,
    _TV_GROWABLE,
    _TV_SLOTS,
    _WAVE,
    _WB_ROWS,
    _ZERO,
    _any_bits,
    _borrowing,
    _count,
    _count_at,
    _flat_bitsets,
    _inline,
    _is_zero,
    _nth_point,
    _points_at,
    _spread,
)
from .kernel_growth import _ANY, _completable
from .kernel_maximal import _completable_all, _extension, _witnessed
from .kernel_turn import (
    _any_dead,
    _breathes_from,
    _grown_position,
    _lowest_dead,
    _place,
    _placement_breathes,
    _position,
    _start_turn,
    _step,
)
from .rules import FINISH, FIRST_PLACE, PASS

_OVERFLOW = -2  # _play's answer when the witness store overflows


# ----------------------------------------------------------------------------- legal actions


@_inline
def _end_ok(node, q, turn, maximal):
    """Whether the growth turn can end now: finish (``q`` = -1) or the balancing stone ``q``
    (``SygoState._end_reason``; ``q`` is known to be a placement point). ``maximal``: under
    ``growth="all"`` (a constant: see ``_run``)."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    added = node[_NODE_ADDED * words : _NODE_MOVER * words]
    mover, opp = wb[_MOVER], wb[_OPP]
    if q < 0:
        copy_into(mover, node[_NODE_MOVER * words : _NODE_OPP * words])
        copy_into(opp, node[_NODE_OPP * words : _NODE_GROWN * words])
    else:
        filled = added.copy()
        filled[q >> 5] |= np.int64(1) << (q & 31)
        _position(filled, tb, tv, mover, opp)
    if _lowest_dead(mover, opp, wb) >= 0:
        return False
    if maximal:
        return _extension(added.copy(), q, turn) < 0
    return True


@_borrowing
def _legal_masks(node, mid, breathing, turn, fb, points, after):
    """``SygoState._legal_actions`` at ``node`` (``mid``: a growth turn is in progress) as
    bitsets in ``fb``: the placements in row _PLACE_OK, the growth stones in row _GROW_OK, as
    far as the engine's shortcut and the quick tests settle them; the other candidates in rows
    _PLACE_CHECK and _GROW_CHECK, for ``_check_candidates``. Returns 1 if finish is legal, 0 if
    not, -1 if ``_check_candidates`` must decide (``growth="all"``). The engine's list is pass
    (at a turn's start) or finish, then the placements, then the growth stones, each in point
    order. Under ``growth="any"`` a candidate's legality does not depend on the order of the
    checks; under ``"all"`` they are all left to ``_check_candidates``, in the engine's order
    (the witnesses found depend on it). ``points`` and ``after`` (a node) are scratch.
    ``breathing`` (1, else 0): every mover group of the node is known to have a liberty, as
    after a growth stone of row _BREATHING: the growth stones that the quick tests found legal
    (their group breathes, and the node's others did)."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    mover, opp, grown, closed = _NODE_MOVER * words, _NODE_OPP * words, _NODE_GROWN * words, _NODE_CLOSED * words
    growable = _TV_GROWABLE * words
    empty, near, open_ = _EMPTY * words, _NEAR * words, _OPEN * words
    place_ok, grow_ok = _PLACE_OK * words, _GROW_OK * words
    place_check, grow_check = _PLACE_CHECK * words, _GROW_CHECK * words
    all_growth = tv[_TV_COUNTS * words + _ALL_GROWTH] == 1
    for w in range(words):
        fb[empty + w] = fb[_FULL * words + w] & ~(node[mover + w] | node[opp + w])
    _spread(node, mover, fb, np.int64(_NEAR))
    _spread(fb, empty, fb, np.int64(_OPEN))  # points with an empty neighbour
    node_dead = mid and not breathing and _any_dead(node, mover, fb)
    shortcut = not all_growth and not node_dead
    finish = 0
    if mid and not node_dead:
        finish = -1 if all_growth else 1
    for w in range(words):
        fb[place_ok + w] = 0
        fb[place_check + w] = 0
    if not mid or tv[_TV_COUNTS * words + _BALANCING_NOW]:
        for w in range(words):
            single = fb[empty + w] & ~fb[near + w]
            fb[place_ok + w] = single & fb[open_ + w] if shortcut else 0
            fb[place_check + w] = single & ~fb[place_ok + w]
    for w in range(words):
        fb[grow_ok + w] = tv[growable + w] & fb[empty + w]
    if mid:  # drop the points with a source grown or closed: those next to such a group
        alive = _ALIVE * words
        for w in range(words):
            fb[alive + w] = 0
        for w in range(words):
            word = node[grown + w] | node[closed + w]
            while word:
                low = word & -word
                word ^= low
                g = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                for v in range(words):
                    fb[alive + v] |= tb[_START, g, v]
        _spread(fb, alive, fb, np.int64(_WAVE))
        for w in range(words):
            fb[grow_ok + w] &= ~fb[_WAVE * words + w]
    for w in range(words):
        fb[grow_check + w] = fb[grow_ok + w] & ~fb[open_ + w] if shortcut else fb[grow_ok + w]
        fb[grow_ok + w] &= ~fb[grow_check + w]
        fb[_BREATHING * words + w] = 0
    if all_growth:
        return finish
    if not mid:  # placements: _placement_breathes decides
        m = _points_at(fb, place_check, words, points)
        for i in range(m):
            q = points[i]
            if _placement_breathes(q, node[mover : mover + words], node[opp : opp + words], pt, tb, wb, wp):
                fb[place_ok + (q >> 5)] |= np.int64(1) << (q & 31)
            fb[place_check + (q >> 5)] &= ~(np.int64(1) << (q & 31))
    if not node_dead:  # growth: when the new stone's group breathes, the turn can end after it
        _settle_next_to_two(node, mover, fb, words)
        m = _points_at(fb, grow_check, words, points)
        for i in range(m):
            p = points[i]
            _grown_position(node, p, pt, tb, after, words)
            if _breathes_from(p, after[mover : mover + words], after[opp : opp + words], pt, wb, wp):
                fb[grow_ok + (p >> 5)] |= np.int64(1) << (p & 31)
                fb[grow_check + (p >> 5)] &= ~(np.int64(1) << (p & 31))
        for w in range(words):  # each of them leaves every mover group breathing
            fb[_BREATHING * words + w] = fb[grow_ok + w]
    return finish


@_inline
def _settle_next_to_two(node, mover, fb, words):
    """The growth stones of row _GROW_CHECK next to a mover's stone with two empty neighbours
    join row _GROW_OK: that stone, in the new stone's group, keeps an empty neighbour. Rows
    _ALIVE and _WAVE are scratch."""
    size = fb[_FB_ROWS * words]
    empty, alive = _EMPTY * words, _ALIVE * words
    low = np.int64(0xFFFFFFFF)
    for w in range(words):
        x = fb[empty + w]
        before = fb[empty + w - 1] if w > 0 else np.int64(0)
        after = fb[empty + w + 1] if w + 1 < words else np.int64(0)
        left = ((x << 1) | (before >> 31)) & low & fb[_NOT_FIRST * words + w]  # the point left of it empty
        right = ((x >> 1) | ((after & 1) << 31)) & fb[_NOT_LAST * words + w]
        up = ((x << size) | (before >> (32 - size))) & low & fb[_FULL * words + w]
        down = ((x >> size) | ((after << (32 - size)) & low)) & fb[_FULL * words + w]
        two = (left & (right | up | down)) | (right & (up | down)) | (up & down)
        fb[alive + w] = node[mover + w] & two
    _spread(fb, alive, fb, np.int64(_WAVE))
    for w in range(words):
        settled = fb[_GROW_CHECK * words + w] & fb[_WAVE * words + w]
        fb[_GROW_OK * words + w] |= settled
        fb[_GROW_CHECK * words + w] &= ~settled


@_inline
def _check_candidates(node, mid, finish, turn, fb, points, after, found, witnesses, n_witnesses, maximal):
    """Decide what ``_legal_masks`` left open, in the engine's order (under ``growth="all"`` the
    witnesses found depend on it): finish, the placements of row _PLACE_CHECK, the growth
    stones of row _GROW_CHECK (the legal ones join rows _PLACE_OK, _GROW_OK). Returns finish's
    legality. ``points`` and ``after`` (a node) are scratch. ``maximal``: under ``growth="all"``,
    a constant, so that numba leaves the maximal-move search out of a growth="any" entry."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    mover, opp = _NODE_MOVER * words, _NODE_OPP * words
    if maximal and finish < 0:
        added = wb[_ADDED]
        for w in range(words):
            added[w] = node[w]
        finish = 1 if _extension(added, np.int64(-1), turn) < 0 else 0
    m = _points_at(fb, _PLACE_CHECK * words, words, points)
    for i in range(m):
        q = points[i]
        if mid:
            ok = _end_ok(node, q, turn, maximal)
        else:
            ok = _placement_breathes(q, node[mover : mover + words], node[opp : opp + words], pt, tb, wb, wp)
        if ok:
            fb[_PLACE_OK * words + (q >> 5)] |= np.int64(1) << (q & 31)
    m = _points_at(fb, _GROW_CHECK * words, words, points)
    known = n_witnesses[0]
    for i in range(m):
        p = points[i]
        for j in range(_NODE_FIELDS * words):
            after[j] = node[j]
        _step(after, p, pt, tb, wb, wp)
        if maximal:
            ok = _completable_all(after, turn, found, witnesses, n_witnesses)
        else:  # "any": _legal_masks's quick test failed (or a group of the node has no liberty)
            ok = _completable(after, wb[_ZERO], np.int64(_ANY), np.int64(-1), turn)
        if ok:
            fb[_GROW_OK * words + (p >> 5)] |= np.int64(1) << (p & 31)
    if maximal and n_witnesses[0] > known:  # closed under the witnesses found meanwhile, as the engine's list
        for i in range(m):
            p = points[i]
            if (fb[_GROW_OK * words + (p >> 5)] >> (p & 31)) & 1:
                continue
            for j in range(_NODE_FIELDS * words):
                after[j] = node[j]
            _step(after, p, pt, tb, wb, wp)
            if _witnessed(after, turn, witnesses, n_witnesses):
                fb[_GROW_OK * words + (p >> 5)] |= np.int64(1) << (p & 31)
    return finish


@njit
def _balancing_now(balancing, to_move, grown):
    """Whether a balancing move is open this turn (``SygoState.balancing_available``)."""
    return 1 if balancing and to_move == 1 and grown == 0 else 0


@njit
def _scratch(nbr):
    """The arrays ``_play`` works in (the compiled tree's operations too): the turn analysis
    ``pt``, ``tb``, ``tv``, the bitsets ``fb`` and ``wb``, ``wp``, ``points``, ``found`` (the
    growth set a ``growth="all"`` search finds, in row 0), a scratch node ``after`` and the
    turn's ``node``."""
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    pt = np.empty((n_points, _NBR + 4), np.int32)
    for p in range(n_points):
        for k in range(4):
            pt[p, _NBR + k] = nbr[p, k]
    tb = np.zeros((5, n_points, words), np.int64)
    tv = np.zeros(_TV_COUNTS * words + _TV_SLOTS, np.int64)
    fb = _flat_bitsets(nbr, words)
    wb = np.zeros((_WB_ROWS, words), np.int64)
    for w in range(words):
        wb[_BOARD_FULL, w] = fb[_FULL * words + w]
        wb[_BOARD_NOT_FIRST, w] = fb[_NOT_FIRST * words + w]
        wb[_BOARD_NOT_LAST, w] = fb[_NOT_LAST * words + w]
    wb[_BOARD_SIZE, 0] = fb[_FB_ROWS * words]
    wp = np.zeros((4, n_points), np.int64)
    points = np.empty(n_points, np.int64)
    found = np.empty((1, words + 1), np.int64)
    after = np.empty(_NODE_FIELDS * words, np.int64)  # scratch node
    node = np.empty(_NODE_FIELDS * words, np.int64)
    return pt, tb, tv, fb, wb, wp, points, found, after, node


@_inline
def _play(
    board, root_board, stones, streams, one_stream, budget, nbr, balancing, witnesses, n_witnesses, record, maximal
):
    """Random actions on ``board`` = [white, black, to_move, grown, passes, mid] (words, words,
    4 ints) until the end or ``budget`` actions; the player to move draws from
    ``streams[player]`` (``streams[0]`` for both with ``one_stream``). A turn in progress on
    entry: ``mid`` set, its start position in ``root_board``, its stones in ``stones`` (-1
    ended); ``witnesses`` are the first turn's.
    Returns (actions, moves, stones of the turn in progress at the end) or ``_OVERFLOW``; the
    actions and the number of legal actions before each go to ``record`` (``kernels.new_record``)
    if it is not empty; ``board`` ends as the final state (the board as
    it stands mid-turn), ``root_board`` as the start of the last turn. ``maximal``: under
    ``growth="all"``, a constant (see ``_run``)."""
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    pt, tb, tv, fb, wb, wp, points, found, after, node = _scratch(nbr)
    turn = (pt, tb, tv, wb, wp)  # the turn's analysis and scratch
    if maximal:  # read by _legal_masks; no turn's start changes it
        tv[_TV_COUNTS * words + _ALL_GROWTH] = 1
    at = 2 * words
    mid = board[at + _MID_TURN] == 1
    to_move = board[at + _TO_MOVE]
    n_stones = 0
    if mid:
        bal = _balancing_now(balancing, to_move, board[at + _HAS_GROWN])
        _start_turn(root_board, words * to_move, words * (1 - to_move), bal, pt, tb, tv, wb, node, np.int64(0))
        for i in range(_NODE_FIELDS * words):
            node[i] = tv[i]
        while n_stones < stones.shape[0] and stones[n_stones] >= 0:
            _step(node, stones[n_stones], pt, tb, wb, wp)
            n_stones += 1
    played = moves = 0
    breathing = np.int64(0)  # whether every mover group of the node is known to breathe
    reuse = np.int64(1 if mid else 0)  # whether the last turn's analysis is in pt, tb, tv
    while played < budget and board[at + _PASSES] < 2:
        to_move = board[at + _TO_MOVE]
        if not mid:
            moves += 1
            for i in range(at):
                root_board[i] = board[i]
            bal = _balancing_now(balancing, to_move, board[at + _HAS_GROWN])
            _start_turn(board, words * to_move, words * (1 - to_move), bal, pt, tb, tv, wb, node, reuse)
            reuse = np.int64(1)
            for i in range(_NODE_FIELDS * words):
                node[i] = tv[i]
            n_stones = 0
        finish = _legal_masks(node, mid, breathing, turn, fb, points, after)
        if finish < 0 or _any_bits(fb, _PLACE_CHECK * words, 2 * words):  # rows _PLACE_CHECK, _GROW_CHECK
            finish = _check_candidates(
                node, mid, finish, turn, fb, points, after, found, witnesses, n_witnesses, maximal
            )
        first = finish if mid else 1  # finish, or pass at a turn's start
        if n_witnesses[0] < 0:
            return _OVERFLOW, moves, n_stones
        n_place = _count_at(fb, _PLACE_OK * words, words)
        n = first + n_place + _count_at(fb, _GROW_OK * words, words)
        if n == 0:
            break
        seat = 0 if one_stream else to_move
        streams[seat], draw = next_draw(streams[seat])
        k = choice_index(draw, n)  # the engine's list: pass or finish, placements, growth stones
        if k < first:
            action = FINISH if mid else PASS
        elif k < first + n_place:
            action = FIRST_PLACE + _nth_point(fb, _PLACE_OK * words, words, k - first)
        else:
            action = FIRST_PLACE + n_points + _nth_point(fb, _GROW_OK * words, words, k - first - n_place)
        if record.shape[1]:
            record[0, played] = action
            record[1, played] = n
        played += 1
        ended = True
        if action == PASS:
            board[at + _PASSES] += 1
        elif action >= FIRST_PLACE + n_points:
            p = action - FIRST_PLACE - n_points
            breathing = (fb[_BREATHING * words + (p >> 5)] >> (p & 31)) & 1
            _step(node, p, pt, tb, wb, wp)
            stones[n_stones] = p
            n_stones += 1
            ended = False
            mid = True
        else:  # finish or a placement: the turn ends
            if action != FINISH:
                _place(node, action - FIRST_PLACE, pt, tb, words)
            for w in range(words):
                board[words * to_move + w] = node[_NODE_MOVER * words + w]
                board[words * (1 - to_move) + w] = node[_NODE_OPP * words + w]
            board[at + _PASSES] = 0
            if mid:
                board[at + _HAS_GROWN] = 1
        if ended:
            board[at + _TO_MOVE] = 1 - to_move
            mid = False
            n_stones = 0
            n_witnesses[0] = 0  # witnesses belong to one turn
    if mid:  # the board as it stands
        for w in range(words):
            board[words * to_move + w] = node[_NODE_MOVER * words + w]
            board[words * (1 - to_move) + w] = node[_NODE_OPP * words + w]
    board[at + _MID_TURN] = 1 if mid else 0
    if n_stones < stones.shape[0]:
        stones[n_stones] = -1
    return played, moves, n_stones


@njit
def _scores(white, black, nbr):
    """Area scores (``SygoState.scores``)."""
    n_points = nbr.shape[0]
    s_white, s_black = _count(white), _count(black)
    seen = np.zeros(white.shape[0], np.int64)
    stack = np.empty(n_points, np.int64)
    for p in range(n_points):
        if ((white[p >> 5] >> (p & 31)) & 1) or ((black[p >> 5] >> (p & 31)) & 1) or ((seen[p >> 5] >> (p & 31)) & 1):
            continue
        seen[p >> 5] |= np.int64(1) << (p & 31)
        stack[0] = p
        top = 1
        size = 0
        touches_white = touches_black = False
        while top:
            top -= 1
            x = stack[top]
            size += 1
            for k in range(4):
                y = nbr[x, k]
                if y < 0:
                    break
                if (white[y >> 5] >> (y & 31)) & 1:
                    touches_white = True
                elif (black[y >> 5] >> (y & 31)) & 1:
                    touches_black = True
                elif not ((seen[y >> 5] >> (y & 31)) & 1):
                    seen[y >> 5] |= np.int64(1) << (y & 31)
                    stack[top] = y
                    top += 1
        if touches_white and not touches_black:
            s_white += size
        elif touches_black and not touches_white:
            s_black += size
    return s_white, s_black


@njit
def _dilate_into(bs, out, nbr):
    copy_into(out, bs)
    for p in range(nbr.shape[0]):
        if (bs[p >> 5] >> (p & 31)) & 1:
            for k in range(4):
                y = nbr[p, k]
                if y < 0:
                    break
                out[y >> 5] |= np.int64(1) << (y & 31)


@njit
def _area_count(white, black, nbr):
    """White's area minus Black's by ``rules.area_estimate``."""
    words = white.shape[0]
    white, black = white.copy(), black.copy()
    free = np.empty(words, np.int64)
    for w in range(words):
        free[w] = ~(white[w] | black[w])
    for p in range(nbr.shape[0], words * 32):
        free[p >> 5] &= ~(np.int64(1) << (p & 31))
    reach_white = np.empty(words, np.int64)
    reach_black = np.empty(words, np.int64)
    while not _is_zero(free):
        _dilate_into(white, reach_white, nbr)
        _dilate_into(black, reach_black, nbr)
        reach_white &= free
        reach_black &= free
        if _is_zero(reach_white | reach_black):
            break
        both = reach_white & reach_black
        white |= reach_white & ~both
        black |= reach_black & ~both
        free &= ~(reach_white | reach_black)
    return _count(white) - _count(black)


@_inline
def _run(boards, streams, one_stream, max_actions, nbr, balancing, witnesses, n_witnesses, record, out, maximal):
    """One random game (or rollout) per row of ``boards`` (board, then
    the turn's start, then its stones: see ``_play``) and of ``streams`` (changed in place).
    ``out`` rows: outcome, actions, moves, scores (2), stones of a turn in progress, and White's
    area minus Black's by ``area_estimate`` (rollouts cut by their budget only). The witnesses
    given are the first game's (a rollout's). ``maximal``: under growth="all", a constant: the two
    entries below inline this with True and False, so that numba prunes the growth="all" search
    (``_completable_all``, ``_search_maximal`` and the rest) out of ``_run_any``, and a
    growth="any" game never compiles it."""
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    for g in range(boards.shape[0]):
        if g > 0:
            n_witnesses[0] = 0
        row = boards[g]
        board = row[: 2 * words + 4]
        played, moves, n_stones = _play(
            board, row[2 * words + 4 : 4 * words + 4], row[4 * words + 4 :], streams[g], one_stream, max_actions, nbr,
            balancing, witnesses, n_witnesses, record, maximal,
        )  # fmt: skip
        if played == _OVERFLOW:
            out[g, 0] = REPLAY
            continue
        white, black = board[:words], board[words : 2 * words]
        s_white, s_black = _scores(white, black, nbr)
        out[g, 0] = FINISHED if board[2 * words + _PASSES] >= 2 else CUT
        out[g, 1] = played
        out[g, 2] = moves
        out[g, 3] = s_white
        out[g, 4] = s_black
        out[g, 5] = n_stones
        if one_stream and out[g, 0] == CUT:  # a rollout stopped by its budget: evaluate()
            out[g, 6] = _area_count(white, black, nbr)


@njit
def _run_any(boards, streams, one_stream, max_actions, nbr, balancing, witnesses, n_witnesses, record, out):
    """``_run`` under growth="any": the compiled entry without the search."""
    _run(boards, streams, one_stream, max_actions, nbr, balancing, witnesses, n_witnesses, record, out, False)


@njit
def _run_all(boards, streams, one_stream, max_actions, nbr, balancing, witnesses, n_witnesses, record, out):
    """``_run`` under growth="all": the compiled entry with the search."""
    _run(boards, streams, one_stream, max_actions, nbr, balancing, witnesses, n_witnesses, record, out, True)


@njit
def _write_notations(boards, size, text):
    """``rows side grown passes`` of each row of ``finals`` into ``text`` (``SygoState.notation``)."""
    n_points = size * size
    words = (n_points + 31) >> 5
    at_side = 2 * words
    for g in range(boards.shape[0]):
        row, out = boards[g], text[g]
        white, black = row[:words], row[words : 2 * words]
        at = 0
        for number in range(size, 0, -1):
            if number < size:
                out[at] = 47  # /
                at += 1
            for p in range((number - 1) * size, number * size):
                out[at] = (
                    87 if ((white[p >> 5] >> (p & 31)) & 1) else (66 if ((black[p >> 5] >> (p & 31)) & 1) else 46)
                )  # W B .
                at += 1
        out[at] = 32
        out[at + 1] = 87 if row[at_side + _TO_MOVE] == 0 else 66
        out[at + 2] = 32
        out[at + 3] = 103 if row[at_side + _HAS_GROWN] else 45  # g -
        out[at + 4] = 32
        out[at + 5] = 48 + row[at_side + _PASSES]
