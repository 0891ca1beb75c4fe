"""Compiled playouts for Sinomilia (``tabletop_lab.kernels``): random games and rollouts.

A state is a flat int64 array of 20 entries, the fields of ``SinomiliaState`` (see the ``_``
indices below): hands and discards as the engine's 10-bit masks, -1 for ``None`` and for no set
card. ``_apply`` and ``_resolve`` are ``SinomiliaState._apply`` and ``_resolve`` written for
numba, and ``_n_legal`` and ``_nth_legal`` pick from the engine's legal list (``legal_actions()``: cards
ascending; ``chip sun``, ``chip moon``, changes ascending, ``pass``) without building it.
``tests/games/sinomilia/test_kernel.py`` proves them equal game by game.

Random games play full states (both set cards known to the kernel, as to the engine); rollouts
start from whatever state they are given, e.g. a world that information-set search drew with
``resample``. Every rules config is supported: both ``first_player`` values and every
``round_cap`` (an option holds at most 2**63 - 1, an int64).
"""

from __future__ import annotations

import numpy as np

from ...jit import choice_index, copy_into, next_draw, njit, text_pieces, write_decimal, write_piece
from ...kernels import CUT, FINISHED, RULE_CAP, PlayedGames, RecordedGame, as_recorded, new_record
from .rules import (
    CHANGE,
    PASS,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_SET,
    PHASES,
    SUN,
    TABLE_LIMIT,
    TOTAL_CHIPS,
    TURN_CHANGE,
    TURN_MOON,
    TURN_NONE,
    TURN_PASS,
    TURN_SUN,
    TURNS,
    SinomiliaGame,
    SinomiliaState,
    cards_of,
)

__all__ = ["KERNEL"]

# Entries of a state array; a pair (chips, hands, cards, discards, changed) takes two, player 0 first.
_ROUND, _PHASE, _START, _TO_MOVE, _CHIPS, _SUN, _MOON, _HANDS, _CARDS, _DISCARDS = 0, 1, 2, 3, 4, 6, 7, 8, 10, 12
_CHANGED, _LAST_ACTION, _LAST_TURN, _LAST_WINNER, _CAP_REACHED, _SIZE = 14, 16, 17, 18, 19, 20
_NONE = -1  # an entry for None (no player, no set card)
_NO_CAP = 0  # the kernel's round_cap for None

_REASONS = ("chips", "hand", "cap")
_BY_CHIPS, _BY_HAND, _BY_CAP = range(3)


def _card_tables() -> tuple[np.ndarray, np.ndarray]:
    """By 10-bit mask: the number of cards, and the cards ascending (padded with -1)."""
    counts = np.array([mask.bit_count() for mask in range(1 << 10)], np.int64)
    ranked = np.full((1 << 10, 10), -1, np.int64)
    for mask in range(1 << 10):
        ranked[mask, : counts[mask]] = cards_of(mask)
    return counts, ranked


_CARD_COUNTS, _CARDS_BY_RANK = _card_tables()


@njit
def _count(mask):
    """The number of cards in a 10-bit mask."""
    return _CARD_COUNTS[mask]


@njit
def _nth_card(mask, index):
    """The card of rank ``index`` (from 0, ascending) in a 10-bit mask."""
    return _CARDS_BY_RANK[mask, index]


@njit
def _n_legal(pos):
    """``len(legal_actions())`` of ``pos`` (a game not over)."""
    mover = pos[_TO_MOVE]
    if pos[_PHASE] == PHASE_SET:
        return _count(pos[_HANDS + mover])
    if pos[_CHIPS + mover] == 0:  # [pass]
        return 1
    if pos[_CHANGED + mover]:  # [chip sun, chip moon, pass]
        return 3
    return _count(pos[_HANDS + mover] | 1 << pos[_CARDS + mover]) + 3  # suns, moons, a change to each held card, pass


@njit
def _nth_legal(pos, index, n):
    """``legal_actions()[index]`` of ``pos``, whose list has ``n`` actions, without making it."""
    mover = pos[_TO_MOVE]
    if pos[_PHASE] == PHASE_SET:
        return _nth_card(pos[_HANDS + mover], index)
    if index == n - 1:  # pass comes last: [pass], [chip sun, chip moon, pass], ..
        return PASS
    if index < 2:
        return SUN + index
    return CHANGE + _nth_card(pos[_HANDS + mover] | 1 << pos[_CARDS + mover], index - 2)


