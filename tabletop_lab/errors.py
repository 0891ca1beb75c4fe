"""The error tree shared by every game (``shared/spec/README.md``, "Errors").

::

    ValueError
     ├── RulesError               bad rules config, unknown game or board data
     ├── PositionError            malformed or impossible position; names the field
     └── ActionError
          ├── ActionSyntaxError   malformed action string, unknown cell or hole
          └── IllegalActionError  well formed, but not legal here; names the rule
    RuntimeError
     └── LapLimitError            Cross-endodoi's safety guard: an engine limit, not a rule

Every engine leaves the state unchanged when it raises any of these.
"""

__all__ = [
    "RulesError",
    "PositionError",
    "ActionError",
    "ActionSyntaxError",
    "IllegalActionError",
    "LapLimitError",
    "EnumerationLimitError",
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


class LapLimitError(RuntimeError):
    """A Cross-endodoi move needed more laps than ``max_laps``; nothing was changed."""


class EnumerationLimitError(RuntimeError):
    """``legal_moves(limit=...)`` found more whole moves than its limit; an engine limit, not a rule.

    Any single move can still be tested and played (``parse_move``, ``apply_move``), and
    ``legal_actions()`` always offers the action-by-action form of a move.
    """
