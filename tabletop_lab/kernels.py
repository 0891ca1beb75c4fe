"""Compiled playout kernels: an optional accelerator behind a game's Python engine.

The Python engine is the reference, the one people, widgets and notebooks use. A game may add
``tabletop_lab/games/<name>/kernel.py`` defining ``KERNEL`` (found by ``Game.part("kernel")``), an object that plays whole random
games and random rollouts on a flat array form of the state, exactly by the engine's rules and
with the random streams of ``tabletop_lab.streams``. ``playout_kernel(game)`` finds it; the
simulation runner (random against random) and MCTS (rollouts) then use it automatically, with
identical results: a kernel only changes the speed. A game without a kernel runs at Python speed.

Switch kernels off with the environment variable ``TABLETOP_KERNELS=0`` (read on every call) or
``use_kernels(False)``. Kernel modules are imported on first use, so ``import tabletop_lab``
does not load numba; without numba installed every game runs in Python.

A kernel compiles on its first use on a machine: seconds for most games, half a minute or more
for Sygo. Where a person waits for one move, that is too long: inside ``ready_kernels_only()``
(the board asks its agents there) a game whose compiled code is not in numba's cache yet plays
in Python (the same moves) while ``python -m tabletop_lab.precompile <name>`` fills the cache in
a background process; once it is done, later calls use the kernel.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .core import Game, State
from .errors import EngineLimitError
from .streams import choice_index, next_draw

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FINISHED",
    "RULE_CAP",
    "CUT",
    "REPLAY",
    "PlayedGames",
    "RecordedGame",
    "PlayoutKernel",
    "TreeRoot",
    "kernels_enabled",
    "use_kernels",
    "ready_kernels_only",
    "KERNEL_PATHS",
    "compiled_path_keys",
    "compile_notice",
    "compiling_in_background",
    "playout_kernel",
    "rollout_function",
    "random_rollout",
]

#: ``PlayedGames.outcome`` codes: ended by the rules; ended by a rule's safety cap
#: (``Result.cap_reached``); cut at ``max_actions``; not played (the Python engine must play it,
#: e.g. to raise the engine's own ``EngineLimitError``).
FINISHED, RULE_CAP, CUT, REPLAY = 0, 1, 2, -1

_ENV = "TABLETOP_KERNELS"
_switch: bool | None = None  # set by use_kernels(); None: follow the environment
_found: dict[type, Any] = {}  # Game class -> its KERNEL, or None
_ready_only = contextvars.ContextVar("tabletop_lab_ready_kernels_only", default=False)
_compiled: set[str] = set()  # compiled paths (compiled_path_keys) known to load without compiling
_compiling: dict[str, subprocess.Popen] = {}  # a config's first path key -> its background `tabletop_lab.precompile`

#: A game's compiled paths, in the order ``precompile.compile_game`` fills numba's cache with
#: them: ``"games"``, the kernel's random games (``simulate``'s random seats), and ``"search"``,
#: the search agents' compiled tree search (or compiled rollouts, where a game has no tree
#: operations), which builds on the first. An agent names the ones it plays through
#: (``Agent.kernel_paths``), so that a wait for the compiler is announced for what will compile.
KERNEL_PATHS = ("games", "search")


class PlayedGames(NamedTuple):
    """A batch of random games played by a kernel; one entry per game (numpy arrays)."""

    outcome: np.ndarray  # int8: FINISHED, RULE_CAP, CUT or REPLAY
    winners: np.ndarray  # int64 bit mask: bit p set when player p is among the winners
    scores: np.ndarray  # (n, players): the game's scores at the end
    reason: np.ndarray  # int8 index into ``reasons``
    reasons: tuple[str, ...]  # the ``Result.reason`` words
    n_turns: np.ndarray  # int32: runs of moves by one player
    n_moves: np.ndarray  # int32: moves (a move ends on a position)
    n_actions: np.ndarray  # int32
    final: np.ndarray  # ASCII bytes (or str): the final notation, or canonical JSON for games without one


class RecordedGame(NamedTuple):
    """One random game a kernel played from a given state, action by action: what the engine
    checks it against (``testing.check_kernel_game``)."""

    actions: list[int]  # the kernel's actions in order (up to the REPLAY point for such a game)
    n_legal: list[int]  # how many legal actions the kernel counted before each of them
    played: PlayedGames  # the game as ``random_games`` reports it: a batch of one


def new_record(max_actions: int) -> np.ndarray:
    """Where a kernel's game loop records a game: row 0 its actions, row 1 the number of legal
    actions before each (never 0 for an action taken, so the zeros mark the end)."""
    import numpy as np

    return np.zeros((2, max_actions), np.int64)


def as_recorded(record: np.ndarray, played: PlayedGames) -> RecordedGame:
    """The ``RecordedGame`` of a ``new_record`` filled by a kernel, and the game's batch of one."""
    taken = int((record[1] > 0).sum())
    return RecordedGame(record[0, :taken].tolist(), record[1, :taken].tolist(), played)


