"""Sygo: rules engine (``rules``, on the bitboards of ``bitboard`` and the growth logic of
``growth``), renderer (``render``) and board widget (``board``)."""

from .rules import EnumerationLimitError, SygoGame, SygoState

__all__ = ["EnumerationLimitError", "SygoGame", "SygoState"]
