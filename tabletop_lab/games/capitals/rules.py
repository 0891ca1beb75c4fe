"""Capitals: the four-player, two-against-two game of chain jumps, Rams, Cages, Altars and Hunger.

The rules are ``shared/spec/capitals.md``; section numbers below refer to it. Seats 0..3 sit at
the top, right, bottom and left corners of the diamond; teams are White {0, 2} and Black {1, 3}.
A turn is a few atomic actions (9a): optional ``transfer``s, one main action (``step``,
``jump``, ``dismantle``, ``pass-turn`` or ``skip``), then the ``release`` and ``sacrifice``
choices the resolution may ask for. A jump chain is played one landing per action (``jump <from>
<landing>``, then ``hop <landing>``..., then ``stop`` unless it can go no further); during it
``mid_turn()`` is True and the state is not a position. As a whole move the chain is one string,
``jump <from> <landing> <landing>...`` (``legal_moves()``, ``apply_move``).

Board geometry, unit codes and the action numbering live in ``geometry``; reading and checking
the position JSON in ``position``.
"""

from __future__ import annotations

from typing import Any

from ...core import (
    MOVE_LIMIT,
    TERMINAL,
    Game,
    GameInfo,
    Option,
    Result,
    State,
    non_negative_int,
    positive_int_or_none,
)
from ...errors import ActionSyntaxError, IllegalActionError, PositionError, excerpt
from ...registry import register_game
from .geometry import (
    ACTION_OF,
    ACTION_STRINGS,
    BOTTOM,
    CAPITAL_OWNER,
    CONTROLLER,
    DISMANTLE,
    HOP,
    HOP_ID,
    IS_RAM,
    JUMP,
    JUMPED,
    JUMPS_FROM,
    KIND,
    KIND_WORDS,
    NEIGHBOURS4,
    NEIGHBOURS8,
    NO_TOP,
    NUM_ACTIONS,
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
    SQUARE_OF,
    STEP,
    STEPS_FROM,
    STOP,
    STOP_ID,
    TARGET,
    TEAM_OF,
    TERRITORIES,
    TERRITORY_OWNER,
    TOP,
    TRANSFER,
    TRANSFER_ID,
    unit_code,
)

PLAYER_NAMES = ("White (top)", "Black (right)", "White (bottom)", "Black (left)")
#: Per player, by unit code: does the player control the unit?
_CONTROLLED_BY = tuple(tuple(c != 0 and CONTROLLER[c] == a for c in range(81)) for a in range(4))
#: Per actor, by unit code: may a single piece step there (empty, or an allied single: 3.1)?
_STEPPABLE = tuple(tuple(c == 0 or (CONTROLLER[c] == a ^ 2 and not IS_RAM[c]) for c in range(81)) for a in range(4))
#: Per actor, by unit code: may a chain's first jump go over it (any unit but an enemy Ram: 3.2)?
_FIRST_JUMPABLE = tuple(tuple(c != 0 and (TEAM_OF[c] == a & 1 or not IS_RAM[c]) for c in range(81)) for a in range(4))
TEAM_NAMES = ("White", "Black")
TEAMS = ((0, 2), (1, 3))
#: Kinds of jump in a chain (3.2).
FRIENDLY, HOSTILE = 1, 2

GAME_INFO = GameInfo(
    name="capitals",
    title="Capitals",
    summary="Two against two on an 8x8 diamond: chain jumps, Rams, Cages and Altars, a Hunger Epoch "
    "every fourth cycle; capture both enemy Capitals or clear the board of the other team.",
    players=(4,),
    information="perfect",
    utility="team",
    multi_action_moves=True,
    max_actions=20_000,
    player_names=PLAYER_NAMES,
    rules_version=1,  # raise it whenever the engine's behaviour changes (tabletop_lab.versions)
)