class TreeRoot(NamedTuple):
    """What ``MCTSAgent``'s and ``AlphaBetaAgent``'s compiled searches need from a kernel."""

    state: np.ndarray  # int64: the kernel's array form of the root state
    key_width: int  # its first key_width entries are equal exactly when the states' key() are
    rules: tuple  # the constants and tables the game's tree operations read
    max_legal: int  # at least the number of legal actions of any state of this game
    entry: Any  # the game's compiled ``uct_search`` (see compiled_search.py)
    alphabeta: Any = None  # its compiled ``alphabeta_iteration``, if any (see compiled_alphabeta.py)


class PlayoutKernel(Protocol):
    """What a game's ``KERNEL`` provides."""

    def supports(self, game: Game) -> bool:
        """Whether the kernel plays this rules config (and engine parameters) exactly."""

    def random_games(self, game: Game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        """Play ``len(streams)`` games from the initial position; in game ``g`` the player in
        seat ``p`` chooses uniformly with ``choice_index`` from stream ``streams[g, p]`` (uint64),
        as ``RandomAgent`` does."""

    def recorded_game(self, state: State, streams: np.ndarray, max_actions: int) -> RecordedGame:
        """One game as ``random_games`` plays it, but from ``state`` (unchanged; mid-turn states
        included) and with each action and the number of legal actions before it recorded."""

    def rollout(self, state: State, budget: int, stream: int) -> tuple[list[float], int]:
        """``random_rollout`` on a copy of ``state``: same values and final stream state."""

    # Optional: a name for a rules config the kernel compiles other code for than the defaults'
    # (Sygo's ``"growth=all"``), so that its compile is recorded apart (``compiled_path_keys``).
    def compile_variant(self, game: Game) -> str:
        """``""`` for the code every other config of the game shares."""

    # Optional: the tree operations that let ``MCTSAgent`` search in compiled code.
    def tree_root(self, state: State) -> TreeRoot | None:
        """``state`` for ``compiled_search.search_root``, or ``None`` when the kernel cannot
        search this state (or config) exactly as the Python search would."""


def kernels_enabled() -> bool:
    """Whether compiled kernels may be used: ``use_kernels`` if called, else ``TABLETOP_KERNELS``."""
    if _switch is not None:
        return _switch
    return os.environ.get(_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def use_kernels(enabled: bool | None) -> bool | None:
    """Turn kernels on or off in this process; ``None`` follows ``TABLETOP_KERNELS`` again.
    Returns the previous setting, to restore it."""
    global _switch
    previous, _switch = _switch, enabled
    return previous


@contextlib.contextmanager
def ready_kernels_only() -> Iterator[None]:
    """Within this context (in this thread or task), use a game's kernel only if it is compiled
    already; otherwise play in Python and start compiling it in a background process (once per
    process and game). Results are the same either way; only a first use waits less."""
    token = _ready_only.set(True)
    try:
        yield
    finally:
        _ready_only.reset(token)


def playout_kernel(game: Game) -> PlayoutKernel | None:
    """The compiled kernel that plays ``game`` exactly, or ``None`` (switched off, no kernel for
    this game or this config, numba not installed, or not compiled yet inside
    ``ready_kernels_only``)."""
    if not kernels_enabled():
        return None
    kernel = _kernel_of(game)
    if kernel is None:
        return None
    if _ready_only.get() and not all(_is_compiled(key) for key in compiled_path_keys(game)):
        _compile_in_background(game)
        return None
    return kernel


def _kernel_of(game: Game) -> PlayoutKernel | None:
    """The game's kernel if it plays this rules config, whether kernels are switched on or not."""
    cls = type(game)
    if cls not in _found:
        _found[cls] = _import_kernel(cls)
    kernel = _found[cls]
    return kernel if kernel is not None and kernel.supports(game) else None


def compiled_path_keys(game: Game, paths: Iterable[str] = KERNEL_PATHS) -> list[str]:
    """The names ``jit.record_compiled`` keeps the compiled ``paths`` of ``game``'s rules config
    under: ``"sygo.games"``, ``"sygo.search"``; ``"sygo.games.growth=all"`` for a config whose
    kernel compiles other code (``PlayoutKernel.compile_variant``)."""
    variant = getattr(_kernel_of(game), "compile_variant", None)
    suffix = variant(game) if variant else ""
    return [".".join(part for part in (game.name, path, suffix) if part) for path in paths]


def compile_notice(game: Game, agents: Iterable[Any] | None = None) -> str | None:
    """What to tell a person about to wait for ``game``'s first compile on this machine, e.g.
    ``"compiling Sygo (about 20 s, once per machine)"``: the compiled paths that ``agents`` play
    through (``Agent.kernel_paths``; every path when no agents are given) and are not in numba's
    cache yet, with the time ``tabletop-lab compile`` measured last for them
    (``jit.compile_seconds``). None when nothing will compile: no kernel plays ``game`` here, its
    paths are compiled already, or none of ``agents`` plays through a kernel."""
    paths = [p for p in KERNEL_PATHS if agents is None or any(p in agent.kernel_paths for agent in agents)]
    if not paths or playout_kernel(game) is None:
        return None
    pending = [key for key in compiled_path_keys(game, paths) if not _is_compiled(key)]
    if not pending:
        return None
    from .jit import compile_seconds  # numba is loaded: the game's kernel module imported it

    seconds = [compile_seconds(key) for key in pending]
    about = f"about {sum(seconds):.0f} s, " if None not in seconds else ""
    return f"compiling {game.info.title} ({about}once per machine)"


def compiling_in_background(game: Game) -> bool:
    """Whether this process started compiling ``game``'s kernel (for its rules config) in the
    background (``ready_kernels_only``): until it is done, its agents play in Python, much slower."""
    return _kernel_of(game) is not None and compiled_path_keys(game)[0] in _compiling


def _is_compiled(key: str) -> bool:
    """Whether the compiled path ``key`` would load from numba's cache (``jit.is_compiled``)."""
    if key not in _compiled:
        from .jit import is_compiled  # numba is loaded: the game's kernel module imported it

        if is_compiled(key):
            _compiled.add(key)
    return key in _compiled


def _compile_in_background(game: Game) -> None:
    """Start ``python -m tabletop_lab.precompile <name>`` at low priority for ``game``'s rules
    config (its options are passed where its kernel compiles other code for them), unless this
    process has.

    The child runs in the directory holding this package, which ``-m`` puts first on its path:
    it compiles the very package this process imported, whatever ``PYTHONPATH`` says."""
    key = compiled_path_keys(game)[0]
    if key in _compiling:
        return
    command = [sys.executable, "-m", "tabletop_lab.precompile", game.name]
    if key != f"{game.name}.games":
        command += ["--options", json.dumps(dict(game.options))]
    if shutil.which("nice"):
        command = ["nice", "-n", "10", *command]
    _compiling[key] = subprocess.Popen(
        command,
        cwd=Path(__file__).resolve().parents[1],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def rollout_function(game: Game):
    """``rollout(state, budget, stream) -> (values, stream)`` for ``game``: its kernel's, else
    ``random_rollout``. Both give the same values from the same stream."""
    kernel = playout_kernel(game)
    return random_rollout if kernel is None else kernel.rollout


def random_rollout(state: State, budget: int, stream: int) -> tuple[list[float], int]:
    """Play uniformly random actions on ``state`` (changed in place) until the end or ``budget``
    actions; return ``returns()`` at the end, else ``evaluate()``, and the stream's new state.

    Each action is ``legal[choice_index(draw, len(legal))]`` with one draw of the stream. An
    action the engine declines (``EngineLimitError``, the state unchanged: a Cross-endodoi
    sowing that never ends) ends the rollout there, evaluated: a search must not die of a line
    nobody would play.
    """
    legal_actions, apply_action = state.legal_actions, state.apply_action
    for _ in range(budget):
        legal = legal_actions()
        if not legal:
            break
        stream, draw = next_draw(stream)
        try:
            apply_action(legal[choice_index(draw, len(legal))])
        except EngineLimitError:
            break
    return (state.returns() if state.is_terminal() else state.evaluate()), stream


def _import_kernel(cls: type[Game]) -> Any:
    """The game's ``KERNEL`` (``Game.part("kernel")``); ``None`` when it has none, or (with a
    warning) when numba cannot be imported."""
    try:
        return cls.part("kernel")
    except ImportError as exc:  # numba missing or incompatible: the Python engine plays
        warnings.warn(f"{cls.info.name}: compiled kernels unavailable ({exc}); playing at Python speed", stacklevel=3)
        return None
