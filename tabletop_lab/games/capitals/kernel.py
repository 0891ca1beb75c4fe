"""Compiled playouts for Capitals (``tabletop_lab.kernels``): random games and rollouts.

A state is a flat int64 array (``SIZE`` entries, offsets below): the 64 unit codes of
``geometry`` (so ``board[s]`` means the same in both), the turn fields of the position JSON,
the four Cages and Altars and the ``releases`` as bounded queues, the outcome, the jump chain
in progress (start, square, kind, jumped units, landings, captures) and the actions of the
move in progress. The functions below are ``CapitalsState``'s rules written for numba, one for
one (``_hops`` is ``CapitalsState._hops``, ``_resolve`` is ``_resolve``, ...), and list the
legal actions in the engine's order, the ascending action ids: each kind of action is generated
square by square in the order of the squares' names, which is the order of their strings.
``tests/games/capitals/test_kernel.py`` proves them equal to the engine game by game.

Every rules config is supported: all seventeen options with all their values (any
``transfers_per_turn`` and ``max_cycles``, or none); Capitals has no engine parameters and no
safety guard that raises, so no game is left to the engine (no ``REPLAY``).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ...compiled_search import uct_search
from ...core import canonical_json
from ...jit import choice_index, copy_into, internal, next_draw, njit, text_pieces, write_decimal, write_piece
from ...kernels import CUT, FINISHED, RULE_CAP, PlayedGames, RecordedGame, TreeRoot, as_recorded, new_record
from .evaluation import NEAR_CAPITAL, white_score
from .geometry import (
    BOTTOM,
    CAPITAL_OWNER,
    CONTROLLER,
    DISMANTLE,
    DISMANTLE_ID,
    HOP,
    HOP_ID,
    IS_RAM,
    JUMP,
    JUMP_ID,
    JUMP_LINES,
    JUMPED,
    KIND,
    NEIGHBOURS4,
    NEIGHBOURS8,
    OWNER,
    PASS_TURN,
    PASS_TURN_ID,
    RELEASE_ID,
    RELEASE_ORDER,
    SACRIFICE,
    SACRIFICE_ID,
    SKIP,
    SKIP_ID,
    SOURCE,
    SQUARE_NAMES,
    STEP,
    STEP_ID,
    STOP,
    STOP_ID,
    TARGET,
    TEAM_OF,
    TERRITORIES,
    TERRITORY_OWNER,
    TOP,
    TRANSFER,
    TRANSFER_ID,
)
from .rules import CapitalsGame, CapitalsState
from .turn import FRIENDLY, HOSTILE, Chain

__all__ = ["KERNEL"]

#: How the kernel's functions compile (first use on a machine): numba optimises and generates
#: machine code for each compiled function with all it calls linked in, so every function costs a
#: compile of its own and its callees' code again. The entries (``_random_games``, ``_rollout``,
#: ``_tree_key``, ``_tree_search``) are ``njit``; the rules that several places call are
#: ``jit.internal`` (no wrappers for calls from Python); a function called from one place (and
#: the search's operations, ``_play``, ``_write_json``) is inlined into its caller at numba's IR
#: level (``_inline``). Capitals' ``tabletop-lab compile`` from an empty cache: about 18 s of CPU
#: with every function ``njit``, 12 s so (numba 0.68). Inlining everything small compiles more:
#: numba compiles an inlined function again at each call site.
_inline = numba.njit(cache=True, nogil=True, inline="always")

# ----------------------------------------------------------------------------- the flat state

_QUEUE = 36  # room in a Cage, an Altar or the release queue: there are 36 pieces
_CHAIN_ROOM = 40  # a chain jumps each unit at most once: at most 35 jumps
_MOVE_ROOM = 64  # actions of one move: a chain's jump, hops and stop; a pass-turn and its sacrifice


def _layout(*fields: tuple[str, int]) -> tuple[dict[str, int], int]:
    offsets, at = {}, 0
    for name, size in fields:
        offsets[name] = at
        at += size
    return offsets, at


_AT, SIZE = _layout(
    ("board", 64),
    ("cycle", 1),
    ("slot", 1),
    ("actor", 1),
    ("extra_turn", 1),
    ("transfers", 1),
    ("pending", 1),  # pending_sacrifice
    ("pass_pending", 1),  # a pass-turn waits for its sacrifice (mid-turn)
    ("filled", 4),  # altar_filled
    ("eliminated", 4),
    ("removed", 4),
    ("winners", 1),  # -1 while the game goes on, else the winners' bit mask
    ("reason", 1),  # index into _REASONS
    ("cage_n", 4),
    ("altar_n", 4),
    ("cages", 4 * _QUEUE),
    ("altars", 4 * _QUEUE),
    ("release_n", 1),
    ("releases", 2 * _QUEUE),  # (owner, territory) pairs
    ("chain", 1),  # 1 while a jump chain is in progress
    ("chain_start", 1),
    ("chain_at", 1),
    ("chain_kind", 1),  # FRIENDLY or HOSTILE
    ("chain_n", 1),  # jumps so far
    ("capture_n", 1),
    ("jumped", _CHAIN_ROOM),
    ("landings", _CHAIN_ROOM),
    ("captures", 3 * _CHAIN_ROOM),  # (square, Ram attack?, owner captured)
    ("move_n", 1),
    ("move", _MOVE_ROOM),  # the actions of the move in progress
)
_CYCLE, _SLOT, _ACTOR, _EXTRA, _TRANSFERS = _AT["cycle"], _AT["slot"], _AT["actor"], _AT["extra_turn"], _AT["transfers"]
_PENDING, _PASS_PENDING, _FILLED, _ELIMINATED = _AT["pending"], _AT["pass_pending"], _AT["filled"], _AT["eliminated"]
_REMOVED, _WINNERS, _REASON = _AT["removed"], _AT["winners"], _AT["reason"]
_CAGE_N, _ALTAR_N, _CAGES, _ALTARS = _AT["cage_n"], _AT["altar_n"], _AT["cages"], _AT["altars"]
_RELEASE_N, _RELEASES = _AT["release_n"], _AT["releases"]
_CHAIN, _CH_START, _CH_AT, _CH_KIND = _AT["chain"], _AT["chain_start"], _AT["chain_at"], _AT["chain_kind"]
_CH_N, _CAPTURE_N, _JUMPED, _LANDINGS, _CAPTURES = (
    _AT["chain_n"], _AT["capture_n"], _AT["jumped"], _AT["landings"], _AT["captures"],
)  # fmt: skip
_MOVE_N, _MOVE = _AT["move_n"], _AT["move"]

_REASONS = ("capitals", "no_pieces", "cap")
_TEAM_MASK = (0b0101, 0b1010)
_EVERYONE = 0b1111

# The rules config as an int64 array (``_rules``).
(_SKIP_SLOT, _KEEP_TOP, _IMMEDIATE, _END_ON_START, _RAM_AFTER_FRIENDLY, _RAM_JUMP, _ADJACENCY4, _TRANSFERS_MAX,
 _PASS_REMOVED, _PASS_CHAIN, _FINAL_SQUARE, _ELIMINATION_ATTACKS, _SACRIFICE_RAM, _FIXED, _WINNER_ONLY,
 _MAX_CYCLES, _ALTERNATE_HUNGER) = range(17)  # fmt: skip

# ----------------------------------------------------------------------------- tables

_BY_NAME = np.array(sorted(range(64), key=SQUARE_NAMES.__getitem__), np.int64)  # squares in name order


def _table(rows, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Ragged rows as a padded 2-D int64 array and the rows' lengths."""
    table = np.full((len(rows), width), -1, np.int64)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    return table, np.array([len(row) for row in rows], np.int64)


