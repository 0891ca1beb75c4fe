"""Sinoda: rules engine (``rules``), boards as data (``geometry``), renderer (``render``) and board adapter (``board``)."""

from .geometry import Board, board_data, standard_board
from .rules import PLAYER_NAMES, TEAM_LAYOUTS, SinodaGame, SinodaState, Turn

__all__ = ["Board", "PLAYER_NAMES", "SinodaGame", "SinodaState", "TEAM_LAYOUTS", "Turn", "board_data", "standard_board"]
