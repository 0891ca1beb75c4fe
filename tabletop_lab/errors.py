"""The error tree shared by every game (``docs/rules/README.md``, "Errors").

::

    ValueError
     ├── RulesError               bad rules config, unknown game or board data
     ├── PositionError            malformed or impossible position; names the field
     ├── DataError                a saved file that cannot be read back (damaged)
     └── ActionError
          ├── ActionSyntaxError   malformed action string, unknown cell or hole
          └── IllegalActionError  well formed, but not legal here; names the rule
    RuntimeError
     └── EngineLimitError         an engine's own limit, not a rule (games subclass it, e.g.
          │                       Cross-endodoi's LapLimitError)
          └── EnumerationLimitError  more whole moves than legal_moves(limit=...) lists

Every engine leaves the state unchanged when it raises any of these. A message that quotes
the input quotes only a short excerpt of it (:func:`excerpt`): a pasted megabyte must not come
back as a megabyte of error text.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "excerpt",
    "RulesError",
    "PositionError",
    "ActionError",
    "ActionSyntaxError",
    "IllegalActionError",
    "EngineLimitError",
    "EnumerationLimitError",
    "DataError",
]


class RulesError(ValueError):
    """A rules config (or game name) that no game accepts."""


class PositionError(ValueError):
    """A position that is malformed or cannot arise; the message names the field."""


class ActionError(ValueError):
    """An action or move that cannot be played."""


class ActionSyntaxError(ActionError):
    """The action is malformed or names something that does not exist."""


class IllegalActionError(ActionError):
    """The action is well formed but breaks a rule in this position."""


class EngineLimitError(RuntimeError):
    """An engine's own limit (a safety guard or an enumeration bound, not a rule) stopped it; the
    state is unchanged. Not a ``ValueError``: the input is legal, the engine declines to go on.
    Displays show its message as they show a player's mistake (``widgets.controls.ErrorLog``)."""


#: The longest excerpt of an input that an error message quotes, in characters.
EXCERPT_LIMIT = 80


class _ShortRepr(reprlib.Repr):
    """``reprlib`` limits that also survive huge ints (``repr`` refuses over 4,300 digits)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = EXCERPT_LIMIT

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<int of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


_SHORT = _ShortRepr()


def excerpt(value: Any, limit: int = EXCERPT_LIMIT) -> str:
    """A ``repr`` of ``value`` cut to at most ``limit`` characters, for quoting input in errors.

    Safe for anything: deep nesting, huge ints, text that is not UTF-8, objects whose ``repr``
    fails. A cut excerpt ends with ``...`` and, for text, says how long the whole input was.

    >>> excerpt("x" * 1000, limit=30)
    "'xxxxxxxxxxxx'... (1000 chars)"
    >>> excerpt(10**5000)
    '<int of about 5001 digits>'
    """
    if isinstance(value, (str, bytes, bytearray)):
        text = repr(value[: limit + 1])
        if len(value) <= limit and len(text) <= limit:
            return text
        unit = "chars" if isinstance(value, str) else "bytes"
        tail = f"... ({len(value)} {unit})"
        room = max(limit - len(tail), 3)
        head = repr(value[: room - 2])
        return head[:room] + tail  # escapes can make the repr longer than its slice: cut it
    try:
        text = _SHORT.repr(value)
    except Exception:  # a broken __repr__ must not hide the error being reported
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class EnumerationLimitError(EngineLimitError):
    """``legal_moves(limit=...)`` found more whole moves than its limit; an engine limit, not a rule.

    Any single move can still be tested and played (``parse_move``, ``apply_move``), and
    ``legal_actions()`` always offers the action-by-action form of a move.
    """


class DataError(ValueError):
    """A saved file (study results) that cannot be read back: damaged, or not what it claims to be."""
