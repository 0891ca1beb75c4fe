"""Capitals: the four-player, two-against-two game of chain jumps, Rams, Cages, Altars and Hunger.

The rules are ``docs/rules/capitals.md``; section numbers below refer to it. Seats 0..3 sit at
the top, right, bottom and left corners of the diamond; teams are White {0, 2} and Black {1, 3}.
A turn is a few atomic actions (9a): optional ``transfer``s, one main action (``step``,
``jump``, ``dismantle``, ``pass-turn`` or ``skip``), then the ``release`` and ``sacrifice``
choices the resolution may ask for. A jump chain is played one landing per action (``jump <from>
<landing>``, then ``hop <landing>``..., then ``stop`` unless it can go no further); during it
``mid_turn()`` is True and the state is not a position. As a whole move the chain is one string,
``jump <from> <landing> <landing>...`` (``legal_moves()``, ``apply_move``).

Board geometry, unit codes and the action numbering live in ``geometry``; the turn's rules (legal
actions, what each does, the resolution) in ``turn``; reading and checking the position JSON in
``position``; why an action is illegal, in words, in ``explain``; the heuristic value in
``evaluation``. This module imports them all; none of them imports it.
"""

from __future__ import annotations

import math
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
from .evaluation import white_value
from .explain import illegal_reason, syntax_problem
from .geometry import (
    ACTION_OF,
    ACTION_STRINGS,
    CONTROLLER,
    DISMANTLE,
    HOP,
    HOP_ID,
    IS_RAM,
    JUMP,
    JUMPED,
    KIND,
    KIND_WORDS,
    NEIGHBOURS4,
    NEIGHBOURS8,
    NO_TOP,
    NUM_ACTIONS,
    OWNER,
    PASS_TURN,
    PASS_TURN_ID,
    PLAYER_NAMES,
    SACRIFICE,
    SKIP,
    SOURCE,
    SQUARE_NAMES,
    SQUARE_OF,
    STEP,
    STOP,
    STOP_ID,
    TARGET,
    TEAMS,
    TERRITORIES,
    TOP,
    TRANSFER,
    unit_code,
)
from .position import read_position
from .turn import CapitalsTurn, Chain, in_hunger

GAME_INFO = GameInfo(
    name="capitals",
    menu_rank=5,
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
            "hunger_first",
            "white",
            "who opens each Hunger Epoch, and so pays first: White always, or White and Black in turn",
            choices=("white", "alternate"),
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
        """The defaults, every option changed at once, and a mix of the other values (2^17 is too many)."""
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
                "hunger_first": "alternate",
                "max_cycles": 15,
            },
            {"pass_turn_cost": "removed", "elimination_is_attack": False, "sacrifice_from_ram": True, "max_cycles": 15},
            {"hunger_first": "alternate", "pass_turn_chain": True, "max_cycles": 30},
        ]

    @property
    def num_sites(self) -> int:
        return 64  # the squares a1..h8

    def state_space_log10(self) -> float:
        """A bound on the positions (the cycle's number aside but for its place in the Hunger
        count: beyond that only the cap reads it). Each square empty, a single piece (owner and
        controller) or a Ram (and its top's owner): ``1 + 16 + 64``. The Cages and Altars (an
        owner each entry) and the releases (an owner and a Territory) as nine lists of at most
        36 entries in all, each entry one of 16: ``sum(C(n + 8, 8) * 16**n for n in 0..36)``.
        Then the pieces removed per owner (0-9), the cycle modulo 4, slot, actor, extra turn,
        transfers made (0 to ``transfers_per_turn``), a sacrifice pending, Altars filled and
        players eliminated."""
        lists = sum(math.comb(n + 8, 8) * 16**n for n in range(37))
        turn = 4 * 4 * 4 * 2 * (self.options["transfers_per_turn"] + 1) * 2 * 2**4 * 2**4
        return 64 * math.log10(1 + 16 + 64) + math.log10(lists) + 4 + math.log10(turn)

    def new_initial_state(self) -> CapitalsState:
        board = [0] * 64
        for player, squares in enumerate(TERRITORIES):
            for square in squares:
                board[square] = unit_code(player, player)
        return CapitalsState(self, board)

    def state_from_dict(self, data: Any) -> CapitalsState:
        """Read and check a position (spec 8); raises ``PositionError`` naming the problem."""
        state = read_position(self, data, CapitalsState)
        state._start = state.to_dict()
        return state


class CapitalsState(CapitalsTurn, State):
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
        """Is the slot being played inside a Hunger Epoch: by default every fourth cycle (4, 8, 12,
        ...); with ``hunger_first = "alternate"`` the Epochs of cycles 8, 16, ... start one slot
        later (section 2)."""
        return in_hunger(self.cycle, self.slot, self.game.options["hunger_first"])

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

    def occupied_sites(self) -> int:
        return sum(1 << square for square, unit in enumerate(self.board) if unit)

    def key(self) -> tuple:
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
