"""The game API shared by every game: games and states (options, ``GameInfo`` and ``Result`` live in
``gameinfo`` and are re-exported here).

The names follow OpenSpiel (``load_game``, ``new_initial_state``, ``current_player``,
``legal_actions``, ``apply_action``, ``child``, ``clone``, ``is_terminal``, ``returns``) so that
an adapter could register our games there. Two levels of play exist side by side:

* **actions** are the atomic decisions, small context-free integers (``legal_actions()``,
  ``apply_action(a)``); agents and widgets use them, and ``action_to_string`` gives the
  canonical string of each;
* **moves** are whole turns as canonical strings (``legal_moves()``, ``apply_move(text)``);
  people, notation and tests use them. In games whose turns are a single decision the two
  coincide; Sygo growth and Capitals jump chains take several actions per move.

A **move** leads from one position to the next. In games that declare
``GameInfo.multi_action_moves`` a move may take several actions; between them ``mid_turn()``
holds and the state is not a position (``to_dict()`` refuses it) but the engine's view of the
turn in progress (``snapshot()``) is. "Not a position" is a different thing from "the same
player moves again": a player may make several moves in a row (Capitals' transfers before a
step, Sinomilia's start player setting a card and then playing), each ending on a position.

This module imports only the standard library, so ``import tabletop_lab`` stays light. The
registry (``load_game``, ``register_game``, ``list_games``) lives in ``registry.py``; what a game
brings beside its rules (renderer, board adapter, kernel, agents) is found by ``Game.part``, so
nothing here imports a layer above.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import io
import json
from collections.abc import Hashable, Iterable, Iterator
from typing import Any, ClassVar

from .errors import ActionSyntaxError, EnumerationLimitError, IllegalActionError, PositionError, RulesError, excerpt
from .gameinfo import (  # noqa: F401 (re-exported: the game API is one import)
    MAX_COUNT,
    GameInfo,
    GameType,
    Option,
    Result,
    non_negative_int,
    positive_int,
    positive_int_or_none,
    same_value,
)
from .parsing import check_json_shape, read_json

__all__ = [
    "TERMINAL",
    "Option",
    "GameInfo",
    "GameType",
    "Result",
    "Game",
    "State",
    "canonical_json",
]

#: ``current_player()`` at a terminal state (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL = -4

#: ``legal_moves()``'s default enumeration limit (an engine parameter, not a rule).
MOVE_LIMIT = 10_000

#: The optional parts a game may bring (``Game.part``): the module beside ``rules.py`` that holds
#: each by default, and the name the part has in it (``None``: the module itself).
PARTS = {"render": ("render", None), "board": ("board", "Adapter"), "kernel": ("kernel", "KERNEL"),
         "agents": ("agents", "AGENTS"), "tensor": ("tensor", None)}  # fmt: skip


def canonical_json(obj: Any) -> str:
    """Compact JSON exactly as the spec's canonical serialisation asks (keys in given order)."""
    return json.dumps(obj, separators=(",", ":"))


def _listing(names: list[str], room: int = 100) -> str:
    """``names`` for an error message, cut to about ``room`` characters (then how many in all)."""
    shown: list[str] = []
    for name in names:
        if shown and len(", ".join([*shown, name])) > room:
            return f"{', '.join(shown)}, ... ({len(names)} in all; list_games() describes them)"
        shown.append(name)
    return ", ".join(shown) or "none"


def _loads(cls: type[Game], options: dict[str, Any]) -> bool:
    """Whether ``cls`` accepts these options together."""
    try:
        cls(**options)
    except ValueError:
        return False
    return True


# ----------------------------------------------------------------------------- games


