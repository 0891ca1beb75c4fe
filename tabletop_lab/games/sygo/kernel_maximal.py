"""The Sygo kernel's ``growth="all"`` search (see ``kernel.py``): ``Turn.completable_all``
and the maximal-move search behind it (``Turn._search_maximal``: an explicit stack in the
engine's order with the same cuts and the same 5,000-state budget), with the witnesses (maximal
moves found earlier in the turn) the engine keeps per turn. Only ``_run_all`` compiles it in: a
``growth="any"`` game never compiles this module's functions.
"""

from __future__ import annotations

import numpy as np

from ...jit import copy_into, njit
from .growth import SEARCH_LIMIT
from .kernel_bits import (
    _BALANCING_NOW,
    _BOARD_FULL,
    _DEBRUIJN,
    _LIBS,
    _N_START_GROUPS,
    _NBR,
    _NODE_ADDED,
    _NODE_CAPTURED,
    _NODE_CLOSED,
    _NODE_FIELDS,
    _NODE_GROWN,
    _NODE_MOVER,
    _NODE_OPP,
    _OID,
    _START,
    _STONES,
    _TOUCH,
    _TV_COUNTS,
    _TV_GROWABLE,
    _is_zero,
    _points,
    _subset,
)
from .kernel_growth import _FIXED, _NONE, _completable, _order_ok
from .kernel_turn import _add_sources, _flood, _lowest_dead, _position, _sources_free, _touches_mover

_BUDGET = SEARCH_LIMIT  # Turn.completable_all's search limit (states explored), the default only
#: rows of ``_search_maximal``'s bitsets (``sets``): its state (growth stones, start groups used,
#: start groups idle), its constants (groups that cannot grow at all, the empty points), then
#: scratch for ``_extended`` and what it calls
_S_EXTRA, _S_USED, _S_IDLE, _S_IDLE_CLOSED, _S_EMPTY = range(5)
_S_BLOCKED, _S_STUCK, _S_MOVED, _S_ZONE, _S_WITHIN, _S_SOURCES = range(5, 11)
_S_ROWS = 11
#: columns of its ``candidates`` (the points that may extend every move below a state): the
#: point, then its opponent groups (-1 after the last)
_X, _WALLS = 0, 1
_CANDIDATE_COLUMNS = 5


# ----------------------------------------------------------------------------- growth="all"


@njit
def _extension(grown, q, turn):
    """A stone some legal move with growth set ⊋ ``grown`` and placement ``q`` adds, or -1
    (``Turn.extension``)."""
    pt, tb, tv, wb, wp = turn
    words = grown.shape[0]
    root, growable = tv[: _NODE_FIELDS * words], tv[_TV_GROWABLE * words : _TV_COUNTS * words]
    used = np.zeros(words, np.int64)
    pts = np.empty(pt.shape[0], np.int64)
    n = _points(grown, pts)
    for i in range(n):
        _add_sources(pts[i], pt, used)
    n = _points(growable & ~grown, pts)
    mode = _NONE if q < 0 else _FIXED
    for i in range(n):
        p = pts[i]
        if not _sources_free(p, pt, used) or p == q:
            continue
        wider = grown.copy()
        wider[p >> 5] |= np.int64(1) << (p & 31)
        if _order_ok(root, wider, turn) and _completable(root, wider, mode, q, turn):
            return p
    return -1


