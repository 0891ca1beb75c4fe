"""Sinoda boards as data: cells, edge adjacency, start cells per seat, and every short path.

The standard boards (spec section 1) are hexagons of triangles on an axial lattice. Vertex
``(q, r)`` is drawn at ``x = q + r/2``, ``y = r*sqrt(3)/2``; ``U(q,r)`` points up and ``D(q,r)``
points down::

          (q,r+1)____(q+1,r+1)
              /\\    /
             /  \\D /          U(q,r): (q,r) (q+1,r) (q,r+1)
            / U  \\/           D(q,r): (q+1,r) (q,r+1) (q+1,r+1)
       (q,r)------(q+1,r)

Two cells are adjacent when they share an edge (never a corner only). A ``Board`` numbers its
cells in canonical order and precomputes, for each cell and each length 1..4, every simple path
as (destination, cells passed through): a move is legal when one of its paths passes only
empty cells, so move generation is a few bit tests per destination.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...errors import RulesError, excerpt

__all__ = [
    "Board",
    "CORNER_FLOWERS",
    "SIDE_FLOWERS",
    "MAX_VALUE",
    "PIECES_PER_PLAYER",
    "board_data",
    "cell_name",
    "flower",
    "parse_cell_name",
    "standard_board",
    "triangle_vertices",
]

PIECES_PER_PLAYER = 6
MAX_VALUE = 4

#: Flower centres one ring in from the edge of the radius-5 board, clockwise from the east.
CORNER_FLOWERS = ((4, 0), (4, -4), (0, -4), (-4, 0), (-4, 4), (0, 4))
SIDE_FLOWERS = ((4, -2), (2, -4), (-2, -2), (-4, 2), (-2, 4), (2, 2))

#: Seat flower centres of the standard boards (spec 1.2), players 0, 1, 2 ... clockwise.
_SEAT_FLOWERS = {
    (2, "corner"): ((2, 0), (-2, 0)),
    (3, "corner"): ((4, 0), (0, -4), (-4, 4)),
    (4, "corner"): ((4, 0), (2, -4), (-4, 0), (-2, 4)),
    (4, "side"): ((2, -4), (-4, 0), (-2, 4), (4, 0)),
    (6, "corner"): CORNER_FLOWERS,
}

_CELL_NAME = re.compile(r"^([UD])(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)$")
_SQRT3_2 = math.sqrt(3) / 2


def cell_name(kind: str, q: int, r: int) -> str:
    """``cell_name("D", -1, -2) == "D-1,-2"``."""
    return f"{kind}{q},{r}"


def parse_cell_name(name: str) -> tuple[str, int, int] | None:
    """``("U", 2, 0)`` for ``"U2,0"``; ``None`` when ``name`` is not a triangle name."""
    match = _CELL_NAME.fullmatch(name) if isinstance(name, str) else None
    if match is None:
        return None
    return match[1], int(match[2]), int(match[3])


def triangle_vertices(kind: str, q: int, r: int) -> tuple[tuple[int, int], ...]:
    """The three lattice vertices of ``U(q,r)`` or ``D(q,r)``."""
    if kind == "U":
        return ((q, r), (q + 1, r), (q, r + 1))
    return ((q + 1, r), (q, r + 1), (q + 1, r + 1))


def vertex_xy(q: float, r: float) -> tuple[float, float]:
    """Drawing coordinates of lattice point ``(q, r)`` (y up)."""
    return q + r / 2, r * _SQRT3_2


def flower(q: int, r: int) -> tuple[str, ...]:
    """The six triangles around vertex ``(q, r)``, in the spec's order."""
    return (
        cell_name("U", q, r),
        cell_name("U", q - 1, r),
        cell_name("U", q, r - 1),
        cell_name("D", q - 1, r),
        cell_name("D", q, r - 1),
        cell_name("D", q - 1, r - 1),
    )


def board_data(players: int, four_player_start: str = "corner") -> dict[str, Any]:
    """The standard board for ``players`` as a board-data object (spec section 5).

    >>> data = board_data(2)
    >>> len(data["cells"]), data["cells"][:3], data["adjacency"]["U2,0"], data["seats"][0][:2]
    (54, ['D-1,-3', 'U0,-3', 'D0,-3'], ['D2,-1', 'D1,0'], ['U2,0', 'U1,0'])
    """
    radius = 3 if players == 2 else 5
    start = four_player_start if players == 4 else "corner"
    names = [cell_name(*cell) for cell in _triangles(radius)]
    on_board = set(names)
    adjacency = {}
    for kind, q, r in _triangles(radius):
        if kind == "U":
            around = [("D", q, r), ("D", q, r - 1), ("D", q - 1, r)]
        else:
            around = [("U", q, r), ("U", q + 1, r), ("U", q, r + 1)]
        adjacency[cell_name(kind, q, r)] = [n for n in map(lambda c: cell_name(*c), around) if n in on_board]
    seats = [list(flower(*centre)) for centre in _SEAT_FLOWERS[players, start]]
    return {"cells": names, "adjacency": adjacency, "seats": seats}


