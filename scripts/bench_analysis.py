"""How stable the analysis's best move is at about a second, and how long a review of a game takes.

    nice .venv/bin/python scripts/bench_analysis.py [--seconds 1] [--seeds 10] [--game sinoda] [--moves 60]

For every game (or ``--game``):

* **stability**: each curated position of ``data/<game>/positions.json`` (the game not over) is
  analysed ``--seeds`` times at ``seconds=--seconds``, seeds 0, 1, ...; it prints the share of
  analyses that agree with the most frequent best move (mean over positions), the share of
  positions where all seeds agree, and the mean time of an analysis;
* **review**: a game of ``--moves`` whole moves (fewer if it ends first: MCTS at 50 simulations a
  move plays both sides from a fixed seed; Sygo on 9x9) is reviewed at the default budget, timed.
  The issue's goal is under 30 s for 60 moves.

Times depend on the machine and its load: the script reports them and asserts nothing. The first
search of a game on a machine compiles its kernel; a warm-up analysis per game comes first.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter

from tabletop_lab import GameRecord, load_game
from tabletop_lab.agents import make_agent
from tabletop_lab.analysis import analyse, review
from tabletop_lab.data import load_positions

#: The games, in the order the docs list them.
GAMES = ("cross_endodoi", "sygo", "sinoda", "sinomilia", "capitals")
#: Options of the game reviewed (the default 19x19 Sygo board is for longer games than 60 moves).
REVIEW_OPTIONS = {"sygo": {"size": 9}}


def stability(game: str, seconds: float, seeds: int) -> tuple[int, float, float, float]:
    """(positions, mean agreement with the modal best move, share of positions all agree, s/analysis)."""
    agreements, unanimous, times = [], 0, []
    for named in load_positions(game).values():
        state = named.state()
        if state.is_terminal():
            continue
        analyse(state, budget=1)  # compiles the kernel for these options, if not yet
        best = []
        for seed in range(seeds):
            start = time.perf_counter()
            best.append(analyse(state, seconds=seconds, seed=seed).best_move)
            times.append(time.perf_counter() - start)
        top = Counter(best).most_common(1)[0][1]
        agreements.append(top / seeds)
        unanimous += top == seeds
    return len(agreements), statistics.mean(agreements), unanimous / len(agreements), statistics.mean(times)


def review_time(game: str, moves: int) -> tuple[int, float]:
    """(moves reviewed, seconds) for a review of a seeded game of about ``moves`` whole moves."""
    state = load_game(game, **REVIEW_OPTIONS.get(game, {})).new_initial_state()
    players = make_agent("mcts:iterations=50", seed=1) if state.game.info.perfect_information else None
    players = players or make_agent("ismcts:iterations=50", seed=1)
    while not state.is_terminal() and len(state.move_history()) < moves:
        state.apply_action(players.choose_action(state))
        while state.mid_turn():
            state.apply_action(players.choose_action(state))
    record = GameRecord.from_state(state, seed=1)
    start = time.perf_counter()
    frame = review(record, progress=False)
    return len(frame), time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append", help="a game (repeatable); default all")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per analysis (default 1)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per position (default 10)")
    parser.add_argument("--moves", type=int, default=60, help="whole moves of the reviewed game (default 60)")
    args = parser.parse_args()
    print(
        f"{'game':15} {'positions':>9} {'agree':>6} {'all agree':>9} {'s/analysis':>10} {'review moves':>12} {'review s':>8}"
    )
    for game in args.game or GAMES:
        n, agree, unanimous, per = stability(game, args.seconds, args.seeds)
        moves, spent = review_time(game, args.moves)
        print(f"{game:15} {n:9d} {agree:6.2f} {unanimous:9.2f} {per:10.2f} {moves:12d} {spent:8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