def _by_name(squares) -> list[int]:
    return sorted(squares, key=SQUARE_NAMES.__getitem__)


# Neighbours and jump lines of each square, in the order of the target squares' names.
_NEXT, _NEXT_N = _table([_by_name(NEIGHBOURS8[s]) for s in range(64)], 8)
_STEP_AID = np.array([[STEP_ID[64 * s + n] if n >= 0 else -1 for n in _NEXT[s]] for s in range(64)], np.int64)
_DISMANTLE_AID = np.array([[DISMANTLE_ID[64 * s + n] if n >= 0 else -1 for n in _NEXT[s]] for s in range(64)])
_LINES = [sorted(JUMP_LINES[s], key=lambda line: SQUARE_NAMES[line[1]]) for s in range(64)]
_OVER, _LINE_N = _table([[over for over, _ in lines] for lines in _LINES], 8)
_LAND, _ = _table([[land for _, land in lines] for lines in _LINES], 8)
_JUMP_AID = np.array([[JUMP_ID[64 * s + land] if land >= 0 else -1 for land in _LAND[s]] for s in range(64)])
_ADJACENT = np.stack([_table(list(NEIGHBOURS8), 8)[0], _table(list(NEIGHBOURS4), 8)[0]])  # [4-only?, square]
_ADJACENT_N = np.stack([_table(list(NEIGHBOURS8), 8)[1], _table(list(NEIGHBOURS4), 8)[1]])
_TERRITORY = np.array(TERRITORIES, np.int64)
_TERRITORY_BY_NAME = np.array([_by_name(t) for t in TERRITORIES], np.int64)
_RELEASE_ORDER = np.array(RELEASE_ORDER, np.int64)
_NEAR_CAPITAL, _NEAR_CAPITAL_N = _table(NEAR_CAPITAL, 25)

_OWNER = np.array(OWNER, np.int64)
_CONTROLLER = np.array(CONTROLLER, np.int64)
_TOP = np.array(TOP, np.int64)
_IS_RAM = np.array(IS_RAM, np.int64)
_TEAM = np.array(TEAM_OF, np.int64)
_BOTTOM = np.array(BOTTOM, np.int64)
_CAPITAL_OWNER = np.array(CAPITAL_OWNER, np.int64)
_TERRITORY_OWNER = np.array(TERRITORY_OWNER, np.int64)
_JUMPED_OVER = np.array(JUMPED, np.int64)
_KIND = np.array(KIND, np.int64)
_SOURCE = np.array(SOURCE, np.int64)
_TARGET = np.array(TARGET, np.int64)
_HOP_ID = np.array(HOP_ID, np.int64)
_SACRIFICE_ID = np.array(SACRIFICE_ID, np.int64)
_RELEASE_ID = np.array(RELEASE_ID, np.int64)

_SEGMENT = 160  # room for one kind of main action: a team controls at most 18 units, 8 each
_LEGAL_ROOM = 3 * _SEGMENT
# What a main action did, for its resolution (``_resolve``), kept in a small ``scratch`` array
# rather than passed as arguments: numba compiles a function again for each constant argument.
_ENTERED = 40  # captured owners (at most 35) at 0, the players whose Capitals were entered here
_CAPTURED_N, _ENTERED_N, _PASSED, _ATTACKING = 44, 45, 46, 47
_SCRATCH = 48

# ----------------------------------------------------------------------------- small helpers


@internal
def _code(owner, controller):
    return 1 + owner + 4 * controller


@internal
def _push_cage(pos, player, piece):
    n = pos[_CAGE_N + player]
    pos[_CAGES + _QUEUE * player + n] = piece
    pos[_CAGE_N + player] = n + 1


@internal
def _pop_cage(pos, player):
    """The oldest piece of ``player``'s Cage, removed."""
    base = _CAGES + _QUEUE * player
    piece = pos[base]
    n = pos[_CAGE_N + player] - 1
    for i in range(n):
        pos[base + i] = pos[base + i + 1]
    pos[_CAGE_N + player] = n
    return piece


@internal
def _push_altar(pos, player, piece):
    n = pos[_ALTAR_N + player]
    pos[_ALTARS + _QUEUE * player + n] = piece
    pos[_ALTAR_N + player] = n + 1


@internal
def _pop_release(pos):
    """The first ``(owner, territory)`` of the release queue, removed: its owner."""
    owner = pos[_RELEASES]
    n = pos[_RELEASE_N] - 1
    for i in range(2 * n):
        pos[_RELEASES + i] = pos[_RELEASES + i + 2]
    pos[_RELEASE_N] = n
    return owner


@internal
def _mid_turn(pos):
    return pos[_CHAIN] != 0 or pos[_PASS_PENDING] != 0


@_inline
def _has_synergy(pos, rules):
    actor = pos[_ACTOR]
    ally = actor ^ 2
    if pos[_ELIMINATED + ally]:
        return False
    which = rules[_ADJACENCY4]
    for square in range(64):
        code = pos[square]
        if code and _CONTROLLER[code] == actor:
            for k in range(_ADJACENT_N[which, square]):
                other = pos[_ADJACENT[which, square, k]]
                if other and _CONTROLLER[other] == ally:
                    return True
    return False


@internal
def _sacrificeable(pos, rules, square):
    code = pos[square]
    return code != 0 and _CONTROLLER[code] == pos[_ACTOR] and (rules[_SACRIFICE_RAM] or not _IS_RAM[code])


@_inline
def _any_sacrificeable(pos, rules):
    for square in range(64):
        if _sacrificeable(pos, rules, square):
            return True
    return False


# ----------------------------------------------------------------------------- legal actions


@_inline
def _jumped_before(pos, square):
    for i in range(pos[_CH_N]):
        if pos[_JUMPED + i] == square:
            return True
    return False


@internal
def _may_hop(pos, rules, over, land):
    """Whether the chain may jump ``over`` onto ``land`` (3.2), the dead-end test aside."""
    other = pos[over]
    if other == 0 or pos[land] != 0 or _jumped_before(pos, over):
        return False
    kind = pos[_CH_KIND]
    if _TEAM[other] == pos[_ACTOR] & 1:
        return kind == FRIENDLY
    if _IS_RAM[other]:
        return not rules[_RAM_AFTER_FRIENDLY] or kind == FRIENDLY
    return kind == HOSTILE