@njit
def _grow_greedily(node, mode, q, turn):
    """``Turn._grow_greedily``: the growth stones added greedily after ``node``."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    growable = tv[_TV_GROWABLE * words : _TV_COUNTS * words]
    added = node[_NODE_ADDED * words : _NODE_MOVER * words]
    extra = np.zeros(words, np.int64)
    used = node[_NODE_GROWN * words : _NODE_CLOSED * words] | node[_NODE_CLOSED * words : _NODE_CAPTURED * words]
    pts = np.empty(pt.shape[0], np.int64)
    more = True
    while more:
        more = False
        n = _points(growable & ~added & ~extra, pts)
        for i in range(n):
            p = pts[i]
            if not _sources_free(p, pt, used) or p == q:
                continue
            wider = extra.copy()
            wider[p >> 5] |= np.int64(1) << (p & 31)
            if _order_ok(node, wider, turn) and _completable(node, wider, mode, q, turn):
                extra = wider
                _add_sources(p, pt, used)
                more = True
    return extra


@njit
def _completable_all(node, turn, found, witnesses, n_witnesses):
    """``Turn.completable_all``: whether a maximal legal move can still be reached from
    ``node``; records witnesses (``n_witnesses[0]`` of them, -1 once the store overflowed).
    ``found`` is scratch: its first row receives the growth set a search finds."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    added, mover, opp = (
        node[_NODE_ADDED * words : _NODE_MOVER * words],
        node[_NODE_MOVER * words : _NODE_OPP * words],
        node[_NODE_OPP * words : _NODE_GROWN * words],
    )
    if _witnessed(node, turn, witnesses, n_witnesses):
        return True
    ends = np.empty(pt.shape[0] + 1, np.int64)
    ends[0] = -1
    n_ends = 1
    if tv[_TV_COUNTS * words + _BALANCING_NOW]:
        for q in range(pt.shape[0]):
            if (
                not ((mover[q >> 5] >> (q & 31)) & 1)
                and not ((opp[q >> 5] >> (q & 31)) & 1)
                and not _touches_mover(q, mover, pt)
            ):
                ends[n_ends] = q
                n_ends += 1
    zero = np.zeros(words, np.int64)
    n_open = 0  # the ends that _completable passes, moved to the front of ``ends``
    for e in range(n_ends):
        q = ends[e]
        mode = _NONE if q < 0 else _FIXED
        if _completable(node, zero, mode, q, turn):
            ends[n_open] = q
            n_open += 1
            grown = added | _grow_greedily(node, mode, q, turn)
            if _extension(grown, q, turn) < 0:
                return _witness(grown, q, witnesses, n_witnesses)
    budget = np.full(1, _BUDGET, np.int64)
    grown = found[0, :words]
    for e in range(n_open):  # none: no legal move at all can be reached, an exact no
        answer = _search_maximal(node, ends[e], turn, budget, grown)
        if answer > 0:
            return _witness(grown.copy(), ends[e], witnesses, n_witnesses)
        if answer < 0:
            return False
    return False


@njit
def _quiet(node, pt, tv):
    """``Turn.quiet``: the quiet growth points, as a bitset."""
    words = node.shape[0] // 6
    root_mover, root_opp, growable = (
        tv[_NODE_MOVER * words : _NODE_OPP * words],
        tv[_NODE_OPP * words : _NODE_GROWN * words],
        tv[_TV_GROWABLE * words : _TV_COUNTS * words],
    )
    quiet = np.zeros(words, np.int64)
    sources = np.zeros(words, np.int64)
    around = np.zeros(words, np.int64)
    for x in range(pt.shape[0]):
        if not (growable[x >> 5] >> (x & 31)) & 1:
            continue
        sources[:] = 0
        _add_sources(x, pt, sources)
        ok, breathes = True, False
        for k in range(4):
            y = pt[x, _NBR + k]
            if y < 0:
                break
            if (root_opp[y >> 5] >> (y & 31)) & 1:
                ok = False
                break
            if (root_mover[y >> 5] >> (y & 31)) & 1:
                continue
            breathes = True
            around[:] = 0
            _add_sources(y, pt, around)
            if not _subset(around, sources):
                ok = False
                break
        if ok and breathes:
            quiet[x >> 5] |= np.int64(1) << (x & 31)
    return quiet


@njit
def _kept_empty(e, q, sets, pt):
    """Whether no move below a search state fills the point ``e``: empty now (row _S_EMPTY of
    ``sets``), not among the growth stones (_S_EXTRA), not the placement ``q``, and no growth
    point (no sources, or one in the group set _S_BLOCKED: grown, closed or idle)."""
    empty, extra = sets[_S_EMPTY], sets[_S_EXTRA]
    if e == q or not (empty[e >> 5] >> (e & 31)) & 1 or (extra[e >> 5] >> (e & 31)) & 1:
        return False
    return not _sources_free(e, pt, sets[_S_BLOCKED])


