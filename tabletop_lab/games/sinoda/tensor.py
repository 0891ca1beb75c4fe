"""Sinoda as tensors (OpenSpiel's ``observation_tensor``): read from the position JSON.

Layout after the observer's seat (core adds it), for ``n`` players on a board of ``cells`` cells
(in the board's canonical cell order): one plane per player and value, ``n * 4`` planes of
``cells`` floats (1 where that player's piece shows that value); then the player to move one-hot
(``n``), each player's captured points over 24 (six pieces of value 4) and each player's pieces
on the board over 6: ``4 * n * cells + 3 * n`` floats. Actions are ``cell * (cells + 2) + slot``
(``rules`` module docstring): ``cells * (cells + 2)`` of them. Everything is public, so every
seat's encoding is the same.
"""

from __future__ import annotations

from .geometry import MAX_VALUE, PIECES_PER_PLAYER


def num_distinct_actions(game) -> int:
    """Two value changes and a move to every cell, from every cell."""
    return game.num_actions


def observation_size(game) -> int:
    n = game.num_players
    return MAX_VALUE * n * game.board.size + 3 * n


def encode(game, observation: dict, player: int) -> list[float]:
    """Piece planes by player and value, then mover, captured points and pieces on the board."""
    n, cells, index = game.num_players, game.board.size, game.board.index
    planes = [0.0] * (MAX_VALUE * n * cells)
    on_board = [0] * n
    for name, owner, value in observation["pieces"]:
        planes[(owner * MAX_VALUE + value - 1) * cells + index[name]] = 1.0
        on_board[owner] += 1
    points = [
        sum(value for _, value in captured) / (PIECES_PER_PLAYER * MAX_VALUE) for captured in observation["captured"]
    ]
    return (
        planes
        + [float(observation["to_move"] == p) for p in range(n)]
        + points
        + [count / PIECES_PER_PLAYER for count in on_board]
    )
