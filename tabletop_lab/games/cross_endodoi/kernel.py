"""Compiled playouts for Cross-endodoi (``tabletop_lab.kernels``): random games and rollouts.

A position is a flat int64 array of 16 entries: holes 0..11, stores 12..13, the side to move 14
and the pie rule's stage 15 (``_STAGES``: kept, first, offered, swapped; kept without the
option). The sowing below is ``CrossEndodoiState._apply`` written for numba: same laps, relays,
capture, swap and end test; ``tests/games/cross_endodoi/test_kernel.py`` proves them equal game
by game. Seats draw and score as the players who play the sides: the side's number, swapped
once the swap is made.
"""

from __future__ import annotations

import numpy as np

from ...compiled_alphabeta import alphabeta_iteration
from ...compiled_search import uct_search
from ...jit import choice_index, copy_into, next_draw, njit, write_decimal
from ...kernels import CUT, FINISHED, REPLAY, PlayedGames, RecordedGame, TreeRoot, as_recorded, new_record
from .rules import FIRST, KEPT, NUM_HOLES, OFFERED, ROW, SWAP, SWAPPED, CrossEndodoiGame, CrossEndodoiState

__all__ = ["KERNEL"]

_STORES, _TO_MOVE, _PIE, _SIZE = 12, 14, 15, 16
_WRITTEN = 15  # the entries the notation writes as numbers: all but the stage, a word
#: The stage codes of entry ``_PIE``, indexed by code (0 is the stage without the option).
_STAGES = (KEPT, FIRST, OFFERED, SWAPPED)
_KEPT, _FIRST, _OFFERED, _SWAPPED = range(4)
_LAP_LIMIT = -1  # _sow's answer when a move needs more than max_laps laps
_SEPARATORS = np.frombuffer(b",,,,,/,,,,, - ", np.uint8)  # before entries 1..14 of a position


@njit
def _step(hole, step):
    """The next hole round the ring: +1 counter-clockwise, -1 clockwise."""
    hole += step
    if hole == NUM_HOLES:
        return 0
    if hole < 0:
        return NUM_HOLES - 1
    return hole


@njit
def _seat(pos):
    """The player who plays the side to move: the side, unless the sides were swapped."""
    return pos[_TO_MOVE] ^ (1 if pos[_PIE] == _SWAPPED else 0)


@njit
def _sow(pos, action, ring, max_laps):
    """Play ``action`` on ``pos`` in place: sow a hole, or swap (``SWAP``: the stage changes,
    nothing else); return the laps sown, or ``_LAP_LIMIT`` (``pos`` is then spoilt: callers
    replay such a game in Python, which raises ``LapLimitError``)."""
    if action == SWAP:
        pos[_PIE] = _SWAPPED
        return 0
    mover = pos[_TO_MOVE]
    origin = action
    laps = 0
    while True:
        seeds = pos[origin]
        pos[origin] = 0
        step = -1 if seeds & 1 else 1  # odd: clockwise, even: counter-clockwise
        hole = origin
        if seeds <= ring:
            for _ in range(seeds):
                hole = _step(hole, step)
                pos[hole] += 1
            last = hole
        else:  # whole rounds of the ring, then the rest
            rounds = seeds // ring
            rest = seeds % ring
            last = origin
            for k in range(ring):
                hole = _step(hole, step)
                if k < rest:
                    pos[hole] += rounds + 1
                    last = hole
                else:
                    pos[hole] += rounds
            if rest == 0:  # the last seed ended a whole round
                last = hole
        laps += 1
        if pos[last] == 1:  # the last seed fell into an empty hole
            break
        if laps == max_laps:
            return _LAP_LIMIT
        origin = last  # relay
    across = NUM_HOLES - 1 - last
    if (last < ROW) == (mover == 0) and pos[across] > 0:
        pos[_STORES + mover] += pos[across] + 1
        pos[across] = 0
        pos[last] = 0
    pos[_TO_MOVE] = 1 - mover
    if pos[_PIE] == _FIRST:
        pos[_PIE] = _OFFERED
    elif pos[_PIE] == _OFFERED:
        pos[_PIE] = _KEPT
    return laps