@njit
def _extended(node, q, sets, candidates, n_candidates, x_sources, pt, tb, stack):
    """``_search_maximal``'s second cut: whether some point ``x`` of the first ``n_candidates``
    rows of ``candidates`` (column _X, its opponent groups from _WALLS; its sources in that row of
    ``x_sources``) extends every legal move below the state (rows _S_EXTRA, _S_USED, _S_IDLE of
    ``sets``). Rows _S_BLOCKED to _S_SOURCES of ``sets`` and ``stack`` are scratch."""
    words = sets.shape[1]
    extra, used, idle, idle_closed = sets[_S_EXTRA], sets[_S_USED], sets[_S_IDLE], sets[_S_IDLE_CLOSED]
    blocked, stuck, moved, zone, within = (
        sets[_S_BLOCKED],
        sets[_S_STUCK],
        sets[_S_MOVED],
        sets[_S_ZONE],
        sets[_S_WITHIN],
    )
    for w in range(words):
        blocked[w] = used[w] | idle[w]
        stuck[w] = idle[w] | idle_closed[w]
    for i in range(n_candidates):
        x = candidates[i, _X]
        if not _subset(x_sources[i], stuck):
            continue
        for w in range(words):
            within[w] = node[_NODE_MOVER * words + w] | extra[w]
            moved[w] = 0
        walled = True
        for k in range(4):
            h = candidates[i, _WALLS + k]
            if h < 0:
                break
            kept = False
            for w in range(words):
                word = tb[_LIBS, h, w]
                while word and not kept:
                    low = word & -word
                    word ^= low
                    e = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                    kept = e != x and _kept_empty(e, q, sets, pt)
                if kept:
                    break
            if kept:
                continue
            if not _captured_last(h, x, node, q, sets, pt, tb):
                walled = False
                break
            for w in range(words):
                within[w] |= tb[_STONES, h, w]
        if not walled:
            continue
        for w in range(words):  # the stones moved first: their captures stay harmless
            word = moved[w]
            while word and walled:
                low = word & -word
                word ^= low
                stone = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                for j in range(4):
                    y = pt[stone, _NBR + j]
                    if y < 0:
                        break
                    k = pt[y, _OID]
                    if k >= 0 and not _movable(k, stone, x_sources[i], node, q, sets, pt, tb):
                        walled = False
                        break
        if not walled:
            continue
        within[x >> 5] |= np.int64(1) << (x & 31)
        _flood(x, within, zone, pt, stack)
        for w in range(words):
            word = zone[w]
            while word:
                low = word & -word
                word ^= low
                z = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                for k in range(4):
                    y = pt[z, _NBR + k]
                    if y < 0:
                        break
                    if y != x and _kept_empty(y, q, sets, pt):
                        return True
    return False


@njit
def _captured_last(h, x, node, q, sets, pt, tb):
    """``Turn._search_maximal``'s ``captured_last``: whether ``x`` fills the last liberty of
    opponent group ``h`` in every move below (growth stones: row _S_EXTRA of ``sets``), each
    start group next to ``h`` grown before the capture or never (the groups of row _S_STUCK
    never grow); the growth stones that must then come first join row _S_MOVED."""
    words = sets.shape[1]
    extra, stuck, moved = sets[_S_EXTRA], sets[_S_STUCK], sets[_S_MOVED]
    x_bit = np.int64(1) << (x & 31)
    other_in_extra = False
    for w in range(words):
        others = tb[_LIBS, h, w] & ~(x_bit if w == x >> 5 else np.int64(0))
        if others & ~(node[w] | extra[w]):
            return False
        other_in_extra = other_in_extra or (others & extra[w]) != 0
    if q >= 0:
        if (tb[_STONES, h, q >> 5] >> (q & 31)) & 1:
            return False
        for k in range(4):
            y = pt[q, _NBR + k]
            if y < 0:
                break
            if (tb[_STONES, h, y >> 5] >> (y & 31)) & 1:
                return False
    for w in range(words):
        word = tb[_TOUCH, h, w] & ~stuck[w]
        while word:
            low = word & -word
            word ^= low
            g = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            stone = _grower(g, node, sets, pt)
            if stone < 0:
                return False
            liberty = stone != x and (tb[_LIBS, h, stone >> 5] >> (stone & 31)) & 1
            prefix = (node[stone >> 5] >> (stone & 31)) & 1
            if not (liberty or (prefix and other_in_extra)):
                moved[stone >> 5] |= np.int64(1) << (stone & 31)
    return True


@njit
def _grower(g, node, sets, pt):
    """The growth stone (prefix or row _S_EXTRA of ``sets``) that grows start group ``g``, or -1;
    row _S_SOURCES is scratch."""
    words = sets.shape[1]
    extra, sources = sets[_S_EXTRA], sets[_S_SOURCES]
    for v in range(words):
        filled = node[v] | extra[v]
        while filled:
            bit = filled & -filled
            filled ^= bit
            s = (v << 5) + _DEBRUIJN[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]
            sources[:] = 0
            _add_sources(s, pt, sources)
            if (sources[g >> 5] >> (g & 31)) & 1:
                return s
    return -1