class Game:
    """A game under one rules config; it only makes states.

    Subclasses set ``info``, ``option_specs`` (rule options, in spec order),
    ``param_specs`` (engine parameters, which are not rules) and ``state_class``, and
    implement ``new_initial_state`` and ``state_from_dict``.
    """

    info: ClassVar[GameInfo]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    param_specs: ClassVar[tuple[Option, ...]] = ()
    #: Random games the conformance harness plays per harness config; games whose random games
    #: are long (hundreds of states, each fully checked) play fewer.
    harness_games: ClassVar[int] = 30
    #: Where the game's optional parts live when not beside its ``rules.py`` (see ``part``):
    #: kind -> ``"module"`` or ``"module:attribute"``, for example
    #: ``{"board": "mygame.widgets:Adapter"}``. Imported only when first asked for.
    parts: ClassVar[dict[str, str]] = {}

    def __init__(self, **options: Any):
        specs = {o.name: o for o in self.option_specs}
        params = {p.name: p for p in self.param_specs}
        unknown = sorted(set(options) - set(specs) - set(params))
        if unknown:
            names = [*specs, *params]
            asked = unknown[0]
            shown = excerpt(asked, limit=40) + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else "")
            close = difflib.get_close_matches(asked, names, n=1) if isinstance(asked, str) and len(asked) < 100 else []
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise RulesError(f"{self.info.name}: unknown option {shown}{hint}; valid options: {_listing(names)}")
        self.options: dict[str, Any] = {
            name: spec.validate(options[name], self.info.name) if name in options else spec.default
            for name, spec in specs.items()
        }
        self.params: dict[str, Any] = {
            name: spec.validate(options[name], self.info.name) if name in options else spec.default
            for name, spec in params.items()
        }
        self._check_options()

    def _check_options(self) -> None:
        """Cross-option constraints (for example Sinoda's teams and players)."""

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def num_players(self) -> int:
        """The number of seats; games whose count is an option override this."""
        return self.info.players[0]

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats partitioned into teams (every member of a winning team wins); default: alone."""
        return tuple((p,) for p in range(self.num_players))

    def team_of(self, player: int) -> int:
        """The index in ``teams()`` of ``player``'s team."""
        for index, team in enumerate(self.teams()):
            if player in team:
                return index
        raise ValueError(f"{self.name}: no seat {excerpt(player)}")

    def team_points(self, team: int, scores: list[float]) -> float:
        """Team ``team``'s points from ``scores()`` for matches: the sum of its members' scores.
        Games whose scores already give each player the team's value (Capitals) override this."""
        return sum(scores[p] for p in self.teams()[team])

    @property
    def utility(self) -> str:
        """``info.utility``, unless the options change it (free-for-all against team play)."""
        return self.info.utility

    # --- optional hooks of the designer's metrics (``stats.report_card``) ---------------------

    @property
    def can_draw(self) -> bool:
        """Whether a game under these rules can end in a draw; a game that cannot (a tie-break
        always names a winner) has no drawishness on its report card."""
        return True

    @property
    def num_sites(self) -> int | None:
        """The number of board sites ``State.occupied_sites`` counts, for board coverage; ``None``
        (the default) for a game without a board of sites that pieces occupy."""
        return None

    def state_space_log10(self) -> float | None:
        """An upper bound on the number of positions under these rules, as log10 (Ludii's
        StateSpaceComplexity is such a bound); ``None`` (the default) when the game gives none."""
        return None

    def recorded_positions(self, actions: Iterable[int]) -> Iterator[tuple[Hashable, int | None]]:
        """``(State.key(), State.occupied_sites())`` of each position of a recorded game (a
        ``simulate`` row's ``actions``): the initial state, then the state after each action
        that ends a move, for repetition and coverage. This default replays the actions in the
        engine, which checks each one (an illegal action raises ``IllegalActionError``); a game
        whose engine is slow at that may override it with a quicker way to the same values
        (Sygo's ``replay.positions``)."""
        state = self.new_initial_state()
        yield state.key(), state.occupied_sites()
        for action in actions:
            state.apply_action(int(action))
            if not state.mid_turn():
                yield state.key(), state.occupied_sites()

    @property
    def game_type(self) -> GameType:
        return GameType(
            self.info.information, self.utility, min(self.info.players), max(self.info.players), self.num_players
        )

    @classmethod
    def harness_configs(cls) -> list[dict[str, Any]]:
        """The option sets the conformance harness plays: the defaults, each finite option at each
        other value, and every option at its last listed value at once (when that loads).

        Games override this to add combinations whose options need each other (Sinoda's
        ``{"players": 4, "teams": "pairs"}``) or to keep big boards out of the harness.

        >>> from tabletop_lab import load_game
        >>> type(load_game("cross_endodoi")).harness_configs()[:3]
        [{}, {'seeds_per_hole': 6}, {'skip_origin': True}]
        """
        variants: list[dict[str, Any]] = [{}]
        for spec in cls.option_specs:
            for value in spec.choices or ():
                if not same_value(value, spec.default) and _loads(cls, {spec.name: value}):
                    variants.append({spec.name: value})
        changed = {k: v for variant in variants[1:] for k, v in variant.items()}
        if len(variants) > 2 and _loads(cls, changed):
            variants.append(changed)
        return variants

    @classmethod
    def part(cls, kind: str) -> Any:
        """The game's part of ``kind``, imported on first use; ``None`` when the game has none.

        ``"render"``: its renderer module (``draw``, ``FIGSIZE``, ``AXES_RECT``); ``"board"``: its
        board adapter class; ``"kernel"``: its compiled playout kernel (``KERNEL``); ``"agents"``:
        its own agents, ``{name: Agent class}``. Each is found where ``parts`` says, else in the
        module of that name beside the ``rules.py`` (or package ``__init__``) defining the class:
        a game package's ``render.py``, ``board.py`` (``Adapter``), ``kernel.py`` (``KERNEL``) and
        ``agents.py`` (``AGENTS``). This is the one way shared code finds what a game brings.

        >>> from tabletop_lab import load_game
        >>> type(load_game("cross_endodoi")).part("render").__name__
        'tabletop_lab.games.cross_endodoi.render'
        """
        if kind not in PARTS:
            raise ValueError(f"unknown game part {excerpt(kind)}; parts: {', '.join(PARTS)}")
        module_file, attribute = PARTS[kind]
        target = cls.parts.get(kind)
        if target is None:
            package = _game_package(cls)
            if package is None or importlib.util.find_spec(f"{package}.{module_file}") is None:
                return None
            target = f"{package}.{module_file}"
        name, _, attribute = target.partition(":") if ":" in target else (target, "", attribute or "")
        found = importlib.import_module(name)
        return getattr(found, attribute) if attribute else found

    # --- tensors, as OpenSpiel places them (each game's encoding lives in its own module) ---

    # The encoding is the game's ``tensor`` part (``Game.part``): ``num_distinct_actions(game)``,
    # ``observation_size(game)`` and ``encode(game, observation, player)``
    # (see ``games/cross_endodoi/tensor.py``).

    def num_distinct_actions(self) -> int:
        """How many action ints exist under these options: every action is in ``0..n-1``.

        >>> from tabletop_lab import load_game
        >>> load_game("cross_endodoi").num_distinct_actions()
        12
        """
        return self._tensor_hooks().num_distinct_actions(self)

    def observation_tensor_shape(self) -> list[int]:
        """The shape of ``State.observation_tensor``: one flat axis, ``[players + encoding]``.

        The tensor starts with the observer's seat, one-hot; the rest is the game's encoding.
        Every tensor is a flat list of floats, since rules code stays free of numpy.

        >>> from tabletop_lab import load_game
        >>> load_game("cross_endodoi").observation_tensor_shape()
        [18]
        """
        return [self.num_players + self._tensor_hooks().observation_size(self)]

    def _tensor_hooks(self) -> Any:
        hooks = type(self).part("tensor")
        if hooks is None:
            raise NotImplementedError(f"{self.name}: no tensor encoding (the game has no tensor part)")
        return hooks

    def new_initial_state(self) -> State:
        raise NotImplementedError

    def state_from_dict(self, data: Any) -> State:
        """Read a position from its JSON object (any key order); raises ``PositionError``."""
        raise NotImplementedError

    def state_from_json(self, text: str) -> State:
        return self.state_from_dict(read_json(text, f"{self.name}: position"))

    def state_from_notation(self, text: str) -> State:
        raise PositionError(f"{self.name} has no text notation; use state_from_dict or state_from_json")

    def load_position(self, text: str) -> State:
        """Read a position in text notation or JSON, whichever ``text`` is."""
        if not isinstance(text, str):
            raise PositionError(f"{self.name}: a position is text (notation or JSON), got {type(text).__name__}")
        if text.lstrip().startswith("{"):
            return self.state_from_json(text)
        return self.state_from_notation(text)

    def state_from_observation(self, data: Any, player: int, rng: Any) -> State:
        """A position ``player`` cannot tell from their observation ``data`` (``observation(player)``),
        the cards hidden from them dealt with ``rng`` (a ``random.Random``); a Play board's Load
        takes back the view it shows. Perfect information: the position itself; games with hidden
        information override this, the default refuses."""
        if self.info.perfect_information:
            return self.state_from_dict(data)
        raise PositionError(f"{self.name}: cannot deal the hidden cards of a view; load a full position")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.options == self.options and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, canonical_json(self.options)))

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self._default(k)}
        changed.update({k: v for k, v in self.params.items() if v != self._default(k)})
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"load_game({self.name!r}{args})"

    def _default(self, name: str) -> Any:
        for spec in self.option_specs + self.param_specs:
            if spec.name == name:
                return spec.default
        raise KeyError(name)