def _triangles(radius: int) -> Iterator[tuple[str, int, int]]:
    """Every triangle with all vertices within ``radius``, in canonical order (r, q, U before D)."""
    for r in range(-radius, radius + 1):
        for q in range(-radius, radius + 1):
            for kind in "UD":
                if all(_distance(*v) <= radius for v in triangle_vertices(kind, q, r)):
                    yield kind, q, r


def _distance(q: int, r: int) -> int:
    return max(abs(q), abs(r), abs(q + r))


@dataclass(frozen=True, eq=False)
class Board:
    """A validated board: cells by index (canonical order), neighbours, seats and short paths.

    ``routes[c][v]`` maps, for a piece on cell ``c`` showing ``v``, each destination reachable by
    a simple path of exactly ``v`` steps (in canonical order) to the bit masks of the cells
    passed through; only minimal masks are kept (a path whose cells include another path's
    cells is never needed). ``paths[c][v]`` is the same as a flat tuple of ``(destination,
    mask)`` pairs, for the move generator's single loop. ``names[c]`` is the cell's name and
    ``index[name]`` its number.
    """

    names: tuple[str, ...]
    index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]
    seats: tuple[tuple[int, ...], ...]
    routes: tuple[tuple[dict[int, tuple[int, ...]] | None, ...], ...] = field(repr=False)
    standard: bool
    paths: tuple = field(init=False, repr=False)

    def __post_init__(self) -> None:
        flat = tuple(
            (None,) + tuple(tuple((d, m) for d, masks in by_dest.items() for m in masks) for by_dest in per_cell[1:])
            for per_cell in self.routes
        )
        object.__setattr__(self, "paths", flat)

    @property
    def size(self) -> int:
        return len(self.names)

    @classmethod
    def from_data(cls, data: Any, players: int, *, standard: bool = False) -> Board:
        """Check a board-data object (spec section 5) and build the board; raises ``RulesError``."""
        cells, adjacency, seats = _checked(data, players)
        index = {name: i for i, name in enumerate(cells)}
        neighbours = tuple(tuple(sorted(index[n] for n in adjacency[name])) for name in cells)
        return cls(
            names=tuple(cells),
            index=index,
            neighbours=neighbours,
            seats=tuple(tuple(sorted(index[c] for c in seat)) for seat in seats),
            routes=tuple(_paths_from(c, neighbours) for c in range(len(cells))),
            standard=standard,
        )

    def destinations(self, cell: int, value: int) -> tuple[int, ...]:
        """Cells exactly ``value`` steps away along some simple path, on an empty board."""
        return tuple(self.routes[cell][value])

    def polygon(self, cell: int) -> list[tuple[float, float]] | None:
        """The triangle's corners in drawing coordinates, or ``None`` for a cell that is not
        named as a triangle (custom boards may use any names)."""
        parsed = parse_cell_name(self.names[cell])
        if parsed is None:
            return None
        return [vertex_xy(*v) for v in triangle_vertices(*parsed)]


@functools.cache
def standard_board(players: int, four_player_start: str = "corner") -> Board:
    """The spec's board for ``players`` (radius 3 for 2 players, else radius 5), built once."""
    start = four_player_start if players == 4 else "corner"
    return Board.from_data(board_data(players, start), players, standard=True)


# ----------------------------------------------------------------------------- Helpers


def _paths_from(start: int, neighbours: tuple[tuple[int, ...], ...]) -> tuple:
    """``(None, routes of length 1, ..., routes of length 4)`` from ``start``, as in ``Board.routes``."""
    by_length: list[dict[int, set[int]]] = [{} for _ in range(MAX_VALUE + 1)]

    def walk(cell: int, passed: list[int]) -> None:
        """Extend the path (start, *passed), which ends on `cell`, by one step in every way."""
        steps = len(passed) + 1
        mask = sum(1 << c for c in passed)
        for nxt in neighbours[cell]:
            if nxt == start or nxt in passed:
                continue
            by_length[steps].setdefault(nxt, set()).add(mask)
            if steps < MAX_VALUE:
                walk(nxt, passed + [nxt])

    walk(start, [])
    result: list = [None]
    for length in range(1, MAX_VALUE + 1):
        found = by_length[length]
        result.append({dest: _minimal(found[dest]) for dest in sorted(found)})
    return tuple(result)


