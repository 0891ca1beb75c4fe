"""Counter-based random streams that compiled kernels reproduce bit for bit.

A stream is one 64-bit integer: each draw adds the golden-ratio increment to it and mixes the
sum with SplitMix64's finaliser (Steele, Lea and Flood, 2014). Python's ``random.Random`` cannot
be replayed inside a compiled kernel, so every random choice that a kernel may take over
(random players, MCTS rollouts) draws from such a stream instead: the same seed then gives the
same game in Python and in the kernel, and a row played by a kernel replays through the
Python engine. ``tabletop_lab.jit`` holds the compiled twin of these two functions.

>>> state, draw = next_draw(1)
>>> choice_index(draw, 6)
3
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["GOLDEN", "MASK64", "MIX1", "MIX2", "choice_index", "next_draw", "fresh_stream", "fresh_streams"]

GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / golden ratio
MASK64 = (1 << 64) - 1
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


def next_draw(state: int) -> tuple[int, int]:
    """The stream's next state and a uniform 64-bit draw from it."""
    state = (state + GOLDEN) & MASK64
    z = ((state ^ (state >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return state, z ^ (z >> 31)


def choice_index(draw: int, n: int) -> int:
    """An index in ``range(n)`` from a 64-bit draw: the top 32 bits scaled (bias below n / 2**32)."""
    return ((draw >> 32) * n) >> 32


def fresh_stream(seed: int | None) -> int:
    """The stream a seed starts, or one from fresh entropy for ``None``.

    The seed is mixed first: a stream steps by ``GOLDEN``, so seeds that differ by multiples of
    it (the runner derives each seat's seed as the game's seed plus ``seat * GOLDEN``) would
    otherwise give the same draws shifted by a few places, and seats would play in lockstep.
    """
    if seed is None:
        return random.SystemRandom().getrandbits(64)
    return next_draw(seed & MASK64)[1]


def fresh_streams(seeds: np.ndarray) -> np.ndarray:
    """``fresh_stream`` of every seed in a uint64 array at once (numpy arithmetic wraps modulo
    2**64 as ``& MASK64`` does): the simulation runner derives a batch's streams with it."""
    import numpy as np

    golden, mix1, mix2 = np.uint64(GOLDEN), np.uint64(MIX1), np.uint64(MIX2)
    state = seeds.astype(np.uint64) + golden
    z = (state ^ (state >> np.uint64(30))) * mix1
    z = (z ^ (z >> np.uint64(27))) * mix2
    return z ^ (z >> np.uint64(31))
