"""Compiled playouts for Sinoda (``tabletop_lab.kernels``): random games and rollouts.

Every rules config is supported: 2, 3, 4 and 6 players, both team layouts, both four-player
starts, any first player, and custom boards. The board reaches the kernel as arrays built from
``game.board`` (``board_tables``: for each cell and value, the destinations in canonical order
and the cells each minimal path passes through, derived from the board's adjacency), so another
board file needs no code change here. No game is left to the engine (``REPLAY``): the engine
has no error that a random game can meet.

A position is a flat int64 array (``offsets`` says where each part starts): ``owner[cell]``
(-1 empty), ``value[cell]`` (0 empty), ``pieces[p, :count[p]]`` (each player's cells, ascending),
``count[p]``, ``material[p]`` (values on the board), ``score[p]`` (captured points),
``taken[p]`` (pieces captured), ``captured[p, owner, value]`` (how many such pieces ``p`` holds)
and ``to_move``. The turn below is ``SinodaState._legal_actions`` and ``_apply`` written for
numba: same listing order, same end checks; ``tests/games/sinoda/test_kernel.py`` proves them
equal game by game.
"""

from __future__ import annotations

import functools
import json
import math
from typing import NamedTuple

import numpy as np

from ...compiled_search import uct_search
from ...jit import choice_index, copy_into, next_draw, njit, text_pieces, write_piece
from ...kernels import CUT, FINISHED, PlayedGames, RecordedGame, TreeRoot, as_recorded, new_record
from .geometry import MAX_VALUE, PIECES_PER_PLAYER, Board
from .rules import SinodaGame, SinodaState

__all__ = ["KERNEL"]

_CHANGE_UP, _FIRST_MOVE = 1, 2  # action slots, as in rules.py (0 is change down)
_GOING, _STANDARD, _SINODA = 0, 1, 2  # how a game stands; Result.reason words are _REASONS[end - 1]
_REASONS = ("standard", "sinoda")
_MAX_MIDS = MAX_VALUE - 1  # cells a path passes through before its destination
_CHANGES_PER_PIECE = 2

_TEXT, _TEXT_STARTS = text_pieces(('{"game":"sinoda","players":', ',"to_move":', ',"pieces":[', '],"captured":['))
_PREFIX, _TO_MOVE, _PIECES, _CAPTURED = range(4)  # the position JSON's pieces, in order


class BoardTables(NamedTuple):
    """A board as the kernel reads it (all int64 arrays).

    For cell ``c`` showing ``v``, entries ``group[4c + v - 1] .. group[4c + v] - 1`` of ``dest``
    are the destinations of its moves, ascending; destination entry ``j`` has the paths
    ``path[j] .. path[j + 1] - 1``, and path ``k`` passes through ``mids[k, :v - 1]`` (the rest of
    the row is ``size``, the position's always empty cell).
    """

    size: int
    group: np.ndarray
    dest: np.ndarray
    path: np.ndarray
    mids: np.ndarray
    names: np.ndarray  # (size, width) uint8: each cell's name as JSON (quoted, escaped), zero padded
    name_len: np.ndarray
    most_legal: int  # an upper bound on the legal actions of one player


