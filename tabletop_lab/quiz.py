"""Quiz cells: the reader edits an answer, the engine supplies the truth, ``check`` compares.

::

    my_answer = 7                                   # the reader edits this
    quiz.check(my_answer, expected=state.child(2).last_move.laps[-1].last)

``check`` never raises on a wrong, missing or oddly typed answer: it returns a ``Verdict``
that a notebook shows as a friendly line (green when right, amber when not) and that is
truthy exactly when the answer is right, so appendix cells can ``assert`` it.

Answers are compared loosely where a person would: ``"3"`` and ``3`` are the same hole,
and when the expected value is a set, any list or tuple of the same items is accepted.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

__all__ = ["Verdict", "check", "normalise"]


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