@internal
def _hops(pos, rules, out, first_only):
    """``CapitalsState._hops``: the hop actions of the chain into ``out``, their number; with
    ``first_only``, 1 as soon as there is one (``out`` untouched), else 0. Callers pass
    ``np.bool_(...)``, not a literal: numba compiles a callee again for each literal argument."""
    team = pos[_ACTOR] & 1
    at, start = pos[_CH_AT], pos[_CH_START]
    n = 0
    for k in range(_LINE_N[at]):
        over, land = _OVER[at, k], _LAND[at, k]
        if not _may_hop(pos, rules, over, land):
            continue
        if land == start and not rules[_END_ON_START]:
            other = pos[over]
            if (_IS_RAM[other] and _TEAM[other] != team) or not _continues_from_start(pos, rules, over):
                continue  # the chain would be stuck on its starting square
        if first_only:
            return 1
        out[n] = _HOP_ID[land]
        n += 1
    return n


@_inline
def _continues_from_start(pos, rules, over):
    """``CapitalsState._continues_from_start``, on a copy (a rare case: a hop back to the start)."""
    trial = pos.copy()
    start, at = pos[_CH_START], pos[_CH_AT]
    trial[start] = pos[at]
    trial[at] = 0
    if rules[_IMMEDIATE] and pos[_CH_KIND] == HOSTILE and _TEAM[pos[over]] != pos[_ACTOR] & 1:
        trial[over] = 0
    trial[_JUMPED + trial[_CH_N]] = over
    trial[_CH_N] += 1
    trial[_CH_AT] = start
    for k in range(_LINE_N[start]):
        if _may_hop(trial, rules, _OVER[start, k], _LAND[start, k]):
            return True
    return False


@internal
def _legal(pos, rules, legal):
    """``CapitalsState._generate`` into ``legal``: the number of legal actions, ascending."""
    n = 0
    if pos[_RELEASE_N]:
        territory = pos[_RELEASES + 1]
        for i in range(9):
            square = _TERRITORY_BY_NAME[territory, i]
            if pos[square] == 0:
                legal[n] = _RELEASE_ID[square]
                n += 1
        return n
    if pos[_PENDING]:
        for i in range(64):
            square = _BY_NAME[i]
            if _sacrificeable(pos, rules, square):
                legal[n] = _SACRIFICE_ID[square]
                n += 1
        return n
    if pos[_CHAIN]:
        n = _hops(pos, rules, legal, np.bool_(False))
        if pos[_CH_AT] != pos[_CH_START] or rules[_END_ON_START]:
            legal[n] = STOP_ID
            n += 1
        return n
    # main actions: dismantles, jumps, pass-turn, skip, steps, transfer (their strings' order)
    actor = pos[_ACTOR]
    team, ally = actor & 1, actor ^ 2
    ram_jumps = rules[_RAM_JUMP]
    dismantles, jumps, steps = 0, 0, 0
    for i in range(64):
        square = _BY_NAME[i]
        code = pos[square]
        if code == 0 or _CONTROLLER[code] != actor:
            continue
        if _IS_RAM[code]:
            for k in range(_NEXT_N[square]):
                if pos[_NEXT[square, k]] == 0:
                    legal[dismantles] = _DISMANTLE_AID[square, k]
                    dismantles += 1
                    legal[2 * _SEGMENT + steps] = _STEP_AID[square, k]
                    steps += 1
            if ram_jumps:
                for k in range(_LINE_N[square]):
                    if pos[_OVER[square, k]] != 0 and pos[_LAND[square, k]] == 0:
                        legal[_SEGMENT + jumps] = _JUMP_AID[square, k]
                        jumps += 1
        else:
            for k in range(_NEXT_N[square]):
                other = pos[_NEXT[square, k]]
                if other == 0 or (_CONTROLLER[other] == ally and not _IS_RAM[other]):
                    legal[2 * _SEGMENT + steps] = _STEP_AID[square, k]
                    steps += 1
            for k in range(_LINE_N[square]):
                other = pos[_OVER[square, k]]
                if other != 0 and (_TEAM[other] == team or not _IS_RAM[other]) and pos[_LAND[square, k]] == 0:
                    legal[_SEGMENT + jumps] = _JUMP_AID[square, k]
                    jumps += 1
    can_transfer = can_pass = False
    if pos[_CAGE_N + actor]:
        can_transfer = pos[_TRANSFERS] < rules[_TRANSFERS_MAX]
        can_pass = not pos[_EXTRA] or rules[_PASS_CHAIN] != 0
        if (can_transfer or can_pass) and not _has_synergy(pos, rules):
            can_transfer = can_pass = False
    n = dismantles
    for i in range(jumps):
        legal[n] = legal[_SEGMENT + i]
        n += 1
    if can_pass:
        legal[n] = PASS_TURN_ID
        n += 1
    if dismantles + jumps + steps == 0:
        legal[n] = SKIP_ID
        n += 1
    for i in range(steps):
        legal[n] = legal[2 * _SEGMENT + i]
        n += 1
    if can_transfer:
        legal[n] = TRANSFER_ID
        n += 1
    return n


# ----------------------------------------------------------------------------- playing an action


@internal
def _capture(scratch, owner):
    scratch[scratch[_CAPTURED_N]] = owner
    scratch[_CAPTURED_N] += 1


@internal
def _enter(pos, square, team, scratch):
    """``CapitalsState._entered`` for one square: note its Capital's player as entered if a unit
    of ``team`` arriving there eliminates them."""
    player = _CAPITAL_OWNER[square]
    if player < 0 or player & 1 == team or pos[_ELIMINATED + player]:
        return
    entered = scratch[_ENTERED_N]
    for i in range(entered):
        if scratch[_ENTERED + i] == player:
            return
    scratch[_ENTERED + entered] = player
    scratch[_ENTERED_N] = entered + 1


@internal
def _apply(pos, rules, action, scratch):
    """``CapitalsState._apply``."""
    scratch[_CAPTURED_N] = scratch[_ENTERED_N] = scratch[_PASSED] = 0
    kind = _KIND[action]
    target = _TARGET[action]
    if kind == HOP:
        _leap(pos, rules, _JUMPED_OVER[64 * pos[_CH_AT] + target], target, scratch)
    elif kind == STOP:
        _end_chain(pos, rules, scratch)
    elif kind == STEP:
        _step(pos, rules, _SOURCE[action], target, scratch)
    elif kind == JUMP:
        _jump(pos, rules, _SOURCE[action], target, scratch)
    elif kind == DISMANTLE:
        _dismantle(pos, rules, _SOURCE[action], target, scratch)
    elif kind == TRANSFER:
        pos[_TRANSFERS] += 1
        actor = pos[_ACTOR]
        _push_cage(pos, actor ^ 2, _pop_cage(pos, actor))
    elif kind == PASS_TURN:
        _pass_turn(pos, rules, scratch)
    elif kind == SKIP:
        _resolve(pos, rules, scratch)
    elif kind == SACRIFICE:
        _sacrifice(pos, rules, target)
    else:
        _release(pos, rules, target, scratch)


