"""The Sygo kernel's turn start and board tests (see ``kernel.py``): the groups of a turn's
start position with their numbers, stones and liberties (``_start_turn``: ``growth.Turn.__init__``),
then what a turn does to the board: a growth stone (``_step``), a placement (``_place``), the
position after a set of growth stones (``_position``) and the breathing tests.
"""

from __future__ import annotations

import numpy as np

from .kernel_bits import (
    _ALIVE,
    _AROUND,
    _BALANCING_NOW,
    _BOARD_FULL,
    _DEBRUIJN,
    _EXTRA,
    _FB_ROWS,
    _FRONT,
    _GID,
    _GROUP,
    _LIBS,
    _LIVE,
    _MLIBS,
    _MOVER,
    _N_OPP_GROUPS,
    _N_START_GROUPS,
    _NBR,
    _NODE_CAPTURED,
    _NODE_CLOSED,
    _NODE_GROWN,
    _NODE_MOVER,
    _NODE_OPP,
    _OID,
    _OPEN,
    _OPP,
    _PTS,
    _REMAINING,
    _SEEN,
    _SINGLE,
    _STACK,
    _START,
    _STONES,
    _TOUCH,
    _TOUCH_FILLED,
    _TV_COUNTS,
    _TV_GROWABLE,
    _WAVE,
    _borrowing,
    _inline,
    _is_zero,
    _points,
    _spread,
    _spread_rows,
    _subset,
)


@_inline
def _sources_free(p, pt, used):
    """Whether the empty point ``p`` has sources (start groups next to it: their numbers on its
    neighbours) and none of them is in the group set ``used``."""
    found = False
    for k in range(4):
        y = pt[p, _NBR + k]
        if y < 0:
            break
        g = pt[y, _GID]
        if g >= 0:
            if (used[g >> 5] >> (g & 31)) & 1:
                return False
            found = True
    return found


@_inline
def _add_sources(p, pt, used):
    for k in range(4):
        y = pt[p, _NBR + k]
        if y < 0:
            break
        g = pt[y, _GID]
        if g >= 0:
            used[g >> 5] |= np.int64(1) << (g & 31)


# ----------------------------------------------------------------------------- the turn's start


@_borrowing
def _start_turn(board, mover_at, opp_at, balancing, pt, tb, tv, wb, last, reuse):
    """Fill ``pt``, ``tb``, ``tv`` for the position of the mover's stones ``board[mover_at:]``
    and the opponent's ``board[opp_at:]`` (``growth.Turn.__init__``); ``balancing``: whether a
    balancing move is open this turn. tv's slot _ALL_GROWTH is its caller's, set once.

    ``reuse`` 0: every group is flooded (``_label_all``), numbered by its lowest point (the
    engine's numbering: the compiled tree's keys hold grown and closed groups).
    ``reuse`` 1 (``_play``): ``last`` is the final node of the turn just played and ``pt``,
    ``tb``, ``tv`` still hold that turn's analysis, which ``_next_turn`` updates; the groups keep
    their numbers from turn to turn (none of ``_play``'s answers depends on them)."""
    words = wb.shape[1]
    for w in range(words):
        wb[_EXTRA, w] = wb[_BOARD_FULL, w] & ~(board[mover_at + w] | board[opp_at + w])  # empty
    if reuse:
        _next_turn(board, mover_at, opp_at, pt, tb, tv, wb, last)
    else:
        _label_all(board, mover_at, opp_at, pt, tb, tv, wb)
    tv[_TV_COUNTS * words + _BALANCING_NOW] = balancing
    tv[_TV_COUNTS * words + _TOUCH_FILLED] = 0  # _TOUCH not filled yet