# ----------------------------------------------------------------------------- states


class State:
    """A position plus the actions that led to it from where play started.

    Subclasses implement the rules through a few hooks:

    * ``current_player``, ``is_terminal``, ``result``, ``scores``;
    * ``_legal_actions()`` (never called at a terminal state);
    * ``_illegal_reason(action)``: ``None`` when legal, else the rule broken, in words;
    * ``_apply(action)``: play a legal action, raising before it changes anything;
    * ``action_to_string``, ``string_to_action``, ``to_dict``, ``key``.

    Everything else (validation, history, moves, observations, records) lives here once.
    """

    game: Game

    def __init__(self, game: Game, start: dict | None = None):
        self.game = game
        self._history: list[int] = []
        self._start = start  # the position play started from, if not the initial one
        self._move_start = 0  # index in _history where the current move began (moves of several actions)
        self._multi_action = game.info.multi_action_moves

    # --- the rules hooks ---------------------------------------------------------------

    def current_player(self) -> int:
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def result(self) -> Result | None:
        """The outcome when terminal, else ``None``."""
        raise NotImplementedError

    def scores(self) -> list[float]:
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _illegal_reason(self, action: int) -> str | None:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        raise NotImplementedError

    def to_dict(self) -> dict:
        raise NotImplementedError

    def key(self) -> tuple:
        """A hashable value that two states share exactly when they are the same state; mid-turn,
        it includes the turn's progress (search merges transpositions by it)."""
        raise NotImplementedError

    # --- hooks of games whose moves take several actions ---------------------------------

    def mid_turn(self) -> bool:
        """True while a move of several actions is in progress: the state is not a position."""
        return False

    def _move_actions(self, text: str) -> list[int]:
        """The actions that play the whole move ``text`` from this position, in a legal order.

        Raise ``ActionSyntaxError`` for a malformed move and ``IllegalActionError`` (naming the
        rule) for one that cannot be played. One action by default.
        """
        return [self.string_to_action(text)]

    def _move_string(self, actions: list[int]) -> str:
        """The canonical string of the completed move made of ``actions``, played from here."""
        (action,) = actions
        return self.action_to_string(action)

    def foresee(self, actions: Iterable[str]) -> None:
        """Replays (``GameRecord``, ``move_history``) call this between moves with the action
        strings still to be played, the next move's first; a game reads as many as it needs.

        A game whose stone-by-stone test may not prove on its own that an action of a legal move
        keeps the move completable (Sygo's ``growth="all"``, past its search limit) checks the
        whole move here and keeps it as the proof, so that a recorded game replays. It may only
        prove legal what the rules allow. The default ignores them.
        """

    def _progress_dict(self) -> dict:
        """The engine's view of a turn in progress, for displays and records (not a position).

        Games with moves of several actions override this with what a display needs (the board
        as it stands, the marks of the turn); this default names the move so far.
        """
        return {"game": self.game.name, "to_move": self.current_player(), "move_so_far": self.move_in_progress()}

    # --- play -----------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The atomic actions of the player to move, in the spec's listing order."""
        if self.is_terminal():
            return []
        return self._legal_actions()

    def apply_action(self, action: int) -> None:
        """Play ``action``; on any error the state is left exactly as it was."""
        if type(action) is not int:
            raise ActionSyntaxError(
                f"{self.game.name}: an action is an int from legal_actions(), got {excerpt(action)}; "
                "use apply_move() for move strings"
            )
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"{self.game.name}: {self.action_to_string(action)!r} is illegal: {reason}")
        self._apply(action)
        self._history.append(action)
        if self._multi_action and not self.mid_turn():
            self._move_start = len(self._history)

    def child(self, action: int) -> State:
        """A new state after ``action``; this one is unchanged."""
        new = self.clone()
        new.apply_action(action)
        return new

    def clone(self) -> State:
        new = object.__new__(type(self))  # copy.copy's result, without its __reduce_ex__ detour
        new.__dict__.update(self.__dict__)
        new._history = list(self._history)
        self._copy_into(new)
        return new

    def _copy_into(self, new: State) -> None:
        """Give ``new`` its own copies of every mutable field (shallow copy already made)."""
        raise NotImplementedError

    def occupied_sites(self) -> int | None:
        """The board sites holding a piece at this position, as a bit mask (bit ``i``: site ``i``
        of ``game.num_sites``), for board coverage; ``None`` by default (no board of sites)."""
        return None

    def returns(self) -> list[float]:
        """One float per player: +1 per winner, -1 per other player, 0 in a draw or mid-game."""
        result = self.result()
        if result is None:
            return [0.0] * self.game.num_players
        return result.returns()

    def evaluate(self) -> list[float]:
        """A heuristic value in [-1, 1] per player; ``returns()`` at the end."""
        return self.returns()

    def history(self) -> list[int]:
        """The actions played since the start (initial or loaded) position."""
        return list(self._history)

    def history_strings(self) -> list[str]:
        return [self.action_to_string(a) for a in self._history]

    def start_position(self) -> dict | None:
        """The position play started from when it was loaded, else ``None`` (the initial one)."""
        return self._start

    # --- whole moves -------------------------------------------------------------------

    def legal_moves(self, limit: int | None = MOVE_LIMIT) -> list[str]:
        """Canonical strings of every legal whole move from this position.

        In games of one action per move these are the legal actions' strings, in their order.
        Otherwise every sequence of actions up to the next position is explored depth first,
        turns in progress that are the same state (by ``key()``) explored once, and the moves
        listed in order of first discovery; games whose spec fixes another order, or that need a
        faster enumerator, override this. More than ``limit`` moves (``None``: no limit) raises
        ``EnumerationLimitError``: the engine can still test and play any move given as a string.
        """
        if self.mid_turn():
            raise IllegalActionError(
                f"{self.game.name}: a move is in progress ({' '.join(self.move_in_progress())}); "
                "finish it action by action"
            )
        if not self.game.info.multi_action_moves:
            return [self.action_to_string(a) for a in self.legal_actions()]
        moves: dict[str, None] = {}
        seen: set = set()

        def walk(state: State, path: list[int]) -> None:
            for action in state.legal_actions():
                after = state.child(action)
                if after.mid_turn():
                    key = after.key()
                    if key not in seen:
                        seen.add(key)
                        walk(after, path + [action])
                    continue
                moves[self._move_string(path + [action])] = None
                if limit is not None and len(moves) > limit:
                    raise EnumerationLimitError(
                        f"{self.game.name}: more than {limit} legal moves here; raise the limit "
                        "(legal_moves(limit=...)), or play action by action with legal_actions()"
                    )

        walk(self, [])
        return list(moves)

    def apply_move(self, text: str) -> None:
        """Play a whole move given as a string; the state is unchanged on any error."""
        if not isinstance(text, str):
            raise ActionSyntaxError(
                f"{self.game.name}: a move is a string such as those of legal_moves(), got {excerpt(text)}"
            )
        if not self.game.info.multi_action_moves:
            self.apply_action(self.string_to_action(text))
            return
        trial = self._play_move(text)
        vars(self).update(vars(trial))

    def parse_move(self, text: str) -> int:
        """The action for ``text``, checked to be legal, without playing it (one-action moves),
        or, in games of several actions per move, the first action of the move ``text``."""
        if not isinstance(text, str):
            raise ActionSyntaxError(
                f"{self.game.name}: a move is a string such as those of legal_moves(), got {excerpt(text)}"
            )
        if self.game.info.multi_action_moves:
            return self._play_move(text).history()[len(self._history)]
        action = self.string_to_action(text)
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(f"{self.game.name}: {excerpt(text)} is illegal: {reason}")
        return action

    def _play_move(self, text: str) -> State:
        """A clone with the whole move ``text`` played, or the engine's error."""
        if self.mid_turn():
            raise IllegalActionError(
                f"{self.game.name}: a move is in progress ({' '.join(self.move_in_progress())}); "
                "finish it action by action before playing a whole move"
            )
        if self.is_terminal():
            raise IllegalActionError(f"{self.game.name}: {excerpt(text)} is illegal: the game is over")
        trial = self.clone()
        for action in self._move_actions(text):
            trial.apply_action(action)
        if trial.mid_turn():
            raise IllegalActionError(
                f"{self.game.name}: {excerpt(text)} is not a whole move; it stops after {' '.join(trial.move_in_progress())}"
            )
        return trial

    def move_in_progress(self) -> list[str]:
        """The action strings of the move in progress (empty between moves)."""
        if not self._multi_action or not self.mid_turn():
            return []
        return [self.action_to_string(a) for a in self._history[self._move_start :]]

    def move_history(self) -> list[str]:
        """The canonical strings of the completed moves since the start position (in games of
        several actions per move, replayed from the start to find where each move ends)."""
        if not self._multi_action:
            return self.history_strings()
        start = self.game.state_from_dict(self._start) if self._start is not None else self.game.new_initial_state()
        moves, path = [], []
        position = start.clone()
        played = self._history[: self._move_start]
        for index, action in enumerate(played):
            if not path:
                start.foresee(start.action_to_string(a) for a in played[index:])
            path.append(action)
            start.apply_action(action)
            if not start.mid_turn():
                moves.append(position._move_string(path))
                position, path = start.clone(), []
        return moves

    # --- positions and observations -------------------------------------------------------

    def to_json(self) -> str:
        """The spec's canonical JSON serialisation."""
        return canonical_json(self.to_dict())

    def notation(self) -> str:
        raise PositionError(f"{self.game.name} has no text notation; use to_json()")

    def snapshot(self) -> dict:
        """The position (``to_dict()``) between moves, the engine's view of the turn mid-turn.

        Displays, observations and the simulation runner read this; only a position loads back.
        """
        return self._progress_dict() if self.mid_turn() else self.to_dict()

    def observation(self, player: int) -> dict:
        """What ``player`` may see: ``snapshot()`` in perfect-information games; games with hidden
        information override this to mask what ``player`` may not see."""
        self._check_player(player)
        return self.snapshot()

    def resample(self, player: int, rng: Any) -> State:
        """A state ``player`` cannot tell from this one, others' hidden data drawn with ``rng``.

        Perfect-information games have nothing hidden, so this is a clone. Information-set
        search plays from such states; the harness checks observations ignore the difference.
        """
        self._check_player(player)
        return self.clone()

    def reveals(self, action: int) -> bool:
        """Whether playing ``action`` shows a seat something that was hidden from it (a showdown,
        the end of a round): takebacks stop there. Never with perfect information; games with
        hidden information override this, the default being safe (every action reveals)."""
        return not self.game.info.perfect_information

    def observed_action_string(self, action: int, player: int) -> str:
        """How ``player`` sees ``action`` (games with hidden actions mask it)."""
        return self.action_to_string(action)

    def information_state_string(self, player: int) -> str:
        """Everything ``player`` knows: their observation and the actions as they saw them."""
        seen = " ".join(self.observed_action_string(a, player) for a in self._history)
        return f"{canonical_json(self.observation(player))} | {seen}"

    def legal_actions_mask(self) -> list[int]:
        """1 at each legal action, 0 elsewhere, ``game.num_distinct_actions()`` long (OpenSpiel's)."""
        mask = [0] * self.game.num_distinct_actions()
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def observation_tensor(self, player: int) -> list[float]:
        """``player``'s observation as a flat list of floats, ``game.observation_tensor_shape()`` long.

        Encoded from ``observation(player)`` alone, so a seat's tensor never depends on another
        seat's hidden data: the observer's seat one-hot, then the game's encoding.
        """
        self._check_player(player)
        seat = [0.0] * self.game.num_players
        seat[player] = 1.0
        return seat + self.game._tensor_hooks().encode(self.game, self.observation(player), player)

    def _check_player(self, player: int) -> None:
        if type(player) is not int or not 0 <= player < self.game.num_players:
            raise ValueError(f"{self.game.name}: player must be 0..{self.game.num_players - 1}, got {excerpt(player)}")

    # --- dunder -----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.game == self.game and other.key() == self.key()

    __hash__ = None  # states are mutable

    def __str__(self) -> str:
        if self.mid_turn():
            return canonical_json(self._progress_dict())
        return self.notation() if self.game.info.has_notation else self.to_json()

    def __repr__(self) -> str:
        if self.mid_turn():
            return f"<{self.game.name} move in progress: {' '.join(self.move_in_progress())} | {self}>"
        if self.game.info.has_notation:
            return f"{self.game!r}.state_from_notation({self.notation()!r})"
        return f"{self.game!r}.state_from_json({self.to_json()!r})"

    def _repr_png_(self) -> bytes | None:
        """Draw the position when a notebook cell ends with a state, with the game's renderer
        (``Game.part("render")``, which imports matplotlib); ``None`` for a game without one."""
        renderer = type(self.game).part("render")
        if renderer is None:
            return None
        buffer = io.BytesIO()
        renderer.draw(self).figure.savefig(buffer, format="png")
        return buffer.getvalue()

    def _repr_svg_(self) -> str | None:
        """The position as SVG, crisp at any size, its page colours following the notebook's
        theme (``render.state_svg``, theme ``"auto"``); ``None`` for a game without a renderer.
        The rendering layer is found when a notebook asks, as ``Game.part`` finds the game's
        renderer: this module imports no drawing code."""
        if type(self.game).part("render") is None:
            return None
        return importlib.import_module(f"{__package__}.render").state_svg(self)