@njit
def _n_legal(pos):
    """The number of legal actions: the mover's non-empty holes, and the swap when offered."""
    base = ROW * pos[_TO_MOVE]
    n = 0
    for h in range(base, base + ROW):
        if pos[h] > 0:
            n += 1
    if n > 0 and pos[_PIE] == _OFFERED:
        n += 1
    return n


@njit
def _nth_legal(pos, index):
    """Legal action ``index`` (from 0) of the engine's list: the mover's non-empty holes,
    ascending, then the swap when offered."""
    base = ROW * pos[_TO_MOVE]
    for h in range(base, base + ROW):
        if pos[h] > 0:
            if index == 0:
                return h
            index -= 1
    if index == 0 and pos[_PIE] == _OFFERED:
        return SWAP
    return -1


@njit
def _play(pos, streams, budget, ring, max_laps, record):
    """Random actions on ``pos`` until the end or ``budget`` actions; the player to move draws
    from ``streams[player]`` (updated). Records each action and the number of legal actions
    before it in ``record`` (``kernels.new_record``) unless it is empty.
    Returns the number played, or ``_LAP_LIMIT``."""
    played = 0
    while played < budget:
        player = _seat(pos)
        n = _n_legal(pos)
        if n == 0:
            break
        streams[player], draw = next_draw(streams[player])
        action = _nth_legal(pos, choice_index(draw, n))
        if record.shape[1]:
            record[0, played] = action
            record[1, played] = n
        if _sow(pos, action, ring, max_laps) == _LAP_LIMIT:
            return _LAP_LIMIT
        played += 1
    return played


@njit
def _is_over(pos):
    base = ROW * pos[_TO_MOVE]
    for h in range(base, base + ROW):
        if pos[h] > 0:
            return False
    return True


@njit
def _final_scores(pos):
    """The sides' scores at the end: the board's seeds go to the side that is not to move."""
    left = 0
    for h in range(NUM_HOLES):
        left += pos[h]
    s0, s1 = pos[_STORES], pos[_STORES + 1]
    if pos[_TO_MOVE] == 0:
        s1 += left
    else:
        s0 += left
    return s0, s1


@njit
def _random_games(start, streams, max_actions, ring, max_laps, finals, n_actions, outcome, record):
    """Play one game per row of ``streams`` (uint64, one column per player) from ``start``;
    fill ``finals`` (n x ``_SIZE``), ``n_actions`` and ``outcome`` (FINISHED, CUT or REPLAY); record
    the game in ``record`` unless it is empty (one game)."""
    for g in range(streams.shape[0]):
        pos = finals[g]
        copy_into(pos, start)
        played = _play(pos, streams[g], max_actions, ring, max_laps, record)
        if played == _LAP_LIMIT:
            outcome[g] = REPLAY
            n_actions[g] = 0
        else:
            n_actions[g] = played
            outcome[g] = FINISHED if _is_over(pos) else CUT


@njit
def _rollout(holes, store0, store1, to_move, pie, budget, stream, ring, max_laps, total):
    """A random rollout from a position given as a tuple of holes and four ints (cheaper to
    pass than an array): see ``_roll``."""
    pos = np.empty(_SIZE, np.int64)
    for h in range(NUM_HOLES):
        pos[h] = holes[h]
    pos[_STORES] = store0
    pos[_STORES + 1] = store1
    pos[_TO_MOVE] = to_move
    pos[_PIE] = pie
    return _roll(pos, budget, stream, ring, max_laps, total)