@_inline
def _label_all(board, mover_at, opp_at, pt, tb, tv, wb):
    """``_start_turn`` from scratch: the groups flooded word-parallel (``_flood_group``) from
    their lowest stone, the mover's first; each stone gets its group's number."""
    n_points = pt.shape[0]
    words = wb.shape[1]
    for p in range(n_points):
        pt[p, _GID] = -1
        pt[p, _OID] = -1
    for i in range(_TV_COUNTS * words):  # the root node, then the growable points
        tv[i] = 0
    for w in range(words):
        tv[_NODE_MOVER * words + w] = board[mover_at + w]
        tv[_NODE_OPP * words + w] = board[opp_at + w]
        wb[_REMAINING, w] = board[mover_at + w]
    n_groups = 0
    for w in range(words):
        while wb[_REMAINING, w]:
            g = n_groups
            n_groups += 1
            _flood_group(wb, board, mover_at, w)
            for v in range(words):
                tb[_START, g, v] = wb[_LIVE, v]
                tb[_MLIBS, g, v] = wb[_FRONT, v] & wb[_EXTRA, v]
                tv[_TV_GROWABLE * words + v] |= tb[_MLIBS, g, v]  # growable
            _label_stones(wb, pt, _GID, g)
    n_opp = 0
    for w in range(words):
        wb[_REMAINING, w] = board[opp_at + w]
    for w in range(words):
        while wb[_REMAINING, w]:
            h = n_opp
            n_opp += 1
            _flood_group(wb, board, opp_at, w)
            for v in range(words):
                tb[_STONES, h, v] = wb[_LIVE, v]
                tb[_LIBS, h, v] = wb[_FRONT, v] & wb[_EXTRA, v]
            _label_stones(wb, pt, _OID, h)
    tv[_TV_COUNTS * words + _N_START_GROUPS] = n_groups
    tv[_TV_COUNTS * words + _N_OPP_GROUPS] = n_opp


@_inline
def _next_turn(board, mover_at, opp_at, pt, tb, tv, wb, last):
    """``_start_turn`` after the turn ``last`` ended on this board: the players swap roles
    (numbers on the stones, group planes), the mover loses the groups it reversed, the others'
    liberties are those still empty; the opponent's groups next to a stone the last turn added
    or reversed are flooded again with those stones (numbers: the lowest ones free), its other
    groups are as they were."""
    n_points = pt.shape[0]
    words = wb.shape[1]
    n_mover = tv[_TV_COUNTS * words + _N_OPP_GROUPS]  # the last turn's opponent groups: the mover's now
    n_opp = tv[_TV_COUNTS * words + _N_START_GROUPS]
    for w in range(words):
        wb[_SINGLE, w] = board[opp_at + w] & ~tv[_NODE_MOVER * words + w]  # the stones the last turn added or reversed
        wb[_REMAINING, w] = wb[_SINGLE, w]
    _spread_rows(wb, np.int64(_SINGLE), np.int64(_AROUND))
    for p in range(n_points):
        g = pt[p, _GID]
        pt[p, _GID] = pt[p, _OID]
        pt[p, _OID] = g
    for i in range(max(n_mover, n_opp)):
        for v in range(words):
            x = tb[_START, i, v]
            tb[_START, i, v] = tb[_STONES, i, v]
            tb[_STONES, i, v] = x
            x = tb[_MLIBS, i, v]
            tb[_MLIBS, i, v] = tb[_LIBS, i, v]
            tb[_LIBS, i, v] = x
    for i in range(_TV_COUNTS * words):  # the root node, then the growable points
        tv[i] = 0
    for w in range(words):
        tv[_NODE_MOVER * words + w] = board[mover_at + w]
        tv[_NODE_OPP * words + w] = board[opp_at + w]
    for g in range(n_mover):
        if (last[_NODE_CAPTURED * words + (g >> 5)] >> (g & 31)) & 1:  # reversed
            for v in range(words):
                word = tb[_START, g, v]
                while word:
                    low = word & -word
                    word ^= low
                    pt[(v << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27], _GID] = -1
                tb[_START, g, v] = 0
                tb[_MLIBS, g, v] = 0
        else:
            for v in range(words):
                tb[_MLIBS, g, v] &= wb[_EXTRA, v]
                tv[_TV_GROWABLE * words + v] |= tb[_MLIBS, g, v]  # growable
    for h in range(n_opp):
        near = False
        for v in range(words):
            if tb[_STONES, h, v] & wb[_AROUND, v]:
                near = True
                break
        for v in range(words):
            if near:  # flooded again below
                wb[_REMAINING, v] |= tb[_STONES, h, v]
                tb[_STONES, h, v] = 0
                tb[_LIBS, h, v] = 0
            else:
                tb[_LIBS, h, v] &= wb[_EXTRA, v]
    free = 0
    for w in range(words):
        while wb[_REMAINING, w]:
            _flood_group(wb, board, opp_at, w)
            while free < n_opp and not _is_zero(tb[_STONES, free]):
                free += 1
            h = free
            free += 1
            n_opp = max(n_opp, free)
            for v in range(words):
                tb[_STONES, h, v] = wb[_LIVE, v]
                tb[_LIBS, h, v] = wb[_FRONT, v] & wb[_EXTRA, v]
            _label_stones(wb, pt, _OID, h)
    tv[_TV_COUNTS * words + _N_START_GROUPS] = n_mover
    tv[_TV_COUNTS * words + _N_OPP_GROUPS] = n_opp


