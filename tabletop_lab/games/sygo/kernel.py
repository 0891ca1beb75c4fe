"""Compiled playouts for Sygo (``tabletop_lab.kernels``): random games and rollouts.

Every rules config is played: board sizes 3 to 25, ``growth`` "any" and "all", ``balancing`` on
and off. The kernel is ``rules.py`` and ``growth.py`` written for numba, function by function, on
bitsets of 32-bit words in int64 arrays (point ``p`` is bit ``p & 31`` of word ``p >> 5``):

* a turn's start (``_start_turn``) numbers the mover's start groups and the opponent's groups
  (each stone holds its group's number: ``src(p)`` and the opponent groups an empty point is a
  liberty of are the numbers on its neighbours), with their stones and liberties; which start
  groups touch each opponent group is found when first needed. From scratch the groups are
  flooded word-parallel and numbered by their lowest point (the engine's numbering, which the
  compiled tree's keys need); in a game (``_play``) they carry over from turn to turn with their
  numbers (``_next_turn``): the mover loses the groups it reversed, and only the opponent's
  groups next to a stone the last turn added or reversed are flooded again;
* a node (``growth.Node``) is one array of six bitsets: stones added, mover's and opponent's
  stones now, start groups grown and closed, opponent groups reversed (``_step`` adds a stone);
* ``_legal_masks`` gives ``SygoState._legal_actions`` as two bitsets (placements, growth
  stones) plus finish: the draw needs only their number and the chosen one, in the engine's
  order (pass or finish, placements, growth stones, each by point), so no list is made. The
  engine's shortcut settles most candidates word-parallel (``_spread``, as ``Geometry.spread``
  does on Python ints); under ``growth="any"`` quick tests settle most others (a placement or
  growth stone whose own group breathes, ``_breathes_from``); ``_check_candidates`` decides the
  rest in the engine's order: ``_order_ok`` is ``Turn.order``, ``_completable`` is
  ``Turn.completable`` (its search as an explicit stack: whether some branch ends legally does
  not depend on the order the branches are tried), and under ``growth="all"``
  ``_completable_all``, ``_grow_greedily``, ``_extension`` and ``_search_maximal``
  (``Turn._search_maximal``, an explicit stack in the same order with the same cuts and the
  same 5,000-state budget) follow the engine, including the witnesses (maximal moves found
  earlier in the turn) that the engine keeps per turn, and the list's closure under the
  witnesses found while making it. A rollout starts from the witnesses of the state's turn
  analysis; it does not add the ones it finds to that shared analysis, as a Python rollout on
  a clone does, which can change a later ``growth="all"`` answer only past the budget.

Speed: the functions run at every action (``_borrowing``) take no views and run without
numba's reference counting, which took more than a third of a random game's time; suicide
tests are word-parallel (``_any_dead``, ``_lowest_dead``); most growth stones are settled
word-parallel (an empty neighbour, or a mover's stone next to them with two), and after them
the next action knows that every group breathes. A random 9x9 game (about 100 actions) costs
some 0.1 ms of CPU, a 19x19 one (about 400) some 1.2 ms; the turn's start is some 25% of it,
the tests of the other growth stones (breathing, completability) some 25%.

``supports()`` accepts every rules config, so ``simulate()`` and MCTS use the kernel for all of
them, including the statistics notebook's variants (7x7 with ``growth="all"``); under
``growth="all"`` only with the default engine parameter ``all_search_limit`` (the Python engine
plays any other). The first use on a machine compiles for some 30-45 s of CPU (numba caches the
result in ``__pycache__``). The growth="all" search has a compiled entry of its own
(``_run_all``; ``_run_any`` is compiled without it), so a growth="any" game never compiles it.

A game cut in the middle of a turn (``max_actions``) gets its final snapshot from the engine,
which replays the turn's stones from the turn's start position. ``REPLAY`` marks a game only
if a turn finds more than ``_WITNESS_CAP`` witnesses (never met in practice).
``tests/games/sygo/test_kernel.py`` proves kernel and engine equal game by game.
"""

from __future__ import annotations

import numba
import numpy as np

from ...compiled_search import uct_search
from ...core import canonical_json
from ...jit import choice_index, copy_into, grown_rows, next_draw, njit
from ...kernels import (
    CUT,
    FINISHED,
    REPLAY,
    PlayedGames,
    RecordedGame,
    TreeRoot,
    as_recorded,
    new_record,
    random_rollout,
)
from .growth import SEARCH_LIMIT
from .rules import FINISH, FIRST_PLACE, PASS, SygoGame, SygoState

__all__ = ["KERNEL"]

