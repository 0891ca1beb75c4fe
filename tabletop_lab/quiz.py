"""Quiz cells: the reader edits an answer, the engine supplies the truth, ``check`` compares.

::

    my_answer = 7                                   # the reader edits this
    quiz.check(my_answer, expected=state.child(2).last_move.laps[-1].last)

``check`` never raises on a wrong, missing or oddly typed answer: it returns a ``Verdict``
that a notebook shows as a friendly line (green when right, amber when not) and that is
truthy exactly when the answer is right, so appendix cells can ``assert`` it.

Answers are compared loosely where a person would: ``"3"`` and ``3`` are the same hole,
and when the expected value is a set, any list or tuple of the same items is accepted.

A lesson can also ask for a move on a live board (a ``tabletop_lab.widgets.Board``) and check
the first move the reader made there::

    try_it = Board(game, position=state)            # the reader plays on it
    quiz.played(try_it, expected={"0"}, hint="Two seeds is an even number.")

``board_questions()`` lists every (board, expected moves) a ``played`` call asked about, so a
test can play each asked move on its board and see the check turn right.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Verdict", "board_questions", "check", "normalise", "played"]

_BOARD_QUESTIONS: dict[int, tuple[Any, frozenset[str]]] = {}  # id(board): (board, expected moves)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one quiz question; ``bool(verdict)`` is ``verdict.correct``."""

    correct: bool
    message: str

    def __bool__(self) -> bool:
        return self.correct

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = "#1b7f3b" if self.correct else "#a15c00"
        return f'<p style="color:{colour}; font-weight:bold">{html.escape(self.message)}</p>'


def check(answer: Any, expected: Any, *, hint: str = "", reveal: bool = False) -> Verdict:
    """Compare the reader's ``answer`` with the engine's ``expected`` value.

    ``hint`` is shown after a wrong answer; with ``reveal=True`` the expected answer is shown
    too. An ``answer`` of ``None`` or ``...`` means "not answered yet".

    >>> check(3, 3)
    Correct! 3 it is.
    >>> bool(check(["5", 4], {4, 5}))
    True
    >>> check(2, 3, hint="Count the seeds first.")
    Not quite: you answered 2. Count the seeds first. Edit your answer and run the cell again.
    >>> check(None, 3, reveal=True)
    No answer yet: edit the answer and run the cell again. The engine says 3.
    """
    shown = _show(normalise(expected, expected))
    if answer is None or answer is Ellipsis:
        text = "No answer yet: edit the answer and run the cell again."
        return Verdict(False, f"{text} The engine says {shown}." if reveal else text)
    if normalise(answer, expected) == normalise(expected, expected):
        return Verdict(True, f"Correct! {shown} it is.")
    parts = [f"Not quite: you answered {_show(answer)}."]
    if hint:
        parts.append(hint)
    parts.append(f"The engine says {shown}." if reveal else "Edit your answer and run the cell again.")
    return Verdict(False, " ".join(parts))


def played(board: Any, expected: str | Iterable[str], *, hint: str = "") -> Verdict:
    """Whether the first move the reader made on the live ``board`` is ``expected`` (one move
    string, or a collection of moves any of which is right), as the engine spells moves.

    Only moves up to the position the board shows count, so a move taken back with Undo is
    not held against the reader. ``hint`` is shown after a wrong move. Raises ``ValueError``
    when an expected move is not legal at the board's start position (the lesson would ask
    for a move nobody can make).
    """
    moves = frozenset([expected] if isinstance(expected, str) else expected)
    session = board.session
    start = session.line[0]
    legal = set(start.legal_moves())
    if not moves or not moves <= legal:
        wrong = sorted(moves - legal) or ["(none given)"]
        raise ValueError(f"played: {', '.join(map(repr, wrong))} is not a legal move at the board's start position")
    _BOARD_QUESTIONS[id(board)] = (board, moves)
    made = session.move_strings()[: session.pos]
    if not made:
        return Verdict(False, "No move yet: make it on the board above, then run this cell again.")
    if made[0] in moves:
        return Verdict(True, f"Correct! {made[0]!r} it is.")
    parts = [f"Not quite: you played {made[0]!r}."]
    if hint:
        parts.append(hint)
    parts.append("Press Undo on the board, try again, then run this cell again.")
    return Verdict(False, " ".join(parts))


def board_questions() -> list[tuple[Any, frozenset[str]]]:
    """Every live board a ``played`` call has checked, with the moves it asked for, oldest first."""
    return list(_BOARD_QUESTIONS.values())


def normalise(value: Any, like: Any) -> Any:
    """``value`` in the shape of ``like`` for comparison: digit strings become ints, and
    collections become sets (when ``like`` is a set) or tuples (when it is a list or tuple).

    >>> normalise(["3", 4], {1})
    frozenset({3, 4})
    >>> normalise(" 7 ", 0)
    7
    """
    if isinstance(like, (set, frozenset)):
        items = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
        return frozenset(_scalar(v) for v in items)
    if isinstance(like, (list, tuple)):
        items = value if isinstance(value, (list, tuple)) else [value]
        return tuple(_scalar(v) for v in items)
    return _scalar(value)


def _scalar(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        return int(text) if text.isdigit() else text
    return value


def _show(value: Any) -> str:
    if isinstance(value, (set, frozenset)):
        try:
            items = sorted(value)
        except TypeError:  # mixed types: any stable order will do
            items = sorted(value, key=repr)
        return "{" + ", ".join(map(repr, items)) + "}"
    if isinstance(value, tuple):
        return repr(list(value))
    return repr(value)