@_inline
def _label_stones(wb, pt, column, g):
    """Number ``g`` in column ``column`` of ``pt`` for each stone of row _LIVE of ``wb``."""
    for v in range(wb.shape[1]):
        word = wb[_LIVE, v]
        while word:
            low = word & -word
            word ^= low
            pt[(v << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27], column] = g


@_inline
def _touching(pt, tb, tv, wb):
    """Fill ``tb``'s plane _TOUCH: the start groups next to each opponent group."""
    words = wb.shape[1]
    for h in range(tv[_TV_COUNTS * words + _N_OPP_GROUPS]):
        for v in range(words):
            wb[_LIVE, v] = tb[_STONES, h, v]
            tb[_TOUCH, h, v] = 0
        _spread_rows(wb, np.int64(_LIVE), np.int64(_FRONT))
        for v in range(words):
            word = wb[_FRONT, v] & tv[_NODE_MOVER * words + v]
            while word:
                low = word & -word
                word ^= low
                g = pt[(v << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27], _GID]
                tb[_TOUCH, h, g >> 5] |= np.int64(1) << (g & 31)
    tv[_TV_COUNTS * words + _TOUCH_FILLED] = 1


@_borrowing
def _flood_group(wb, board, at, w):
    """The group of the stones ``board[at:at + W]`` holding the lowest stone of word ``w`` of row
    _REMAINING into row _LIVE, its neighbours into row _FRONT, word-parallel; the group leaves
    _REMAINING."""
    words = wb.shape[1]
    for v in range(words):
        wb[_LIVE, v] = 0
    low = wb[_REMAINING, w] & -wb[_REMAINING, w]
    wb[_LIVE, w] = low
    grew = True
    while grew:
        grew = False
        _spread_rows(wb, np.int64(_LIVE), np.int64(_FRONT))
        for v in range(words):
            new = wb[_FRONT, v] & board[at + v] & ~wb[_LIVE, v]
            if new:
                wb[_LIVE, v] |= new
                grew = True
    for v in range(words):
        wb[_REMAINING, v] &= ~wb[_LIVE, v]


# ----------------------------------------------------------------------------- boards


@_inline
def _any_dead(bits, at, fb):
    """Whether some group of the stones ``bits[at:at + W]`` has no liberties, word-parallel: the
    stones in row _OPEN of ``fb`` (points with an empty neighbour) live, and so does every stone
    connected to a living one."""
    words = fb.shape[0] // _FB_ROWS
    alive, wave = _ALIVE * words, _WAVE * words
    for w in range(words):
        fb[alive + w] = bits[at + w] & fb[_OPEN * words + w]
    grew = True
    while grew:
        grew = False
        _spread(fb, alive, fb, np.int64(_WAVE))
        for w in range(words):
            new = fb[wave + w] & bits[at + w] & ~fb[alive + w]
            if new:
                fb[alive + w] |= new
                grew = True
    for w in range(words):
        if bits[at + w] & ~fb[alive + w]:
            return True
    return False


