"""What every agent is: a seeded chooser of actions that never changes the state it is shown."""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core import Game, State
from ..errors import excerpt
from ..streams import choice_index, fresh_stream, next_draw

__all__ = ["Agent", "RandomAgent", "MAX_ITERATIONS", "MAX_SECONDS", "MAX_DEPTH", "MAX_NODES"]

#: The largest budgets the searching agents accept. Larger ones would run for hours or days
#: per decision (MCTS manages a few thousand simulations a second on these games) and could
#: only be stopped by killing the process, so they are refused as mistakes.
MAX_ITERATIONS = 1_000_000  # MCTS simulations per decision
MAX_SECONDS = 600.0  # thinking time per decision, MCTS and alpha-beta
MAX_DEPTH = 64  # alpha-beta depth, in actions
MAX_NODES = 10_000_000  # alpha-beta positions expanded per decision


class Agent:
    """Chooses an action for the player to move.

    Subclasses implement ``choose_action(state) -> int``; they may read and clone the state but
    must not mutate it. All randomness comes from ``self.rng``, seeded by ``seed``, so a game
    played by seeded agents replays exactly. ``name`` is the short registry name (``"mcts"``),
    and ``settings()`` the keyword arguments that rebuild the agent, shown in ``repr``.
    ``kernel_paths`` names the compiled paths of a game's kernel the agent plays through where
    there is one (``kernels.KERNEL_PATHS``), so that its first move on a machine may wait for
    numba's compiler (``kernels.compile_notice`` says so, and for how long).
    """

    name = "agent"
    #: The agent's kind in words, for people ("MCTS"): ``display_name`` starts with it (by
    #: default the registry name, capitalised).
    title: str | None = None
    kernel_paths: tuple[str, ...] = ()

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The agent's ``random.Random``, made from ``seed`` on first use: agents that never
        need one (``RandomAgent``) cost nothing to reset between games."""
        if self._rng is None:
            self._rng = random.Random(self.seed)
        return self._rng

    def choose_action(self, state: State) -> int:
        raise NotImplementedError

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        """Why this agent cannot play ``game`` (under its options), or ``None`` when it can.

        Seat pickers and ``make_agent(spec, game=...)`` offer only agents that return ``None``;
        ``choose_action`` refuses the others with this reason. The base agent plays anything.
        """
        return None

    def _check_supported(self, state: State) -> list[int]:
        """The legal actions of ``state``; ``ValueError`` when this agent cannot play the game
        or the game is over."""
        reason = self.unsupported_reason(state.game)
        if reason is not None:
            raise ValueError(f"{type(self).__name__} cannot play {state.game.name}: {reason}")
        return legal_or_raise(state)

    def reset(self, seed: int | None) -> None:
        """Start the agent's randomness afresh from ``seed`` (the runner does this per game)."""
        self.seed = seed
        self._rng = None

    def settings(self) -> dict[str, Any]:
        return {}

    @property
    def label(self) -> str:
        """A short label for tables: ``"mcts(iterations=200)"``; plain name without settings."""
        args = ",".join(f"{k}={v}" for k, v in self.settings().items())
        return f"{self.name}({args})" if args else self.name

    @property
    def display_name(self) -> str:
        """The agent in words for seat pickers and status lines ("MCTS, 300 playouts"); ``label``,
        which saved studies store, stays the machine form."""
        title = self.title or self.name.replace("_", " ").capitalize()
        described = self.describe()
        return f"{title}, {', '.join(described)}" if described else title

    def describe(self) -> list[str]:
        """The settings in words, one phrase each ("300 playouts"); by default ``key value``."""
        return [f"{key.replace('_', ' ')} {_word(value)}" for key, value in self.settings().items()]

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.settings().items())
        return f"{type(self).__name__}(seed={self.seed!r}{args})"


class RandomAgent(Agent):
    """Uniform over ``legal_actions()``: in games of several decisions per turn this is not
    uniform over whole turns, which statistics should say.

    It draws from a ``tabletop_lab.streams`` stream started by its seed, not from ``rng``: a
    compiled kernel replays the same stream, so ``simulate`` plays random-against-random games
    in a kernel where the game has one, with the very rows the Python engine would give.
    """

    name = "random"
    title = "Random"
    kernel_paths = ("games",)  # simulate() lets the kernel play random seats

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self.stream = fresh_stream(seed)

    def reset(self, seed: int | None) -> None:
        super().reset(seed)
        self.stream = fresh_stream(seed)

    def choose_action(self, state: State) -> int:
        actions = self._check_supported(state)
        self.stream, draw = next_draw(self.stream)
        return actions[choice_index(draw, len(actions))]


def _word(value: Any) -> str:
    """A setting's value as people write it: ``True`` -> "on", ``0.5`` -> "0.5"."""
    if value is True:
        return "on"
    if value is False:
        return "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def budget_words(settings: dict[str, Any]) -> list[str]:
    """A search's settings in words: "300 playouts", "2 s per move", "depth 3", "at most 5000 positions"."""
    words = []
    for key, value in settings.items():
        if key == "iterations":
            words.append(f"{value} playouts")
        elif key == "seconds":
            words.append(f"{_word(float(value))} s per move")
        elif key == "depth":
            words.append(f"depth {value}")
        elif key == "nodes":
            words.append(f"at most {value} positions")
        elif key == "c":
            words.append(f"exploration {_word(float(value))}")
        elif key == "paranoid":
            words.append("paranoid" if value else "not paranoid")
        else:
            words.append(f"{key.replace('_', ' ')} {_word(value)}")
    return words


@contextmanager
def no_gc_pauses() -> Iterator[None]:
    """Inside: Python's cycle collector paused (as it was again after).

    A search tree is many small objects that all stay alive until the search ends; the collector
    would scan them again and again as they accumulate (it halves MCTS's simulations/s). Garbage
    made meanwhile is still freed by reference counting; cycles wait for the collector's return.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def legal_or_raise(state: State) -> list[int]:
    """The legal actions of ``state``, or a ``ValueError`` when the game is over."""
    actions = state.legal_actions()
    if not actions:
        raise ValueError(f"{state.game.name}: no legal action, the game is over")
    return actions


def needs_perfect_information(game: Game) -> str | None:
    """The reason a search over the true state cannot play ``game``, or ``None``."""
    if game.game_type.perfect_information:
        return None
    return "it searches the true state, which holds hidden information here (use ismcts)"


def check_number(
    owner: str,
    name: str,
    value: Any,
    *,
    minimum: float,
    inclusive: bool,
    integer: bool = False,
    maximum: float | None = None,
) -> None:
    """Raise ``ValueError`` unless ``value`` is a finite number (an int if ``integer``) above
    ``minimum`` and, when given, at most ``maximum``.

    Booleans are refused, as everywhere in tabletop_lab.
    """
    kinds = (int,) if integer else (int, float)
    ok = (
        type(value) in kinds
        and math.isfinite(value)
        and (value >= minimum if inclusive else value > minimum)
        and (maximum is None or value <= maximum)
    )
    if not ok:
        kind = "an integer" if integer else "a number"
        bound = f">= {minimum}" if inclusive else f"> {minimum}"
        if maximum is not None:
            bound += f" and <= {maximum}"
        raise ValueError(f"{owner}: {name} must be {kind} {bound}, got {excerpt(value)}")