def _game_package(cls: type) -> str | None:
    """The game package holding ``cls``: its module's package when the module is ``rules`` (a game
    laid out as ``tabletop_lab/games/<name>/`` is) or a package's ``__init__``; else ``None``."""
    module = cls.__module__
    package, _, last = module.rpartition(".")
    if last == "rules" and package:
        return package
    try:
        spec = importlib.util.find_spec(module)
    except ValueError:  # a class defined in __main__ has no module to look beside
        return None
    return module if spec is not None and spec.submodule_search_locations is not None else None


# ----------------------------------------------------------------------------- position helpers


def check_keys(data: Any, keys: Iterable[str], game: str) -> None:
    """Raise ``PositionError`` unless ``data`` is a dict with exactly ``keys``, holding only JSON
    values without deep nesting or huge numbers (``parsing.check_json_shape``)."""
    keys = list(keys)
    if not isinstance(data, dict):
        raise PositionError(f"{game}: a position must be a JSON object, got {type(data).__name__}")
    missing = [k for k in keys if k not in data]
    extra = [k for k in data if k not in keys]
    if missing:
        raise PositionError(f"{game}: position is missing key(s) {', '.join(missing)}")
    if extra:
        shown = ", ".join(excerpt(k, limit=40) for k in extra[:5]) + (", ..." if len(extra) > 5 else "")
        raise PositionError(f"{game}: position has unknown key(s) {shown}; expected {', '.join(keys)}")
    if type(data["game"]) is not str or data["game"] != game:
        raise PositionError(f"{game}: field 'game' must be {game!r}, got {excerpt(data['game'])}")
    check_json_shape(data, f"{game}: position")


def check_int_list(value: Any, length: int, field_name: str, game: str, maximum: int = MAX_COUNT) -> list[int]:
    """A list of ``length`` ints in 0..``maximum`` (booleans refused), or ``PositionError``."""
    if not isinstance(value, list) or len(value) != length:
        raise PositionError(f"{game}: field {field_name!r} must be a list of {length} integers, got {excerpt(value)}")
    for i, v in enumerate(value):
        if type(v) is not int:
            raise PositionError(f"{game}: {field_name}[{i}] must be an integer, got {excerpt(v)}")
        if v < 0:
            raise PositionError(f"{game}: {field_name}[{i}] is negative ({excerpt(v)})")
        if v > maximum:
            raise PositionError(f"{game}: {field_name}[{i}] is {excerpt(v)}, more than the maximum {maximum}")
    return list(value)


def one_hot(index: int | None, size: int) -> list[float]:
    """``size`` floats, 1.0 at ``index`` and 0.0 elsewhere (all 0.0 for ``None``): tensor encodings.

    >>> one_hot(1, 3)
    [0.0, 1.0, 0.0]
    """
    return [float(index == k) for k in range(size)]
