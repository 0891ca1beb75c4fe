"""Cross-endodoi: rules engine (``rules``), renderer (``render``) and board widget (``board``)."""

from .rules import CrossEndodoiGame, CrossEndodoiState, Lap, MoveReport, opposite, owner

__all__ = ["CrossEndodoiGame", "CrossEndodoiState", "Lap", "MoveReport", "opposite", "owner"]