@njit
def _roll(pos, budget, stream, ring, max_laps, total):
    """A random rollout on ``pos`` (changed): player 0's value, the new stream state, and the
    status (1 ended, 0 stopped by ``budget`` or by a sowing past ``max_laps``, as
    ``kernels.random_rollout`` stops: the value is then the evaluation, the store difference,
    which a sowing changes only once it ends). Player 0 plays North once the sides are swapped."""
    played = 0
    status = 0
    while played < budget:
        if _is_over(pos):
            break
        stream, draw = next_draw(stream)
        if _sow(pos, _nth_legal(pos, choice_index(draw, _n_legal(pos))), ring, max_laps) == _LAP_LIMIT:
            return _for_player_0(pos, (pos[_STORES] - pos[_STORES + 1]) / total), stream, 0
        played += 1
    if _is_over(pos):
        status = 1
        s0, s1 = _final_scores(pos)
        value = 0.0 if s0 == s1 else (1.0 if s0 > s1 else -1.0)
    else:
        value = (pos[_STORES] - pos[_STORES + 1]) / total
    return _for_player_0(pos, value), stream, status


@njit
def _for_player_0(pos, value):
    """South's ``value`` as player 0's: the same, or negated once the sides are swapped."""
    return -value if pos[_PIE] == _SWAPPED and value != 0.0 else value


# ----------------------------------------------------------------------------- the compiled tree
# MCTSAgent's compiled search (compiled_search.py) on the array form of ``flat``: all 16
# entries are the key, as ``key()`` is (holes, stores, to_move, pie) and nothing else.
# ``rules`` = (ring, max_laps, total seeds).


@njit
def _tree_legal(pos, rules, out):
    """``legal_actions()``: the mover's non-empty holes, ascending, then the swap when offered
    (none at the end)."""
    base = ROW * pos[_TO_MOVE]
    n = 0
    for h in range(base, base + ROW):
        if pos[h] > 0:
            out[n] = h
            n += 1
    if n > 0 and pos[_PIE] == _OFFERED:
        out[n] = SWAP
        n += 1
    return n


@njit
def _tree_apply(pos, action, rules):
    return -1 if _sow(pos, action, rules[0], rules[1]) == _LAP_LIMIT else 0


@njit
def _tree_player(pos, rules):
    return -4 if _is_over(pos) else _seat(pos)  # TERMINAL


@njit
def _tree_rollout(pos, budget, stream, rules, values):
    value, stream, status = _roll(pos.copy(), budget, stream, rules[0], rules[1], rules[2])
    values[0] = value
    values[1] = -value
    return stream, 0


@njit
def _tree_search(rules, root, key_width, n_players, max_legal, iterations, c, cap, rollout_cap, paranoid, root_player,
                 team, mt, stream, out):  # fmt: skip
    return uct_search(
        _tree_legal, _tree_apply, _tree_player, _tree_rollout, rules, root, key_width, n_players, max_legal,
        iterations, c, cap, rollout_cap, paranoid, root_player, team, mt, stream, out,
    )  # fmt: skip


@njit
def _tree_alphabeta(rules, root, key_width, max_legal, order, depth, exact, armed, node_limit, nodes,
                    best_keys, best_acts, best_table, n_best, root_values):  # fmt: skip
    return alphabeta_iteration(
        _tree_legal, _tree_apply, _tree_player, _tree_rollout, rules, root, key_width, max_legal,
        order, depth, exact, armed, node_limit, nodes, best_keys, best_acts, best_table, n_best, root_values,
    )  # fmt: skip


@njit
def _write_notations(finals, text):
    """ASCII ``h0,..,h5/h6,..,h11 S-N P`` of each row of ``finals`` into ``text`` (zero padded);
    the stage's word, under ``pie_rule``, is added by ``notations``."""
    for g in range(finals.shape[0]):
        out = text[g]
        at = 0
        for i in range(_WRITTEN):
            if i > 0:
                out[at] = _SEPARATORS[i - 1]
                at += 1
            at = write_decimal(out, at, finals[g, i])


# ----------------------------------------------------------------------------- the Python side


