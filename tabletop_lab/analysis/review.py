"""``review(record)``: every move of a recorded game, valued and labelled as lichess does for chess.

Each position of the game (the start, and the position after each whole move) is analysed
once, by the expert at ``budget`` simulations and the exact solver at ``nodes`` positions (one
solver for the whole game: what it proved early helps it later). For each move the row holds:

* ``value_before``: the position's value for the mover's side before the move: that of its best
  move, ``best_move``, so ``best_value`` is the same number;
* ``value_after``: the value for the mover's side after the move: the exact result when the game
  ends there or the analysis proved the move played; else, in a game of two sides, the next
  position's value (for its mover, turned to this mover's side); else the move's own value in
  the analysis before it (empty when the search never reached it);
* ``played_value``: the value of the move played, for the loss: exact where the game ends or the
  move is proven; else its value in the same search as the best move's when that search went
  through it at least ``SAME_SEARCH_VISITS`` times (like with like: two searches of a position
  and of its successor each see their own mover a little ahead, the bias of taking the best
  of noisy means); else ``value_after``;
* ``loss``: ``best_value - played_value`` (at least 0), and 0 when the move played is the best or
  the only one;
* ``label``, by the loss in win probability (``THRESHOLDS``): **best** below 0.02, **good**
  below 0.05, **inaccuracy** below 0.10, **mistake** below 0.20, **blunder** from 0.20.

In a game of hidden information each position is analysed from what its mover could see then,
so a move is judged by what its player knew, not by the cards shown later.
"""

from __future__ import annotations

from typing import Any

from ..agents.base import MAX_ITERATIONS, MAX_NODES, check_number
from ..core import State
from ..errors import PositionError, excerpt
from ..records import GameRecord
from ..sim.checks import Progress, check_progress, progress_reporter
from .position import _expert_class, _Search, _seed
from .solver import Solver, solvable

__all__ = ["review", "label_for", "THRESHOLDS", "REVIEW_SHARE", "REVIEW_BUDGET", "REVIEW_NODES", "COLUMNS"]

