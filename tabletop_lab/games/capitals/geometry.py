"""Capitals board geometry, unit codes and the action numbering (``docs/rules/capitals.md`` 1, 9, 9a).

Squares are ints ``8 * r + c`` (so ascending order is the spec's canonical order, by rank then
file); ``a1`` is 0, ``h1`` 7, ``a8`` 56, ``h8`` 63. Shown as a diamond (``x = c - r``,
``y = r + c``, y down)::

                 a1            top: player 0 (White, upright), Capital a1
              a2    b1
           a3    b2    c1
        a8 ...         ... h1  left: player 3 (Black, flipped)  right: player 1 (Black, upright)
           b8    ...   g1
              ...   h7
                 h8            bottom: player 2 (White, flipped), Capital h8

A unit on a square is a small int, 0 for an empty square: ``1 + owner + 4 * controller +
16 * (top + 1)`` with ``top = -1`` for a single piece, so tables indexed by the code give its
owner, controller, top and kind at once.

Actions are numbered so that ascending ints are the spec's listing order (Python string order
of the canonical strings): every action string that can exist is listed, sorted and numbered.
"""

from __future__ import annotations

#: Seats 0..3 at the top, right, bottom and left corners; teams White {0, 2} and Black {1, 3}.
PLAYER_NAMES = ("White (top)", "Black (right)", "White (bottom)", "Black (left)")
TEAM_NAMES = ("White", "Black")
TEAMS = ((0, 2), (1, 3))

