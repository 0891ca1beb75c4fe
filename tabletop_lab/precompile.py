"""Fill numba's cache with a game's compiled paths before anyone waits for them.

``compile_game(game)`` runs each compiled path a game has once, on tiny inputs: its kernel's
random games (``simulate``'s path) and, for perfect-information games with tree operations, a
two-simulation compiled search (``MCTSAgent``'s), else a rollout (the search agents' path). numba
compiles them, or loads them from its disk cache, and the game is recorded as compiled
(``jit.record_compiled``), so that boards use its kernel at once from then on
(``kernels.ready_kernels_only``). Only one process compiles a game at a time (``jit.compiling``).

``python -m tabletop_lab.precompile [game ...]`` does it in a process of its own, for every game
when none is named; ``kernels`` starts that in the background when a board needs a kernel that is
not compiled yet, and ``tabletop-lab compile`` calls ``compile_game`` for each game.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence

import numpy as np

from .core import Game
from .kernels import compile_notice, playout_kernel
from .registry import list_games, load_game
from .streams import fresh_streams

__all__ = ["compile_game", "main"]


def compile_game(game: Game) -> float | None:
    """Compile (or load from numba's cache) every compiled path of ``game`` and record it, with
    how long a real compile took (``kernels.compile_notice`` says it beforehand); returns the
    seconds it took, the figure recorded, or None when the game has no kernel here (none for it
    or its options, numba missing, switched off)."""
    kernel = playout_kernel(game)
    if kernel is None:
        return None
    from .compiled_search import search_root  # numba is loaded: the game's kernel imported it
    from .jit import compiling, record_compiled

    notice = compile_notice(game)
    if notice:
        print(f"{game.name}: {notice}", flush=True)
    started = time.perf_counter()
    with compiling(game.name):
        seeds = np.arange(2 * game.num_players, dtype=np.uint64).reshape(2, game.num_players)
        kernel.random_games(game, fresh_streams(seeds), game.info.max_actions)
        state = game.new_initial_state()
        searched = game.info.perfect_information and search_root(state, random.Random(0), 2, 1.0, False)
        if not searched:
            kernel.rollout(state.clone(), game.info.max_actions, 1)
        took = time.perf_counter() - started
        record_compiled(game.name, took if notice else None)  # a load from the cache is no compile
    return took


def main(argv: Sequence[str] | None = None) -> int:
    """Compile the games named in ``argv`` (default: the command line's; none named: every game),
    printing how long each took."""
    names = list(sys.argv[1:] if argv is None else argv) or [info["name"] for info in list_games()]
    for name in names:
        took = compile_game(load_game(name))
        if took is not None:
            print(f"{name}: compiled in {took:.1f} s", flush=True)
        else:
            print(f"{name}: no compiled kernel (TABLETOP_KERNELS=0, numba missing, or none for this game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
