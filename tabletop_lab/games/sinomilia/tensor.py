"""Sinomilia as tensors (OpenSpiel's ``observation_tensor``): read from ``observation(player)``.

Built only from what the observer sees (spec 7.2): their own hand and set card, whether the
opponent has set a card (never which), the public piles, table, discards and the last round's
revealed report. Layout after the observer's seat (core adds it), seats absolute (0 Orange,
1 Green):

==========================  ====  ===============================================
field                       size  encoding
==========================  ====  ===============================================
round                       1     round / round_cap (round / 200 without a cap), at most 1
phase                       3     set, play, over one-hot
start player, to move       2+2   one-hot (to move all 0 when the game is over)
chips                       2     each pile / 30
table                       2     sun chips, moon chips / 9
own hand                    10    1 per card held
own set card                10    one-hot (all 0 when unset)
opponent has set a card     1     1 or 0
discards                    20    per seat, 1 per card discarded
changed                     2     per seat
last action, last turn      2+5   one-hot (last turn: none, pass, sun, moon, change)
last round's winner         2     one-hot
cap reached                 1
last round report           27    present, both cards one-hot (20), winner (2),
                                  how decided (3: distance, last_action, no_action), paid / 30
==========================  ====  ===============================================

92 floats; actions are the 23 of the ``rules`` module docstring.
"""

from __future__ import annotations

from ...core import one_hot
from .rules import NUM_ACTIONS, PHASES, TOTAL_CHIPS, TURNS

_DECIDED = ("distance", "last_action", "no_action")
_SIZE = 92


def num_distinct_actions(game) -> int:
    """``set k``, ``chip sun``, ``chip moon``, ``change k``, ``pass``."""
    return NUM_ACTIONS


def observation_size(game) -> int:
    return _SIZE


def encode(game, observation: dict, player: int) -> list[float]:
    """The table above, from ``player``'s observation."""
    me, opponent = player, 1 - player
    cap = game.options["round_cap"] or 200
    out = [min(observation["round"] / cap, 1.0)]
    out += one_hot(PHASES.index(observation["phase"]), 3)
    out += one_hot(observation["start_player"], 2) + one_hot(observation["to_move"], 2)
    out += [chips / TOTAL_CHIPS for chips in observation["chips"]]
    out += [chips / 9 for chips in observation["table"]]
    out += _cards(observation["hands"][me])
    out += one_hot(observation["set"][me], 10)
    out += [float(observation["set"][opponent] is not None)]
    out += _cards(observation["discards"][0]) + _cards(observation["discards"][1])
    out += [float(changed) for changed in observation["changed"]]
    out += one_hot(observation["last_action"], 2) + one_hot(TURNS.index(observation["last_turn"]), 5)
    out += one_hot(observation["last_round_winner"], 2) + [float(observation["cap_reached"])]
    report = observation["last_round"]
    if report is None:
        out += [0.0] * 27
    else:
        out += [1.0] + one_hot(report["cards"][0], 10) + one_hot(report["cards"][1], 10)
        out += one_hot(report["winner"], 2) + one_hot(_DECIDED.index(report["decided"]), 3)
        out += [report["paid"] / TOTAL_CHIPS]
    return out


def _cards(cards: list[int]) -> list[float]:
    held = set(cards)
    return [float(k in held) for k in range(10)]
