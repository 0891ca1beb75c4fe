"""Sygo's board geometry as bitboards on Python ints.

Point ``p = row * size + column`` (row 0 is row 1 of the notation, column 0 is ``a``), so the
spec's point order (row, then column) is the order of the indices. A set of points is an int
whose bit ``p`` is set for each point; Python ints are arbitrary-precision, so one int holds a
whole 25x25 board. Neighbourhoods come from four shifts: left and right shifts by one move a
point one column over (masked so that no bit wraps to the next row), shifts by ``size`` move a
row up or down (masked to the board).

Groups are flood fills (``flood``), liberties are ``dilate(group) & empty``: a handful of
big-int operations per step, whatever the size of the group, instead of a walk over points.
"""

from __future__ import annotations

from functools import cache

__all__ = ["COLUMNS", "Geometry", "geometry", "bit_points", "popcount"]

COLUMNS = "abcdefghijklmnopqrstuvwxy"  # i included (spec Decision 11); 25 columns at most


def bit_points(mask: int) -> list[int]:
    """The point indices of ``mask``, ascending (that is, in the spec's point order)."""
    if mask.bit_count() > 24:  # many points: scanning the binary digits is quicker
        return [i for i, digit in enumerate(format(mask, "b")[::-1]) if digit == "1"]
    points = []
    while mask:
        low = mask & -mask
        points.append(low.bit_length() - 1)
        mask ^= low
    return points


def popcount(mask: int) -> int:
    return mask.bit_count()


class Geometry:
    """Everything about a ``size`` x ``size`` board that does not depend on the stones."""

    def __init__(self, size: int):
        self.size = size
        self.points = size * size
        self.full = (1 << self.points) - 1
        column_a = sum(1 << (r * size) for r in range(size))
        self.not_first_column = self.full & ~column_a
        self.not_last_column = self.full & ~(column_a << (size - 1))
        self.names = [f"{COLUMNS[p % size]}{p // size + 1}" for p in range(self.points)]
        self.index = {name: p for p, name in enumerate(self.names)}
        self.neighbour_mask = [self.dilate(1 << p) & ~(1 << p) for p in range(self.points)]
        self.neighbours = [tuple(bit_points(m)) for m in self.neighbour_mask]

    def dilate(self, mask: int) -> int:
        """``mask`` and every point adjacent to it."""
        return (
            mask
            | ((mask << 1) & self.not_first_column)
            | ((mask >> 1) & self.not_last_column)
            | ((mask << self.size) & self.full)
            | (mask >> self.size)
        )

    def spread(self, mask: int) -> int:
        """Every point adjacent to a point of ``mask`` (``mask`` itself only where adjacent)."""
        return (
            ((mask << 1) & self.not_first_column)
            | ((mask >> 1) & self.not_last_column)
            | ((mask << self.size) & self.full)
            | (mask >> self.size)
        )

    def flood(self, seed: int, within: int) -> int:
        """The points of ``within`` connected to ``seed`` (a subset of ``within``)."""
        group = seed
        while True:
            grown = self.dilate(group) & within
            if grown == group:
                return group
            group = grown

    def groups(self, stones: int) -> list[int]:
        """The groups (maximal connected sets) of ``stones``, by their lowest point."""
        found = []
        while stones:
            group = self.flood(stones & -stones, stones)
            found.append(group)
            stones ^= group
        return found

    def liberties(self, group: int, empty: int) -> int:
        return self.dilate(group) & empty

    def groups_without_liberties(self, stones: int, empty: int) -> int:
        """The stones of ``stones`` whose group has no liberty (0 when every group breathes)."""
        breathing = self.flood(self.dilate(empty) & stones, stones)
        return stones & ~breathing


@cache
def geometry(size: int) -> Geometry:
    """The shared ``Geometry`` of one board size."""
    return Geometry(size)