@_inline
def _step(pos, rules, origin, target, scratch):
    code, other = pos[origin], pos[target]
    pos[origin] = 0
    if other:  # onto an allied single: a Ram, controlled by the bottom piece's controller (3.1)
        code = other + 16 * (_OWNER[code] + 1)
    pos[target] = code
    _enter(pos, target, _TEAM[code], scratch)
    _resolve(pos, rules, scratch)


@_inline
def _dismantle(pos, rules, ram, target, scratch):
    code = pos[ram]
    top = _TOP[code]
    if rules[_KEEP_TOP]:
        controller = _CONTROLLER[code]
    else:
        controller = top if not pos[_ELIMINATED + top] else top ^ 2
    pos[ram] = _BOTTOM[code]
    pos[target] = _code(top, controller)
    _enter(pos, target, controller & 1, scratch)
    _resolve(pos, rules, scratch)


@_inline
def _jump(pos, rules, origin, landing, scratch):
    code = pos[origin]
    over = _JUMPED_OVER[64 * origin + landing]
    other = pos[over]
    team = pos[_ACTOR] & 1
    friendly = _TEAM[other] == team
    if _IS_RAM[code]:  # a Ram's single jump (3.3)
        if not friendly:
            if _IS_RAM[other]:
                _capture(scratch, _TOP[other])
            _capture(scratch, _OWNER[other])
            pos[over] = 0
        pos[origin], pos[landing] = 0, code
        _enter(pos, landing, team, scratch)
        _resolve(pos, rules, scratch)
        return
    pos[_CHAIN] = 1
    pos[_CH_START] = pos[_CH_AT] = origin
    pos[_CH_KIND] = FRIENDLY if friendly else HOSTILE
    pos[_CH_N] = pos[_CAPTURE_N] = 0
    _leap(pos, rules, over, landing, scratch)


@internal
def _leap(pos, rules, over, landing, scratch):
    """``CapitalsState._leap``: jump ``over`` onto ``landing``; end the chain if it cannot go on."""
    other = pos[over]
    at = pos[_CH_AT]
    pos[landing] = pos[at]
    pos[at] = 0
    pos[_CH_AT] = landing
    n = pos[_CH_N]
    pos[_LANDINGS + n] = landing
    pos[_JUMPED + n] = over
    pos[_CH_N] = n + 1
    if _TEAM[other] != pos[_ACTOR] & 1:
        ram_attack = _IS_RAM[other]
        c = _CAPTURES + 3 * pos[_CAPTURE_N]
        pos[c], pos[c + 1], pos[c + 2] = over, ram_attack, _TOP[other] if ram_attack else _OWNER[other]
        pos[_CAPTURE_N] += 1
        if rules[_IMMEDIATE]:
            pos[over] = _BOTTOM[other] if ram_attack else 0
        if ram_attack:  # a Ram attack ends the chain (3.2, rule 2)
            _end_chain(pos, rules, scratch)
            return
    if _hops(pos, rules, scratch, np.bool_(True)) == 0:
        _end_chain(pos, rules, scratch)


@internal
def _end_chain(pos, rules, scratch):
    pos[_CHAIN] = 0
    for i in range(pos[_CAPTURE_N]):
        c = _CAPTURES + 3 * i
        if not rules[_IMMEDIATE]:  # captured pieces leave together at the end (3.2, rule 4)
            square = pos[c]
            pos[square] = _BOTTOM[pos[square]] if pos[c + 1] else 0
        _capture(scratch, pos[c + 2])
    team = pos[_ACTOR] & 1
    if rules[_FINAL_SQUARE]:
        _enter(pos, pos[_CH_AT], team, scratch)
    else:
        for i in range(pos[_CH_N]):
            _enter(pos, pos[_LANDINGS + i], team, scratch)
    _resolve(pos, rules, scratch)


@_inline
def _pass_turn(pos, rules, scratch):
    actor = pos[_ACTOR]
    piece = _pop_cage(pos, actor)
    if rules[_PASS_REMOVED]:
        pos[_REMOVED + piece] += 1
    else:
        _push_altar(pos, actor, piece)
        pos[_FILLED + actor] = 1
    scratch[_PASSED] = 1
    _resolve(pos, rules, scratch)


@internal
def _resolve(pos, rules, scratch):
    """``CapitalsState._resolve`` of what the main action noted in ``scratch``."""
    actor = pos[_ACTOR]
    captured, entered = scratch[_CAPTURED_N], scratch[_ENTERED_N]
    if captured:
        hunger = _in_hunger(pos[_CYCLE], pos[_SLOT], rules)
        for i in range(captured):
            if hunger:
                _push_altar(pos, actor, scratch[i])
            else:
                _push_cage(pos, actor, scratch[i])
        if hunger:
            pos[_FILLED + actor] = 1
    attacking = captured > 0
    if entered:
        for i in range(entered):
            pos[_ELIMINATED + scratch[_ENTERED + i]] = 1
        for i in range(entered):  # the release queue is empty during a main action
            player = scratch[_ENTERED + i]
            _eliminate(pos, player)
            for k in range(pos[_CAGE_N + player]):
                r = _RELEASES + 2 * pos[_RELEASE_N]
                pos[r], pos[r + 1] = pos[_CAGES + _QUEUE * player + k], player
                pos[_RELEASE_N] += 1
            pos[_CAGE_N + player] = 0
        attacking = attacking or rules[_ELIMINATION_ATTACKS] != 0
    if (captured or entered) and _check_end(pos):
        for i in range(pos[_RELEASE_N]):
            pos[_REMOVED + pos[_RELEASES + 2 * i]] += 1
        pos[_RELEASE_N] = 0
        return
    if pos[_RELEASE_N]:
        if rules[_FIXED]:
            while pos[_RELEASE_N]:
                territory = pos[_RELEASES + 1]
                placed = False
                for i in range(9):
                    square = _RELEASE_ORDER[territory, i]
                    if pos[square] == 0:
                        _place(pos, square)
                        placed = True
                        break
                if not placed:
                    pos[_REMOVED + _pop_release(pos)] += 1
        else:
            _drop_unplaceable(pos)
            if pos[_RELEASE_N]:
                return
    scratch[_ATTACKING] = attacking
    _after_releases(pos, rules, scratch)


@_inline
def _eliminate(pos, player):
    """Clear ``player``'s Territory of their units; hand the rest to the ally (5.1, steps 1-2)."""
    ally = player ^ 2
    for square in range(64):
        code = pos[square]
        if code and _CONTROLLER[code] == player:
            if _TERRITORY_OWNER[square] == player:
                pos[_REMOVED + _OWNER[code]] += 1
                if _IS_RAM[code]:
                    pos[_REMOVED + _TOP[code]] += 1
                pos[square] = 0
            elif not pos[_ELIMINATED + ally]:
                pos[square] = code + 4 * (ally - player)


