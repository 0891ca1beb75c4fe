"""Compiled playouts for Sinoda (``tabletop_lab.kernels``): random games and rollouts.

Every rules config is supported: 2, 3, 4 and 6 players, both team layouts, both four-player
starts, any first player, and custom boards. The board reaches the kernel as arrays built from
``game.board`` (``board_tables``: for each cell and value, the destinations in canonical order
and the cells each minimal path passes through, derived from the board's adjacency), so another
board file needs no code change here.

A position is a flat int64 array (``layout`` gives the slices): ``owner[cell]`` (-1 empty),
``value[cell]`` (0 empty), ``pieces[p, :count[p]]`` (each player's cells, ascending),
``count[p]``, ``material[p]`` (values on the board), ``score[p]`` (captured points),
``taken[p]`` (pieces captured), ``captured[p, owner, value]`` (how many such pieces ``p`` holds)
and ``to_move``. The turn below is ``SinodaState._legal_actions`` and ``_apply`` written for
numba: same listing order, same end checks; ``tests/games/sinoda/test_kernel.py`` proves them
equal game by game.
"""

from __future__ import annotations

import functools
import json
from typing import NamedTuple

import numpy as np

from ...jit import choice_index, next_draw, njit
from ...kernels import CUT, FINISHED, PlayedGames
from .geometry import MAX_VALUE, PIECES_PER_PLAYER, Board
from .rules import SinodaGame, SinodaState

__all__ = ["KERNEL"]

_CHANGE_UP, _FIRST_MOVE = 1, 2  # action slots, as in rules.py (0 is change down)
_GOING, _STANDARD, _SINODA = 0, 1, 2  # how a game stands; Result.reason words are _REASONS[end - 1]
_REASONS = ("standard", "sinoda")
_MAX_MIDS = MAX_VALUE - 1  # cells a path passes through before its destination
_MAX_LEGAL_PER_PIECE = 2  # the changes; the moves are added per board

_PREFIX = np.frombuffer(b'{"game":"sinoda","players":', np.uint8)
_TO_MOVE = np.frombuffer(b',"to_move":', np.uint8)
_PIECES = np.frombuffer(b',"pieces":[', np.uint8)
_CAPTURED = np.frombuffer(b'],"captured":[', np.uint8)