@njit
def _apply(pos, action, round_cap):
    """``SinomiliaState._apply``: play a legal ``action`` on ``pos`` in place."""
    mover = pos[_TO_MOVE]
    other = 1 - mover
    if action < SUN:  # set
        pos[_HANDS + mover] &= ~(1 << action)
        pos[_CARDS + mover] = action
        if mover == pos[_START]:
            pos[_TO_MOVE] = other
        else:
            pos[_PHASE] = PHASE_PLAY
            pos[_TO_MOVE] = pos[_START]
    elif action == PASS:
        if pos[_LAST_TURN] == TURN_PASS or pos[_LAST_TURN] == TURN_MOON:  # C2, C3
            _resolve(pos, round_cap)
        else:
            pos[_LAST_TURN] = TURN_PASS
            pos[_TO_MOVE] = other
    elif action < CHANGE:  # chip
        pos[_CHIPS + mover] -= 1
        if action == SUN:
            pos[_SUN] += 1
            pos[_LAST_TURN] = TURN_SUN
        else:
            pos[_MOON] += 1
            pos[_LAST_TURN] = TURN_MOON
        pos[_LAST_ACTION] = mover
        if pos[_SUN] + pos[_MOON] == TABLE_LIMIT:  # C1
            _resolve(pos, round_cap)
        else:
            pos[_TO_MOVE] = other
    else:  # change
        pos[_CHIPS + mover] -= 1
        pos[_CHIPS + other] += 1
        pos[_HANDS + mover] = (pos[_HANDS + mover] | 1 << pos[_CARDS + mover]) & ~(1 << (action - CHANGE))
        pos[_CARDS + mover] = action - CHANGE
        pos[_CHANGED + mover] = 1
        pos[_LAST_ACTION] = mover
        pos[_LAST_TURN] = TURN_CHANGE
        pos[_TO_MOVE] = other


@njit
def _resolve(pos, round_cap):
    """``SinomiliaState._resolve``: reveal, winner, payment, discards, reset, game end check."""
    table = pos[_SUN] + pos[_MOON]
    d0, d1 = abs(pos[_CARDS] - table), abs(pos[_CARDS + 1] - table)
    if d0 != d1:
        winner = 0 if d0 < d1 else 1
    elif pos[_LAST_ACTION] != _NONE:
        winner = 1 - pos[_LAST_ACTION]
    else:
        winner = pos[_START]
    loser = 1 - winner
    pile = pos[_CHIPS + winner]
    owed = (5 if pile == 0 else 2 if pile == 1 else 0) + 2 + pos[_MOON]
    paid = min(owed, pos[_CHIPS + loser])
    pos[_CHIPS + loser] -= paid
    pos[_CHIPS + winner] += paid + table
    for player in range(2):
        card = pos[_CARDS + player]
        if card == 9:
            pos[_HANDS + player] |= 1 << 9
        else:
            pos[_DISCARDS + player] |= 1 << card
        pos[_CARDS + player] = _NONE
        pos[_CHANGED + player] = 0
    pos[_SUN] = pos[_MOON] = 0
    pos[_LAST_ACTION] = _NONE
    pos[_LAST_TURN] = TURN_NONE
    pos[_LAST_WINNER] = winner
    if pos[_CHIPS] == 0 or pos[_CHIPS + 1] == 0 or _count(pos[_HANDS]) == 2 or _count(pos[_HANDS + 1]) == 2:
        pos[_PHASE] = PHASE_OVER
        pos[_TO_MOVE] = _NONE
    elif round_cap != _NO_CAP and pos[_ROUND] >= round_cap:
        pos[_PHASE] = PHASE_OVER
        pos[_TO_MOVE] = _NONE
        pos[_CAP_REACHED] = 1
    else:
        pos[_ROUND] += 1
        pos[_PHASE] = PHASE_SET
        pos[_START] = pos[_TO_MOVE] = winner


@njit
def _play(pos, streams, per_player, budget, round_cap, record):
    """Random actions on ``pos`` until the end or ``budget`` actions. The player to move draws
    from ``streams[player]`` if ``per_player``, else everyone from ``streams[0]`` (updated).
    Records each action and the number of legal actions before it in ``record``
    (``kernels.new_record``) unless it is empty. Returns the actions and turns played (a turn:
    a run of actions by one player; a round's last mover may start the next)."""
    played = turns = 0
    previous = _NONE
    while played < budget and pos[_PHASE] != PHASE_OVER:
        player = pos[_TO_MOVE]
        if player != previous:
            turns += 1
            previous = player
        s = player if per_player else 0
        streams[s], draw = next_draw(streams[s])
        n = _n_legal(pos)
        action = _nth_legal(pos, choice_index(draw, n), n)
        if record.shape[1]:
            record[0, played] = action
            record[1, played] = n
        _apply(pos, action, round_cap)
        played += 1
    return played, turns


@njit
def _random_games(start, streams, max_actions, round_cap, finals, n_actions, n_turns, record):
    """One game per row of ``streams`` (uint64, a column per player) from ``start``: the final
    states in ``finals`` (n x 20), the lengths in ``n_actions`` and ``n_turns``; the game
    recorded in ``record`` unless it is empty (one game)."""
    for g in range(streams.shape[0]):
        pos = finals[g]
        copy_into(pos, start)
        n_actions[g], n_turns[g] = _play(pos, streams[g], True, max_actions, round_cap, record)