@internal
def _drop_unplaceable(pos):
    while pos[_RELEASE_N]:
        territory = pos[_RELEASES + 1]
        for i in range(9):
            if pos[_TERRITORY[territory, i]] == 0:
                return
        pos[_REMOVED + _pop_release(pos)] += 1


@internal
def _place(pos, square):
    owner = _pop_release(pos)
    pos[square] = _code(owner, owner if not pos[_ELIMINATED + owner] else owner ^ 2)


@_inline
def _release(pos, rules, square, scratch):
    _place(pos, square)
    _drop_unplaceable(pos)
    if not pos[_RELEASE_N]:
        scratch[_ATTACKING] = rules[_ELIMINATION_ATTACKS]
        _after_releases(pos, rules, scratch)


@internal
def _after_releases(pos, rules, scratch):
    """The Hunger sacrifice (5.2), then the next turn (section 2, step 4)."""
    actor = pos[_ACTOR]
    passed = scratch[_PASSED]
    if _in_hunger(pos[_CYCLE], pos[_SLOT], rules) and not scratch[_ATTACKING] and not pos[_FILLED + actor]:
        if pos[_CAGE_N + actor]:
            _push_altar(pos, actor, _pop_cage(pos, actor))
            pos[_FILLED + actor] = 1
        elif _any_sacrificeable(pos, rules):
            pos[_PENDING] = 1
            pos[_PASS_PENDING] = passed
            return
    _advance(pos, rules, passed)


@_inline
def _sacrifice(pos, rules, square):
    code = pos[square]
    actor = pos[_ACTOR]
    if _IS_RAM[code]:
        _push_altar(pos, actor, _TOP[code])
        pos[square] = _BOTTOM[code]
    else:
        _push_altar(pos, actor, _OWNER[code])
        pos[square] = 0
    pos[_FILLED + actor] = 1
    pos[_PENDING] = 0
    passed = pos[_PASS_PENDING]
    pos[_PASS_PENDING] = 0
    if not _check_end(pos):
        _advance(pos, rules, passed)


@internal
def _advance(pos, rules, passed):
    """The next turn: the ally's extra turn after a pass-turn, else the next slot (section 2)."""
    pos[_TRANSFERS] = 0
    if passed:
        pos[_ACTOR] ^= 2
        pos[_EXTRA] = 1
        return
    pos[_EXTRA] = 0
    while True:
        slot = pos[_SLOT] + 1
        if slot == 4:
            slot = 0
            pos[_CYCLE] += 1
            capped = rules[_MAX_CYCLES] >= 0 and pos[_CYCLE] > rules[_MAX_CYCLES]
            if capped or not _epoch_tail(pos[_CYCLE], rules):
                pos[_FILLED : _FILLED + 4] = 0
            if capped:
                pos[_SLOT] = 0
                pos[_ACTOR] = 2 if pos[_ELIMINATED] and not rules[_SKIP_SLOT] else 0
                pos[_WINNERS] = _EVERYONE
                pos[_REASON] = 2
                return
        elif slot == 1 and _epoch_edge(pos[_CYCLE], rules):
            pos[_FILLED : _FILLED + 4] = 0
        pos[_SLOT] = slot
        if not pos[_ELIMINATED + slot]:
            pos[_ACTOR] = slot
            return
        if not rules[_SKIP_SLOT]:
            pos[_ACTOR] = slot ^ 2
            return


@internal
def _in_hunger(cycle, slot, rules):
    """``turn.in_hunger``: is ``slot`` of ``cycle`` inside a Hunger Epoch?"""
    if not rules[_ALTERNATE_HUNGER] or cycle % 8 > 1:
        return cycle % 4 == 0
    return (cycle % 8 == 0 and slot > 0) or (cycle % 8 == 1 and cycle > 1 and slot == 0)


@internal
def _epoch_tail(cycle, rules):
    """``turn._epoch_tail``: is slot 0 of ``cycle`` the end of an Epoch that Black opened?"""
    return _in_hunger(cycle, 0, rules) and not _in_hunger(cycle, 1, rules)


@internal
def _epoch_edge(cycle, rules):
    """``turn._epoch_edge``: does slot 1 of ``cycle`` open or close an Epoch that Black opened?"""
    return _in_hunger(cycle, 0, rules) != _in_hunger(cycle, 1, rules)


@internal
def _check_end(pos):
    """``CapitalsState._check_end``: record a team's win (5.3); True when the game is over."""
    present0 = present1 = False
    for square in range(64):
        code = pos[square]
        if code:
            if _TEAM[code]:
                present1 = True
            else:
                present0 = True
    e = pos[_ELIMINATED : _ELIMINATED + 4]
    capitals0 = e[1] != 0 and e[3] != 0
    capitals1 = e[0] != 0 and e[2] != 0
    wins0 = capitals0 or not present1
    wins1 = capitals1 or not present0
    if not (wins0 or wins1):
        return False
    team = pos[_ACTOR] & 1 if wins0 and wins1 else (0 if wins0 else 1)
    pos[_WINNERS] = _TEAM_MASK[team]
    pos[_REASON] = 0 if (capitals1 if team else capitals0) else 1
    return True


# ----------------------------------------------------------------------------- games and rollouts


@internal
def _game_points(pos, rules, team):
    """``CapitalsState.game_points()[team]``."""
    winners = pos[_WINNERS]
    winner = 0 if winners == _TEAM_MASK[0] else (1 if winners == _TEAM_MASK[1] else -1)
    points = 0
    for player in (team, team + 2):
        if team == winner:
            for i in range(pos[_CAGE_N + player]):
                if pos[_CAGES + _QUEUE * player + i] & 1 != team:
                    points += 2
        if not rules[_WINNER_ONLY] or team == winner:
            for i in range(pos[_ALTAR_N + player]):
                points += 1 if pos[_ALTARS + _QUEUE * player + i] & 1 != team else -1
    return points


@_inline
def _play(pos, rules, streams, budget, legal, scratch, record):
    """Random actions on ``pos`` until the end or ``budget`` actions, the actor drawing from
    ``streams[actor]`` (updated); each action and the number of legal actions before it go to
    ``record`` (``kernels.new_record``) if it is not empty, the move in progress to ``pos``.
    Returns the turns, moves and actions played (as ``simulate`` counts them)."""
    turns = moves = played = 0
    mover = -1
    while played < budget and pos[_WINNERS] < 0:
        player = pos[_ACTOR]
        if not _mid_turn(pos):
            moves += 1
            pos[_MOVE_N] = 0
            if player != mover:
                turns += 1
                mover = player
        n = _legal(pos, rules, legal)
        streams[player], draw = next_draw(streams[player])
        action = legal[choice_index(draw, n)]
        if record.shape[1]:
            record[0, played] = action
            record[1, played] = n
        pos[_MOVE + pos[_MOVE_N]] = action
        pos[_MOVE_N] += 1
        _apply(pos, rules, action, scratch)
        played += 1
    return turns, moves, played


