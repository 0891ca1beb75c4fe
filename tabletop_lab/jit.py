"""Shared pieces of compiled playout kernels; imported by a game's ``kernel.py`` only, so
``import tabletop_lab`` never loads numba.

``next_draw`` and ``choice_index`` are the compiled twins of ``tabletop_lab.streams``: the same
arithmetic on unsigned 64-bit integers. Kernels are compiled with ``njit(cache=True)``: the first
use on a machine compiles them (a few seconds) and later processes load the machine code from
``__pycache__`` (or ``NUMBA_CACHE_DIR``). numba re-checks a cached kernel against its own source
file only: after changing this module, clear the caches (``find . -name '*.nbi' -delete``).
"""

from __future__ import annotations

import numba
import numpy as np

from .streams import _MIX1, _MIX2, GOLDEN

__all__ = ["njit", "next_draw", "choice_index", "write_decimal"]

_GOLDEN = np.uint64(GOLDEN)
_M1 = np.uint64(_MIX1)
_M2 = np.uint64(_MIX2)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


def njit(function):
    """numba's ``njit`` as every kernel uses it: cached on disk, no Python objects."""
    return numba.njit(cache=True, nogil=True)(function)


@njit
def next_draw(state):
    """``(state, draw)``: see ``tabletop_lab.streams.next_draw``; ``state`` is a ``np.uint64``."""
    state = state + _GOLDEN
    z = (state ^ (state >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return state, z ^ (z >> _S31)


@njit
def choice_index(draw, n):
    """See ``tabletop_lab.streams.choice_index``; returns an int64."""
    return np.int64(((draw >> _S32) * np.uint64(n)) >> _S32)


@njit
def write_decimal(out, at, value):
    """``value`` (>= 0) in decimal ASCII at ``out[at]``; the position after it. Kernels write their
    final positions' text with it (numbers of up to 19 digits: 10**19 overflows int64)."""
    digits = 1
    while digits < 19 and value >= 10**digits:
        digits += 1
    for d in range(digits - 1, -1, -1):
        out[at + d] = 48 + value % 10
        value //= 10
    return at + digits