@functools.lru_cache(maxsize=16)
def board_tables(board: Board) -> BoardTables:
    """The kernel's arrays of ``board``, from its short paths (``Board.routes``)."""
    group, dest, path, mids = [0], [], [0], []
    most_moves = 0
    for cell in range(board.size):
        for v in range(1, MAX_VALUE + 1):
            routes = board.routes[cell][v]
            for d, masks in routes.items():  # destinations ascending, as Board.routes keeps them
                dest.append(d)
                for mask in masks:
                    passed = [board.size] * _MAX_MIDS  # padded with the always empty cell
                    for i in range(mask.bit_count()):
                        passed[i] = (mask & -mask).bit_length() - 1  # the lowest cell left
                        mask &= mask - 1
                    mids += passed
                path.append(len(mids) // _MAX_MIDS)
            group.append(len(dest))
            most_moves = max(most_moves, len(routes))
    encoded = [json.dumps(name).encode("ascii") for name in board.names]
    width = max(len(e) for e in encoded)
    names = np.zeros((board.size, width), np.uint8)
    for c, e in enumerate(encoded):
        names[c, : len(e)] = np.frombuffer(e, np.uint8)
    return BoardTables(
        size=board.size,
        group=np.array(group, np.int64),
        dest=np.array(dest, np.int64),
        path=np.array(path, np.int64),
        mids=np.array(mids, np.int64).reshape(-1, _MAX_MIDS),
        names=names,
        name_len=np.array([len(e) for e in encoded], np.int64),
        most_legal=PIECES_PER_PLAYER * (_CHANGES_PER_PIECE + most_moves),
    )


# ----------------------------------------------------------------------------- the compiled side


@njit
def offsets(size, players):
    """Where each part of a position array starts: owner (``size + 1`` entries, the last one an
    always empty cell that pads short paths), value, pieces (``6 * players``: player ``p``'s
    cells from ``6p``), count, material, score, taken, captured (``players * players * 5``:
    ``captured[p, o, v]`` at ``(p * players + o) * 5 + v``) and to_move (the last entry).

    Plain offsets rather than views: numba counts references to every view it makes, which
    would cost more than a turn's move generation."""
    value = size + 1
    pieces = value + size
    count = pieces + PIECES_PER_PLAYER * players
    material = count + players
    score = material + players
    taken = score + players
    captured = taken + players
    to_move = captured + players * players * (MAX_VALUE + 1)
    return value, pieces, count, material, score, taken, captured, to_move


@njit
def _complete(pos, size, players):
    """Fill the derived parts of ``pos`` (pieces, count, material, score, taken) from owner,
    value and captured."""
    value, pieces, count, material, score, taken, captured, _ = offsets(size, players)
    pos[size] = -1
    pos[count : count + 4 * players] = 0
    for c in range(size):
        p = pos[c]
        if p >= 0:
            pos[pieces + PIECES_PER_PLAYER * p + pos[count + p]] = c
            pos[count + p] += 1
            pos[material + p] += pos[value + c]
    for p in range(players):
        for o in range(players):
            for v in range(1, MAX_VALUE + 1):
                held = pos[captured + (p * players + o) * (MAX_VALUE + 1) + v]
                pos[score + p] += v * held
                pos[taken + p] += held


@njit
def _legal(pos, size, players, friendly, stride, group, dest, path, mids, out):
    """Write the legal actions of the player to move into ``out`` in the engine's order
    (``SinodaState._legal_actions``); return how many.

    Without branches on the board: each candidate is written, then counted only when legal
    (random play makes those branches unpredictable, and mispredictions cost more than the
    work saved). A path is clear when the cells it passes through are all empty (-1): their
    bitwise and is then negative."""
    value, pieces, count, _, _, _, _, to_move = offsets(size, players)
    me = pos[to_move]
    first = pieces + PIECES_PER_PLAYER * me
    n = 0
    for i in range(first, first + pos[count + me]):
        cell = pos[i]
        v = pos[value + cell]
        base = cell * stride
        out[n] = base
        n += v > 1
        out[n] = base + _CHANGE_UP
        n += v < MAX_VALUE
        g = cell * MAX_VALUE + v - 1
        for j in range(group[g], group[g + 1]):
            d = dest[j]
            clear = 0
            for k in range(path[j], path[j + 1]):
                clear |= pos[mids[k, 0]] & pos[mids[k, 1]] & pos[mids[k, 2]]
            out[n] = base + _FIRST_MOVE + d
            n += (clear < 0) & (not friendly[me, pos[d] + 1])
    return n


@njit
def _apply(pos, size, players, stride, action):
    """Play ``action`` (legal) on ``pos``; return whether the end must be checked (as the engine:
    after a capture, and after a change down in two-player games)."""
    value, pieces, count, material, score, taken, captured, to_move = offsets(size, players)
    me = pos[to_move]
    pos[to_move] = (me + 1) % players
    cell = action // stride
    slot = action - cell * stride
    if slot == 0:
        pos[value + cell] -= 1
        pos[material + me] -= 1
        return players == 2
    if slot == _CHANGE_UP:
        pos[value + cell] += 1
        pos[material + me] += 1
        return False
    d = slot - _FIRST_MOVE
    victim = pos[d]
    if victim >= 0:
        worth = pos[value + d]
        pos[material + victim] -= worth
        pos[score + me] += worth
        pos[taken + me] += 1
        pos[captured + (me * players + victim) * (MAX_VALUE + 1) + worth] += 1
        first = pieces + PIECES_PER_PLAYER * victim
        last = first + pos[count + victim] - 1
        i = first
        while pos[i] != d:
            i += 1
        for j in range(i, last):  # close the gap in the victim's piece list
            pos[j] = pos[j + 1]
        pos[count + victim] -= 1
    pos[d] = me
    pos[value + d] = pos[value + cell]
    pos[cell] = -1
    pos[value + cell] = 0
    first = pieces + PIECES_PER_PLAYER * me
    last = first + pos[count + me] - 1
    i = first
    while pos[i] != cell:
        i += 1
    while i > first and pos[i - 1] > d:  # slide the piece to its place: cells stay ascending
        pos[i] = pos[i - 1]
        i -= 1
    while i < last and pos[i + 1] < d:
        pos[i] = pos[i + 1]
        i += 1
    pos[i] = d
    return victim >= 0


@njit
def _ending(pos, size, players):
    """``_STANDARD``, ``_SINODA`` or ``_GOING``: the checks of spec 3.2 in their order."""
    _, _, count, material, score, taken, _, _ = offsets(size, players)
    most = 0
    for p in range(players):
        if pos[count + p] == 0 or pos[taken + p] == PIECES_PER_PLAYER:
            return _STANDARD
        most = max(most, pos[count + p])
    if most == 1:
        return _STANDARD
    if players == 2 and (
        pos[score] > pos[score + 1] + pos[material] or pos[score + 1] > pos[score] + pos[material + 1]
    ):
        return _SINODA
    return _GOING


@njit
def _winners(pos, size, players, friendly, end):
    """The winners of a finished game as a bit mask (``SinodaState.result``)."""
    _, _, count, material, score, _, _, _ = offsets(size, players)
    if end == _SINODA:
        return 1 if pos[score] > pos[score + 1] + pos[material] else 2
    top = pos[score : score + players].max()
    most = 0
    for p in range(players):
        if pos[score + p] == top:
            most = max(most, pos[count + p])
    mask = 0
    for w in range(players):
        if pos[score + w] == top and pos[count + w] == most:
            for p in range(players):
                if friendly[p, w + 1]:
                    mask |= 1 << p
    return mask


@njit
def _play(pos, size, players, friendly, stride, group, dest, path, mids, streams, budget, legal, record):
    """Random actions on ``pos`` until the end or ``budget`` actions; the player to move draws
    from ``streams[player]`` (updated; a single stream when ``streams`` has one entry). Records
    each action and the number of legal actions before it in ``record`` (``kernels.new_record``)
    unless it is empty. Returns (actions played, how the game stands)."""
    to_move = offsets(size, players)[7]
    end = _ending(pos, size, players)
    played = 0
    shared = len(streams) == 1
    while played < budget and end == _GOING:
        n = _legal(pos, size, players, friendly, stride, group, dest, path, mids, legal)
        s = 0 if shared else pos[to_move]
        streams[s], draw = next_draw(streams[s])
        action = legal[choice_index(draw, n)]
        if record.shape[1]:
            record[0, played] = action
            record[1, played] = n
        if _apply(pos, size, players, stride, action):
            end = _ending(pos, size, players)
        played += 1
    return played, end


@njit
def _put(out, at, piece):
    return write_piece(out, at, _TEXT, _TEXT_STARTS, piece)


@njit
def _write_json(out, pos, size, players, names, name_len):
    """The canonical JSON of ``pos`` (``SinodaState.to_json``) as ASCII into ``out``."""
    value, _, _, _, _, _, captured, to_move = offsets(size, players)
    at = _put(out, 0, _PREFIX)
    out[at] = 48 + players
    at = _put(out, at + 1, _TO_MOVE)
    out[at] = 48 + pos[to_move]
    at = _put(out, at + 1, _PIECES)
    first = True
    for c in range(size):
        if pos[c] < 0:
            continue
        if not first:
            out[at] = 44  # ,
            at += 1
        first = False
        out[at] = 91  # [
        at += 1
        for i in range(name_len[c]):
            out[at + i] = names[c, i]
        at += name_len[c]
        out[at] = 44
        out[at + 1] = 48 + pos[c]
        out[at + 2] = 44
        out[at + 3] = 48 + pos[value + c]
        out[at + 4] = 93  # ]
        at += 5
    at = _put(out, at, _CAPTURED)
    for p in range(players):
        if p:
            out[at] = 44
            at += 1
        out[at] = 91
        at += 1
        first = True
        for o in range(players):
            for v in range(1, MAX_VALUE + 1):
                for _ in range(pos[captured + (p * players + o) * (MAX_VALUE + 1) + v]):
                    if not first:
                        out[at] = 44
                        at += 1
                    first = False
                    out[at] = 91
                    out[at + 1] = 48 + o
                    out[at + 2] = 44
                    out[at + 3] = 48 + v
                    out[at + 4] = 93
                    at += 5
        out[at] = 93
        at += 1
    out[at] = 93
    out[at + 1] = 125  # }


@njit
def _random_games(
    start, size, players, friendly, stride, group, dest, path, mids, names, name_len, most_legal,
    streams, max_actions, text, scores, winners, reason, n_actions, outcome, record,
):  # fmt: skip
    """Play one game per row of ``streams`` (uint64, one column per player) from ``start``;
    fill ``text`` (final JSON), ``scores``, ``winners``, ``reason``, ``n_actions``, ``outcome``;
    record the game in ``record`` unless it is empty (one game)."""
    legal = np.empty(most_legal, np.int64)
    pos = np.empty_like(start)
    score = offsets(size, players)[4]
    for g in range(streams.shape[0]):
        copy_into(pos, start)
        played, end = _play(
            pos, size, players, friendly, stride, group, dest, path, mids, streams[g], max_actions, legal, record
        )
        n_actions[g] = played
        copy_into(scores[g], pos[score : score + players])
        if end == _GOING:
            outcome[g] = CUT
            winners[g] = 0
            reason[g] = 0
        else:
            outcome[g] = FINISHED
            winners[g] = _winners(pos, size, players, friendly, end)
            reason[g] = end - 1
        _write_json(text[g], pos, size, players, names, name_len)


@njit
def _rollout(pos, size, players, friendly, stride, group, dest, path, mids, most_legal, budget, stream):
    """A random rollout on ``pos`` (changed) from one stream: the winners mask (-1 when
    ``budget`` ran out first) and the stream's new state."""
    legal = np.empty(most_legal, np.int64)
    streams = np.empty(1, np.uint64)
    streams[0] = stream
    _, end = _play(
        pos,
        size,
        players,
        friendly,
        stride,
        group,
        dest,
        path,
        mids,
        streams,
        budget,
        legal,
        np.empty((2, 0), np.int64),
    )
    mask = -1 if end == _GOING else _winners(pos, size, players, friendly, end)
    return mask, streams[0]


# ----------------------------------------------------------------------------- the compiled tree
# MCTSAgent's compiled search (compiled_search.py) on a position array (``flat``) plus one
# entry: how the game stands (``_GOING``, ``_STANDARD``, ``_SINODA``), updated as the engine
# updates ``_end`` (after a capture, and after a change down with two players). The key is the
# position array: ``key()`` is (to_move, owner, value, captured) and ``captured[p]`` is a sorted
# list (``insort``), the multiset that the array counts; the array's other parts are functions
# of those (piece lists ascending and zero past their counts, as ``flat`` writes them). ``rules`` = ``SinodaKernel._rules`` + (most_legal, team of each seat, number of teams).


@njit
def _tree_legal(pos, rules, out):
    if pos[pos.shape[0] - 1] != _GOING:
        return 0
    return _legal(pos, rules[0], rules[1], rules[2], rules[3], rules[4], rules[5], rules[6], rules[7], out)


@njit
def _tree_apply(pos, action, rules):
    """``_apply``, with the piece list of a captured piece's owner cleared past its count as
    ``flat`` leaves it (the lists are part of the key)."""
    size, players, stride = rules[0], rules[1], rules[3]
    slot = action % stride
    victim = pos[slot - _FIRST_MOVE] if slot >= _FIRST_MOVE else -1
    if _apply(pos, size, players, stride, action):
        pos[pos.shape[0] - 1] = _ending(pos, size, players)
    if victim >= 0:
        _, pieces, count, _, _, _, _, _ = offsets(size, players)
        pos[pieces + PIECES_PER_PLAYER * victim + pos[count + victim]] = 0
    return 0


@njit
def _tree_player(pos, rules):
    return -4 if pos[pos.shape[0] - 1] != _GOING else pos[pos.shape[0] - 2]  # TERMINAL


@njit
def _evaluate(pos, size, players, friendly, stride, group, dest, path, mids, team_of, n_teams, values):
    """``SinodaState.evaluate()`` of a game going on, into ``values`` (same float expressions)."""
    value, pieces, count, _, score, _, _, _ = offsets(size, players)
    best_gain = np.zeros(players, np.int64)
    worst_loss = np.zeros(players, np.int64)
    for me in range(players):  # the destinations of me's moves (``_attacks``) holding a piece
        first = pieces + PIECES_PER_PLAYER * me
        for i in range(first, first + pos[count + me]):
            cell = pos[i]
            g = cell * MAX_VALUE + pos[value + cell] - 1
            for j in range(group[g], group[g + 1]):
                d = dest[j]
                victim = pos[d]
                if victim < 0 or friendly[me, victim + 1]:
                    continue
                clear = 0
                for k in range(path[j], path[j + 1]):
                    clear |= pos[mids[k, 0]] & pos[mids[k, 1]] & pos[mids[k, 2]]
                if clear < 0:
                    best_gain[me] = max(best_gain[me], pos[value + d])
                    worst_loss[victim] = max(worst_loss[victim], pos[value + d])
    strength = np.empty(players, np.float64)
    for p in range(players):
        strength[p] = pos[score + p] + 0.25 * pos[count + p] + 0.5 * best_gain[p] - 0.5 * worst_loss[p]
    team_strength = np.full(n_teams, -np.inf)
    for p in range(players):
        team_strength[team_of[p]] = max(team_strength[team_of[p]], strength[p])
    for p in range(players):
        t = team_of[p]
        rival = -np.inf
        for u in range(n_teams):
            if u != t:
                rival = max(rival, team_strength[u])
        values[p] = math.tanh((team_strength[t] - rival) / 4)


@njit
def _tree_rollout(pos, budget, stream, rules, values):
    """``SinodaKernel.rollout``: returns at the end, else the evaluation where it stopped."""
    size, players, friendly, stride, group, dest, path, mids, most_legal, team_of, n_teams = rules
    end = pos[pos.shape[0] - 1]
    board = pos[:-1].copy()
    if budget > 0 and end == _GOING:
        mask, stream = _rollout(board, size, players, friendly, stride, group, dest, path, mids, most_legal, budget,
                                stream)  # fmt: skip
    elif end == _GOING:
        mask = -1
    else:
        mask = _winners(board, size, players, friendly, end)
    if mask < 0:
        _evaluate(board, size, players, friendly, stride, group, dest, path, mids, team_of, n_teams, values)
    elif mask == (1 << players) - 1:
        values[:] = 0.0
    else:
        for p in range(players):
            values[p] = 1.0 if mask >> p & 1 else -1.0
    return stream, 0


@njit
def _tree_search(rules, root, key_width, n_players, max_legal, iterations, c, cap, rollout_cap, paranoid, root_player,
                 team, mt, stream, out):  # fmt: skip
    return uct_search(
        _tree_legal, _tree_apply, _tree_player, _tree_rollout, rules, root, key_width, n_players, max_legal,
        iterations, c, cap, rollout_cap, paranoid, root_player, team, mt, stream, out,
    )  # fmt: skip


# ----------------------------------------------------------------------------- the Python side


def flat(state: SinodaState) -> np.ndarray:
    """The kernel's array form of ``state`` (a position: between turns)."""
    game = state.game
    size, players = game.board.size, game.num_players
    value, _, _, _, _, _, captured, to_move = offsets(size, players)
    pos = np.zeros(to_move + 1, np.int64)
    pos[:size] = state.owner
    pos[value : value + size] = state.value
    for p, pieces in enumerate(state.captured):
        for victim, worth in pieces:
            pos[captured + (p * players + victim) * (MAX_VALUE + 1) + worth] += 1
    pos[to_move] = state.to_move
    _complete(pos, size, players)
    return pos


def state_of(game: SinodaGame, pos: np.ndarray) -> SinodaState:
    """The engine's state of a kernel position (no history)."""
    size, players = game.board.size, game.num_players
    value, _, _, _, _, _, captured, to_move = offsets(size, players)
    held = pos[captured:to_move].reshape(players, players, MAX_VALUE + 1)
    taken = [
        [(o, v) for o in range(players) for v in range(1, MAX_VALUE + 1) for _ in range(held[p, o, v])]
        for p in range(players)
    ]
    return SinodaState(game, pos[:size].tolist(), pos[value : value + size].tolist(), taken, int(pos[to_move]))


def _json_width(tables: BoardTables, players: int) -> int:
    """Room for the longest canonical JSON of a position: every piece on the board and captured."""
    pieces = PIECES_PER_PLAYER * players
    return 60 + pieces * (int(tables.name_len.max()) + 8) + 3 * players + pieces * 6


class SinodaKernel:
    """The ``PlayoutKernel`` of Sinoda: every rules config, custom boards included."""

    def supports(self, game) -> bool:
        return isinstance(game, SinodaGame)

    @staticmethod
    def _rules(game: SinodaGame) -> tuple:
        """The arguments describing the config: size, players, friendly, stride, the board's paths."""
        tables = board_tables(game.board)
        friendly = np.array([(False, *row[:-1]) for row in game.friendly], np.bool_)  # friendly[p, o + 1]
        return (
            tables.size,
            game.num_players,
            friendly,
            game.stride,
            tables.group,
            tables.dest,
            tables.path,
            tables.mids,
        )

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        return self._games(game, flat(game.new_initial_state()), streams, max_actions, np.empty((2, 0), np.int64))

    def recorded_game(self, state: SinodaState, streams: np.ndarray, max_actions: int) -> RecordedGame:
        record = new_record(max_actions)
        return as_recorded(record, self._games(state.game, flat(state), streams.reshape(1, -1), max_actions, record))

    def _games(self, game, start: np.ndarray, streams: np.ndarray, max_actions: int, record) -> PlayedGames:
        tables = board_tables(game.board)
        n, players = len(streams), game.num_players
        width = _json_width(tables, players)
        text = np.zeros((n, width), np.uint8)
        scores = np.empty((n, players), np.int64)
        winners = np.empty(n, np.int64)
        reason = np.empty(n, np.int8)
        n_actions = np.empty(n, np.int32)
        outcome = np.empty(n, np.int8)
        _random_games(
            start, *self._rules(game), tables.names, tables.name_len, tables.most_legal,
            streams.copy(), max_actions, text, scores, winners, reason, n_actions, outcome, record,
        )  # fmt: skip
        return PlayedGames(
            outcome=outcome,
            winners=winners,
            scores=scores,
            reason=reason,
            reasons=_REASONS,
            n_turns=n_actions,  # one action a move, one move a turn
            n_moves=n_actions,
            n_actions=n_actions,
            final=text.view(f"S{width}")[:, 0],
        )

    def rollout(self, state: SinodaState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return state.evaluate(), stream
        game = state.game
        pos = flat(state)
        mask, after = _rollout(pos, *self._rules(game), board_tables(game.board).most_legal, budget, np.uint64(stream))
        if mask < 0:  # the budget ran out: the engine's evaluation of where the rollout stopped
            return state_of(game, pos).evaluate(), int(after)
        players = game.num_players
        if mask == (1 << players) - 1:
            return [0.0] * players, int(after)
        return [1.0 if mask >> p & 1 else -1.0 for p in range(players)], int(after)

    def tree_root(self, state: SinodaState) -> TreeRoot:
        game = state.game
        teams = game.teams()
        team_of = np.array([game.team_of(p) for p in range(game.num_players)], np.int64)
        most_legal = board_tables(game.board).most_legal
        rules = (*self._rules(game), most_legal, team_of, len(teams))
        end = {None: _GOING, "standard": _STANDARD, "sinoda": _SINODA}[state._end]
        pos = flat(state)
        return TreeRoot(np.append(pos, end), len(pos), rules, most_legal, _tree_search)


KERNEL = SinodaKernel()