@register_game
class CapitalsGame(Game):
    info = GAME_INFO
    harness_games = 12  # random games take about 180 actions of four players
    option_specs = (
        Option(
            "eliminated_slot",
            "ally",
            "who plays an eliminated player's slot: the ally, or nobody",
            choices=("ally", "skip"),
        ),
        Option(
            "dismantle_top",
            "revert",
            "a dismantled top piece goes back to its owner's control, or stays with the Ram's controller",
            choices=("revert", "keep"),
        ),
        Option(
            "capture_removal",
            "end_of_chain",
            "captured pieces leave the board when the chain ends, or as they are jumped",
            choices=("end_of_chain", "immediate"),
        ),
        Option("chain_end_on_start", False, "a chain may end on its starting square", choices=(False, True)),
        Option(
            "ram_attack_after",
            "any",
            "the jumps a Ram attack may follow: any, or friendly ones only",
            choices=("any", "friendly"),
        ),
        Option("ram_jump", "single", "a Ram may make one jump, or none", choices=("single", "none")),
        Option("synergy_adjacency", 8, "Synergy counts 8 or only the 4 orthogonal neighbours", choices=(8, 4)),
        Option(
            "transfers_per_turn",
            1,
            "most Cage transfers per turn",
            check=non_negative_int,
            allowed="an integer >= 0",
        ),
        Option(
            "pass_turn_cost",
            "altar",
            "the Cage piece paid for a pass-turn goes to the Altar, or leaves the game",
            choices=("altar", "removed"),
        ),
        Option("pass_turn_chain", False, "an extra turn may itself be passed on", choices=(False, True)),
        Option(
            "capital_entry",
            "any_landing",
            "a chain enters a Capital on any landing, or only on its final square",
            choices=("any_landing", "final_square"),
        ),
        Option(
            "elimination_is_attack", True, "eliminating a player counts as attacking (Hunger)", choices=(True, False)
        ),
        Option("sacrifice_from_ram", False, "a Hunger sacrifice may take a Ram's top piece", choices=(False, True)),
        Option(
            "prisoner_placement",
            "choose",
            "released prisoners are placed by the actor, or on fixed squares",
            choices=("choose", "fixed"),
        ),
        Option(
            "altar_scoring",
            "each_team",
            "Altar points count for both teams, or for the winners only",
            choices=("each_team", "winner_only"),
        ),
        Option(
            "max_cycles",
            200,
            "the game is a draw after this many cycles (null: no cap)",
            check=positive_int_or_none,
            allowed="an integer >= 1, or null",
        ),
    )

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def team_points(self, team: int, scores: list[float]) -> float:
        """Every player's score is already their team's game points (5.4)."""
        return scores[TEAMS[team][0]]

    @classmethod
    def harness_configs(cls) -> list[dict[str, Any]]:
        """The defaults, every option changed at once, and a mix of the other values (2^16 is too many)."""
        return [
            {},
            {
                "eliminated_slot": "skip",
                "dismantle_top": "keep",
                "capture_removal": "immediate",
                "chain_end_on_start": True,
                "ram_attack_after": "friendly",
                "ram_jump": "none",
                "synergy_adjacency": 4,
                "transfers_per_turn": 2,
                "pass_turn_cost": "removed",
                "pass_turn_chain": True,
                "capital_entry": "final_square",
                "elimination_is_attack": False,
                "sacrifice_from_ram": True,
                "prisoner_placement": "fixed",
                "altar_scoring": "winner_only",
                "max_cycles": 15,
            },
            {"pass_turn_cost": "removed", "elimination_is_attack": False, "sacrifice_from_ram": True, "max_cycles": 15},
        ]

    def new_initial_state(self) -> CapitalsState:
        board = [0] * 64
        for player, squares in enumerate(TERRITORIES):
            for square in squares:
                board[square] = unit_code(player, player)
        return CapitalsState(self, board)

    def state_from_dict(self, data: Any) -> CapitalsState:
        """Read and check a position (spec 8); raises ``PositionError`` naming the problem."""
        from .position import read_position

        state = read_position(self, data)
        state._start = state.to_dict()
        return state


class Chain:
    """A jump chain in progress: where it started and stands, what it jumped and captured."""

    __slots__ = ("start", "at", "kind", "jumped", "landings", "captures")

    def __init__(self, start: int, at: int, kind: int):
        self.start = start
        self.at = at
        self.kind = kind  # FRIENDLY or HOSTILE, fixed by the first jump
        self.jumped: list[int] = []  # squares of the units jumped, in order
        self.landings: list[int] = []
        self.captures: list[tuple[int, bool, int]] = []  # (square, Ram attack?, owner captured)

    def copy(self) -> Chain:
        new = Chain(self.start, self.at, self.kind)
        new.jumped = list(self.jumped)
        new.landings = list(self.landings)
        new.captures = list(self.captures)
        return new


