"""Compiled playouts for Sygo (``tabletop_lab.kernels``): random games and rollouts.

Every rules config is played: board sizes 3 to 25, ``growth`` "any" and "all", ``balancing`` on
and off. The kernel is ``rules.py`` and ``growth.py`` written for numba, function by function, on
bitsets of 32-bit words in int64 arrays (point ``p`` is bit ``p & 31`` of word ``p >> 5``):

* a turn's start (``_start_turn``) labels the mover's start groups and the opponent's groups by
  their lowest point (the engine's numbering), with ``src(p)``, the opponent groups each empty
  point is a liberty of, their liberties and stones, and which start groups touch each of them;
* a node (``growth.Node``) is one array of six bitsets: stones added, mover's and opponent's
  stones now, start groups grown and closed, opponent groups reversed (``_step`` adds a stone);
* ``_legal`` lists ``SygoState._legal_actions`` in the engine's order with the engine's
  shortcut, ``_order_ok`` is ``Turn.order``, ``_completable`` is ``Turn.completable`` (its
  search as an explicit stack: whether some branch ends legally does not depend on the order
  the branches are tried), and under ``growth="all"`` ``_completable_all``, ``_grow_greedily``,
  ``_extension`` and ``_enumerate`` (``Turn._any_moves``, same order and the same 5,000-set
  budget) follow the engine, including the witnesses (maximal moves found earlier in the turn)
  that the engine keeps per turn. A rollout from a state in the middle of a turn starts from
  that turn's witnesses.

A game cut in the middle of a turn (``max_actions``) gets its final snapshot from the engine,
which replays the turn's stones from the turn's start position. ``REPLAY`` marks a game only
if a turn finds more than ``_WITNESS_CAP`` witnesses (never met in practice).
``tests/games/sygo/test_kernel.py`` proves kernel and engine equal game by game.
"""

from __future__ import annotations

import numpy as np

from ...core import canonical_json
from ...jit import choice_index, next_draw, njit
from ...kernels import CUT, FINISHED, REPLAY, PlayedGames
from .rules import FINISH, FIRST_PLACE, PASS, SygoGame, SygoState

__all__ = ["KERNEL"]