class BoardTables(NamedTuple):
    """A board as the kernel reads it (all int64 arrays).

    For cell ``c`` showing ``v``, entries ``group[4c + v - 1] .. group[4c + v] - 1`` of ``dest``
    are the destinations of its moves, ascending; destination entry ``j`` has the paths
    ``path[j] .. path[j + 1] - 1``, and path ``k`` passes through ``mids[k, :v - 1]``.
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
                    passed = [c for c in range(board.size) if mask >> c & 1]
                    mids.append(passed + [-1] * (_MAX_MIDS - len(passed)))
                path.append(len(mids))
            group.append(len(dest))
            most_moves = max(most_moves, len(routes))
    encoded = [json.dumps(name).encode("ascii") for name in board.names]
    width = max(len(e) for e in encoded)
    names = np.zeros((board.size, width), np.uint8)
    for c, e in enumerate(encoded):
        names[c, : len(e)] = np.frombuffer(e, np.uint8)

    def ints(values, shape=None):
        return np.array(values, np.int64).reshape(shape if shape else -1)

    return BoardTables(
        size=board.size,
        group=ints(group),
        dest=ints(dest),
        path=ints(path),
        mids=ints(mids, (-1, _MAX_MIDS)) if mids else np.zeros((0, _MAX_MIDS), np.int64),
        names=names,
        name_len=ints([len(e) for e in encoded]),
        most_legal=PIECES_PER_PLAYER * (_MAX_LEGAL_PER_PIECE + most_moves),
    )


# ----------------------------------------------------------------------------- the compiled side


@njit
def layout(pos, size, players):
    """Views of the position array ``pos``: owner, value, pieces (players x 6), count,
    material, score, taken, captured (players x players x 5) and to_move (an array of one)."""
    at = 0
    owner = pos[at : at + size]
    at += size
    value = pos[at : at + size]
    at += size
    pieces = pos[at : at + players * PIECES_PER_PLAYER].reshape((players, PIECES_PER_PLAYER))
    at += players * PIECES_PER_PLAYER
    count = pos[at : at + players]
    at += players
    material = pos[at : at + players]
    at += players
    score = pos[at : at + players]
    at += players
    taken = pos[at : at + players]
    at += players
    captured = pos[at : at + players * players * (MAX_VALUE + 1)].reshape((players, players, MAX_VALUE + 1))
    at += players * players * (MAX_VALUE + 1)
    to_move = pos[at : at + 1]
    return owner, value, pieces, count, material, score, taken, captured, to_move


def position_size(size: int, players: int) -> int:
    """The length of a position array (see ``layout``)."""
    return 2 * size + players * PIECES_PER_PLAYER + 4 * players + players * players * (MAX_VALUE + 1) + 1


@njit
def _complete(pos, size, players):
    """Fill the derived parts of ``pos`` (pieces, count, material, score, taken) from owner,
    value and captured."""
    owner, value, pieces, count, material, score, taken, captured, _ = layout(pos, size, players)
    count[:] = 0
    material[:] = 0
    for c in range(size):
        p = owner[c]
        if p >= 0:
            pieces[p, count[p]] = c
            count[p] += 1
            material[p] += value[c]
    for p in range(players):
        score[p] = 0
        taken[p] = 0
        for o in range(players):
            for v in range(1, MAX_VALUE + 1):
                score[p] += v * captured[p, o, v]
                taken[p] += captured[p, o, v]


@njit
def _legal(pos, size, players, friendly, stride, group, dest, path, mids, out):
    """Write the legal actions of the player to move into ``out`` in the engine's order
    (``SinodaState._legal_actions``); return how many."""
    owner, value, pieces, count, _, _, _, _, to_move = layout(pos, size, players)
    me = to_move[0]
    n = 0
    for i in range(count[me]):
        cell = pieces[me, i]
        v = value[cell]
        base = cell * stride
        if v > 1:
            out[n] = base
            n += 1
        if v < MAX_VALUE:
            out[n] = base + _CHANGE_UP
            n += 1
        g = cell * MAX_VALUE + v - 1
        for j in range(group[g], group[g + 1]):
            d = dest[j]
            o = owner[d]
            if o >= 0 and friendly[me, o]:
                continue
            for k in range(path[j], path[j + 1]):
                clear = True
                for m in range(v - 1):
                    if owner[mids[k, m]] >= 0:
                        clear = False
                        break
                if clear:
                    out[n] = base + _FIRST_MOVE + d
                    n += 1
                    break
    return n


@njit
def _apply(pos, size, players, stride, action):
    """Play ``action`` (legal) on ``pos``; return whether the end must be checked (as the engine:
    after a capture, and after a change down in two-player games)."""
    owner, value, pieces, count, material, score, taken, captured, to_move = layout(pos, size, players)
    me = to_move[0]
    to_move[0] = (me + 1) % players
    cell = action // stride
    slot = action - cell * stride
    if slot == 0:
        value[cell] -= 1
        material[me] -= 1
        return players == 2
    if slot == _CHANGE_UP:
        value[cell] += 1
        material[me] += 1
        return False
    d = slot - _FIRST_MOVE
    victim = owner[d]
    if victim >= 0:
        worth = value[d]
        material[victim] -= worth
        score[me] += worth
        taken[me] += 1
        captured[me, victim, worth] += 1
        n = count[victim] - 1
        i = 0
        while pieces[victim, i] != d:
            i += 1
        for k in range(i, n):
            pieces[victim, k] = pieces[victim, k + 1]
        count[victim] = n
    owner[d] = me
    value[d] = value[cell]
    owner[cell] = -1
    value[cell] = 0
    i = 0
    while pieces[me, i] != cell:
        i += 1
    pieces[me, i] = d  # then slide it into place: pieces stay ascending
    while i > 0 and pieces[me, i - 1] > d:
        pieces[me, i] = pieces[me, i - 1]
        i -= 1
        pieces[me, i] = d
    while i < count[me] - 1 and pieces[me, i + 1] < d:
        pieces[me, i] = pieces[me, i + 1]
        i += 1
        pieces[me, i] = d
    return victim >= 0


@njit
def _ending(pos, size, players):
    """``_STANDARD``, ``_SINODA`` or ``_GOING``: the checks of spec 3.2 in their order."""
    _, _, _, count, material, score, taken, _, _ = layout(pos, size, players)
    most = 0
    for p in range(players):
        if count[p] == 0 or taken[p] == PIECES_PER_PLAYER:
            return _STANDARD
        most = max(most, count[p])
    if most == 1:
        return _STANDARD
    if players == 2 and (score[0] > score[1] + material[0] or score[1] > score[0] + material[1]):
        return _SINODA
    return _GOING


@njit
def _winners(pos, size, players, friendly, end):
    """The winners of a finished game as a bit mask (``SinodaState.result``)."""
    _, _, _, count, material, score, _, _, _ = layout(pos, size, players)
    if end == _SINODA:
        return 1 if score[0] > score[1] + material[0] else 2
    top = score.max()
    most = 0
    for p in range(players):
        if score[p] == top:
            most = max(most, count[p])
    mask = 0
    for w in range(players):
        if score[w] == top and count[w] == most:
            for p in range(players):
                if friendly[p, w]:
                    mask |= 1 << p
    return mask


@njit
def _play(pos, size, players, friendly, stride, group, dest, path, mids, streams, budget, legal, actions):
    """Random actions on ``pos`` until the end or ``budget`` actions; the player to move draws
    from ``streams[player]`` (updated; a single stream when ``streams`` has one entry). Records
    them in ``actions`` if it is not empty. Returns (actions played, how the game stands)."""
    to_move = layout(pos, size, players)[8]
    end = _ending(pos, size, players)
    played = 0
    shared = len(streams) == 1
    while played < budget and end == _GOING:
        n = _legal(pos, size, players, friendly, stride, group, dest, path, mids, legal)
        s = 0 if shared else to_move[0]
        streams[s], draw = next_draw(streams[s])
        action = legal[choice_index(draw, n)]
        if len(actions):
            actions[played] = action
        if _apply(pos, size, players, stride, action):
            end = _ending(pos, size, players)
        played += 1
    return played, end


@njit
def _put(out, at, text):
    for i in range(len(text)):
        out[at + i] = text[i]
    return at + len(text)


@njit
def _write_json(out, pos, size, players, names, name_len):
    """The canonical JSON of ``pos`` (``SinodaState.to_json``) as ASCII into ``out``."""
    owner, value, _, _, _, _, _, captured, to_move = layout(pos, size, players)
    at = _put(out, 0, _PREFIX)
    out[at] = 48 + players
    at = _put(out, at + 1, _TO_MOVE)
    out[at] = 48 + to_move[0]
    at = _put(out, at + 1, _PIECES)
    first = True
    for c in range(size):
        if owner[c] < 0:
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
        out[at + 1] = 48 + owner[c]
        out[at + 2] = 44
        out[at + 3] = 48 + value[c]
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
                for _ in range(captured[p, o, v]):
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
    streams, max_actions, text, scores, winners, reason, n_actions, outcome,
):  # fmt: skip
    """Play one game per row of ``streams`` (uint64, one column per player) from ``start``;
    fill ``text`` (final JSON), ``scores``, ``winners``, ``reason``, ``n_actions``, ``outcome``."""
    legal = np.empty(most_legal, np.int64)
    no_record = np.empty(0, np.int64)
    pos = np.empty_like(start)
    for g in range(streams.shape[0]):
        pos[:] = start
        played, end = _play(
            pos, size, players, friendly, stride, group, dest, path, mids, streams[g], max_actions, legal, no_record
        )
        n_actions[g] = played
        _, _, _, _, _, score, _, _, _ = layout(pos, size, players)
        scores[g] = score
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
def _recorded_game(start, size, players, friendly, stride, group, dest, path, mids, most_legal, streams, budget, actions):
    """One random game from ``start`` with its actions written to ``actions``: the final
    position, the number of actions and how the game stands."""
    pos = start.copy()
    legal = np.empty(most_legal, np.int64)
    played, end = _play(pos, size, players, friendly, stride, group, dest, path, mids, streams, budget, legal, actions)
    return pos, played, end


@njit
def _rollout(pos, size, players, friendly, stride, group, dest, path, mids, most_legal, budget, stream):
    """A random rollout on ``pos`` (changed) from one stream: the winners mask (-1 when
    ``budget`` ran out first) and the stream's new state."""
    legal = np.empty(most_legal, np.int64)
    streams = np.empty(1, np.uint64)
    streams[0] = stream
    _, end = _play(pos, size, players, friendly, stride, group, dest, path, mids, streams, budget, legal, np.empty(0, np.int64))
    mask = -1 if end == _GOING else _winners(pos, size, players, friendly, end)
    return mask, streams[0]