def _minimal(masks: set[int]) -> tuple[int, ...]:
    """The masks that contain no other mask of the set, smallest first."""
    ordered = sorted(masks, key=lambda m: (bin(m).count("1"), m))
    kept: list[int] = []
    for mask in ordered:
        if not any(k & mask == k for k in kept):
            kept.append(mask)
    return tuple(kept)


def _checked(data: Any, players: int) -> tuple[list[str], dict[str, list[str]], list[list[str]]]:
    """The board data's three fields after every check of spec section 5."""

    def fail(problem: str) -> RulesError:
        return RulesError(f"sinoda: invalid board data: {problem}")

    if not isinstance(data, dict):
        raise fail(f'expected an object {{"cells", "adjacency", "seats"}}, got {type(data).__name__}')
    keys = ("cells", "adjacency", "seats")
    missing = [k for k in keys if k not in data]
    extra = sorted(str(k) for k in data if k not in keys)
    if missing or extra:
        raise fail(f"missing key(s) {missing}, unknown key(s) {extra}; the keys are cells, adjacency, seats")
    cells, adjacency, seats = data["cells"], data["adjacency"], data["seats"]
    if not isinstance(cells, list) or not cells:
        raise fail("'cells' must be a non-empty list of cell names")
    for name in cells:
        if not isinstance(name, str) or not name or any(ch.isspace() for ch in name):
            raise fail(f"cell name {_name(name)} must be a non-empty string without whitespace")
    known = set(cells)
    if len(known) != len(cells):
        twice = sorted({c for c in cells if cells.count(c) > 1})
        raise fail(f"cell names must be unique; repeated: {_names(twice)}")
    if not isinstance(adjacency, dict):
        raise fail("'adjacency' must map every cell to the list of its neighbours")
    if set(adjacency) != known:
        absent = [c for c in cells if c not in adjacency]
        unknown = sorted((c for c in adjacency if c not in known), key=str)
        raise fail(
            f"'adjacency' must list every cell once; cells without an entry: {_names(absent)}; "
            f"unknown: {_names(unknown)}"
        )
    for name, around in adjacency.items():  # every entry a list before any is read as one
        if not isinstance(around, list):
            raise fail(f"adjacency[{_name(name)}] must be a list of cell names, got {excerpt(around, limit=40)}")
    for name, around in adjacency.items():
        for other in around:
            if not isinstance(other, str) or other not in known:
                raise fail(f"adjacency[{_name(name)}] names unknown cell {_name(other)}")
            if other == name:
                raise fail(f"adjacency[{_name(name)}] lists the cell itself (no self-loops)")
            if name not in adjacency[other]:
                raise fail(
                    f"adjacency is not symmetric: {_name(other)} is a neighbour of {_name(name)} but not the reverse"
                )
        if len(set(around)) != len(around):
            raise fail(f"adjacency[{_name(name)}] lists a neighbour twice")
    if not isinstance(seats, list) or len(seats) != players:
        raise fail(f"'seats' must hold one list of start cells per player ({players}), got {excerpt(seats)}")
    taken: set[str] = set()
    for seat, start in enumerate(seats):
        if not isinstance(start, list) or len(start) != PIECES_PER_PLAYER:
            raise fail(f"seats[{seat}] must list {PIECES_PER_PLAYER} start cells, got {excerpt(start)}")
        for name in start:
            if not isinstance(name, str) or name not in known:
                raise fail(f"seats[{seat}] names unknown cell {_name(name)}")
        if len(set(start)) != len(start):
            raise fail(f"seats[{seat}] lists a cell twice")
        overlap = taken & set(start)
        if overlap:
            raise fail(f"seats overlap: {_names(sorted(overlap))} is a start cell of two seats")
        taken |= set(start)
    return cells, adjacency, seats


def _name(name: Any) -> str:
    """A cell name (or whatever stands for one) as an error message quotes it: an excerpt."""
    return excerpt(name, limit=40)


def _names(names: list) -> str:
    """The first few of ``names`` for an error message, and how many there are in all."""
    shown = ", ".join(_name(n) for n in names[:3])
    return f"{shown} ({len(names)} in all)" if len(names) > 3 else shown or "none"
