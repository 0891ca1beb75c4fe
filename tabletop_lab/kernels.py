"""Compiled playout kernels: an optional accelerator behind a game's Python engine.

The Python engine is the reference, the one people, widgets and notebooks use. A game may add
``tabletop_lab/games/<name>/kernel.py`` defining ``KERNEL``, an object that plays whole random
games and random rollouts on a flat array form of the state, exactly by the engine's rules and
with the random streams of ``tabletop_lab.streams``. ``playout_kernel(game)`` finds it; the
simulation runner (random against random) and MCTS (rollouts) then use it automatically, with
identical results: a kernel only changes the speed. A game without a kernel runs at Python speed.

Switch kernels off with the environment variable ``TABLETOP_KERNELS=0`` (read on every call) or
``use_kernels(False)``. Kernel modules are imported on first use, so ``import tabletop_lab``
does not load numba; without numba installed every game runs in Python.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import warnings
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .core import Game, State
from .streams import choice_index, next_draw

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "FINISHED",
    "RULE_CAP",
    "CUT",
    "REPLAY",
    "PlayedGames",
    "PlayoutKernel",
    "TreeRoot",
    "kernels_enabled",
    "use_kernels",
    "playout_kernel",
    "rollout_function",
    "random_rollout",
]

#: ``PlayedGames.outcome`` codes: ended by the rules; ended by a rule's safety cap
#: (``Result.cap_reached``); cut at ``max_actions``; not played (the Python engine must play it,
#: e.g. to raise the engine's own error such as ``LapLimitError``).
FINISHED, RULE_CAP, CUT, REPLAY = 0, 1, 2, -1

_ENV = "TABLETOP_KERNELS"
_switch: bool | None = None  # set by use_kernels(); None: follow the environment
_found: dict[type, Any] = {}  # Game class -> its KERNEL, or None


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


class TreeRoot(NamedTuple):
    """What ``MCTSAgent``'s compiled search (``agents.compiled_mcts``) needs from a kernel."""

    state: np.ndarray  # int64: the kernel's array form of the root state
    key_width: int  # its first key_width entries are equal exactly when the states' _key() are
    rules: tuple  # the constants and tables the game's tree operations read
    max_legal: int  # at least the number of legal actions of any state of this game
    entry: Any  # the game's compiled ``uct_search`` (see agents/compiled_mcts.py)


class PlayoutKernel(Protocol):
    """What a game's ``KERNEL`` provides."""

    def supports(self, game: Game) -> bool:
        """Whether the kernel plays this rules config (and engine parameters) exactly."""

    def random_games(self, game: Game, streams: np.ndarray, max_actions: int) -> PlayedGames:
        """Play ``len(streams)`` games from the initial position; in game ``g`` the player in
        seat ``p`` chooses uniformly with ``choice_index`` from stream ``streams[g, p]`` (uint64),
        as ``RandomAgent`` does."""

    def rollout(self, state: State, budget: int, stream: int) -> tuple[list[float], int]:
        """``random_rollout`` on a copy of ``state``: same values and final stream state."""

    # Optional: the tree operations that let ``MCTSAgent`` search in compiled code.
    def tree_root(self, state: State) -> TreeRoot | None:
        """``state`` for ``agents.compiled_mcts.search_root``, or ``None`` when the kernel cannot
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


def playout_kernel(game: Game) -> PlayoutKernel | None:
    """The compiled kernel that plays ``game`` exactly, or ``None`` (switched off, no kernel for
    this game or this config, or numba not installed)."""
    if not kernels_enabled():
        return None
    cls = type(game)
    if cls not in _found:
        _found[cls] = _import_kernel(cls)
    kernel = _found[cls]
    return kernel if kernel is not None and kernel.supports(game) else None


def rollout_function(game: Game):
    """``rollout(state, budget, stream) -> (values, stream)`` for ``game``: its kernel's, else
    ``random_rollout``. Both give the same values from the same stream."""
    kernel = playout_kernel(game)
    return random_rollout if kernel is None else kernel.rollout


def random_rollout(state: State, budget: int, stream: int) -> tuple[list[float], int]:
    """Play uniformly random actions on ``state`` (changed in place) until the end or ``budget``
    actions; return ``returns()`` at the end, else ``evaluate()``, and the stream's new state.

    Each action is ``legal[choice_index(draw, len(legal))]`` with one draw of the stream.
    """
    legal_actions, apply_action = state.legal_actions, state.apply_action
    for _ in range(budget):
        legal = legal_actions()
        if not legal:
            break
        stream, draw = next_draw(stream)
        apply_action(legal[choice_index(draw, len(legal))])
    return (state.returns() if state.is_terminal() else state.evaluate()), stream


def _import_kernel(cls: type) -> Any:
    """The ``KERNEL`` of the game package defining ``cls``; ``None`` when the package has no
    ``kernel.py``, or (with a warning) when numba cannot be imported."""
    package = cls.__module__.rpartition(".")[0]
    name = f"{package}.kernel"
    if not package or importlib.util.find_spec(name) is None:
        return None
    try:
        module = importlib.import_module(name)
    except ImportError as exc:  # numba missing or incompatible: the Python engine plays
        warnings.warn(f"{name}: compiled kernels unavailable ({exc}); playing at Python speed", stacklevel=3)
        return None
    return module.KERNEL