FILES = "abcdefgh"
SQUARE_NAMES = tuple(FILES[s % 8] + str(s // 8 + 1) for s in range(64))
SQUARE_OF = {name: s for s, name in enumerate(SQUARE_NAMES)}
DIRECTIONS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
ORTHOGONAL = frozenset(d for d in DIRECTIONS if 0 in d)

#: Capital square of each player, and the player whose Capital each square is (-1: none).
CAPITALS = (0, 7, 63, 56)
CAPITAL_OWNER = tuple(CAPITALS.index(s) if s in CAPITALS else -1 for s in range(64))
_TERRITORY_CORNERS = ((0, 0), (0, 5), (5, 5), (5, 0))
#: The nine squares of each player's Territory, in canonical order.
TERRITORIES = tuple(
    tuple(8 * r + c for r in range(r0, r0 + 3) for c in range(c0, c0 + 3)) for r0, c0 in _TERRITORY_CORNERS
)
TERRITORY_OWNER = tuple(next((p for p in range(4) if s in TERRITORIES[p]), -1) for s in range(64))


def chebyshev(a: int, b: int) -> int:
    return max(abs(a // 8 - b // 8), abs(a % 8 - b % 8))


#: Squares of each Territory in fixed release order: distance from the Capital, rank, file (5.1).
RELEASE_ORDER = tuple(tuple(sorted(TERRITORIES[p], key=lambda s: (chebyshev(s, CAPITALS[p]), s))) for p in range(4))


def _on_board(r: int, c: int) -> bool:
    return 0 <= r < 8 and 0 <= c < 8


def _neighbours(orthogonal_only: bool) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(
            8 * (s // 8 + dr) + s % 8 + dc
            for dr, dc in DIRECTIONS
            if _on_board(s // 8 + dr, s % 8 + dc) and (not orthogonal_only or (dr, dc) in ORTHOGONAL)
        )
        for s in range(64)
    )


NEIGHBOURS8 = _neighbours(False)
NEIGHBOURS4 = _neighbours(True)
#: For each square, its jumps as ``(jumped square, landing square)`` pairs.
JUMP_LINES = tuple(
    tuple(
        (8 * (s // 8 + dr) + s % 8 + dc, 8 * (s // 8 + 2 * dr) + s % 8 + 2 * dc)
        for dr, dc in DIRECTIONS
        if _on_board(s // 8 + 2 * dr, s % 8 + 2 * dc)
    )
    for s in range(64)
)
#: ``JUMPED[64 * a + b]``: the square jumped from ``a`` landing on ``b``, or -1 if none.
JUMPED = [-1] * 4096
for _s in range(64):
    for _over, _land in JUMP_LINES[_s]:
        JUMPED[64 * _s + _land] = _over

# ----------------------------------------------------------------------------- unit codes

NO_TOP = -1


def unit_code(owner: int, controller: int, top: int = NO_TOP) -> int:
    return 1 + owner + 4 * controller + 16 * (top + 1)


OWNER = [0] * 81
CONTROLLER = [-1] * 81
TOP = [NO_TOP] * 81
IS_RAM = [False] * 81
TEAM_OF = [-1] * 81  # the controller's team: 0 White (players 0, 2), 1 Black (1, 3)
for _o in range(4):
    for _c in range(4):
        for _t in range(-1, 4):
            _code = unit_code(_o, _c, _t)
            OWNER[_code], CONTROLLER[_code], TOP[_code] = _o, _c, _t
            IS_RAM[_code], TEAM_OF[_code] = _t != NO_TOP, _c & 1
#: A Ram's bottom as a single piece with the same controller.
BOTTOM = [c and unit_code(OWNER[c], CONTROLLER[c]) for c in range(81)]

# ----------------------------------------------------------------------------- actions

STEP, JUMP, DISMANTLE, HOP, SACRIFICE, RELEASE, TRANSFER, PASS_TURN, SKIP, STOP = range(10)
KIND_WORDS = ("step", "jump", "dismantle", "hop", "sacrifice", "release", "transfer", "pass-turn", "skip", "stop")


def _all_actions() -> list[tuple[str, int, int, int]]:
    actions = []
    for s in range(64):
        for n in NEIGHBOURS8[s]:
            actions.append((f"step {SQUARE_NAMES[s]} {SQUARE_NAMES[n]}", STEP, s, n))
            actions.append((f"dismantle {SQUARE_NAMES[s]} {SQUARE_NAMES[n]}", DISMANTLE, s, n))
        for _, land in JUMP_LINES[s]:
            actions.append((f"jump {SQUARE_NAMES[s]} {SQUARE_NAMES[land]}", JUMP, s, land))
        for word, kind in (("hop", HOP), ("sacrifice", SACRIFICE), ("release", RELEASE)):
            actions.append((f"{word} {SQUARE_NAMES[s]}", kind, -1, s))
    for word, kind in (("transfer", TRANSFER), ("pass-turn", PASS_TURN), ("skip", SKIP), ("stop", STOP)):
        actions.append((word, kind, -1, -1))
    return sorted(actions)


_ACTIONS = _all_actions()
NUM_ACTIONS = len(_ACTIONS)
ACTION_STRINGS = tuple(a[0] for a in _ACTIONS)
ACTION_OF = {text: i for i, text in enumerate(ACTION_STRINGS)}
KIND = tuple(a[1] for a in _ACTIONS)
SOURCE = tuple(a[2] for a in _ACTIONS)  # from / Ram square, -1 when the action has none
TARGET = tuple(a[3] for a in _ACTIONS)  # to / landing / named square, -1 when none


def _ids(kind: int) -> list[int]:
    table = [-1] * 4096
    for i, (_, k, a, b) in enumerate(_ACTIONS):
        if k == kind:
            table[64 * a + b] = i
    return table


STEP_ID = _ids(STEP)
JUMP_ID = _ids(JUMP)
DISMANTLE_ID = _ids(DISMANTLE)
HOP_ID = tuple(ACTION_OF[f"hop {n}"] for n in SQUARE_NAMES)
SACRIFICE_ID = tuple(ACTION_OF[f"sacrifice {n}"] for n in SQUARE_NAMES)
RELEASE_ID = tuple(ACTION_OF[f"release {n}"] for n in SQUARE_NAMES)
TRANSFER_ID, PASS_TURN_ID, SKIP_ID, STOP_ID = (ACTION_OF[w] for w in ("transfer", "pass-turn", "skip", "stop"))

#: Per square: ``(neighbour, step id, dismantle id)`` and ``(jumped, landing, jump id)``.
STEPS_FROM = tuple(tuple((n, STEP_ID[64 * s + n], DISMANTLE_ID[64 * s + n]) for n in NEIGHBOURS8[s]) for s in range(64))
JUMPS_FROM = tuple(tuple((o, land, JUMP_ID[64 * s + land]) for o, land in JUMP_LINES[s]) for s in range(64))