@njit
def _random_games(start, rules, streams, max_actions, finals, counts, scores, text, record):
    """One game per row of ``streams`` from ``start``: final states into ``finals``, turns,
    moves and actions into ``counts``, the players' game points into ``scores``, the final
    position's JSON into ``text`` (its length in ``counts[:, 3]``, 0 for a game cut mid-turn);
    the game recorded in ``record`` unless it is empty (one game)."""
    legal = np.empty(_LEGAL_ROOM, np.int64)
    scratch = np.empty(_SCRATCH, np.int64)
    for g in range(streams.shape[0]):
        pos = finals[g]
        copy_into(pos, start)
        counts[g, 0], counts[g, 1], counts[g, 2] = _play(pos, rules, streams[g], max_actions, legal, scratch, record)
        for team in range(2):
            points = _game_points(pos, rules, team)
            scores[g, team] = scores[g, team + 2] = points
        counts[g, 3] = 0 if _mid_turn(pos) else _write_json(pos, text[g])


_evaluation = _inline(white_score)  # the engine's evaluation, compiled


@internal
def _white_score(pos, rules):
    """``evaluation.white_score`` of ``pos``: the sum ``evaluation.white_value`` squashes with ``tanh``."""
    altars0 = altars1 = 0
    if not rules[_WINNER_ONLY]:
        white = np.int64(0)  # not literal ints: numba compiles a callee again for each literal argument
        altars0 = _game_points(pos, rules, white)
        altars1 = _game_points(pos, rules, white + 1)
    cages = pos[_CAGE_N : _CAGE_N + 4]
    eliminated = pos[_ELIMINATED : _ELIMINATED + 4]
    return _evaluation(pos, cages, eliminated, altars0, altars1, _IS_RAM, _TEAM, _NEAR_CAPITAL, _NEAR_CAPITAL_N)


@njit
def _rollout(pos, rules, budget, stream):
    """``random_rollout`` on ``pos`` (changed): the winners' mask at the end (or -1 and White's
    evaluation sum when ``budget`` ran out) and the stream's new state."""
    legal = np.empty(_LEGAL_ROOM, np.int64)
    scratch = np.empty(_SCRATCH, np.int64)
    played = 0
    while played < budget and pos[_WINNERS] < 0:
        n = _legal(pos, rules, legal)
        stream, draw = next_draw(stream)
        _apply(pos, rules, legal[choice_index(draw, n)], scratch)
        played += 1
    if pos[_WINNERS] >= 0:
        return pos[_WINNERS], 0.0, stream
    return -1, _white_score(pos, rules), stream


# ----------------------------------------------------------------------------- the compiled tree
# MCTSAgent's compiled search (compiled_search.py) on ``[key | state]``: a flat state (as
# above) after its key, ``_KEY_WIDTH`` entries that ``_tree_key`` gathers from it. ``key()`` is
# (board, cycle, slot, actor, extra_turn, transfers, pending_sacrifice, releases, altar_filled,
# eliminated, cages, altars, removed, the chain's (start, at, kind, jumped, landings) or None,
# pass_pending): the key holds exactly those fields, the queues and lists with their lengths and
# zeros past them, the chain's fields zero without a chain. It leaves out what ``key()`` leaves
# out (the outcome, derived; the chain's captures; the move's actions) and the kernel's stale
# entries past the end of a queue. ``rules`` = (the rules array, a scratch array).

_KEY_SEGMENTS = ((0, _WINNERS), (_CAGE_N, _CAPTURE_N), (_JUMPED, _CAPTURES))
_KEY_WIDTH = sum(end - start for start, end in _KEY_SEGMENTS)
#: Where each entry of the key comes from in the state (one loop, where three copies of fixed
#: lengths made LLVM unroll and vectorise each, some 2,000 lines of code to compile).
_KEY_SOURCE = np.concatenate([np.arange(start, end) for start, end in _KEY_SEGMENTS]).astype(np.int64)


@njit
def _tree_key(tree):
    """Write the key of ``tree``'s state into its first ``_KEY_WIDTH`` entries."""
    pos = tree[_KEY_WIDTH:]
    for k in range(_KEY_WIDTH):
        tree[k] = pos[_KEY_SOURCE[k]]
    at = _WINNERS  # where (_CAGE_N, ...) begins in the key
    for player in range(4):
        for i in range(pos[_CAGE_N + player], _QUEUE):
            tree[at + _CAGES - _CAGE_N + _QUEUE * player + i] = 0
        for i in range(pos[_ALTAR_N + player], _QUEUE):
            tree[at + _ALTARS - _CAGE_N + _QUEUE * player + i] = 0
    for i in range(2 * pos[_RELEASE_N], 2 * _QUEUE):
        tree[at + _RELEASES - _CAGE_N + i] = 0
    chain_n = pos[_CH_N] if pos[_CHAIN] else 0
    if not pos[_CHAIN]:
        for i in range(_CH_START, _CAPTURE_N):
            tree[at + i - _CAGE_N] = 0
    at += _CAPTURE_N - _CAGE_N  # where jumped and landings begin
    for i in range(chain_n, _CHAIN_ROOM):
        tree[at + i] = 0
        tree[at + _CHAIN_ROOM + i] = 0


@_inline
def _tree_legal(tree, rules, out):
    pos = tree[_KEY_WIDTH:]
    if pos[_WINNERS] >= 0:
        return 0
    return _legal(pos, rules[0], out)


@_inline
def _tree_apply(tree, action, rules):
    _apply(tree[_KEY_WIDTH:], rules[0], action, rules[1])
    _tree_key(tree)
    return 0


@_inline
def _tree_player(tree, rules):
    pos = tree[_KEY_WIDTH:]
    return -4 if pos[_WINNERS] >= 0 else pos[_ACTOR]  # TERMINAL


@_inline
def _tree_rollout(tree, budget, stream, rules, values):
    """``CapitalsKernel.rollout``: returns at the end, else ``tanh`` of White's evaluation."""
    pos = tree[_KEY_WIDTH:]
    winners = pos[_WINNERS]
    score = 0.0
    if budget > 0 and winners < 0:
        winners, score, stream = _rollout(pos.copy(), rules[0], budget, stream)
    elif winners < 0:
        score = _white_score(pos, rules[0])
    if winners < 0:
        value = math.tanh(score)
        for p in range(4):
            values[p] = value if p % 2 == 0 else -value
    elif winners == _EVERYONE:
        values[:] = 0.0
    else:
        for p in range(4):
            values[p] = 1.0 if winners >> p & 1 else -1.0
    return stream, 0


@njit
def _tree_search(rules, root, key_width, n_players, max_legal, iterations, c, cap, rollout_cap, paranoid, root_player,
                 team, mt, stream, out):  # fmt: skip
    return uct_search(
        _tree_legal, _tree_apply, _tree_player, _tree_rollout, rules, root, key_width, n_players, max_legal,
        iterations, c, cap, rollout_cap, paranoid, root_player, team, mt, stream, out,
    )  # fmt: skip


