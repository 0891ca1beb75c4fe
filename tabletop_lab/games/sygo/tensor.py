"""Sygo as tensors (OpenSpiel's ``observation_tensor``): read from the position JSON, or mid-turn
from the growth turn's progress (``SygoState.snapshot()``).

Layout after the observer's seat (core adds it): seven planes of ``size²`` points each, in point
order (``p = row * size + column``, ``a1`` first): White stones, Black stones, empty points, the
growth stones of the turn in progress, the stones it reversed, the start groups that have grown
this turn and those closed by a capture (every stone of such a group is marked); then the player
to move one-hot (2), the ``grown`` flag, passes one-hot (0, 1, 2) and whether a growth turn is in
progress: ``7 * size² + 7`` floats. Actions are ``pass``, ``finish``, ``place <pt>`` and
``grow <pt>``: ``2 + 2 * size²`` of them. Everything is public, so every seat's encoding is the same.
"""

from __future__ import annotations

from .bitboard import geometry

PLANES = 7


def num_distinct_actions(game) -> int:
    """``pass``, ``finish``, then a placement and a growth stone per point."""
    return 2 + 2 * game.options["size"] ** 2


def observation_size(game) -> int:
    return PLANES * game.options["size"] ** 2 + 7


def encode(game, observation: dict, player: int) -> list[float]:
    """The seven planes, then mover, grown flag, passes and the turn-in-progress flag."""
    size = observation["size"]
    geom = geometry(size)
    white = black = 0
    for r, row in enumerate(observation["board"]):
        base = (size - 1 - r) * size  # the first row written is the top row
        for c, char in enumerate(row):
            if char == "W":
                white |= 1 << (base + c)
            elif char == "B":
                black |= 1 << (base + c)
    stones = _mask(geom, observation.get("stones", ()))
    reversed_stones = _mask(geom, observation.get("reversed", ()))
    grown = closed = 0
    mover_at_start = (white if observation["to_move"] == 0 else black) & ~stones & ~reversed_stones
    for group in observation.get("groups", ()):
        stones_of_group = geom.flood(1 << geom.index[group["at"]], mover_at_start)
        grown |= stones_of_group if group["grown"] else 0
        closed |= stones_of_group if group["closed"] else 0
    empty = geom.full & ~(white | black)
    planes = []
    for mask in (white, black, empty, stones, reversed_stones, grown, closed):
        planes += [float(mask >> p & 1) for p in range(geom.points)]
    passes = observation["passes"]
    return (
        planes
        + [float(observation["to_move"] == p) for p in (0, 1)]
        + [float(observation["grown"])]
        + [float(passes == k) for k in (0, 1, 2)]
        + [float("groups" in observation)]
    )


def _mask(geom, names) -> int:
    mask = 0
    for name in names:
        mask |= 1 << geom.index[name]
    return mask
