"""Building Capitals positions for tests: name the units, the rest is filled in."""

from tabletop_lab import load_game

EMPTY = [[], [], [], []]


def position(pieces: dict, **fields) -> dict:
    """A position JSON: ``pieces`` maps a square to an owner (a single piece it controls), to
    ``(owner, controller)`` or to ``(owner, controller, top)``; ``removed`` makes the counts 9."""
    data = {
        "game": "capitals",
        "cycle": 1,
        "slot": 0,
        "actor": 0,
        "extra_turn": False,
        "transfers": 0,
        "pending_sacrifice": False,
        "releases": [],
        "altar_filled": [False] * 4,
        "eliminated": [False] * 4,
        "pieces": [],
        "cages": [[], [], [], []],
        "altars": [[], [], [], []],
        "removed": [0, 0, 0, 0],
    }
    data.update(fields)
    counts = [0] * 4
    for square, unit in pieces.items():
        if isinstance(unit, int):
            unit = (unit, unit, None)
        elif len(unit) == 2:
            unit = (*unit, None)
        data["pieces"].append([square, *unit])
        counts[unit[0]] += 1
        if unit[2] is not None:
            counts[unit[2]] += 1
    for pile in data["cages"] + data["altars"]:
        for owner in pile:
            counts[owner] += 1
    for owner, _ in data["releases"]:
        counts[owner] += 1
    if "removed" not in fields:
        data["removed"] = [9 - c for c in counts]
    return data


def load(pieces: dict, options: dict | None = None, **fields):
    return load_game("capitals", **(options or {})).state_from_dict(position(pieces, **fields))


def units(state) -> dict:
    """Square -> (owner, controller, top) for every unit on the board."""
    return {square: (owner, controller, top) for square, owner, controller, top in state.to_dict()["pieces"]}
