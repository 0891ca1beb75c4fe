"""Sygo: Go with growing groups and capture by reversal (``docs/rules/sygo.md``).

Positions are two bitboards (``bitboard``), the side to move, the ``grown`` flag and the pass
counter. A turn is played in atomic actions, the stone-by-stone form of spec section 7:

=====================  ========================  ==========================================
action int             string                    meaning
=====================  ========================  ==========================================
``0``                  ``pass``                  at the start of a turn
``1``                  ``finish``                ends a growth turn
``2 + p``              ``place <pt>``            a placement, or the balancing stone ending
                                                 a growth turn
``2 + size² + p``      ``grow <pt>``             one growth stone; the turn goes on
=====================  ========================  ==========================================

``legal_actions()`` offers only actions after which the turn can still end legally (no dead
ends, ``growth.Turn.completable``). Whole moves (``legal_moves``, ``apply_move``) use the spec's
section 6 strings; ``legal_moves(limit=10_000)`` enumerates them with ``growth.Turn.moves``, whose
cost grows with the number of legal growth sets (exponential in the number of groups), and
raises ``EnumerationLimitError`` beyond ``limit`` legal whole moves, whatever the state was asked
before (spec Decision 14; under ``growth="all"`` it counts the maximal moves, found by an exact
search, never the "any" sets below them); ``apply_move`` of any one move is cheap.
``undo_last_stone()`` takes back a growth stone of the turn in progress (not an action).
Under ``growth="all"`` the no-dead-end test decides by an exact search
(``growth.Turn.completable_all``), so stone by stone reaches every legal move (spec 7.1). The
problem is NP-hard in general, so the search keeps a safety net, never reached in measured play:
the engine parameter (not a rule) ``all_search_limit``, states explored, 5,000 by default
(``None``: no limit). Past it the test withholds the stone it could not prove; it never offers a
dead end, but whether it withholds a stone can then depend on what the turn was asked before. The
compiled kernel plays only the default. Whatever the limit, ``apply_action``
accepts exactly the stones ``legal_actions()`` offers, ``apply_move`` plays every legal move, and a
game's record replays (``GameRecord.replay``, ``move_history()``): a replay tells the state the
actions still to come (``foresee``), and the growth turn they complete, once checked, proves
each of its stones. Only an unfinished last turn (a game cut by ``max_actions``) has no move to
check; its stones are proven by one search from where they lead, which past the limit can fail.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any

from ...core import (
    MOVE_LIMIT,
    TERMINAL,
    Game,
    GameInfo,
    Option,
    Result,
    State,
    check_keys,
    positive_int_or_none,
)
from ...errors import (
    ActionError,
    ActionSyntaxError,
    EnumerationLimitError,
    IllegalActionError,
    PositionError,
    RulesError,
)
from ...registry import register_game
from .bitboard import COLUMNS, Geometry, bit_points, geometry
from .growth import SEARCH_LIMIT, Node, Turn

__all__ = ["EnumerationLimitError", "SygoGame", "SygoState", "PLAYER_NAMES", "area_estimate"]

PLAYER_NAMES = ("White", "Black")
COLOURS = "WB"
PASS, FINISH, FIRST_PLACE = 0, 1, 2


def _excerpt(text: Any) -> str:
    """``repr(text)``, cut to 40 characters (an error message quotes at most a short excerpt)."""
    if type(text) is int and text.bit_length() > 128:
        return f"<int of {text.bit_length()} bits>"
    shown = repr(text)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def _size_ok(value: Any) -> bool:
    return type(value) is int and 3 <= value <= 25


def _komi_ok(value: Any) -> bool:
    """A multiple of 0.5 from 0 to 625, the largest board's points (``_check_options`` bounds it
    by the board in play); an int or a float, never a bool."""
    return type(value) in (int, float) and 0 <= value <= 625 and float(2 * value).is_integer()


def komi_result(white: float, black: float, komi: float) -> int:
    """+1 when White wins, -1 when Black wins, 0 for a draw, from the area scores before komi
    (rule 2.7): Black's score is ``black + komi``. The kernels use it too, so both engines
    decide a game in the same arithmetic."""
    margin = white - black - komi
    return 0 if margin == 0 else (1 if margin > 0 else -1)


def komi_lead(area_margin: int, komi: float, points: int) -> float:
    """``evaluate()``'s value for White: White's estimated area minus Black's, minus komi, as a
    share of the board, no lower than -1 (a komi of up to the whole board can push it below).
    The kernels use it too, so both engines evaluate in the same arithmetic."""
    return max(-1.0, (area_margin - komi) / points)


GAME_INFO = GameInfo(
    name="sygo",
    menu_rank=2,
    title="Sygo",
    summary="Go variant by Christian Freeling: groups grow by one stone each per turn, and a "
    "captured group is reversed to the captor's colour; area scoring, no komi unless the option gives one.",
    players=(2,),
    multi_action_moves=True,
    has_notation=True,
    # every action adds a stone, finishes a turn that added one, or passes (a pass is followed by
    # a move that adds a stone, or ends the game): at most 3 * 25² + 2 actions
    max_actions=2000,
    player_names=PLAYER_NAMES,
    rules_version=1,  # raise it whenever the engine's behaviour changes (tabletop_lab.versions)
)


@register_game
class SygoGame(Game):
    info = GAME_INFO
    option_specs = (
        Option("size", 19, "board size (points per side)", check=_size_ok, allowed="an integer 3..25"),
        Option(
            "growth", "any", "which groups grow in a growth move: any subset, or all that can", choices=("any", "all")
        ),
        Option("balancing", True, "Black's balancing move (growth plus one placement)", choices=(True, False)),
        Option(
            "komi",
            0.0,
            "points added to Black's score at the end (rule 2.7, Decision 15); a half point rules out draws",
            check=_komi_ok,
            allowed="a multiple of 0.5 from 0 to size*size (625 on 25x25)",
        ),
    )
    param_specs = (
        Option(
            "all_search_limit",
            SEARCH_LIMIT,
            "engine parameter (not a rule), growth='all' only: states the no-dead-end test's exact search "
            "explores before it withholds a stone it could not prove (a safety net, never reached in measured "
            "play); None: no limit, though the time can then grow exponentially with the number of groups on "
            "contrived positions; the compiled kernel plays only the default",
            check=positive_int_or_none,
            allowed="a positive integer, or None (no limit)",
        ),
    )

    @classmethod
    def harness_configs(cls) -> list[dict]:
        """Small boards: the harness compares every position's whole moves with the turns built
        stone by stone, which grows fast with the board. Every option value is played."""
        return [
            {"size": 5},
            {"size": 3},
            {"size": 5, "growth": "all"},
            {"size": 6, "balancing": False},
            {"size": 4, "growth": "all", "balancing": False},
            {"size": 5, "komi": 2.5},
            {"size": 4, "growth": "all", "komi": 3},
        ]

    def _check_options(self) -> None:
        """``komi`` is at most the board's points: more could never be overcome. It is kept as a
        float, so that ``komi=3`` and ``komi=3.0`` make one game (equal, and hashed alike)."""
        self.options["komi"] = komi = float(self.options["komi"])
        points = self.options["size"] ** 2
        if komi > points:
            raise RulesError(
                f"sygo: option komi={komi!r} is not allowed with size={self.options['size']}; valid values: "
                f"a multiple of 0.5 from 0 to size*size = {points} (default 0.0)"
            )

    @property
    def can_draw(self) -> bool:
        """Equal scores are a draw (rule 2.7), which a half-point komi rules out."""
        return float(self.options["komi"]).is_integer()

    @property
    def geometry(self) -> Geometry:
        return geometry(self.options["size"])

    @property
    def num_sites(self) -> int:
        return self.geometry.points

    def state_space_log10(self) -> float:
        """Each point empty, White or Black, with the side to move, the growth flag and 0..2
        passes: at most ``3**points * 12`` positions (a bound, as Ludii's)."""
        return self.geometry.points * math.log10(3) + math.log10(12)

    def recorded_positions(self, actions: Iterable[int]) -> Iterator[tuple[tuple, int]]:
        """The engine's positions of a recorded game, without its turn analysis (``replay``):
        some ten times quicker on 19x19; the actions are checked only for what costs nothing (see
        ``replay``).

        >>> from tabletop_lab import load_game
        >>> [occupied for key, occupied in load_game("sygo", size=3).recorded_positions([6, 0])]  # place b2, pass
        [0, 16, 16]
        """
        from .replay import positions  # it reads this module's action codes

        return positions(self.geometry, actions)

    def new_initial_state(self) -> SygoState:
        return SygoState(self, 0, 0, 0, False, 0)

    # --- reading positions --------------------------------------------------------------------

    def state_from_notation(self, text: Any) -> SygoState:
        """Read ``<rows top to bottom, '/'-separated> <W|B> <g|-> <0|1|2>`` (canonical form only)."""
        if not isinstance(text, str):
            raise PositionError(f"sygo: a position in notation is a string, got {type(text).__name__}")
        fields = text.split(" ")
        if len(fields) != 4 or not all(fields):
            raise PositionError(
                f"sygo: {_excerpt(text)} is not '<rows> <side> <grown> <passes>' (four fields, single spaces)"
            )
        rows, side, flag, passes = fields
        if side not in ("W", "B"):
            raise PositionError(f"sygo: side to move must be W or B, got {_excerpt(side)}")
        if flag not in ("g", "-"):
            raise PositionError(f"sygo: the grown flag must be 'g' or '-', got {_excerpt(flag)}")
        if passes not in ("0", "1", "2"):
            raise PositionError(f"sygo: passes must be 0, 1 or 2, got {_excerpt(passes)}")
        return self._validated(rows.split("/"), COLOURS.index(side), flag == "g", int(passes))

    def state_from_dict(self, data: Any) -> SygoState:
        check_keys(data, ("game", "size", "board", "to_move", "grown", "passes"), "sygo")
        size, board = data["size"], data["board"]
        if type(size) is not int:
            raise PositionError(f"sygo: field 'size' must be an integer, got {_excerpt(size)}")
        if not isinstance(board, list) or not all(isinstance(row, str) for row in board):
            raise PositionError(f"sygo: field 'board' must be a list of strings, got {_excerpt(board)}")
        if len(board) != size:
            raise PositionError(f"sygo: field 'board' has {len(board)} rows but 'size' is {size}")
        if type(data["to_move"]) is not int or data["to_move"] not in (0, 1):
            raise PositionError(f"sygo: field 'to_move' must be 0 or 1, got {_excerpt(data['to_move'])}")
        if type(data["grown"]) is not bool:
            raise PositionError(f"sygo: field 'grown' must be true or false, got {_excerpt(data['grown'])}")
        if type(data["passes"]) is not int or data["passes"] not in (0, 1, 2):
            raise PositionError(f"sygo: field 'passes' must be 0, 1 or 2, got {_excerpt(data['passes'])}")
        return self._validated(board, data["to_move"], data["grown"], data["passes"])

    def _validated(self, rows: list[str], to_move: int, grown: bool, passes: int) -> SygoState:
        n = len(rows)
        if not 3 <= n <= 25:
            raise PositionError(f"sygo: the board has {n} rows; sizes are 3..25")
        if n != self.options["size"]:
            raise PositionError(f"sygo: the board is {n}x{n} but the rules config has size={self.options['size']}")
        white = black = 0
        for r, row in enumerate(rows):
            number = n - r  # the first row written is row n
            if len(row) != n:
                raise PositionError(f"sygo: board row {number} has {len(row)} characters, expected {n}")
            for c, char in enumerate(row):
                if char == "W":
                    white |= 1 << ((number - 1) * n + c)
                elif char == "B":
                    black |= 1 << ((number - 1) * n + c)
                elif char != ".":
                    raise PositionError(
                        f"sygo: board row {number} has {_excerpt(char)} at {COLUMNS[c]}{number}; points are '.', 'W' or 'B'"
                    )
        geom = self.geometry
        empty = geom.full & ~(white | black)
        for colour, stones in ((0, white), (1, black)):
            dead = geom.groups_without_liberties(stones, empty)
            if dead:
                at = geom.names[(dead & -dead).bit_length() - 1]
                raise PositionError(
                    f"sygo: {PLAYER_NAMES[colour]}'s group at {at} has no liberties; no legal play leads here "
                    "(Decision 12)"
                )
        state = SygoState(self, white, black, to_move, grown, passes)
        state._start = state.to_dict()
        return state


def area_estimate(geom: Geometry, white: int, black: int) -> tuple[int, int]:
    """(White's area, Black's area) as point masks: the stones, plus every empty point strictly
    nearer (in steps through empty points) to one colour's stones than to the other's."""
    free = geom.full & ~(white | black)
    while free:
        reach_white = geom.dilate(white) & free
        reach_black = geom.dilate(black) & free
        if not reach_white | reach_black:
            break
        both = reach_white & reach_black
        white |= reach_white & ~both
        black |= reach_black & ~both
        free &= ~(reach_white | reach_black)
    return white, black


class SygoState(State):
    """The board (``white``, ``black`` point masks), side to move, ``grown`` flag and passes.

    During a growth turn ``node`` holds the turn's progress (``growth.Node``) and ``stones`` the
    growth stones in the order played; the boards show the stones added and groups reversed.
    ``last_turn`` = (stones added, stones reversed) by the latest completed turn, for display.
    """

    def __init__(self, game: SygoGame, white: int, black: int, to_move: int, grown: bool, passes: int):
        super().__init__(game)
        self.geom = game.geometry
        self.white, self.black = white, black
        self.to_move, self.grown, self.passes = to_move, grown, passes
        self.node: Node | None = None
        self.stones: tuple[int, ...] = ()
        self.last_turn: tuple[int, int] = (0, 0)
        self._turn: Turn | None = None  # analysis of the turn's start position, made on demand
        self._actions: tuple[int, ...] | None = None
        self._witnesses_seen = 0  # len(turn.witnesses) when _actions was made (growth="all")

    # --- small helpers ------------------------------------------------------------------------

    @property
    def turn(self) -> Turn:
        if self._turn is None:
            mover, opponent = self._sides()
            options = self.game.options
            self._turn = Turn(
                self.geom,
                mover,
                opponent,
                self.balancing_available(),
                options["growth"] == "all",
                self.game.params["all_search_limit"],
            )
        return self._turn

    def _sides(self) -> tuple[int, int]:
        return (self.white, self.black) if self.to_move == 0 else (self.black, self.white)

    def balancing_available(self) -> bool:
        """Black to move, the option on and no growth move made yet (rule 2.5)."""
        return self.to_move == 1 and self.game.options["balancing"] and not self.grown

    def _current_node(self) -> Node:
        return self.node if self.node is not None else self.turn.root

    def _name(self, p: int) -> str:
        return self.geom.names[p]

    def _group_name(self, number: int) -> str:
        group = self.turn.groups[number]
        return f"the group at {self._name((group & -group).bit_length() - 1)}"

    def _dead_name(self, dead: int) -> str:
        return f"{PLAYER_NAMES[self.to_move]}'s group at {self._name((dead & -dead).bit_length() - 1)}"

    @property
    def _n(self) -> int:
        return self.geom.points

    # --- the rules hooks ----------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.passes >= 2 else self.to_move

    def is_terminal(self) -> bool:
        return self.passes >= 2

    def mid_turn(self) -> bool:
        return self.node is not None

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        white, black = self.area_scores()
        komi = self.game.options["komi"]
        winner = komi_result(white, black, komi)
        winners = (0, 1) if winner == 0 else ((0,) if winner > 0 else (1,))
        return Result(winners, tuple(self.scores()), "standard")

    def scores(self) -> list[float]:
        """The scores of rule 2.7: White's area, and Black's area plus the option ``komi``
        (ints when there is no komi, as by default)."""
        white, black = self.area_scores()
        komi = self.game.options["komi"]
        return [white, black + komi] if komi else [white, black]

    def area_scores(self) -> list[int]:
        """Area scores (rule 2.7), komi left out: stones, plus empty regions bordering one colour only."""
        geom = self.geom
        scores = [self.white.bit_count(), self.black.bit_count()]
        for region in geom.groups(geom.full & ~(self.white | self.black)):
            border = geom.dilate(region)
            touches_white, touches_black = bool(border & self.white), bool(border & self.black)
            if touches_white != touches_black:
                scores[0 if touches_white else 1] += region.bit_count()
        return scores

    def evaluate(self) -> list[float]:
        """Area estimate (``area_estimate``) as a share of the board, komi counted for Black
        (``komi_lead``): White's lead, Black's opposite."""
        if self.is_terminal():
            return self.returns()
        white, black = area_estimate(self.geom, self.white, self.black)
        lead = komi_lead(white.bit_count() - black.bit_count(), self.game.options["komi"], self.geom.points)
        return [lead, -lead]

    def _legal_actions(self) -> list[int]:
        """Each candidate checked by ``_reason``, except for a shortcut: under ``"any"``, when no
        group of the mover lacks liberties yet, a stone with an empty neighbour keeps its own group
        breathing and changes no other group of the mover, so the turn can end right after it.

        Under ``"all"`` the list is closed under the witnesses its checks found (a stone refused
        before a later candidate's witness proved it is offered too), and it is made again once
        the turn knows more witnesses (found by another state of the turn, ``apply_move`` or
        ``foresee``): ``apply_action`` then accepts exactly the stones offered."""
        turn = self.turn
        if self._actions is None or (turn.all_growth and self._witnesses_seen != len(turn.witnesses)):
            geom, node = self.geom, self._current_node()
            empty = geom.full & ~(node.mover | node.opponent)
            shortcut = geom.spread(empty) if not turn.all_growth and (self.node is None or not self._node_dead()) else 0
            actions = [PASS] if self.node is None else [FINISH] if self._reason(FINISH) is None else []
            if self.node is None or turn.balancing:
                for q in bit_points(empty & ~geom.dilate(node.mover)):
                    if (shortcut >> q) & 1 or self._reason(FIRST_PLACE + q) is None:
                        actions.append(FIRST_PLACE + q)
            first_grow, blocked = FIRST_PLACE + geom.points, node.grown | node.closed
            stones, refused, known = [], [], len(turn.witnesses)
            for p in bit_points(turn.growable & empty):
                if not turn.src[p] & blocked:
                    offer = (shortcut >> p) & 1 or self._reason(first_grow + p) is None
                    (stones if offer else refused).append(p)
            if len(turn.witnesses) > known:
                stones = sorted(stones + [p for p in refused if turn.witnessed(turn.step(node, p))])
            self._actions = tuple(actions + [first_grow + p for p in stones])
            self._witnesses_seen = len(turn.witnesses)
        return list(self._actions)

    def _node_dead(self) -> int:
        return self.turn.dead(self.node.mover, self.node.opponent)

    def _illegal_reason(self, action: int) -> str | None:
        """``_reason``, except that a stone ``legal_actions()`` offers is always accepted: under
        ``growth="all"`` a stone refused on its own may be offered thanks to a witness that the
        list found for another stone (``growth.Turn.completable_all``). Witnesses only
        accumulate, so an action once offered stays legal."""
        self._decode(action)  # raises ActionSyntaxError for an int that is no action
        if self._actions is not None and action in self._actions:
            return None
        reason = self._reason(action)
        if reason is not None and self.turn.all_growth and not self.is_terminal() and action in self._legal_actions():
            return None
        return reason

    def _decode(self, action: int) -> tuple[int, int]:
        """(kind, point): kind 0 pass, 1 finish, 2 place, 3 grow; point -1 when none."""
        n = self._n
        if type(action) is not int or not 0 <= action < FIRST_PLACE + 2 * n:
            raise ActionSyntaxError(
                f"sygo: action {_excerpt(action)} is no action on a {self.geom.size}x{self.geom.size} board "
                f"(0..{FIRST_PLACE + 2 * n - 1})"
            )
        if action < FIRST_PLACE:
            return action, -1
        if action < FIRST_PLACE + n:
            return 2, action - FIRST_PLACE
        return 3, action - FIRST_PLACE - n

    def _reason(self, action: int) -> str | None:
        """None if ``action`` is legal here, else the rule it breaks, in words."""
        kind, p = self._decode(action)
        if self.is_terminal():
            return "the game is over: both players passed in a row (rule 2.6)"
        if kind == PASS:
            if self.node is not None:
                return "a growth turn is in progress; pass is only at the start of a turn (finish the turn instead)"
            return None
        if kind == FINISH:
            if self.node is None:
                return "finish ends a growth turn, and no growth stone has been added yet"
            return self._end_reason(None)
        if kind == 2:
            return self._placement_reason(p) if self.node is None else self._end_reason(p)
        return self._grow_reason(p)

    def _placement_reason(self, q: int) -> str | None:
        turn = self.turn
        mover, opponent = turn.root.mover, turn.root.opponent
        problem = turn.placement_problem(mover, opponent, q)
        if problem == -1:
            return f"{self._name(q)} is occupied"
        if problem is not None:
            return (
                f"place {self._name(q)} touches {PLAYER_NAMES[self.to_move]}'s stone at {self._name(problem)}; "
                "a placement may not touch the mover's stones (rule 2.3, Decision 6); grow there instead"
            )
        after_mover, after_opponent = turn.position(1 << q)
        dead = turn.dead(after_mover, after_opponent)
        if dead:
            return f"suicide: it leaves {self._dead_name(dead)} without liberties (rule 2.2)"
        return None

    def _end_reason(self, q: int | None) -> str | None:
        """Why the growth turn in progress cannot end now (finish, or the balancing stone ``q``)."""
        turn, node = self.turn, self.node
        if q is not None:
            if self.to_move != 1:
                return "a placement cannot follow growth: only Black has the balancing move (rule 2.5)"
            if not self.game.options["balancing"]:
                return "the balancing move is off in these rules (option balancing=false)"
            if self.grown:
                return "the balancing move is gone: a growth move has already been made in this game (rule 2.5)"
            problem = turn.placement_problem(node.mover, node.opponent, q)
            if problem == -1:
                return f"{self._name(q)} is occupied"
            if problem is not None:
                return (
                    f"the balancing stone {self._name(q)} touches Black's stone at {self._name(problem)}; "
                    "it must be a true placement (rule 2.5, Decision 7)"
                )
        filled = node.added | (0 if q is None else 1 << q)
        mover, opponent = (node.mover, node.opponent) if q is None else turn.position(filled)
        dead = turn.dead(mover, opponent)
        if dead:
            return f"suicide: the turn would leave {self._dead_name(dead)} without liberties (rule 2.2)"
        if turn.all_growth:
            more = turn.extension(node.added, q)
            if more is not None:
                return (
                    f"growth='all': the growth set is not maximal; a legal move also grows at "
                    f"{self._name(more)} (rule 2.4)"
                )
        return None

    def _grow_reason(self, p: int) -> str | None:
        turn = self.turn
        node = self._current_node()
        problem = turn.grow_problem(node, p)
        if problem is not None:
            rule, group = problem
            name = self._name(p)
            colour = PLAYER_NAMES[self.to_move]
            if rule == "occupied":
                return f"{name} is occupied"
            if rule == "no source":
                return (
                    f"{name} is not adjacent to a growing group: no {colour} group of the turn's start touches it "
                    "(rule 2.4.2; new and reversed stones do not count)"
                )
            if rule == "grown":
                return f"{self._group_name(group)} has already grown this turn (rule 2.4.3: one stone per group)"
            return f"{self._group_name(group)} is closed: a capture this turn merged it (rule 2.4, Decision 3)"
        after = turn.step(node, p)
        if turn.all_growth:
            if turn.completable_all(after):
                return None
            return "growth='all': no maximal growth move can be completed after it (rule 2.4)"
        if self._growth_can_end(node, after, p):
            return None
        return (
            "no legal turn can be completed after it: every way to end the turn leaves a "
            f"{PLAYER_NAMES[self.to_move]} group without liberties (rule 2.2, suicide)"
        )

    def _growth_can_end(self, node: Node, after: Node, p: int) -> bool:
        turn = self.turn
        if node is turn.root or not turn.dead(node.mover, node.opponent):
            group = self.geom.flood(1 << p, after.mover)
            if self.geom.liberties(group, self.geom.full & ~(after.mover | after.opponent)):
                return True  # only the new stone's group can have lost its last liberty
        return turn.completable(after)

    def _apply(self, action: int) -> None:
        kind, p = self._decode(action)
        turn = self.turn
        self._actions = None
        if kind == PASS:
            self._end_turn(0, 0, passed=True)
        elif kind == 3:
            self.node = turn.step(self._current_node(), p)
            self.stones += (p,)
            self._set_sides(self.node.mover, self.node.opponent)
        elif kind == FINISH:
            self._set_sides(self.node.mover, self.node.opponent)
            self._end_turn(self.node.added, turn.root.opponent & self.node.mover)
        else:
            filled = (self.node.added if self.node is not None else 0) | (1 << p)
            mover, opponent = turn.position(filled)
            self._set_sides(mover, opponent)
            self._end_turn(filled, turn.root.opponent & mover, growth=self.node is not None)

    def undo_last_stone(self) -> None:
        """Take back the latest growth stone of the turn in progress (spec 7.5).

        Not an action: agents only ever move forward. The turn is replayed from its start
        without that stone, so the grown and closed marks are exactly as they were."""
        if self.node is None:
            raise IllegalActionError("sygo: no growth stone to take back: no growth turn is in progress")
        turn, stones = self.turn, self.stones[:-1]
        node = turn.root
        for p in stones:
            node = turn.step(node, p)
        self._set_sides(node.mover, node.opponent)
        self.node = node if stones else None
        self.stones = stones
        self._history.pop()
        self._actions = None

    def _set_sides(self, mover: int, opponent: int) -> None:
        if self.to_move == 0:
            self.white, self.black = mover, opponent
        else:
            self.black, self.white = mover, opponent

    def _end_turn(self, added: int, reversed_stones: int, passed: bool = False, growth: bool = True) -> None:
        growth = growth and not passed and self.node is not None
        self.passes = self.passes + 1 if passed else 0
        self.grown = self.grown or growth
        self.to_move = 1 - self.to_move
        self.last_turn = (added, reversed_stones)
        self.node = None
        self.stones = ()
        self._turn = None

    def _copy_into(self, new: SygoState) -> None:
        pass  # every field is immutable; the Turn analysis is shared (it never changes)

    # --- strings ------------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        kind, p = self._decode(action)
        if kind == PASS:
            return "pass"
        if kind == FINISH:
            return "finish"
        return f"{'place' if kind == 2 else 'grow'} {self._name(p)}"

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise ActionSyntaxError(f"sygo: an action is a string such as 'grow c3', got {_excerpt(text)}")
        if text == "pass":
            return PASS
        if text == "finish":
            return FINISH
        parts = text.split(" ")
        if len(parts) == 2 and parts[0] in ("place", "grow"):
            p = self._point(parts[1])
            return FIRST_PLACE + p + (self._n if parts[0] == "grow" else 0)
        raise ActionSyntaxError(
            f"sygo: {_excerpt(text)} is not an action; actions are 'pass', 'finish', 'place <pt>', 'grow <pt>'"
        )

    def _point(self, token: str) -> int:
        p = self.geom.index.get(token)
        if p is None:
            last = self.geom.names[-1]
            raise ActionSyntaxError(f"sygo: {_excerpt(token)} is not a point of this board (a1..{last})")
        return p

    # --- whole moves --------------------------------------------------------------------------

    def _parse_move(self, text: Any) -> tuple[str, list[int], int | None]:
        """("pass" | "place" | "grow", growth points as given, placement point or None)."""
        if not isinstance(text, str):
            raise ActionSyntaxError(f"sygo: a move is a string such as 'grow c3 d5', got {_excerpt(text)}")
        if text == "pass":
            return "pass", [], None
        tokens = text.split(" ")
        if len(tokens) == 2 and tokens[0] == "place":
            return "place", [], self._point(tokens[1])
        if len(tokens) >= 2 and tokens[0] == "grow":
            points, q = tokens[1:], None
            if "+" in points:
                plus = points.index("+")
                if len(points) != plus + 3 or points[plus + 1] != "place":
                    raise ActionSyntaxError(f"sygo: {_excerpt(text)}: a balancing move ends with '+ place <pt>'")
                q = self._point(points[plus + 2])
                points = points[:plus]
            if not points:
                raise ActionSyntaxError(f"sygo: {_excerpt(text)}: 'grow' needs at least one point")
            indices = [self._point(t) for t in points]
            if len(set(indices)) != len(indices):
                raise ActionSyntaxError(f"sygo: {_excerpt(text)} repeats a growth point")
            return "grow", indices, q
        raise ActionSyntaxError(
            f"sygo: {_excerpt(text)} is not a move; moves are 'pass', 'place <pt>', 'grow <pt> ...' "
            "and 'grow <pt> ... + place <pt>' (single spaces)"
        )

    def _move_actions(self, text: str) -> list[int]:
        """The actions that play the whole move ``text`` from this position, in a valid order."""
        kind, points, q = self._parse_move(text)
        if self.mid_turn():
            raise IllegalActionError("sygo: a turn is in progress; whole moves start between turns")
        if self.is_terminal():
            raise IllegalActionError("sygo: the game is over: both players passed in a row (rule 2.6)")
        if kind == "pass":
            return [PASS]
        n = self._n
        if kind == "place":
            reason = self._placement_reason(q)
            if reason:
                raise IllegalActionError(f"sygo: {text!r} is illegal: {reason}")
            return [FIRST_PLACE + q]
        turn = self.turn
        root = turn.root
        used = 0
        for p in points:
            problem = turn.grow_problem(root, p)
            if problem is not None:
                raise IllegalActionError(f"sygo: {text!r} is illegal: {self._grow_reason(p)}")
            if turn.src[p] & used:
                number = (turn.src[p] & used).bit_length() - 1
                raise IllegalActionError(
                    f"sygo: {text!r} is illegal: {self._group_name(number)} would grow twice; "
                    "each group grows at most once (rule 2.4.3)"
                )
            used |= turn.src[p]
        order = turn.order(root, sum(1 << p for p in points))
        if order is None:
            raise IllegalActionError(
                f"sygo: {text!r} is illegal: in every order some stone grows a group that a capture has "
                "already closed (rule 2.4, Decision 3)"
            )
        trial = self.clone()
        for p in order:
            trial.node = turn.step(trial._current_node(), p)
        reason = trial._end_reason(q)
        if reason:
            raise IllegalActionError(f"sygo: {text!r} is illegal: {reason}")
        if turn.all_growth:  # a legal maximal move: each of its stones is accepted on the way (7.2)
            witness = (trial.node.added, q)
            if witness not in turn.witnesses:
                turn.witnesses.append(witness)
        return [FIRST_PLACE + n + p for p in order] + [FINISH if q is None else FIRST_PLACE + q]

    def foresee(self, actions: Iterable[str]) -> None:
        """Under ``growth="all"``, between turns: when ``actions`` (the action strings a replay
        still has to play) begin with a growth turn, ended by ``finish`` or a balancing ``place``,
        that is a legal move (checked as ``apply_move`` checks it), that move joins the turn's
        witnesses, so each of its stones is accepted in the order given, even one the search
        limit would withhold. That is sound: every prefix of a legal maximal move can still end
        in it (spec 7.2). When ``actions`` end inside the turn (a game cut by ``max_actions``),
        the node its stones reach is tested once by ``growth.Turn.completable_all``, whose
        witness, if it finds one within the limit, proves every stone before it too. Anything
        else (a pass, a placement, an illegal turn) is left to ``apply_action`` to judge."""
        if self.node is not None or self.is_terminal() or self.game.options["growth"] != "all":
            return
        stones, q = [], None
        try:
            for text in actions:
                kind, p = self._decode(self.string_to_action(text))
                if kind == 3 and p not in stones:
                    stones.append(p)
                    continue
                if not stones or kind not in (FINISH, 2):
                    return
                q = p if kind == 2 else None
                break
            else:
                self._prove_unfinished(stones)
                return
            self._move_actions(self._growth_string(sum(1 << p for p in stones), q))
        except ActionError:
            return

    def _prove_unfinished(self, stones: list[int]) -> None:
        turn = self.turn
        node = turn.root
        for p in stones:
            if turn.grow_problem(node, p) is not None:
                return
            node = turn.step(node, p)
        if stones:
            turn.completable_all(node)  # records the witness it finds

    def _move_string(self, actions: list[int]) -> str:
        """The canonical string of the completed move made of ``actions`` from this position."""
        kinds = [self._decode(a) for a in actions]
        if kinds[0][0] == PASS:
            return "pass"
        if len(kinds) == 1:
            return f"place {self._name(kinds[0][1])}"
        grown = sum(1 << p for kind, p in kinds if kind == 3)
        q = kinds[-1][1] if kinds[-1][0] == 2 else None
        return self._growth_string(grown, q)

    def _growth_string(self, grown: int, q: int | None) -> str:
        text = "grow " + " ".join(self._name(p) for p in bit_points(grown))
        return text if q is None else f"{text} + place {self._name(q)}"

    def legal_moves(self, limit: int | None = MOVE_LIMIT) -> list[str]:
        """Every legal whole move, canonical, in the spec's listing order (section 6):
        ``pass``, placements, then growth sets by size and point list, each followed by its
        balancing extensions.

        Enumerating growth sets costs time in proportion to their number (each set is checked
        in O(k²) by ``growth.Turn.order``), and their number can grow exponentially with the
        number of groups: beyond ``limit`` legal whole moves (``None``: no limit) this raises
        ``EnumerationLimitError``, and only then: the answer never depends on what the state was
        asked before (spec Decision 14). ``apply_move`` of any one move and the stone-by-stone
        ``legal_actions()`` stay cheap.
        """
        if self.mid_turn():
            raise IllegalActionError(
                f"sygo: a move is in progress ({' '.join(self.move_in_progress())}); finish it action by action"
            )
        if self.is_terminal():
            return []
        limit = float("inf") if limit is None else limit
        moves = ["pass"] + [self.action_to_string(a) for a in self.legal_actions() if self._decode(a)[0] == 2]
        found = self.turn.moves(self.turn.root, limit, EnumerationLimitError)
        moves += [self._growth_string(grown, q) for grown, q in found]
        if len(moves) > limit:
            raise EnumerationLimitError(f"sygo: more than {limit} legal whole moves here")
        return moves

    # --- positions ----------------------------------------------------------------------------

    def _rows(self) -> list[str]:
        n = self.geom.size
        rows = []
        for number in range(n, 0, -1):
            base = (number - 1) * n
            rows.append(
                "".join(
                    "W" if (self.white >> p) & 1 else "B" if (self.black >> p) & 1 else "."
                    for p in range(base, base + n)
                )
            )
        return rows

    def _require_position(self) -> None:
        if self.node is not None:
            raise PositionError("sygo: turn in progress; a position exists only between turns (spec section 7)")

    def notation(self) -> str:
        self._require_position()
        return f"{'/'.join(self._rows())} {COLOURS[self.to_move]} {'g' if self.grown else '-'} {self.passes}"

    def to_dict(self) -> dict:
        self._require_position()
        return self._board_dict()

    def _board_dict(self) -> dict:
        return {
            "game": "sygo",
            "size": self.geom.size,
            "board": self._rows(),
            "to_move": self.to_move,
            "grown": self.grown,
            "passes": self.passes,
        }

    def _progress_dict(self) -> dict:
        """The board as it stands during a growth turn, the stones so far and each start group's marks."""
        node = self._current_node()
        turn = self.turn
        groups = [
            {
                "at": self._name((g & -g).bit_length() - 1),
                "grown": bool((node.grown >> i) & 1),
                "closed": bool((node.closed >> i) & 1),
            }
            for i, g in enumerate(turn.groups)
        ]
        return {
            **self._board_dict(),
            "stones": [self._name(p) for p in self.stones],
            "reversed": [self._name(p) for p in bit_points(turn.root.opponent & node.mover)],
            "groups": groups,
        }

    def occupied_sites(self) -> int:
        return self.white | self.black

    def key(self) -> tuple:
        position = (self.white, self.black, self.to_move, self.grown, self.passes)
        if self.node is None:
            return position
        return position + (self.node.added, self.node.grown, self.node.closed)
