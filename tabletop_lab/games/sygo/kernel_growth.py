"""The Sygo kernel's growth search under either ``growth`` option (see ``kernel.py``):
``_order_ok`` is ``Turn.order`` and ``_completable`` is ``Turn.completable``, its search as an
explicit stack (whether some branch ends legally does not depend on the order they are tried).
"""

from __future__ import annotations

import numpy as np

from ...jit import copy_into, grown_rows, njit
from .kernel_bits import (
    _AROUND,
    _BALANCING_NOW,
    _CONSTRAINED,
    _EXTRA,
    _FILLED,
    _GID,
    _GROUP,
    _LIBS,
    _MOVER,
    _N_OPP_GROUPS,
    _NBR,
    _NODE_ADDED,
    _NODE_CAPTURED,
    _NODE_CLOSED,
    _NODE_FIELDS,
    _NODE_GROWN,
    _NODE_MOVER,
    _OPP,
    _ORDER,
    _PTS,
    _QBIT,
    _REMAINING,
    _STACK,
    _STONES,
    _TOUCH,
    _TOUCH_FILLED,
    _TV_COUNTS,
    _USED,
    _is_zero,
    _points,
)
from .kernel_turn import _add_sources, _flood, _lowest_dead, _position, _sources_free, _touches_mover, _touching

_NONE, _FIXED, _ANY = 0, 1, 2  # Turn.completable's ``placement``


@njit
def _blocks(p, h, pt, tb):
    """Whether growth stone ``p`` grows a start group next to opponent group ``h`` without being
    one of ``h``'s liberties (``Turn.order``'s blockers)."""
    if (tb[_LIBS, h][p >> 5] >> (p & 31)) & 1:
        return False
    for k in range(4):
        y = pt[p, _NBR + k]
        if y < 0:
            break
        g = pt[y, _GID]
        if g >= 0 and (tb[_TOUCH, h][g >> 5] >> (g & 31)) & 1:
            return True
    return False


@njit
def _order_ok(node, extra, turn):
    """Whether the growth stones ``extra`` have a valid order after ``node`` (``Turn.order``)."""
    pt, tb, tv, wb, wp = turn
    words = extra.shape[0]
    added, grown, closed, captured = (
        node[_NODE_ADDED * words : _NODE_MOVER * words],
        node[_NODE_GROWN * words : _NODE_CLOSED * words],
        node[_NODE_CLOSED * words : _NODE_CAPTURED * words],
        node[_NODE_CAPTURED * words : _NODE_FIELDS * words],
    )
    used, stones, constrained = wb[_USED], wp[_ORDER], wp[_CONSTRAINED]
    k = _points(extra, stones)
    for w in range(words):
        used[w] = grown[w] | closed[w]
    for i in range(k):
        p = stones[i]
        if not _sources_free(p, pt, used):
            return False
        _add_sources(p, pt, used)
    nc = 0
    if tv[_TV_COUNTS * words + _TOUCH_FILLED] == 0:
        _touching(pt, tb, tv, wb)
    for h in range(tv[_TV_COUNTS * words + _N_OPP_GROUPS]):
        if (captured[h >> 5] >> (h & 31)) & 1:
            continue
        whole = True
        for w in range(words):
            if tb[_LIBS, h, w] & ~added[w] & ~extra[w]:
                whole = False
                break
        if not whole:
            continue
        for i in range(k):
            if _blocks(stones[i], h, pt, tb):
                constrained[nc] = h
                nc += 1
                break
    if nc == 0:
        return True
    blockers = np.zeros((nc, k), np.uint8)
    for c in range(nc):
        for i in range(k):
            if _blocks(stones[i], constrained[c], pt, tb):
                blockers[c, i] = 1
    settled = np.zeros(nc, np.uint8)
    placed = np.zeros(k, np.uint8)
    for _ in range(k):
        chosen = -1
        for i in range(k):
            if placed[i]:
                continue
            ok = True
            for c in range(nc):
                if blockers[c, i] and not settled[c]:
                    ok = False
                    break
            if ok:
                chosen = i
                break
        if chosen < 0:
            return False
        placed[chosen] = 1
        for c in range(nc):
            if (tb[_LIBS, constrained[c]][(stones[chosen]) >> 5] >> ((stones[chosen]) & 31)) & 1:
                settled[c] = 1
    return True


@njit
def _completable(node, extra0, mode, q0, turn):
    """Whether growth stones including ``extra0`` can follow ``node`` and end the turn legally
    (``Turn.completable``): ``mode`` _NONE (finish), _FIXED (placing ``q0``) or _ANY."""
    pt, tb, tv, wb, wp = turn
    words = extra0.shape[0]
    added = node[_NODE_ADDED * words : _NODE_MOVER * words]
    free = mode == _ANY and tv[_TV_COUNTS * words + _BALANCING_NOW] == 1
    filled, mover, opp, group, around, qbit = wb[_FILLED], wb[_MOVER], wb[_OPP], wb[_GROUP], wb[_AROUND], wb[_QBIT]
    remaining, pts, stack_pts, extra = wb[_REMAINING], wp[_PTS], wp[_STACK], wb[_EXTRA]
    stack = np.empty((16, words + 1), np.int64)  # rows: growth stones, then placement or -1
    copy_into(stack[0, :words], extra0)
    stack[0, words] = q0 if mode == _FIXED else -1
    top = 1
    while top:
        top -= 1
        for w in range(words):
            extra[w] = stack[top, w]
        q = stack[top, words]
        for w in range(words):
            filled[w] = added[w] | extra[w]
        if _is_zero(filled):
            continue
        _position(filled, tb, tv, mover, opp)
        qbit[:] = 0
        if q >= 0:
            if ((mover[q >> 5] >> (q & 31)) & 1) or ((opp[q >> 5] >> (q & 31)) & 1) or _touches_mover(q, mover, pt):
                continue
            qbit[q >> 5] |= np.int64(1) << (q & 31)
            filled[q >> 5] |= np.int64(1) << (q & 31)
            _position(filled, tb, tv, mover, opp)
        d = _lowest_dead(mover, opp, wb)
        if d < 0:
            return True
        _flood(d, mover, group, pt, stack_pts)
        around[:] = 0
        n = _points(group, pts)
        for i in range(n):
            for k in range(4):
                y = pt[pts[i], _NBR + k]
                if y < 0:
                    break
                if (opp[y >> 5] >> (y & 31)) & 1:
                    around[y >> 5] |= np.int64(1) << (y & 31)
        for h in range(tv[_TV_COUNTS * words + _N_OPP_GROUPS]):
            touching = False
            for w in range(words):
                if tb[_STONES, h, w] & around[w]:
                    touching = True
                    break
            if not touching:
                continue
            for w in range(words):
                remaining[w] = tb[_LIBS, h, w] & ~filled[w] & ~qbit[w]
            if top == stack.shape[0]:
                stack = grown_rows(stack)
            for w in range(words):  # the branch: extra and the rest of h's liberties
                stack[top, w] = extra[w] | remaining[w]
            if _order_ok(node, stack[top, :words], turn):
                stack[top, words] = q
                top += 1
            if q < 0 and free:  # the balancing placement fills one of them
                m = _points(remaining, pts)  # the group's points are done with
                for i in range(m):
                    r = pts[i]
                    if top == stack.shape[0]:
                        stack = grown_rows(stack)
                    for w in range(words):
                        stack[top, w] = extra[w] | remaining[w]
                    stack[top, r >> 5] &= ~(np.int64(1) << (r & 31))
                    if _order_ok(node, stack[top, :words], turn):
                        stack[top, words] = r
                        top += 1
    return False
