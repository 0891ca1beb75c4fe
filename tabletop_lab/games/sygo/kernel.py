"""Compiled playouts for Sygo (``tabletop_lab.kernels``): random games and rollouts.

Every rules config is played: board sizes 3 to 25, ``growth`` "any" and "all", ``balancing`` on
and off, any ``komi``. The game loop counts areas without komi; komi enters only where a game is
decided or evaluated, through the rules' own ``komi_result`` and ``komi_lead`` (here, and compiled
in ``kernel_tree``'s rollouts), and is added to Black's score as ``SygoState.scores`` adds it. The kernel is ``rules.py`` and ``growth.py`` written for numba, function by function, on
bitsets of 32-bit words in int64 arrays (point ``p`` is bit ``p & 31`` of word ``p >> 5``), in
modules by concern, each importing only those before it:

* ``kernel_bits``: bitsets, the word-parallel spread, and the named rows of the shared arrays;
* ``kernel_turn``: the turn's start (its groups) and what a turn does to the board;
* ``kernel_growth``: the growth search of either ``growth`` option (order, completability);
* ``kernel_maximal``: the ``growth="all"`` search (maximal moves, witnesses);
* ``kernel_loop``: the legal actions, the game loop and its compiled entries;
* ``kernel_tree``: the compiled tree's operations for ``MCTSAgent``;
* this module: the Python side (``SygoKernel``).

What the kernel does:


* a turn's start (``_start_turn``) numbers the mover's start groups and the opponent's groups
  (each stone holds its group's number: ``src(p)`` and the opponent groups an empty point is a
  liberty of are the numbers on its neighbours), with their stones and liberties; which start
  groups touch each opponent group is found when first needed. From scratch the groups are
  flooded word-parallel and numbered by their lowest point (the engine's numbering, which the
  compiled tree's keys need); in a game (``_play``) they carry over from turn to turn with their
  numbers (``_next_turn``): the mover loses the groups it reversed, and only the opponent's
  groups next to a stone the last turn added or reversed are flooded again;
* a node (``growth.Node``) is one array of six bitsets: stones added, mover's and opponent's
  stones now, start groups grown and closed, opponent groups reversed (``_step`` adds a stone);
* ``_legal_masks`` gives ``SygoState._legal_actions`` as two bitsets (placements, growth
  stones) plus finish: the draw needs only their number and the chosen one, in the engine's
  order (pass or finish, placements, growth stones, each by point), so no list is made. The
  engine's shortcut settles most candidates word-parallel (``_spread``, as ``Geometry.spread``
  does on Python ints); under ``growth="any"`` quick tests settle most others (a placement or
  growth stone whose own group breathes, ``_breathes_from``); ``_check_candidates`` decides the
  rest in the engine's order: ``_order_ok`` is ``Turn.order``, ``_completable`` is
  ``Turn.completable`` (its search as an explicit stack: whether some branch ends legally does
  not depend on the order the branches are tried), and under ``growth="all"``
  ``_completable_all``, ``_grow_greedily``, ``_extension`` and ``_search_maximal``
  (``Turn._search_maximal``, an explicit stack in the same order with the same cuts and the
  same 5,000-state budget) follow the engine, including the witnesses (maximal moves found
  earlier in the turn) that the engine keeps per turn, and the list's closure under the
  witnesses found while making it. A rollout starts from the witnesses of the state's turn
  analysis; it does not add the ones it finds to that shared analysis, as a Python rollout on
  a clone does, which can change a later ``growth="all"`` answer only past the budget.

Speed: the functions run at every action (``_borrowing``) take no views and run without
numba's reference counting, which took more than a third of a random game's time; suicide
tests are word-parallel (``_any_dead``, ``_lowest_dead``); most growth stones are settled
word-parallel (an empty neighbour, or a mover's stone next to them with two), and after them
the next action knows that every group breathes. A random 9x9 game (about 100 actions) costs
some 0.1 ms of CPU, a 19x19 one (about 400) some 1.2 ms; the turn's start is some 25% of it,
the tests of the other growth stones (breathing, completability) some 25%.

``supports()`` accepts every rules config, so ``simulate()`` and MCTS use the kernel for all of
them, including the statistics notebook's variants (7x7 with ``growth="all"``); under
``growth="all"`` only with the default engine parameter ``all_search_limit`` (the Python engine
plays any other). The first use on a machine compiles, and numba caches the result in
``__pycache__``; from an empty cache, in a fresh process (CPU time, numba 0.68): under
growth="any" some 14.5 s for random games (``simulate``), 24 s for the compiled tree search
(the expert: its rollouts are the random games' entry, ``_run_any``, so it compiles that too),
under growth="all" some 29 s for random games (no tree search). The growth="all" search has a
compiled entry of its own (``_run_all``; ``_run_any`` is compiled without it, and nothing of
``kernel_maximal`` is), so a growth="any" game never compiles it.

A game cut in the middle of a turn (``max_actions``) gets its final snapshot from the engine,
which replays the turn's stones from the turn's start position. ``REPLAY`` marks a game only
if a turn finds more than ``_WITNESS_CAP`` witnesses (never met in practice).
``tests/games/sygo/test_kernel.py`` proves kernel and engine equal game by game.
"""

