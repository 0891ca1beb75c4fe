"""Cross-endodoi as tensors (OpenSpiel's ``observation_tensor``): read from the position JSON.

Layout after the observer's seat (core adds it): the twelve holes, then the two stores, each as a
share of all seeds in play, then the side to move one-hot; 16 floats. Under ``pie_rule`` four
more give the swap's stage one-hot (``first``, ``offered``, ``kept``, ``swapped``). Actions are
the holes ``0..11``, and ``12``, the swap, under ``pie_rule``. Everything is public, so every
seat's encoding is the same.
"""

from __future__ import annotations

from .rules import NUM_HOLES, PIE_STAGES, SWAP


def num_distinct_actions(game) -> int:
    """The holes, actions ``0..11``, and the swap (12) under ``pie_rule``."""
    return SWAP + 1 if game.pie_rule else NUM_HOLES


def observation_size(game) -> int:
    return NUM_HOLES + 2 + 2 + (len(PIE_STAGES) if game.pie_rule else 0)


def encode(game, observation: dict, player: int) -> list[float]:
    """Holes and stores over the seeds in play, then the side to move one-hot, then the stage."""
    total = game.total_seeds
    counts = [n / total for n in observation["holes"] + observation["stores"]]
    stage = [float(observation["pie"] == s) for s in PIE_STAGES] if game.pie_rule else []
    return counts + [float(observation["to_move"] == p) for p in (0, 1)] + stage