# ----------------------------------------------------------------------------- the Python side


def flat(state: SinodaState) -> np.ndarray:
    """The kernel's array form of ``state`` (a position: between turns)."""
    game = state.game
    size, players = game.board.size, game.num_players
    pos = np.zeros(position_size(size, players), np.int64)
    owner, value, _, _, _, _, _, captured, to_move = layout(pos, size, players)
    owner[:] = state.owner
    value[:] = state.value
    for p, pieces in enumerate(state.captured):
        for victim, worth in pieces:
            captured[p, victim, worth] += 1
    to_move[0] = state.to_move
    _complete(pos, size, players)
    return pos


def state_of(game: SinodaGame, pos: np.ndarray) -> SinodaState:
    """The engine's state of a kernel position (no history)."""
    size, players = game.board.size, game.num_players
    owner, value, _, _, _, _, _, captured, to_move = layout(pos, size, players)
    taken = [
        [(o, v) for o in range(players) for v in range(1, MAX_VALUE + 1) for _ in range(captured[p, o, v])]
        for p in range(players)
    ]
    return SinodaState(game, owner.tolist(), value.tolist(), taken, int(to_move[0]))


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
        friendly = np.array([row[:-1] for row in game.friendly], np.bool_)
        return (tables.size, game.num_players, friendly, game.stride, tables.group, tables.dest, tables.path, tables.mids)

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        tables = board_tables(game.board)
        n, players = len(streams), game.num_players
        width = _json_width(tables, players)
        text = np.zeros((n, width), np.uint8)
        scores = np.empty((n, players), np.int64)
        winners = np.empty(n, np.int64)
        reason = np.empty(n, np.int8)
        n_actions = np.empty(n, np.int32)
        outcome = np.empty(n, np.int8)
        start = flat(game.new_initial_state())
        _random_games(
            start, *self._rules(game), tables.names, tables.name_len, tables.most_legal,
            streams.copy(), max_actions, text, scores, winners, reason, n_actions, outcome,
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

    def recorded_game(self, game, streams: np.ndarray, max_actions: int) -> tuple[np.ndarray, list[int]]:
        """One random game: its final position array and its actions."""
        actions = np.empty(max_actions, np.int64)
        start = flat(game.new_initial_state())
        pos, played, _ = _recorded_game(
            start, *self._rules(game), board_tables(game.board).most_legal, streams.copy(), max_actions, actions
        )
        return pos, actions[:played].tolist()

    def rollout(self, state: SinodaState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return state.evaluate(), stream
        game = state.game
        pos = flat(state)
        mask, after = _rollout(
            pos, *self._rules(game), board_tables(game.board).most_legal, budget, np.uint64(stream)
        )
        if mask < 0:  # the budget ran out: the engine's evaluation of where the rollout stopped
            return state_of(game, pos).evaluate(), int(after)
        players = game.num_players
        if mask == (1 << players) - 1:
            return [0.0] * players, int(after)
        return [1.0 if mask >> p & 1 else -1.0 for p in range(players)], int(after)


KERNEL = SinodaKernel()