from __future__ import annotations

import numpy as np

from ...core import canonical_json
from ...kernels import FINISHED, REPLAY, PlayedGames, RecordedGame, TreeRoot, as_recorded, new_record, random_rollout
from .kernel_loop import _run_all, _run_any, _scratch, _write_notations
from .kernel_maximal import _BUDGET
from .kernel_tree import (
    _R_AFTER,
    _R_BALANCING,
    _R_ENTRIES,
    _R_FB,
    _R_FOUND,
    _R_KOMI,
    _R_N_WITNESSES,
    _R_NBR,
    _R_NODE,
    _R_ONE_STREAM,
    _R_OUT,
    _R_POINTS,
    _R_PT,
    _R_RECORD,
    _R_ROW,
    _R_STREAMS,
    _R_TB,
    _R_TV,
    _R_WB,
    _R_WITNESSES,
    _R_WP,
    _tree_search,
)
from .rules import FIRST_PLACE, SygoGame, SygoState, komi_lead, komi_result

__all__ = ["KERNEL"]
_WITNESS_CAP = 1024


# ----------------------------------------------------------------------------- the Python side


def _neighbours(size: int) -> np.ndarray:
    """Each point's neighbours (the engine's ``Geometry.neighbours``), padded with -1."""
    nbr = np.full((size * size, 4), -1, np.int64)
    for p in range(size * size):
        row, column = divmod(p, size)
        found = [q for q, ok in ((p - size, row > 0), (p - 1, column > 0), (p + 1, column < size - 1),
                                 (p + size, row < size - 1)) if ok]  # fmt: skip
        nbr[p, : len(found)] = found
    return nbr


def _words(mask: int, n_words: int) -> list[int]:
    return [(mask >> (32 * w)) & 0xFFFFFFFF for w in range(n_words)]


def _mask(words) -> int:
    return sum(int(word) << (32 * w) for w, word in enumerate(words))