@njit
def _movable(k, stone, x_sources, node, q, sets, pt, tb):
    """``Turn._search_maximal``'s ``movable``: whether moving ``stone`` to the front of the order
    with the others of row _S_MOVED of ``sets`` keeps the capture of opponent group ``k``
    harmless (``x_sources``: the sources of the point that would extend every move)."""
    words = sets.shape[1]
    moved, stuck = sets[_S_MOVED], sets[_S_STUCK]
    for w in range(words):
        word = tb[_LIBS, k, w]
        while word:
            low = word & -word
            word ^= low
            e = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            if e != stone and _kept_empty(e, q, sets, pt):
                return True
    all_moved, touches_x = True, False
    for w in range(words):
        all_moved = all_moved and not (tb[_LIBS, k, w] & ~moved[w])
        touches_x = touches_x or (tb[_TOUCH, k, w] & x_sources[w]) != 0
    if all_moved and touches_x:
        return False
    for w in range(words):
        word = tb[_TOUCH, k, w] & ~stuck[w]
        while word:
            low = word & -word
            word ^= low
            g = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            other = _grower(g, node, sets, pt)
            if other < 0 or not (tb[_LIBS, k, other >> 5] >> (other & 31)) & 1:
                return False
    return True


@njit
def _ends_legally(filled, q, pt, tb, tv, wb):
    """``Turn._ends_legally``: whether the growth set ``filled`` ends legally by ``q`` (-1: finish)."""
    words = filled.shape[0]
    mover, opp = np.empty(words, np.int64), np.empty(words, np.int64)
    _position(filled, tb, tv, mover, opp)
    if q >= 0:
        if ((mover[q >> 5] >> (q & 31)) & 1) or ((opp[q >> 5] >> (q & 31)) & 1) or _touches_mover(q, mover, pt):
            return False
        with_q = filled.copy()
        with_q[q >> 5] |= np.int64(1) << (q & 31)
        _position(with_q, tb, tv, mover, opp)
    return _lowest_dead(mover, opp, wb) < 0