_BUDGET = 5000  # Turn.completable_all's search budget (growth sets explored)
_WITNESS_CAP = 1024
_OVERFLOW = -2  # _play's answer when the witness store overflows
_NONE, _FIXED, _ANY = 0, 1, 2  # Turn.completable's ``placement``
_DEBRUIJN = np.zeros(32, np.int64)
for _i in range(32):
    _DEBRUIJN[(((1 << _i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = _i


# ----------------------------------------------------------------------------- bitsets


@njit
def _has(bs, p):
    return (bs[p >> 5] >> (p & 31)) & 1


@njit
def _set(bs, p):
    bs[p >> 5] |= np.int64(1) << (p & 31)


@njit
def _points(bs, out):
    """The points of ``bs`` into ``out``, ascending; their number."""
    n = 0
    for w in range(bs.shape[0]):
        word = bs[w]
        while word:
            low = word & -word
            out[n] = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            n += 1
            word ^= low
    return n


@njit
def _is_zero(bs):
    for w in range(bs.shape[0]):
        if bs[w]:
            return False
    return True


@njit
def _subset(a, b):
    """Whether every point of ``a`` is in ``b``."""
    for w in range(a.shape[0]):
        if a[w] & ~b[w]:
            return False
    return True


@njit
def _count(bs):
    n = 0
    for w in range(bs.shape[0]):
        word = bs[w]
        while word:
            word &= word - 1
            n += 1
    return n


# ----------------------------------------------------------------------------- a node
# node[k * W:(k + 1) * W] for k = 0 added, 1 mover, 2 opponent, 3 grown, 4 closed, 5 captured


@njit
def _part(node, k, words):
    return node[k * words : (k + 1) * words]


@njit
def _sources_free(p, src, nsrc, used):
    """Whether ``p`` has sources and none of them is in the group set ``used``."""
    if nsrc[p] == 0:
        return False
    for k in range(nsrc[p]):
        if _has(used, src[p, k]):
            return False
    return True


# ----------------------------------------------------------------------------- the turn's start


@njit
def _label(stones, ids, nbr, stack):
    """Number the groups of ``stones`` by their lowest point into ``ids`` (-1 elsewhere)."""
    ids[:] = -1
    count = 0
    for p in range(ids.shape[0]):
        if ids[p] >= 0 or not _has(stones, p):
            continue
        ids[p] = count
        stack[0] = p
        top = 1
        while top:
            top -= 1
            x = stack[top]
            for k in range(4):
                y = nbr[x, k]
                if y < 0:
                    break
                if ids[y] < 0 and _has(stones, y):
                    ids[y] = count
                    stack[top] = y
                    top += 1
        count += 1
    return count


@njit
def _start_turn(mover, opp, balancing, all_growth, t, nbr, stack):
    """Fill the turn arrays ``t`` for the position ``mover`` / ``opp`` (``growth.Turn.__init__``)."""
    gid, oid, src, nsrc, libof, nlibof, olib, ostones, touch, root, growable, info = t
    words = mover.shape[0]
    n_groups = _label(mover, gid, nbr, stack)
    n_opp = _label(opp, oid, nbr, stack)
    olib[:n_opp] = 0
    ostones[:n_opp] = 0
    touch[:n_opp] = 0
    growable[:] = 0
    for p in range(gid.shape[0]):
        nsrc[p] = 0
        nlibof[p] = 0
        h = oid[p]
        if h >= 0:
            _set(ostones[h], p)
            for k in range(4):
                y = nbr[p, k]
                if y < 0:
                    break
                if gid[y] >= 0:
                    _set(touch[h], gid[y])
        elif gid[p] < 0:  # empty
            for k in range(4):
                y = nbr[p, k]
                if y < 0:
                    break
                g = gid[y]
                if g >= 0:
                    new = True
                    for j in range(nsrc[p]):
                        if src[p, j] == g:
                            new = False
                    if new:
                        src[p, nsrc[p]] = g
                        nsrc[p] += 1
                h = oid[y]
                if h >= 0:
                    new = True
                    for j in range(nlibof[p]):
                        if libof[p, j] == h:
                            new = False
                    if new:
                        libof[p, nlibof[p]] = h
                        nlibof[p] += 1
                        _set(olib[h], p)
            if nsrc[p]:
                _set(growable, p)
    root[:] = 0
    root[words : 2 * words] = mover
    root[2 * words : 3 * words] = opp
    info[0] = n_groups
    info[1] = n_opp
    info[2] = balancing
    info[3] = all_growth


# ----------------------------------------------------------------------------- boards


@njit
def _dead(mover, opp, nbr, seen, stack):
    """The lowest stone of the mover's groups without liberties, or -1 (``Turn.dead``)."""
    seen[:] = 0
    for p in range(nbr.shape[0]):
        if not _has(mover, p) or _has(seen, p):
            continue
        _set(seen, p)
        stack[0] = p
        top = 1
        breathes = False
        while top:
            top -= 1
            x = stack[top]
            for k in range(4):
                y = nbr[x, k]
                if y < 0:
                    break
                if _has(mover, y):
                    if not _has(seen, y):
                        _set(seen, y)
                        stack[top] = y
                        top += 1
                elif not _has(opp, y):
                    breathes = True
        if not breathes:
            return p
    return -1


@njit
def _flood(p, within, out, nbr, stack):
    """The points of ``within`` connected to ``p`` into ``out``."""
    out[:] = 0
    _set(out, p)
    stack[0] = p
    top = 1
    while top:
        top -= 1
        x = stack[top]
        for k in range(4):
            y = nbr[x, k]
            if y < 0:
                break
            if _has(within, y) and not _has(out, y):
                _set(out, y)
                stack[top] = y
                top += 1


@njit
def _breathes(group, mover, opp, nbr, pts):
    n = _points(group, pts)
    for i in range(n):
        x = pts[i]
        for k in range(4):
            y = nbr[x, k]
            if y < 0:
                break
            if not _has(mover, y) and not _has(opp, y):
                return True
    return False


@njit
def _position(filled, t, mover, opp):
    """(mover, opponent) after the stones ``filled``, in any order (``Turn.position``)."""
    olib, ostones, root, info = t[6], t[7], t[9], t[11]
    words = filled.shape[0]
    for w in range(words):
        mover[w] = root[words + w] | filled[w]
        opp[w] = root[2 * words + w]
    for h in range(info[1]):
        if _subset(olib[h], filled):
            for w in range(words):
                mover[w] |= ostones[h, w]
                opp[w] &= ~ostones[h, w]


@njit
def _touches_mover(q, mover, nbr):
    for k in range(4):
        y = nbr[q, k]
        if y < 0:
            break
        if _has(mover, y):
            return True
    return False


@njit
def _has_empty_neighbour(q, mover, opp, nbr):
    for k in range(4):
        y = nbr[q, k]
        if y < 0:
            break
        if not _has(mover, y) and not _has(opp, y):
            return True
    return False


# ----------------------------------------------------------------------------- growth


@njit
def _step(node, p, t, nbr, work):
    """Add growth stone ``p`` to ``node`` in place (``Turn.step``)."""
    gid, src, nsrc, libof, nlibof, olib, ostones = t[0], t[2], t[3], t[4], t[5], t[6], t[7]
    words = olib.shape[1]
    added, mover, opp = _part(node, 0, words), _part(node, 1, words), _part(node, 2, words)
    grown, closed, captured = _part(node, 3, words), _part(node, 4, words), _part(node, 5, words)
    _set(added, p)
    _set(mover, p)
    for k in range(nsrc[p]):
        _set(grown, src[p, k])
    any_capture = False
    for k in range(nlibof[p]):
        h = libof[p, k]
        if not _has(captured, h) and _subset(olib[h], added):
            _set(captured, h)
            for w in range(words):
                mover[w] |= ostones[h, w]
                opp[w] &= ~ostones[h, w]
            any_capture = True
    if any_capture:
        group, stack, pts = work[0], work[4], work[5]
        _flood(p, mover, group, nbr, stack)
        n = _points(group, pts)
        for i in range(n):
            g = gid[pts[i]]
            if g >= 0:
                _set(closed, g)


@njit
def _order_ok(node, extra, t, work):
    """Whether the growth stones ``extra`` have a valid order after ``node`` (``Turn.order``)."""
    src, nsrc, olib, touch, info = t[2], t[3], t[6], t[8], t[11]
    words = extra.shape[0]
    added, grown, closed, captured = (
        _part(node, 0, words),
        _part(node, 3, words),
        _part(node, 4, words),
        _part(node, 5, words),
    )
    used, stones = work[1], work[6]
    k = _points(extra, stones)
    for w in range(words):
        used[w] = grown[w] | closed[w]
    for i in range(k):
        p = stones[i]
        if not _sources_free(p, src, nsrc, used):
            return False
        for j in range(nsrc[p]):
            _set(used, src[p, j])
    constrained = work[7]
    nc = 0
    for h in range(info[1]):
        if _has(captured, h):
            continue
        whole = True
        for w in range(words):
            if olib[h, w] & ~added[w] & ~extra[w]:
                whole = False
                break
        if not whole:
            continue
        for i in range(k):
            p = stones[i]
            if _has(olib[h], p):
                continue
            for j in range(nsrc[p]):
                if _has(touch[h], src[p, j]):
                    constrained[nc] = h
                    nc += 1
                    break
            else:
                continue
            break
    if nc == 0:
        return True
    blockers = np.zeros((nc, k), np.uint8)
    for c in range(nc):
        h = constrained[c]
        for i in range(k):
            p = stones[i]
            if _has(olib[h], p):
                continue
            for j in range(nsrc[p]):
                if _has(touch[h], src[p, j]):
                    blockers[c, i] = 1
                    break
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
        p = stones[chosen]
        for c in range(nc):
            if _has(olib[constrained[c]], p):
                settled[c] = 1
    return True


@njit
def _completable(node, extra0, mode, q0, t, nbr, work):
    """Whether growth stones including ``extra0`` can follow ``node`` and end the turn legally
    (``Turn.completable``): ``mode`` _NONE (finish), _FIXED (placing ``q0``) or _ANY."""
    olib, ostones, info = t[6], t[7], t[11]
    words = extra0.shape[0]
    added = _part(node, 0, words)
    free = mode == _ANY and info[2] == 1
    filled, mover, opp, group, around, qbit = work[8], work[9], work[10], work[0], work[11], work[12]
    remaining, pts, stack_pts = work[13], work[5], work[4]
    stack = np.empty((16, words + 1), np.int64)
    stack[0, :words] = extra0
    stack[0, words] = q0 if mode == _FIXED else -1
    top = 1
    while top:
        top -= 1
        extra = stack[top, :words].copy()
        q = stack[top, words]
        for w in range(words):
            filled[w] = added[w] | extra[w]
        if _is_zero(filled):
            continue
        _position(filled, t, mover, opp)
        qbit[:] = 0
        if q >= 0:
            if _has(mover, q) or _has(opp, q) or _touches_mover(q, mover, nbr):
                continue
            _set(qbit, q)
            _set(filled, q)
            _position(filled, t, mover, opp)
        d = _dead(mover, opp, nbr, group, stack_pts)
        if d < 0:
            return True
        _flood(d, mover, group, nbr, stack_pts)
        around[:] = 0
        n = _points(group, pts)
        for i in range(n):
            for k in range(4):
                y = nbr[pts[i], k]
                if y < 0:
                    break
                if _has(opp, y):
                    _set(around, y)
        for h in range(info[1]):
            touching = False
            for w in range(words):
                if ostones[h, w] & around[w]:
                    touching = True
                    break
            if not touching:
                continue
            for w in range(words):
                remaining[w] = olib[h, w] & ~filled[w] & ~qbit[w]
            wider = extra | remaining
            if _order_ok(node, wider, t, work):
                if top == stack.shape[0]:
                    stack = _grown_stack(stack)
                stack[top, :words] = wider
                stack[top, words] = q
                top += 1
            if q < 0 and free:
                left = np.empty(nbr.shape[0], np.int64)
                m = _points(remaining, left)
                for i in range(m):
                    r = left[i]
                    narrower = extra | remaining
                    narrower[r >> 5] &= ~(np.int64(1) << (r & 31))
                    if _order_ok(node, narrower, t, work):
                        if top == stack.shape[0]:
                            stack = _grown_stack(stack)
                        stack[top, :words] = narrower
                        stack[top, words] = r
                        top += 1
    return False


@njit
def _grown_stack(stack):
    bigger = np.empty((2 * stack.shape[0], stack.shape[1]), np.int64)
    bigger[: stack.shape[0]] = stack
    return bigger


# ----------------------------------------------------------------------------- growth="all"


@njit
def _extension(grown, q, t, nbr, work):
    """A stone some legal move with growth set ⊋ ``grown`` and placement ``q`` adds, or -1
    (``Turn.extension``)."""
    src, nsrc, root, growable = t[2], t[3], t[9], t[10]
    words = grown.shape[0]
    used = np.zeros(words, np.int64)
    pts = np.empty(nbr.shape[0], np.int64)
    n = _points(grown, pts)
    for i in range(n):
        for j in range(nsrc[pts[i]]):
            _set(used, src[pts[i], j])
    candidates = growable & ~grown
    n = _points(candidates, pts)
    mode = _NONE if q < 0 else _FIXED
    for i in range(n):
        p = pts[i]
        if not _sources_free(p, src, nsrc, used) or p == q:
            continue
        wider = grown.copy()
        _set(wider, p)
        if not _order_ok(root, wider, t, work):
            continue
        if _completable(root, wider, mode, q, t, nbr, work):
            return p
    return -1


@njit
def _grow_greedily(node, mode, q, t, nbr, work):
    src, nsrc, growable = t[2], t[3], t[10]
    words = growable.shape[0]
    added, grown, closed = _part(node, 0, words), _part(node, 3, words), _part(node, 4, words)
    extra = np.zeros(words, np.int64)
    used = grown | closed
    pts = np.empty(nbr.shape[0], np.int64)
    more = True
    while more:
        more = False
        n = _points(growable & ~added & ~extra, pts)
        for i in range(n):
            p = pts[i]
            if not _sources_free(p, src, nsrc, used) or p == q:
                continue
            wider = extra.copy()
            _set(wider, p)
            if _order_ok(node, wider, t, work) and _completable(node, wider, mode, q, t, nbr, work):
                extra = wider
                for j in range(nsrc[p]):
                    _set(used, src[p, j])
                more = True
    return extra


@njit
def _placements(mover, opp, filled, dead, t, nbr, out):
    """Balancing placements legal after the growth ``filled`` (``Turn.placements``); their number."""
    libof, nlibof, olib = t[4], t[5], t[6]
    words = filled.shape[0]
    with_q = np.empty(words, np.int64)
    after_m = np.empty(words, np.int64)
    after_o = np.empty(words, np.int64)
    seen = np.empty(words, np.int64)
    stack = np.empty(nbr.shape[0], np.int64)
    n = 0
    for q in range(nbr.shape[0]):
        if _has(mover, q) or _has(opp, q) or _touches_mover(q, mover, nbr):
            continue
        with_q[:] = filled
        _set(with_q, q)
        capturing = False
        for k in range(nlibof[q]):
            if _subset(olib[libof[q, k]], with_q):
                capturing = True
                break
        if capturing:
            _position(with_q, t, after_m, after_o)
            if _dead(after_m, after_o, nbr, seen, stack) < 0:
                out[n] = q
                n += 1
        elif dead < 0 and _has_empty_neighbour(q, mover, opp, nbr):
            out[n] = q
            n += 1
    return n


@njit
def _enumerate(node, t, nbr, work, found):
    """``Turn._any_moves(node)`` with the 5,000 budget into ``found`` (rows: growth set, then
    placement or -1); their number, or -1 past the budget."""
    src, nsrc, growable, info = t[2], t[3], t[10], t[11]
    words = growable.shape[0]
    n_points = nbr.shape[0]
    added, mover, opp = _part(node, 0, words), _part(node, 1, words), _part(node, 2, words)
    grown, closed = _part(node, 3, words), _part(node, 4, words)
    candidates = np.empty(n_points, np.int64)
    n_candidates = 0
    for p in range(n_points):
        if (
            _has(growable, p)
            and not _has(mover, p)
            and not _has(opp, p)
            and _sources_free(p, src, nsrc, grown | closed)
        ):
            candidates[n_candidates] = p
            n_candidates += 1
    n_found = 0
    explored = 0
    filled = np.empty(words, np.int64)
    m = np.empty(words, np.int64)
    o = np.empty(words, np.int64)
    seen = np.empty(words, np.int64)
    stack_pts = np.empty(n_points, np.int64)
    qs = np.empty(n_points, np.int64)
    frames = np.empty((n_candidates + 1, 2 * words + 1), np.int64)  # next index, extra, used
    first = not _is_zero(added)
    frames[0, 0] = 0
    frames[0, 1 : words + 1] = 0
    frames[0, words + 1 :] = grown | closed
    depth = 1
    extra = np.zeros(words, np.int64)
    while True:
        if first:
            first = False  # collect(0) for a node with stones: extra stays empty
        else:
            found_next = False
            while depth:
                frame = frames[depth - 1]
                i = frame[0]
                while i < n_candidates:
                    p = candidates[i]
                    if _sources_free(p, src, nsrc, frame[words + 1 :]):
                        extra[:] = frame[1 : words + 1]
                        _set(extra, p)
                        if _order_ok(node, extra, t, work):
                            break
                    i += 1
                if i == n_candidates:
                    depth -= 1
                    continue
                frame[0] = i + 1
                nxt = frames[depth]
                nxt[0] = i + 1
                nxt[1 : words + 1] = extra
                nxt[words + 1 :] = frame[words + 1 :]
                for j in range(nsrc[p]):
                    _set(nxt[words + 1 :], src[p, j])
                depth += 1
                found_next = True
                break
            if not found_next:
                return n_found
        explored += 1
        if explored > _BUDGET:
            return -1
        for w in range(words):
            filled[w] = added[w] | extra[w]
        _position(filled, t, m, o)
        d = _dead(m, o, nbr, seen, stack_pts)
        if d < 0:
            found[n_found, :words] = filled
            found[n_found, words] = -1
            n_found += 1
        if info[2]:
            nq = _placements(m, o, filled, d, t, nbr, qs)
            for i in range(nq):
                found[n_found, :words] = filled
                found[n_found, words] = qs[i]
                n_found += 1
        if n_found > _BUDGET:
            return -1


@njit
def _reachable(node, grown, t, work):
    words = grown.shape[0]
    added = _part(node, 0, words)
    if not _subset(added, grown):
        return False
    return _order_ok(node, grown & ~added, t, work)


@njit
def _completable_all(node, t, nbr, work, witnesses, n_witnesses):
    """``Turn.completable_all``: whether a maximal legal move can still be reached from
    ``node``; records witnesses (``n_witnesses[0]`` of them, -1 once the store overflowed)."""
    words = witnesses.shape[1] - 1
    for i in range(n_witnesses[0]):
        if _reachable(node, witnesses[i, :words], t, work):
            return True
    added, mover, opp = _part(node, 0, words), _part(node, 1, words), _part(node, 2, words)
    ends = np.empty(nbr.shape[0] + 1, np.int64)
    ends[0] = -1
    n_ends = 1
    if t[11][2]:
        for q in range(nbr.shape[0]):
            if not _has(mover, q) and not _has(opp, q) and not _touches_mover(q, mover, nbr):
                ends[n_ends] = q
                n_ends += 1
    zero = np.zeros(words, np.int64)
    for e in range(n_ends):
        q = ends[e]
        mode = _NONE if q < 0 else _FIXED
        if _completable(node, zero, mode, q, t, nbr, work):
            grown = added | _grow_greedily(node, mode, q, t, nbr, work)
            if _extension(grown, q, t, nbr, work) < 0:
                return _witness(grown, q, witnesses, n_witnesses)
    found = work[14]
    n = _enumerate(node, t, nbr, work, found)
    for i in range(n):
        grown = found[i, :words]
        q = found[i, words]
        if _extension(grown, q, t, nbr, work) < 0:
            return _witness(grown, q, witnesses, n_witnesses)
    return False


@njit
def _witness(grown, q, witnesses, n_witnesses):
    words = grown.shape[0]
    i = n_witnesses[0]
    if i < 0 or i == witnesses.shape[0]:
        n_witnesses[0] = -1
        return True
    witnesses[i, :words] = grown
    witnesses[i, words] = q
    n_witnesses[0] = i + 1
    return True


# ----------------------------------------------------------------------------- legal actions


@njit
def _end_ok(node, q, t, nbr, work, witnesses, n_witnesses):
    """Whether the growth turn can end now: finish (``q`` = -1) or the balancing stone ``q``
    (``SygoState._end_reason``; ``q`` is known to be a placement point)."""
    words = t[10].shape[0]
    added = _part(node, 0, words)
    mover, opp = work[9], work[10]
    if q < 0:
        mover[:] = _part(node, 1, words)
        opp[:] = _part(node, 2, words)
    else:
        filled = added.copy()
        _set(filled, q)
        _position(filled, t, mover, opp)
    if _dead(mover, opp, nbr, work[0], work[4]) >= 0:
        return False
    if t[11][3]:
        return _extension(added.copy(), q, t, nbr, work) < 0
    return True


@njit
def _legal(node, mid, t, nbr, work, witnesses, n_witnesses, out):
    """``SygoState._legal_actions`` at ``node`` (``mid``: a growth turn is in progress) into ``out``."""
    src, nsrc, growable, info = t[2], t[3], t[10], t[11]
    n_points = nbr.shape[0]
    words = growable.shape[0]
    mover, opp = _part(node, 1, words), _part(node, 2, words)
    grown, closed = _part(node, 3, words), _part(node, 4, words)
    all_growth = info[3] == 1
    node_dead = _dead(mover, opp, nbr, work[0], work[4]) if mid else -1
    shortcut = not all_growth and node_dead < 0
    n = 0
    if not mid:
        out[n] = PASS
        n += 1
    elif _end_ok(node, -1, t, nbr, work, witnesses, n_witnesses):
        out[n] = FINISH
        n += 1
    single = work[15]
    if not mid or info[2]:
        for q in range(n_points):
            if _has(mover, q) or _has(opp, q) or _touches_mover(q, mover, nbr):
                continue
            ok = shortcut and _has_empty_neighbour(q, mover, opp, nbr)
            if not ok:
                if mid:
                    ok = _end_ok(node, q, t, nbr, work, witnesses, n_witnesses)
                else:
                    single[:] = 0
                    _set(single, q)
                    _position(single, t, work[9], work[10])
                    ok = _dead(work[9], work[10], nbr, work[0], work[4]) < 0
            if ok:
                out[n] = FIRST_PLACE + q
                n += 1
    after = work[16]
    blocked = grown | closed
    for p in range(n_points):
        if not _has(growable, p) or _has(mover, p) or _has(opp, p) or not _sources_free(p, src, nsrc, blocked):
            continue
        ok = shortcut and _has_empty_neighbour(p, mover, opp, nbr)
        if not ok:
            after[:] = node
            _step(after, p, t, nbr, work)
            if all_growth:
                ok = _completable_all(after, t, nbr, work, witnesses, n_witnesses)
            else:
                if node_dead < 0:
                    _flood(p, _part(after, 1, words), work[0], nbr, work[4])
                    ok = _breathes(work[0], _part(after, 1, words), _part(after, 2, words), nbr, work[5])
                if not ok:
                    ok = _completable(after, np.zeros(words, np.int64), _ANY, -1, t, nbr, work)
        if ok:
            out[n] = FIRST_PLACE + n_points + p
            n += 1
    return n


# ----------------------------------------------------------------------------- games


@njit
def _workspace(n_points, words, all_growth):
    """Scratch arrays: 0-3 bitsets, 4-7 point lists, 8-13 bitsets, 14 the enumeration's moves,
    15 a bitset, 16 a node."""
    found = np.empty((_BUDGET + n_points + 2 if all_growth else 1, words + 1), np.int64)
    return (
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(n_points, np.int64),
        np.empty(n_points, np.int64),
        np.empty(n_points, np.int64),
        np.empty(n_points, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        np.empty(words, np.int64),
        found,
        np.empty(words, np.int64),
        np.empty(6 * words, np.int64),
    )


@njit
def _turn_arrays(n_points, words):
    return (
        np.empty(n_points, np.int64),  # gid
        np.empty(n_points, np.int64),  # oid
        np.empty((n_points, 4), np.int64),  # src
        np.zeros(n_points, np.int64),  # nsrc
        np.empty((n_points, 4), np.int64),  # libof
        np.zeros(n_points, np.int64),  # nlibof
        np.zeros((n_points, words), np.int64),  # olib
        np.zeros((n_points, words), np.int64),  # ostones
        np.zeros((n_points, words), np.int64),  # touch
        np.zeros(6 * words, np.int64),  # root node
        np.zeros(words, np.int64),  # growable
        np.zeros(4, np.int64),  # groups, opponent groups, balancing, all_growth
    )


@njit
def _balancing_now(balancing, to_move, grown):
    """Whether a balancing move is open this turn (``SygoState.balancing_available``)."""
    return 1 if balancing and to_move == 1 and grown == 0 else 0


@njit
def _play(
    board, root_board, stones, streams, one_stream, budget, nbr, balancing, all_growth, witnesses, n_witnesses, record
):
    """Random actions on ``board`` = [white, black, to_move, grown, passes, mid] (words, words,
    4 ints) until the end or ``budget`` actions; the player to move draws from
    ``streams[player]`` (``streams[0]`` for both with ``one_stream``). A turn in progress on
    entry: ``mid`` set, its start position in ``root_board``, its stones in ``stones`` (-1
    ended); ``witnesses`` are the first turn's.
    Returns (actions, moves, stones of the turn in progress at the end) or ``_OVERFLOW``; the
    actions go to ``record`` if it is not empty; ``board`` ends as the final state (the board as
    it stands mid-turn), ``root_board`` as the start of the last turn."""
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    t = _turn_arrays(n_points, words)
    work = _workspace(n_points, words, all_growth)
    legal = np.empty(2 * n_points + 2, np.int64)
    node = np.empty(6 * words, np.int64)
    white, black = board[:words], board[words : 2 * words]
    at = 2 * words
    mid = board[at + 3] == 1
    n_stones = 0
    if mid:
        to_move = board[at]
        mover = root_board[words * to_move : words * (to_move + 1)]
        opp = root_board[words * (1 - to_move) : words * (2 - to_move)]
        _start_turn(mover, opp, _balancing_now(balancing, to_move, board[at + 1]), all_growth, t, nbr, work[4])
        node[:] = t[9]
        while n_stones < stones.shape[0] and stones[n_stones] >= 0:
            _step(node, stones[n_stones], t, nbr, work)
            n_stones += 1
    played = moves = 0
    while played < budget and board[at + 2] < 2:
        to_move = board[at]
        if not mid:
            moves += 1
            root_board[: 2 * words] = board[: 2 * words]
            mover = board[words * to_move : words * (to_move + 1)]
            opp = board[words * (1 - to_move) : words * (2 - to_move)]
            _start_turn(mover, opp, _balancing_now(balancing, to_move, board[at + 1]), all_growth, t, nbr, work[4])
            node[:] = t[9]
            n_stones = 0
        n = _legal(node, mid, t, nbr, work, witnesses, n_witnesses, legal)
        if n_witnesses[0] < 0:
            return _OVERFLOW, moves, n_stones
        if n == 0:
            break
        seat = 0 if one_stream else to_move
        streams[seat], draw = next_draw(streams[seat])
        action = legal[choice_index(draw, n)]
        if len(record):
            record[played] = action
        played += 1
        ended = True
        if action == PASS:
            board[at + 2] += 1
        elif action >= FIRST_PLACE + n_points:
            p = action - FIRST_PLACE - n_points
            _step(node, p, t, nbr, work)
            stones[n_stones] = p
            n_stones += 1
            ended = False
            mid = True
        else:
            if action == FINISH:
                work[9][:] = _part(node, 1, words)
                work[10][:] = _part(node, 2, words)
            else:
                filled = _part(node, 0, words).copy()
                _set(filled, action - FIRST_PLACE)
                _position(filled, t, work[9], work[10])
            if to_move == 0:
                white[:] = work[9]
                black[:] = work[10]
            else:
                black[:] = work[9]
                white[:] = work[10]
            board[at + 2] = 0
            if mid:
                board[at + 1] = 1
        if ended:
            board[at] = 1 - to_move
            mid = False
            n_stones = 0
            n_witnesses[0] = 0  # witnesses belong to one turn
    if mid:  # the board as it stands
        if to_move == 0:
            white[:] = _part(node, 1, words)
            black[:] = _part(node, 2, words)
        else:
            black[:] = _part(node, 1, words)
            white[:] = _part(node, 2, words)
    board[at + 3] = 1 if mid else 0
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
        if _has(white, p) or _has(black, p) or _has(seen, p):
            continue
        _set(seen, p)
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
                if _has(white, y):
                    touches_white = True
                elif _has(black, y):
                    touches_black = True
                elif not _has(seen, y):
                    _set(seen, y)
                    stack[top] = y
                    top += 1
        if touches_white and not touches_black:
            s_white += size
        elif touches_black and not touches_white:
            s_black += size
    return s_white, s_black


@njit
def _dilate_into(bs, out, nbr):
    out[:] = bs
    for p in range(nbr.shape[0]):
        if _has(bs, p):
            for k in range(4):
                y = nbr[p, k]
                if y < 0:
                    break
                _set(out, y)


@njit
def _area_lead(white, black, nbr):
    """White's lead by ``rules.area_estimate``, as a share of the board."""
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
    return (_count(white) - _count(black)) / nbr.shape[0]


@njit
def _random_games(streams, max_actions, nbr, balancing, all_growth, finals, counts, stones):
    """One game per row of ``streams`` from the empty board; ``finals`` rows: white, black,
    to_move, grown, passes, mid, then the last turn's start (white, black); ``counts`` rows:
    outcome, actions, moves, score 0, score 1, stones of a turn in progress."""
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    witnesses = np.empty((_WITNESS_CAP if all_growth else 1, words + 1), np.int64)
    n_witnesses = np.zeros(1, np.int64)
    no_record = np.empty(0, np.int64)
    for g in range(streams.shape[0]):
        row = finals[g]
        row[:] = 0
        board = row[: 2 * words + 4]
        root_board = row[2 * words + 4 :]
        n_witnesses[0] = 0
        played, moves, n_stones = _play(
            board, root_board, stones[g], streams[g].copy(), False, max_actions, nbr, balancing, all_growth,
            witnesses, n_witnesses, no_record,
        )  # fmt: skip
        if played == _OVERFLOW:
            counts[g, 0] = REPLAY
            continue
        counts[g, 0] = FINISHED if board[2 * words + 2] >= 2 else CUT
        counts[g, 1] = played
        counts[g, 2] = moves
        counts[g, 3], counts[g, 4] = _scores(board[:words], board[words : 2 * words], nbr)
        counts[g, 5] = n_stones


@njit
def _recorded_game(streams, max_actions, nbr, balancing, all_growth, record):
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    board = np.zeros(2 * words + 4, np.int64)
    root_board = np.zeros(2 * words, np.int64)
    stones = np.empty(n_points, np.int64)
    witnesses = np.empty((_WITNESS_CAP if all_growth else 1, words + 1), np.int64)
    n_witnesses = np.zeros(1, np.int64)
    played, _, _ = _play(
        board,
        root_board,
        stones,
        streams.copy(),
        False,
        max_actions,
        nbr,
        balancing,
        all_growth,
        witnesses,
        n_witnesses,
        record,
    )
    return board, played


@njit
def _rollout(board, root_board, stones, witnesses, n_witnesses, budget, stream, nbr, balancing, all_growth):
    """A random rollout from ``board`` (see ``_play``), one stream for both players: White's
    value, the stream's new state, and a status (0, or ``_OVERFLOW``)."""
    words = (nbr.shape[0] + 31) >> 5
    streams = np.empty(1, np.uint64)
    streams[0] = stream
    played, _, _ = _play(
        board, root_board, stones, streams, True, budget, nbr, balancing, all_growth, witnesses, n_witnesses,
        np.empty(0, np.int64),
    )  # fmt: skip
    if played == _OVERFLOW:
        return 0.0, stream, _OVERFLOW
    white, black = board[:words], board[words : 2 * words]
    if board[2 * words + 2] >= 2:
        s_white, s_black = _scores(white, black, nbr)
        return (0.0 if s_white == s_black else (1.0 if s_white > s_black else -1.0)), streams[0], 1
    return _area_lead(white, black, nbr), streams[0], 0


@njit
def _write_notations(finals, size, text):
    """``rows side grown passes`` of each row of ``finals`` into ``text`` (``SygoState.notation``)."""
    n_points = size * size
    words = (n_points + 31) >> 5
    at_side = 2 * words
    for g in range(finals.shape[0]):
        row, out = finals[g], text[g]
        white, black = row[:words], row[words : 2 * words]
        at = 0
        for number in range(size, 0, -1):
            if number < size:
                out[at] = 47  # /
                at += 1
            for p in range((number - 1) * size, number * size):
                out[at] = 87 if _has(white, p) else (66 if _has(black, p) else 46)  # W B .
                at += 1
        out[at] = 32
        out[at + 1] = 87 if row[at_side] == 0 else 66
        out[at + 2] = 32
        out[at + 3] = 103 if row[at_side + 1] else 45  # g -
        out[at + 4] = 32
        out[at + 5] = 48 + row[at_side + 2]


# ----------------------------------------------------------------------------- the Python side


def _neighbours(size: int) -> np.ndarray:
    """Each point's neighbours (the engine's ``Geometry.neighbours``), padded with -1."""
    nbr = np.full((size * size, 4), -1, np.int64)
    for p in range(size * size):
        row, column = divmod(p, size)
        found = [q for q, ok in ((p - size, row > 0), (p - 1, column > 0), (p + 1, column < size - 1),
                                 (p + size, row < size - 1)) if ok]  # fmt: skip
        nbr[p, : len(found)] = found
    return nbr


def _words(mask: int, n_words: int) -> list[int]:
    return [(mask >> (32 * w)) & 0xFFFFFFFF for w in range(n_words)]


def _mask(words) -> int:
    return sum(int(word) << (32 * w) for w, word in enumerate(words))


class SygoKernel:
    """The ``PlayoutKernel`` of Sygo: every rules config (see the module docstring)."""

    def __init__(self):
        self._nbr: dict[int, np.ndarray] = {}

    def supports(self, game) -> bool:
        return isinstance(game, SygoGame)

    def _rules(self, game) -> tuple[np.ndarray, bool, bool]:
        size = game.options["size"]
        if size not in self._nbr:
            self._nbr[size] = _neighbours(size)
        return self._nbr[size], bool(game.options["balancing"]), game.options["growth"] == "all"

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        n, size = len(streams), game.options["size"]
        n_points = size * size
        words = (n_points + 31) >> 5
        finals = np.zeros((n, 4 * words + 4), np.int64)
        counts = np.zeros((n, 6), np.int64)
        stones = np.full((n, n_points), -1, np.int64)
        _random_games(streams.copy(), max_actions, *self._rules(game), finals, counts, stones)
        width = n_points + size - 1 + 6
        text = np.zeros((n, width), np.uint8)
        _write_notations(finals, size, text)
        final = text.view(f"S{width}")[:, 0].astype(object)
        for g in np.flatnonzero(finals[:, 2 * words + 3]):  # cut during a turn: the engine's snapshot
            final[g] = self._snapshot(game, finals[g], stones[g, : counts[g, 5]]).encode()
        final = final.astype(f"S{max(map(len, final), default=1)}")
        scores = counts[:, 3:5].copy()
        winners = np.where(scores[:, 0] > scores[:, 1], 1, np.where(scores[:, 0] < scores[:, 1], 2, 3))
        outcome = counts[:, 0].astype(np.int8)
        return PlayedGames(
            outcome=outcome,
            winners=winners,
            scores=scores,
            reason=np.zeros(n, np.int8),
            reasons=("standard",),
            n_turns=counts[:, 2].astype(np.int32),  # the players alternate: a turn is one move
            n_moves=counts[:, 2].astype(np.int32),
            n_actions=counts[:, 1].astype(np.int32),
            final=final,
        )

    @staticmethod
    def _snapshot(game, row: np.ndarray, stones: np.ndarray) -> str:
        """The engine's snapshot of a turn in progress: its start position, then its stones."""
        words = (game.options["size"] ** 2 + 31) >> 5
        at = 2 * words
        start = row[at + 4 :]
        state = SygoState(
            game, _mask(start[:words]), _mask(start[words:]), int(row[at]), bool(row[at + 1]), int(row[at + 2])
        )
        for p in stones.tolist():
            state.apply_action(FIRST_PLACE + state.geom.points + p)
        return canonical_json(state.snapshot())

    def recorded_game(self, game, streams: np.ndarray, max_actions: int) -> tuple[np.ndarray, list[int]]:
        """One random game: its final board array and its actions."""
        record = np.empty(max_actions, np.int64)
        board, played = _recorded_game(streams.copy(), max_actions, *self._rules(game), record)
        return board, record[:played].tolist()

    def rollout(self, state: SygoState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return (state.returns() if state.is_terminal() else state.evaluate()), stream
        nbr, balancing, all_growth = self._rules(state.game)
        words = (len(nbr) + 31) >> 5
        board = np.array([*_words(state.white, words), *_words(state.black, words), state.to_move, state.grown,
                          state.passes, state.mid_turn()], np.int64)  # fmt: skip
        stones = np.full(len(nbr), -1, np.int64)
        stones[: len(state.stones)] = state.stones
        root_board = np.zeros(2 * words, np.int64)
        turn = state._turn
        if state.mid_turn():
            mover, opponent = turn.root.mover, turn.root.opponent
            white, black = (mover, opponent) if state.to_move == 0 else (opponent, mover)
            root_board[:] = _words(white, words) + _words(black, words)
        witnesses = np.zeros((_WITNESS_CAP if all_growth else 1, words + 1), np.int64)
        n_witnesses = np.zeros(1, np.int64)
        if all_growth and turn is not None:  # the engine's turn keeps the maximal moves it has found
            for i, (grown, q) in enumerate(turn.witnesses[:_WITNESS_CAP]):
                witnesses[i] = [*_words(grown, words), -1 if q is None else q]
            n_witnesses[0] = min(len(turn.witnesses), _WITNESS_CAP)
        value, after, status = _rollout(
            board, root_board, stones, witnesses, n_witnesses, budget, np.uint64(stream), nbr, balancing, all_growth
        )
        if status == _OVERFLOW:
            from ...kernels import random_rollout

            return random_rollout(state.clone(), budget, stream)
        if status == 1:
            return [value, -value] if value else [0.0, 0.0], int(after)
        return [value, -value], int(after)


KERNEL = SygoKernel()
