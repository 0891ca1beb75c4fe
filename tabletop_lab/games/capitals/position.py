"""Reading and checking a Capitals position JSON (``docs/rules/capitals.md`` section 8).

Every invalid case the spec lists raises ``PositionError`` naming the field and the problem.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import check_keys
from ...errors import PositionError
from .geometry import CAPITALS, CONTROLLER, SQUARE_NAMES, SQUARE_OF, TERRITORIES, unit_code

if TYPE_CHECKING:
    from .rules import CapitalsGame, CapitalsState

KEYS = (
    "game",
    "cycle",
    "slot",
    "actor",
    "extra_turn",
    "transfers",
    "pending_sacrifice",
    "releases",
    "altar_filled",
    "eliminated",
    "pieces",
    "cages",
    "altars",
    "removed",
)


def read_position(game: CapitalsGame, data: Any, state_class: type[CapitalsState]) -> CapitalsState:
    """The ``state_class`` state of the position ``data`` (a JSON object) under ``game``'s options."""
    check_keys(data, KEYS, "capitals")
    cycle = _int(data["cycle"], "cycle")
    slot = _int(data["slot"], "slot")
    actor = _int(data["actor"], "actor")
    transfers = _int(data["transfers"], "transfers")
    extra_turn = _bool(data["extra_turn"], "extra_turn")
    pending = _bool(data["pending_sacrifice"], "pending_sacrifice")
    altar_filled = _bools(data["altar_filled"], "altar_filled")
    eliminated = _bools(data["eliminated"], "eliminated")
    releases = [
        tuple(_players(entry, f"releases[{i}]", 2)) for i, entry in enumerate(_list(data["releases"], "releases"))
    ]
    cages = [_players(c, f"cages[{i}]") for i, c in enumerate(_list(data["cages"], "cages", 4))]
    altars = [_players(a, f"altars[{i}]") for i, a in enumerate(_list(data["altars"], "altars", 4))]
    removed = [_int(r, f"removed[{i}]") for i, r in enumerate(_list(data["removed"], "removed", 4))]
    for i, r in enumerate(removed):
        if r < 0:
            raise PositionError(f"capitals: removed[{i}] is negative ({r})")
    board = _board(data["pieces"], eliminated)

    counts = [removed[o] for o in range(4)]
    for code in board:
        if code:
            counts[(code - 1) % 4] += 1
            top = (code - 1) // 16 - 1
            if top >= 0:
                counts[top] += 1
    for owner in [o for pile in cages + altars for o in pile] + [o for o, _ in releases]:
        counts[owner] += 1
    for owner, count in enumerate(counts):
        if count != 9:
            raise PositionError(
                f"capitals: player {owner} owns {count} pieces in pieces, cages, altars, releases and removed; "
                "each player owns exactly 9"
            )
    for player, cage in enumerate(cages):
        if any(o & 1 == player & 1 for o in cage):
            raise PositionError(f"capitals: cages[{player}] holds a piece of player {player}'s own team")
        if cage and eliminated[player]:
            raise PositionError(f"capitals: cages[{player}] must be empty: player {player} is eliminated")
    for player, capital in enumerate(CAPITALS):
        code = board[capital]
        if code and not eliminated[player] and CONTROLLER[code] & 1 != player & 1:
            raise PositionError(
                f"capitals: pieces: an opponent's unit stands on {SQUARE_NAMES[capital]}, the Capital of player "
                f"{player}, who is not eliminated"
            )

    state = state_class(game, board)
    state.cycle, state.slot, state.actor, state.extra_turn = cycle, slot, actor, extra_turn
    state.transfers, state.pending_sacrifice, state.releases = transfers, pending, releases
    state.altar_filled, state.eliminated, state.cages, state.altars = altar_filled, eliminated, cages, altars
    state.removed = removed
    _check_turn(state)
    state._refresh_outcome()
    return state


def _board(pieces: Any, eliminated: list[bool]) -> list[int]:
    board = [0] * 64
    for i, entry in enumerate(_list(pieces, "pieces")):
        where = f"pieces[{i}]"
        if not isinstance(entry, list) or len(entry) != 4:
            raise PositionError(f"capitals: {where} must be [square, owner, controller, top], got {_short(entry)}")
        name, owner, controller, top = entry
        if not isinstance(name, str) or name not in SQUARE_OF:
            raise PositionError(f"capitals: {where}: {_short(name)} is not a square a1..h8")
        square = SQUARE_OF[name]
        if board[square]:
            raise PositionError(f"capitals: pieces: square {name} is listed twice")
        for field, value in (("owner", owner), ("controller", controller)):
            if type(value) is not int or not 0 <= value <= 3:
                raise PositionError(f"capitals: {where}: {field} must be a player 0..3, got {_short(value)}")
        if top is not None and (type(top) is not int or not 0 <= top <= 3):
            raise PositionError(f"capitals: {where}: top must be null or a player 0..3, got {_short(top)}")
        if controller & 1 != owner & 1:
            raise PositionError(f"capitals: {where} on {name}: controller {controller} is not on owner {owner}'s team")
        if eliminated[controller] and not eliminated[controller ^ 2]:
            raise PositionError(
                f"capitals: {where} on {name}: controller {controller} is eliminated while their ally is not"
            )
        if top is not None and top & 1 != controller & 1:
            raise PositionError(
                f"capitals: {where} on {name}: the Ram's top {top} is not on controller {controller}'s team"
            )
        board[square] = unit_code(owner, controller, -1 if top is None else top)
    return board