class CapitalsState(State):
    """A Capitals position, plus the turn in progress (a chain, or a pass-turn's sacrifice).

    Fields follow the position JSON: ``board`` (64 unit codes), ``cycle``, ``slot``, ``actor``,
    ``extra_turn``, ``transfers``, ``pending_sacrifice``, ``releases`` (``[owner, territory]``
    pairs), ``altar_filled``, ``eliminated``, ``cages``, ``altars``, ``removed``.
    ``last_move`` describes the latest main action for display.
    """

    _hold_chain = False  # set on a probe copy to keep a finished chain open for error messages

    def __init__(self, game: CapitalsGame, board: list[int]):
        super().__init__(game)
        options = game.options
        self._cap = options["max_cycles"]
        self._immediate = options["capture_removal"] == "immediate"
        self._end_on_start = options["chain_end_on_start"]
        self._neighbours = NEIGHBOURS8 if options["synergy_adjacency"] == 8 else NEIGHBOURS4
        self.board = board
        self.cycle = 1
        self.slot = 0
        self.actor = 0
        self.extra_turn = False
        self.transfers = 0
        self.pending_sacrifice = False
        self.releases: list[tuple[int, int]] = []
        self.altar_filled = [False] * 4
        self.eliminated = [False] * 4
        self.cages: list[list[int]] = [[], [], [], []]
        self.altars: list[list[int]] = [[], [], [], []]
        self.removed = [0, 0, 0, 0]
        self.chain: Chain | None = None
        self.pass_pending = False  # a pass-turn waits for the actor's sacrifice (mid-turn)
        self._last: tuple | None = None  # (player, kind, squares[, sacrificed square]) of the latest move
        self._outcome: tuple[tuple[int, ...], str, bool] | None = None
        self._legal: list[int] | None = None

    # --- derived facts ------------------------------------------------------------------------

    @property
    def last_move(self) -> dict | None:
        """The latest main action, for displays: who, its string, the squares it went through and
        the square of a sacrifice chosen after it; ``None`` before any (or after a loaded position)."""
        if self._last is None:
            return None
        player, kind, path = self._last[:3]
        names = [SQUARE_NAMES[s] for s in path]
        return {
            "player": player,
            "move": " ".join([KIND_WORDS[kind], *names]),
            "path": names,
            "sacrifice": SQUARE_NAMES[self._last[3]] if len(self._last) > 3 else None,
        }

    @property
    def is_hunger_cycle(self) -> bool:
        """Every fourth cycle (4, 8, 12, ...) is a Hunger cycle (section 2)."""
        return self.cycle % 4 == 0

    def has_synergy(self) -> bool:
        """The actor's ally is in play and one of the actor's units touches one of the ally's (4.1)."""
        actor, ally = self.actor, self.actor ^ 2
        if self.eliminated[ally]:
            return False
        board, neighbours = self.board, self._neighbours
        for square in range(64):
            code = board[square]
            if code and CONTROLLER[code] == actor:
                for n in neighbours[square]:
                    other = board[n]
                    if other and CONTROLLER[other] == ally:
                        return True
        return False

    def game_points(self) -> list[int]:
        """Each team's game points as things stand (5.4), indexed by team (0 White, 1 Black)."""
        result = self._outcome
        winner = -1
        if result is not None and len(result[0]) == 2:
            winner = result[0][0] & 1
        each_team = self.game.options["altar_scoring"] == "each_team"
        points = [0, 0]
        for team in (0, 1):
            for player in TEAMS[team]:
                if team == winner:
                    points[team] += 2 * sum(1 for o in self.cages[player] if o & 1 != team)
                if each_team or team == winner:
                    points[team] += sum(1 if o & 1 != team else -1 for o in self.altars[player])
        return points

    # --- rules hooks ----------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._outcome is not None else self.actor

    def is_terminal(self) -> bool:
        return self._outcome is not None

    def mid_turn(self) -> bool:
        return self.chain is not None or self.pass_pending

    def result(self) -> Result | None:
        if self._outcome is None:
            return None
        winners, reason, capped = self._outcome
        return Result(winners, tuple(self.scores()), reason, capped)

    def scores(self) -> list[int]:
        """Each player's team game points (5.4); the Cage term only counts once a team has won."""
        points = self.game_points()
        return [points[p & 1] for p in range(4)]

    def evaluate(self) -> list[float]:
        """Material on the board and in Cages, Capital safety, and the Altar balance, for White.

        Teammates share the value; Black gets its negation. ``returns()`` at the end.
        """
        if self._outcome is not None:
            return self.returns()
        from .evaluation import white_value

        value = white_value(self)
        return [value, -value, value, -value]

    def _legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _illegal_reason(self, action: int) -> str | None:
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise ActionSyntaxError(f"capitals: {excerpt(action)} is no action; actions are 0..{NUM_ACTIONS - 1}")
        if self._outcome is not None:
            return "the game is over"
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action in legal:
            return None
        from .explain import illegal_reason

        return illegal_reason(self, action)

    def _apply(self, action: int) -> None:
        self._legal = None
        kind = KIND[action]
        if kind == HOP:
            self._hop(TARGET[action])
        elif kind == STOP:
            self._end_chain()
        elif kind == STEP:
            self._step(SOURCE[action], TARGET[action])
        elif kind == JUMP:
            self._jump(SOURCE[action], TARGET[action])
        elif kind == DISMANTLE:
            self._dismantle(SOURCE[action], TARGET[action])
        elif kind == TRANSFER:
            self.transfers += 1
            self.cages[self.actor ^ 2].append(self.cages[self.actor].pop(0))
        elif kind == PASS_TURN:
            self._pass_turn()
        elif kind == SKIP:
            self._last = (self.actor, SKIP, ())
            self._resolve([], [], passed=False)
        elif kind == SACRIFICE:
            self._sacrifice(TARGET[action])
        else:
            self._release(TARGET[action])

    def _copy_into(self, new: CapitalsState) -> None:
        new.board = list(self.board)
        new.releases = list(self.releases)
        new.altar_filled = list(self.altar_filled)
        new.eliminated = list(self.eliminated)
        new.cages = [list(c) for c in self.cages]
        new.altars = [list(a) for a in self.altars]
        new.removed = list(self.removed)
        if self.chain is not None:
            new.chain = self.chain.copy()

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise ActionSyntaxError(f"capitals: {excerpt(action)} is no action; actions are 0..{NUM_ACTIONS - 1}")
        return ACTION_STRINGS[action]

    def string_to_action(self, text: str) -> int:
        action = ACTION_OF.get(text) if isinstance(text, str) else None
        if action is None:
            from .explain import syntax_problem

            raise ActionSyntaxError(f"capitals: {excerpt(text)} is not an action: {syntax_problem(text)}")
        return action

    # --- whole moves (9, 9a) ------------------------------------------------------------------

    def legal_moves(self, limit: int | None = MOVE_LIMIT) -> list[str]:
        """Every legal whole move as its canonical string, in Python string order (9).

        A chain is one move, ``jump <from> <landing>...``, for each way of ending it; a pass-turn
        that must be followed by a chosen sacrifice is ``pass-turn sacrifice <square>``.
        """
        return sorted(super().legal_moves(limit))

    def _move_actions(self, text: str) -> list[int]:
        """The actions that play the whole move ``text`` from here (9a), checked on a copy."""
        if not isinstance(text, str):
            raise ActionSyntaxError(f"capitals: a move is a string such as 'jump b2 d4 f6', got {excerpt(text)}")
        words = text.split(" ")
        if words[0] == "jump" and len(words) > 3:
            for w in words[1:]:
                if w not in SQUARE_OF:
                    raise ActionSyntaxError(f"capitals: {excerpt(text)}: {excerpt(w)} is not a square a1..h8")
            squares = [SQUARE_OF[w] for w in words[1:]]
            for a, b in zip(squares[1:], squares[2:]):
                if JUMPED[64 * a + b] < 0:
                    raise ActionSyntaxError(
                        f"capitals: {excerpt(text)}: {SQUARE_NAMES[b]} is not two squares from {SQUARE_NAMES[a]} "
                        "in a straight line, so no jump lands there"
                    )
            actions = [self.string_to_action(" ".join(words[:3]))] + [HOP_ID[s] for s in squares[2:]]
        elif words[0] == "pass-turn" and len(words) > 1:
            actions = [PASS_TURN_ID, self.string_to_action(" ".join(words[1:]))]
        else:
            actions = [self.string_to_action(text)]
        trial = self.clone()
        for done, action in enumerate(actions):
            if KIND[action] == HOP and not trial.mid_turn():
                reason = self._why_chain_stopped(actions[:done], action)
                raise IllegalActionError(f"capitals: {excerpt(text)} is illegal: {reason}")
            trial.apply_action(action)
        if trial.chain is not None:
            reason = trial._illegal_reason(STOP_ID)
            if reason is not None:
                raise IllegalActionError(f"capitals: {excerpt(text)} is illegal: {reason}")
            actions.append(STOP_ID)
        elif trial.mid_turn():
            raise IllegalActionError(
                f"capitals: {excerpt(text)} is incomplete: the pass-turn's sacrifice must be named"
            )
        return actions

    def _why_chain_stopped(self, played: list[int], hop: int) -> str:
        """Why ``hop`` cannot follow ``played``, a chain that ended by itself."""
        if IS_RAM[self.board[SOURCE[played[0]]]]:
            return "a Ram makes one jump, never a chain (rule 3.3)"
        probe = self.clone()
        probe._hold_chain = True
        for action in played:
            probe._apply(action)
        if probe.chain is None:
            return "the chain ends immediately after a Ram attack (rule 3.2, constraint 2)"
        from .explain import illegal_reason

        return illegal_reason(probe, hop)

    def _move_string(self, actions: list[int]) -> str:
        """The canonical string of the whole move made of ``actions`` from this position."""
        words = []
        for action in actions:
            kind = KIND[action]
            if kind == HOP:
                words.append(SQUARE_NAMES[TARGET[action]])
            elif kind != STOP:
                words.append(ACTION_STRINGS[action])
        return " ".join(words)

    # --- positions --------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        if self.mid_turn():
            raise PositionError("capitals: turn in progress (a chain or a pass-turn's sacrifice); no position yet")
        return self._position_dict()

    def _position_dict(self) -> dict:
        board = self.board
        pieces = []
        for square in range(64):
            code = board[square]
            if code:
                top = TOP[code]
                pieces.append([SQUARE_NAMES[square], OWNER[code], CONTROLLER[code], None if top == NO_TOP else top])
        return {
            "game": "capitals",
            "cycle": self.cycle,
            "slot": self.slot,
            "actor": self.actor,
            "extra_turn": self.extra_turn,
            "transfers": self.transfers,
            "pending_sacrifice": self.pending_sacrifice,
            "releases": [list(r) for r in self.releases],
            "altar_filled": list(self.altar_filled),
            "eliminated": list(self.eliminated),
            "pieces": pieces,
            "cages": [list(c) for c in self.cages],
            "altars": [list(a) for a in self.altars],
            "removed": list(self.removed),
        }

    def _progress_dict(self) -> dict:
        """The position as it stands mid-turn, with the chain so far (for displays)."""
        data = self._position_dict()
        chain = self.chain
        data["turn_in_progress"] = {
            "player": self.actor,
            "move_so_far": self.move_in_progress(),
            "chain": None
            if chain is None
            else {
                "start": SQUARE_NAMES[chain.start],
                "at": SQUARE_NAMES[chain.at],
                "landings": [SQUARE_NAMES[s] for s in chain.landings],
                "jumped": [SQUARE_NAMES[s] for s in chain.jumped],
            },
            "pass_turn_sacrifice": self.pass_pending,
        }
        return data

    def _key(self) -> tuple:
        chain = self.chain
        progress = None
        if chain is not None:
            progress = (chain.start, chain.at, chain.kind, tuple(chain.jumped), tuple(chain.landings))
        return (
            tuple(self.board),
            self.cycle,
            self.slot,
            self.actor,
            self.extra_turn,
            self.transfers,
            self.pending_sacrifice,
            tuple(self.releases),
            tuple(self.altar_filled),
            tuple(self.eliminated),
            tuple(map(tuple, self.cages)),
            tuple(map(tuple, self.altars)),
            tuple(self.removed),
            progress,
            self.pass_pending,
        )

    # --- legal actions ----------------------------------------------------------------------------

    def _generate(self) -> list[int]:
        if self.releases:
            territory = TERRITORIES[self.releases[0][1]]
            return sorted(RELEASE_ID[s] for s in territory if not self.board[s])
        if self.pending_sacrifice:
            return sorted(SACRIFICE_ID[s] for s in self._sacrificeable())
        if self.chain is not None:
            actions = [HOP_ID[land] for land in self._hops(self.chain, self.board)]
            if self._can_stop(self.chain):
                actions.append(STOP_ID)
            return sorted(actions)
        actions = self._main_actions()
        if not actions:
            actions.append(SKIP_ID)
        if self.cages[self.actor]:
            options = self.game.options
            can_transfer = self.transfers < options["transfers_per_turn"]
            can_pass = not self.extra_turn or options["pass_turn_chain"]
            if (can_transfer or can_pass) and self.has_synergy():
                if can_transfer:
                    actions.append(TRANSFER_ID)
                if can_pass:
                    actions.append(PASS_TURN_ID)
        actions.sort()
        return actions

    def _main_actions(self) -> list[int]:
        """Steps, first jumps and dismantles of the actor's units (3.1-3.4), unsorted."""
        board, actor = self.board, self.actor
        steppable, jumpable = _STEPPABLE[actor], _FIRST_JUMPABLE[actor]
        ram_jumps = self.game.options["ram_jump"] == "single"
        actions: list[int] = []
        own = _CONTROLLED_BY[actor]
        for square in [s for s, code in enumerate(board) if own[code]]:
            if IS_RAM[board[square]]:
                for n, step, dismantle in STEPS_FROM[square]:
                    if not board[n]:
                        actions += (step, dismantle)
                if ram_jumps:
                    actions += [jump for over, land, jump in JUMPS_FROM[square] if board[over] and not board[land]]
            else:
                actions += [step for n, step, _ in STEPS_FROM[square] if steppable[board[n]]]
                actions += [
                    jump for over, land, jump in JUMPS_FROM[square] if jumpable[board[over]] and not board[land]
                ]
        return actions

    def _hops(self, chain: Chain, board: list[int], check_dead_ends: bool = True) -> list[int]:
        """Landing squares of the legal next jumps of ``chain`` (3.2), with no dead ends (9a)."""
        team = self.actor & 1
        friendly_only = self.game.options["ram_attack_after"] == "friendly"
        landings = []
        for over, land, _ in JUMPS_FROM[chain.at]:
            other = board[over]
            if not other or board[land] or over in chain.jumped:
                continue
            if TEAM_OF[other] == team:
                if chain.kind != FRIENDLY:
                    continue
            elif IS_RAM[other]:
                if friendly_only and chain.kind != FRIENDLY:
                    continue
            elif chain.kind != HOSTILE:
                continue
            if land == chain.start and check_dead_ends and not self._end_on_start:
                if (IS_RAM[other] and TEAM_OF[other] != team) or not self._continues_from_start(chain, board, over):
                    continue  # the chain would be stuck on its starting square
            landings.append(land)
        return landings

    def _continues_from_start(self, chain: Chain, board: list[int], over: int) -> bool:
        """After jumping ``over`` back onto the start square, is there a way on (9a, no dead ends)?"""
        trial_board = list(board)
        trial_board[chain.start], trial_board[chain.at] = trial_board[chain.at], 0
        if self._immediate and chain.kind == HOSTILE and TEAM_OF[board[over]] != self.actor & 1:
            trial_board[over] = 0
        trial = chain.copy()
        trial.jumped.append(over)
        trial.at = chain.start
        return bool(self._hops(trial, trial_board, check_dead_ends=False))

    def _can_stop(self, chain: Chain) -> bool:
        return chain.at != chain.start or self._end_on_start

    def _sacrificeable(self) -> list[int]:
        """Squares of the actor's single pieces (and Rams, with ``sacrifice_from_ram``) (5.2)."""
        board, actor = self.board, self.actor
        rams = self.game.options["sacrifice_from_ram"]
        return [s for s in range(64) if board[s] and CONTROLLER[board[s]] == actor and (rams or not IS_RAM[board[s]])]

    # --- main actions -------------------------------------------------------------------------------

    def _step(self, origin: int, target: int) -> None:
        board = self.board
        code, other = board[origin], board[target]
        board[origin] = 0
        if other:  # onto an allied single: a Ram, controlled by the bottom piece's controller (3.1)
            code = unit_code(OWNER[other], CONTROLLER[other], OWNER[code])
        board[target] = code
        self._last = (self.actor, STEP, (origin, target))
        if CAPITAL_OWNER[target] < 0 and self.cycle % 4:  # the common case: nothing to resolve
            self._advance(False)
        else:
            self._resolve([], self._entered([target], CONTROLLER[code]), passed=False)

    def _dismantle(self, ram: int, target: int) -> None:
        board = self.board
        code = board[ram]
        top = TOP[code]
        if self.game.options["dismantle_top"] == "keep":
            controller = CONTROLLER[code]
        else:
            controller = top if not self.eliminated[top] else top ^ 2
        board[ram] = BOTTOM[code]
        board[target] = unit_code(top, controller)
        self._last = (self.actor, DISMANTLE, (ram, target))
        self._resolve([], self._entered([target], controller), passed=False)

    def _jump(self, origin: int, landing: int) -> None:
        board = self.board
        code = board[origin]
        over = JUMPED[64 * origin + landing]
        other = board[over]
        friendly = TEAM_OF[other] == self.actor & 1
        if IS_RAM[code]:  # a Ram's single jump (3.3)
            captured = []
            if not friendly:
                captured = [TOP[other], OWNER[other]] if IS_RAM[other] else [OWNER[other]]
                board[over] = 0
            board[origin], board[landing] = 0, code
            self._last = (self.actor, JUMP, (origin, landing))
            self._resolve(captured, self._entered([landing], self.actor), passed=False)
            return
        self.chain = Chain(origin, origin, FRIENDLY if friendly else HOSTILE)
        self._leap(self.chain, over, landing)

    def _hop(self, landing: int) -> None:
        chain = self.chain
        self._leap(chain, JUMPED[64 * chain.at + landing], landing)

    def _leap(self, chain: Chain, over: int, landing: int) -> None:
        """Move the chain's piece over ``over`` onto ``landing``; end the chain if it cannot go on."""
        board = self.board
        other = board[over]
        board[landing], board[chain.at] = board[chain.at], 0
        chain.at = landing
        chain.landings.append(landing)
        chain.jumped.append(over)
        if TEAM_OF[other] != self.actor & 1:
            ram_attack = IS_RAM[other]
            chain.captures.append((over, ram_attack, TOP[other] if ram_attack else OWNER[other]))
            if self._immediate:
                board[over] = BOTTOM[other] if ram_attack else 0
            if ram_attack:  # a Ram attack ends the chain (3.2, rule 2)
                self._end_chain()
                return
        if not self._hold_chain and not self._hops(chain, board):
            self._end_chain()

    def _end_chain(self) -> None:
        chain, board = self.chain, self.board
        self.chain = None
        if not self._immediate:  # captured pieces leave together at the end (3.2, rule 4)
            for square, ram_attack, _ in chain.captures:
                board[square] = BOTTOM[board[square]] if ram_attack else 0
        captured = [owner for _, _, owner in chain.captures]
        self._last = (self.actor, JUMP, (chain.start, *chain.landings))
        if self.game.options["capital_entry"] == "final_square":
            entered = self._entered([chain.at], self.actor)
        else:
            entered = self._entered(chain.landings, self.actor)
        self._resolve(captured, entered, passed=False)

    def _pass_turn(self) -> None:
        piece = self.cages[self.actor].pop(0)
        if self.game.options["pass_turn_cost"] == "altar":
            self.altars[self.actor].append(piece)
            self.altar_filled[self.actor] = True
        else:
            self.removed[piece] += 1
        self._last = (self.actor, PASS_TURN, ())
        self._resolve([], [], passed=True)

    # --- resolution (section 2, step 3) -----------------------------------------------------------

    def _entered(self, squares: list[int], controller: int) -> list[int]:
        """Players whose Capital a unit of ``controller`` arrived on, in order (5.1)."""
        entered = []
        team = controller & 1
        for square in squares:
            player = CAPITAL_OWNER[square]
            if player >= 0 and player & 1 != team and not self.eliminated[player] and player not in entered:
                entered.append(player)
        return entered

    def _resolve(self, captured: list[int], entered: list[int], passed: bool) -> None:
        actor = self.actor
        if captured:
            if self.cycle % 4 == 0:
                self.altars[actor].extend(captured)
                self.altar_filled[actor] = True
            else:
                self.cages[actor].extend(captured)
        attacking = bool(captured)
        queue: list[tuple[int, int]] = []
        if entered:
            for player in entered:
                self.eliminated[player] = True
            for player in entered:
                self._eliminate(player)
                queue.extend((owner, player) for owner in self.cages[player])
                self.cages[player] = []
            attacking = attacking or self.game.options["elimination_is_attack"]
        if (captured or entered) and self._check_end():
            for owner, _ in queue:
                self.removed[owner] += 1
            return
        if queue:
            self.releases = queue
            if self.game.options["prisoner_placement"] == "fixed":
                while self.releases:
                    owner, territory = self.releases[0]
                    free = [s for s in RELEASE_ORDER[territory] if not self.board[s]]
                    if free:
                        self._place(free[0])
                    else:
                        self.removed[owner] += 1
                        self.releases.pop(0)
            else:
                self._drop_unplaceable()
                if self.releases:
                    return
        self._after_releases(attacking, passed)

    def _eliminate(self, player: int) -> None:
        """Clear ``player``'s Territory of their units; hand the rest to the ally (5.1, steps 1-2)."""
        board, ally = self.board, player ^ 2
        for square in range(64):
            code = board[square]
            if code and CONTROLLER[code] == player:
                if TERRITORY_OWNER[square] == player:
                    self.removed[OWNER[code]] += 1
                    if IS_RAM[code]:
                        self.removed[TOP[code]] += 1
                    board[square] = 0
                elif not self.eliminated[ally]:
                    board[square] = unit_code(OWNER[code], ally, TOP[code])

    def _drop_unplaceable(self) -> None:
        """Queued prisoners whose Territory is full leave the game (5.1, step 3)."""
        board = self.board
        while self.releases:
            owner, territory = self.releases[0]
            if any(not board[s] for s in TERRITORIES[territory]):
                return
            self.removed[owner] += 1
            self.releases.pop(0)

    def _place(self, square: int) -> None:
        owner, _ = self.releases.pop(0)
        controller = owner if not self.eliminated[owner] else owner ^ 2
        self.board[square] = unit_code(owner, controller)

    def _release(self, square: int) -> None:
        self._place(square)
        self._drop_unplaceable()
        if not self.releases:
            self._after_releases(self.game.options["elimination_is_attack"], passed=False)

    def _after_releases(self, attacking: bool, passed: bool) -> None:
        """The Hunger sacrifice (5.2), the second win check, then the next turn (section 2, step 4)."""
        actor = self.actor
        if self.cycle % 4 == 0 and not attacking and not self.altar_filled[actor]:
            cage = self.cages[actor]
            if cage:
                self.altars[actor].append(cage.pop(0))
                self.altar_filled[actor] = True
            elif self._sacrificeable():
                self.pending_sacrifice = True
                self.pass_pending = passed
                return
        self._advance(passed)  # nothing left the board since the win check (5.3)

    def _sacrifice(self, square: int) -> None:
        code = self.board[square]
        if IS_RAM[code]:
            self.altars[self.actor].append(TOP[code])
            self.board[square] = BOTTOM[code]
        else:
            self.altars[self.actor].append(OWNER[code])
            self.board[square] = 0
        self.altar_filled[self.actor] = True
        self.pending_sacrifice = False
        passed, self.pass_pending = self.pass_pending, False
        if self._last is not None:
            self._last = (*self._last[:3], square)
        if not self._check_end():
            self._advance(passed)

    def _advance(self, passed: bool) -> None:
        """The next turn: the ally's extra turn after a pass-turn, else the next slot (section 2)."""
        self.transfers = 0
        if passed:
            self.actor ^= 2
            self.extra_turn = True
            return
        self.extra_turn = False
        skip = self.game.options["eliminated_slot"] == "skip"
        while True:
            self.slot += 1
            if self.slot == 4:
                self.slot = 0
                self.cycle += 1
                self.altar_filled = [False] * 4
                if self._cap is not None and self.cycle > self._cap:
                    self.actor = self._slot_actor(0)
                    self._outcome = ((0, 1, 2, 3), "cap", True)
                    return
            if not self.eliminated[self.slot]:
                self.actor = self.slot
                return
            if not skip:
                self.actor = self.slot ^ 2
                return

    def _slot_actor(self, slot: int) -> int:
        """Who plays ``slot`` without an extra turn: the seat, or its ally under ``"ally"``."""
        if self.eliminated[slot] and self.game.options["eliminated_slot"] == "ally":
            return slot ^ 2
        return slot

    def _check_end(self) -> bool:
        """Set the outcome if a team has won (5.3); True when the game is over."""
        self._outcome = self._winning_outcome()
        return self._outcome is not None

    def _winning_outcome(self) -> tuple[tuple[int, ...], str, bool] | None:
        present = [False, False]
        for code in self.board:
            if code:
                present[TEAM_OF[code]] = True
        eliminated = self.eliminated
        capitals = [eliminated[1] and eliminated[3], eliminated[0] and eliminated[2]]
        wins = [capitals[0] or not present[1], capitals[1] or not present[0]]
        if not (wins[0] or wins[1]):
            return None
        team = self.actor & 1 if wins[0] and wins[1] else (0 if wins[0] else 1)
        return TEAMS[team], "capitals" if capitals[team] else "no_pieces", False

    def _refresh_outcome(self) -> None:
        """The outcome of a loaded position: a win, the cap, or nothing."""
        self._outcome = self._winning_outcome()
        if self._outcome is None and self._cap is not None and self.cycle > self._cap:
            self._outcome = ((0, 1, 2, 3), "cap", True)