@njit
def _search_maximal(node, q, turn, budget, out):
    """``Turn._search_maximal``, depth first with an explicit stack, in the engine's order:
    1 (the growth set found in ``out``), 0 (none), -1 (past ``budget[0]`` states)."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    n_points = pt.shape[0]
    n_groups = tv[_TV_COUNTS * words + _N_START_GROUPS]
    added, grown0, closed0 = (
        node[_NODE_ADDED * words : _NODE_MOVER * words],
        node[_NODE_GROWN * words : _NODE_CLOSED * words],
        node[_NODE_CLOSED * words : _NODE_CAPTURED * words],
    )
    mode = _NONE if q < 0 else _FIXED
    sets = np.zeros((_S_ROWS, words), np.int64)  # the search's bitsets
    empty = sets[_S_EMPTY]
    for w in range(words):
        empty[w] = wb[_BOARD_FULL, w] & ~(node[_NODE_MOVER * words + w] | node[_NODE_OPP * words + w])
    free = empty.copy()
    if q >= 0:
        free[q >> 5] &= ~(np.int64(1) << (q & 31))
        for k in range(4):
            y = pt[q, _NBR + k]
            if y < 0:
                break
            free[y >> 5] &= ~(np.int64(1) << (y & 31))
    quiet = _quiet(node, pt, tv) & free
    # each start group's growth points: the empty points next to its stones at the turn's start
    liberties = np.zeros((n_groups, words), np.int64)
    for g in range(n_groups):
        for p in range(n_points):
            if (tb[_START, g, p >> 5] >> (p & 31)) & 1:
                for k in range(4):
                    y = pt[p, _NBR + k]
                    if y < 0:
                        break
                    if (tv[_TV_GROWABLE * words + (y >> 5)] >> (y & 31)) & 1:
                        liberties[g, y >> 5] |= np.int64(1) << (y & 31)
    # the points that may extend every move below a state, their sources and opponent groups
    candidates = np.full((n_points, _CANDIDATE_COLUMNS), -1, np.int64)
    x_sources = np.zeros((n_points, words), np.int64)
    n_xs = 0
    for x in range(n_points):
        if not ((tv[_TV_GROWABLE * words + (x >> 5)] & free[x >> 5]) >> (x & 31)) & 1:
            continue
        _add_sources(x, pt, x_sources[n_xs])
        if not _is_zero(x_sources[n_xs] & grown0):
            x_sources[n_xs] = 0
            continue
        candidates[n_xs, _X] = x
        n_walls = 0
        for k in range(4):
            y = pt[x, _NBR + k]
            if y < 0:
                break
            h = pt[y, _OID]
            if h < 0 or (node[_NODE_CAPTURED * words + (h >> 5)] >> (h & 31)) & 1:
                continue
            seen = False
            for j in range(n_walls):
                seen = seen or candidates[n_xs, _WALLS + j] == h
            if not seen:
                candidates[n_xs, _WALLS + n_walls] = h
                n_walls += 1
        n_xs += 1
    blocked = grown0 | closed0
    idle_closed = sets[_S_IDLE_CLOSED]  # and the groups that cannot grow at all
    for w in range(words):
        idle_closed[w] = closed0[w] & ~grown0[w]
    zero = np.zeros(words, np.int64)
    wider, filled, sources = np.empty(words, np.int64), np.empty(words, np.int64), sets[_S_SOURCES]
    quiet_sources = np.empty((n_points, words), np.int64)
    scratch = np.empty(n_points, np.int64)
    for g in range(n_groups):
        if not (blocked[g >> 5] >> (g & 31)) & 1:
            points = liberties[g] & free
            if _choices(node, points, zero, blocked, zero, turn, scratch, quiet_sources, wider, sources) == 0:
                idle_closed[g >> 5] |= np.int64(1) << (g & 31)
    # the groups first whose choice can settle _extended for a point whose sources cannot grow
    first = np.zeros(words, np.int64)
    for i in range(n_xs):
        if _subset(x_sources[i], idle_closed):
            for k in range(4):
                h = candidates[i, _WALLS + k]
                if h < 0:
                    break
                first |= tb[_TOUCH, h]
                for e in range(n_points):
                    if e != candidates[i, _X] and ((tb[_LIBS, h, e >> 5] & empty[e >> 5]) >> (e & 31)) & 1:
                        _add_sources(e, pt, first)
                for y in range(n_groups):  # and of the groups its growth stones touch
                    if not (tb[_TOUCH, h, y >> 5] >> (y & 31)) & 1:
                        continue
                    for p in range(n_points):
                        if not ((liberties[y, p >> 5] & empty[p >> 5]) >> (p & 31)) & 1:
                            continue
                        for j in range(4):
                            z = pt[p, _NBR + j]
                            if z < 0:
                                break
                            k2 = pt[z, _OID]
                            if k2 < 0:
                                continue
                            for e in range(n_points):
                                if e != p and ((tb[_LIBS, k2, e >> 5] & empty[e >> 5]) >> (e & 31)) & 1:
                                    _add_sources(e, pt, first)
    first &= ~(blocked | idle_closed)
    sequence = np.empty(n_groups, np.int64)
    n_sequence = 0
    for g in range(n_groups):
        if (first[g >> 5] >> (g & 31)) & 1:
            sequence[n_sequence] = g
            n_sequence += 1
    for g in range(n_groups):
        if not ((first[g >> 5] | idle_closed[g >> 5]) >> (g & 31)) & 1:
            sequence[n_sequence] = g
            n_sequence += 1
    # the stack: per depth the state (growth stones, groups used, groups idle), the group it
    # branches on (its index in ``sequence``), its choices and the next one to try (n_choices:
    # the idle branch; past it: done)
    depth_max = n_groups + 2
    st_extra = np.zeros((depth_max, words), np.int64)
    st_used = np.zeros((depth_max, words), np.int64)
    st_idle = np.zeros((depth_max, words), np.int64)
    st_group = np.zeros(depth_max, np.int64)
    st_choices = np.empty((depth_max, n_points), np.int64)
    st_n = np.zeros(depth_max, np.int64)
    st_next = np.zeros(depth_max, np.int64)
    extra, used, idle = sets[_S_EXTRA], sets[_S_USED], sets[_S_IDLE]  # the state
    for w in range(words):
        used[w] = blocked[w]
        idle[w] = idle_closed[w] & ~blocked[w]
    start = 0
    stack = np.empty(n_points, np.int64)
    depth = 0
    while True:
        # enter the state (extra, used, idle, start)
        budget[0] -= 1
        if budget[0] < 0:
            return -1
        live = not _extended(node, q, sets, candidates, n_xs, x_sources, pt, tb, stack) and _completable(
            node, extra, mode, q, turn
        )
        if live:
            branch = -1
            n_choices = 0
            for i in range(start, n_sequence):
                g = sequence[i]
                if ((used[g >> 5] | idle[g >> 5]) >> (g & 31)) & 1:
                    continue
                n_choices = _choices(
                    node,
                    liberties[g] & free & ~extra,
                    extra,
                    used | idle,
                    quiet,
                    turn,
                    st_choices[depth],
                    quiet_sources,
                    wider,
                    sources,
                )
                if n_choices:
                    branch = i
                    break
                idle[g >> 5] |= np.int64(1) << (g & 31)  # it cannot grow below
            if branch < 0:
                for w in range(words):
                    filled[w] = added[w] | extra[w]
                if _ends_legally(filled, q, pt, tb, tv, wb) and _extension(filled, q, turn) < 0:
                    copy_into(out, filled)
                    return 1
            else:
                copy_into(st_extra[depth], extra)
                copy_into(st_used[depth], used)
                copy_into(st_idle[depth], idle)
                st_group[depth] = branch
                st_n[depth] = n_choices
                st_next[depth] = 0
                depth += 1
        # the next state: the deepest frame's next branch
        while depth:
            d = depth - 1
            g = sequence[st_group[d]]
            c = st_next[d]
            st_next[d] = c + 1
            if c < st_n[d]:
                p = st_choices[d, c]
                copy_into(extra, st_extra[d])
                extra[p >> 5] |= np.int64(1) << (p & 31)
                copy_into(used, st_used[d])
                _add_sources(p, pt, used)
                copy_into(idle, st_idle[d])
                start = st_group[d] + 1
                break
            if c == st_n[d]:
                copy_into(extra, st_extra[d])
                copy_into(used, st_used[d])
                copy_into(idle, st_idle[d])
                idle[g >> 5] |= np.int64(1) << (g & 31)
                start = st_group[d] + 1
                break
            depth -= 1
        if depth == 0:
            return 0


@njit
def _choices(node, points, extra, blocked, quiet, turn, out, quiet_sources, wider, sources):
    """``Turn._choices`` into ``out``: the points of ``points`` that can join the growth stones
    ``extra`` (sources not in ``blocked``, an order exists), a quiet point dropped when a quiet
    point before it has the same sources; their number."""
    pt, tb, tv, wb, wp = turn
    words = extra.shape[0]
    n = 0
    n_quiet = 0
    for w in range(words):
        word = points[w]
        while word:
            low = word & -word
            word ^= low
            p = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            if not _sources_free(p, pt, blocked):
                continue
            copy_into(wider, extra)
            wider[p >> 5] |= low
            if not _order_ok(node, wider, turn):
                continue
            if (quiet[w] & low) != 0:
                sources[:] = 0
                _add_sources(p, pt, sources)
                repeated = False
                for j in range(n_quiet):
                    same = True
                    for v in range(words):
                        if quiet_sources[j, v] != sources[v]:
                            same = False
                            break
                    if same:
                        repeated = True
                        break
                if repeated:
                    continue
                copy_into(quiet_sources[n_quiet], sources)
                n_quiet += 1
            out[n] = p
            n += 1
    return n


@njit
def _witnessed(node, turn, witnesses, n_witnesses):
    """Whether a witness can still be reached from ``node`` (``Turn.witnessed``)."""
    pt, tb, tv, wb, wp = turn
    words = wb.shape[1]
    added = node[_NODE_ADDED * words : _NODE_MOVER * words]
    for i in range(n_witnesses[0]):
        grown = witnesses[i, :words]
        if _subset(added, grown) and _order_ok(node, grown & ~added, turn):
            return True
    return False


@njit
def _witness(grown, q, witnesses, n_witnesses):
    words = grown.shape[0]
    i = n_witnesses[0]
    if i < 0 or i == witnesses.shape[0]:
        n_witnesses[0] = -1
        return True
    copy_into(witnesses[i, :words], grown)
    witnesses[i, words] = q
    n_witnesses[0] = i + 1
    return True