@_borrowing
def _flood(p, within, out, pt, stack):
    """The points of ``within`` connected to ``p`` into ``out``."""
    out[:] = 0
    out[p >> 5] |= np.int64(1) << (p & 31)
    stack[0] = p
    top = 1
    while top:
        top -= 1
        x = stack[top]
        for k in range(4):
            y = pt[x, _NBR + k]
            if y < 0:
                break
            if ((within[y >> 5] >> (y & 31)) & 1) and not ((out[y >> 5] >> (y & 31)) & 1):
                out[y >> 5] |= np.int64(1) << (y & 31)
                stack[top] = y
                top += 1


@_borrowing
def _breathes_from(p, mover, opp, pt, wb, wp):
    """Whether the group of ``mover`` containing ``p`` has a liberty: a depth-first search that
    stops at the first one."""
    for w in range(wb.shape[1]):
        wb[_SEEN, w] = 0
    wb[_SEEN, p >> 5] |= np.int64(1) << (p & 31)
    wp[_STACK, 0] = p
    top = 1
    while top:
        top -= 1
        x = wp[_STACK, top]
        for k in range(4):
            y = pt[x, _NBR + k]
            if y < 0:
                break
            bit = np.int64(1) << (y & 31)
            if mover[y >> 5] & bit:
                if not wb[_SEEN, y >> 5] & bit:
                    wb[_SEEN, y >> 5] |= bit
                    wp[_STACK, top] = y
                    top += 1
            elif not opp[y >> 5] & bit:
                return True
    return False


@_borrowing
def _position(filled, tb, tv, mover, opp):
    """(mover, opponent) after the stones ``filled``, in any order (``Turn.position``)."""
    words = filled.shape[0]
    for w in range(words):
        mover[w] = tv[_NODE_MOVER * words + w] | filled[w]
        opp[w] = tv[_NODE_OPP * words + w]
    for h in range(tv[_TV_COUNTS * words + _N_OPP_GROUPS]):
        if _subset(tb[_LIBS, h], filled):
            for w in range(words):
                mover[w] |= tb[_STONES, h, w]
                opp[w] &= ~tb[_STONES, h, w]


@_inline
def _touches_mover(q, mover, pt):
    for k in range(4):
        y = pt[q, _NBR + k]
        if y < 0:
            break
        if (mover[y >> 5] >> (y & 31)) & 1:
            return True
    return False


# ----------------------------------------------------------------------------- growth


@_borrowing
def _step(node, p, pt, tb, wb, wp):
    """Add growth stone ``p`` to ``node`` in place (``Turn.step``)."""
    words = wb.shape[1]
    mover, opp, grown, captured = _NODE_MOVER * words, _NODE_OPP * words, _NODE_GROWN * words, _NODE_CAPTURED * words
    bit = np.int64(1) << (p & 31)
    node[p >> 5] |= bit
    node[mover + (p >> 5)] |= bit
    _add_sources(p, pt, node[grown : grown + words])
    any_capture = False
    for k in range(4):  # the opponent groups next to p: those p is a liberty of
        y = pt[p, _NBR + k]
        if y < 0:
            break
        h = pt[y, _OID]
        if h < 0 or (node[captured + (h >> 5)] >> (h & 31)) & 1:
            continue
        whole = True
        for w in range(words):
            if tb[_LIBS, h, w] & ~node[w]:
                whole = False
                break
        if whole:
            node[captured + (h >> 5)] |= np.int64(1) << (h & 31)
            for w in range(words):
                node[mover + w] |= tb[_STONES, h, w]
                node[opp + w] &= ~tb[_STONES, h, w]
            any_capture = True
    if any_capture:
        group, pts = wb[_GROUP], wp[_PTS]
        _flood(p, node[mover : mover + words], group, pt, wp[_STACK])
        n = _points(group, pts)
        for i in range(n):
            g = pt[pts[i], _GID]
            if g >= 0:
                node[_NODE_CLOSED * words + (g >> 5)] |= np.int64(1) << (g & 31)


