"""Cross-endodoi: the cross-mancala sowing rule applied to Endodoi (``docs/rules/cross_endodoi.md``).

The twelve holes form a ring; player 0 (South) owns 0..5, player 1 (North) owns 6..11::

           North (player 1), read from South's seat
        11   10    9    8    7    6
      +----+----+----+----+----+----+
      |    |    |    |    |    |    |      counter-clockwise: i -> i + 1 (mod 12)
      +----+----+----+----+----+----+      clockwise:         i -> i - 1 (mod 12)
      |    |    |    |    |    |    |      opposite(i) = 11 - i
      +----+----+----+----+----+----+
         0    1    2    3    4    5
              South (player 0)

An action is the hole to sow, an int 0..11; its string is the decimal index. Each lap's
direction follows the parity of the seeds lifted (odd: clockwise, even: counter-clockwise);
a lap whose last seed lands in an occupied hole relays from there.

Under the option ``pie_rule`` the second player may answer the first move with ``SWAP``
(action 12, ``"swap"``): the players exchange sides and the board stays as it is (rule 2.5).
A position then says where the swap stands (``pie``: ``"first"``, ``"offered"``, ``"kept"`` or
``"swapped"``); ``to_move`` is always the side to move, 0 South or 1 North, and the player who
plays a side is ``seat_of(side)``: the same number, unless the sides were swapped.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from ...core import (
    TERMINAL,
    Game,
    GameInfo,
    Option,
    Result,
    State,
    check_int_list,
    check_keys,
    positive_int,
)
from ...errors import ActionSyntaxError, EngineLimitError, PositionError, excerpt
from ...registry import register_game

NUM_HOLES = 12
ROW = 6
PLAYER_NAMES = ("South", "North")
_NOTATION = re.compile(
    r"^(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)){5}/(0|[1-9][0-9]*)(,(0|[1-9][0-9]*)){5} (0|[1-9][0-9]*)-(0|[1-9][0-9]*) [01]$"
)
_COUNT = re.compile(r"[0-9]+")
_ACTION = re.compile(r"^(0|[1-9][0-9]?)$")

#: The swap of the pie rule (rule 2.5), as an action and as a move string.
SWAP = 12
SWAP_STRING = "swap"
#: Where the pie rule's swap stands (rule 2.5): the first move is still to come; the swap is on
#: offer now; it was declined (and always, without the option); it was made.
FIRST, OFFERED, KEPT, SWAPPED = "first", "offered", "kept", "swapped"
PIE_STAGES = (FIRST, OFFERED, KEPT, SWAPPED)


class LapLimitError(EngineLimitError):
    """A Cross-endodoi move needed more laps than ``max_laps``; nothing was changed."""


def opposite(hole: int) -> int:
    """The hole facing ``hole`` across the board: 0 faces 11, 5 faces 6."""
    return 11 - hole


def owner(hole: int) -> int:
    """The player whose row holds ``hole``."""
    return 0 if hole < ROW else 1


class Lap(NamedTuple):
    """One lap of a move: seeds lifted from ``origin`` and sown one per hole towards ``last``.

    ``direction`` is +1 (counter-clockwise) or -1 (clockwise); ``relay`` says whether the last
    seed found company and the sowing went on from ``last``.
    """

    origin: int
    seeds: int
    direction: int
    last: int
    relay: bool


class MoveReport(NamedTuple):
    """What one sowing did, for display and statistics (spec section 6). ``player`` is the side
    that sowed (0 South, 1 North): its player is ``seat_of(player)`` after a swap."""

    player: int
    hole: int
    laps: tuple[Lap, ...]
    captured: int  # seeds taken into the store, the capturing seed included
    capture_hole: int | None  # the opposite hole emptied by the capture


GAME_INFO = GameInfo(
    name="cross_endodoi",
    menu_rank=1,
    title="Cross-endodoi",
    summary="Two-row mancala: the parity of the seeds lifted sets each lap's direction; "
    "laps relay from occupied holes, and a last seed in an empty own hole captures across.",
    players=(2,),
    has_notation=True,
    max_actions=1000,
    player_names=PLAYER_NAMES,
    rules_version=1,  # raise it whenever the engine's behaviour changes (tabletop_lab.versions)
)


@register_game
class CrossEndodoiGame(Game):
    info = GAME_INFO
    option_specs = (
        Option("seeds_per_hole", 3, "seeds in every hole at the start: 3 (simple) or 6 (advanced)", choices=(3, 6)),
        Option(
            "skip_origin", False, "a lap of 12 or more seeds passes over its own origin hole", choices=(False, True)
        ),
        Option("first_player", 0, "who moves first: 0 (South) or 1 (North)", choices=(0, 1)),
        Option(
            "pie_rule",
            False,
            "the second player may answer the first move by swapping sides instead of sowing",
            choices=(False, True),
        ),
    )
    param_specs = (
        Option(
            "max_laps",
            100_000,
            "engine guard: a move needing more laps raises LapLimitError (not a rule)",
            check=positive_int,
            allowed="a positive integer",
        ),
    )

    @property
    def total_seeds(self) -> int:
        return NUM_HOLES * self.options["seeds_per_hole"]

    def state_space_log10(self) -> float:
        """The seeds spread over 12 holes and 2 stores in any way, either player to move: at most
        ``2 * C(seeds + 13, 13)`` positions (a bound: most spreads are never reached)."""
        return math.log10(2 * math.comb(self.total_seeds + 13, 13))

    @property
    def pie_rule(self) -> bool:
        return self.options["pie_rule"]

    def new_initial_state(self) -> CrossEndodoiState:
        n = self.options["seeds_per_hole"]
        pie = FIRST if self.pie_rule else KEPT
        return CrossEndodoiState(self, [n] * NUM_HOLES, [0, 0], self.options["first_player"], pie)

    def state_from_notation(self, text: Any) -> CrossEndodoiState:
        """Read ``h0,..,h5/h6,..,h11 S-N P`` (with ``pie_rule``: ``... P W``, W the swap's stage);
        only the canonical form is accepted."""
        given, pie = text, KEPT
        if self.pie_rule and isinstance(text, str):
            text, _, pie = text.rpartition(" ")
        if not isinstance(text, str) or not _NOTATION.fullmatch(text) or pie not in PIE_STAGES:
            form = "h0,h1,h2,h3,h4,h5/h6,...,h11 S-N P" + (" W" if self.pie_rule else "")
            stage = f", W = {' or '.join(PIE_STAGES)}" if self.pie_rule else ""
            raise PositionError(
                f"cross_endodoi: {excerpt(given)} is not a position in notation '{form}' "
                f"(decimal counts without leading zeros, single spaces, P = 0 or 1{stage})"
            )
        longest = max(_COUNT.findall(text), key=len)
        if len(longest) > len(str(self.total_seeds)):  # also keeps int() far from its 4,300-digit limit
            raise PositionError(
                f"cross_endodoi: the count {excerpt(longest, limit=30)} is larger than the {self.total_seeds} seeds "
                f"in play with seeds_per_hole={self.options['seeds_per_hole']}"
            )
        rows, stores, player = text.split(" ")
        holes = [int(x) for x in rows.replace("/", ",").split(",")]
        return self._validated(holes, [int(x) for x in stores.split("-")], int(player), pie)

    def state_from_dict(self, data: Any) -> CrossEndodoiState:
        keys = ("game", "holes", "stores", "to_move") + (("pie",) if self.pie_rule else ())
        check_keys(data, keys, "cross_endodoi")
        holes = check_int_list(data["holes"], NUM_HOLES, "holes", "cross_endodoi")
        stores = check_int_list(data["stores"], 2, "stores", "cross_endodoi")
        to_move = data["to_move"]
        if type(to_move) is not int or to_move not in (0, 1):
            raise PositionError(f"cross_endodoi: field 'to_move' must be 0 or 1, got {excerpt(to_move)}")
        pie = data.get("pie", KEPT)
        if type(pie) is not str or pie not in PIE_STAGES:
            raise PositionError(
                f"cross_endodoi: field 'pie' must be one of {', '.join(PIE_STAGES)}, got {excerpt(pie)}"
            )
        return self._validated(holes, stores, to_move, pie)

    def _validated(self, holes: list[int], stores: list[int], to_move: int, pie: str) -> CrossEndodoiState:
        total = sum(holes) + sum(stores)
        if total != self.total_seeds:
            raise PositionError(
                f"cross_endodoi: the position holds {total} seeds (holes {sum(holes)} + stores {sum(stores)}); "
                f"with seeds_per_hole={self.options['seeds_per_hole']} it must hold {self.total_seeds}"
            )
        state = CrossEndodoiState(self, holes, stores, to_move, pie)
        state._start = state.to_dict()
        return state


class CrossEndodoiState(State):
    """Holes, stores, the side to move and the swap's stage (``pie``); ``last_move`` reports the
    latest sowing's laps."""

    def __init__(self, game: CrossEndodoiGame, holes: list[int], stores: list[int], to_move: int, pie: str):
        super().__init__(game)
        self.holes = holes
        self.stores = stores
        self.to_move = to_move  # the side to move: 0 South, 1 North
        self.pie = pie  # one of PIE_STAGES; KEPT without the option
        self._last: tuple | None = None  # raw report of the latest sowing, see last_move
        self._terminal = _row_empty(holes, to_move)

    def seat_of(self, side: int) -> int:
        """The player who plays ``side`` (0 South, 1 North): the same number, unless the sides
        were swapped (rule 2.5). It is also the side a player plays."""
        return side ^ (self.pie == SWAPPED)

    # --- rules hooks ------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._terminal else self.seat_of(self.to_move)

    def is_terminal(self) -> bool:
        return self._terminal

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        scores = self.scores()
        if scores[0] == scores[1]:
            winners: tuple[int, ...] = (0, 1)
        else:
            winners = (0,) if scores[0] > scores[1] else (1,)
        return Result(winners, tuple(scores), "standard")

    def scores(self) -> list[int]:
        """Each player's seeds in the store of the side they play; at the end, the seeds left on
        the board go to the side that can move."""
        scores = list(self.stores)
        if self.is_terminal():
            scores[1 - self.to_move] += sum(self.holes)
        return scores[::-1] if self.pie == SWAPPED else scores

    def evaluate(self) -> list[float]:
        """Store difference as a share of all seeds: a cheap, signed material count."""
        if self.is_terminal():
            return self.returns()
        lead = (self.stores[0] - self.stores[1]) / self.game.total_seeds
        return [-lead, lead] if self.pie == SWAPPED else [lead, -lead]

    def _legal_actions(self) -> list[int]:
        holes = self.holes
        base = ROW * self.to_move
        sowings = [h for h in range(base, base + ROW) if holes[h]]
        return sowings + [SWAP] if self.pie == OFFERED else sowings

    def _illegal_reason(self, action: int) -> str | None:
        if not 0 <= action <= SWAP:
            raise ActionSyntaxError(
                f"cross_endodoi: action {excerpt(action)} names no hole; holes are 0..11 (12 is the swap)"
            )
        mover = self.to_move
        if self._terminal:
            return f"the game is over: {PLAYER_NAMES[mover]} has no seeds to sow (rule 2.4)"
        if action == SWAP:
            return self._swap_refusal()
        if owner(action) != mover:
            first = ROW * mover
            return (
                f"hole {action} belongs to {PLAYER_NAMES[owner(action)]}; "
                f"{PLAYER_NAMES[mover]} sows one of holes {first}..{first + ROW - 1} (rule 2.1)"
            )
        if not self.holes[action]:
            return f"hole {action} is empty; a move must lift at least one seed (rule 2.1)"
        return None

    def _swap_refusal(self) -> str | None:
        """Why swapping is illegal here, naming the rule, or ``None`` when it is legal."""
        if not self.game.pie_rule:
            return "swapping sides is a move only under the option pie_rule=true (rule 2.5)"
        if self.pie == FIRST:
            return "the swap answers the first move, which is still to be made (rule 2.5)"
        if self.pie != OFFERED:
            done = "the sides were swapped already" if self.pie == SWAPPED else "the swap was declined"
            return f"{done}: only the second player's first move may be a swap (rule 2.5)"
        return None

    def _apply(self, action: int) -> None:
        if action == SWAP:  # the board stays; the side to move changes hands with the other one
            self.pie = SWAPPED
            self._last = None
            return
        holes = self.holes[:]  # sown on a copy: LapLimitError must leave the position unchanged
        mover = self.to_move
        ring = NUM_HOLES - 1 if self.game.options["skip_origin"] else NUM_HOLES
        max_laps = self.game.params["max_laps"]
        laps = []
        origin = action
        while True:
            seeds = holes[origin]
            holes[origin] = 0
            order = _SOWING_ORDER[seeds & 1][origin]  # even: counter-clockwise, odd: clockwise
            if seeds <= ring:
                for hole in order[:seeds]:
                    holes[hole] += 1
                last = order[seeds - 1]
            else:  # whole rounds at once
                rounds, rest = divmod(seeds, ring)
                for hole in order[:ring]:
                    holes[hole] += rounds
                for hole in order[:rest]:
                    holes[hole] += 1
                last = order[(seeds - 1) % ring]
            laps.append((origin, seeds, last))
            if holes[last] == 1:  # the last seed fell into an empty hole: the sowing stops
                break
            if len(laps) == max_laps:
                raise LapLimitError(
                    f"cross_endodoi: sowing hole {action} from {self.notation()} needs more than "
                    f"max_laps={max_laps} laps; the position is unchanged"
                )
            origin = last  # relay: lift the c + 1 seeds and sow on
        captured = 0
        across = 11 - last
        if (last < ROW) == (mover == 0) and holes[across]:
            captured = holes[across] + 1
            holes[across] = holes[last] = 0
            self.stores[mover] += captured
        self.holes = holes
        self.to_move = 1 - mover
        self._terminal = _row_empty(holes, 1 - mover)
        self._last = (mover, action, laps, captured)
        if self.pie == FIRST:
            self.pie = OFFERED
        elif self.pie == OFFERED:
            self.pie = KEPT

    @property
    def last_move(self) -> MoveReport | None:
        """The latest move's laps and capture, or ``None`` before any move and after a swap."""
        if self._last is None:
            return None
        mover, hole, laps, captured = self._last
        count = len(laps)
        return MoveReport(
            mover,
            hole,
            tuple(Lap(o, n, 1 if n % 2 == 0 else -1, last, i < count - 1) for i, (o, n, last) in enumerate(laps)),
            captured,
            opposite(laps[-1][2]) if captured else None,
        )

    def _copy_into(self, new: CrossEndodoiState) -> None:
        new.holes = list(self.holes)
        new.stores = list(self.stores)

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action <= SWAP:
            raise ActionSyntaxError(
                f"cross_endodoi: action {excerpt(action)} names no hole; holes are 0..11 (12 is the swap)"
            )
        return SWAP_STRING if action == SWAP else str(action)

    def string_to_action(self, text: str) -> int:
        if text == SWAP_STRING:
            return SWAP
        if not isinstance(text, str) or not _ACTION.fullmatch(text) or int(text) >= NUM_HOLES:
            raise ActionSyntaxError(
                f"cross_endodoi: {excerpt(text)} is not a move; a move is a hole index '0'..'11' "
                "(no sign, no leading zeros, no spaces), or 'swap' under pie_rule"
            )
        return int(text)

    # --- positions ----------------------------------------------------------------------------

    def notation(self) -> str:
        h = self.holes
        text = (
            f"{','.join(map(str, h[:ROW]))}/{','.join(map(str, h[ROW:]))} "
            f"{self.stores[0]}-{self.stores[1]} {self.to_move}"
        )
        return f"{text} {self.pie}" if self.game.pie_rule else text

    def to_dict(self) -> dict:
        data = {
            "game": "cross_endodoi",
            "holes": list(self.holes),
            "stores": list(self.stores),
            "to_move": self.to_move,
        }
        if self.game.pie_rule:
            data["pie"] = self.pie
        return data

    def key(self) -> tuple:
        return (tuple(self.holes), tuple(self.stores), self.to_move, self.pie)


def _row_empty(holes: list[int], player: int) -> bool:
    base = ROW * player
    return not any(holes[base : base + ROW])


def _sowing_orders(step: int) -> tuple[tuple[int, ...], ...]:
    """For each origin, the twelve holes in sowing order; the origin itself comes last."""
    return tuple(tuple((origin + step * k) % NUM_HOLES for k in range(1, NUM_HOLES + 1)) for origin in range(NUM_HOLES))


_SOWING_ORDER = (_sowing_orders(+1), _sowing_orders(-1))  # index: seeds lifted % 2


def lap_path(origin: int, seeds: int, skip_origin: bool) -> tuple[int, ...]:
    """The holes a lap's ``seeds`` fall into, one per seed in sowing order (rules 2.2-2.3): round
    the ring from ``origin`` (even piles counter-clockwise, odd clockwise), the origin itself
    passed over under ``skip_origin``. Its last entry is the lap's last hole; a move's laps are
    in ``last_move``. Drawings and animations show a move seed by seed with it."""
    ring = NUM_HOLES - 1 if skip_origin else NUM_HOLES
    order = _SOWING_ORDER[seeds & 1][origin]
    return tuple(order[k % ring] for k in range(seeds))