def flat(state: CrossEndodoiState) -> np.ndarray:
    """The kernel's array form of ``state``."""
    return np.array([*state.holes, *state.stores, state.to_move, _STAGES.index(state.pie)], dtype=np.int64)


def notations(finals: np.ndarray, pie_rule: bool = False) -> np.ndarray:
    """The spec's notation of each kernel position (as ``CrossEndodoiState.notation``), as a
    numpy bytes array: ASCII written by the kernel, 10 times faster than f-strings; under
    ``pie_rule`` each ends in its stage's word."""
    numbers = finals[:, :_WRITTEN]
    width = _WRITTEN * len(str(int(numbers.max(initial=0)))) + _WRITTEN - 1  # the numbers and separators
    text = np.zeros((len(finals), width), np.uint8)
    _write_notations(numbers, text)
    written = text.view(f"S{width}")[:, 0]
    if not pie_rule:
        return written
    words = np.array([f" {stage}".encode() for stage in _STAGES])
    return np.char.add(written, words[finals[:, _PIE]])


class CrossEndodoiKernel:
    """The ``PlayoutKernel`` of Cross-endodoi: every option and engine parameter."""

    def supports(self, game) -> bool:
        return isinstance(game, CrossEndodoiGame)

    @staticmethod
    def _rules(game) -> tuple[int, int]:
        return (NUM_HOLES - 1 if game.options["skip_origin"] else NUM_HOLES), game.params["max_laps"]

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        return self._games(game, flat(game.new_initial_state()), streams, max_actions, np.empty((2, 0), np.int64))

    def recorded_game(self, state: CrossEndodoiState, streams: np.ndarray, max_actions: int) -> RecordedGame:
        record = new_record(max_actions)
        played = self._games(state.game, flat(state), streams.reshape(1, -1), max_actions, record)
        return as_recorded(record, played)

    def _games(self, game, start: np.ndarray, streams: np.ndarray, max_actions: int, record) -> PlayedGames:
        n = len(streams)
        finals = np.empty((n, _SIZE), np.int64)
        n_actions = np.empty(n, np.int32)
        outcome = np.empty(n, np.int8)
        _random_games(start, streams.copy(), max_actions, *self._rules(game), finals, n_actions, outcome, record)
        scores = finals[:, _STORES:_TO_MOVE].copy()
        ended = outcome == FINISHED  # the board's seeds go to the side not to move
        scores[ended, 1 - finals[ended, _TO_MOVE]] += finals[ended, :NUM_HOLES].sum(axis=1)
        swapped = finals[:, _PIE] == _SWAPPED  # each player scores the side they play
        scores[swapped] = scores[swapped, ::-1]
        winners = np.where(scores[:, 0] > scores[:, 1], 1, np.where(scores[:, 0] < scores[:, 1], 2, 3))
        return PlayedGames(
            outcome=outcome,
            winners=winners,
            scores=scores,
            reason=np.zeros(n, np.int8),
            reasons=("standard",),
            n_turns=n_actions,  # one action a move, one move a turn (the players alternate, swap or not)
            n_moves=n_actions,
            n_actions=n_actions,
            final=notations(finals, game.pie_rule),
        )

    def rollout(self, state: CrossEndodoiState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return (state.returns() if state.is_terminal() else state.evaluate()), stream
        game = state.game
        stores = state.stores
        value, after, _ = _rollout(
            tuple(state.holes), stores[0], stores[1], state.to_move, _STAGES.index(state.pie), budget,
            np.uint64(stream), *self._rules(game), game.total_seeds,
        )  # fmt: skip
        return [value, -value if value else 0.0], int(after)

    def tree_root(self, state: CrossEndodoiState) -> TreeRoot:
        ring, max_laps = self._rules(state.game)
        rules = (ring, max_laps, state.game.total_seeds)
        return TreeRoot(flat(state), _SIZE, rules, ROW + 1, _tree_search, _tree_alphabeta)  # the holes and the swap


KERNEL = CrossEndodoiKernel()
