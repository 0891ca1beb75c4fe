"""Why an action is refused, in words naming the rule (``docs/rules/capitals.md``).

Only called on the error path: the engine checks legality against its list of legal actions,
and asks here for the reason when an action is not on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import excerpt
from .geometry import (
    CONTROLLER,
    DISMANTLE,
    HOP,
    IS_RAM,
    JUMP,
    JUMPED,
    KIND,
    KIND_WORDS,
    PASS_TURN,
    PLAYER_NAMES,
    RELEASE,
    SACRIFICE,
    SKIP,
    SOURCE,
    SQUARE_NAMES,
    SQUARE_OF,
    STEP,
    STOP,
    TARGET,
    TEAM_OF,
    TERRITORIES,
    TRANSFER,
)
from .turn import FRIENDLY

if TYPE_CHECKING:
    from .rules import CapitalsState


def illegal_reason(state: CapitalsState, action: int) -> str:
    """The rule ``action`` breaks in ``state`` (it is known not to be legal)."""
    kind = KIND[action]
    actor = state.actor
    if state.releases:
        owner, territory = state.releases[0]
        if kind != RELEASE:
            return (
                f"released prisoners wait to be placed: only 'release <square>' on an empty square of "
                f"{PLAYER_NAMES[territory]}'s Territory is legal now (rule 5.1)"
            )
        square = TARGET[action]
        if square not in TERRITORIES[territory]:
            return f"{SQUARE_NAMES[square]} is not in {PLAYER_NAMES[territory]}'s Territory (rule 5.1)"
        return f"{SQUARE_NAMES[square]} is not empty (rule 5.1)"
    if state.pending_sacrifice:
        if kind != SACRIFICE:
            return (
                "the Hunger sacrifice is due: only 'sacrifice <square>' naming one of your pieces is legal (rule 5.2)"
            )
        return _sacrifice_reason(state, TARGET[action])
    if state.chain is not None:
        return _chain_reason(state, action)
    if kind in (HOP, STOP):
        return (
            f"'{KIND_WORDS[kind]}' is only legal during a jump chain; start one with 'jump <from> <landing>' (rule 9a)"
        )
    if kind == RELEASE:
        return "no released prisoner is waiting to be placed (rule 5.1)"
    if kind == SACRIFICE:
        return "no sacrifice is due now (rule 5.2)"
    if kind in (TRANSFER, PASS_TURN):
        return _synergy_reason(state, kind)
    if kind == SKIP:
        return "skip is legal only when you have no step, jump or dismantle (rule 3.5, Decision 22)"
    origin, target = SOURCE[action], TARGET[action]
    code = state.board[origin]
    name = SQUARE_NAMES[origin]
    if not code:
        return f"there is no piece on {name}"
    if CONTROLLER[code] != actor:
        return (
            f"the unit on {name} is controlled by {PLAYER_NAMES[CONTROLLER[code]]}; "
            f"{PLAYER_NAMES[actor]} moves only their own units (rule 1.3)"
        )
    other_square = JUMPED[64 * origin + target] if kind == JUMP else target
    other = state.board[other_square]
    if kind == STEP:
        if not other:
            return "not legal here"
        if CONTROLLER[other] == actor:
            return f"{SQUARE_NAMES[target]} holds your own unit: no unit may step onto an own unit (rule 3.1)"
        if IS_RAM[code]:
            return f"{SQUARE_NAMES[target]} is occupied: a Ram steps only onto empty squares (rule 3.1)"
        if IS_RAM[other]:
            return f"{SQUARE_NAMES[target]} holds a Ram: no stacks of three (rule 3.1, Decision 4)"
        return f"{SQUARE_NAMES[target]} holds an enemy unit: a step may not land on it (rule 3.1)"
    if kind == DISMANTLE:
        if not IS_RAM[code]:
            return f"{name} holds a single piece, not a Ram (rule 3.4)"
        return f"{SQUARE_NAMES[target]} is not empty: the top piece goes to an empty neighbouring square (rule 3.4)"
    # the first jump of a chain, or a Ram's jump
    if IS_RAM[code] and state.game.options["ram_jump"] == "none":
        return "Rams do not jump under ram_jump='none' (rule 3.3)"
    if not other:
        return f"there is no unit on {SQUARE_NAMES[other_square]} to jump over (rule 3.2)"
    if state.board[target]:
        return f"the landing square {SQUARE_NAMES[target]} is not empty (rule 3.2)"
    if IS_RAM[other] and TEAM_OF[other] != actor & 1:
        return (
            f"{SQUARE_NAMES[other_square]} holds an enemy Ram: a single piece may attack a Ram only after "
            "an earlier jump in the same chain (rule 3.2, constraint 2)"
        )
    return "not legal here"


def syntax_problem(text: object) -> str:
    """What is wrong with a string that names no action."""
    if not isinstance(text, str):
        return "an action is a string such as 'step c3 d4'"
    words = text.split(" ")
    expected = "expected one of: step, jump, dismantle, transfer, pass-turn, skip, sacrifice, release, hop, stop"
    if not words or words[0] not in KIND_WORDS:
        return expected + ", separated by single spaces"
    for w in words[1:]:
        if w not in SQUARE_OF:
            return f"{excerpt(w)} is not a square a1..h8"
    squares = [SQUARE_OF[w] for w in words[1:]]
    if words[0] == "jump" and len(squares) > 2:
        return (
            "a chain of several landings is a whole move (apply_move); "
            "as actions play 'jump <from> <landing>', then 'hop <landing>'"
        )
    if words[0] == "jump" and len(squares) == 2:
        return f"{words[2]} is not two squares from {words[1]} in a straight line"
    if words[0] in ("step", "dismantle") and len(squares) == 2:
        return f"{words[2]} is not next to {words[1]}"
    return f"'{words[0]}' is written as '{_SHAPES[words[0]]}'"


_SHAPES = {
    "step": "step <from> <to>",
    "jump": "jump <from> <landing>",
    "dismantle": "dismantle <ram> <to>",
    "hop": "hop <landing>",
    "sacrifice": "sacrifice <square>",
    "release": "release <square>",
    "transfer": "transfer",
    "pass-turn": "pass-turn",
    "skip": "skip",
    "stop": "stop",
}


def _sacrifice_reason(state: CapitalsState, square: int) -> str:
    code = state.board[square]
    name = SQUARE_NAMES[square]
    if not code:
        return f"there is no piece on {name} to sacrifice (rule 5.2)"
    if CONTROLLER[code] != state.actor:
        return f"the unit on {name} is not yours: the sacrifice is one of your own pieces (rule 5.2)"
    return f"{name} is a Ram: Ram pieces may be sacrificed only with sacrifice_from_ram (rule 5.2, Decision 15)"


def _synergy_reason(state: CapitalsState, kind: int) -> str:
    options = state.game.options
    word = KIND_WORDS[kind]
    if kind == TRANSFER and state.transfers >= options["transfers_per_turn"]:
        return f"at most {options['transfers_per_turn']} transfer(s) per turn (rule 4.2, transfers_per_turn)"
    if kind == PASS_TURN and state.extra_turn and not options["pass_turn_chain"]:
        return "an extra turn cannot be passed on (rule 4.3, pass_turn_chain)"
    if not state.cages[state.actor]:
        return f"{word} needs a piece in your Cage (rule 4.2-4.3)"
    if state.eliminated[state.actor ^ 2]:
        return f"{word} needs Synergy, and your ally is eliminated (rule 4.1)"
    return f"{word} needs Synergy: one of your units next to one of your ally's (rule 4.1)"


def _chain_reason(state: CapitalsState, action: int) -> str:
    chain = state.chain
    kind = KIND[action]
    here = SQUARE_NAMES[chain.at]
    if kind == STOP:
        return (
            f"the chain is back on its starting square {here}: it may not end there (rule 3.2, constraint 5, "
            "chain_end_on_start)"
        )
    if kind != HOP:
        return f"a jump chain is in progress on {here}: only 'hop <landing>' or 'stop' is legal (rule 9a)"
    landing = TARGET[action]
    over = JUMPED[64 * chain.at + landing]
    if over < 0:
        return f"{SQUARE_NAMES[landing]} is not two squares from {here} in a straight line (rule 3.2, Decision 6)"
    board = state.board
    other = board[over]
    if not other:
        return f"there is no unit on {SQUARE_NAMES[over]} to jump over (rule 3.2)"
    if over in chain.jumped:
        return f"the unit on {SQUARE_NAMES[over]} was already jumped in this chain (rule 3.2, constraint 3)"
    if board[landing]:
        return f"the landing square {SQUARE_NAMES[landing]} is not empty (rule 3.2, constraint 4)"
    friendly = TEAM_OF[other] == state.actor & 1
    if IS_RAM[other] and not friendly:
        return "a Ram attack may follow friendly jumps only (rule 3.2, constraint 2, ram_attack_after='friendly')"
    if friendly != (chain.kind == FRIENDLY):
        return "friendly and hostile jumps may not be mixed in one chain (rule 3.2, constraint 1)"
    return (
        f"the chain would be stuck on its starting square {SQUARE_NAMES[landing]}, where it may not end "
        "(rule 3.2, constraint 5; no dead ends, 9a)"
    )
