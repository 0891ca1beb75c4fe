"""Capitals as tensors (OpenSpiel's ``observation_tensor``): read from the position JSON, or
mid-turn from the turn in progress (``CapitalsState.snapshot()``).

Layout after the observer's seat (core adds it); squares in canonical order (``a1`` first),
seats 0..3:

=====================  =====  ===========================================================
field                  size   encoding
=====================  =====  ===========================================================
units                  768    per square: owner (4), controller (4), a Ram's top piece's
                              owner (4), one-hot; all 0 on an empty square
chain in progress      256    four planes: its start, where it stands, its landings, the
                              units it jumped
cycle                  5      cycle mod 4 one-hot (0: a cycle 4k), cycle / max_cycles
                              (cycle / 200 without a cap), at most 1. With hunger_first =
                              "alternate" whether a slot is in an Epoch also needs cycle
                              mod 8, which no field holds: only the cycle's fraction
                              tells cycle 8k from 8k + 4 (and, past the cap of 1, not it)
slot, actor            4+4    one-hot
extra turn             1
transfers              1      this turn's transfers / transfers_per_turn (1 if it is 0)
pending sacrifice      1
releases               12     pending per Territory / 9, the first's owner and Territory
altar filled           4
eliminated             4
cages, altars          16+16  per seat, their pieces per owner / 9
removed                4      per owner / 9
turn in progress       2      a turn is in progress; it waits for a pass-turn's sacrifice
=====================  =====  ===========================================================

1098 floats; actions are the 1372 strings of ``geometry`` (``NUM_ACTIONS``). Everything is
public, so every seat's encoding is the same.
"""

from __future__ import annotations

from ...core import one_hot
from .geometry import NUM_ACTIONS, SQUARE_OF

_UNIT = 12


def num_distinct_actions(game) -> int:
    """Every action string that can exist, sorted and numbered (``geometry``)."""
    return NUM_ACTIONS


def observation_size(game) -> int:
    return 64 * _UNIT + 4 * 64 + 74


def encode(game, observation: dict, player: int) -> list[float]:
    """The table above."""
    units = [0.0] * (64 * _UNIT)
    for name, owner, controller, top in observation["pieces"]:
        base = SQUARE_OF[name] * _UNIT
        units[base + owner] = units[base + 4 + controller] = 1.0
        if top is not None:
            units[base + 8 + top] = 1.0
    chain_planes = [0.0] * (4 * 64)
    progress = observation.get("turn_in_progress")
    chain = progress and progress["chain"]
    if chain:
        for plane, squares in enumerate(([chain["start"]], [chain["at"]], chain["landings"], chain["jumped"])):
            for name in squares:
                chain_planes[plane * 64 + SQUARE_OF[name]] = 1.0
    cycle, cap = observation["cycle"], game.options["max_cycles"] or 200
    per_turn = game.options["transfers_per_turn"]
    releases = observation["releases"]
    first = releases[0] if releases else (None, None)
    out = units + chain_planes
    out += one_hot(cycle % 4, 4) + [min(cycle / cap, 1.0)]
    out += one_hot(observation["slot"], 4) + one_hot(observation["actor"], 4)
    out += [float(observation["extra_turn"]), min(observation["transfers"] / max(per_turn, 1), 1.0)]
    out += [float(observation["pending_sacrifice"])]
    out += [sum(1 for _, territory in releases if territory == t) / 9 for t in range(4)]
    out += one_hot(first[0], 4) + one_hot(first[1], 4)
    out += [float(v) for v in observation["altar_filled"] + observation["eliminated"]]
    for piles in (observation["cages"], observation["altars"]):
        for pile in piles:
            out += [pile.count(owner) / 9 for owner in range(4)]
    out += [removed / 9 for removed in observation["removed"]]
    out += [float(progress is not None), float(bool(progress and progress["pass_turn_sacrifice"]))]
    return out