#: The labels by the loss in win probability: a move is the first label whose bound its loss is
#: below; ``blunder`` otherwise. Lichess labels chess moves by the loss in its win-chance scale
#: (-1 to 1) of 0.1, 0.2 and 0.3, which are 0.05, 0.10 and 0.15 in probability; these are
#: a little gentler on mistakes, since the expert's values at a review's budget are less sure
#: than a chess engine's.
THRESHOLDS: tuple[tuple[str, float], ...] = (("best", 0.02), ("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20))
#: The expert's simulations per position by default: a ``REVIEW_SHARE`` of its own budget, at least
#: ``REVIEW_BUDGET`` (a 60-move game in some 5-20 s on a shared 2-core machine; see docs/analysis.md).
REVIEW_SHARE = 4
REVIEW_BUDGET = 1_000
#: The fewest simulations through the move played for its value to come from the same search as
#: the best move's (``played_value``).
SAME_SEARCH_VISITS = 16
#: The exact solver's node limit per position by default.
REVIEW_NODES = 500
#: The review's columns, in order.
COLUMNS = (
    "move",
    "action",
    "player",
    "played",
    "value_before",
    "value_after",
    "best_move",
    "best_value",
    "played_value",
    "loss",
    "label",
    "proven",
)


def label_for(loss: float) -> str:
    """The label of a move that lost ``loss`` in win probability (``THRESHOLDS``).

    >>> label_for(0.0), label_for(0.03), label_for(0.07), label_for(0.15), label_for(0.5)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for label, bound in THRESHOLDS:
        if loss < bound:
            return label
    return "blunder"


def review(
    record: GameRecord | dict,
    budget: int | None = None,
    seed: int = 0,
    progress: Progress = True,
    nodes: int = REVIEW_NODES,
) -> Any:
    """A pandas DataFrame with one row per whole move of ``record`` (a ``GameRecord``, or its
    ``to_dict()``), in the columns ``COLUMNS`` (see the module docstring).

    ``move`` counts the moves from 1, ``action`` is the index in ``record.actions`` where the move
    begins (``record.replay(upto=action)`` is the position before it), ``player`` the mover,
    ``proven`` whether ``value_before`` is exact. ``budget``: the expert's simulations per
    position (default a ``REVIEW_SHARE`` of the expert's own budget, at least ``REVIEW_BUDGET``); ``nodes``: the exact solver's node limit per position (0: none); ``seed``: the
    same record, budget and seed give the same review. ``progress``: a tqdm bar (``True``),
    nothing (``False``) or a callable ``progress(done, total)`` counting positions.

    Raises ``ValueError`` for a setting out of range, ``PositionError`` for a malformed record,
    and the engine's ``ActionError`` (naming the action) for a record that does not replay.
    """
    import pandas as pd

    record = _record(record)
    if budget is not None:
        check_number("review", "budget", budget, minimum=1, inclusive=True, integer=True, maximum=MAX_ITERATIONS)
    check_number("review", "nodes", nodes, minimum=0, inclusive=True, integer=True, maximum=MAX_NODES)
    if type(seed) is not int:
        raise ValueError(f"review: seed must be an integer, got {excerpt(seed)}")
    check_progress(progress)
    record.replay()  # the recorded result is checked against the replay
    states = record.states()
    starts = [i for i, state in enumerate(states) if not state.mid_turn()]
    positions = [states[i] for i in starts]
    played = positions[-1].move_history()[len(positions[0].move_history()) :]
    game = positions[0].game
    expert = _expert_class(positions[0])
    if budget is None:
        budget = max(REVIEW_BUDGET, expert(seed=seed).iterations // REVIEW_SHARE)
    solver = Solver(game) if solvable(game) is None and nodes > 0 else None
    to_search = [i for i, position in enumerate(positions) if not position.is_terminal()]
    report, close = progress_reporter(progress, len(to_search), f"{game.name} review", unit="position")
    searched: dict[int, _Search] = {}
    try:
        for done, index in enumerate(to_search, 1):
            searched[index] = _Search(positions[index], expert, budget, nodes, _seed(seed, f"review/{index}"), solver)
            report(done)
    finally:
        close()
    rows = []
    for number, move in enumerate(played):
        before, after = positions[number], positions[number + 1]
        found = searched[number]
        side = game.team_of(before.current_player())
        value_after = _value_after(found, move, after, searched.get(number + 1), side)
        played_value = _played_value(found, move, after, value_after)
        only_move = found.legal == 1
        loss = 0.0 if move == found.best.move or only_move else _loss(found.best.value, played_value)
        rows.append(
            [
                number + 1,
                starts[number],
                before.current_player(),
                move,
                found.best.value,
                value_after,
                found.best.move,
                found.best.value,
                played_value,
                loss,
                None if loss is None else label_for(loss),
                found.proven,
            ]
        )
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame.attrs.update(game=game.name, budget=budget, nodes=nodes, seed=seed, thresholds=dict(THRESHOLDS))
    return frame


def _record(record: Any) -> GameRecord:
    if isinstance(record, GameRecord):
        return record
    if isinstance(record, dict):
        return GameRecord.from_dict(record)
    raise PositionError(f"review: record must be a GameRecord or its to_dict(), got {excerpt(record)}")


def _value_after(found: _Search, move: str, after: State, next_found: _Search | None, side: int) -> float | None:
    """The value for ``side`` after ``move`` (see the module docstring)."""
    game = after.game
    if after.is_terminal():
        result = after.result()
        if result.is_draw:
            return 0.5
        return 1.0 if game.team_of(result.winners[0]) == side else 0.0
    entry = next((m for m in found.moves if m.move == move), None)
    if entry is not None and entry.proven:
        return entry.value
    if len(game.teams()) == 2 and next_found is not None:
        value = next_found.best.value
        return value if game.team_of(after.current_player()) == side else 1.0 - value
    return None if entry is None else entry.value


def _played_value(found: _Search, move: str, after: State, value_after: float | None) -> float | None:
    """The value of the move played for its loss (see the module docstring)."""
    entry = next((m for m in found.moves if m.move == move), None)
    exact = after.is_terminal() or (entry is not None and entry.proven)
    if not exact and entry is not None and entry.visits >= SAME_SEARCH_VISITS:
        return entry.value
    return value_after


def _loss(best: float, after: float | None) -> float | None:
    return None if after is None else max(0.0, best - after)
