"""The positions of a recorded Sygo game, quickly: what the report card's repetition and
coverage read (``Game.recorded_positions``), without the engine's turn analysis.

The engine analyses every turn's start (the mover's groups, their liberties, the sources of
each point) to judge each action; a replay of actions already judged needs only what a turn
does to the board. That depends on the stones it fills alone (``growth.Turn.position``): they
join the mover, and every opponent group whose liberties at the turn's start they all fill is
reversed to the mover's colour, whatever the order. So a turn costs a flood of each opponent
group next to its stones, and a placement or pass no more than that. The actions are taken as
recorded (``simulate(record_actions=True)`` records only legal ones); only what costs nothing
is checked: an action code out of range, a stone on an occupied point, a pass inside a turn, a
finish with no growth stone, or an action after the game's end raises ``IllegalActionError``. A subtler hand edit (a growth stone that no group
could reach) is taken as it stands, where the engine's replay (``sim.replay_actions``) would raise.

``tests/games/sygo/test_replay.py`` proves the positions equal to the engine's, game by game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ...errors import IllegalActionError
from .bitboard import Geometry
from .rules import FINISH, FIRST_PLACE, PASS

__all__ = ["positions"]


def positions(geom: Geometry, actions: Iterable[int]) -> Iterator[tuple[tuple, int]]:
    """``(State.key(), State.occupied_sites())`` of the game's positions: the start, then each
    position a completed turn leaves (as the engine's replay, turns in progress skipped)."""
    n = geom.points
    white = black = to_move = passes = filled = 0
    grown = False
    yield (white, black, to_move, grown, passes), 0
    for ply, action in enumerate(actions):
        action = int(action)
        if passes >= 2:
            _refuse(ply, action, "comes after the game's end (two passes)")
        if not 0 <= action < FIRST_PLACE + 2 * n:
            _refuse(ply, action, f"is not a Sygo action code (0 … {FIRST_PLACE + 2 * n - 1})")
        if action in (PASS, FINISH) and bool(filled) != (action == FINISH):
            _refuse(ply, action, "finishes no growth turn" if action == FINISH else "passes in the middle of a turn")
        point = action - FIRST_PLACE - n if action >= FIRST_PLACE + n else action - FIRST_PLACE
        if action >= FIRST_PLACE and (white | black | filled) >> point & 1:
            _refuse(ply, action, "puts a stone on an occupied point")
        if action >= FIRST_PLACE + n:  # a growth stone: the turn goes on
            filled |= 1 << point
            continue
        if action == PASS:
            passes += 1
        else:
            if action != FINISH:  # a placement, or the balancing stone ending a growth turn
                grown = grown or filled != 0
                filled |= 1 << point
            else:
                grown = True
            mover, opponent = (white, black) if to_move == 0 else (black, white)
            mover, opponent = _turn(geom, mover, opponent, filled)
            white, black = (mover, opponent) if to_move == 0 else (opponent, mover)
            passes, filled = 0, 0
        to_move = 1 - to_move
        yield (white, black, to_move, grown, passes), white | black


def _refuse(ply: int, action: int, what: str) -> None:
    raise IllegalActionError(f"sygo: recorded action #{ply} (code {action}) {what}")


def _turn(geom: Geometry, mover: int, opponent: int, filled: int) -> tuple[int, int]:
    """(mover, opponent) after a turn filling ``filled``: the opponent groups next to those
    stones whose every empty neighbour (at the turn's start) they fill are reversed."""
    mover |= filled
    empty = geom.full & ~(mover | opponent)
    touched = geom.spread(filled) & opponent
    while touched:
        group = geom.flood(touched & -touched, opponent)
        touched &= ~group
        if not geom.spread(group) & empty:
            mover |= group
            opponent &= ~group
    return mover, opponent