def _check_turn(state: CapitalsState) -> None:
    options = state.game.options
    cap = options["max_cycles"]
    cycle, slot, actor = state.cycle, state.slot, state.actor
    if cycle < 1:
        raise PositionError(f"capitals: cycle must be >= 1, got {cycle}")
    if cap is not None and cycle > cap + 1:
        raise PositionError(f"capitals: cycle {cycle} is beyond max_cycles + 1 = {cap + 1}")
    at_cap = cap is not None and cycle == cap + 1
    if at_cap and (
        slot
        or state.extra_turn
        or state.transfers
        or state.pending_sacrifice
        or state.releases
        or any(state.altar_filled)
    ):
        raise PositionError(
            f"capitals: at cycle {cycle} (max_cycles + 1) the game has ended at a slot start: slot 0, no extra turn, "
            "no transfers, no pending sacrifice, no releases, no altar_filled"
        )
    if not 0 <= slot <= 3:
        raise PositionError(f"capitals: slot must be 0..3, got {slot}")
    if not 0 <= actor <= 3:
        raise PositionError(f"capitals: actor must be 0..3, got {actor}")
    eliminated = state.eliminated
    slot_actor = state._slot_actor(slot)
    if not state.extra_turn:
        if actor != slot_actor:
            raise PositionError(f"capitals: actor {actor} does not match slot {slot}, whose actor is {slot_actor}")
        if eliminated[slot] and not at_cap and options["eliminated_slot"] == "skip" and not eliminated[slot ^ 2]:
            raise PositionError(
                f"capitals: actor {actor} does not match slot {slot}: player {slot} is eliminated and "
                "eliminated_slot is 'skip', so the slot is skipped"
            )
    else:
        allowed = {slot_actor ^ 2} | ({slot_actor} if options["pass_turn_chain"] else set())
        if actor not in allowed or eliminated[actor]:
            raise PositionError(
                f"capitals: actor {actor} does not match slot {slot} in an extra turn: it must be the slot actor "
                f"{slot_actor}'s ally"
                + (" or the slot actor" if options["pass_turn_chain"] else "")
                + ", not eliminated"
            )
    if state.transfers > options["transfers_per_turn"]:
        raise PositionError(
            f"capitals: transfers {state.transfers} exceeds transfers_per_turn = {options['transfers_per_turn']}"
        )
    if state.pending_sacrifice:
        problem = None
        if not state.is_hunger_cycle:
            problem = f"slot {slot} of cycle {cycle} is not in a Hunger Epoch"
        elif state.altar_filled[actor]:
            problem = f"the actor {actor}'s Altar is already filled (this cycle, or this Epoch)"
        elif state.cages[actor]:
            problem = f"the actor {actor}'s Cage is not empty (its oldest piece is sacrificed automatically)"
        elif not state._sacrificeable():
            problem = f"the actor {actor} controls no unit that may be sacrificed"
        if problem:
            raise PositionError(f"capitals: pending_sacrifice is true although {problem}")
    if state.releases:
        if options["prisoner_placement"] == "fixed":
            raise PositionError("capitals: releases must be empty when prisoner_placement is 'fixed'")
        if state.pending_sacrifice:
            raise PositionError("capitals: releases must be empty while pending_sacrifice is true")
        for i, (owner, territory) in enumerate(state.releases):
            if not eliminated[territory] or territory & 1 == actor & 1:
                raise PositionError(
                    f"capitals: releases[{i}]: territory player {territory} must be an eliminated opponent of the actor"
                )
            if owner & 1 != actor & 1:
                raise PositionError(f"capitals: releases[{i}]: owner {owner} is not on the actor {actor}'s team")
        territory = state.releases[0][1]
        if all(state.board[s] for s in TERRITORIES[territory]):
            raise PositionError(
                f"capitals: releases[0]: player {territory}'s Territory has no empty square "
                "(the piece would have left the game)"
            )


# ----------------------------------------------------------------------------- helpers


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(value: Any, field: str) -> int:
    if type(value) is not int:
        raise PositionError(f"capitals: field {field!r} must be an integer, got {_short(value)}")
    return value


def _bool(value: Any, field: str) -> bool:
    if type(value) is not bool:
        raise PositionError(f"capitals: field {field!r} must be true or false, got {_short(value)}")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = f" of {length}" if length is not None else ""
        raise PositionError(f"capitals: field {field!r} must be a list{size}, got {_short(value)}")
    return value


def _bools(value: Any, field: str) -> list[bool]:
    return [_bool(v, f"{field}[{i}]") for i, v in enumerate(_list(value, field, 4))]


def _players(value: Any, field: str, length: int | None = None) -> list[int]:
    players = _list(value, field, length)
    for i, v in enumerate(players):
        if type(v) is not int or not 0 <= v <= 3:
            raise PositionError(f"capitals: {field}[{i}] must be a player 0..3, got {_short(v)}")
    return list(players)
