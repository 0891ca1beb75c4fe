"""The Sygo kernel's bitsets and the layouts of its arrays (see ``kernel.py``).

A bitset is 32-bit words in an int64 array (point ``p`` is bit ``p & 31`` of word ``p >> 5``).
Here: the two compile flavours the kernel uses besides ``jit.njit`` (``_inline``, ``_borrowing``),
counting and listing points, the word-parallel spread to the neighbours (``Geometry.spread``),
and the named rows and columns of every array the other ``kernel_*`` modules share: numba
compiles these module-level ints in as constants.
"""

from __future__ import annotations

import numba
import numpy as np

from ...jit import njit

_DEBRUIJN = np.zeros(32, np.int64)
for _i in range(32):
    _DEBRUIJN[(((1 << _i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = _i


# ----------------------------------------------------------------------------- bitsets

#: ``jit.njit`` for small helpers, the game loop and functions called from one place, inlined
#: into their callers by numba (one compiled module less to link and optimise at first use: each
#: compiled function's module has its callees' code linked in and optimised again; no call in
#: the hot loops). Not for helpers called from many places: numba inlines at each call site.
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
# Each array below is named by what it holds, its rows and fields by the constants after it
# (W: the words of a bitset, ``(points + 31) >> 5``).
#
# A board (``_play``'s ``board``): white's stones, black's (W words each), then at ``2 * W`` the
# flags _TO_MOVE, _HAS_GROWN, _PASSES, _MID_TURN (``SygoState``'s to_move, grown, passes and
# whether a turn is in progress).
# A node (``growth.Node``): six bitsets, field f at ``node[f * W:(f + 1) * W]``: the stones
# added, the mover's and the opponent's stones now, the start groups grown and closed, the
# opponent groups reversed (captured).
# The turn's start (``growth.Turn``), three arrays:
#   ``pt``: per point, columns _GID (its start group), _OID (its opponent group), -1 where none,
#     then its 4 neighbours from _NBR (fixed, -1 after the last): a point's sources and the
#     opponent groups it is a liberty of are the numbers on its neighbours;
#   ``tb``: bitsets per group, planes _LIBS, _STONES, _TOUCH (the start groups next to it, filled
#     when first needed) of each opponent group, _START (stones), _MLIBS (liberties) of each
#     start group;
#   ``tv``: the root node (fields as a node's), the growable points (field _TV_GROWABLE), then
#     from ``_TV_COUNTS * W`` the slots _N_START_GROUPS, _N_OPP_GROUPS (numbers without a group
#     are allowed: no stones, no liberties), _BALANCING_NOW, _ALL_GROWTH, _TOUCH_FILLED.
# The legal actions and the growth search take them with their scratch as one tuple,
# ``turn = (pt, tb, tv, wb, wp)``.
# Scratch: ``wb`` bitset rows, ``wp`` point-list rows, and for the code run at every action
# ``fb``, flat bitsets (row r at ``fb[r * W:(r + 1) * W]``, the board size last) that it indexes
# with offsets rather than views.

_TO_MOVE, _HAS_GROWN, _PASSES, _MID_TURN = range(4)  # a board's flags, from 2 * W
_NODE_ADDED, _NODE_MOVER, _NODE_OPP, _NODE_GROWN, _NODE_CLOSED, _NODE_CAPTURED = range(6)  # node fields
_NODE_FIELDS = 6
_TV_GROWABLE, _TV_COUNTS = 6, 7  # tv's fields after the root node's
_N_START_GROUPS, _N_OPP_GROUPS, _BALANCING_NOW, _ALL_GROWTH, _TOUCH_FILLED = range(5)  # tv's slots
_TV_SLOTS = 5
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
def _any_bits(bits, at, words):
    for w in range(words):
        if bits[at + w]:
            return True
    return False