@_inline
def _grown_position(node, p, pt, tb, after, words):
    """The board after growth stone ``p`` on ``node`` into ``after``'s mover and opponent rows:
    ``_step`` without its marks (grown, closed, captured), for a breathing test."""
    mover, opp, captured = _NODE_MOVER * words, _NODE_OPP * words, _NODE_CAPTURED * words
    for w in range(words):
        after[mover + w] = node[mover + w]
        after[opp + w] = node[opp + w]
    bit = np.int64(1) << (p & 31)
    after[mover + (p >> 5)] |= bit
    for k in range(4):
        y = pt[p, _NBR + k]
        if y < 0:
            break
        h = pt[y, _OID]
        if h < 0 or (node[captured + (h >> 5)] >> (h & 31)) & 1:
            continue
        whole = True
        for w in range(words):
            if tb[_LIBS, h, w] & ~node[w] & ~(bit if w == p >> 5 else 0):
                whole = False
                break
        if whole:
            for w in range(words):
                after[mover + w] |= tb[_STONES, h, w]
                after[opp + w] &= ~tb[_STONES, h, w]


@_borrowing
def _lowest_dead(mover, opp, wb):
    """``Turn.dead`` word-parallel: the lowest stone of the mover's groups without liberties, or -1.
    The stones next to an empty point live, and so does every stone connected to a living one."""
    words = wb.shape[1]
    for w in range(words):
        wb[_FRONT, w] = wb[_BOARD_FULL, w] & ~(mover[w] | opp[w])
    _spread_rows(wb, np.int64(_FRONT), np.int64(_LIVE))
    for w in range(words):
        wb[_LIVE, w] &= mover[w]
    grew = True
    while grew:
        grew = False
        _spread_rows(wb, np.int64(_LIVE), np.int64(_FRONT))
        for w in range(words):
            new = wb[_FRONT, w] & mover[w] & ~wb[_LIVE, w]
            if new:
                wb[_LIVE, w] |= new
                grew = True
    for w in range(words):
        dead = mover[w] & ~wb[_LIVE, w]
        if dead:
            low = dead & -dead
            return (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
    return -1


@_borrowing
def _placement_breathes(q, mover, opp, pt, tb, wb, wp):
    """Whether placing ``q`` at the start of a turn leaves no mover group without liberties
    (``SygoState._placement_reason``'s suicide test). The position's groups all breathe and
    ``q`` touches none of the mover's, so only the group of ``q`` and what it reverses can die:
    the opponent groups whose one liberty is ``q`` are reversed, then ``q``'s group is flooded."""
    words = wb.shape[1]
    single = wb[_SINGLE]
    single[:] = 0
    single[q >> 5] |= np.int64(1) << (q & 31)
    after_mover, after_opp = wb[_MOVER], wb[_OPP]
    for w in range(words):
        after_mover[w] = mover[w]
        after_opp[w] = opp[w]
    after_mover[q >> 5] |= np.int64(1) << (q & 31)
    for k in range(4):
        y = pt[q, _NBR + k]
        if y < 0:
            break
        h = pt[y, _OID]
        if h >= 0 and _subset(tb[_LIBS, h], single):
            for w in range(words):
                after_mover[w] |= tb[_STONES, h, w]
                after_opp[w] &= ~tb[_STONES, h, w]
    return _breathes_from(q, after_mover, after_opp, pt, wb, wp)


# ----------------------------------------------------------------------------- games


@_borrowing
def _place(node, q, pt, tb, words):
    """Put the mover's placement ``q`` (the start of a turn or a balancing stone) on ``node``'s
    board: ``Turn.position`` of its stones and ``q``. The opponent groups it reverses are those
    whose last liberty it fills (the growth stones have reversed the others already)."""
    mover, opp, captured = _NODE_MOVER * words, _NODE_OPP * words, _NODE_CAPTURED * words
    bit = np.int64(1) << (q & 31)
    node[mover + (q >> 5)] |= bit
    for k in range(4):
        y = pt[q, _NBR + k]
        if y < 0:
            break
        h = pt[y, _OID]
        if h < 0 or (node[captured + (h >> 5)] >> (h & 31)) & 1:
            continue
        whole = True
        for w in range(words):
            if tb[_LIBS, h, w] & ~node[w] & ~(bit if w == q >> 5 else 0):
                whole = False
                break
        if whole:
            node[captured + (h >> 5)] |= np.int64(1) << (h & 31)
            for w in range(words):
                node[mover + w] |= tb[_STONES, h, w]
                node[opp + w] &= ~tb[_STONES, h, w]
