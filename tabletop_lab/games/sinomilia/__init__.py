"""Sinomilia: rules engine (``rules``), agents (``agents``), one-round solver (``solver``),
renderer (``render``) and board widget (``board``)."""

from .rules import PLAYER_NAMES, RoundReport, SinomiliaGame, SinomiliaState

__all__ = ["PLAYER_NAMES", "RoundReport", "SinomiliaGame", "SinomiliaState"]