_BUDGET = SEARCH_LIMIT  # Turn.completable_all's search limit (states explored), the default only
_WITNESS_CAP = 1024
_OVERFLOW = -2  # _play's answer when the witness store overflows
_NONE, _FIXED, _ANY = 0, 1, 2  # Turn.completable's ``placement``
_DEBRUIJN = np.zeros(32, np.int64)
for _i in range(32):
    _DEBRUIJN[(((1 << _i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = _i


# ----------------------------------------------------------------------------- bitsets

#: ``jit.njit`` for small helpers and the game loop, inlined into their callers by numba (one
#: compiled module less to link and optimise at first use, no call in the hot loops).
_inline = numba.njit(cache=True, nogil=True, inline="always")

#: ``jit.njit`` without reference counting, for the functions run at every action: they never
#: allocate and only borrow the arrays their caller holds, yet numba increments and decrements
#: (atomically) the reference count of every array argument and view at each call, which took
#: more than a third of the time of a random game. Such a function cannot call one that allocates
#: (numba compiles callees with the caller's flags): ``_check_candidates`` makes those calls.
_borrowing = numba.njit(cache=True, nogil=True, _nrt=False)


@_borrowing
def _points_at(bits, at, words, out):
    """The points of the bitset ``bits[at:at + words]`` into ``out``, ascending; their number."""
    n = 0
    for w in range(words):
        word = bits[at + w]
        while word:
            low = word & -word
            out[n] = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            n += 1
            word ^= low
    return n


@_borrowing
def _points(bs, out):
    """The points of ``bs`` into ``out``, ascending; their number."""
    return _points_at(bs, 0, bs.shape[0], out)


@_inline
def _is_zero(bs):
    for w in range(bs.shape[0]):
        if bs[w]:
            return False
    return True


@_inline
def _subset(a, b):
    """Whether every point of ``a`` is in ``b``."""
    for w in range(a.shape[0]):
        if a[w] & ~b[w]:
            return False
    return True


@_borrowing
def _count_at(bits, at, words):
    n = 0
    for w in range(words):
        n += _popcount(bits[at + w])
    return n


@njit
def _count(bs):
    return _count_at(bs, 0, bs.shape[0])


@_inline
def _popcount(word):
    """The set bits of a 32-bit word."""
    word = word - ((word >> 1) & 0x55555555)
    word = (word & 0x33333333) + ((word >> 2) & 0x33333333)
    word = (word + (word >> 4)) & 0x0F0F0F0F
    return ((word * 0x01010101) & 0xFFFFFFFF) >> 24


@_borrowing
def _nth_point(bits, at, words, k):
    """The ``k``-th point (from 0) of the bitset ``bits[at:at + words]``, ascending."""
    for w in range(words):
        word = bits[at + w]
        c = _popcount(word)
        if k < c:
            for _ in range(k):
                word &= word - 1
            low = word & -word
            return (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
        k -= c
    return -1


# ----------------------------------------------------------------------------- layouts
# A node: node[k * W:(k + 1) * W] for k = 0 added, 1 mover, 2 opponent, 3 grown, 4 closed,
# 5 captured (W words). The turn's start, three arrays: ``pt`` (per point: start group, opponent
# group, -1 where none; then its 4 neighbours, fixed: a point's sources and the opponent groups it
# is a liberty of are the numbers on its neighbours),
# ``tb`` (bitsets per opponent group: 0 liberties, 1 stones, 2 start groups touching it, filled
# when first needed; per start group: 3 its stones, 4 its liberties), ``tv`` (the root node, the
# growable points, then the number of start groups and of opponent groups (numbers without a
# group are allowed: no stones, no liberties), balancing, all_growth, whether plane 2 is filled). Scratch: ``wb`` bitset rows, ``wp`` point-list rows, and for the code run at
# every action ``fb``, flat bitsets (row r at fb[r * W:(r + 1) * W], the board size last) that it
# indexes with offsets rather than views.

_GID, _OID, _NBR = 0, 1, 2  # _NBR: the 4 neighbours (fixed), -1 after the last
_LIBS, _STONES, _TOUCH, _START, _MLIBS = range(5)  # per start group: _START its stones, _MLIBS its liberties
# wb rows
_SEEN, _USED, _SINGLE, _FILLED, _MOVER, _OPP, _AROUND, _QBIT, _REMAINING, _GROUP, _ADDED, _ZERO = range(12)
_BOARD_FULL, _BOARD_NOT_FIRST, _BOARD_NOT_LAST, _BOARD_SIZE, _LIVE, _FRONT, _EXTRA = range(12, 19)
_WB_ROWS = 19  # _ZERO stays 0, the _BOARD rows are fixed: fb's first three rows and the size
# fb rows, the first three fixed
_FULL, _NOT_FIRST, _NOT_LAST, _EMPTY, _NEAR, _OPEN, _ALIVE, _WAVE = range(8)
_PLACE_OK, _GROW_OK, _PLACE_CHECK, _GROW_CHECK, _BREATHING = range(8, 13)  # _PLACE_CHECK, _GROW_CHECK adjacent
_FB_ROWS = 13
# wp rows
_STACK, _PTS, _ORDER, _CONSTRAINED = range(4)


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
def _start_turn(board, mover_at, opp_at, balancing, all_growth, pt, tb, tv, nbr, wb, last, reuse):
    """Fill ``pt``, ``tb``, ``tv`` for the position of the mover's stones ``board[mover_at:]``
    and the opponent's ``board[opp_at:]`` (``growth.Turn.__init__``).

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
        _label_all(board, mover_at, opp_at, pt, tb, tv, nbr, wb)
    tv[7 * words + 2] = balancing
    tv[7 * words + 3] = all_growth
    tv[7 * words + 4] = 0  # _TOUCH not filled yet


@_borrowing
def _label_all(board, mover_at, opp_at, pt, tb, tv, nbr, wb):
    """``_start_turn`` from scratch: the groups flooded word-parallel (``_flood_group``) from
    their lowest stone, the mover's first; each stone gets its group's number."""
    n_points = nbr.shape[0]
    words = wb.shape[1]
    for p in range(n_points):
        pt[p, _GID] = -1
        pt[p, _OID] = -1
    for i in range(7 * words):  # the root node, then the growable points
        tv[i] = 0
    for w in range(words):
        tv[words + w] = board[mover_at + w]
        tv[2 * words + w] = board[opp_at + w]
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
                tv[6 * words + v] |= tb[_MLIBS, g, v]  # growable
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
    tv[7 * words] = n_groups
    tv[7 * words + 1] = n_opp


@_borrowing
def _next_turn(board, mover_at, opp_at, pt, tb, tv, wb, last):
    """``_start_turn`` after the turn ``last`` ended on this board: the players swap roles
    (numbers on the stones, group planes), the mover loses the groups it reversed, the others'
    liberties are those still empty; the opponent's groups next to a stone the last turn added
    or reversed are flooded again with those stones (numbers: the lowest ones free), its other
    groups are as they were."""
    n_points = pt.shape[0]
    words = wb.shape[1]
    n_mover = tv[7 * words + 1]  # the last turn's opponent groups: the mover's now
    n_opp = tv[7 * words]
    for w in range(words):
        wb[_SINGLE, w] = board[opp_at + w] & ~tv[words + w]  # the stones the last turn added or reversed
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
    for i in range(7 * words):  # the root node, then the growable points
        tv[i] = 0
    for w in range(words):
        tv[words + w] = board[mover_at + w]
        tv[2 * words + w] = board[opp_at + w]
    for g in range(n_mover):
        if (last[5 * words + (g >> 5)] >> (g & 31)) & 1:  # reversed
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
                tv[6 * words + v] |= tb[_MLIBS, g, v]  # growable
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
    tv[7 * words] = n_mover
    tv[7 * words + 1] = n_opp


@_inline
def _label_stones(wb, pt, column, g):
    """Number ``g`` in column ``column`` of ``pt`` for each stone of row _LIVE of ``wb``."""
    for v in range(wb.shape[1]):
        word = wb[_LIVE, v]
        while word:
            low = word & -word
            word ^= low
            pt[(v << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27], column] = g


@_borrowing
def _touching(pt, tb, tv, wb):
    """Fill ``tb``'s plane _TOUCH: the start groups next to each opponent group."""
    words = wb.shape[1]
    for h in range(tv[7 * words + 1]):
        for v in range(words):
            wb[_LIVE, v] = tb[_STONES, h, v]
            tb[_TOUCH, h, v] = 0
        _spread_rows(wb, np.int64(_LIVE), np.int64(_FRONT))
        for v in range(words):
            word = wb[_FRONT, v] & tv[words + v]
            while word:
                low = word & -word
                word ^= low
                g = pt[(v << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27], _GID]
                tb[_TOUCH, h, g >> 5] |= np.int64(1) << (g & 31)
    tv[7 * words + 4] = 1


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


@_borrowing
def _dead(mover, opp, nbr, seen, stack):
    """The lowest stone of the mover's groups without liberties, or -1 (``Turn.dead``)."""
    seen[:] = 0
    for p in range(nbr.shape[0]):
        if not ((mover[p >> 5] >> (p & 31)) & 1) or ((seen[p >> 5] >> (p & 31)) & 1):
            continue
        seen[p >> 5] |= np.int64(1) << (p & 31)
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
                if (mover[y >> 5] >> (y & 31)) & 1:
                    if not ((seen[y >> 5] >> (y & 31)) & 1):
                        seen[y >> 5] |= np.int64(1) << (y & 31)
                        stack[top] = y
                        top += 1
                elif not ((opp[y >> 5] >> (y & 31)) & 1):
                    breathes = True
        if not breathes:
            return p
    return -1


@_borrowing
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
def _flood(p, within, out, nbr, stack):
    """The points of ``within`` connected to ``p`` into ``out``."""
    out[:] = 0
    out[p >> 5] |= np.int64(1) << (p & 31)
    stack[0] = p
    top = 1
    while top:
        top -= 1
        x = stack[top]
        for k in range(4):
            y = nbr[x, k]
            if y < 0:
                break
            if ((within[y >> 5] >> (y & 31)) & 1) and not ((out[y >> 5] >> (y & 31)) & 1):
                out[y >> 5] |= np.int64(1) << (y & 31)
                stack[top] = y
                top += 1


@_borrowing
def _breathes_from(p, mover, opp, nbr, wb, wp):
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
            y = nbr[x, k]
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
        mover[w] = tv[words + w] | filled[w]
        opp[w] = tv[2 * words + w]
    for h in range(tv[7 * words + 1]):
        if _subset(tb[_LIBS, h], filled):
            for w in range(words):
                mover[w] |= tb[_STONES, h, w]
                opp[w] &= ~tb[_STONES, h, w]


@_inline
def _touches_mover(q, mover, nbr):
    for k in range(4):
        y = nbr[q, k]
        if y < 0:
            break
        if (mover[y >> 5] >> (y & 31)) & 1:
            return True
    return False


# ----------------------------------------------------------------------------- growth


@_borrowing
def _step(node, p, pt, tb, nbr, wb, wp):
    """Add growth stone ``p`` to ``node`` in place (``Turn.step``)."""
    words = wb.shape[1]
    mover, opp, grown, captured = words, 2 * words, 3 * words, 5 * words
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
        _flood(p, node[mover : mover + words], group, nbr, wp[_STACK])
        n = _points(group, pts)
        for i in range(n):
            g = pt[pts[i], _GID]
            if g >= 0:
                node[4 * words + (g >> 5)] |= np.int64(1) << (g & 31)


@_borrowing
def _grown_position(node, p, pt, tb, after, words):
    """The board after growth stone ``p`` on ``node`` into ``after``'s mover and opponent rows:
    ``_step`` without its marks (grown, closed, captured), for a breathing test."""
    mover, opp, captured = words, 2 * words, 5 * words
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
def _order_ok(node, extra, pt, tb, tv, wb, wp):
    """Whether the growth stones ``extra`` have a valid order after ``node`` (``Turn.order``)."""
    words = extra.shape[0]
    added, grown, closed, captured = (
        node[:words],
        node[3 * words : 4 * words],
        node[4 * words : 5 * words],
        node[5 * words : 6 * words],
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
    if tv[7 * words + 4] == 0:
        _touching(pt, tb, tv, wb)
    for h in range(tv[7 * words + 1]):
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
def _completable(node, extra0, mode, q0, pt, tb, tv, nbr, wb, wp):
    """Whether growth stones including ``extra0`` can follow ``node`` and end the turn legally
    (``Turn.completable``): ``mode`` _NONE (finish), _FIXED (placing ``q0``) or _ANY."""
    words = extra0.shape[0]
    added = node[:words]
    free = mode == _ANY and tv[7 * words + 2] == 1
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
            if ((mover[q >> 5] >> (q & 31)) & 1) or ((opp[q >> 5] >> (q & 31)) & 1) or _touches_mover(q, mover, nbr):
                continue
            qbit[q >> 5] |= np.int64(1) << (q & 31)
            filled[q >> 5] |= np.int64(1) << (q & 31)
            _position(filled, tb, tv, mover, opp)
        d = _lowest_dead(mover, opp, wb)
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
                if (opp[y >> 5] >> (y & 31)) & 1:
                    around[y >> 5] |= np.int64(1) << (y & 31)
        for h in range(tv[7 * words + 1]):
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
            if _order_ok(node, stack[top, :words], pt, tb, tv, wb, wp):
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
                    if _order_ok(node, stack[top, :words], pt, tb, tv, wb, wp):
                        stack[top, words] = r
                        top += 1
    return False


# ----------------------------------------------------------------------------- growth="all"


@njit
def _extension(grown, q, pt, tb, tv, nbr, wb, wp):
    """A stone some legal move with growth set ⊋ ``grown`` and placement ``q`` adds, or -1
    (``Turn.extension``)."""
    words = grown.shape[0]
    root, growable = tv[: 6 * words], tv[6 * words : 7 * words]
    used = np.zeros(words, np.int64)
    pts = np.empty(nbr.shape[0], np.int64)
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
        if _order_ok(root, wider, pt, tb, tv, wb, wp) and _completable(root, wider, mode, q, pt, tb, tv, nbr, wb, wp):
            return p
    return -1


@njit
def _grow_greedily(node, mode, q, pt, tb, tv, nbr, wb, wp):
    """``Turn._grow_greedily``: the growth stones added greedily after ``node``."""
    words = wb.shape[1]
    growable = tv[6 * words : 7 * words]
    added = node[:words]
    extra = np.zeros(words, np.int64)
    used = node[3 * words : 4 * words] | node[4 * words : 5 * words]
    pts = np.empty(nbr.shape[0], np.int64)
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
            if _order_ok(node, wider, pt, tb, tv, wb, wp) and _completable(
                node, wider, mode, q, pt, tb, tv, nbr, wb, wp
            ):
                extra = wider
                _add_sources(p, pt, used)
                more = True
    return extra


@njit
def _completable_all(node, pt, tb, tv, nbr, wb, wp, found, witnesses, n_witnesses):
    """``Turn.completable_all``: whether a maximal legal move can still be reached from
    ``node``; records witnesses (``n_witnesses[0]`` of them, -1 once the store overflowed).
    ``found`` is scratch: its first row receives the growth set a search finds."""
    words = wb.shape[1]
    added, mover, opp = node[:words], node[words : 2 * words], node[2 * words : 3 * words]
    if _witnessed(node, pt, tb, tv, wb, wp, witnesses, n_witnesses):
        return True
    ends = np.empty(nbr.shape[0] + 1, np.int64)
    ends[0] = -1
    n_ends = 1
    if tv[7 * words + 2]:
        for q in range(nbr.shape[0]):
            if (
                not ((mover[q >> 5] >> (q & 31)) & 1)
                and not ((opp[q >> 5] >> (q & 31)) & 1)
                and not _touches_mover(q, mover, nbr)
            ):
                ends[n_ends] = q
                n_ends += 1
    zero = np.zeros(words, np.int64)
    n_open = 0  # the ends that _completable passes, moved to the front of ``ends``
    for e in range(n_ends):
        q = ends[e]
        mode = _NONE if q < 0 else _FIXED
        if _completable(node, zero, mode, q, pt, tb, tv, nbr, wb, wp):
            ends[n_open] = q
            n_open += 1
            grown = added | _grow_greedily(node, mode, q, pt, tb, tv, nbr, wb, wp)
            if _extension(grown, q, pt, tb, tv, nbr, wb, wp) < 0:
                return _witness(grown, q, witnesses, n_witnesses)
    budget = np.full(1, _BUDGET, np.int64)
    grown = found[0, :words]
    for e in range(n_open):  # none: no legal move at all can be reached, an exact no
        answer = _search_maximal(node, ends[e], pt, tb, tv, nbr, wb, wp, budget, grown)
        if answer > 0:
            return _witness(grown.copy(), ends[e], witnesses, n_witnesses)
        if answer < 0:
            return False
    return False


@njit
def _quiet(node, pt, tv, nbr):
    """``Turn.quiet``: the quiet growth points, as a bitset."""
    words = node.shape[0] // 6
    root_mover, root_opp, growable = tv[words : 2 * words], tv[2 * words : 3 * words], tv[6 * words : 7 * words]
    quiet = np.zeros(words, np.int64)
    sources = np.zeros(words, np.int64)
    around = np.zeros(words, np.int64)
    for x in range(nbr.shape[0]):
        if not (growable[x >> 5] >> (x & 31)) & 1:
            continue
        sources[:] = 0
        _add_sources(x, pt, sources)
        ok, breathes = True, False
        for k in range(4):
            y = nbr[x, k]
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
def _kept_empty(e, empty, extra, q, pt, blocked):
    """Whether no move below a search state fills the point ``e``: empty now, not among the
    growth stones ``extra``, not the placement ``q``, and no growth point (no sources, or one
    in the group set ``blocked``: grown, closed or idle)."""
    if e == q or not (empty[e >> 5] >> (e & 31)) & 1 or (extra[e >> 5] >> (e & 31)) & 1:
        return False
    return not _sources_free(e, pt, blocked)


@njit
def _extended(
    node,
    q,
    extra,
    used,
    idle,
    idle_closed,
    empty,
    xs,
    n_xs,
    x_sources,
    walls,
    pt,
    tb,
    nbr,
    zone,
    within,
    stack,
    sources,
):
    """``_search_maximal``'s second cut: whether some point ``x`` of ``xs`` extends every legal
    move below the state (``extra``, ``used``, ``idle``). ``zone`` to ``sources`` are scratch."""
    words = extra.shape[0]
    blocked = used | idle
    stuck = idle | idle_closed
    moved = np.empty(words, np.int64)
    for i in range(n_xs):
        x = xs[i]
        if not _subset(x_sources[i], stuck):
            continue
        for w in range(words):
            within[w] = node[words + w] | extra[w]
            moved[w] = 0
        walled = True
        for k in range(4):
            h = walls[i, k]
            if h < 0:
                break
            kept = False
            for w in range(words):
                word = tb[_LIBS, h, w]
                while word and not kept:
                    low = word & -word
                    word ^= low
                    e = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                    kept = e != x and _kept_empty(e, empty, extra, q, pt, blocked)
                if kept:
                    break
            if kept:
                continue
            if not _captured_last(h, x, node, extra, stuck, q, pt, tb, nbr, sources, moved):
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
                    y = nbr[stone, j]
                    if y < 0:
                        break
                    k = pt[y, _OID]
                    if k >= 0 and not _movable(
                        k, stone, x_sources[i], moved, node, extra, used, idle, stuck, empty, q, pt, tb, sources
                    ):
                        walled = False
                        break
        if not walled:
            continue
        within[x >> 5] |= np.int64(1) << (x & 31)
        _flood(x, within, zone, nbr, stack)
        for w in range(words):
            word = zone[w]
            while word:
                low = word & -word
                word ^= low
                z = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                for k in range(4):
                    y = nbr[z, k]
                    if y < 0:
                        break
                    if y != x and _kept_empty(y, empty, extra, q, pt, blocked):
                        return True
    return False


@njit
def _captured_last(h, x, node, extra, stuck, q, pt, tb, nbr, sources, moved):
    """``Turn._search_maximal``'s ``captured_last``: whether ``x`` fills the last liberty of
    opponent group ``h`` in every move below, each start group next to ``h`` grown before the
    capture or never; the growth stones that must then come first join ``moved``. ``sources``
    is scratch."""
    words = extra.shape[0]
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
            y = nbr[q, k]
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
            stone = _grower(g, node, extra, pt, sources)
            if stone < 0:
                return False
            liberty = stone != x and (tb[_LIBS, h, stone >> 5] >> (stone & 31)) & 1
            prefix = (node[stone >> 5] >> (stone & 31)) & 1
            if not (liberty or (prefix and other_in_extra)):
                moved[stone >> 5] |= np.int64(1) << (stone & 31)
    return True


@njit
def _grower(g, node, extra, pt, sources):
    """The growth stone (prefix or ``extra``) that grows start group ``g``, or -1."""
    words = extra.shape[0]
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
def _movable(k, stone, x_sources, moved, node, extra, used, idle, stuck, empty, q, pt, tb, sources):
    """``Turn._search_maximal``'s ``movable``: whether moving ``stone`` to the front of the order
    with the others of ``moved`` keeps the capture of opponent group ``k`` harmless."""
    words = extra.shape[0]
    blocked = used | idle
    for w in range(words):
        word = tb[_LIBS, k, w]
        while word:
            low = word & -word
            word ^= low
            e = (w << 5) + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            if e != stone and _kept_empty(e, empty, extra, q, pt, blocked):
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
            other = _grower(g, node, extra, pt, sources)
            if other < 0 or not (tb[_LIBS, k, other >> 5] >> (other & 31)) & 1:
                return False
    return True


@njit
def _ends_legally(filled, q, tb, tv, nbr, wb):
    """``Turn._ends_legally``: whether the growth set ``filled`` ends legally by ``q`` (-1: finish)."""
    words = filled.shape[0]
    mover, opp = np.empty(words, np.int64), np.empty(words, np.int64)
    _position(filled, tb, tv, mover, opp)
    if q >= 0:
        if ((mover[q >> 5] >> (q & 31)) & 1) or ((opp[q >> 5] >> (q & 31)) & 1) or _touches_mover(q, mover, nbr):
            return False
        with_q = filled.copy()
        with_q[q >> 5] |= np.int64(1) << (q & 31)
        _position(with_q, tb, tv, mover, opp)
    return _lowest_dead(mover, opp, wb) < 0


@njit
def _search_maximal(node, q, pt, tb, tv, nbr, wb, wp, budget, out):
    """``Turn._search_maximal``, depth first with an explicit stack, in the engine's order:
    1 (the growth set found in ``out``), 0 (none), -1 (past ``budget[0]`` states)."""
    words = wb.shape[1]
    n_points = nbr.shape[0]
    n_groups = tv[7 * words]
    added, grown0, closed0 = node[:words], node[3 * words : 4 * words], node[4 * words : 5 * words]
    mode = _NONE if q < 0 else _FIXED
    empty = np.empty(words, np.int64)
    for w in range(words):
        empty[w] = wb[_BOARD_FULL, w] & ~(node[words + w] | node[2 * words + w])
    free = empty.copy()
    if q >= 0:
        free[q >> 5] &= ~(np.int64(1) << (q & 31))
        for k in range(4):
            y = nbr[q, k]
            if y < 0:
                break
            free[y >> 5] &= ~(np.int64(1) << (y & 31))
    quiet = _quiet(node, pt, tv, nbr) & free
    # each start group's growth points: the empty points next to its stones at the turn's start
    liberties = np.zeros((n_groups, words), np.int64)
    for g in range(n_groups):
        for p in range(n_points):
            if (tb[_START, g, p >> 5] >> (p & 31)) & 1:
                for k in range(4):
                    y = nbr[p, k]
                    if y < 0:
                        break
                    if (tv[6 * words + (y >> 5)] >> (y & 31)) & 1:
                        liberties[g, y >> 5] |= np.int64(1) << (y & 31)
    # the points that may extend every move below a state, their sources and opponent groups
    xs = np.empty(n_points, np.int64)
    x_sources = np.zeros((n_points, words), np.int64)
    walls = np.full((n_points, 4), -1, np.int64)
    n_xs = 0
    for x in range(n_points):
        if not ((tv[6 * words + (x >> 5)] & free[x >> 5]) >> (x & 31)) & 1:
            continue
        _add_sources(x, pt, x_sources[n_xs])
        if not _is_zero(x_sources[n_xs] & grown0):
            x_sources[n_xs] = 0
            continue
        xs[n_xs] = x
        n_walls = 0
        for k in range(4):
            y = nbr[x, k]
            if y < 0:
                break
            h = pt[y, _OID]
            if h < 0 or (node[5 * words + (h >> 5)] >> (h & 31)) & 1:
                continue
            seen = False
            for j in range(n_walls):
                seen = seen or walls[n_xs, j] == h
            if not seen:
                walls[n_xs, n_walls] = h
                n_walls += 1
        n_xs += 1
    blocked = grown0 | closed0
    idle_closed = closed0 & ~grown0  # and the groups that cannot grow at all
    zero = np.zeros(words, np.int64)
    wider, sources, filled = np.empty(words, np.int64), np.empty(words, np.int64), np.empty(words, np.int64)
    quiet_sources = np.empty((n_points, words), np.int64)
    scratch = np.empty(n_points, np.int64)
    for g in range(n_groups):
        if not (blocked[g >> 5] >> (g & 31)) & 1:
            points = liberties[g] & free
            if (
                _choices(node, points, zero, blocked, zero, pt, tb, tv, wb, wp, scratch, quiet_sources, wider, sources)
                == 0
            ):
                idle_closed[g >> 5] |= np.int64(1) << (g & 31)
    # the groups first whose choice can settle _extended for a point whose sources cannot grow
    first = np.zeros(words, np.int64)
    for i in range(n_xs):
        if _subset(x_sources[i], idle_closed):
            for k in range(4):
                h = walls[i, k]
                if h < 0:
                    break
                first |= tb[_TOUCH, h]
                for e in range(n_points):
                    if e != xs[i] and ((tb[_LIBS, h, e >> 5] & empty[e >> 5]) >> (e & 31)) & 1:
                        _add_sources(e, pt, first)
                for y in range(n_groups):  # and of the groups its growth stones touch
                    if not (tb[_TOUCH, h, y >> 5] >> (y & 31)) & 1:
                        continue
                    for p in range(n_points):
                        if not ((liberties[y, p >> 5] & empty[p >> 5]) >> (p & 31)) & 1:
                            continue
                        for j in range(4):
                            z = nbr[p, j]
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
    extra, used, idle = np.zeros(words, np.int64), blocked.copy(), idle_closed & ~blocked
    start = 0
    zone, within, stack = np.empty(words, np.int64), np.empty(words, np.int64), np.empty(n_points, np.int64)
    depth = 0
    while True:
        # enter the state (extra, used, idle, start)
        budget[0] -= 1
        if budget[0] < 0:
            return -1
        live = not _extended(
            node,
            q,
            extra,
            used,
            idle,
            idle_closed,
            empty,
            xs,
            n_xs,
            x_sources,
            walls,
            pt,
            tb,
            nbr,
            zone,
            within,
            stack,
            sources,
        ) and _completable(node, extra, mode, q, pt, tb, tv, nbr, wb, wp)
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
                    pt,
                    tb,
                    tv,
                    wb,
                    wp,
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
                if _ends_legally(filled, q, tb, tv, nbr, wb) and _extension(filled, q, pt, tb, tv, nbr, wb, wp) < 0:
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
def _choices(node, points, extra, blocked, quiet, pt, tb, tv, wb, wp, out, quiet_sources, wider, sources):
    """``Turn._choices`` into ``out``: the points of ``points`` that can join the growth stones
    ``extra`` (sources not in ``blocked``, an order exists), a quiet point dropped when a quiet
    point before it has the same sources; their number."""
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
            if not _order_ok(node, wider, pt, tb, tv, wb, wp):
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
def _witnessed(node, pt, tb, tv, wb, wp, witnesses, n_witnesses):
    """Whether a witness can still be reached from ``node`` (``Turn.witnessed``)."""
    words = wb.shape[1]
    added = node[:words]
    for i in range(n_witnesses[0]):
        grown = witnesses[i, :words]
        if _subset(added, grown) and _order_ok(node, grown & ~added, pt, tb, tv, wb, wp):
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


# ----------------------------------------------------------------------------- legal actions


@_inline
def _end_ok(node, q, pt, tb, tv, nbr, wb, wp, maximal):
    """Whether the growth turn can end now: finish (``q`` = -1) or the balancing stone ``q``
    (``SygoState._end_reason``; ``q`` is known to be a placement point). ``maximal``: under
    ``growth="all"`` (a constant: see ``_run``)."""
    words = wb.shape[1]
    added = node[:words]
    mover, opp = wb[_MOVER], wb[_OPP]
    if q < 0:
        copy_into(mover, node[words : 2 * words])
        copy_into(opp, node[2 * words : 3 * words])
    else:
        filled = added.copy()
        filled[q >> 5] |= np.int64(1) << (q & 31)
        _position(filled, tb, tv, mover, opp)
    if _lowest_dead(mover, opp, wb) >= 0:
        return False
    if maximal:
        return _extension(added.copy(), q, pt, tb, tv, nbr, wb, wp) < 0
    return True


@njit
def _flat_bitsets(nbr, words):
    """``fb`` with the board's masks in rows _FULL, _NOT_FIRST, _NOT_LAST and the board size last."""
    fb = np.zeros(_FB_ROWS * words + 1, np.int64)
    n_points = nbr.shape[0]
    size = 1
    while size * size < n_points:
        size += 1
    fb[_FB_ROWS * words] = size
    for p in range(n_points):
        bit = np.int64(1) << (p & 31)
        fb[_FULL * words + (p >> 5)] |= bit
        if p % size != 0:
            fb[_NOT_FIRST * words + (p >> 5)] |= bit
        if p % size != size - 1:
            fb[_NOT_LAST * words + (p >> 5)] |= bit
    return fb


@_borrowing
def _spread(bits, at, fb, row):
    """Every point adjacent to a point of the bitset ``bits[at:at + W]`` into row ``row`` of
    ``fb`` (``Geometry.spread``): four shifts of the words."""
    words = fb.shape[0] // _FB_ROWS
    size = fb[_FB_ROWS * words]
    out = row * words
    for w in range(words):
        before = bits[at + w - 1] if w > 0 else np.int64(0)
        after = bits[at + w + 1] if w + 1 < words else np.int64(0)
        fb[out + w] = _spread_word(
            bits[at + w],
            before,
            after,
            size,
            fb[_NOT_FIRST * words + w],
            fb[_NOT_LAST * words + w],
            fb[_FULL * words + w],
        )


@_inline
def _spread_word(x, before, after, size, not_first, not_last, full):
    """Word ``w`` of ``Geometry.spread`` from words ``w`` (``x``), ``w - 1`` and ``w + 1``."""
    low = np.int64(0xFFFFFFFF)
    left = ((x << 1) | (before >> 31)) & low  # one column right
    right = (x >> 1) | ((after & 1) << 31)  # one column left
    up = ((x << size) | (before >> (32 - size))) & low
    down = (x >> size) | ((after << (32 - size)) & low)
    return (left & not_first) | (right & not_last) | ((up | down) & full)


@_borrowing
def _spread_rows(wb, source, target):
    """``_spread`` from row ``source`` of ``wb`` into row ``target``."""
    size = wb[_BOARD_SIZE, 0]
    words = wb.shape[1]
    for w in range(words):
        before = wb[source, w - 1] if w > 0 else np.int64(0)
        after = wb[source, w + 1] if w + 1 < words else np.int64(0)
        wb[target, w] = _spread_word(
            wb[source, w], before, after, size, wb[_BOARD_NOT_FIRST, w], wb[_BOARD_NOT_LAST, w], wb[_BOARD_FULL, w]
        )


@_borrowing
def _lowest_dead(mover, opp, wb):
    """``_dead`` word-parallel: the lowest stone of the mover's groups without liberties, or -1.
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
def _placement_breathes(q, mover, opp, pt, tb, nbr, wb, wp):
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
    return _breathes_from(q, after_mover, after_opp, nbr, wb, wp)


@_borrowing
def _legal_masks(node, mid, breathing, pt, tb, tv, nbr, fb, wb, wp, points, after):
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
    words = wb.shape[1]
    mover, opp, grown, closed = words, 2 * words, 3 * words, 4 * words
    growable = 6 * words
    empty, near, open_ = _EMPTY * words, _NEAR * words, _OPEN * words
    place_ok, grow_ok = _PLACE_OK * words, _GROW_OK * words
    place_check, grow_check = _PLACE_CHECK * words, _GROW_CHECK * words
    all_growth = tv[7 * words + 3] == 1
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
    if not mid or tv[7 * words + 2]:
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
            if _placement_breathes(q, node[mover : mover + words], node[opp : opp + words], pt, tb, nbr, wb, wp):
                fb[place_ok + (q >> 5)] |= np.int64(1) << (q & 31)
            fb[place_check + (q >> 5)] &= ~(np.int64(1) << (q & 31))
    if not node_dead:  # growth: when the new stone's group breathes, the turn can end after it
        _settle_next_to_two(node, mover, fb, words)
        m = _points_at(fb, grow_check, words, points)
        for i in range(m):
            p = points[i]
            _grown_position(node, p, pt, tb, after, words)
            if _breathes_from(p, after[mover : mover + words], after[opp : opp + words], nbr, wb, wp):
                fb[grow_ok + (p >> 5)] |= np.int64(1) << (p & 31)
                fb[grow_check + (p >> 5)] &= ~(np.int64(1) << (p & 31))
        for w in range(words):  # each of them leaves every mover group breathing
            fb[_BREATHING * words + w] = fb[grow_ok + w]
    return finish


@_borrowing
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
def _check_candidates(
    node, mid, finish, pt, tb, tv, nbr, fb, wb, wp, points, after, found, witnesses, n_witnesses, maximal
):
    """Decide what ``_legal_masks`` left open, in the engine's order (under ``growth="all"`` the
    witnesses found depend on it): finish, the placements of row _PLACE_CHECK, the growth
    stones of row _GROW_CHECK (the legal ones join rows _PLACE_OK, _GROW_OK). Returns finish's
    legality. ``points`` and ``after`` (a node) are scratch. ``maximal``: under ``growth="all"``,
    a constant, so that numba leaves the maximal-move search out of a growth="any" entry."""
    words = wb.shape[1]
    mover, opp = words, 2 * words
    if maximal and finish < 0:
        added = wb[_ADDED]
        for w in range(words):
            added[w] = node[w]
        finish = 1 if _extension(added, np.int64(-1), pt, tb, tv, nbr, wb, wp) < 0 else 0
    m = _points_at(fb, _PLACE_CHECK * words, words, points)
    for i in range(m):
        q = points[i]
        if mid:
            ok = _end_ok(node, q, pt, tb, tv, nbr, wb, wp, maximal)
        else:
            ok = _placement_breathes(q, node[mover : mover + words], node[opp : opp + words], pt, tb, nbr, wb, wp)
        if ok:
            fb[_PLACE_OK * words + (q >> 5)] |= np.int64(1) << (q & 31)
    m = _points_at(fb, _GROW_CHECK * words, words, points)
    known = n_witnesses[0]
    for i in range(m):
        p = points[i]
        for j in range(6 * words):
            after[j] = node[j]
        _step(after, p, pt, tb, nbr, wb, wp)
        if maximal:
            ok = _completable_all(after, pt, tb, tv, nbr, wb, wp, found, witnesses, n_witnesses)
        else:  # "any": _legal_masks's quick test failed (or a group of the node has no liberty)
            ok = _completable(after, wb[_ZERO], np.int64(_ANY), np.int64(-1), pt, tb, tv, nbr, wb, wp)
        if ok:
            fb[_GROW_OK * words + (p >> 5)] |= np.int64(1) << (p & 31)
    if maximal and n_witnesses[0] > known:  # closed under the witnesses found meanwhile, as the engine's list
        for i in range(m):
            p = points[i]
            if (fb[_GROW_OK * words + (p >> 5)] >> (p & 31)) & 1:
                continue
            for j in range(6 * words):
                after[j] = node[j]
            _step(after, p, pt, tb, nbr, wb, wp)
            if _witnessed(after, pt, tb, tv, wb, wp, witnesses, n_witnesses):
                fb[_GROW_OK * words + (p >> 5)] |= np.int64(1) << (p & 31)
    return finish


@_borrowing
def _any_bits(bits, at, words):
    for w in range(words):
        if bits[at + w]:
            return True
    return False


# ----------------------------------------------------------------------------- games


@_borrowing
def _place(node, q, pt, tb, words):
    """Put the mover's placement ``q`` (the start of a turn or a balancing stone) on ``node``'s
    board: ``Turn.position`` of its stones and ``q``. The opponent groups it reverses are those
    whose last liberty it fills (the growth stones have reversed the others already)."""
    mover, opp, captured = words, 2 * words, 5 * words
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
    tv = np.zeros(7 * words + 5, np.int64)
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
    after = np.empty(6 * words, np.int64)  # scratch node
    node = np.empty(6 * words, np.int64)
    return pt, tb, tv, fb, wb, wp, points, found, after, node


@_inline
def _play(
    board, root_board, stones, streams, one_stream, budget, nbr, balancing, all_growth, witnesses, n_witnesses, record,
    maximal,
):  # fmt: skip
    """Random actions on ``board`` = [white, black, to_move, grown, passes, mid] (words, words,
    4 ints) until the end or ``budget`` actions; the player to move draws from
    ``streams[player]`` (``streams[0]`` for both with ``one_stream``). A turn in progress on
    entry: ``mid`` set, its start position in ``root_board``, its stones in ``stones`` (-1
    ended); ``witnesses`` are the first turn's.
    Returns (actions, moves, stones of the turn in progress at the end) or ``_OVERFLOW``; the
    actions and the number of legal actions before each go to ``record`` (``kernels.new_record``)
    if it is not empty; ``board`` ends as the final state (the board as
    it stands mid-turn), ``root_board`` as the start of the last turn. ``maximal``: ``all_growth``
    as a constant (see ``_run``)."""
    n_points = nbr.shape[0]
    words = (n_points + 31) >> 5
    pt, tb, tv, fb, wb, wp, points, found, after, node = _scratch(nbr)
    at = 2 * words
    mid = board[at + 3] == 1
    to_move = board[at]
    n_stones = 0
    if mid:
        bal = _balancing_now(balancing, to_move, board[at + 1])
        _start_turn(
            root_board, words * to_move, words * (1 - to_move), bal, all_growth, pt, tb, tv, nbr, wb, node, np.int64(0)
        )
        for i in range(6 * words):
            node[i] = tv[i]
        while n_stones < stones.shape[0] and stones[n_stones] >= 0:
            _step(node, stones[n_stones], pt, tb, nbr, wb, wp)
            n_stones += 1
    played = moves = 0
    breathing = np.int64(0)  # whether every mover group of the node is known to breathe
    reuse = np.int64(1 if mid else 0)  # whether the last turn's analysis is in pt, tb, tv
    while played < budget and board[at + 2] < 2:
        to_move = board[at]
        if not mid:
            moves += 1
            for i in range(at):
                root_board[i] = board[i]
            bal = _balancing_now(balancing, to_move, board[at + 1])
            _start_turn(
                board, words * to_move, words * (1 - to_move), bal, all_growth, pt, tb, tv, nbr, wb, node, reuse
            )
            reuse = np.int64(1)
            for i in range(6 * words):
                node[i] = tv[i]
            n_stones = 0
        finish = _legal_masks(node, mid, breathing, pt, tb, tv, nbr, fb, wb, wp, points, after)
        if finish < 0 or _any_bits(fb, _PLACE_CHECK * words, 2 * words):  # rows _PLACE_CHECK, _GROW_CHECK
            finish = _check_candidates(
                node, mid, finish, pt, tb, tv, nbr, fb, wb, wp, points, after, found, witnesses, n_witnesses, maximal
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
            board[at + 2] += 1
        elif action >= FIRST_PLACE + n_points:
            p = action - FIRST_PLACE - n_points
            breathing = (fb[_BREATHING * words + (p >> 5)] >> (p & 31)) & 1
            _step(node, p, pt, tb, nbr, wb, wp)
            stones[n_stones] = p
            n_stones += 1
            ended = False
            mid = True
        else:  # finish or a placement: the turn ends
            if action != FINISH:
                _place(node, action - FIRST_PLACE, pt, tb, words)
            for w in range(words):
                board[words * to_move + w] = node[words + w]
                board[words * (1 - to_move) + w] = node[2 * words + w]
            board[at + 2] = 0
            if mid:
                board[at + 1] = 1
        if ended:
            board[at] = 1 - to_move
            mid = False
            n_stones = 0
            n_witnesses[0] = 0  # witnesses belong to one turn
    if mid:  # the board as it stands
        for w in range(words):
            board[words * to_move + w] = node[words + w]
            board[words * (1 - to_move) + w] = node[2 * words + w]
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
def _run(
    boards, streams, one_stream, max_actions, nbr, balancing, all_growth, witnesses, n_witnesses, record, out, maximal
):
    """One random game (or rollout) per row of ``boards`` (board, then
    the turn's start, then its stones: see ``_play``) and of ``streams`` (changed in place).
    ``out`` rows: outcome, actions, moves, scores (2), stones of a turn in progress, and White's
    area minus Black's by ``area_estimate`` (rollouts cut by their budget only). The witnesses
    given are the first game's (a rollout's). ``maximal`` is ``all_growth`` as a constant: the two
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
            balancing, all_growth, witnesses, n_witnesses, record, maximal,
        )  # fmt: skip
        if played == _OVERFLOW:
            out[g, 0] = REPLAY
            continue
        white, black = board[:words], board[words : 2 * words]
        s_white, s_black = _scores(white, black, nbr)
        out[g, 0] = FINISHED if board[2 * words + 2] >= 2 else CUT
        out[g, 1] = played
        out[g, 2] = moves
        out[g, 3] = s_white
        out[g, 4] = s_black
        out[g, 5] = n_stones
        if one_stream and out[g, 0] == CUT:  # a rollout stopped by its budget: evaluate()
            out[g, 6] = _area_count(white, black, nbr)


@njit
def _run_any(boards, streams, one_stream, max_actions, nbr, balancing, all_growth, witnesses, n_witnesses, record, out):
    """``_run`` under growth="any" (``all_growth`` False): the compiled entry without the search."""
    _run(boards, streams, one_stream, max_actions, nbr, balancing, all_growth, witnesses, n_witnesses, record, out,
         False)  # fmt: skip


@njit
def _run_all(boards, streams, one_stream, max_actions, nbr, balancing, all_growth, witnesses, n_witnesses, record, out):
    """``_run`` under growth="all" (``all_growth`` True): the compiled entry with the search."""
    _run(boards, streams, one_stream, max_actions, nbr, balancing, all_growth, witnesses, n_witnesses, record, out,
         True)  # fmt: skip


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
        out[at + 1] = 87 if row[at_side] == 0 else 66
        out[at + 2] = 32
        out[at + 3] = 103 if row[at_side + 1] else 45  # g -
        out[at + 4] = 32
        out[at + 5] = 48 + row[at_side + 2]


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


@njit
def _tree_turn(state, rules):
    """The turn's analysis (``pt``, ``tb``, ``tv`` of ``rules``) and its node (``rules``'
    ``node``) after the turn's stones so far."""
    nbr, pt, tb, tv, wb, wp, node = rules[0], rules[2], rules[3], rules[4], rules[5], rules[6], rules[7]
    words = wb.shape[1]
    at = 2 * words
    to_move = state[at]
    mid = state[at + 3] == 1
    start = 5 * words + 4 if mid else 0
    bal = _balancing_now(rules[1], to_move, state[at + 1])
    _start_turn(
        state,
        start + words * to_move,
        start + words * (1 - to_move),
        bal,
        rules[16],
        pt,
        tb,
        tv,
        nbr,
        wb,
        node,
        np.int64(0),
    )
    for i in range(6 * words):
        node[i] = tv[i]
    if mid:
        i = 7 * words + 4
        while i < state.shape[0] and state[i] >= 0:
            _step(node, state[i], pt, tb, nbr, wb, wp)
            i += 1
    return node


@njit
def _tree_legal(state, rules, out):
    """``legal_actions()`` in the engine's order, as ``_play`` finds them."""
    nbr, pt, tb, tv, wb, wp, fb, points, after = (
        rules[0], rules[2], rules[3], rules[4], rules[5], rules[6], rules[17], rules[18], rules[19],
    )  # fmt: skip
    words = wb.shape[1]
    n_points = nbr.shape[0]
    at = 2 * words
    if state[at + 2] >= 2:
        return 0
    node = _tree_turn(state, rules)
    mid = state[at + 3] == 1
    finish = _legal_masks(node, mid, np.int64(0), pt, tb, tv, nbr, fb, wb, wp, points, after)
    if finish < 0 or _any_bits(fb, _PLACE_CHECK * words, 2 * words):
        finish = _check_candidates(  # the tree searches growth="any" only
            node, mid, finish, pt, tb, tv, nbr, fb, wb, wp, points, after, rules[8], rules[9], rules[10], False
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


@njit
def _tree_apply(state, action, rules):
    """``apply_action``: ``_play``'s step for one action, on the tree's array form."""
    nbr, pt, tb, wb, wp = rules[0], rules[2], rules[3], rules[5], rules[6]
    words = wb.shape[1]
    n_points = nbr.shape[0]
    at = 2 * words
    to_move = state[at]
    mid = state[at + 3] == 1
    if action == PASS:
        state[at + 2] += 1
        state[at] = 1 - to_move
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
        _step(node, p, pt, tb, nbr, wb, wp)
        state[at + 3] = 1
        for w in range(words):
            state[at + 4 + w] = node[w]  # added
            state[at + 4 + words + w] = node[3 * words + w]  # grown
            state[at + 4 + 2 * words + w] = node[4 * words + w]  # closed
    else:  # finish or a placement: the turn ends
        if action != FINISH:
            _place(node, action - FIRST_PLACE, pt, tb, words)
        state[at + 2] = 0
        if mid:
            state[at + 1] = 1
        state[at] = 1 - to_move
        state[at + 3] = 0
        for i in range(at + 4, 7 * words + 4):
            state[i] = 0
        for i in range(7 * words + 4, state.shape[0]):
            state[i] = -1
    for w in range(words):  # the board as it stands
        state[words * to_move + w] = node[words + w]
        state[words * (1 - to_move) + w] = node[2 * words + w]
    return 0


@njit
def _tree_player(state, rules):
    at = 2 * rules[5].shape[1]
    return -4 if state[at + 2] >= 2 else state[at]  # TERMINAL


@njit
def _tree_rollout(state, budget, stream, rules, values):
    """``SygoKernel.rollout``: through ``_run`` from a copy of the state, as ``_play`` lays it out."""
    nbr, balancing = rules[0], rules[1]
    words = rules[5].shape[1]
    n_points = nbr.shape[0]
    at = 2 * words
    if budget > 0 and state[at + 2] < 2:
        row, streams, out = rules[11], rules[12], rules[13]
        copy_into(row[0, : at + 4], state[: at + 4])
        copy_into(row[0, at + 4 :], state[5 * words + 4 :])
        streams[0, 0] = stream
        rules[10][0] = 0
        _run_any(row, streams, rules[15], budget, nbr, balancing, rules[16], rules[9], rules[10], rules[14], out)
        stream = streams[0, 0]
        if out[0, 0] == FINISHED:
            value = 0.0 if out[0, 3] == out[0, 4] else (1.0 if out[0, 3] > out[0, 4] else -1.0)
        else:
            value = out[0, 6] / n_points
    elif state[at + 2] >= 2:  # returns()
        s_white, s_black = _scores(state[:words], state[words:at], nbr)
        value = 0.0 if s_white == s_black else (1.0 if s_white > s_black else -1.0)
    else:  # evaluate()
        value = _area_count(state[:words], state[words:at], nbr) / n_points
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
        """Every rules config; under ``growth="all"`` only the default ``all_search_limit``."""
        if not isinstance(game, SygoGame):
            return False
        return game.options["growth"] == "any" or game.params["all_search_limit"] == _BUDGET

    def _rules(self, game) -> tuple[np.ndarray, bool, bool]:
        size = game.options["size"]
        if size not in self._nbr:
            self._nbr[size] = _neighbours(size)
        return self._nbr[size], bool(game.options["balancing"]), game.options["growth"] == "all"

    @staticmethod
    def _witnesses(all_growth: bool, words: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((_WITNESS_CAP if all_growth else 1, words + 1), np.int64), np.zeros(1, np.int64)

    def _play(self, game, boards, streams, one_stream, max_actions, witnesses=None, record=None) -> np.ndarray:
        nbr, balancing, all_growth = self._rules(game)
        words = (len(nbr) + 31) >> 5
        if witnesses is None:
            witnesses = self._witnesses(all_growth, words)
        out = np.zeros((len(boards), 7), np.int64)
        record = np.empty((2, 0), np.int64) if record is None else record
        run = _run_all if all_growth else _run_any
        run(boards, streams, one_stream, max_actions, nbr, balancing, all_growth, *witnesses, record, out)
        return out

    @staticmethod
    def _empty_boards(game, n: int) -> np.ndarray:
        n_points = game.options["size"] ** 2
        words = (n_points + 31) >> 5
        boards = np.zeros((n, 4 * words + 4 + n_points), np.int64)
        boards[:, 4 * words + 4 :] = -1
        return boards

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        return self._games(game, self._empty_boards(game, len(streams)), streams, max_actions)

    def recorded_game(self, state: SygoState, streams: np.ndarray, max_actions: int) -> RecordedGame:
        game = state.game
        boards, witnesses = self._row(state)
        record = new_record(max_actions)
        if witnesses is None:  # more witnesses than the kernel holds: the engine plays it
            played = self._games(game, boards, streams.reshape(1, -1), 0)
            played.outcome[:] = REPLAY
            return as_recorded(record, played)
        return as_recorded(record, self._games(game, boards, streams.reshape(1, -1), max_actions, witnesses, record))

    def _games(self, game, boards, streams, max_actions, witnesses=None, record=None) -> PlayedGames:
        """Random games from ``boards`` (``_run``'s rows, changed: the final states)."""
        n, size = len(streams), game.options["size"]
        n_points = size * size
        words = (n_points + 31) >> 5
        out = self._play(game, boards, streams.copy(), False, max_actions, witnesses, record)
        width = n_points + size - 1 + 6
        text = np.zeros((n, width), np.uint8)
        _write_notations(boards, size, text)
        final = text.view(f"S{width}")[:, 0]
        cut_mid_turn = np.flatnonzero(boards[:, 2 * words + 3])
        if len(cut_mid_turn):  # the engine's snapshot of the turn in progress
            final = final.astype(object)
            for g in cut_mid_turn:
                final[g] = self._snapshot(game, boards[g], out[g, 5]).encode()
            final = final.astype(bytes)
        scores = out[:, 3:5].copy()
        winners = np.where(scores[:, 0] > scores[:, 1], 1, np.where(scores[:, 0] < scores[:, 1], 2, 3))
        return PlayedGames(
            outcome=out[:, 0].astype(np.int8),
            winners=winners,
            scores=scores,
            reason=np.zeros(n, np.int8),
            reasons=("standard",),
            n_turns=out[:, 2].astype(np.int32),  # the players alternate: a turn is one move
            n_moves=out[:, 2].astype(np.int32),
            n_actions=out[:, 1].astype(np.int32),
            final=final,
        )

    @staticmethod
    def _snapshot(game, row: np.ndarray, n_stones: int) -> str:
        """The engine's snapshot of a turn in progress: its start position, then its stones."""
        n_points = game.options["size"] ** 2
        words = (n_points + 31) >> 5
        at = 2 * words
        start = row[at + 4 : 2 * at + 4]
        white, black = _mask(start[:words]), _mask(start[words:])
        state = SygoState(game, white, black, int(row[at]), bool(row[at + 1]), int(row[at + 2]))
        stones = [FIRST_PLACE + n_points + p for p in row[2 * at + 4 : 2 * at + 4 + n_stones].tolist()]
        state.foresee(state.action_to_string(action) for action in stones)  # growth="all": proves them
        for action in stones:
            state.apply_action(action)
        return canonical_json(state.snapshot())

    def _row(self, state: SygoState) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """``_run``'s row of ``state`` (a batch of one) and the witnesses of its turn (``None``
        when they are more than the kernel holds)."""
        words = (state.geom.points + 31) >> 5
        boards = self._empty_boards(state.game, 1)
        row = boards[0]
        at = 2 * words
        row[:at] = _words(state.white, words) + _words(state.black, words)
        row[at : at + 4] = [state.to_move, state.grown, state.passes, state.mid_turn()]
        turn = state._turn
        if state.mid_turn():
            mover, opponent = turn.root.mover, turn.root.opponent
            white, black = (mover, opponent) if state.to_move == 0 else (opponent, mover)
            row[at + 4 : 2 * at + 4] = _words(white, words) + _words(black, words)
            row[2 * at + 4 : 2 * at + 4 + len(state.stones)] = state.stones
        all_growth = state.game.options["growth"] == "all"
        witnesses, n_witnesses = self._witnesses(all_growth, words)
        if all_growth and turn is not None:  # the engine's turn keeps the maximal moves it found
            if len(turn.witnesses) > _WITNESS_CAP:
                return boards, None
            for i, (grown, q) in enumerate(turn.witnesses):
                witnesses[i] = [*_words(grown, words), -1 if q is None else q]
            n_witnesses[0] = len(turn.witnesses)
        return boards, (witnesses, n_witnesses)

    def rollout(self, state: SygoState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return (state.returns() if state.is_terminal() else state.evaluate()), stream
        boards, witnesses = self._row(state)
        if witnesses is None:
            return random_rollout(state.clone(), budget, stream)
        streams = np.array([[stream]], np.uint64)
        out = self._play(state.game, boards, streams, True, budget, witnesses=witnesses)
        if out[0, 0] == REPLAY:
            return random_rollout(state.clone(), budget, stream)
        if out[0, 0] == FINISHED:
            white, black = out[0, 3], out[0, 4]
            value = 0.0 if white == black else (1.0 if white > black else -1.0)
            return ([value, -value] if value else [0.0, 0.0]), int(streams[0, 0])
        lead = int(out[0, 6]) / state.geom.points
        return [lead, -lead], int(streams[0, 0])

    def tree_state(self, state: SygoState) -> np.ndarray:
        """The compiled tree's array form of ``state`` (layout above ``_tree_turn``)."""
        n_points = state.geom.points
        words = (n_points + 31) >> 5
        at = 2 * words
        array = np.zeros(7 * words + 4 + n_points, np.int64)
        array[:at] = _words(state.white, words) + _words(state.black, words)
        array[at : at + 4] = [state.to_move, state.grown, state.passes, state.mid_turn()]
        array[7 * words + 4 :] = -1
        if state.mid_turn():
            node, root = state.node, state.turn.root
            array[at + 4 : 5 * words + 4] = (
                _words(node.added, words) + _words(node.grown, words) + _words(node.closed, words)
            )
            white, black = (root.mover, root.opponent) if state.to_move == 0 else (root.opponent, root.mover)
            array[5 * words + 4 : 7 * words + 4] = _words(white, words) + _words(black, words)
            array[7 * words + 4 : 7 * words + 4 + len(state.stones)] = state.stones
        return array

    def tree_root(self, state: SygoState) -> TreeRoot | None:
        game = state.game
        nbr, balancing, all_growth = self._rules(game)
        if all_growth:
            return None
        n_points = len(nbr)
        words = (n_points + 31) >> 5
        pt, tb, tv, fb, wb, wp, points, found, after, node = _scratch(nbr)
        scratch = (  # rules[2:]: _play's arrays, then a rollout's _run arguments
            pt,
            tb,
            tv,
            wb,
            wp,
            node,
            found,  # 2 .. 8
            *self._witnesses(False, words),  # 9, 10
            self._empty_boards(game, 1),  # 11 a rollout's row for _run
            np.zeros((1, 1), np.uint64),  # 12 its stream
            np.zeros((1, 7), np.int64),  # 13 its out
            np.empty((2, 0), np.int64),  # 14 no record
            True,  # 15 one stream (rollouts)
            False,  # 16 growth="all": no
            fb,
            points,
            after,  # 17, 18, 19
        )  # the flags as values: literal True and False would make numba compile _run and _start_turn again
        rules = (nbr, balancing, *scratch)
        return TreeRoot(self.tree_state(state), 5 * words + 4, rules, 2 * n_points + 2, _tree_search)


KERNEL = SygoKernel()