class SygoKernel:
    """The ``PlayoutKernel`` of Sygo: every rules config (see the module docstring)."""

    def __init__(self):
        self._nbr: dict[int, np.ndarray] = {}

    def supports(self, game) -> bool:
        """Every rules config; under ``growth="all"`` only the default ``all_search_limit``."""
        if not isinstance(game, SygoGame):
            return False
        return game.options["growth"] == "any" or game.params["all_search_limit"] == _BUDGET

    def compile_variant(self, game) -> str:
        """``growth="all"`` compiles an entry of its own (``_run_all``), recorded apart."""
        return "growth=all" if game.options["growth"] == "all" else ""

    def _rules(self, game) -> tuple[np.ndarray, bool, bool]:
        size = game.options["size"]
        if size not in self._nbr:
            self._nbr[size] = _neighbours(size)
        return self._nbr[size], bool(game.options["balancing"]), game.options["growth"] == "all"

    @staticmethod
    def _witnesses(all_growth: bool, words: int) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((_WITNESS_CAP if all_growth else 1, words + 1), np.int64), np.zeros(1, np.int64)

    def _play(self, game, boards, streams, one_stream, max_actions, witnesses=None, record=None) -> np.ndarray:
        nbr, balancing, all_growth = self._rules(game)
        words = (len(nbr) + 31) >> 5
        if witnesses is None:
            witnesses = self._witnesses(all_growth, words)
        out = np.zeros((len(boards), 7), np.int64)
        record = np.empty((2, 0), np.int64) if record is None else record
        run = _run_all if all_growth else _run_any
        run(boards, streams, one_stream, max_actions, nbr, balancing, *witnesses, record, out)
        return out

    @staticmethod
    def _empty_boards(game, n: int) -> np.ndarray:
        n_points = game.options["size"] ** 2
        words = (n_points + 31) >> 5
        boards = np.zeros((n, 4 * words + 4 + n_points), np.int64)
        boards[:, 4 * words + 4 :] = -1
        return boards

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        return self._games(game, self._empty_boards(game, len(streams)), streams, max_actions)

    def recorded_game(self, state: SygoState, streams: np.ndarray, max_actions: int) -> RecordedGame:
        game = state.game
        boards, witnesses = self._row(state)
        record = new_record(max_actions)
        if witnesses is None:  # more witnesses than the kernel holds: the engine plays it
            played = self._games(game, boards, streams.reshape(1, -1), 0)
            played.outcome[:] = REPLAY
            return as_recorded(record, played)
        return as_recorded(record, self._games(game, boards, streams.reshape(1, -1), max_actions, witnesses, record))

    def _games(self, game, boards, streams, max_actions, witnesses=None, record=None) -> PlayedGames:
        """Random games from ``boards`` (``_run``'s rows, changed: the final states)."""
        n, size = len(streams), game.options["size"]
        n_points = size * size
        words = (n_points + 31) >> 5
        out = self._play(game, boards, streams.copy(), False, max_actions, witnesses, record)
        width = n_points + size - 1 + 6
        text = np.zeros((n, width), np.uint8)
        _write_notations(boards, size, text)
        final = text.view(f"S{width}")[:, 0]
        cut_mid_turn = np.flatnonzero(boards[:, 2 * words + 3])
        if len(cut_mid_turn):  # the engine's snapshot of the turn in progress
            final = final.astype(object)
            for g in cut_mid_turn:
                final[g] = self._snapshot(game, boards[g], out[g, 5]).encode()
            final = final.astype(bytes)
        komi = game.options["komi"]
        scores = out[:, 3:5] + np.array([0, komi]) if komi else out[:, 3:5].copy()  # SygoState.scores
        margins = out[:, 3] - out[:, 4] - komi  # komi_result, game by game
        winners = np.where(margins > 0, 1, np.where(margins < 0, 2, 3))
        return PlayedGames(
            outcome=out[:, 0].astype(np.int8),
            winners=winners,
            scores=scores,
            reason=np.zeros(n, np.int8),
            reasons=("standard",),
            n_turns=out[:, 2].astype(np.int32),  # the players alternate: a turn is one move
            n_moves=out[:, 2].astype(np.int32),
            n_actions=out[:, 1].astype(np.int32),
            final=final,
        )

    @staticmethod
    def _snapshot(game, row: np.ndarray, n_stones: int) -> str:
        """The engine's snapshot of a turn in progress: its start position, then its stones."""
        n_points = game.options["size"] ** 2
        words = (n_points + 31) >> 5
        at = 2 * words
        start = row[at + 4 : 2 * at + 4]
        white, black = _mask(start[:words]), _mask(start[words:])
        state = SygoState(game, white, black, int(row[at]), bool(row[at + 1]), int(row[at + 2]))
        stones = [FIRST_PLACE + n_points + p for p in row[2 * at + 4 : 2 * at + 4 + n_stones].tolist()]
        state.foresee(state.action_to_string(action) for action in stones)  # growth="all": proves them
        for action in stones:
            state.apply_action(action)
        return canonical_json(state.snapshot())

    def _row(self, state: SygoState) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """``_run``'s row of ``state`` (a batch of one) and the witnesses of its turn (``None``
        when they are more than the kernel holds)."""
        words = (state.geom.points + 31) >> 5
        boards = self._empty_boards(state.game, 1)
        row = boards[0]
        at = 2 * words
        row[:at] = _words(state.white, words) + _words(state.black, words)
        row[at : at + 4] = [state.to_move, state.grown, state.passes, state.mid_turn()]
        turn = state._turn
        if state.mid_turn():
            mover, opponent = turn.root.mover, turn.root.opponent
            white, black = (mover, opponent) if state.to_move == 0 else (opponent, mover)
            row[at + 4 : 2 * at + 4] = _words(white, words) + _words(black, words)
            row[2 * at + 4 : 2 * at + 4 + len(state.stones)] = state.stones
        all_growth = state.game.options["growth"] == "all"
        witnesses, n_witnesses = self._witnesses(all_growth, words)
        if all_growth and turn is not None:  # the engine's turn keeps the maximal moves it found
            if len(turn.witnesses) > _WITNESS_CAP:
                return boards, None
            for i, (grown, q) in enumerate(turn.witnesses):
                witnesses[i] = [*_words(grown, words), -1 if q is None else q]
            n_witnesses[0] = len(turn.witnesses)
        return boards, (witnesses, n_witnesses)

    def rollout(self, state: SygoState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return (state.returns() if state.is_terminal() else state.evaluate()), stream
        boards, witnesses = self._row(state)
        if witnesses is None:
            return random_rollout(state.clone(), budget, stream)
        streams = np.array([[stream]], np.uint64)
        out = self._play(state.game, boards, streams, True, budget, witnesses=witnesses)
        if out[0, 0] == REPLAY:
            return random_rollout(state.clone(), budget, stream)
        komi = state.game.options["komi"]
        if out[0, 0] == FINISHED:
            value = float(komi_result(int(out[0, 3]), int(out[0, 4]), komi))
            return ([value, -value] if value else [0.0, 0.0]), int(streams[0, 0])
        lead = komi_lead(int(out[0, 6]), komi, state.geom.points)
        return [lead, -lead], int(streams[0, 0])

    def tree_state(self, state: SygoState) -> np.ndarray:
        """The compiled tree's array form of ``state`` (layout above ``_tree_turn``)."""
        n_points = state.geom.points
        words = (n_points + 31) >> 5
        at = 2 * words
        array = np.zeros(7 * words + 4 + n_points, np.int64)
        array[:at] = _words(state.white, words) + _words(state.black, words)
        array[at : at + 4] = [state.to_move, state.grown, state.passes, state.mid_turn()]
        array[7 * words + 4 :] = -1
        if state.mid_turn():
            node, root = state.node, state.turn.root
            array[at + 4 : 5 * words + 4] = (
                _words(node.added, words) + _words(node.grown, words) + _words(node.closed, words)
            )
            white, black = (root.mover, root.opponent) if state.to_move == 0 else (root.opponent, root.mover)
            array[5 * words + 4 : 7 * words + 4] = _words(white, words) + _words(black, words)
            array[7 * words + 4 : 7 * words + 4 + len(state.stones)] = state.stones
        return array

    def tree_root(self, state: SygoState) -> TreeRoot | None:
        game = state.game
        nbr, balancing, all_growth = self._rules(game)
        if all_growth:
            return None
        n_points = len(nbr)
        words = (n_points + 31) >> 5
        pt, tb, tv, fb, wb, wp, points, found, after, node = _scratch(nbr)
        witnesses, n_witnesses = self._witnesses(False, words)
        entries = {
            _R_NBR: nbr, _R_BALANCING: balancing, _R_KOMI: float(game.options["komi"]),
            _R_PT: pt, _R_TB: tb, _R_TV: tv, _R_WB: wb, _R_WP: wp, _R_NODE: node, _R_FOUND: found,
            _R_WITNESSES: witnesses, _R_N_WITNESSES: n_witnesses, _R_FB: fb, _R_POINTS: points, _R_AFTER: after,
            _R_ROW: self._empty_boards(game, 1),  # a rollout's row for _run_any
            _R_STREAMS: np.zeros((1, 1), np.uint64), _R_OUT: np.zeros((1, 7), np.int64),
            _R_RECORD: np.empty((2, 0), np.int64),  # no record
            _R_ONE_STREAM: True,
        }  # fmt: skip
        # one stream as a value: a literal True would make numba compile _run_any again
        rules = tuple(entries[i] for i in range(_R_ENTRIES))
        return TreeRoot(self.tree_state(state), 5 * words + 4, rules, 2 * n_points + 2, _tree_search)


KERNEL = SygoKernel()