@njit
def _rollout(fields, budget, stream, round_cap):
    """A random rollout from the state ``fields`` (a tuple, cheaper to pass than an array):
    player 0's value (+1/-1 at the end, else the pile lead as a share of all chips) and the
    stream's new state."""
    pos = np.empty(_SIZE, np.int64)
    for i in range(_SIZE):
        pos[i] = fields[i]
    streams = np.empty(1, np.uint64)
    streams[0] = stream
    _play(pos, streams, False, budget, round_cap, np.empty((2, 0), np.int64))
    c0, c1 = pos[_CHIPS], pos[_CHIPS + 1]
    if pos[_PHASE] == PHASE_OVER:
        winner = pos[_LAST_WINNER] if c0 == c1 else (0 if c0 > c1 else 1)
        return (1.0 if winner == 0 else -1.0), streams[0]
    return (c0 - c1) / TOTAL_CHIPS, streams[0]


# ----------------------------------------------------------------------------- final positions as JSON

_PIECES = (
    '{"game":"sinomilia","round":', ',"phase":"', '","start_player":', ',"to_move":', ',"chips":[', '],"table":[',
    '],"hands":[', '],"set":[', '],"discards":[', '],"changed":[', '],"last_action":', ',"last_turn":"',
    '","last_round_winner":', ',"cap_reached":', "}", ",", "null", "false", "true", *PHASES, *TURNS,
)  # fmt: skip
_OPEN, _PHASE_KEY, _START_KEY, _TO_MOVE_KEY, _CHIPS_KEY, _TABLE_KEY, _HANDS_KEY, _SET_KEY = range(8)
_DISCARDS_KEY, _CHANGED_KEY, _LAST_ACTION_KEY, _LAST_TURN_KEY, _LAST_WINNER_KEY, _CAP_KEY = range(8, 14)
_CLOSE, _COMMA, _NULL, _FALSE = (_PIECES.index(word) for word in ("}", ",", "null", "false"))  # _FALSE + 1: true
_PHASE_NAMES, _TURN_NAMES = _PIECES.index(PHASES[0]), _PIECES.index(TURNS[0])  # by the engine's codes
_PIECE_TEXT, _PIECE_STARTS = text_pieces(_PIECES)
_JSON_WIDTH = 400  # more than the longest position (a 19-digit round, full hands)


@njit
def _put(out, at, piece):
    """Write text piece ``piece`` at ``out[at]``; the position after it."""
    return write_piece(out, at, _PIECE_TEXT, _PIECE_STARTS, piece)


@njit
def _put_int(out, at, value):
    """A non-negative int in decimal, or ``null`` for ``_NONE``."""
    if value == _NONE:
        return _put(out, at, _NULL)
    return write_decimal(out, at, value)


@njit
def _put_pair(out, at, pos, first, as_bool):
    """``a,b`` for entries ``first`` and ``first + 1``, as ints (-1: null) or booleans."""
    for player in range(2):
        if player:
            at = _put(out, at, _COMMA)
        value = pos[first + player]
        at = _put(out, at, _FALSE + value) if as_bool else _put_int(out, at, value)
    return at


@njit
def _put_cards(out, at, pos, first):
    """``[..],[..]``: the cards of the masks at ``first`` and ``first + 1``, ascending."""
    for player in range(2):
        if player:
            at = _put(out, at, _COMMA)
        out[at] = 91  # [
        at += 1
        mask = pos[first + player]
        separator = False
        for k in range(10):
            if mask >> k & 1:
                if separator:
                    out[at] = 44  # ,
                    at += 1
                out[at] = 48 + k
                at += 1
                separator = True
        out[at] = 93  # ]
        at += 1
    return at


