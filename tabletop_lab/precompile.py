"""Fill numba's cache with a game's compiled paths before anyone waits for them.

``compile_game(game)`` runs each compiled path of the game's rules config once, on tiny inputs,
in the order of ``kernels.KERNEL_PATHS``: its kernel's random games (``"games"``, ``simulate``'s
path) and then, for perfect-information games with tree operations, a two-simulation compiled
search (``"search"``, ``MCTSAgent``'s), else a rollout (the search agents' path). numba compiles
them, or loads them from its disk cache, and each path is recorded as compiled with how long it
took (``jit.record_compiled``), so that boards use the kernel at once from then on
(``kernels.ready_kernels_only``) and a wait for the compiler says how long it will be
(``kernels.compile_notice``). Only one process compiles a game at a time (``jit.compiling``).

``python -m tabletop_lab.precompile [game ...] [--options JSON]`` does it in a process of its
own, for every game (default options) when none is named; ``kernels`` starts that in the
background when a board needs a kernel that is not compiled yet, and ``tabletop-lab compile``
calls ``compile_game`` for each game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence

import numpy as np

from .core import Game
from .kernels import KERNEL_PATHS, compiled_path_keys, playout_kernel
from .registry import list_games, load_game
from .streams import fresh_streams

__all__ = ["compile_game", "main"]

#: How ``main`` names the paths it reports.
PATH_NAMES = {"games": "random games", "search": "search"}


def compile_game(game: Game) -> dict[str, float] | None:
    """Compile (or load from numba's cache) every compiled path of ``game``'s rules config and
    record each (``kernels.KERNEL_PATHS``), with how long a real compile took; returns the seconds
    each path took, or None when the game has no kernel here (none for it or its options, numba
    missing, switched off). A path compiles on top of the ones before it: its figure is what it
    adds."""
    kernel = playout_kernel(game)
    if kernel is None:
        return None
    from .compiled_search import search_root  # numba is loaded: the game's kernel imported it
    from .jit import compiling, is_compiled, record_compiled

    def random_games() -> None:
        seeds = np.arange(2 * game.num_players, dtype=np.uint64).reshape(2, game.num_players)
        kernel.random_games(game, fresh_streams(seeds), game.info.max_actions)

    def search() -> None:
        state = game.new_initial_state()
        searched = game.info.perfect_information and search_root(state, random.Random(0), 2, 1.0, False)
        if not searched:
            kernel.rollout(state.clone(), game.info.max_actions, 1)

    runs = {"games": random_games, "search": search}
    took: dict[str, float] = {}
    with compiling(game.name):
        for path, key in zip(KERNEL_PATHS, compiled_path_keys(game)):
            fresh = not is_compiled(key)
            started = time.perf_counter()
            runs[path]()
            took[path] = time.perf_counter() - started
            record_compiled(key, took[path] if fresh else None)  # a load from the cache is no compile
    return took


def main(argv: Sequence[str] | None = None) -> int:
    """Compile the games named in ``argv`` (default: the command line's; none named: every game)
    under ``--options`` (a JSON object, for one game) or their defaults, printing what is about
    to compile (``kernels.compile_notice``) and how long each path took."""
    from .kernels import compile_notice

    parser = argparse.ArgumentParser(prog="python -m tabletop_lab.precompile", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to compile (default: every game)")
    parser.add_argument("--options", type=json.loads, default={}, help="rule options as a JSON object (one game)")
    args = parser.parse_args(argv)
    if args.options and len(args.games) != 1:
        parser.error("--options needs exactly one game")
    names = args.games or [info["name"] for info in list_games()]
    for name in names:
        game = load_game(name, **args.options)
        if notice := compile_notice(game):
            print(f"{name}: {notice}", flush=True)
        took = compile_game(game)
        if took is not None:
            paths = ", ".join(f"{PATH_NAMES[path]} {seconds:.1f} s" for path, seconds in took.items())
            print(f"{name}: compiled in {sum(took.values()):.1f} s ({paths})", flush=True)
        else:
            print(f"{name}: no compiled kernel (TABLETOP_KERNELS=0, numba missing, or none for this game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
