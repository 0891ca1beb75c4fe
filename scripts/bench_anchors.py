"""tabletop_lab against OpenSpiel, side by side in one run on this machine.

    .venv/bin/pip install -e ".[interop]"     # OpenSpiel 2.x, for the anchors
    .venv/bin/python scripts/bench_anchors.py [--game cross_endodoi] [--seconds 1] [--rounds 3]
    .venv/bin/python scripts/bench_anchors.py --game sinoda --option players=6
    .venv/bin/python scripts/bench_anchors.py --game sygo --option size=19   # against Go 19x19

For every game with an engine and an anchor in ``ANCHORS`` (the closest OpenSpiel game), it
measures, alternating the contenders round by round so that a busy machine hurts them alike:

* random games/s and actions/s: a tight loop of uniformly random actions from the initial
  position, on tabletop_lab's reference path (Python engine), its compiled path (the game's
  kernel, batches of 1,000 games) and OpenSpiel's C++ game driven from Python by the same loop;
* ``simulate()`` random against random, games/s, against the compiled loop;
* MCTS simulations/s choosing the first move with ``--mcts-iterations`` simulations a move:
  ``MCTSAgent`` (reference and compiled rollouts) against OpenSpiel's ``MCTSBot``, both its Python
  one and its C++ one (``pyspiel.MCTSBot``), each with a single random rollout per leaf
  (``RandomRolloutEvaluator``, ``solve=False``: plain UCT as ours). The ratios are ours over
  OpenSpiel's C++ game (random play) and over its C++ search (MCTS).

It prints the median of the rounds and the ratios. Figures are noisy on a shared machine; the
script reports them and asserts nothing. Without OpenSpiel it says so and measures tabletop_lab only.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tabletop_lab import bench, list_games, load_game
from tabletop_lab.cli import _options

#: tabletop_lab game -> (OpenSpiel game, its parameters): the closest game OpenSpiel has.
ANCHORS = {
    "cross_endodoi": ("mancala", {}),
    "sygo": ("go", {"board_size": 9}),
    "sinoda": ("breakthrough", {}),
    "capitals": ("breakthrough", {}),
    "sinomilia": ("liars_dice", {}),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", help="one game (default: every game with an engine and an anchor)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measure and round (default 1)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each figure is their median (default 3)")
    parser.add_argument("--mcts-iterations", type=int, default=1000, help="MCTS simulations a move (default 1000)")
    parser.add_argument("--workers", action="store_true", help="also time simulate() with workers=2 against 1")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a rule option of --game, e.g. players=6"
    )
    args = parser.parse_args()
    if args.option and not args.game:
        parser.error("--option needs --game: options belong to one game")
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("OpenSpiel is not installed (pip install -e '.[interop]'): measuring tabletop_lab only\n")
    names = [args.game] if args.game else [g["name"] for g in list_games() if g["name"] in ANCHORS]
    for name in names:
        report(name, pyspiel, args)
    return 0


def report(name: str, pyspiel, args) -> None:
    options = _options(args.option)
    game = load_game(name, **options)
    anchor_name, anchor_params = ANCHORS[name]
    if "size" in options and "board_size" in anchor_params:  # the anchor plays the same board
        anchor_params = {**anchor_params, "board_size": options["size"]}
    anchor = pyspiel.load_game(anchor_name, anchor_params) if pyspiel else None
    seconds, iterations = args.seconds, args.mcts_iterations
    measures = {
        "random, reference": lambda: bench.random_play(game, seconds, compiled=False),
        "random, compiled": lambda: bench.random_play(game, seconds, compiled=True),
        "mcts, reference": lambda: bench.mcts_rate(game, seconds, iterations, compiled=False),
        "mcts, compiled": lambda: bench.mcts_rate(game, seconds, iterations, compiled=True),
    }
    if anchor is not None:
        measures["random, OpenSpiel"] = lambda: openspiel_random(anchor, seconds)
        if game.info.perfect_information:
            measures["mcts, OpenSpiel Python"] = lambda: openspiel_mcts(anchor, seconds, iterations)
            measures["mcts, OpenSpiel"] = lambda: openspiel_cpp_mcts(pyspiel, anchor, seconds, iterations)
    figures: dict[str, list] = {key: [] for key in measures}
    simulate_ratio, simulate_games, workers_ratio = [], [], []
    bench.random_play(game, 0.01, compiled=True)  # load the kernel before any clock runs
    for _ in range(args.rounds):
        for key, measure in measures.items():
            figures[key].append(measure())
        compiled = figures["random, compiled"][-1]
        if compiled is not None:
            n = max(1000, round(compiled.games_per_s * seconds))
            simulate_games.append(bench.simulate_rate(game, n, compiled=True))
            simulate_ratio.append(simulate_games[-1] / compiled.games_per_s)
            if args.workers:
                one = bench.simulate_rate(game, 2 * n, compiled=True)
                workers_ratio.append(bench.simulate_rate(game, 2 * n, compiled=True, workers=2) / one)

    def median(key: str, field: str | None = None) -> float | None:
        values = [v if field is None else getattr(v, field) for v in figures.get(key, []) if v is not None]
        return statistics.median(values) if values else None

    print(
        f"{game!r} against OpenSpiel {anchor_name}{anchor_params or ''}: median of {args.rounds} rounds of {seconds:g} s"
    )
    rows = [
        ("random games/s", "random", "games_per_s"),
        ("random actions/s", "random", "actions_per_s"),
        ("actions per game", "random", "actions_per_game"),
        (f"MCTS simulations/s ({iterations}/move)", "mcts", None),
    ]
    print(f"{'measure':<34}{'reference':>12}{'compiled':>12}{'OpenSpiel':>12}{'ref/OS':>8}{'comp/OS':>8}")
    for label, kind, field in rows:
        ref, comp, os_ = (median(f"{kind}, {path}", field) for path in ("reference", "compiled", "OpenSpiel"))
        shown = [fmt(ref), fmt(comp), fmt(os_)]
        ratios = [ratio(ref, os_), ratio(comp, os_)] if field != "actions_per_game" else ["", ""]
        print(f"{label:<34}{shown[0]:>12}{shown[1]:>12}{shown[2]:>12}{ratios[0]:>8}{ratios[1]:>8}")
    python_mcts = median("mcts, OpenSpiel Python")
    if python_mcts is not None:
        print(f"{'  OpenSpiel Python MCTSBot':<34}{'':>12}{'':>12}{fmt(python_mcts):>12}")
    if simulate_ratio:
        games, anchor_games = statistics.median(simulate_games), median("random, OpenSpiel", "games_per_s")
        print(
            f"simulate() random vs random: {fmt(games)} games/s, {ratio(games, anchor_games)} of OpenSpiel's random games/s"
        )
        print(f"simulate() random vs random / compiled loop: {statistics.median(simulate_ratio):.2f}")
    if workers_ratio:
        print(f"simulate() workers=2 / workers=1: {statistics.median(workers_ratio):.2f}")
    print()


def ratio(ours: float | None, anchor: float | None) -> str:
    return f"{ours / anchor:.2f}" if ours and anchor else "-"


def fmt(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def openspiel_random(game, seconds: float) -> bench.RandomRate:
    """OpenSpiel's C++ game driven from Python by the loop ``bench.random_play`` uses."""
    rng = random.Random(0)
    uniform, choices = rng.random, rng.choices
    n_games = n_actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(choices(outcomes, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(uniform() * len(legal))])
            n_actions += 1
        n_games += 1
    elapsed = time.perf_counter() - started
    return bench.RandomRate(n_games / elapsed, n_actions / elapsed, n_actions / n_games)


def openspiel_mcts(game, seconds: float, iterations: int) -> float:
    """Simulations/s of OpenSpiel's Python ``MCTSBot`` choosing the first move."""
    import numpy as np
    from open_spiel.python.algorithms import mcts

    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2 * 2**0.5, iterations, evaluator, solve=False, random_state=rng)
    return first_move_rate(bot, game, seconds, iterations)


def openspiel_cpp_mcts(pyspiel, game, seconds: float, iterations: int) -> float:
    """Simulations/s of OpenSpiel's C++ ``MCTSBot`` (``pyspiel.MCTSBot``) choosing the first move."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    bot = pyspiel.MCTSBot(game, evaluator, 2 * 2**0.5, iterations, 1000, False, 0, False)
    return first_move_rate(bot, game, seconds, iterations)


def first_move_rate(bot, game, seconds: float, iterations: int) -> float:
    """Simulations/s of ``bot`` (``iterations`` a step) choosing the first move for ``seconds``."""
    state, calls = game.new_initial_state(), 0
    started = time.perf_counter()
    while calls == 0 or time.perf_counter() - started < seconds:
        bot.step(state)
        calls += 1
    return calls * iterations / (time.perf_counter() - started)


if __name__ == "__main__":
    sys.exit(main())
