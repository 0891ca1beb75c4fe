"""Cross-endodoi: rules engine (``rules``), renderer (``render``) and board widget (``board``)."""

from .rules import CrossEndodoiGame, CrossEndodoiState, Lap, LapLimitError, MoveReport, opposite, owner

__all__ = ["CrossEndodoiGame", "CrossEndodoiState", "Lap", "LapLimitError", "MoveReport", "opposite", "owner"]
