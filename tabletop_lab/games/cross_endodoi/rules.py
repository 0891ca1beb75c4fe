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
    """What one move did, for display and statistics (spec section 6)."""

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

    def new_initial_state(self) -> CrossEndodoiState:
        n = self.options["seeds_per_hole"]
        return CrossEndodoiState(self, [n] * NUM_HOLES, [0, 0], self.options["first_player"])

    def state_from_notation(self, text: Any) -> CrossEndodoiState:
        """Read ``h0,..,h5/h6,..,h11 S-N P``; only the canonical form is accepted."""
        if not isinstance(text, str) or not _NOTATION.fullmatch(text):
            raise PositionError(
                f"cross_endodoi: {excerpt(text)} is not a position in notation 'h0,h1,h2,h3,h4,h5/h6,...,h11 S-N P' "
                "(decimal counts without leading zeros, single spaces, P = 0 or 1)"
            )
        longest = max(_COUNT.findall(text), key=len)
        if len(longest) > len(str(self.total_seeds)):  # also keeps int() far from its 4,300-digit limit
            raise PositionError(
                f"cross_endodoi: the count {excerpt(longest, limit=30)} is larger than the {self.total_seeds} seeds "
                f"in play with seeds_per_hole={self.options['seeds_per_hole']}"
            )
        rows, stores, player = text.split(" ")
        holes = [int(x) for x in rows.replace("/", ",").split(",")]
        return self._validated(holes, [int(x) for x in stores.split("-")], int(player))

    def state_from_dict(self, data: Any) -> CrossEndodoiState:
        check_keys(data, ("game", "holes", "stores", "to_move"), "cross_endodoi")
        holes = check_int_list(data["holes"], NUM_HOLES, "holes", "cross_endodoi")
        stores = check_int_list(data["stores"], 2, "stores", "cross_endodoi")
        to_move = data["to_move"]
        if type(to_move) is not int or to_move not in (0, 1):
            raise PositionError(f"cross_endodoi: field 'to_move' must be 0 or 1, got {excerpt(to_move)}")
        return self._validated(holes, stores, to_move)

    def _validated(self, holes: list[int], stores: list[int], to_move: int) -> CrossEndodoiState:
        total = sum(holes) + sum(stores)
        if total != self.total_seeds:
            raise PositionError(
                f"cross_endodoi: the position holds {total} seeds (holes {sum(holes)} + stores {sum(stores)}); "
                f"with seeds_per_hole={self.options['seeds_per_hole']} it must hold {self.total_seeds}"
            )
        state = CrossEndodoiState(self, holes, stores, to_move)
        state._start = state.to_dict()
        return state


class CrossEndodoiState(State):
    """Holes, stores and the player to move; ``last_move`` reports the latest move's laps."""

    def __init__(self, game: CrossEndodoiGame, holes: list[int], stores: list[int], to_move: int):
        super().__init__(game)
        self.holes = holes
        self.stores = stores
        self.to_move = to_move
        self._last: tuple | None = None  # raw report of the latest move, see last_move
        self._terminal = _row_empty(holes, to_move)

    # --- rules hooks ------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._terminal else self.to_move

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
        """Seeds in each store; at the end, the seeds left on the board go to the side that can move."""
        scores = list(self.stores)
        if self.is_terminal():
            scores[1 - self.to_move] += sum(self.holes)
        return scores

    def evaluate(self) -> list[float]:
        """Store difference as a share of all seeds: a cheap, signed material count."""
        if self.is_terminal():
            return self.returns()
        lead = (self.stores[0] - self.stores[1]) / self.game.total_seeds
        return [lead, -lead]

    def _legal_actions(self) -> list[int]:
        holes = self.holes
        base = ROW * self.to_move
        return [h for h in range(base, base + ROW) if holes[h]]

    def _illegal_reason(self, action: int) -> str | None:
        if not 0 <= action < NUM_HOLES:
            raise ActionSyntaxError(f"cross_endodoi: action {excerpt(action)} names no hole; holes are 0..11")
        mover = self.to_move
        if self._terminal:
            return f"the game is over: {PLAYER_NAMES[mover]} has no seeds to sow (rule 2.4)"
        if owner(action) != mover:
            first = ROW * mover
            return (
                f"hole {action} belongs to {PLAYER_NAMES[owner(action)]}; "
                f"{PLAYER_NAMES[mover]} sows one of holes {first}..{first + ROW - 1} (rule 2.1)"
            )
        if not self.holes[action]:
            return f"hole {action} is empty; a move must lift at least one seed (rule 2.1)"
        return None

    def _apply(self, action: int) -> None:
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

    @property
    def last_move(self) -> MoveReport | None:
        """The latest move's laps and capture, or ``None`` before any move."""
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
        if type(action) is not int or not 0 <= action < NUM_HOLES:
            raise ActionSyntaxError(f"cross_endodoi: action {excerpt(action)} names no hole; holes are 0..11")
        return str(action)

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str) or not _ACTION.fullmatch(text) or int(text) >= NUM_HOLES:
            raise ActionSyntaxError(
                f"cross_endodoi: {excerpt(text)} is not a hole; a move is a hole index '0'..'11' "
                "(no sign, no leading zeros, no spaces)"
            )
        return int(text)

    # --- positions ----------------------------------------------------------------------------

    def notation(self) -> str:
        h = self.holes
        return (
            f"{','.join(map(str, h[:ROW]))}/{','.join(map(str, h[ROW:]))} "
            f"{self.stores[0]}-{self.stores[1]} {self.to_move}"
        )

    def to_dict(self) -> dict:
        return {
            "game": "cross_endodoi",
            "holes": list(self.holes),
            "stores": list(self.stores),
            "to_move": self.to_move,
        }

    def key(self) -> tuple:
        return (tuple(self.holes), tuple(self.stores), self.to_move)


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