@njit
def _write_json(finals, text, lengths):
    """The canonical JSON of each row of ``finals`` (``SinomiliaState.to_json``) into ``text``."""
    for g in range(finals.shape[0]):
        pos, out = finals[g], text[g]
        at = _put(out, 0, _OPEN)
        at = _put_int(out, at, pos[_ROUND])
        at = _put(out, at, _PHASE_KEY)
        at = _put(out, at, _PHASE_NAMES + pos[_PHASE])
        at = _put(out, at, _START_KEY)
        at = _put_int(out, at, pos[_START])
        at = _put(out, at, _TO_MOVE_KEY)
        at = _put_int(out, at, pos[_TO_MOVE])
        at = _put(out, at, _CHIPS_KEY)
        at = _put_pair(out, at, pos, _CHIPS, False)
        at = _put(out, at, _TABLE_KEY)
        at = _put_pair(out, at, pos, _SUN, False)
        at = _put(out, at, _HANDS_KEY)
        at = _put_cards(out, at, pos, _HANDS)
        at = _put(out, at, _SET_KEY)
        at = _put_pair(out, at, pos, _CARDS, False)
        at = _put(out, at, _DISCARDS_KEY)
        at = _put_cards(out, at, pos, _DISCARDS)
        at = _put(out, at, _CHANGED_KEY)
        at = _put_pair(out, at, pos, _CHANGED, True)
        at = _put(out, at, _LAST_ACTION_KEY)
        at = _put_int(out, at, pos[_LAST_ACTION])
        at = _put(out, at, _LAST_TURN_KEY)
        at = _put(out, at, _TURN_NAMES + pos[_LAST_TURN])
        at = _put(out, at, _LAST_WINNER_KEY)
        at = _put_int(out, at, pos[_LAST_WINNER])
        at = _put(out, at, _CAP_KEY)
        at = _put(out, at, _FALSE + pos[_CAP_REACHED])
        lengths[g] = _put(out, at, _CLOSE)


# ----------------------------------------------------------------------------- the Python side


def fields(state: SinomiliaState) -> tuple[int, ...]:
    """The kernel's form of ``state``, as a tuple (``flat`` makes the array)."""
    return (
        state.round, state.phase, state.start, _NONE if state.to_move is None else state.to_move,
        *state.chips, state.sun, state.moon, *state.hands, *state.cards, *state.discards,
        int(state.changed[0]), int(state.changed[1]),
        _NONE if state.last_action is None else state.last_action, state.last_turn,
        _NONE if state.last_round_winner is None else state.last_round_winner, int(state.cap_reached),
    )  # fmt: skip


def flat(state: SinomiliaState) -> np.ndarray:
    """The kernel's array form of ``state``."""
    return np.array(fields(state), dtype=np.int64)


def positions_json(finals: np.ndarray) -> np.ndarray:
    """The canonical JSON of each kernel state (as ``SinomiliaState.to_json``), as a numpy
    bytes array: ASCII written by the kernel, many times faster than ``json.dumps``."""
    text = np.zeros((len(finals), _JSON_WIDTH), np.uint8)
    lengths = np.zeros(len(finals), np.int64)
    _write_json(finals, text, lengths)
    width = max(1, int(lengths.max(initial=0)))
    return np.ascontiguousarray(text[:, :width]).view(f"S{width}")[:, 0]


def _round_cap(game: SinomiliaGame) -> int:
    cap = game.options["round_cap"]
    return _NO_CAP if cap is None else cap


class SinomiliaKernel:
    """The ``PlayoutKernel`` of Sinomilia: every rules config."""

    def supports(self, game) -> bool:
        return isinstance(game, SinomiliaGame)

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        return self._games(game, flat(game.new_initial_state()), streams, max_actions, np.empty((2, 0), np.int64))

    def recorded_game(self, state: SinomiliaState, streams: np.ndarray, max_actions: int) -> RecordedGame:
        record = new_record(max_actions)
        return as_recorded(record, self._games(state.game, flat(state), streams.reshape(1, -1), max_actions, record))

    def _games(self, game, start: np.ndarray, streams: np.ndarray, max_actions: int, record) -> PlayedGames:
        n = len(streams)
        finals = np.empty((n, _SIZE), np.int64)
        n_actions = np.empty(n, np.int32)
        n_turns = np.empty(n, np.int32)
        _random_games(start, streams.copy(), max_actions, _round_cap(game), finals, n_actions, n_turns, record)
        over = finals[:, _PHASE] == PHASE_OVER
        capped = finals[:, _CAP_REACHED] == 1
        scores = finals[:, _CHIPS : _CHIPS + 2].copy()
        winner = np.where(
            scores[:, 0] == scores[:, 1], finals[:, _LAST_WINNER], np.where(scores[:, 0] > scores[:, 1], 0, 1)
        )
        by_chips = (scores == 0).any(axis=1)
        return PlayedGames(
            outcome=np.where(capped, RULE_CAP, np.where(over, FINISHED, CUT)).astype(np.int8),
            winners=np.where(over, 1 << np.maximum(winner, 0), 0).astype(np.int64),
            scores=scores,
            reason=np.where(by_chips, _BY_CHIPS, np.where(capped, _BY_CAP, _BY_HAND)).astype(np.int8),
            reasons=_REASONS,
            n_turns=n_turns,
            n_moves=n_actions,  # one action a move
            n_actions=n_actions,
            final=positions_json(finals),
        )

    def rollout(self, state: SinomiliaState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.phase == PHASE_OVER:
            return (state.returns() if state.is_terminal() else state.evaluate()), stream
        value, after = _rollout(fields(state), budget, np.uint64(stream), _round_cap(state.game))
        return [value, -value], int(after)


KERNEL = SinomiliaKernel()
