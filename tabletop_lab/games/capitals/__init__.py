"""Capitals: rules engine (``rules``), renderer (``render``) and board adapter (``board``)."""

from .rules import PLAYER_NAMES, TEAMS, CapitalsGame, CapitalsState

__all__ = ["PLAYER_NAMES", "TEAMS", "CapitalsGame", "CapitalsState"]