# ----------------------------------------------------------------------------- the position JSON

_WORDS = (
    '{"game":"capitals","cycle":', ',"slot":', ',"actor":', ',"extra_turn":', ',"transfers":',
    ',"pending_sacrifice":', ',"releases":[', '],"altar_filled":[', '],"eliminated":[', '],"pieces":[',
    '],"cages":[', '],"altars":[', '],"removed":[', "]}", "false", "true", "null",
)  # fmt: skip
_WORD_TEXT, _WORD_START = text_pieces(_WORDS)
_FALSE, _TRUE, _NULL = 14, 15, 16
_NAME_BYTES = np.frombuffer("".join(SQUARE_NAMES).encode(), np.uint8)
_JSON_ROOM = 2048  # the longest position is under 1,400 characters
_COMMA, _OPEN, _CLOSE, _QUOTE = 44, 91, 93, 34
# What follows each of the first 13 words: a kind of value, where it is in the state (and where
# the entries of the queues are). A table rather than 13 calls with constant arguments: numba
# compiles a function again for each constant argument.
_NUMBER, _BOOL, _RELEASE_LIST, _FOUR_BOOLS, _PIECES, _QUEUES, _FOUR_NUMBERS = range(7)
_JSON_FIELDS = np.array(
    [
        (_NUMBER, _CYCLE, 0), (_NUMBER, _SLOT, 0), (_NUMBER, _ACTOR, 0), (_BOOL, _EXTRA, 0),
        (_NUMBER, _TRANSFERS, 0), (_BOOL, _PENDING, 0), (_RELEASE_LIST, _RELEASES, 0), (_FOUR_BOOLS, _FILLED, 0),
        (_FOUR_BOOLS, _ELIMINATED, 0), (_PIECES, 0, 0), (_QUEUES, _CAGE_N, _CAGES), (_QUEUES, _ALTAR_N, _ALTARS),
        (_FOUR_NUMBERS, _REMOVED, 0),
    ],
    np.int64,
)  # fmt: skip


@internal
def _word(out, at, i):
    return write_piece(out, at, _WORD_TEXT, _WORD_START, i)


@internal
def _numbers(out, at, pos, first, n, brackets):
    """``pos[first:first + n]`` as JSON numbers separated by commas, in brackets if asked."""
    if brackets:
        out[at] = _OPEN
        at += 1
    for i in range(n):
        if i:
            out[at] = _COMMA
            at += 1
        at = write_decimal(out, at, pos[first + i])
    if brackets:
        out[at] = _CLOSE
        at += 1
    return at


@_inline
def _write_json(pos, out):
    """``CapitalsState.to_json()`` of ``pos`` (a position: no turn in progress) as ASCII in
    ``out``; its length."""
    at = np.int64(0)  # not literal: write_piece would compile again for it
    for field in range(len(_JSON_FIELDS)):
        at = _word(out, at, field)
        kind, first, entries = _JSON_FIELDS[field, 0], _JSON_FIELDS[field, 1], _JSON_FIELDS[field, 2]
        if kind == _NUMBER:
            at = write_decimal(out, at, pos[first])
        elif kind == _BOOL:
            at = _word(out, at, _TRUE if pos[first] else _FALSE)
        elif kind == _FOUR_BOOLS:
            for i in range(4):
                if i:
                    out[at] = _COMMA
                    at += 1
                at = _word(out, at, _TRUE if pos[first + i] else _FALSE)
        elif kind == _FOUR_NUMBERS:
            at = _numbers(out, at, pos, first, 4, False)
        elif kind == _RELEASE_LIST:
            for i in range(pos[_RELEASE_N]):
                if i:
                    out[at] = _COMMA
                    at += 1
                at = _numbers(out, at, pos, first + 2 * i, 2, True)
        elif kind == _QUEUES:
            for p in range(4):
                if p:
                    out[at] = _COMMA
                    at += 1
                at = _numbers(out, at, pos, entries + _QUEUE * p, pos[first + p], True)
        else:  # the pieces, in square order
            for square in range(64):
                code = pos[square]
                if code == 0:
                    continue
                if out[at - 1] == _CLOSE:  # after a piece, not after the opening bracket
                    out[at] = _COMMA
                    at += 1
                out[at] = _OPEN
                out[at + 1] = _QUOTE
                out[at + 2] = _NAME_BYTES[2 * square]
                out[at + 3] = _NAME_BYTES[2 * square + 1]
                out[at + 4] = _QUOTE
                out[at + 5] = _COMMA
                at = write_decimal(out, at + 6, _OWNER[code])
                out[at] = _COMMA
                at = write_decimal(out, at + 1, _CONTROLLER[code])
                out[at] = _COMMA
                at = write_decimal(out, at + 1, _TOP[code]) if _IS_RAM[code] else _word(out, at + 1, np.int64(_NULL))
                out[at] = _CLOSE
                at += 1
    return _word(out, at, len(_JSON_FIELDS))


# ----------------------------------------------------------------------------- the Python side


def _rules(game: CapitalsGame) -> np.ndarray:
    """The rules config as the kernel reads it (indices ``_SKIP_SLOT``...)."""
    o = game.options
    return np.array(
        [
            o["eliminated_slot"] == "skip",
            o["dismantle_top"] == "keep",
            o["capture_removal"] == "immediate",
            o["chain_end_on_start"],
            o["ram_attack_after"] == "friendly",
            o["ram_jump"] == "single",
            o["synergy_adjacency"] == 4,
            o["transfers_per_turn"],
            o["pass_turn_cost"] == "removed",
            o["pass_turn_chain"],
            o["capital_entry"] == "final_square",
            o["elimination_is_attack"],
            o["sacrifice_from_ram"],
            o["prisoner_placement"] == "fixed",
            o["altar_scoring"] == "winner_only",
            -1 if o["max_cycles"] is None else o["max_cycles"],
            o["hunger_first"] == "alternate",
        ],
        np.int64,
    )


