"""Cross-endodoi as tensors (OpenSpiel's ``observation_tensor``): read from the position JSON.

Layout after the observer's seat (core adds it): the twelve holes, then the two stores, each as a
share of all seeds in play, then the player to move one-hot; 16 floats. Actions are the holes
``0..11``. Everything is public, so every seat's encoding is the same.
"""

from __future__ import annotations

from .rules import NUM_HOLES


def num_distinct_actions(game) -> int:
    """The holes: actions ``0..11``."""
    return NUM_HOLES


def observation_size(game) -> int:
    return NUM_HOLES + 2 + 2


def encode(game, observation: dict, player: int) -> list[float]:
    """Holes and stores over the seeds in play, then the mover one-hot."""
    total = game.total_seeds
    counts = [n / total for n in observation["holes"] + observation["stores"]]
    return counts + [float(observation["to_move"] == p) for p in (0, 1)]
