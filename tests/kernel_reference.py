"""The reference every kernel's differential test compares with: the Python engine playing a
random game from explicit random streams, each seat drawing from its own as ``RandomAgent``
does, counted as ``simulate`` counts (a turn: a run of moves by one player; a move: what ends
on a position)."""

from __future__ import annotations

from typing import NamedTuple

from tabletop_lab.core import Game, State
from tabletop_lab.streams import choice_index, next_draw


class ReferenceGame(NamedTuple):
    state: State
    turns: int
    moves: int


def reference_game(game: Game, streams, cap: int) -> ReferenceGame:
    """Play from the initial position until the end or ``cap`` actions; ``streams[p]`` is seat
    ``p``'s stream state."""
    state = game.new_initial_state()
    streams = [int(s) for s in streams]
    legal_actions, apply_action = state.legal_actions, state.apply_action
    current_player, mid_turn = state.current_player, state.mid_turn
    turns = moves = 0
    mover = None
    for _ in range(cap):
        legal = legal_actions()
        if not legal:
            break
        player = current_player()
        if not mid_turn():
            moves += 1
            if player != mover:
                turns, mover = turns + 1, player
        streams[player], draw = next_draw(streams[player])
        apply_action(legal[choice_index(draw, len(legal))])
    return ReferenceGame(state, turns, moves)