def flat(state: CapitalsState) -> np.ndarray:
    """The kernel's array form of a state in play (a chain or pass-turn in progress included)."""
    pos = np.zeros(SIZE, np.int64)
    pos[:64] = state.board
    pos[_CYCLE], pos[_SLOT], pos[_ACTOR] = state.cycle, state.slot, state.actor
    pos[_EXTRA], pos[_TRANSFERS] = state.extra_turn, state.transfers
    pos[_PENDING], pos[_PASS_PENDING] = state.pending_sacrifice, state.pass_pending
    pos[_FILLED : _FILLED + 4] = state.altar_filled
    pos[_ELIMINATED : _ELIMINATED + 4] = state.eliminated
    pos[_REMOVED : _REMOVED + 4] = state.removed
    pos[_WINNERS] = -1
    for player in range(4):
        cage, altar = state.cages[player], state.altars[player]
        pos[_CAGE_N + player], pos[_ALTAR_N + player] = len(cage), len(altar)
        pos[_CAGES + _QUEUE * player : _CAGES + _QUEUE * player + len(cage)] = cage
        pos[_ALTARS + _QUEUE * player : _ALTARS + _QUEUE * player + len(altar)] = altar
    pos[_RELEASE_N] = len(state.releases)
    pos[_RELEASES : _RELEASES + 2 * len(state.releases)] = [x for pair in state.releases for x in pair]
    chain = state.chain
    if chain is not None:
        pos[_CHAIN], pos[_CH_START], pos[_CH_AT], pos[_CH_KIND] = 1, chain.start, chain.at, chain.kind
        pos[_CH_N], pos[_CAPTURE_N] = len(chain.jumped), len(chain.captures)
        pos[_JUMPED : _JUMPED + len(chain.jumped)] = chain.jumped
        pos[_LANDINGS : _LANDINGS + len(chain.landings)] = chain.landings
        pos[_CAPTURES : _CAPTURES + 3 * len(chain.captures)] = [x for c in chain.captures for x in c]
    return pos


def state_of(game: CapitalsGame, pos: np.ndarray) -> CapitalsState:
    """The engine's state of a kernel array; the move in progress is its history (so that
    ``snapshot()`` shows the move so far as the engine would)."""
    pos = pos.tolist()
    state = CapitalsState(game, pos[:64])
    state.cycle, state.slot, state.actor = pos[_CYCLE], pos[_SLOT], pos[_ACTOR]
    state.extra_turn, state.transfers = bool(pos[_EXTRA]), pos[_TRANSFERS]
    state.pending_sacrifice, state.pass_pending = bool(pos[_PENDING]), bool(pos[_PASS_PENDING])
    state.altar_filled = [bool(x) for x in pos[_FILLED : _FILLED + 4]]
    state.eliminated = [bool(x) for x in pos[_ELIMINATED : _ELIMINATED + 4]]
    state.removed = pos[_REMOVED : _REMOVED + 4]
    state.cages = [pos[_CAGES + _QUEUE * p : _CAGES + _QUEUE * p + pos[_CAGE_N + p]] for p in range(4)]
    state.altars = [pos[_ALTARS + _QUEUE * p : _ALTARS + _QUEUE * p + pos[_ALTAR_N + p]] for p in range(4)]
    state.releases = [(pos[_RELEASES + 2 * i], pos[_RELEASES + 2 * i + 1]) for i in range(pos[_RELEASE_N])]
    if pos[_CHAIN]:
        chain = state.chain = Chain(pos[_CH_START], pos[_CH_AT], pos[_CH_KIND])
        chain.jumped = pos[_JUMPED : _JUMPED + pos[_CH_N]]
        chain.landings = pos[_LANDINGS : _LANDINGS + pos[_CH_N]]
        chain.captures = [tuple(pos[_CAPTURES + 3 * i : _CAPTURES + 3 * i + 3]) for i in range(pos[_CAPTURE_N])]
        chain.captures = [(square, bool(ram), owner) for square, ram, owner in chain.captures]
    winners = pos[_WINNERS]
    if winners >= 0:
        reason = _REASONS[pos[_REASON]]
        state._outcome = (tuple(p for p in range(4) if winners >> p & 1), reason, reason == "cap")
    if state.mid_turn():
        state._history = pos[_MOVE : _MOVE + pos[_MOVE_N]]
    return state


def _final(game: CapitalsGame, pos: np.ndarray) -> str:
    """What ``simulate`` records of a game cut mid-turn: the engine's snapshot of the turn."""
    return canonical_json(state_of(game, pos).snapshot())


class CapitalsKernel:
    """The ``PlayoutKernel`` of Capitals: every rules config."""

    def supports(self, game) -> bool:
        return isinstance(game, CapitalsGame)

    def random_games(self, game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        return self._games(game, flat(game.new_initial_state()), streams, max_actions, np.empty((2, 0), np.int64))

    def recorded_game(self, state: CapitalsState, streams: np.ndarray, max_actions: int) -> RecordedGame:
        start = flat(state)
        if state.is_terminal():  # a game over: nothing to play, the result to report
            result = state.result()
            start[_WINNERS], start[_REASON] = sum(1 << p for p in result.winners), _REASONS.index(result.reason)
        move = state.history()[state._move_start :] if state.mid_turn() else []
        start[_MOVE : _MOVE + len(move)], start[_MOVE_N] = move, len(move)  # the move so far, for a snapshot
        record = new_record(max_actions)
        return as_recorded(record, self._games(state.game, start, streams.reshape(1, -1), max_actions, record))

    def _games(self, game, start: np.ndarray, streams: np.ndarray, max_actions: int, record) -> PlayedGames:
        n = len(streams)
        finals = np.empty((n, SIZE), np.int64)
        counts = np.empty((n, 4), np.int32)
        scores = np.empty((n, 4), np.int64)
        text = np.zeros((n, _JSON_ROOM), np.uint8)
        _random_games(start, _rules(game), streams.copy(), max_actions, finals, counts, scores, text, record)
        width = int(counts[:, 3].max(initial=1))
        final = text[:, :width].copy().view(f"S{width}")[:, 0]
        if not counts[:, 3].all():  # games cut mid-turn: the engine's snapshot of the turn so far
            final = np.array([_final(game, finals[g]).encode() if counts[g, 3] == 0 else final[g] for g in range(n)])
        winners = finals[:, _WINNERS]
        reason = finals[:, _REASON].astype(np.int8)
        outcome = np.where(winners < 0, CUT, np.where(reason == 2, RULE_CAP, FINISHED)).astype(np.int8)
        return PlayedGames(
            outcome=outcome,
            winners=np.maximum(winners, 0),
            scores=scores,
            reason=np.where(winners < 0, 0, reason).astype(np.int8),
            reasons=_REASONS,
            n_turns=counts[:, 0].copy(),
            n_moves=counts[:, 1].copy(),
            n_actions=counts[:, 2].copy(),
            final=final,
        )

    def rollout(self, state: CapitalsState, budget: int, stream: int) -> tuple[list[float], int]:
        if budget <= 0 or state.is_terminal():
            return (state.returns() if state.is_terminal() else state.evaluate()), stream
        winners, score, after = _rollout(flat(state), _rules(state.game), budget, np.uint64(stream))
        if winners < 0:
            value = math.tanh(score)
            return [value, -value, value, -value], int(after)
        if winners == _EVERYONE:
            return [0.0] * 4, int(after)
        return [1.0 if winners >> p & 1 else -1.0 for p in range(4)], int(after)

    def tree_root(self, state: CapitalsState) -> TreeRoot:
        tree = np.concatenate([np.zeros(_KEY_WIDTH, np.int64), flat(state)])
        _tree_key(tree)
        rules = (_rules(state.game), np.empty(_SCRATCH, np.int64))
        return TreeRoot(tree, _KEY_WIDTH, rules, _LEGAL_ROOM, _tree_search)


KERNEL = CapitalsKernel()
